// SPDX-License-Identifier: GPL-2.0-only
/*
 * libdwarf set-up over a kelf and the small attribute accessors the type
 * and signature readers share. See dwarf_internal.h for why a vmlinux is
 * served through the object access interface.
 */
#include "extract/dwarf_internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/mem.h"

/*
 * libdwarf 20210528's hook for section flags (exported, not in libdwarf.h):
 * see kdwarf_open(). Only ever set to NULL here.
 */
extern int (*_dwarf_get_elf_flags_func_ptr)(void *obj, Dwarf_Half section_index,
					     Dwarf_Unsigned *flags, Dwarf_Unsigned *addralign,
					     int *error);

static int obj_section_info(void *obj, Dwarf_Half idx, Dwarf_Obj_Access_Section *out, int *error)
{
	struct kelf *k = ((struct kdwarf *)obj)->elf;
	const struct kelf_section *s;

	if (idx >= k->nr_sections) {
		*error = DW_DLE_MDE;
		return DW_DLV_NO_ENTRY;
	}
	s = &k->sections[idx];
	memset(out, 0, sizeof(*out));
	out->addr = s->shdr.sh_addr;
	out->type = s->shdr.sh_type;
	out->size = s->shdr.sh_size;
	out->name = s->name;
	out->link = s->shdr.sh_link;
	out->info = s->shdr.sh_info;
	out->entrysize = s->shdr.sh_entsize;
	if (s->shdr.sh_flags & SHF_COMPRESSED) {
		/* libdwarf must see the inflated size; inflate now. */
		struct kelf_section *ms = &k->sections[idx];

		if (!kelf_section_data(k, ms)) {
			*error = DW_DLE_MDE;
			return DW_DLV_ERROR;
		}
		out->size = ms->size;
	}
	if (s->shdr.sh_type == SHT_NOBITS)
		out->size = 0;
	return DW_DLV_OK;
}

static Dwarf_Endianness obj_byte_order(void *obj)
{
	(void)obj;
	return DW_OBJECT_LSB;
}

static Dwarf_Small obj_length_size(void *obj)
{
	(void)obj;
	return 4;
}

static Dwarf_Small obj_pointer_size(void *obj)
{
	/* A 32-bit object: the headers compiled for i386 programs (kelf_open_abi()). */
	return ((struct kdwarf *)obj)->elf->arch->ilp32 ? 4 : 8;
}

static Dwarf_Unsigned obj_section_count(void *obj)
{
	return ((struct kdwarf *)obj)->elf->nr_sections;
}

static int obj_load_section(void *obj, Dwarf_Half idx, Dwarf_Small **data, int *error)
{
	struct kdwarf *d = obj;
	struct kelf *k = d->elf;
	const unsigned char *p;

	if (idx >= k->nr_sections) {
		*error = DW_DLE_MDE;
		return DW_DLV_NO_ENTRY;
	}
	if (k->sections[idx].shdr.sh_type == SHT_NOBITS)
		return DW_DLV_NO_ENTRY;
	if (k->ehdr.e_type == ET_REL) {
		if (kdwarf_rel_load(d, idx, data)) {
			*error = DW_DLE_MDE;
			return DW_DLV_ERROR;
		}
		return DW_DLV_OK;
	}
	p = kelf_section_data(k, &k->sections[idx]);
	if (!p) {
		*error = DW_DLE_MDE;
		return DW_DLV_ERROR;
	}
	/* libdwarf never writes to sections it did not relocate. */
	*data = (Dwarf_Small *)p;
	return DW_DLV_OK;
}

static const Dwarf_Obj_Access_Methods mapped_methods = {
	.get_section_info = obj_section_info,
	.get_byte_order = obj_byte_order,
	.get_length_size = obj_length_size,
	.get_pointer_size = obj_pointer_size,
	.get_section_count = obj_section_count,
	.load_section = obj_load_section,
	.relocate_a_section = NULL,
};

int kdwarf_error(struct kdwarf *d, Dwarf_Error err, const char *what)
{
	/* d->cause is more precise than libdwarf's DW_DLE_MDE for our own section loader. */
	kd_err("%s: DWARF: %s: %s", d->elf->path, what,
	       d->cause ? d->cause : err ? dwarf_errmsg(err) : "unreadable");
	if (err && d->dbg)
		dwarf_dealloc(d->dbg, err, DW_DLA_ERROR);
	d->cause = NULL;
	return -KD_EFORMAT;
}

static int kdwarf_next_sibling(struct kdwarf *d, Dwarf_Die die, Dwarf_Die *next, Dwarf_Error *derr)
{
	int rc = dwarf_siblingof_b(d->dbg, die, 1, next, derr);

	if (rc == DW_DLV_OK && die_offset(d, *next) <= die_offset(d, die)) {
		dwarf_dealloc_die(*next);
		*next = NULL;
		*derr = NULL;
		d->cause = "a DIE's sibling link points backwards (damaged DW_AT_sibling)";
		rc = DW_DLV_ERROR;
	}
	return rc;
}

int kdwarf_for_each_child(struct kdwarf *d, Dwarf_Die parent, kdwarf_die_fn fn, void *ctx,
			  const char *what)
{
	Dwarf_Error derr = NULL;
	Dwarf_Die child = NULL, next;
	int rc, err = 0;

	rc = dwarf_child(parent, &child, &derr);
	while (rc == DW_DLV_OK) {
		err = fn(child, ctx);
		if (err) {
			dwarf_dealloc_die(child);
			return err < 0 ? err : 0;
		}
		rc = kdwarf_next_sibling(d, child, &next, &derr);
		dwarf_dealloc_die(child);
		child = rc == DW_DLV_OK ? next : NULL;
	}
	return rc == DW_DLV_ERROR ? kdwarf_error(d, derr, what) : 0;
}

static void quiet_handler(Dwarf_Error err, Dwarf_Ptr arg)
{
	/* Never abort(): every call site checks its own return value. */
	(void)err;
	(void)arg;
}

static int check_has_dwarf(struct kelf *k)
{
	struct kelf_section *link;

	if (kelf_section_by_name(k, ".debug_info"))
		return 0;
	link = kelf_section_by_name(k, ".gnu_debuglink");
	if (link) {
		const char *name = (const char *)kelf_section_data(k, link);

		if (!name || !memchr(name, '\0', link->size))
			name = "?";
		kd_err("%s: no .debug_info, only a .gnu_debuglink to '%s'; point kabi-diff at that"
		       " file (usually /usr/lib/debug/.build-id/xx/*.debug or /usr/lib/debug/boot/;"
		       " Debian: linux-image-*-dbg)", k->path, name);
		return -KD_ENODEBUG;
	}
	if (kelf_section_by_name(k, ".debug_info.dwo") || kelf_section_by_name(k, ".gnu_debugaltlink")) {
		kd_err("%s: split DWARF is not supported; build with -gsplit-dwarf off", k->path);
		return -KD_EUNSUPPORTED;
	}
	kd_err("%s: no DWARF (.debug_info) in this image; use a debug build (Debian:"
	       " linux-image-*-dbg, Fedora: kernel-debuginfo, Ubuntu: linux-image-*-dbgsym)", k->path);
	return -KD_ENODEBUG;
}

int kdwarf_open(struct kelf *elf, struct kdwarf **out)
{
	Dwarf_Error derr = NULL;
	struct kdwarf *d;
	int rc, err;

	*out = NULL;
	err = check_has_dwarf(elf);
	if (err)
		return err;
	d = kd_calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->elf = elf;
	d->iface.object = d;
	d->iface.methods = &mapped_methods;
	/*
	 * libdwarf 20210528's set-up is not safe to enter from two threads at
	 * once (seen as a module whose DWARF silently came back empty when two
	 * were opened together); reading DIEs afterwards is. A global too:
	 * libdwarf's own ELF loader (dwarf_init_b, no longer used: modules are
	 * relocated by dwarf-rel.c) left _dwarf_get_elf_flags_func_ptr pointing
	 * to a function that reads section flags from ITS object, which every
	 * later dwarf_object_init_b() then called on ours: the compiled UAPI
	 * headers, read after the modules, failed "DW_DLE_SECTION_INDEX_BAD".
	 * Our objects have no section groups to sort: the hook stays NULL.
	 */
	static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;

	pthread_mutex_lock(&init_lock);
	_dwarf_get_elf_flags_func_ptr = NULL;
	rc = dwarf_object_init_b(&d->iface, quiet_handler, NULL, DW_GROUPNUMBER_ANY, &d->dbg, &derr);
	pthread_mutex_unlock(&init_lock);
	if (rc != DW_DLV_OK) {
		if (rc == DW_DLV_NO_ENTRY) {
			kd_err("%s: no DWARF sections found", elf->path);
			err = -KD_ENODEBUG;
		} else {
			kd_err("%s: DWARF: %s", elf->path, derr ? dwarf_errmsg(derr) : "cannot initialize");
			err = -KD_EFORMAT;
		}
		/* An init error belongs to no Dwarf_Debug: libdwarf frees it with a NULL one. */
		if (derr)
			dwarf_dealloc(NULL, derr, DW_DLA_ERROR);
		d->dbg = NULL;
		free(d);
		return err;
	}
	*out = d;
	return 0;
}

void kdwarf_close(struct kdwarf *d)
{
	if (!d)
		return;
	if (d->dbg)
		dwarf_object_finish(d->dbg, NULL);
	kdwarf_rel_release(d);
	free(d);
}

int kdwarf_for_each_cu(struct kdwarf *d, kdwarf_cu_fn fn, void *ctx)
{
	Dwarf_Error derr = NULL;
	bool stopped = false;
	int rc, err = 0;

	for (;;) {
		Dwarf_Unsigned hdr_len, abbrev_off, typeoff, next_cu;
		Dwarf_Half version, addr_size, off_size, ext_size, hdr_type;
		Dwarf_Sig8 sig;
		Dwarf_Die cu = NULL;

		rc = dwarf_next_cu_header_d(d->dbg, 1, &hdr_len, &version, &abbrev_off, &addr_size,
					    &off_size, &ext_size, &sig, &typeoff, &next_cu,
					    &hdr_type, &derr);
		if (rc == DW_DLV_NO_ENTRY)
			return err;
		if (rc == DW_DLV_ERROR)
			return err ? err : kdwarf_error(d, derr, "reading CU headers");
		if (err || stopped)
			continue;
		if (dwarf_siblingof_b(d->dbg, NULL, 1, &cu, &derr) != DW_DLV_OK) {
			err = kdwarf_error(d, derr, "reading a CU");
			continue;
		}
		rc = fn(cu, ctx);
		dwarf_dealloc_die(cu);
		if (rc < 0)
			err = rc;
		else if (rc > 0)
			stopped = true;
	}
}

const char *die_name(struct kdwarf *d, Dwarf_Die die)
{
	char *name = NULL;
	Dwarf_Error err = NULL;
	int rc = dwarf_diename(die, &name, &err);

	if (rc == DW_DLV_ERROR)
		dwarf_dealloc(d->dbg, err, DW_DLA_ERROR);
	return rc == DW_DLV_OK ? name : NULL;
}

static bool get_attr(struct kdwarf *d, Dwarf_Die die, Dwarf_Half at, Dwarf_Attribute *attr)
{
	Dwarf_Error err = NULL;
	int rc = dwarf_attr(die, at, attr, &err);

	if (rc == DW_DLV_ERROR)
		dwarf_dealloc(d->dbg, err, DW_DLA_ERROR);
	return rc == DW_DLV_OK;
}

bool die_udata(struct kdwarf *d, Dwarf_Die die, Dwarf_Half at, Dwarf_Unsigned *v)
{
	Dwarf_Attribute attr;
	Dwarf_Error err = NULL;
	int rc;

	if (!get_attr(d, die, at, &attr))
		return false;
	rc = dwarf_formudata(attr, v, &err);
	if (rc == DW_DLV_ERROR) {
		Dwarf_Signed s;

		dwarf_dealloc(d->dbg, err, DW_DLA_ERROR);
		err = NULL;
		/* DW_FORM_sdata and implicit_const are signed forms. */
		rc = dwarf_formsdata(attr, &s, &err);
		if (rc == DW_DLV_OK)
			*v = (Dwarf_Unsigned)s;
		else if (rc == DW_DLV_ERROR)
			dwarf_dealloc(d->dbg, err, DW_DLA_ERROR);
	}
	dwarf_dealloc(d->dbg, attr, DW_DLA_ATTR);
	return rc == DW_DLV_OK;
}

static bool read_constant(struct kdwarf *d, Dwarf_Die die, Dwarf_Half at, bool unsigned_data,
			  Dwarf_Signed *v)
{
	Dwarf_Attribute attr;
	Dwarf_Error err = NULL;
	Dwarf_Half form = 0;
	int rc;

	if (!get_attr(d, die, at, &attr))
		return false;
	if (dwarf_whatform(attr, &form, &err) == DW_DLV_ERROR) {
		dwarf_dealloc(d->dbg, err, DW_DLA_ERROR);
		err = NULL;
	}
	/*
	 * The fixed-size data forms carry bits, not a sign: GCC and clang put a
	 * negative enumerator in sdata and an unsigned one in data1..data8, so
	 * libdwarf's sign extension read 6.12's IOMMUFD_CMD_* (0x80 and up, in
	 * data1) as negative and gave their ioctls wrong numbers.
	 */
	if (form == DW_FORM_udata || (unsigned_data && (form == DW_FORM_data1 ||
			form == DW_FORM_data2 || form == DW_FORM_data4))) {
		Dwarf_Unsigned u;

		rc = dwarf_formudata(attr, &u, &err);
		if (rc == DW_DLV_OK)
			*v = (Dwarf_Signed)u;
	} else {
		rc = dwarf_formsdata(attr, v, &err);
	}
	if (rc == DW_DLV_ERROR)
		dwarf_dealloc(d->dbg, err, DW_DLA_ERROR);
	dwarf_dealloc(d->dbg, attr, DW_DLA_ATTR);
	return rc == DW_DLV_OK;
}

bool die_sdata(struct kdwarf *d, Dwarf_Die die, Dwarf_Half at, Dwarf_Signed *v)
{
	return read_constant(d, die, at, false, v);
}

bool die_enumerator_value(struct kdwarf *d, Dwarf_Die die, Dwarf_Signed *v)
{
	return read_constant(d, die, DW_AT_const_value, true, v);
}

bool die_ref(struct kdwarf *d, Dwarf_Die die, Dwarf_Half at, Dwarf_Off *off)
{
	Dwarf_Attribute attr;
	Dwarf_Error err = NULL;
	int rc;

	if (!get_attr(d, die, at, &attr))
		return false;
	rc = dwarf_global_formref(attr, off, &err);
	if (rc == DW_DLV_ERROR)
		dwarf_dealloc(d->dbg, err, DW_DLA_ERROR);
	dwarf_dealloc(d->dbg, attr, DW_DLA_ATTR);
	return rc == DW_DLV_OK;
}

bool die_flag(struct kdwarf *d, Dwarf_Die die, Dwarf_Half at)
{
	Dwarf_Bool yes = 0;
	Dwarf_Error err = NULL;
	int rc = dwarf_hasattr(die, at, &yes, &err);

	if (rc == DW_DLV_ERROR)
		dwarf_dealloc(d->dbg, err, DW_DLA_ERROR);
	return rc == DW_DLV_OK && yes;
}

Dwarf_Half die_tag(struct kdwarf *d, Dwarf_Die die)
{
	Dwarf_Half tag = 0;
	Dwarf_Error err = NULL;

	if (dwarf_tag(die, &tag, &err) != DW_DLV_OK) {
		if (err)
			dwarf_dealloc_error(d->dbg, err);
		return 0;
	}
	return tag;
}

Dwarf_Off die_offset(struct kdwarf *d, Dwarf_Die die)
{
	Dwarf_Off off = 0;
	Dwarf_Error err = NULL;

	if (dwarf_dieoffset(die, &off, &err) != DW_DLV_OK) {
		if (err)
			dwarf_dealloc_error(d->dbg, err);
		return 0;
	}
	return off;
}
