/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * spec drift: one extracted kernel (.kabi) held against a contract. Each
 * finding cites a rule of spec/check/CHECK.md (the table in check.c is the
 * same list): a spec'd syscall the kernel lacks, a parameter whose C type
 * cannot carry the spec's kind, a struct whose size or members differ from
 * what the spec states, a flag set naming an undefined constant or lacking
 * one of its family, an ioctl whose direction or argument disagrees with
 * its command number, a vDSO entry point or version node the kernel's
 * image lacks, an ioctl whose i386 layout differs served by a driver
 * whose compat_ioctl is compat_ptr_ioctl, a syscall of the kernel the
 * spec does not cover.
 * The check reads the DB through its API; its printers are
 * spec/check/report-text.c and report-json.c, called by cli/cmd-check.c.
 */
#ifndef KD_SPEC_CHECK_H
#define KD_SPEC_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct kdb;
struct spec;

/* The rules of spec/check/CHECK.md, in its order: the index of spec_check_rules(). */
enum spec_check_rule_id {
	CHECK_R_SYSCALL_MISSING,
	CHECK_R_SYSCALL_PARAMS_COUNT,
	CHECK_R_SYSCALL_PARAM_NAME,
	CHECK_R_SYSCALL_PARAM_TYPE,
	CHECK_R_STRUCT_MISSING,
	CHECK_R_STRUCT_SIZE,
	CHECK_R_STRUCT_SIZE_CONSTANT,
	CHECK_R_STRUCT_FIELD_MISSING,
	CHECK_R_STRUCT_FIELD_TYPE,
	CHECK_R_STRUCT_FIELD_UNLISTED,
	CHECK_R_STRUCT_FIELD_GATE,
	CHECK_R_FLAG_UNDEFINED,
	CHECK_R_FLAG_UNLISTED,
	CHECK_R_IOCTL_MISSING,
	CHECK_R_IOCTL_DIR,
	CHECK_R_IOCTL_ARG_TYPE,
	CHECK_R_IOCTL_ARG_UNKNOWN,
	CHECK_R_VDSO_IMAGE_MISSING,
	CHECK_R_VDSO_VERSION_MISSING,
	CHECK_R_VDSO_ENTRY_MISSING,
	CHECK_R_IOCTL_COMPAT_BROKEN,
	CHECK_R_SYSCALL_UNSPECIFIED,
	CHECK__NR_RULES
};

/* One row of spec/check/CHECK.md. */
struct spec_check_rule {
	const char *id;		/* "syscall-param-type" */
	const char *what;	/* what it finds, as in CHECK.md */
};

/* The rule table, in CHECK.md order (indexed by enum spec_check_rule_id); *n receives its length. */
const struct spec_check_rule *spec_check_rules(size_t *n);

struct spec_finding {
	const char *rule;	/* a rule id of spec_check_rules() */
	const char *file;	/* spec file name (relative to its directory); NULL: the kernel's */
	int line;		/* in @file; 0 when none */
	char *subject;		/* "openat2(how)", "struct open_how", "open_flags.O_FOO" */
	char *message;		/* the disagreement in words */
};

struct spec_check;

/*
 * Hold @db against @s. *out: free with spec_check__free(). Returns 0 (with
 * or without findings) or a negative code (reported through kd_err()).
 * Checks that need UAPI data (flag sets, size constants, ioctls) are
 * skipped when @db holds no constants; spec_check__has_uapi() says so.
 */
int spec__check(const struct spec *s, struct kdb *db, struct spec_check **out);
void spec_check__free(struct spec_check *r);

/* Findings in spec order (file load order, line), then the kernel's own. */
size_t spec_check__nr_findings(const struct spec_check *r);
const struct spec_finding *spec_check__finding(const struct spec_check *r, size_t i);
/* Native syscalls of the kernel (implemented, by name) and how many the spec declares. */
void spec_check__coverage(const struct spec_check *r, size_t *specified, size_t *total);
bool spec_check__has_uapi(const struct spec_check *r);
/* Did the extraction read the kernel's vDSO (else the vdso blocks were not checked)? */
bool spec_check__has_vdso(const struct spec_check *r);
/* The spec has vdso blocks that could not be checked: the .kabi holds no vDSO. */
bool spec_check__vdso_unchecked(const struct spec_check *r);
/* The kernel's release ("6.1.0-47-amd64"), or "?" */
const char *spec_check__release(const struct spec_check *r);

/* What a report names besides the result. */
struct spec_check_report {
	const char *kabi;	/* the kernel's file: "k.kabi" */
	const char *contract;	/* "spec/contract/ (installed)", "the contract stored in k.kabi" */
	size_t spec_files;
	const char *spec_hash;	/* hex */
};

struct kd_json;
/* The text report (spec/check/report-text.c, CHECK.md): header, findings, coverage, count. */
void spec_check__fprintf(const struct spec_check *r, const struct spec_check_report *rep, FILE *f);
/*
 * The JSON report's members kernel, contract, uapi, coverage and findings
 * (spec/check/report-json.c), into the object open in @w.
 */
void spec_check__json(const struct spec_check *r, const struct spec_check_report *rep,
		      struct kd_json *w);

#endif
