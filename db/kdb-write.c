// SPDX-License-Identifier: GPL-2.0-only
/* Inserting a kernel's model into a .kabi under construction. */
#include "db/kdb_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "lib/buf.h"

static int step_done(struct kdb *db, sqlite3_stmt *st, const char *what)
{
	if (sqlite3_step(st) != SQLITE_DONE)
		return kdb_sql_error(db, what);
	return 0;
}

int kdb__set_meta(struct kdb *db, const char *key, const char *value)
{
	sqlite3_stmt *st = kdb_stmt(db, STMT_PUT_META);

	if (!st)
		return -EIO;
	kdb_bind_text(st, 1, key);
	kdb_bind_text(st, 2, value);
	return step_done(db, st, "writing meta");
}

static int put_members(struct kdb *db, const struct kd_type *t)
{
	bool is_param = t->kind == KD_KIND_FUNC;
	size_t i;
	int err;

	for (i = 0; i < t->nr_members; i++) {
		const struct kd_member *m = &t->members[i];
		sqlite3_stmt *st = kdb_stmt(db, STMT_PUT_MEMBER);

		if (!st)
			return -EIO;
		sqlite3_bind_int64(st, 1, t->id);
		sqlite3_bind_int64(st, 2, (int64_t)i);
		kdb_bind_text(st, 3, m->name);
		kdb_bind_id(st, 4, m->type);
		if (is_param)
			sqlite3_bind_null(st, 5);
		else
			sqlite3_bind_int64(st, 5, m->offset);
		sqlite3_bind_int(st, 6, m->bit_offset);
		sqlite3_bind_int(st, 7, m->bit_size);
		err = step_done(db, st, "writing members");
		if (err)
			return err;
	}
	for (i = 0; i < t->nr_enumerators; i++) {
		sqlite3_stmt *st = kdb_stmt(db, STMT_PUT_ENUMERATOR);

		if (!st)
			return -EIO;
		sqlite3_bind_int64(st, 1, t->id);
		sqlite3_bind_int64(st, 2, (int64_t)i);
		kdb_bind_text(st, 3, t->enumerators[i].name);
		sqlite3_bind_int64(st, 4, t->enumerators[i].value);
		err = step_done(db, st, "writing enumerators");
		if (err)
			return err;
	}
	return 0;
}

int kdb__put_type(struct kdb *db, const struct kd_type *t)
{
	sqlite3_stmt *st = kdb_stmt(db, STMT_PUT_TYPE);
	char hash[17];
	int err;

	if (!st)
		return -EIO;
	snprintf(hash, sizeof(hash), "%016" PRIx64, t->hash);
	sqlite3_bind_int64(st, 1, t->id);
	kdb_bind_text(st, 2, kd_kind_name(t->kind));
	kdb_bind_text(st, 3, t->name);
	if (t->size >= 0)
		sqlite3_bind_int64(st, 4, t->size);
	if (t->align > 0)
		sqlite3_bind_int64(st, 5, t->align);
	kdb_bind_id(st, 6, t->ref);
	if (t->kind == KD_KIND_ARRAY)
		sqlite3_bind_int64(st, 7, t->count);
	sqlite3_bind_int(st, 8, (int)t->flags);
	kdb_bind_text(st, 9, t->decl_file);
	if (t->decl_line > 0)
		sqlite3_bind_int(st, 10, t->decl_line);
	sqlite3_bind_text(st, 11, hash, -1, SQLITE_TRANSIENT);
	err = step_done(db, st, "writing types");
	if (err)
		return err;
	return put_members(db, t);
}

int kdb__put_function(struct kdb *db, const char *name, int64_t ret_type,
		      const char *source, const char *decl_file, int decl_line,
		      int64_t *id)
{
	sqlite3_stmt *st = kdb_stmt(db, STMT_PUT_FUNCTION);
	int err;

	if (!st)
		return -EIO;
	kdb_bind_text(st, 1, name);
	kdb_bind_id(st, 2, ret_type);
	kdb_bind_text(st, 3, source);
	kdb_bind_text(st, 4, decl_file);
	if (decl_line > 0)
		sqlite3_bind_int(st, 5, decl_line);
	err = step_done(db, st, "writing functions");
	if (err)
		return err;
	*id = sqlite3_last_insert_rowid(db->sql);
	return 0;
}

int kdb__put_param(struct kdb *db, int64_t func_id, int pos, const char *name,
		   int64_t type_id, const char *type_text)
{
	sqlite3_stmt *st = kdb_stmt(db, STMT_PUT_PARAM);

	if (!st)
		return -EIO;
	sqlite3_bind_int64(st, 1, func_id);
	sqlite3_bind_int(st, 2, pos);
	kdb_bind_text(st, 3, name);
	kdb_bind_id(st, 4, type_id);
	kdb_bind_text(st, 5, type_text ? type_text : "?");
	return step_done(db, st, "writing params");
}

int kdb__put_syscall(struct kdb *db, const struct kd_syscall *sc)
{
	sqlite3_stmt *st = kdb_stmt(db, STMT_PUT_SYSCALL);

	if (!st)
		return -EIO;
	kdb_bind_text(st, 1, sc->abi);
	if (sc->nr >= 0)
		sqlite3_bind_int64(st, 2, sc->nr);
	kdb_bind_text(st, 3, sc->name);
	kdb_bind_text(st, 4, sc->entry);
	kdb_bind_id(st, 5, sc->func_id);
	sqlite3_bind_int(st, 6, sc->implemented);
	return step_done(db, st, "writing syscalls");
}

int kdb__put_problem(struct kdb *db, const char *stage, const char *input,
		     const char *location, const char *fmt, ...)
{
	struct kd_buf msg = KD_BUF_INIT;
	sqlite3_stmt *st;
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = kd_buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	if (err)
		return err;
	st = kdb_stmt(db, STMT_PUT_PROBLEM);
	if (!st) {
		kd_buf_release(&msg);
		return -EIO;
	}
	kdb_bind_text(st, 1, stage);
	kdb_bind_text(st, 2, input);
	kdb_bind_text(st, 3, location);
	kdb_bind_text(st, 4, msg.s);
	err = step_done(db, st, "writing problems");
	kd_buf_release(&msg);
	return err;
}

int kdb__put_module(struct kdb *db, const char *name, const char *path, const char *description,
		    const char *depends, int64_t *id)
{
	sqlite3_stmt *st = kdb_stmt(db, STMT_PUT_MODULE);
	int err;

	if (!st)
		return -EIO;
	kdb_bind_text(st, 1, name);
	kdb_bind_text(st, 2, path);
	kdb_bind_text(st, 3, description);
	kdb_bind_text(st, 4, depends);
	err = step_done(db, st, "writing modules");
	if (!err)
		*id = sqlite3_last_insert_rowid(db->sql);
	return err;
}

int kdb__put_binary_header(struct kdb *db, int64_t module_id, const char *header)
{
	sqlite3_stmt *st = kdb_stmt(db, STMT_PUT_BINARY_HEADER);

	if (!st)
		return -EIO;
	kdb_bind_id(st, 1, module_id);
	kdb_bind_text(st, 2, header);
	return step_done(db, st, "writing binary headers");
}

int kdb__put_type_origin(struct kdb *db, int64_t type_id, int64_t module_id)
{
	sqlite3_stmt *st = kdb_stmt(db, STMT_PUT_TYPE_ORIGIN);

	if (!st)
		return -EIO;
	sqlite3_bind_int64(st, 1, type_id);
	kdb_bind_id(st, 2, module_id);
	return step_done(db, st, "writing type origins");
}

int kdb__put_fops(struct kdb *db, int64_t module_id, const char *name, const char *unlocked,
		  const char *compat)
{
	sqlite3_stmt *st = kdb_stmt(db, STMT_PUT_FOPS);

	if (!st)
		return -EIO;
	kdb_bind_id(st, 1, module_id);
	kdb_bind_text(st, 2, name);
	kdb_bind_text(st, 3, unlocked);
	kdb_bind_text(st, 4, compat);
	return step_done(db, st, "writing file_operations");
}

int kdb__put_binary_ioctl_cmd(struct kdb *db, int64_t module_id, uint32_t cmd)
{
	sqlite3_stmt *st = kdb_stmt(db, STMT_PUT_BINARY_IOCTL_CMD);

	if (!st)
		return -EIO;
	kdb_bind_id(st, 1, module_id);
	sqlite3_bind_int64(st, 2, cmd);
	return step_done(db, st, "writing ioctl immediates");
}

int kdb__put_uapi_type(struct kdb *db, int64_t type_id, const char *file, int line)
{
	sqlite3_stmt *st = kdb_stmt(db, STMT_PUT_UAPI_TYPE);

	if (!st)
		return -EIO;
	sqlite3_bind_int64(st, 1, type_id);
	kdb_bind_text(st, 2, file);
	if (line > 0)
		sqlite3_bind_int(st, 3, line);
	return step_done(db, st, "writing the header view");
}
