// SPDX-License-Identifier: MIT
/*
 * symbols.c - function names for the addresses of stacks, from the ELF
 * symbol tables of files (elfutils libelf) and their separate debug files,
 * and from /proc/kallsyms
 *
 * A file is read the first time it is asked about: its loadable segments
 * and its build id, all that mappings and their metadata need. Its
 * functions are read only when a symbol of it is asked for (a stack hits
 * it), sorted by address with one symbol per address: the file's .symtab;
 * without one, those of its separate debug file (found by build id, then
 * by .gnu_debuglink: see read_debug_file()); without that, its .dynsym
 * with the symbols of its .gnu_debugdata (xz, liblzma); and, from the
 * file's own code, its PLT entries as "name@plt" (read_plt()). A table
 * keeps addresses only: a name is read from the file's string table when
 * it is first asked for (see struct symtab), so that a large C++ program costs
 * 16 bytes a function and its names are not all demangled. Files are
 * closed once read; only the last few that names were read from stay
 * open (SRC_FDS), so that many mapped files cost no file descriptors. A
 * file that cannot be read is kept too, as such, and not tried again.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <elfutils/libdwelf.h>
#include <gelf.h>
#include <libelf.h>
#include <libiberty/demangle.h>
#include <lzma.h>

#include "core/ehd-buf.h"
#include "core/ehd-bytes.h"
#include "core/ehd-clock.h"
#include "core/ehd-table.h"
#include "system/procfs.h"
#include "system/symbols.h"

#define BUILD_ID_MAX 64		/* bytes; what ehd__syms_build_id() takes */
#define DEBUG_DIR "/usr/lib/debug"	/* where debug files are installed */
#define DEBUGDATA_MAX (64u << 20)	/* .gnu_debugdata, decompressed */
#define JIT_RETRY_NS 1000000000ull	/* a perf map looked at again after */
#define PAGE_BYTES 4096ull	/* the loader maps whole pages */
#define NAME_MAX_BYTES (64u << 10)	/* longest symbol name read */

/*
 * A symbol: it covers start..start + its size - 1. Its size, whether the
 * table gave it, whether its name is kept and its rank (the higher, the
 * better at a shared address) share one word: 16 bytes a symbol, as a
 * kernel has some 100,000 of them.
 */
struct sym {
	uint64_t start;
	uint32_t name;		/* see struct symtab */
	uint32_t bits;		/* SYM_SIZE | SYM_SIZED | SYM_KEPT | rank */
};

#define SYM_SIZE ((1u << 25) - 1)	/* larger sizes are cut to this */
#define SYM_SIZED (1u << 25)		/* the table gave the size */
#define SYM_KEPT (1u << 26)		/* name: an index in kept[] */
#define SYM_RANK_SHIFT 27		/* rank: 0..31 */

/*
 * A sorted symbol table. A symbol's name is where @names says (the
 * names of kallsyms and perf maps, read in whole), or, when @src is set,
 * that of entry @name of the ELF symbol table at @src_syms in file @src:
 * such a name is read from the file when it is first asked for,
 * demangled when @demangle, and kept then (SYM_KEPT). The names of a
 * large table are thus never all in memory.
 */
struct symtab {
	struct sym *v;
	size_t n, cap;
	char *names;
	size_t names_len, names_cap;
	char **kept;			/* names read, as given out */
	size_t nkept, kept_cap;
	char *src;			/* NULL: names in @names */
	uint64_t src_syms, src_entsize;	/* its symbol table */
	uint64_t src_off, src_size;	/* its string table */
	bool src_swap;			/* not in our byte order */
	struct stat src_st;		/* @src as read: not another file */
	bool demangle;
};

/* A loadable segment: file offsets off.. are addresses vaddr.. */
struct seg {
	uint64_t off;
	uint64_t vaddr;
	uint64_t filesz;
	uint64_t memsz;
};

struct file {
	char *path;
	int err;		/* 0, or -ENOENT: cannot be read, not ELF */
	dev_t dev;		/* the file read (when err is 0) */
	ino_t ino;
	struct seg *segs;
	size_t nsegs;
	struct symtab syms;
	bool demangle;		/* its C++ and Rust names */
	bool syms_read;		/* its symbols were looked for */
	int build_id_len;	/* 0 when it has none */
	unsigned char build_id[BUILD_ID_MAX];
};

/* The perf map a JIT writes for process @pid (/tmp/perf-PID.map). */
struct jit {
	uint32_t pid;
	bool read;		/* tried */
	off_t size;		/* the file's size when read; -1: none */
	uint64_t retry;		/* CLOCK_MONOTONIC_COARSE ns: not again before */
	struct symtab syms;
};

/* An open file that names are read from (see read_src_name()). */
struct src_fd {
	char *path;
	int fd;
};

#define SRC_FDS 4	/* files kept open for their names, at most */

struct ehd__syms {
	struct ehd_table by_path;	/* hash of the path -> index in files */
	struct src_fd src[SRC_FDS];	/* round robin */
	unsigned int src_next;
	struct jit *jits;		/* by process */
	size_t njits, jits_cap;
	struct file *files;
	size_t n, cap;
	bool kernel_read;
	int kernel_err;			/* -ENOENT: no usable kallsyms */
	struct symtab kernel;
	bool raw_names;			/* not demangled */
};

/* Whether an open() that failed with @e may work later. */
static bool transient(int e)
{
	return e == EMFILE || e == ENFILE || e == ENOMEM || e == EINTR;
}

/* ---- sorted symbol tables ---- */

/* Whether @size bytes at @off are in the file of @st. */
static bool in_file(const struct stat *st, uint64_t off, uint64_t size)
{
	return off <= (uint64_t)st->st_size &&
	       size <= (uint64_t)st->st_size - off;
}

static void symtab_free(struct symtab *t)
{
	size_t i;

	for (i = 0; i < t->nkept; i++)
		free(t->kept[i]);
	free(t->kept);
	free(t->v);
	free(t->names);
	free(t->src);
	memset(t, 0, sizeof(*t));
}

static uint64_t sym_size(const struct sym *s)
{
	return s->bits & SYM_SIZE;
}

static uint64_t sym_end(const struct sym *s)
{
	return s->start + sym_size(s);
}

/* Make @s end at @end (at most SYM_SIZE past its start). */
static void sym_set_end(struct sym *s, uint64_t end)
{
	uint64_t size = end - s->start;

	if (size > SYM_SIZE)
		size = SYM_SIZE;
	s->bits = (s->bits & ~SYM_SIZE) | (uint32_t)size;
}

static unsigned int sym_rank(const struct sym *s)
{
	return s->bits >> SYM_RANK_SHIFT;
}

/* Room for one more symbol at t->v[t->n]; 0 or -ENOMEM. */
static int symtab_grow(struct symtab *t)
{
	return t->n >= UINT32_MAX ? -ENOMEM :	/* (kept ranks are u32) */
	       ehd__grow(&t->v, &t->cap, t->n + 1, sizeof(*t->v));
}

/* A symbol of @size bytes (0: not given) at @start, named @name. */
static struct sym *symtab_push(struct symtab *t, uint64_t start,
			       uint64_t size, uint32_t name, unsigned int rank)
{
	struct sym *s = &t->v[t->n++];

	s->start = start;
	s->name = name;
	s->bits = rank << SYM_RANK_SHIFT;
	if (size)
		s->bits |= SYM_SIZED;
	if (size > UINT64_MAX - start)
		size = UINT64_MAX - start;
	sym_set_end(s, start + size);
	return s;
}

/* Keep @name (taken: freed here on failure) as @s's; 0 or -ENOMEM. */
static int sym_keep(struct symtab *t, struct sym *s, char *name)
{
	if (!name)
		return -ENOMEM;
	if (t->nkept >= UINT32_MAX ||	/* (s->name is a u32) */
	    ehd__grow(&t->kept, &t->kept_cap, t->nkept + 1, sizeof(*t->kept))) {
		free(name);
		return -ENOMEM;
	}
	s->name = (uint32_t)t->nkept;
	s->bits |= SYM_KEPT;
	t->kept[t->nkept++] = name;
	return 0;
}

/*
 * @name without its symbol version ("memcpy@@GLIBC_2.14" is memcpy, as
 * the linker and PerfView's lookup name it), demangled when it is a C++
 * or Rust name and @demangle is set (Itanium "_Z...", Rust legacy
 * "_ZN...17h<hash>E" and v0 "_R..."; libiberty); else a copy. NULL: out
 * of memory.
 */
static char *name_dup(const char *name, bool demangle)
{
	const char *at = strchr(name, '@');
	char *d = NULL, *plain = at && at > name ?
				 strndup(name, (size_t)(at - name)) : NULL;

	if (plain)
		name = plain;
	if (demangle && name[0] == '_' && (name[1] == 'Z' || name[1] == 'R'))
		d = cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI | DMGL_AUTO);
	if (!d)
		d = plain ? plain : strdup(name);
	else
		free(plain);
	return d;
}

/* Add symbol @name (@len bytes, no NUL needed) to @names; 0 or -ENOMEM. */
static int symtab_add(struct symtab *t, uint64_t start, uint64_t size,
		      const char *name, size_t len, unsigned int rank)
{
	if (symtab_grow(t))
		return -ENOMEM;
	if (len + 1 > t->names_cap - t->names_len) {
		size_t cap = t->names_cap ? t->names_cap : 4096;
		char *p;

		while (len + 1 > cap - t->names_len)
			cap *= 2;
		if (cap > UINT32_MAX)
			return -ENOMEM;
		p = realloc(t->names, cap);
		if (!p)
			return -ENOMEM;
		t->names = p;
		t->names_cap = cap;
	}
	symtab_push(t, start, size, (uint32_t)t->names_len, rank);
	memcpy(t->names + t->names_len, name, len);
	t->names[t->names_len + len] = 0;
	t->names_len += len + 1;
	return 0;
}

/*
 * By address, the best rank first, then the first added (offsets in
 * @names and entries of @src grow as they are added).
 */
static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (sym_rank(x) != sym_rank(y))
		return sym_rank(x) > sym_rank(y) ? -1 : 1;
	if ((x->bits ^ y->bits) & SYM_KEPT)
		return x->bits & SYM_KEPT ? 1 : -1;
	return x->name < y->name ? -1 : x->name > y->name;
}

/*
 * Sort the table and keep the best symbol of each address. A symbol with
 * a size ends there; one without ends at the next symbol (SYM_SIZE past
 * its start for the last): the caller may shorten those.
 */
static void symtab_finish(struct symtab *t)
{
	size_t i, n = 0;
	struct sym *v;
	char *names;

	if (!t->n)
		return;
	qsort(t->v, t->n, sizeof(*t->v), sym_cmp);
	for (i = 0; i < t->n; i++) {
		if (!n || t->v[i].start != t->v[n - 1].start)
			t->v[n++] = t->v[i];
		else if (t->v[i].bits & SYM_KEPT) {	/* never given out */
			free(t->kept[t->v[i].name]);
			t->kept[t->v[i].name] = NULL;
		}
	}
	t->n = n;
	for (i = 0; i < n; i++) {
		struct sym *s = &t->v[i];

		if (!(s->bits & SYM_SIZED))
			sym_set_end(s, i + 1 < n ? t->v[i + 1].start :
				    UINT64_MAX);
	}
	/* What the tables grew by and does not hold is given back. */
	v = realloc(t->v, n * sizeof(*t->v));
	if (v) {
		t->v = v;
		t->cap = n;
	}
	names = t->names_len ? realloc(t->names, t->names_len) : NULL;
	if (names) {
		t->names = names;
		t->names_cap = t->names_len;
	}
}

/*
 * The symbol that covers @addr, or NULL. The innermost one wins when
 * symbols nest; a few are looked at before @addr, not all of them.
 */
static struct sym *symtab_find(const struct symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->n, i;

	while (lo < hi) {		/* the first symbol after addr */
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i > 0 && lo - i < 16; i--)
		if (addr < sym_end(&t->v[i - 1]))
			return &t->v[i - 1];
	return NULL;
}

/*
 * A descriptor of @t->src, if it is still the file read: the few read
 * last stay open (names are asked one at a time, and a path walk costs
 * more than a read, much more on a network or virtual file system).
 * -1 when it cannot be had.
 */
static int src_open(struct ehd__syms *sy, const struct symtab *t)
{
	struct src_fd *slot;
	struct stat st;
	unsigned int i;
	int fd;

	for (i = 0; i < SRC_FDS; i++)
		if (sy->src[i].path && !strcmp(sy->src[i].path, t->src))
			return sy->src[i].fd;
	fd = open(t->src, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || st.st_dev != t->src_st.st_dev ||
	    st.st_ino != t->src_st.st_ino ||
	    st.st_size != t->src_st.st_size ||
	    st.st_mtim.tv_sec != t->src_st.st_mtim.tv_sec ||
	    st.st_mtim.tv_nsec != t->src_st.st_mtim.tv_nsec) {
		close(fd);
		return -1;
	}
	slot = &sy->src[sy->src_next++ % SRC_FDS];
	if (slot->path) {
		close(slot->fd);
		free(slot->path);
	}
	slot->path = strdup(t->src);
	slot->fd = fd;
	if (!slot->path) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Read the name of @s from @t->src (its symbol's st_name, the first word
 * of an ELF32 and an ELF64 symbol alike, then that string), if the file
 * is still the one read. NULL when it cannot be had.
 */
static char *read_src_name(struct ehd__syms *sy, const struct symtab *t,
			   const struct sym *s)
{
	char *buf = NULL, *p, *name = NULL;
	size_t len = 0, cap = 0;
	uint32_t at;
	ssize_t got;
	int fd = src_open(sy, t);

	if (fd < 0 || pread(fd, &at, sizeof(at),
			    (off_t)(t->src_syms + s->name * t->src_entsize)) !=
		      sizeof(at))
		return NULL;
	if (t->src_swap)
		at = __builtin_bswap32(at);
	if (at >= t->src_size)
		return NULL;
	for (;;) {
		uint64_t left = t->src_size - at - len;

		if (!left || cap > NAME_MAX_BYTES)
			goto out;	/* not terminated in the table */
		if (len == cap) {
			cap = cap ? 2 * cap : 256;
			p = realloc(buf, cap);
			if (!p)
				goto out;
			buf = p;
		}
		got = pread(fd, buf + len, cap - len < left ? cap - len : left,
			    (off_t)(t->src_off + at + len));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			goto out;
		p = memchr(buf + len, 0, (size_t)got);
		len += (size_t)got;
		if (p)
			break;
	}
	name = buf[0] ? name_dup(buf, t->demangle) : NULL;
out:
	free(buf);
	return name;
}

/*
 * The name of @s, read when first asked for (see struct symtab), or
 * NULL. A name that cannot be read is kept empty: not tried again.
 * Return: 0, or -ENOMEM.
 */
static int sym_name(struct ehd__syms *sy, struct symtab *t, struct sym *s,
		    const char **name)
{
	char *got;

	*name = NULL;
	if (!(s->bits & SYM_KEPT)) {
		if (!t->src) {
			*name = t->names + s->name;
			return 0;
		}
		got = read_src_name(sy, t, s);
		if (sym_keep(t, s, got ? got : strdup("")))
			return -ENOMEM;
	}
	if (t->kept[s->name][0])
		*name = t->kept[s->name];
	return 0;
}

/* @s->addr's symbol in @t; 0 (@s->name NULL when none), or -ENOMEM. */
static int symtab_describe(struct ehd__syms *sy, struct symtab *t,
			   struct ehd__sym *s)
{
	struct sym *f = symtab_find(t, s->addr);
	int err;

	if (!f)
		return 0;
	err = sym_name(sy, t, f, &s->name);
	if (err || !s->name)
		return err;
	s->start = f->start;
	s->size = sym_size(f);
	s->offset = s->addr - f->start;
	return 0;
}

/* ---- ELF files ---- */

static int read_segments(struct file *f, Elf *elf)
{
	size_t i, n;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &n) || !n)
		return 0;
	if (n > INT_MAX)		/* gelf_getphdr() takes an int */
		n = INT_MAX;
	f->segs = calloc(n, sizeof(*f->segs));
	if (!f->segs)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct seg *s = &f->segs[f->nsegs];

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
		    !ph.p_filesz)
			continue;
		s->off = ph.p_offset;
		s->vaddr = ph.p_vaddr;
		s->filesz = ph.p_filesz;
		s->memsz = ph.p_memsz > ph.p_filesz ? ph.p_memsz : ph.p_filesz;
		f->nsegs++;
	}
	return 0;
}

/* The section of the first symbol table of @type, or NULL. */
static Elf_Scn *find_symtab(Elf *elf, GElf_Word type, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, sh) && sh->sh_type == type)
			return scn;
	return NULL;
}

/*
 * Whether the names of symbol table @sh of @elf can be read later from
 * file @fd at @path: the table and its strings are stored as they are
 * (not compressed) inside the file. Sets @t's source then.
 */
static bool lazy_names(struct symtab *t, Elf *elf, const GElf_Shdr *sh,
		       const char *path, int fd)
{
	Elf_Scn *scn = elf_getscn(elf, sh->sh_link);
	const char *ident = elf_getident(elf, NULL);
	struct stat st;
	GElf_Shdr str;

	/* a container's file (/proc/PID/root/...) is gone with its process */
	if (!path || !strncmp(path, "/proc/", 6))
		return false;
	if (fd < 0 || !scn || !ident || !gelf_getshdr(scn, &str) ||
	    str.sh_type != SHT_STRTAB || fstat(fd, &st) ||
	    ((sh->sh_flags | str.sh_flags) & SHF_COMPRESSED) ||
	    !in_file(&st, str.sh_offset, str.sh_size) ||
	    !in_file(&st, sh->sh_offset, sh->sh_size) ||
	    sh->sh_entsize < sizeof(uint32_t))
		return false;
	if (t->src && !t->n) {	/* (a debug file without functions) */
		free(t->src);
		t->src = NULL;
	}
	if (t->src)		/* one source a table */
		return false;
	t->src = strdup(path);
	if (!t->src)
		return false;
	t->src_syms = sh->sh_offset;
	t->src_entsize = sh->sh_entsize;
	t->src_off = str.sh_offset;
	t->src_size = str.sh_size;
	t->src_swap = (ident[EI_DATA] == ELFDATA2MSB) !=
		      (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	t->src_st = st;
	return true;
}

/*
 * The functions of @elf's .symtab, else of its .dynsym, into @f; globals
 * first, then weaks. @elf is open from @fd at @path, whose string table
 * then gives their names when asked (see struct symtab); with @path NULL
 * (an ELF image in memory) the names are copied now.
 */
static int read_symbols(struct file *f, Elf *elf, const char *path, int fd)
{
	Elf_Scn *scn;
	Elf_Data *data;
	GElf_Shdr sh;
	GElf_Sym sym;
	size_t i, n, entsize = gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
	struct symtab *t = &f->syms;
	bool lazy;
	int err;

	scn = find_symtab(elf, SHT_SYMTAB, &sh);
	if (!scn)
		scn = find_symtab(elf, SHT_DYNSYM, &sh);
	if (!scn || !entsize)
		return 0;
	data = elf_getdata(scn, NULL);
	if (!data)
		return 0;
	t->demangle = f->demangle;
	lazy = lazy_names(t, elf, &sh, path, fd);
	n = data->d_size / entsize;
	if (n > INT_MAX)		/* gelf_getsym() takes an int */
		n = INT_MAX;
	for (i = 1; i < n; i++) {	/* 0 is the null symbol */
		unsigned int type, bind, rank;
		const char *name;
		struct sym *s;

		if (!gelf_getsym(data, (int)i, &sym))
			break;
		type = GELF_ST_TYPE(sym.st_info);
		bind = GELF_ST_BIND(sym.st_info);
		if (type != STT_FUNC && type != STT_GNU_IFUNC)
			continue;
		if (sym.st_shndx == SHN_UNDEF || !sym.st_value || !sym.st_name)
			continue;
		name = lazy ? NULL : elf_strptr(elf, sh.sh_link, sym.st_name);
		if (!lazy && (!name || !*name))
			continue;
		rank = bind == STB_GLOBAL ? 4 : bind == STB_WEAK ? 2 : 0;
		rank += !!sym.st_size;
		if (symtab_grow(t))
			return -ENOMEM;
		s = symtab_push(t, sym.st_value, sym.st_size, (uint32_t)i,
				rank);
		if (!lazy) {
			err = sym_keep(t, s, name_dup(name, f->demangle));
			if (err) {
				t->n--;
				return err;
			}
		}
	}
	symtab_finish(t);
	return 0;
}

/* The loadable segment that holds address @addr, or NULL. */
static const struct seg *seg_of_addr(const struct file *f, uint64_t addr)
{
	size_t i;

	for (i = 0; i < f->nsegs; i++)
		if (addr - f->segs[i].vaddr < f->segs[i].memsz)
			return &f->segs[i];
	return NULL;
}

/*
 * A symbol without a size ends at the next one, but not past the end of
 * its segment; the last one outside any segment covers its start only.
 */
static void end_sizeless(struct file *f)
{
	size_t i;

	for (i = 0; i < f->syms.n; i++) {
		struct sym *s = &f->syms.v[i];
		const struct seg *g;
		uint64_t end;

		if (s->bits & SYM_SIZED)
			continue;
		g = seg_of_addr(f, s->start);
		if (g) {
			end = g->memsz > UINT64_MAX - g->vaddr ?
			      UINT64_MAX : g->vaddr + g->memsz;
			if (end < sym_end(s))
				sym_set_end(s, end);
		} else if (i + 1 == f->syms.n) {
			sym_set_end(s, s->start + 1);
		}
	}
}

static int read_build_id(struct file *f, Elf *elf)
{
	const void *id;
	ssize_t len = dwelf_elf_gnu_build_id(elf, &id);

	if (len > 0 && len <= BUILD_ID_MAX) {
		memcpy(f->build_id, id, (size_t)len);
		f->build_id_len = (int)len;
	}
	return 0;
}

/* ---- separate debug files ---- */

/*
 * The CRC-32 of the bytes of @fd from its start (the one zlib's crc32()
 * computes), which a .gnu_debuglink section gives for its debug file.
 */
static bool file_crc32(int fd, uint32_t *crc)
{
	uint32_t table[256], c = 0xffffffffu;
	unsigned char buf[16384];
	ssize_t n, i;
	unsigned int k, b;

	for (b = 0; b < 256; b++) {
		uint32_t v = b;

		for (k = 0; k < 8; k++)
			v = (v & 1) ? 0xedb88320u ^ (v >> 1) : v >> 1;
		table[b] = v;
	}
	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return false;
		if (!n)
			break;
		for (i = 0; i < n; i++)
			c = table[(c ^ buf[i]) & 0xff] ^ (c >> 8);
	}
	*crc = c ^ 0xffffffffu;
	return true;
}

/*
 * Open @path as the debug file of @f: an ELF file with a .symtab whose
 * build id is @f's when both have one, and whose CRC-32 is @crc when
 * @check_crc. Its symbols go into @f (its addresses are @f's: a debug
 * file is linked as its binary). Return: true when they did.
 */
static bool try_debug_file(struct file *f, const char *path, bool check_crc,
			   uint32_t crc, int *err)
{
	const void *id;
	GElf_Shdr sh;
	uint32_t got;
	ssize_t len;
	bool ok = false;
	Elf *elf;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	if (check_crc && (!file_crc32(fd, &got) || got != crc)) {
		close(fd);
		return false;
	}
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF &&
	    find_symtab(elf, SHT_SYMTAB, &sh)) {
		len = dwelf_elf_gnu_build_id(elf, &id);
		ok = !f->build_id_len || len <= 0 ||
		     (len == f->build_id_len &&
		      !memcmp(id, f->build_id, (size_t)len));
	}
	if (ok) {
		*err = read_symbols(f, elf, path, fd);
		ok = !*err && f->syms.n;
	}
	elf_end(elf);
	close(fd);
	return ok;
}

/*
 * The symbols of @f's separate debug file, for a file without .symtab (as
 * distributions ship their libraries): DEBUG_DIR/.build-id/NN/REST.debug
 * by its build id, then the name its .gnu_debuglink gives (with its CRC)
 * beside it, in .debug/ beside it and under DEBUG_DIR with its folder, as
 * gdb looks. DEBUG_DIR is /usr/lib/debug, or $EHD_DEBUG_DIR.
 */
static int read_debug_file(struct file *f, Elf *elf)
{
	const char *dir = getenv("EHD_DEBUG_DIR"), *link, *slash;
	char path[PATH_MAX], hex[2 * BUILD_ID_MAX + 1];
	GElf_Word crc;
	int err = 0;
	int n;

	if (!dir || !*dir)
		dir = DEBUG_DIR;
	if (f->build_id_len >= 2) {
		ehd__hex(f->build_id, (size_t)f->build_id_len, hex);
		n = snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s.debug",
			     dir, hex, hex + 2);
		if (n > 0 && (size_t)n < sizeof(path) &&
		    try_debug_file(f, path, false, 0, &err))
			return 0;
		if (err)
			return err;
	}
	link = dwelf_elf_gnu_debuglink(elf, &crc);
	if (!link || !*link || strchr(link, '/'))
		return 0;
	slash = strrchr(f->path, '/');
	n = slash ? (int)(slash - f->path) : 0;
	if (snprintf(path, sizeof(path), "%.*s/%s", n, f->path, link) <
		    (int)sizeof(path) && strcmp(path, f->path) &&
	    try_debug_file(f, path, true, crc, &err))
		return 0;
	if (!err && snprintf(path, sizeof(path), "%.*s/.debug/%s", n, f->path,
			     link) < (int)sizeof(path) &&
	    try_debug_file(f, path, true, crc, &err))
		return 0;
	if (!err && snprintf(path, sizeof(path), "%s%.*s/%s", dir, n, f->path,
			     link) < (int)sizeof(path))
		try_debug_file(f, path, true, crc, &err);
	return err;
}

/*
 * The symbols of the xz-compressed ELF file in @elf's .gnu_debugdata
 * section (the "MiniDebugInfo" some distributions add: the functions
 * .dynsym lacks), added to @f. Return: 0 (also when there is none, or it
 * is damaged), or -ENOMEM.
 */
static int read_debugdata(struct file *f, Elf *elf)
{
	lzma_stream z = LZMA_STREAM_INIT;
	Elf_Scn *scn = NULL;
	Elf_Data *data = NULL;
	uint8_t *out = NULL, *p;
	size_t cap = 0, shstrndx;
	lzma_ret r = LZMA_OK;
	const char *name;
	GElf_Shdr sh;
	Elf *mini;
	int err = 0;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return 0;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".gnu_debugdata"))
			break;
	}
	if (!scn || !(data = elf_getdata(scn, NULL)) || !data->d_size)
		return 0;
	if (lzma_stream_decoder(&z, DEBUGDATA_MAX, 0) != LZMA_OK)
		return 0;
	z.next_in = data->d_buf;
	z.avail_in = data->d_size;
	while (r == LZMA_OK) {
		if (!z.avail_out) {
			if (cap >= DEBUGDATA_MAX)
				break;
			p = realloc(out, cap ? 2 * cap : 1u << 16);
			if (!p) {
				err = -ENOMEM;
				break;
			}
			out = p;
			z.next_out = out + cap;
			z.avail_out = cap ? cap : 1u << 16;
			cap = cap ? 2 * cap : 1u << 16;
		}
		r = lzma_code(&z, LZMA_FINISH);
	}
	if (r == LZMA_STREAM_END) {
		mini = elf_memory((char *)out, cap - z.avail_out);
		if (mini && elf_kind(mini) == ELF_K_ELF)
			err = read_symbols(f, mini, NULL, -1);
		elf_end(mini);
	}
	lzma_end(&z);
	free(out);
	return err;
}

/* ---- PLT entries ---- */

#define PLT_ENTRY_MIN 8		/* bytes: .plt.got's, without IBT */
#define PLT_ENTRY_MAX 64

/* A GOT slot, and the .dynsym entry of the function it holds. */
struct got_slot {
	uint64_t addr;
	size_t sym;
};

static int slot_cmp(const void *a, const void *b)
{
	const struct got_slot *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * The GOT slots that the PLT entries of @elf jump through: the places of
 * its relocations of type @jump (.rela.plt) and @glob (.rela.dyn, for
 * x86-64's .plt.got; @jump again where no such PLT is), sorted, in
 * *@slots (*@n; NULL, 0 when none), their symbols entries of the table at
 * *@symtab.
 */
static int got_slots(Elf *elf, uint64_t jump, uint64_t glob,
		     struct got_slot **slots, size_t *n, Elf_Scn **symtab)
{
	Elf_Scn *scn = NULL;
	struct got_slot *v = NULL;
	size_t cap = 0, i, count;
	Elf_Data *data;
	GElf_Shdr sh;
	GElf_Rela r;

	*slots = NULL;
	*n = 0;
	*symtab = NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA ||
		    !sh.sh_entsize || !(data = elf_getdata(scn, NULL)))
			continue;
		/* (the relocations of one symbol table: .dynsym) */
		if (!*symtab)
			*symtab = elf_getscn(elf, sh.sh_link);
		if (!*symtab || elf_ndxscn(*symtab) != sh.sh_link)
			continue;
		count = data->d_size / sh.sh_entsize;
		for (i = 0; i < count && i <= INT_MAX; i++) {
			if (!gelf_getrela(data, (int)i, &r))
				break;
			if (GELF_R_TYPE(r.r_info) != jump &&
			    GELF_R_TYPE(r.r_info) != glob)
				continue;
			if (!GELF_R_SYM(r.r_info))
				continue;
			if (ehd__grow(&v, &cap, *n + 1, sizeof(*v))) {
				free(v);
				*n = 0;
				return -ENOMEM;
			}
			v[*n].addr = r.r_offset;
			v[(*n)++].sym = GELF_R_SYM(r.r_info);
		}
	}
	if (*n)
		qsort(v, *n, sizeof(*v), slot_cmp);
	*slots = v;
	return 0;
}

/*
 * The GOT slot that the x86-64 PLT entry at @off of @p (@n bytes from
 * @addr, entries of @ent bytes) jumps through with its "jmp
 * *disp32(%rip)" (ff 25): at its start, after a bnd prefix (f2), after an
 * endbr64 (f3 0f 1e fa), or after both. The entry is *@start, *@size:
 * @off, @ent. 0 when it has no such jump: the lazy PLT's first entry, the
 * lazy stubs of an IBT PLT (whose calls go through .plt.sec), and a last
 * entry cut short.
 */
static uint64_t x86_64_plt_slot(const uint8_t *p, size_t n, size_t off,
				uint64_t addr, size_t ent, size_t *start,
				size_t *size)
{
	static const uint8_t endbr64[4] = { 0xf3, 0x0f, 0x1e, 0xfa };
	size_t k;

	*start = off;
	*size = ent;
	if (ent > n - off)
		return 0;
	p += off;
	for (k = 0; k <= 5 && k + 6 <= ent; k++) {
		if (k == 2 || k == 3)
			continue;
		if (k >= 4 && memcmp(p, endbr64, sizeof(endbr64)))
			continue;
		if ((k == 1 || k == 5) && p[k - 1] != 0xf2)
			continue;
		if (p[k] == 0xff && p[k + 1] == 0x25) {
			int32_t disp = (int32_t)ehd__get32(p + k + 2);

			return addr + off + k + 6 + (uint64_t)(int64_t)disp;
		}
	}
	return 0;
}

#define A64_BTI_C	0xd503245fu	/* bti c */
#define A64_NOP		0xd503201fu
#define A64_BR_X17	0xd61f0220u	/* br x17 */

/* The AArch64 instruction at @p (little-endian, whatever the host's). */
static uint32_t a64_insn(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/*
 * The GOT slot that the AArch64 PLT entry whose load is at @off of @p
 * (@n bytes from @addr, @off a multiple of 4; @ent unused: the entries
 * are of 16 or 24 bytes, after one of 32) jumps through: an "adrp x16,
 * PAGE" then an "ldr x17, [x16, #OFF]" load the slot at PAGE + OFF, and a
 * "br x17" at most three instructions on (after an "add x16" and, in a
 * -z pac-plt PLT, an "autia1716") jumps to it. The entry's start (a "bti
 * c" before the adrp is its first instruction) and size (to its br, and a
 * nop after it that pads it to a multiple of 8 bytes) in *@start and
 * *@size. 0 when no entry loads a slot at @off, the 4 bytes there in
 * *@start, *@size (the lazy PLT's first entry loads one that no
 * relocation names).
 */
static uint64_t aarch64_plt_slot(const uint8_t *p, size_t n, size_t off,
				 uint64_t addr, size_t ent, size_t *start,
				 size_t *size)
{
	uint32_t adrp, ldr;
	uint64_t page;
	size_t k;

	(void)ent;
	*start = off;
	*size = 4;
	if (n < 8 || off > n - 8)
		return 0;
	adrp = a64_insn(p + off);
	ldr = a64_insn(p + off + 4);
	/* adrp: 1 immlo:2 10000 immhi:19 Rd:5; ldr (64-bit, unsigned offset) */
	if ((adrp & 0x9f00001fu) != 0x90000010u ||
	    (ldr & 0xffc003ffu) != 0xf9400211u)
		return 0;
	page = (uint64_t)(((adrp >> 29) & 3) | ((adrp >> 5) & 0x7ffff) << 2);
	if (page & (1u << 20))	/* (a signed count of 4-KiB pages) */
		page |= ~(uint64_t)0 << 21;
	page = ((addr + off) & ~(uint64_t)0xfff) + (page << 12);
	for (k = off + 8; k <= off + 16 && k + 4 <= n; k += 4)
		if (a64_insn(p + k) == A64_BR_X17)
			break;
	if (k > off + 16 || k + 4 > n)
		return 0;
	*start = off >= 4 && a64_insn(p + off - 4) == A64_BTI_C ? off - 4 : off;
	k += 4;
	if ((k - *start) % 8 && k + 4 <= n && a64_insn(p + k) == A64_NOP)
		k += 4;
	*size = k - *start;
	return page + ((ldr >> 10) & 0xfff) * 8;
}

/* Whether section @name holds PLT entries. */
static bool is_plt(const char *name)
{
	return !strcmp(name, ".plt") || !strcmp(name, ".plt.sec") ||
	       !strcmp(name, ".plt.got");
}

/* "NAME@plt", NAME being @name as name_dup() gives it; NULL: no memory. */
static char *plt_name(const char *name, bool demangle)
{
	char *plain = name_dup(name, demangle), *full;
	size_t len;

	if (!plain)
		return NULL;
	len = strlen(plain);
	full = realloc(plain, len + sizeof("@plt"));
	if (!full) {
		free(plain);
		return NULL;
	}
	memcpy(full + len, "@plt", sizeof("@plt"));
	return full;
}

/*
 * The entries of @elf's PLT sections (.plt, .plt.sec, .plt.got) named as
 * the function each jumps to, "name@plt" (as perf and objdump name them),
 * added to @f: a sample in a call's stub is otherwise taken for the end
 * of the symbol before (_init). The slot an entry jumps through is read
 * from its code, not assumed from its place, so the order of the
 * relocations does not matter. x86-64 and AArch64 only; elsewhere, and
 * for an entry without a jump of the kind (the lazy PLT's first one),
 * nothing. Its code is that of the file run: a separate debug file has
 * none.
 * Return: 0, or -ENOMEM.
 */
static int read_plt(struct file *f, Elf *elf)
{
	uint64_t (*entry)(const uint8_t *p, size_t n, size_t off,
			  uint64_t addr, size_t ent, size_t *start,
			  size_t *size);
	struct symtab *t = &f->syms;
	size_t nslots, shstrndx, nsyms, ent, off, start, size;
	struct got_slot *slots, key, *hit;
	const uint8_t *code;
	Elf_Data *data, *symdata;
	Elf_Scn *scn = NULL, *symscn;
	GElf_Shdr sh, symsh;
	const char *name;
	size_t added = 0;
	GElf_Ehdr eh;
	GElf_Sym sym;
	int err;

	if (!gelf_getehdr(elf, &eh) || elf_getshdrstrndx(elf, &shstrndx))
		return 0;
	if (eh.e_machine == EM_X86_64) {
		entry = x86_64_plt_slot;
		err = got_slots(elf, R_X86_64_JUMP_SLOT, R_X86_64_GLOB_DAT,
				&slots, &nslots, &symscn);
	} else if (eh.e_machine == EM_AARCH64) {
		entry = aarch64_plt_slot;
		err = got_slots(elf, R_AARCH64_JUMP_SLOT, R_AARCH64_JUMP_SLOT,
				&slots, &nslots, &symscn);
	} else {
		return 0;
	}
	if (err || !nslots || !gelf_getshdr(symscn, &symsh) ||
	    !symsh.sh_entsize || !(symdata = elf_getdata(symscn, NULL))) {
		free(slots);
		return err;
	}
	nsyms = symdata->d_size / symsh.sh_entsize;
	while (!err && (scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name || !is_plt(name))
			continue;
		data = elf_getdata(scn, NULL);
		if (!data || !data->d_buf)
			continue;
		code = data->d_buf;
		ent = sh.sh_entsize >= PLT_ENTRY_MIN &&
		      sh.sh_entsize <= PLT_ENTRY_MAX ? sh.sh_entsize : 16;
		for (off = 0; off < data->d_size; off = start + size) {
			key.addr = entry(code, data->d_size, off, sh.sh_addr,
					 ent, &start, &size);
			hit = key.addr ? bsearch(&key, slots, nslots,
						 sizeof(*slots), slot_cmp) :
					 NULL;
			if (!hit || hit->sym >= nsyms || hit->sym > INT_MAX ||
			    !gelf_getsym(symdata, (int)hit->sym, &sym))
				continue;
			name = elf_strptr(elf, symsh.sh_link, sym.st_name);
			if (!name || !*name)
				continue;
			err = symtab_grow(t);
			if (err)
				break;
			err = sym_keep(t, symtab_push(t, sh.sh_addr + start,
						      size, 0, 1),
				       plt_name(name, f->demangle));
			if (err) {
				t->n--;
				break;
			}
			added++;
		}
	}
	free(slots);
	if (added)
		symtab_finish(t);
	return err;
}

/*
 * Open @f->path as ELF (*@fd and *@elf, for elf_end() and close()).
 * Return: 0, -ENOENT (not readable, not ELF), -EAGAIN (not now: out of
 * file descriptors).
 */
static int open_elf(struct file *f, int *fd, Elf **elf)
{
	struct stat st;

	/* O_NONBLOCK: a FIFO must not hang us; only regular files are read */
	*elf = NULL;
	*fd = open(f->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (*fd < 0)
		return transient(errno) ? -EAGAIN : -ENOENT;
	/* ELF_C_READ, not mmap: a file truncated under us cannot SIGBUS */
	if (!fstat(*fd, &st) && S_ISREG(st.st_mode)) {
		f->dev = st.st_dev;
		f->ino = st.st_ino;
		*elf = elf_begin(*fd, ELF_C_READ, NULL);
	}
	if (*elf && elf_kind(*elf) == ELF_K_ELF)
		return 0;
	elf_end(*elf);
	close(*fd);
	*elf = NULL;
	*fd = -1;
	return -ENOENT;
}

/*
 * Read file @f->path: its segments and build id.
 * Return: 0, -ENOENT (not readable, not ELF), -EAGAIN (not now: out of
 * file descriptors), -ENOMEM.
 */
static int symbols_of(struct file *f, Elf *elf, int fd);

static int load_file(struct file *f, bool syms)
{
	Elf *elf;
	int fd, err;

	err = open_elf(f, &fd, &elf);
	if (err)
		return err;
	err = read_segments(f, elf);
	if (!err)
		err = read_build_id(f, elf);
	if (!err && syms)	/* (asked for a symbol: the same open) */
		err = symbols_of(f, elf, fd);
	elf_end(elf);
	close(fd);
	return err;
}

/*
 * The symbols of @f, the first time they are needed (see the top). A file
 * that cannot be read again then has none. Return: 0, or -ENOMEM.
 */
static int load_symbols(struct file *f)
{
	Elf *elf;
	int fd, err;

	if (f->syms_read)
		return 0;
	err = open_elf(f, &fd, &elf);
	if (err == -EAGAIN)
		return 0;	/* tried again next time */
	if (err) {
		f->syms_read = true;
		return 0;
	}
	err = symbols_of(f, elf, fd);
	elf_end(elf);
	close(fd);
	return err;
}

/* The symbols of @f, open as @elf (see load_symbols()). */
static int symbols_of(struct file *f, Elf *elf, int fd)
{
	GElf_Shdr sh;
	int err = 0;

	f->syms_read = true;
	if (!find_symtab(elf, SHT_SYMTAB, &sh))
		err = read_debug_file(f, elf);
	if (!err && !f->syms.n) {
		err = read_symbols(f, elf, f->path, fd); /* .symtab or .dynsym */
		/* ... and the .symtab of .gnu_debugdata beside .dynsym */
		if (!err && !find_symtab(elf, SHT_SYMTAB, &sh))
			err = read_debugdata(f, elf);
	}
	if (!err)
		err = read_plt(f, elf);
	if (!err)
		end_sizeless(f);
	if (err)
		symtab_free(&f->syms);
	return err;
}

static void file_free(struct file *f)
{
	free(f->path);
	free(f->segs);
	symtab_free(&f->syms);
	memset(f, 0, sizeof(*f));
}

/*
 * The file at @path, read when new (with its symbols when @syms), in *@fp.
 * Return: 0, -ENOENT (known not to be readable), -ENOMEM.
 */
static int file_get(struct ehd__syms *sy, const char *path, bool syms,
		    struct file **fp)
{
	size_t len = strlen(path), pos = 0;
	uint64_t key = ehd__hash_bytes(path, len, 0);
	struct file *f;
	uint32_t i;
	int err;

	while (ehd__table_next(&sy->by_path, key, &pos, &i)) {
		if (!strcmp(sy->files[i].path, path)) {
			*fp = &sy->files[i];
			return sy->files[i].err;
		}
	}
	if (sy->n >= UINT32_MAX ||	/* (indexes in by_path are u32) */
	    ehd__grow(&sy->files, &sy->cap, sy->n + 1, sizeof(*sy->files)))
		return -ENOMEM;
	f = &sy->files[sy->n];
	memset(f, 0, sizeof(*f));
	f->path = strdup(path);
	if (!f->path)
		return -ENOMEM;
	f->demangle = !sy->raw_names;
	err = load_file(f, syms);
	if (err == -ENOENT) {		/* remembered: not read again */
		free(f->segs);
		symtab_free(&f->syms);
		f->segs = NULL;
		f->nsegs = 0;
		f->build_id_len = 0;
		f->err = err;
	} else if (err) {		/* may work another time */
		file_free(f);
		return err == -ENOMEM ? err : -ENOENT;
	}
	if (ehd__table_add(&sy->by_path, key, (uint32_t)sy->n)) {
		file_free(f);
		return -ENOMEM;
	}
	sy->n++;
	*fp = f;
	return f->err;
}

/*
 * The loadable segment of @f that file offset @off belongs to: the one
 * that holds it, else the last one that begins in @off's page or before
 * it (the loader maps whole pages: a mapping begins at the page its
 * segment begins in); NULL when there is none.
 */
static const struct seg *seg_of_off(const struct file *f, uint64_t off)
{
	const struct seg *best = NULL;
	size_t i;

	for (i = 0; i < f->nsegs; i++) {
		const struct seg *s = &f->segs[i];

		if (off - s->off < s->filesz)
			return s;
		if ((s->off & ~(PAGE_BYTES - 1)) <= off &&
		    (!best || s->off > best->off))
			best = s;
	}
	return best;
}

/* The address of file offset @off (@off itself without segments). */
static uint64_t file_addr(const struct file *f, uint64_t off)
{
	const struct seg *s = seg_of_off(f, off);

	return s ? s->vaddr + (off - s->off) : off;
}

int ehd__syms_file(struct ehd__syms *sy, const char *path, uint64_t off,
		   struct ehd__sym *s)
{
	struct file *f;
	int err;

	memset(s, 0, sizeof(*s));
	s->addr = off;
	if (!path)
		return -ENOENT;
	err = file_get(sy, path, true, &f);
	if (!err)
		err = load_symbols(f);	/* (a file known before without them) */
	if (err)
		return err;
	s->addr = file_addr(f, off);
	return symtab_describe(sy, &f->syms, s);
}

/* The file at @path, read when new (not its symbols); see file_get(). */
static int file_known(struct ehd__syms *sy, const char *path,
		      struct file **f)
{
	return path ? file_get(sy, path, false, f) : -ENOENT;
}

int ehd__syms_file_offset(struct ehd__syms *sy, const char *path,
			  uint64_t addr, uint64_t *off)
{
	struct file *f;
	size_t i;
	int err;

	err = file_known(sy, path, &f);
	if (err)
		return err;
	for (i = 0; i < f->nsegs; i++) {
		const struct seg *s = &f->segs[i];

		if (addr - s->vaddr < s->filesz) {
			*off = s->off + (addr - s->vaddr);
			return 0;
		}
	}
	return -ENOENT;
}

int ehd__syms_segment(struct ehd__syms *sy, const char *path, uint64_t off,
		      uint64_t *vaddr, uint64_t *offset)
{
	const struct seg *s;
	struct file *f;
	int err;

	err = file_known(sy, path, &f);
	if (err)
		return err;
	s = seg_of_off(f, off);
	if (!s)
		return -ENOENT;
	*vaddr = s->vaddr;
	*offset = s->off;
	return 0;
}

int ehd__syms_identity(struct ehd__syms *sy, const char *path, dev_t *dev,
		       ino_t *ino)
{
	struct file *f;
	int err;

	err = file_known(sy, path, &f);
	if (err)
		return err;
	*dev = f->dev;
	*ino = f->ino;
	return 0;
}

int ehd__syms_build_id(struct ehd__syms *sy, const char *path, char *hex)
{
	struct file *f;
	int err;

	err = file_known(sy, path, &f);
	if (err)
		return err;
	if (!f->build_id_len)
		return -ENOENT;
	ehd__hex(f->build_id, (size_t)f->build_id_len, hex);
	return f->build_id_len;
}

/* ---- JIT perf maps ---- */

/*
 * Where process @pid's perf map is: while it runs, in its own mount
 * namespace under its own pid there (/proc/PID/root/tmp/perf-NSPID.map,
 * NSPID the last of /proc/PID/status's NSpid), so that a process in a
 * container is found; after, /tmp/perf-PID.map.
 */
static void jit_path(uint32_t pid, char *path, size_t size)
{
	char map[40];

	snprintf(map, sizeof(map), "/tmp/perf-%u.map", ehd__proc_nspid(pid));
	if (ehd__proc_root_path(pid, map, path, size) && !access(path, R_OK))
		return;
	snprintf(path, size, "/tmp/perf-%u.map", pid);
}

/*
 * Read a perf map: lines "START SIZE NAME", START and SIZE in hex (with
 * 0x or not), as perf reads /tmp/perf-PID.map. Return: 0, or -ENOMEM.
 */
static int read_perf_map(struct symtab *t, FILE *fp)
{
	unsigned long long start, size;
	char *line = NULL, *p, *q;
	size_t cap = 0, len;
	int err = 0;

	while (!err && getline(&line, &cap, fp) > 0) {
		start = strtoull(line, &p, 16);
		if (p == line || *p != ' ')
			continue;
		size = strtoull(p + 1, &q, 16);
		if (q == p + 1 || *q != ' ' || !size)
			continue;
		len = strcspn(q + 1, "\n");
		if (len)
			err = symtab_add(t, start, size, q + 1, len, 1);
	}
	free(line);
	symtab_finish(t);
	return err;
}

/*
 * (Re)read @j's perf map when it was not read yet, or when @ip was not in
 * it and the file has grown since (a JIT adds to it as it compiles); not
 * more than once a JIT_RETRY_NS: frames outside any mapping are many in
 * stacks a frame pointer walk took too far, and each is a miss.
 */
static int jit_load(struct jit *j, uint64_t ip)
{
	char path[PATH_MAX];
	struct stat st;
	uint64_t now;
	FILE *fp;
	int err;

	if (j->read && symtab_find(&j->syms, ip))
		return 0;
	now = ehd__now_ns(CLOCK_MONOTONIC_COARSE);
	if (j->read && now < j->retry)
		return 0;
	j->retry = now + JIT_RETRY_NS;
	jit_path(j->pid, path, sizeof(path));
	fp = fopen(path, "re");
	if (!fp || fstat(fileno(fp), &st) ||
	    (j->read && st.st_size == j->size)) {
		if (fp)
			fclose(fp);
		if (!j->read)
			j->size = -1;
		j->read = true;
		return 0;
	}
	symtab_free(&j->syms);
	j->read = true;
	j->size = st.st_size;
	err = read_perf_map(&j->syms, fp);
	fclose(fp);
	return err;
}

int ehd__syms_jit(struct ehd__syms *sy, uint32_t pid, uint64_t ip,
		  struct ehd__sym *s)
{
	struct jit *j = NULL;
	size_t i;
	int err;

	memset(s, 0, sizeof(*s));
	s->addr = ip;
	for (i = 0; i < sy->njits && !j; i++)
		if (sy->jits[i].pid == pid)
			j = &sy->jits[i];
	if (!j) {
		if (ehd__grow(&sy->jits, &sy->jits_cap, sy->njits + 1,
			      sizeof(*sy->jits)))
			return -ENOMEM;
		j = &sy->jits[sy->njits++];
		memset(j, 0, sizeof(*j));
		j->pid = pid;
	}
	err = jit_load(j, ip);
	if (err)
		return err;
	if (!j->syms.n)
		return -ENOENT;
	err = symtab_describe(sy, &j->syms, s);
	return err ? err : s->name ? 0 : -ENOENT;
}

/* ---- the kernel ---- */

/* The "[module]" at the end of kallsyms name @name, or "" for the core. */
static const char *module_of(const char *name)
{
	const char *m = strchr(name, '[');

	return m ? m : "";
}

/*
 * kallsyms gives no sizes: a symbol ends at the next one, except at the
 * end of the core kernel or of a module, where the next symbol is far
 * away: there it covers one to two pages (as perf does).
 */
static void kernel_ends(struct symtab *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		struct sym *s = &t->v[i];
		uint64_t end;

		if (i + 1 < t->n &&
		    !strcmp(module_of(t->names + s->name),
			    module_of(t->names + t->v[i + 1].name)))
			continue;
		if (s->start > UINT64_MAX - 2 * PAGE_BYTES)
			continue;
		end = (s->start + 2 * PAGE_BYTES - 1) & ~(PAGE_BYTES - 1);
		if (end < sym_end(s))
			sym_set_end(s, end);
	}
}

/* The rank of a kallsyms type: globals first; -1 when not text. */
static int kallsyms_rank(char type)
{
	static const char text[] = "wtWT";
	const char *p = type ? strchr(text, type) : NULL;

	return p ? (int)(p - text) : -1;
}

/*
 * Read the text symbols of kallsyms. Those of modules are named
 * "name [module]" (kallsyms' "name\t[module]", the tab made a space), so
 * that a stack says where a function comes from.
 * Return: 0, -ENOENT (unreadable, or no non-zero address), -EAGAIN (not
 * now: out of file descriptors), -ENOMEM.
 */
static int read_kallsyms(struct symtab *t, const char *path)
{
	char *line = NULL, *name, *p, *mod;
	size_t cap = 0, len;
	unsigned long long addr;
	FILE *fp = fopen(path, "re");
	int err = 0, rank;

	if (!fp)
		return transient(errno) ? -EAGAIN : -ENOENT;
	while (getline(&line, &cap, fp) > 0) {
		addr = strtoull(line, &p, 16);
		if (p == line || p[0] != ' ' || !p[1] || p[2] != ' ')
			continue;
		rank = kallsyms_rank(p[1]);
		if (rank < 0 || !addr)
			continue;
		name = p + 3;
		len = strcspn(name, "\t\n");
		mod = name + len;
		if (*mod == '\t') {
			mod++;
			mod[strcspn(mod, "\n")] = 0;
			if (*mod) {
				name[len++] = ' ';
				len += strlen(mod);
			}
		}
		if (!len)
			continue;
		err = symtab_add(t, addr, 0, name, len, rank);
		if (err)
			break;
	}
	free(line);
	fclose(fp);
	if (err)
		return err;
	if (!t->n)	/* all zeros: kptr_restrict, no CAP_SYSLOG */
		return -ENOENT;
	symtab_finish(t);
	kernel_ends(t);
	return 0;
}

int ehd__syms_kernel(struct ehd__syms *sy, uint64_t ip, struct ehd__sym *s)
{
	int err;

	memset(s, 0, sizeof(*s));
	s->addr = ip;
	if (!sy->kernel_read) {
		err = read_kallsyms(&sy->kernel, "/proc/kallsyms");
		if (err)
			symtab_free(&sy->kernel);
		if (err == -ENOMEM)
			return err;
		if (err == -EAGAIN)	/* tried again next time */
			return -ENOENT;
		sy->kernel_read = true;
		sy->kernel_err = err;
	}
	if (sy->kernel_err)
		return sy->kernel_err;
	return symtab_describe(sy, &sy->kernel, s);
}

/* ---- the whole ---- */

void ehd__syms_counts(const struct ehd__syms *sy, uint64_t *files,
		      uint64_t *with_symbols)
{
	size_t i;

	*files = *with_symbols = 0;
	for (i = 0; i < sy->n; i++) {
		if (sy->files[i].err)
			continue;
		++*files;
		*with_symbols += sy->files[i].syms_read;
	}
}

struct ehd__syms *ehd__syms_new(void)
{
	if (elf_version(EV_CURRENT) == EV_NONE) {
		errno = ENOSYS;
		return NULL;
	}
	return calloc(1, sizeof(struct ehd__syms));
}

void ehd__syms_set_demangle(struct ehd__syms *sy, bool on)
{
	sy->raw_names = !on;
}

void ehd__syms_free(struct ehd__syms *sy)
{
	size_t i;

	if (!sy)
		return;
	for (i = 0; i < sy->n; i++)
		file_free(&sy->files[i]);
	free(sy->files);
	for (i = 0; i < SRC_FDS; i++) {
		if (sy->src[i].path)
			close(sy->src[i].fd);
		free(sy->src[i].path);
	}
	for (i = 0; i < sy->njits; i++)
		symtab_free(&sy->jits[i].syms);
	free(sy->jits);
	ehd__table_free(&sy->by_path);
	symtab_free(&sy->kernel);
	free(sy);
}
