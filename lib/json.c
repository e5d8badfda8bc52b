// SPDX-License-Identifier: GPL-2.0-only
/*
 * JSON output: string literals with the escapes RFC 8259 requires (\u00XX
 * for the other controls), and the writer of json.h.
 */
#include "json.h"

#include <inttypes.h>

void kd_json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	for (; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\t': fputs("\\t", f); break;
		case '\r': fputs("\\r", f); break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

void kd_json_init(struct kd_json *w, FILE *f)
{
	w->f = f;
	w->depth = 0;
	w->lines = 0;
	w->overflow = 0;
	w->after_key = false;
}

static void indent(struct kd_json *w, int depth)
{
	fputc('\n', w->f);
	while (depth-- > 0)
		fputs("  ", w->f);
}

/*
 * What goes before a value or a key: the comma and the line break. False
 * inside a container past KD_JSON_MAX_DEPTH, where nothing is written.
 */
static bool before(struct kd_json *w)
{
	int t = w->depth - 1;

	if (w->overflow)
		return false;
	if (w->after_key) {
		w->after_key = false;
		return true;
	}
	if (t < 0)
		return true;
	if (!w->open[t].empty)
		fputc(',', w->f);
	if (w->open[t].lines)
		indent(w, w->lines);
	else if (!w->open[t].empty)
		fputc(' ', w->f);
	w->open[t].empty = false;
	return true;
}

static void open_container(struct kd_json *w, char open, char close, bool lines)
{
	if (!before(w)) {
		w->overflow++;
		return;
	}
	if (w->depth == KD_JSON_MAX_DEPTH) {
		fputs("null", w->f);
		w->overflow++;
		return;
	}
	fputc(open, w->f);
	w->open[w->depth].close = close;
	w->open[w->depth].lines = lines;
	w->open[w->depth].empty = true;
	w->depth++;
	w->lines += lines;
}

void kd_json_object(struct kd_json *w, bool lines)
{
	open_container(w, '{', '}', lines);
}

void kd_json_array(struct kd_json *w, bool lines)
{
	open_container(w, '[', ']', lines);
}

void kd_json_end(struct kd_json *w)
{
	if (w->overflow) {
		w->overflow--;
		return;
	}
	if (!w->depth)
		return;
	w->lines -= w->open[w->depth - 1].lines;
	if (w->open[w->depth - 1].lines && !w->open[w->depth - 1].empty)
		indent(w, w->lines);
	fputc(w->open[w->depth - 1].close, w->f);
	if (!--w->depth)
		fputc('\n', w->f);
}

void kd_json_key(struct kd_json *w, const char *key)
{
	if (!before(w))
		return;
	kd_json_str(w->f, key);
	fputs(": ", w->f);
	w->after_key = true;
}

void kd_json_string(struct kd_json *w, const char *s)
{
	if (before(w))
		kd_json_str(w->f, s);
}

void kd_json_int(struct kd_json *w, int64_t v)
{
	if (before(w))
		fprintf(w->f, "%" PRId64, v);
}

void kd_json_uint(struct kd_json *w, uint64_t v)
{
	if (before(w))
		fprintf(w->f, "%" PRIu64, v);
}

void kd_json_bool(struct kd_json *w, bool v)
{
	if (before(w))
		fputs(v ? "true" : "false", w->f);
}

void kd_json_null(struct kd_json *w)
{
	if (before(w))
		fputs("null", w->f);
}

void kd_json_kstr(struct kd_json *w, const char *key, const char *s)
{
	kd_json_key(w, key);
	kd_json_string(w, s);
}

void kd_json_kint(struct kd_json *w, const char *key, int64_t v)
{
	kd_json_key(w, key);
	kd_json_int(w, v);
}

void kd_json_kuint(struct kd_json *w, const char *key, uint64_t v)
{
	kd_json_key(w, key);
	kd_json_uint(w, v);
}

void kd_json_kbool(struct kd_json *w, const char *key, bool v)
{
	kd_json_key(w, key);
	kd_json_bool(w, v);
}
