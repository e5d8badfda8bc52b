// SPDX-License-Identifier: GPL-2.0-only
/* Kind names and destructors of the shared model. */
#include "model.h"

#include <stdlib.h>
#include <string.h>

static const char *const kind_names[KD_KIND__COUNT] = {
	[KD_KIND_VOID] = "void",
	[KD_KIND_BASE] = "base",
	[KD_KIND_POINTER] = "pointer",
	[KD_KIND_STRUCT] = "struct",
	[KD_KIND_UNION] = "union",
	[KD_KIND_ENUM] = "enum",
	[KD_KIND_TYPEDEF] = "typedef",
	[KD_KIND_ARRAY] = "array",
	[KD_KIND_CONST] = "const",
	[KD_KIND_VOLATILE] = "volatile",
	[KD_KIND_RESTRICT] = "restrict",
	[KD_KIND_ATOMIC] = "atomic",
	[KD_KIND_FUNC] = "func",
};

const char *kd_kind_name(enum kd_kind kind)
{
	if ((unsigned)kind >= KD_KIND__COUNT)
		return "?";
	return kind_names[kind];
}

int kd_kind_from_name(const char *name)
{
	int i;

	for (i = 0; i < KD_KIND__COUNT; i++)
		if (name && !strcmp(kind_names[i], name))
			return i;
	return -1;
}

void kd_type__release(struct kd_type *t)
{
	size_t i;

	if (!t)
		return;
	free(t->name);
	free(t->decl_file);
	for (i = 0; i < t->nr_members; i++)
		free(t->members[i].name);
	free(t->members);
	for (i = 0; i < t->nr_enumerators; i++)
		free(t->enumerators[i].name);
	free(t->enumerators);
	memset(t, 0, sizeof(*t));
}

void kd_type__free(struct kd_type *t)
{
	kd_type__release(t);
	free(t);
}

bool kd_is_sys_ni_file(const char *decl_file)
{
	static const char stub_file[] = "kernel/sys_ni.c";
	size_t n = decl_file ? strlen(decl_file) : 0, k = sizeof(stub_file) - 1;

	return n >= k && !strcmp(decl_file + n - k, stub_file) && (n == k || decl_file[n - k - 1] == '/');
}
