// SPDX-License-Identifier: GPL-2.0-only
/*
 * Address -> compilation unit, from .debug_aranges. This is what lets the
 * extractor read only the few hundred CUs that define syscalls instead of
 * walking all of a vmlinux's DWARF.
 */
#include "extract/dwarf_internal.h"

#include <errno.h>
#include <stdlib.h>

#include "lib/err.h"
#include "lib/mem.h"

struct cu_range {
	uint64_t start, end;	/* [start, end) */
	Dwarf_Off cu_die;
};

struct cu_ranges {
	size_t n, cap;
	struct cu_range *v;
};

static int cmp_range(const void *a, const void *b)
{
	const struct cu_range *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return 0;
}

int cu_ranges_load(struct kdwarf *d, struct cu_ranges **out)
{
	Dwarf_Arange *aranges = NULL;
	Dwarf_Signed count = 0, i;
	Dwarf_Error derr = NULL;
	Dwarf_Unsigned size = 0;
	Dwarf_Addr sec_addr = 0;
	struct cu_ranges *r;
	int rc, err = 0;

	*out = NULL;
	r = kd_calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	/*
	 * No .debug_aranges (clang, gcc without -gdwarf-aranges, a stripped
	 * section): libdwarf 20210528 reports "libelf detected error" instead
	 * of DW_DLV_NO_ENTRY, so the section is looked up first.
	 */
	rc = dwarf_get_section_info_by_name(d->dbg, ".debug_aranges", &sec_addr, &size, &derr);
	if (rc == DW_DLV_ERROR) {
		err = kdwarf_error(d, derr, "looking for .debug_aranges");
		goto out;
	}
	if (rc == DW_DLV_NO_ENTRY || !size)
		goto done;	/* caller falls back to scanning CUs */
	rc = dwarf_get_aranges(d->dbg, &aranges, &count, &derr);
	if (rc == DW_DLV_ERROR) {
		err = kdwarf_error(d, derr, "reading .debug_aranges");
		goto out;
	}
	if (rc == DW_DLV_NO_ENTRY)
		goto done;	/* caller falls back to scanning CUs */
	err = KD_GROW(r->v, r->cap, (size_t)count);
	if (err)
		goto out;
	for (i = 0; i < count; i++) {
		Dwarf_Unsigned seg, seg_size, len;
		Dwarf_Addr start;
		Dwarf_Off cu_die;

		rc = dwarf_get_arange_info_b(aranges[i], &seg, &seg_size, &start, &len, &cu_die, &derr);
		if (rc == DW_DLV_ERROR) {
			err = kdwarf_error(d, derr, "reading .debug_aranges");
			goto out;
		}
		if (rc != DW_DLV_OK || !len)
			continue;
		r->v[r->n++] = (struct cu_range){ start, start + len, cu_die };
	}
	if (r->n)	/* qsort(NULL, 0, ...) is undefined */
		qsort(r->v, r->n, sizeof(*r->v), cmp_range);
done:
	*out = r;
	r = NULL;
out:
	if (aranges) {
		for (i = 0; i < count; i++)
			dwarf_dealloc(d->dbg, aranges[i], DW_DLA_ARANGE);
		dwarf_dealloc(d->dbg, aranges, DW_DLA_LIST);
	}
	cu_ranges_free(r);
	return err;
}

Dwarf_Off cu_ranges_lookup(const struct cu_ranges *r, uint64_t addr)
{
	size_t lo = 0, hi = r->n;

	/* Last range starting at or before addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr >= r->v[lo - 1].end)
		return 0;
	return r->v[lo - 1].cu_die;
}

void cu_ranges_free(struct cu_ranges *r)
{
	if (!r)
		return;
	free(r->v);
	free(r);
}
