// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading the probe's results back from the serial console. The console is
 * untrusted text: firmware escape codes, kernel messages interleaved with
 * our lines, a line cut by a panic or a timeout. A line counts only when
 * its CRC-32 matches, its sequence number is in range, and its id is the
 * id of that case in the set the program was generated from; anything
 * else with the prefix is counted as a bad line. Lines are found anywhere
 * in a console line, since the firmware's escapes may precede the first.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/str.h"
#include "probe/probe.h"

uint32_t probe_crc32(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint32_t c = 0xffffffffu;
	size_t i;
	int k;

	for (i = 0; i < len; i++) {
		c ^= p[i];
		for (k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
	}
	return ~c;
}

/* Split @line at its last space and check the CRC; *len: the text's length. */
static bool crc_ok(const char *line, size_t n, size_t *len)
{
	const char *sp = NULL;
	char hex[9], *end;
	size_t i;

	for (i = n; i-- > 0;)
		if (line[i] == ' ') {
			sp = line + i;
			break;
		}
	if (!sp || n - (size_t)(sp - line) - 1 != 8)
		return false;
	memcpy(hex, sp + 1, 8);
	hex[8] = '\0';
	if (strspn(hex, "0123456789abcdef") != 8)
		return false;
	*len = (size_t)(sp - line);
	return strtoul(hex, &end, 16) == probe_crc32(line, *len);
}

static int parse_begin(const struct probe_set *set, const char *text, struct probe_run *run)
{
	unsigned long n;
	char rel[200], fs[32];

	if (sscanf(text, "KABI-PROBE-BEGIN %lu %199s %31s", &n, rel, fs) != 3)
		return 1;
	if (n != probe_set__count(set)) {
		kd_err("probe: the program announced %lu cases, the set has %zu", n,
		       probe_set__count(set));
		return -EPROTO;
	}
	free(run->release);
	free(run->fs);
	run->release = kd_strdup(rel);
	run->fs = kd_strdup(fs);
	if (!run->release || !run->fs)
		return -ENOMEM;
	run->nr_cases = n;
	return 0;
}

static int parse_case(const struct probe_set *set, const char *text, struct probe_run *run)
{
	char id[128], status[16], extra;
	unsigned long seq;
	long long ret;
	int err;
	struct probe_result *r;
	const struct probe_case *c;
	enum probe_status st;

	if (sscanf(text, "KABI-PROBE %lu %127s %15s %lld %d%c", &seq, id, status, &ret, &err,
		   &extra) != 5)
		return 1;
	c = probe_set__case(set, seq);
	if (!run->results || seq >= run->nr_cases || !c || strcmp(c->id, id))
		return 1;
	if (!strcmp(status, "ret") && err >= 0 && (ret == -1) == (err != 0))
		st = PROBE_ST_RET;
	else if (!strcmp(status, "timeout") && !ret && !err)
		st = PROBE_ST_TIMEOUT;
	else if (!strcmp(status, "signal") && !ret && err > 0 && err < 65)
		st = PROBE_ST_SIGNAL;
	else
		return 1;
	r = &run->results[seq];
	if (r->status != PROBE_ST_MISSING)
		return 0;	/* a repeat: the first one stands */
	r->status = st;
	r->ret = ret;
	r->err = err;
	run->nr_results++;
	return 0;
}

static int parse_line(const struct probe_set *set, const char *line, size_t n,
		      struct probe_run *run)
{
	char text[512];
	size_t len;
	long ms;
	unsigned long cases;
	int rc;

	if (!crc_ok(line, n, &len) || len >= sizeof(text))
		return 1;
	memcpy(text, line, len);
	text[len] = '\0';
	if (kd_starts_with(text, "KABI-PROBE-BEGIN "))
		return parse_begin(set, text, run);
	if (kd_starts_with(text, "KABI-PROBE-END ")) {
		if (sscanf(text, "KABI-PROBE-END %lu %ld", &cases, &ms) != 2 ||
		    cases != run->nr_cases || !run->results)
			return 1;
		run->complete = true;
		run->elapsed_s = ms / 1000.0;
		return 0;
	}
	if (kd_starts_with(text, "KABI-PROBE ")) {
		rc = parse_case(set, text, run);
		return rc;
	}
	return 1;
}

int probe__parse(const struct probe_set *set, const char *console, struct probe_run *run)
{
	const char *p = console, *hit, *nl;
	bool begun = false;
	int rc = 0;

	memset(run, 0, sizeof(*run));
	while (*p) {
		size_t n;

		nl = strchr(p, '\n');
		n = nl ? (size_t)(nl - p) : strlen(p);
		while (n && (p[n - 1] == '\r' || p[n - 1] == '\0'))
			n--;
		if (memmem(p, n, "Kernel panic", 12))
			run->panic = true;
		hit = memmem(p, n, "KABI-PROBE", 10);
		if (hit) {
			rc = parse_line(set, hit, n - (size_t)(hit - p), run);
			if (rc < 0)
				goto fail;
			if (rc > 0)
				run->nr_bad_lines++;
			if (!rc && run->release && !run->results && !begun) {
				begun = true;
				run->results = kd_calloc(run->nr_cases ? run->nr_cases : 1,
							 sizeof(*run->results));
				if (!run->results) {
					rc = -ENOMEM;
					goto fail;
				}
			}
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	if (!begun) {
		rc = -KD_EFORMAT;
		goto fail;
	}
	return 0;
fail:
	probe_run__release(run);
	return rc;
}

void probe_run__release(struct probe_run *run)
{
	free(run->release);
	free(run->fs);
	free(run->results);
	memset(run, 0, sizeof(*run));
}

const char *probe_errno_name(int err, char tmp[16])
{
	const char *s = err > 0 ? strerrorname_np(err) : NULL;

	if (s)
		return s;
	snprintf(tmp, 16, "E%d", err);
	return tmp;
}

bool probe__matches(const struct probe_case *c, const struct probe_result *r)
{
	char tmp[16];

	if (r->status != PROBE_ST_RET)
		return false;
	switch (c->expect) {
	case PROBE_EXPECT_OK:
		return r->ret >= 0;
	case PROBE_EXPECT_ERRNO:
		return r->ret == -1 && !strcmp(probe_errno_name(r->err, tmp), c->expect_errno);
	case PROBE_EXPECT_ACCEPT:
		return r->ret >= 0 || strcmp(probe_errno_name(r->err, tmp), c->expect_errno);
	default:
		return true;
	}
}

bool probe__deviates(const struct probe_case *c, const struct probe_result *r)
{
	char tmp[16];

	if (!c->deviation || r->status != PROBE_ST_RET)
		return false;
	if (!strcmp(c->deviation, "ok"))
		return r->ret >= 0;
	return r->ret == -1 && !strcmp(probe_errno_name(r->err, tmp), c->deviation);
}

int probe_result__format(const struct probe_result *r, struct kd_buf *b)
{
	char tmp[16];

	switch (r->status) {
	case PROBE_ST_RET:
		if (r->ret >= 0)
			return kd_buf_addf(b, "ok (%" PRId64 ")", r->ret);
		return kd_buf_adds(b, probe_errno_name(r->err, tmp));
	case PROBE_ST_TIMEOUT:
		return kd_buf_adds(b, "timeout");
	case PROBE_ST_SIGNAL:
		return kd_buf_addf(b, "signal %d", r->err);
	default:
		return kd_buf_adds(b, "missing");
	}
}
