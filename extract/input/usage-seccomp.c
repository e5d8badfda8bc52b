// SPDX-License-Identifier: GPL-2.0-only
/*
 * A seccomp profile (OCI runtime spec's linux.seccomp, Docker's
 * --security-opt seccomp=FILE) as what a program uses: the syscalls it
 * lets through, from "syscalls": [{"names": [...], "action": ...}] (and
 * the older single "name"), those whose action is not a refusal
 * (SCMP_ACT_ALLOW, _LOG, _TRACE, _NOTIFY); an ioctl rule's argument
 * filter on argument 1 with SCMP_CMP_EQ names a command. A profile whose
 * defaultAction allows is a deny list: it does not say what the program
 * uses, and is refused. Parsed with jansson; the file is bounded in size.
 */
#include "extract/input/usage.h"

#include <errno.h>
#include <jansson.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/usage.h"

#define PROFILE_MAX_BYTES (16u << 20)

/* Do calls under @action happen (rather than fail or kill)? */
static bool lets_through(const char *action)
{
	return !strcmp(action, "SCMP_ACT_ALLOW") || !strcmp(action, "SCMP_ACT_LOG") ||
	       !strcmp(action, "SCMP_ACT_TRACE") || !strcmp(action, "SCMP_ACT_NOTIFY");
}

/* An ioctl rule's "args": each {"index": 1, "value": CMD, "op": "SCMP_CMP_EQ"}. */
static int ioctl_args(const char *path, size_t rule, json_t *args, struct kd_usage *u)
{
	size_t i;
	json_t *a;

	if (!args || json_is_null(args))
		return 0;
	if (!json_is_array(args)) {
		kd_err("%s: syscalls[%zu].args: not an array", path, rule);
		return -KD_EFORMAT;
	}
	json_array_foreach(args, i, a) {
		json_t *index = json_object_get(a, "index"), *value = json_object_get(a, "value");
		json_t *op = json_object_get(a, "op");

		if (!json_is_object(a) || !json_is_integer(index) || !json_is_integer(value) ||
		    !json_is_string(op)) {
			kd_err("%s: syscalls[%zu].args[%zu]: not {\"index\", \"value\", \"op\"}",
			       path, rule, i);
			return -KD_EFORMAT;
		}
		if (json_integer_value(index) != 1 || strcmp(json_string_value(op), "SCMP_CMP_EQ") ||
		    json_integer_value(value) < 0 || json_integer_value(value) > UINT32_MAX)
			continue;
		if (kd_usage_add_ioctl_cmd(u, (uint32_t)json_integer_value(value)))
			return -ENOMEM;
	}
	return 0;
}

/* One element of "syscalls". */
static int rule(const char *path, size_t idx, json_t *r, struct kd_usage *u)
{
	json_t *names = json_object_get(r, "names"), *name = json_object_get(r, "name");
	json_t *action = json_object_get(r, "action"), *n;
	bool has_ioctl = false;
	size_t i;
	int err;

	if (!json_is_object(r) || !json_is_string(action) || (!names && !name) ||
	    (names && !json_is_array(names)) || (name && !json_is_string(name))) {
		kd_err("%s: syscalls[%zu]: not {\"names\": [...], \"action\": ...}", path, idx);
		return -KD_EFORMAT;
	}
	if (!lets_through(json_string_value(action)))
		return 0;
	if (name) {
		if (kd_usage_add_syscall(u, json_string_value(name), json_string_length(name)))
			return -ENOMEM;
		has_ioctl = !strcmp(json_string_value(name), "ioctl");
	}
	json_array_foreach(names, i, n) {
		if (!json_is_string(n)) {
			kd_err("%s: syscalls[%zu].names[%zu]: not a string", path, idx, i);
			return -KD_EFORMAT;
		}
		if (kd_usage_add_syscall(u, json_string_value(n), json_string_length(n)))
			return -ENOMEM;
		has_ioctl |= !strcmp(json_string_value(n), "ioctl");
	}
	err = has_ioctl ? ioctl_args(path, idx, json_object_get(r, "args"), u) : 0;
	return err;
}

int usage__read_seccomp(const char *path, struct kd_usage *u)
{
	struct kd_buf text = KD_BUF_INIT;
	json_t *root = NULL, *dflt, *rules, *r;
	json_error_t jerr;
	size_t i;
	int err;

	err = kd_buf_read_regular(&text, path, PROFILE_MAX_BYTES);
	if (err) {
		if (err == -KD_ELIMIT)
			kd_err("%s: a seccomp profile of more than %u MiB", path, PROFILE_MAX_BYTES >> 20);
		else
			kd_err("%s: %s", path, kd_strerror(err));
		goto out;
	}
	/* No duplicate keys: which of two "syscalls" would count is the parser's whim. */
	root = json_loadb(text.s, text.len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		kd_err("%s:%d: not a seccomp profile: %s", path, jerr.line, jerr.text);
		err = -KD_EFORMAT;
		goto out;
	}
	dflt = json_object_get(root, "defaultAction");
	rules = json_object_get(root, "syscalls");
	if (!json_is_object(root) || !json_is_string(dflt) || (rules && !json_is_array(rules))) {
		kd_err("%s: not a seccomp profile (no \"defaultAction\" string, or \"syscalls\""
		       " not an array)", path);
		err = -KD_EFORMAT;
		goto out;
	}
	if (lets_through(json_string_value(dflt))) {
		kd_err("%s: its defaultAction %s lets every syscall through: the profile does not"
		       " say which the program uses", path, json_string_value(dflt));
		err = -KD_EFORMAT;
		goto out;
	}
	json_array_foreach(rules, i, r) {
		err = rule(path, i, r, u);
		if (err)
			break;
	}
	if (err == -ENOMEM)
		kd_err("out of memory");
	if (!err) {
		u->label = kd_strdup("seccomp profile");
		if (!u->label) {
			kd_err("out of memory");
			err = -ENOMEM;
		}
	}
out:
	json_decref(root);
	kd_buf_release(&text);
	return err;
}
