// SPDX-License-Identifier: GPL-2.0-only
/*
 * System.map as the symbol table of an image without one: the bzImage's
 * ELF is stripped, and the regular kernel package ships System.map beside
 * vmlinuz. Each line is "ADDRESS TYPE NAME" as nm prints it; the type
 * letter gives the kind (t/T code, the others data) and the binding
 * (lower case local, w/W/v/V weak). System.map has no sizes: a symbol's
 * size is taken as the distance to the next higher address, an upper
 * bound that can include alignment padding (kelf->sizes_estimated says
 * so to the readers of tables).
 */
#include "extract/btf_internal.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/mem.h"

/* Debian's System.map is ~5 MiB; 256 MiB is no System.map. */
#define MAP_MAX (256u << 20)

static int read_text(const char *path, char **out, size_t *len)
{
	struct stat st;
	char *text = NULL;
	size_t got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), err = 0;

	if (fd < 0) {
		err = -errno;
		kd_err("%s: %s", path, strerror(errno));
		return err;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		kd_err("%s: not a regular file", path);
		err = -KD_ENOTREG;
		goto out;
	}
	if ((uint64_t)st.st_size > MAP_MAX) {
		kd_err("%s: %lld bytes is too large for a System.map", path, (long long)st.st_size);
		err = -KD_ELIMIT;
		goto out;
	}
	text = kd_malloc((size_t)st.st_size + 1);
	if (!text) {
		err = -ENOMEM;
		goto out;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, text + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? -errno : -KD_EFORMAT;
			kd_err("%s: %s", path, n < 0 ? strerror(errno) : "shorter than its size");
			goto out;
		}
		got += (size_t)n;
	}
	text[got] = '\0';
	*out = text;
	*len = got;
	text = NULL;
out:
	free(text);
	close(fd);
	return err;
}

static bool parse_line(char *line, struct kelf_symbol *s)
{
	char *end, *name;
	unsigned long long addr;
	int c;

	if (!isxdigit((unsigned char)*line))
		return false;
	errno = 0;
	addr = strtoull(line, &end, 16);
	if (errno || *end != ' ' || !end[1] || end[2] != ' ' || !end[3])
		return false;
	c = (unsigned char)end[1];
	name = end + 3;
	if (strchr(name, ' ') || strchr(name, '\t'))
		return false;
	s->name = name;
	s->addr = addr;
	s->size = 0;
	s->shndx = 0;
	s->type = (c == 'T' || c == 't' || c == 'W' || c == 'w') ? STT_FUNC :
		  (c == 'A' || c == 'a' || c == 'N' || c == 'n' || c == 'U') ? STT_NOTYPE : STT_OBJECT;
	s->bind = (c == 'W' || c == 'w' || c == 'V' || c == 'v') ? STB_WEAK :
		  isupper(c) ? STB_GLOBAL : STB_LOCAL;
	return true;
}

/* The end of the allocated section holding @addr, or 0. */
static uint64_t section_end(const struct kelf *k, uint64_t addr)
{
	size_t i;

	for (i = 0; i < k->nr_sections; i++) {
		const GElf_Shdr *sh = &k->sections[i].shdr;

		if ((sh->sh_flags & SHF_ALLOC) && addr >= sh->sh_addr &&
		    addr - sh->sh_addr < sh->sh_size)
			return sh->sh_addr + sh->sh_size;
	}
	return 0;
}

static int cmp_addr(const void *a, const void *b)
{
	const struct kelf_symbol *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x < y ? -1 : (x > y);
}

int kelf_load_system_map(struct kelf *k, const char *path)
{
	char *text = NULL, *line, *next;
	size_t len = 0, lines = 0, i, j, bad = 0;
	int err = read_text(path, &text, &len);

	if (err)
		return err;
	for (i = 0; i < len; i++)
		lines += text[i] == '\n';
	k->symbols = kd_calloc(lines + 1, sizeof(*k->symbols));
	if (!k->symbols) {
		free(text);
		return -ENOMEM;
	}
	k->nr_symbols = 0;
	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (parse_line(line, &k->symbols[k->nr_symbols]))
			k->nr_symbols++;
		else
			bad++;
	}
	k->symbol_text = text;
	if (!k->nr_symbols || bad > k->nr_symbols / 100) {
		kd_err("%s: not a System.map (%zu of %zu lines are not \"ADDRESS TYPE NAME\")",
		       path, bad, bad + k->nr_symbols);
		return -KD_EFORMAT;
	}
	qsort(k->symbols, k->nr_symbols, sizeof(*k->symbols), cmp_addr);
	/* Each size: up to the next higher address, within the symbol's section. */
	for (i = 0; i < k->nr_symbols; i = j) {
		uint64_t end = section_end(k, k->symbols[i].addr);
		size_t m;

		for (j = i + 1; j < k->nr_symbols && k->symbols[j].addr == k->symbols[i].addr; j++)
			;
		if (j < k->nr_symbols && (!end || k->symbols[j].addr < end))
			end = k->symbols[j].addr;
		for (m = i; end && m < j; m++)
			k->symbols[m].size = end - k->symbols[i].addr;
	}
	k->sizes_estimated = true;
	return 0;
}

int system_map_lookup(const char *path, const char *const *names, uint64_t *addrs, size_t n)
{
	char *text = NULL, *line, *next;
	size_t len = 0, i;
	int err = read_text(path, &text, &len);

	for (i = 0; i < n; i++)
		addrs[i] = 0;
	for (line = err ? NULL : text; line && *line; line = next) {
		struct kelf_symbol s;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!parse_line(line, &s))
			continue;
		for (i = 0; i < n; i++)
			if (!addrs[i] && !strcmp(s.name, names[i]))
				addrs[i] = s.addr;
	}
	free(text);
	return err;
}
