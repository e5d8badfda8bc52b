/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * JSON output for every printer (diff's reports, check's, the probe's
 * mismatches): kd_json_str() writes one string literal; struct kd_json is a
 * small writer that nests objects and arrays and puts in the commas, the
 * colons and the indentation, so that no printer builds JSON by hand.
 *
 * A container is opened either in lines (each member or element on its own
 * line, indented two spaces for each container in lines around it) or inline (`{"a": 1, "b": [2, 3]}` on
 * one line). Closing the outermost container ends the line. Writing never
 * fails by itself: a write error is the FILE's (ferror(), fflush()).
 */
#ifndef KD_JSON_H
#define KD_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Write @s as a JSON string literal (escaped), or null when @s is NULL. */
void kd_json_str(FILE *f, const char *s);

/* Nesting deeper than this is a programmer's error: such a container and
 * all it holds are written as null. */
#define KD_JSON_MAX_DEPTH 16

struct kd_json {
	FILE *f;
	int depth;		/* containers open */
	int lines;		/* of those, opened in lines: the indentation */
	int overflow;		/* containers open past KD_JSON_MAX_DEPTH */
	bool after_key;		/* a key was written: its value comes next */
	struct {
		char close;	/* '}' or ']' */
		bool lines;	/* one member a line */
		bool empty;	/* nothing written in it yet */
	} open[KD_JSON_MAX_DEPTH];
};

/* A writer to @f, nothing open. */
void kd_json_init(struct kd_json *w, FILE *f);
/* Open an object or an array as the next value; @lines: one member a line. */
void kd_json_object(struct kd_json *w, bool lines);
void kd_json_array(struct kd_json *w, bool lines);
/* Close the innermost container. */
void kd_json_end(struct kd_json *w);
/* The key of the next member of the open object. */
void kd_json_key(struct kd_json *w, const char *key);
/* Values: a string (NULL: null), numbers, true/false, null. */
void kd_json_string(struct kd_json *w, const char *s);
void kd_json_int(struct kd_json *w, int64_t v);
void kd_json_uint(struct kd_json *w, uint64_t v);
void kd_json_bool(struct kd_json *w, bool v);
void kd_json_null(struct kd_json *w);
/* A member of the open object: its key, then the value. */
void kd_json_kstr(struct kd_json *w, const char *key, const char *s);
void kd_json_kint(struct kd_json *w, const char *key, int64_t v);
void kd_json_kuint(struct kd_json *w, const char *key, uint64_t v);
void kd_json_kbool(struct kd_json *w, const char *key, bool v);

#endif
