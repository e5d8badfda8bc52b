// SPDX-License-Identifier: GPL-2.0-only
/*
 * The .kabi schema. One kernel per file; db/SCHEMA.md documents every
 * table for users of the sqlite3 shell. Bump KDB_SCHEMA_VERSION (in kdb.h)
 * with every change: readers refuse other versions rather than misread.
 */
#include "db/kdb_internal.h"

const char kdb_schema_sql[] =
	/* Kernel identity and provenance: release, version, arch, build_id,
	 * dwarf_version, source_path, tool_version, ... */
	"CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;\n"

	/* Every type reachable from a syscall or ioctl, deduplicated by
	 * structural identity (hash + canonical description). */
	"CREATE TABLE types (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  kind TEXT NOT NULL,\n"          /* struct, union, enum, typedef, pointer, ... */
	"  name TEXT,\n"                   /* NULL when anonymous */
	"  size INTEGER,\n"                /* bytes; NULL when unknown */
	"  align INTEGER,\n"               /* bytes; NULL when unknown */
	"  ref INTEGER REFERENCES types(id),\n" /* pointee, target, element, return type */
	"  count INTEGER,\n"               /* arrays: elements; -1 flexible [] */
	"  flags INTEGER NOT NULL DEFAULT 0,\n" /* KD_TYPE_* bits, see SCHEMA.md */
	"  decl_file TEXT,\n"
	"  decl_line INTEGER,\n"
	"  hash TEXT NOT NULL\n"           /* 16 hex digits, structural identity */
	");\n"
	"CREATE INDEX types_name ON types(name, kind);\n"
	"CREATE INDEX types_hash ON types(hash);\n"

	/* struct/union members and func parameters, in declaration order. */
	"CREATE TABLE members (\n"
	"  type_id INTEGER NOT NULL REFERENCES types(id),\n"
	"  idx INTEGER NOT NULL,\n"
	"  name TEXT,\n"                   /* NULL: anonymous struct/union member */
	"  member_type INTEGER REFERENCES types(id),\n"
	"  offset INTEGER,\n"              /* bytes (storage unit for bitfields); NULL for params */
	"  bit_offset INTEGER NOT NULL DEFAULT 0,\n"
	"  bit_size INTEGER NOT NULL DEFAULT 0,\n"
	"  PRIMARY KEY (type_id, idx)\n"
	") WITHOUT ROWID;\n"

	"CREATE TABLE enumerators (\n"
	"  type_id INTEGER NOT NULL REFERENCES types(id),\n"
	"  idx INTEGER NOT NULL,\n"
	"  name TEXT NOT NULL,\n"
	"  value INTEGER NOT NULL,\n"
	"  PRIMARY KEY (type_id, idx)\n"
	") WITHOUT ROWID;\n"
	"CREATE INDEX enumerators_name ON enumerators(name);\n"

	/* Syscall implementations: one row per do-function (sys_openat,
	 * compat_sys_ioctl) with its signature. */
	"CREATE TABLE functions (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  name TEXT NOT NULL UNIQUE,\n"   /* sys_openat, compat_sys_openat */
	"  ret_type INTEGER REFERENCES types(id),\n"
	"  source TEXT NOT NULL,\n"        /* dwarf | metadata */
	"  decl_file TEXT,\n"
	"  decl_line INTEGER\n"
	");\n"
	"CREATE TABLE params (\n"
	"  func_id INTEGER NOT NULL REFERENCES functions(id),\n"
	"  pos INTEGER NOT NULL,\n"        /* 0-based */
	"  name TEXT,\n"
	"  type_id INTEGER REFERENCES types(id),\n" /* NULL when only the text is known */
	"  type_text TEXT NOT NULL,\n"     /* the C type as written: const char * */
	"  PRIMARY KEY (func_id, pos)\n"
	") WITHOUT ROWID;\n"

	/* The syscall tables, one row per slot and ABI (x64, ia32, x32). */
	"CREATE TABLE syscalls (\n"
	"  abi TEXT NOT NULL,\n"
	"  nr INTEGER,\n"                 /* NULL: entry point of an ABI whose table is not in the binary */
	"  name TEXT,\n"                   /* NULL for a not-implemented slot of unknown name */
	"  entry TEXT,\n"                  /* __x64_sys_openat */
	"  func_id INTEGER REFERENCES functions(id),\n"
	"  implemented INTEGER NOT NULL\n"
	");\n"
	"CREATE UNIQUE INDEX syscalls_slot ON syscalls(abi, nr);\n"
	"CREATE INDEX syscalls_name ON syscalls(name);\n"

	/* Modules read with --modules. */
	"CREATE TABLE modules (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  name TEXT NOT NULL,\n"
	"  path TEXT NOT NULL,\n"
	"  description TEXT,\n"
	"  depends TEXT\n"
	");\n"
	/* The UAPI headers each binary's code was compiled with (module_id NULL:
	 * vmlinux), from the line tables; written with --modules only. */
	"CREATE TABLE binary_headers (\n"
	"  module_id INTEGER REFERENCES modules(id),\n"
	"  header TEXT NOT NULL\n"
	");\n"
	"CREATE UNIQUE INDEX binary_headers_pair ON binary_headers(ifnull(module_id, 0), header);\n"
	"CREATE INDEX binary_headers_header ON binary_headers(header);\n"
	/* Each struct file_operations object a binary defines (module_id NULL:
	 * vmlinux) and the functions its ioctl members point to: NULL for
	 * none, else the symbol's name ("0x..." when no symbol names it). */
	"CREATE TABLE fops (\n"
	"  module_id INTEGER REFERENCES modules(id),\n"
	"  name TEXT NOT NULL,\n"          /* the variable: tun_fops */
	"  unlocked_ioctl TEXT,\n"
	"  compat_ioctl TEXT\n"
	");\n"
	"CREATE INDEX fops_module ON fops(ifnull(module_id, 0));\n"
	/* The _IOR/_IOW/_IOWR numbers a module's x86-64 code compares or moves
	 * as immediates, read when one of its fops has compat_ptr_ioctl. */
	"CREATE TABLE binary_ioctl_cmds (\n"
	"  module_id INTEGER REFERENCES modules(id),\n"
	"  cmd INTEGER NOT NULL\n"
	");\n"
	"CREATE UNIQUE INDEX binary_ioctl_cmds_pair ON binary_ioctl_cmds(ifnull(module_id, 0), cmd);\n"
	/* Where each type was defined: vmlinux (module_id NULL) and/or modules. */
	"CREATE TABLE type_origins (\n"
	"  type_id INTEGER NOT NULL REFERENCES types(id),\n"
	"  module_id INTEGER REFERENCES modules(id)\n"
	");\n"
	"CREATE UNIQUE INDEX type_origins_pair ON type_origins(type_id, ifnull(module_id, 0));\n"

	/* The header view: the types each UAPI header declares, from compiling
	 * the headers as user space does (extract --uapi). A layout the kernel's
	 * DWARF shares is the same types row (it has type_origins too). */
	"CREATE TABLE uapi_types (\n"
	"  type_id INTEGER NOT NULL REFERENCES types(id),\n"
	"  file TEXT NOT NULL,\n"           /* include-relative header: linux/input.h */
	"  line INTEGER,\n"
	"  PRIMARY KEY (type_id, file)\n"
	") WITHOUT ROWID;\n"
	"CREATE INDEX uapi_types_file ON uapi_types(file);\n"
	/* The header view of a compat user ABI (ia32: the headers compiled with
	 * gcc -m32): the types each header declares in it, the types rows
	 * only that view has (native readers skip them), and its ioctls with
	 * that ABI's argument sizes and command numbers (db/kdb-compat.h). */
	"CREATE TABLE compat_types (\n"
	"  abi TEXT NOT NULL,\n"            /* ia32 */
	"  type_id INTEGER NOT NULL REFERENCES types(id),\n"
	"  file TEXT NOT NULL,\n"
	"  line INTEGER,\n"
	"  PRIMARY KEY (abi, type_id, file)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE compat_only_types (\n"
	"  type_id INTEGER NOT NULL REFERENCES types(id),\n"
	"  abi TEXT NOT NULL,\n"
	"  PRIMARY KEY (type_id, abi)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE compat_ioctls (\n"
	"  abi TEXT NOT NULL,\n"
	"  name TEXT NOT NULL,\n"
	"  dir TEXT NOT NULL,\n"
	"  type_char INTEGER NOT NULL,\n"
	"  nr INTEGER NOT NULL,\n"
	"  arg_type_text TEXT,\n"
	"  arg_type INTEGER REFERENCES types(id),\n" /* the compat view's layout */
	"  size INTEGER,\n"                /* bytes in that ABI; NULL when unknown */
	"  size_trusted INTEGER NOT NULL,\n"
	"  cmd INTEGER,\n"                 /* that ABI's command number; NULL when size is unknown */
	"  file TEXT,\n"
	"  line INTEGER,\n"
	"  source TEXT NOT NULL DEFAULT 'macro',\n"
	"  PRIMARY KEY (abi, name)\n"
	") WITHOUT ROWID;\n"

	/* Integer #defines and enumerators of the UAPI headers: one namespace. */
	"CREATE TABLE constants (\n"
	"  name TEXT PRIMARY KEY,\n"
	"  value INTEGER NOT NULL,\n"      /* 64-bit two's complement; see ctype */
	"  ctype TEXT NOT NULL DEFAULT 'int',\n" /* C type of the value: int, unsigned int, long, ... */
	"  expr TEXT,\n"                   /* the macro body as written; NULL for an enumerator */
	"  file TEXT,\n"
	"  line INTEGER,\n"
	"  enum_type INTEGER REFERENCES types(id),\n" /* set when an enumerator has this name */
	"  source TEXT NOT NULL DEFAULT 'macro'\n" /* macro | enumerator */
	") WITHOUT ROWID;\n"

	"CREATE TABLE ioctls (\n"
	"  name TEXT PRIMARY KEY,\n"
	"  dir TEXT NOT NULL,\n"           /* none | r | w | rw */
	"  type_char INTEGER NOT NULL,\n"
	"  nr INTEGER NOT NULL,\n"
	"  arg_type_text TEXT,\n"          /* as written in the _IOx() macro */
	"  arg_type INTEGER REFERENCES types(id),\n"
	"  size INTEGER,\n"                /* bytes, from DWARF; NULL when not found */
	"  size_trusted INTEGER NOT NULL,\n" /* 0: size only from the header's arithmetic */
	"  cmd INTEGER,\n"                 /* the 32-bit command number; NULL when size is unknown */
	"  module_id INTEGER REFERENCES modules(id),\n"
	"  file TEXT,\n"
	"  line INTEGER,\n"
	"  source TEXT NOT NULL DEFAULT 'macro'\n" /* macro | enumerator | number */
	") WITHOUT ROWID;\n"

	/* Function-like ioctl macros (EVIOCGNAME(len)): each field a value or
	 * the formula of the parameters, tokens one space apart. */
	"CREATE TABLE ioctl_families (\n"
	"  name TEXT PRIMARY KEY,\n"
	"  params TEXT NOT NULL,\n"       /* len | a,b */
	"  dir TEXT NOT NULL,\n"          /* none | r | w | rw, or a formula */
	"  type TEXT NOT NULL,\n"         /* a value (decimal) or a formula */
	"  nr TEXT NOT NULL,\n"
	"  size TEXT NOT NULL,\n"
	"  file TEXT,\n"
	"  line INTEGER\n"
	") WITHOUT ROWID;\n"

	/* The vDSO: each image the vmlinux embeds (struct vdso_image's data on
	 * x86_64, vdso_start..vdso_end on arm64), one row per ABI, with its
	 * version definitions and the dynamic symbols it exports. */
	"CREATE TABLE vdso_images (\n"
	"  abi TEXT PRIMARY KEY,\n"        /* x64, ia32, x32; arm64, aarch32 */
	"  symbol TEXT NOT NULL,\n"        /* where the vmlinux holds it: vdso_image_64, vdso_start */
	"  size INTEGER NOT NULL,\n"       /* bytes of the ELF image (its own, not the page padding) */
	"  class INTEGER NOT NULL,\n"      /* 32 | 64 */
	"  machine INTEGER NOT NULL,\n"    /* e_machine */
	"  soname TEXT,\n"                 /* DT_SONAME: linux-vdso.so.1; NULL when none */
	"  build_id TEXT\n"                /* NT_GNU_BUILD_ID as hex; NULL when none */
	") WITHOUT ROWID;\n"
	"CREATE TABLE vdso_versions (\n"
	"  abi TEXT NOT NULL,\n"
	"  idx INTEGER NOT NULL,\n"        /* vd_ndx: what .gnu.version entries name */
	"  name TEXT NOT NULL,\n"          /* LINUX_2.6; the base definition is the soname */
	"  flags INTEGER NOT NULL,\n"      /* VER_FLG_BASE 1, VER_FLG_WEAK 2 */
	"  parents TEXT,\n"                /* the nodes it inherits, space-separated; NULL: none */
	"  PRIMARY KEY (abi, idx)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE vdso_symbols (\n"
	"  abi TEXT NOT NULL,\n"
	"  name TEXT NOT NULL,\n"
	"  version TEXT,\n"                /* version node; NULL: unversioned */
	"  hidden INTEGER NOT NULL,\n"     /* 1: name@VERSION only, not the default (@@) */
	"  bind TEXT NOT NULL,\n"          /* global | weak | unique */
	"  type TEXT NOT NULL,\n"          /* func | object | notype | ifunc | tls | ... */
	"  value INTEGER NOT NULL,\n"      /* st_value; aliases share it */
	"  size INTEGER NOT NULL,\n"
	"  func_id INTEGER REFERENCES functions(id)\n" /* its signature (DWARF of the image); NULL: none */
	");\n"
	"CREATE UNIQUE INDEX vdso_symbols_key ON vdso_symbols(abi, name, ifnull(version, ''));\n"

	/* Whatever could not be resolved; never silently dropped. */
	"CREATE TABLE problems (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  stage TEXT NOT NULL,\n"         /* extract, uapi, modules, spec */
	"  input TEXT,\n"                  /* file the problem is in */
	"  location TEXT,\n"               /* DIE offset, line, symbol */
	"  message TEXT NOT NULL\n"
	");\n"

	/* --- contract (spec) --- */
	/* The parsed contract (spec/FORMAT.md), linked to the tables above by
	 * name. "IF NOT EXISTS" and the SQL marker let kdb__open_update() add
	 * these tables to a DB extracted before they existed; db/kdb-spec.c. */
	"-- contract (spec)\n"
	/* Which spec the DB holds: one row per file, in load order, with its
	 * content (so the spec can be re-parsed from the DB alone). */
	"CREATE TABLE IF NOT EXISTS spec_files (\n"
	"  name TEXT PRIMARY KEY,\n"       /* relative to the spec directory: fs.kabispec */
	"  idx INTEGER NOT NULL,\n"        /* load order */
	"  path TEXT,\n"                   /* as loaded */
	"  hash TEXT NOT NULL,\n"          /* 16 hex digits: kd_hash_bytes(KD_HASH_SEED, text) */
	"  bytes INTEGER NOT NULL,\n"
	"  text TEXT NOT NULL\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE IF NOT EXISTS spec_fdkinds (\n"
	"  name TEXT PRIMARY KEY, text TEXT, file TEXT, line INTEGER\n"
	") WITHOUT ROWID;\n"
	/* Flag sets and enums; values in the order written, base sets first. */
	"CREATE TABLE IF NOT EXISTS spec_sets (\n"
	"  name TEXT PRIMARY KEY,\n"
	"  kind TEXT NOT NULL,\n"          /* flags | enum */
	"  extends TEXT,\n"
	"  unknown TEXT NOT NULL,\n"       /* reject | ignore */
	"  since TEXT, file TEXT, line INTEGER\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE IF NOT EXISTS spec_set_values (\n"
	"  set_name TEXT NOT NULL,\n"
	"  idx INTEGER NOT NULL,\n"
	"  name TEXT NOT NULL,\n"          /* constants.name when not explicit */
	"  value INTEGER,\n"               /* explicit, or the UAPI constant's; NULL: unknown */
	"  value_source TEXT,\n"           /* explicit | uapi | NULL */
	"  expr TEXT,\n"                   /* explicit value as written (canonical) */
	"  grp INTEGER,\n"                 /* exclusive group number in the set; NULL: none */
	"  grp_mask TEXT,\n"
	"  since TEXT, line INTEGER,\n"
	"  PRIMARY KEY (set_name, idx)\n"
	") WITHOUT ROWID;\n"
	/* Syscalls and ioctls of the contract (syscalls.name, ioctls.name). */
	"CREATE TABLE IF NOT EXISTS spec_calls (\n"
	"  kind TEXT NOT NULL,\n"          /* syscall | ioctl */
	"  name TEXT NOT NULL,\n"
	"  ret TEXT NOT NULL,\n"           /* 0 | fd | count | addr | int | pid | noreturn */
	"  ret_fd_kind TEXT,\n"
	"  since TEXT,\n"
	"  fd_kind TEXT,\n"                /* ioctl: the fd kind it applies to */
	"  dir TEXT,\n"                    /* ioctl: none | in | out | inout (user's view) */
	"  arg_type TEXT,\n"               /* ioctl: pointee of the argument */
	"  notes TEXT,\n"                  /* notes joined by newlines */
	"  file TEXT, line INTEGER,\n"
	"  PRIMARY KEY (kind, name)\n"
	") WITHOUT ROWID;\n"
	/* Parameters of calls and annotated fields of structs, one table. */
	"CREATE TABLE IF NOT EXISTS spec_args (\n"
	"  owner_kind TEXT NOT NULL,\n"    /* syscall | ioctl | struct */
	"  owner TEXT NOT NULL,\n"
	"  pos INTEGER NOT NULL,\n"
	"  name TEXT NOT NULL,\n"
	"  kind TEXT,\n"                   /* int, fd, path, ptr, ...; NULL: field without a kind */
	"  ref TEXT,\n"                    /* fd kind, set, len/count target, pointee type */
	"  dir TEXT,\n"                    /* ptr: in | out | inout */
	"  is_array INTEGER NOT NULL DEFAULT 0,\n"
	"  optional INTEGER NOT NULL DEFAULT 0,\n"
	"  range_lo TEXT, range_hi TEXT,\n" /* int ranges, canonical expressions */
	"  specials TEXT,\n"               /* fd: special values, space-separated */
	"  reserved INTEGER NOT NULL DEFAULT 0,\n"
	"  out_only INTEGER NOT NULL DEFAULT 0,\n"
	"  since TEXT, line INTEGER,\n"
	"  PRIMARY KEY (owner_kind, owner, pos)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE IF NOT EXISTS spec_errnos (\n"
	"  call_kind TEXT NOT NULL,\n"
	"  call_name TEXT NOT NULL,\n"
	"  idx INTEGER NOT NULL,\n"
	"  errno TEXT NOT NULL,\n"
	"  text TEXT NOT NULL,\n"
	"  cond TEXT,\n"                   /* canonical machine-readable condition */
	"  since TEXT, line INTEGER,\n"
	"  PRIMARY KEY (call_kind, call_name, idx)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE IF NOT EXISTS spec_structs (\n"
	"  name TEXT PRIMARY KEY,\n"       /* types.name of the struct/union */
	"  is_union INTEGER NOT NULL,\n"
	"  extensible INTEGER NOT NULL,\n"
	"  padding_zero INTEGER NOT NULL,\n"
	"  min_size INTEGER,\n"            /* bytes; NULL: not stated */
	"  since TEXT, file TEXT, line INTEGER\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE IF NOT EXISTS spec_struct_sizes (\n"
	"  struct_name TEXT NOT NULL,\n"
	"  idx INTEGER NOT NULL,\n"
	"  name TEXT,\n"                   /* constants.name: OPEN_HOW_SIZE_VER0 */
	"  size INTEGER NOT NULL,\n"
	"  since TEXT,\n"
	"  PRIMARY KEY (struct_name, idx)\n"
	") WITHOUT ROWID;\n"
	/* --- probe (kabi-diff probe, probe/README.md) --- */
	/* What the running kernel answered: the cases a probe ran and one
	 * observed result per case. "IF NOT EXISTS" and the SQL marker let
	 * kdb__clear_probe() add these tables to an older DB. */
	"-- probe\n"
	"CREATE TABLE IF NOT EXISTS probe_cases (\n"
	"  id TEXT PRIMARY KEY,\n"         /* openat2.resolve.unknown */
	"  call TEXT NOT NULL,\n"          /* syscall name */
	"  nr INTEGER NOT NULL,\n"         /* x86_64 syscall number */
	"  kind TEXT NOT NULL,\n"          /* errno | flag | unknown-flag */
	"  args TEXT NOT NULL,\n"          /* the arguments as passed, readable */
	"  expect TEXT NOT NULL,\n"        /* any | ok | errno | accept */
	"  expect_errno TEXT,\n"           /* EINVAL (errno: the one; accept: the rejecting one) */
	"  what TEXT,\n"
	"  origin TEXT,\n"                 /* builtin | spec file:line */
	"  deviation TEXT,\n"              /* a known deviation's outcome: EINVAL | ok */
	"  deviation_why TEXT\n"           /* its reason, with the contract line */
	") WITHOUT ROWID;\n"
	"CREATE TABLE IF NOT EXISTS probe_results (\n"
	"  case_id TEXT PRIMARY KEY REFERENCES probe_cases(id),\n"
	"  status TEXT NOT NULL,\n"        /* ret | timeout | signal | missing */
	"  ret INTEGER,\n"                 /* the syscall's return value (status ret) */
	"  errno INTEGER,\n"               /* errno when ret = -1; signal number for signal */
	"  errno_name TEXT,\n"             /* EINVAL */
	"  matches INTEGER NOT NULL,\n"    /* 1: the expectation holds */
	"  release TEXT NOT NULL\n"        /* uname -r inside the VM */
	") WITHOUT ROWID;\n"
	/* The cases whose known deviation holds on some file systems only
	 * (`deviation ... on tmpfs`), with the probe's: a table of its own, so
	 * that a .kabi probed before it existed keeps its schema. */
	"CREATE TABLE IF NOT EXISTS probe_deviation_fs (\n"
	"  case_id TEXT PRIMARY KEY REFERENCES probe_cases(id),\n"
	"  fs TEXT NOT NULL\n"             /* the probe's files' file system: tmpfs | ext4 */
	") WITHOUT ROWID;\n";
