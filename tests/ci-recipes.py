# SPDX-License-Identifier: GPL-2.0-only
"""Run the CI jobs of doc/ci.md as the forge would (tests/t0725-ci-recipes.sh).

The doc is the test: its ```yaml blocks are read as they are, a GitLab
pipeline (jobs with a script) or a GitHub workflow (jobs with steps), and
for one event (a push to the default branch, or a merge request) every job
whose rules or if: conditions hold runs its commands in order, with bash,
in a fresh clone of the fixture kernel repository. What the forge itself
does is done here: the checkout, the GitLab cache and artifacts, the GitHub
cache, SARIF and artifact uploads, the variables a job is given and
the ${{ }} expressions. Anything the doc uses that
this emulation does not know (an action, a condition, a key) is an error,
so the doc cannot drift past the test. The forge's web API (curl, gh) is
the test's: stubs in PATH.

usage: ci-recipes.py DOC gitlab|github STATE REPO push|mr BRANCH VAR=VALUE...
Prints one line per job run: "JOB: success" or "JOB: failed (STEP: exit N)".
STATE holds the caches and artifacts between runs, ws/ the job's checkout.
"""
import json
import os
import re
import shutil
import subprocess
import sys

import yaml

DEFAULT_BRANCH = "master"


def yaml_blocks(doc):
    text = open(doc, encoding="utf-8").read()
    return [yaml.safe_load(b) for b in re.findall(r"^```yaml\n(.*?)^```", text, re.S | re.M)]


def git(*args, cwd=None):
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                          text=True).stdout.strip()


def fresh(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)


def checkout(repo, ws, rev, merge_into=None):
    """ws: a clone of repo at rev, or (a GitHub pull request) rev merged into merge_into."""
    shutil.rmtree(ws, ignore_errors=True)
    git("clone", "-q", repo, ws)
    git("checkout", "-q", "--detach", merge_into or rev, cwd=ws)
    if merge_into:
        git("-c", "user.name=ci", "-c", "user.email=ci@ci", "merge", "-q", "--no-ff",
            "--no-edit", rev, cwd=ws)
    return git("rev-parse", "HEAD", cwd=ws)


def cache_save(state, key, ws, paths):
    store = os.path.join(state, "cache", key)
    if os.path.exists(store):
        return      # keys are immutable: the first save stays
    for p in paths:
        src = os.path.join(ws, p)
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(store, p), symlinks=True)
        elif os.path.exists(src):
            os.makedirs(os.path.dirname(os.path.join(store, p)) or store, exist_ok=True)
            shutil.copy2(src, os.path.join(store, p))


def cache_restore(state, key, ws):
    store = os.path.join(state, "cache", key)
    if not os.path.isdir(store):
        return False
    shutil.copytree(store, ws, symlinks=True, dirs_exist_ok=True)
    return True


def run_bash(script, ws, env, flags):
    path = os.path.join(os.path.dirname(ws), "step.sh")
    with open(path, "w", encoding="utf-8") as f:
        f.write(script)
    return subprocess.run(["bash", *flags, path], cwd=ws, env=env).returncode


# --- GitLab ------------------------------------------------------------------

# Top-level keys of a pipeline that are not jobs.
GL_KEYWORDS = {"default", "include", "stages", "variables", "workflow", "image", "services",
               "cache", "before_script", "after_script"}


def gl_expand(s, variables):
    return re.sub(r"\$(\w+)", lambda m: variables.get(m.group(1), ""), s)


def gl_rule(cond, variables):
    """One comparison of variables and strings, as the doc's rules are."""
    m = re.fullmatch(r"\s*(\S+)\s*(==|!=)\s*(\S+)\s*", cond)
    if not m:
        raise SystemExit(f"ci-recipes: a GitLab rule this emulation does not read: {cond}")

    def value(t):
        if t.startswith("$"):
            return variables.get(t[1:])
        if t[0] == t[-1] == '"':
            return t[1:-1]
        raise SystemExit(f"ci-recipes: a GitLab rule operand this emulation does not read: {t}")
    a, b = value(m.group(1)), value(m.group(3))
    return (a == b and a is not None) if m.group(2) == "==" else a != b


def gl_job(jobs, name):
    job = dict(jobs[name])
    base = job.pop("extends", None)
    if base:
        job = {**gl_job(jobs, base), **job}
    return job


def gitlab(pipeline, state, repo, event, branch, cvars, env):
    ws = os.path.join(state, "ws")
    head = git("rev-parse", branch, cwd=repo)
    variables = dict(cvars)
    variables.update(CI_DEFAULT_BRANCH=DEFAULT_BRANCH, CI_PROJECT_DIR=ws, CI_PROJECT_ID="1",
                     CI_API_V4_URL="https://gitlab.invalid/api/v4", CI_JOB_TOKEN="job-token",
                     CI_COMMIT_SHA=head, CI_JOB_URL="https://gitlab.invalid/k/linux/-/jobs/1")
    if event == "push":
        variables.update(CI_PIPELINE_SOURCE="push", CI_COMMIT_BRANCH=branch)
    else:
        variables.update(CI_PIPELINE_SOURCE="merge_request_event", CI_MERGE_REQUEST_IID="7",
                         CI_MERGE_REQUEST_TARGET_BRANCH_NAME=DEFAULT_BRANCH,
                         CI_MERGE_REQUEST_DIFF_BASE_SHA=git("merge-base", DEFAULT_BRANCH, branch,
                                                            cwd=repo))
    for name in pipeline:
        if name.startswith(".") or not isinstance(pipeline[name], dict):
            continue
        if name in GL_KEYWORDS:
            continue
        job = gl_job(pipeline, name)
        rules = job.get("rules")
        if rules is not None and not any(gl_rule(r["if"], variables) for r in rules):
            continue
        checkout(repo, ws, head)
        cache = job.get("cache")
        if cache:
            cache_restore(state, gl_expand(cache["key"], variables), ws)
        lines = job.get("before_script", []) + job["script"]
        rc = run_bash("\n".join(lines) + "\n", ws, {**env, **variables}, ["-eo", "pipefail"])
        art = job.get("artifacts")
        if art and (rc == 0 or art.get("when") == "always"):
            ref = branch if event == "push" else f"refs/merge-requests/{variables['CI_MERGE_REQUEST_IID']}"
            for p in art["paths"]:
                if os.path.exists(os.path.join(ws, p)):
                    dest = os.path.join(state, "artifacts", ref, name, p)
                    os.makedirs(os.path.dirname(dest), exist_ok=True)
                    shutil.copy2(os.path.join(ws, p), dest)
        if cache and rc == 0:
            cache_save(state, gl_expand(cache["key"], variables), ws, cache["paths"])
        print(f"{name}: success" if rc == 0 else f"{name}: failed (script: exit {rc})")


# --- GitHub ------------------------------------------------------------------

TOKEN = re.compile(r"\s*(?:(?P<str>'(?:[^']|'')*')|(?P<op>==|!=|&&|\|\||!|\(|\)|,)"
                   r"|(?P<id>[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*))")


def gh_eval(expr, ctx, funcs):
    """A GitHub expression: context paths, strings, ==, !=, &&, ||, !, calls."""
    out, pos, expr = [], 0, expr.strip()
    while pos < len(expr):
        m = TOKEN.match(expr, pos)
        if not m or m.end() == pos:
            raise SystemExit(f"ci-recipes: an expression this emulation does not read: {expr}")
        pos = m.end()
        if m.group("str"):
            out.append(repr(m.group("str")[1:-1].replace("''", "'")))
        elif m.group("op"):
            out.append({"&&": " and ", "||": " or ", "!": " not "}.get(m.group("op"), m.group("op")))
        elif expr[pos:].lstrip().startswith("("):
            if m.group("id") not in funcs:
                raise SystemExit(f"ci-recipes: a function this emulation does not know: {m.group('id')}")
            out.append(f"funcs[{m.group('id')!r}]")
        else:
            out.append(f"look({m.group('id')!r})")

    def look(path):
        v = ctx
        for part in path.split("."):
            if not isinstance(v, dict) or part not in v:
                raise SystemExit(f"ci-recipes: a context value this emulation does not have: {path}")
            v = v[part]
        return v
    return eval("".join(out), {"__builtins__": {}}, {"look": look, "funcs": funcs})


def gh_interp(s, ctx, funcs):
    return re.sub(r"\$\{\{(.*?)\}\}", lambda m: str(gh_eval(m.group(1), ctx, funcs)), str(s))


def github(workflow, state, repo, event, branch, cvars, env):
    ws = os.path.join(state, "ws")
    temp = os.path.join(state, "runner-temp")
    head = git("rev-parse", branch, cwd=repo)
    base = git("rev-parse", DEFAULT_BRANCH, cwd=repo)
    on = workflow.get("on", workflow.get(True))     # YAML 1.1 reads `on` as true
    trigger = "push" if event == "push" else "pull_request"
    if trigger not in on:
        return
    for name, job in workflow["jobs"].items():
        fresh(temp)
        shutil.rmtree(ws, ignore_errors=True)
        os.makedirs(ws)
        sha = head if event == "push" else None
        ctx = {"github": {"event_name": trigger, "sha": sha, "token": "gh-token", "workspace": ws,
                          "event": {"number": 7, "pull_request": {"base": {"sha": base}}}},
               "vars": dict(cvars), "steps": {}}
        state_ok, failed, post = [True], None, []
        funcs = {"always": lambda: True, "success": lambda: state_ok[0],
                 "failure": lambda: not state_ok[0],
                 "hashFiles": lambda *p: "h" if any(os.path.exists(os.path.join(ws, x)) for x in p) else ""}
        path_add = []
        job_env = {k: gh_interp(v, ctx, funcs) for k, v in job.get("env", {}).items()}
        for i, step in enumerate(job["steps"]):
            cond = str(step.get("if", "success()")).replace("${{", "").replace("}}", "")
            if not gh_eval(cond, ctx, funcs):
                continue
            label = step.get("name") or step.get("uses") or f"step {i + 1}"
            outputs, rc = {}, 0
            with_ = {k: gh_interp(v, ctx, funcs) for k, v in step.get("with", {}).items()}
            uses = step.get("uses", "")
            if uses == "actions/checkout@v4":
                ctx["github"]["sha"] = checkout(repo, ws, head, None if event == "push" else base)
            elif uses == "actions/cache@v4":
                hit = cache_restore(state, with_["key"], ws)
                outputs["cache-hit"] = "true" if hit else "false"
                if not hit:
                    post.append((with_["key"], with_["path"]))
            elif uses == "actions/cache/save@v4":
                cache_save(state, with_["key"], ws, [with_["path"]])
            elif uses == "actions/cache/restore@v4":
                hit = cache_restore(state, with_["key"], ws)
                outputs["cache-hit"] = "true" if hit else "false"
                rc = 0 if hit or str(with_.get("fail-on-cache-miss")).lower() != "true" else 1
            elif uses == "github/codeql-action/upload-sarif@v3":
                with open(os.path.join(ws, with_["sarif_file"]), encoding="utf-8") as f:
                    rc = 0 if json.load(f).get("version") == "2.1.0" else 1
                dest = os.path.join(state, "uploads", f"{event}-{branch}.sarif")
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                shutil.copy2(os.path.join(ws, with_["sarif_file"]), dest)
            elif uses == "actions/upload-artifact@v4":
                # Kept as STATE/gh-artifacts/EVENT-BRANCH/NAME/PATH; none
                # found is a warning, as the action's default says.
                for p in str(with_["path"]).split("\n"):
                    src = os.path.join(ws, p.strip())
                    if p.strip() and os.path.isfile(src):
                        dest = os.path.join(state, "gh-artifacts", f"{event}-{branch}",
                                            with_.get("name", "artifact"), p.strip())
                        os.makedirs(os.path.dirname(dest), exist_ok=True)
                        shutil.copy2(src, dest)
            elif uses:
                raise SystemExit(f"ci-recipes: an action this emulation does not know: {uses}")
            else:
                gh_path = os.path.join(temp, "path")
                open(gh_path, "w").close()
                step_env = {**env, **job_env, "GITHUB_WORKSPACE": ws, "GITHUB_PATH": gh_path,
                            "RUNNER_TEMP": temp, "CI": "true", "GITHUB_ACTIONS": "true",
                            "GITHUB_SERVER_URL": "https://github.invalid",
                            "GITHUB_REPOSITORY": "k/linux", "GITHUB_RUN_ID": "1"}
                step_env.update({k: gh_interp(v, ctx, funcs) for k, v in step.get("env", {}).items()})
                step_env["PATH"] = ":".join(path_add + [step_env["PATH"]])
                rc = run_bash(gh_interp(step["run"], ctx, funcs), ws, step_env, ["-e"])
                with open(gh_path, encoding="utf-8") as f:
                    path_add = [p.strip() for p in f if p.strip()][::-1] + path_add
            if "id" in step:
                ctx["steps"][step["id"]] = {"outputs": outputs}
            if rc != 0 and state_ok[0]:
                state_ok[0], failed = False, f"{label}: exit {rc}"
        if state_ok[0]:
            for key, path in post:
                cache_save(state, key, ws, [path])
        print(f"{name}: success" if state_ok[0] else f"{name}: failed ({failed})")


def main():
    doc, forge, state, repo, event, branch, *assignments = sys.argv[1:]
    cvars = dict(a.split("=", 1) for a in assignments)
    # A job starts from the runner's environment, not from this test's: no
    # make jobserver, no kabi-diff or contract chosen by tests/run.
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("CI_", "GITHUB_", "KABI_DIFF", "MAKE", "MFLAGS"))}
    for block in yaml_blocks(doc):
        is_github = "jobs" in block
        if forge == ("github" if is_github else "gitlab"):
            (github if is_github else gitlab)(block, state, repo, event, branch, cvars, env)


if __name__ == "__main__":
    main()
