// SPDX-License-Identifier: MIT
/*
 * procs.c - processes, their executable mappings and where their threads
 * left the CPU, from perf's side-band records and sched_switch samples
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "core/ehd-buf.h"
#include "core/ehd-bytes.h"
#include "core/ehd-table.h"
#include "system/procfs.h"
#include "system/procs.h"
#include "system/symbols.h"
#include "system/threads.h"


/* No user code runs below this (the zero page is never mapped). */
#define PAGE_ZERO_END 4096u

struct map {
	uint64_t start, end, pgoff, id;
	const char *name;	/* interned */
	const char *build_id;	/* interned, from the record; NULL: the file's */
	const char *file;	/* interned: the path to read it by (see
				 * mapped_file()); NULL: not worked out yet */
	uint64_t dev, ino;	/* the file's, as recorded; ino 0: not given */
	int8_t libc;		/* a C library's (see ehd__procs_stack_end());
				 * -1: not looked at yet */
};

struct proc {
	uint32_t pid;
	bool known;		/* a system event named it */
	bool exited;		/* an EXIT record ended it */
	struct map *maps;	/* sorted by start, not overlapping */
	size_t n, cap;
};

/* Where a thread left the CPU. */
struct away {
	uint32_t tid;
	uint64_t time;
	uint64_t *stack;
	size_t n, cap;
};

/* A function named by the trace itself (nettrace ProcessSymbol). */
struct given_sym {
	uint64_t start, end;
	const char *name;	/* interned */
};

/* The functions the trace names in one mapping, sorted by start. */
struct given_syms {
	uint64_t mapping_id;
	struct given_sym *v;
	size_t n, cap;
};

struct ehd__procs {
	struct ehd_table by_pid;	/* pid -> index in procs */
	struct proc *procs;
	size_t nprocs, procs_cap;
	struct ehd_table by_name;	/* hash -> index in names */
	char **names;
	size_t nnames, names_cap;
	struct ehd_table by_tid;	/* tid -> index in away */
	struct away *away;
	size_t naway, away_cap;
	uint64_t next_id;
	bool given;			/* mappings come from the trace */
	struct ehd_table by_mapping;	/* mapping id -> index in gsyms */
	struct given_syms *gsyms;
	size_t ngsyms, gsyms_cap;
	struct ehd__syms *syms;
	char name[16 + 1];		/* ehd_system.name */
	char build_id[2 * 64 + 1];	/* ehd_system.build_id */
	char ns_name[48];		/* ehd_system.ns_name */
	bool live;			/* the processes run now: ask /proc */
	bool exec_ended;		/* see ehd__procs_exec_ended() */
	int err;
};

struct ehd__procs *ehd__procs_new(void)
{
	struct ehd__procs *ps = calloc(1, sizeof(*ps));

	if (ps && !(ps->syms = ehd__syms_new())) {
		free(ps);
		return NULL;
	}
	return ps;
}

void ehd__procs_set_live(struct ehd__procs *ps, bool on)
{
	ps->live = on;
}

void ehd__procs_set_demangle(struct ehd__procs *ps, bool on)
{
	ehd__syms_set_demangle(ps->syms, on);
}

void ehd__procs_free(struct ehd__procs *ps)
{
	size_t i;

	if (!ps)
		return;
	for (i = 0; i < ps->nprocs; i++)
		free(ps->procs[i].maps);
	free(ps->procs);
	for (i = 0; i < ps->nnames; i++)
		free(ps->names[i]);
	free(ps->names);
	for (i = 0; i < ps->naway; i++)
		free(ps->away[i].stack);
	free(ps->away);
	for (i = 0; i < ps->ngsyms; i++)
		free(ps->gsyms[i].v);
	free(ps->gsyms);
	ehd__table_free(&ps->by_mapping);
	ehd__table_free(&ps->by_pid);
	ehd__table_free(&ps->by_name);
	ehd__table_free(&ps->by_tid);
	ehd__syms_free(ps->syms);
	free(ps);
}

int ehd__procs_error(const struct ehd__procs *ps)
{
	return ps->err;
}

static struct proc *find_proc(const struct ehd__procs *ps, uint32_t pid)
{
	size_t pos = 0;
	uint32_t i;

	while (ehd__table_next(&ps->by_pid, pid, &pos, &i))
		if (ps->procs[i].pid == pid)
			return &ps->procs[i];
	return NULL;
}

static struct proc *get_proc(struct ehd__procs *ps, uint32_t pid)
{
	struct proc *p = find_proc(ps, pid);

	if (p)
		return p;
	if (ehd__grow(&ps->procs, &ps->procs_cap, ps->nprocs + 1,
		      sizeof(*ps->procs)) ||
	    ehd__table_add(&ps->by_pid, pid, (uint32_t)ps->nprocs)) {
		ps->err = -ENOMEM;
		return NULL;
	}
	p = &ps->procs[ps->nprocs++];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	return p;
}

/* @s (up to @len bytes, or its first NUL: it is kept as a C string), once. */
static const char *intern(struct ehd__procs *ps, const char *s, size_t len)
{
	uint64_t h;
	size_t pos = 0;
	uint32_t i;
	char *copy;

	len = strnlen(s, len);
	h = ehd__hash_bytes(s, len, 0);
	while (ehd__table_next(&ps->by_name, h, &pos, &i))
		if (!strncmp(ps->names[i], s, len) && !ps->names[i][len])
			return ps->names[i];
	copy = strndup(s, len);
	if (!copy || ehd__grow(&ps->names, &ps->names_cap, ps->nnames + 1,
				sizeof(*ps->names)) ||
	    ehd__table_add(&ps->by_name, h, (uint32_t)ps->nnames)) {
		free(copy);
		ps->err = -ENOMEM;
		return NULL;
	}
	ps->names[ps->nnames++] = copy;
	return copy;
}

/* Put @m in @p, cutting away what it covers of older mappings. */
static void add_map(struct ehd__procs *ps, struct proc *p, const struct map *m)
{
	size_t cap = 2 * p->n + 1, i, k = 0;
	struct map *v = malloc(cap * sizeof(*v));
	bool placed = false;

	if (!v) {
		ps->err = -ENOMEM;
		return;
	}
	for (i = 0; i < p->n; i++) {
		struct map o = p->maps[i];

		if (o.end <= m->start || o.start >= m->end) {
			if (!placed && o.start >= m->end) {
				v[k++] = *m;
				placed = true;
			}
			v[k++] = o;
			continue;
		}
		if (o.start < m->start) {	/* the part before stays */
			struct map left = o;

			left.end = m->start;
			v[k++] = left;
		}
		if (!placed) {
			v[k++] = *m;
			placed = true;
		}
		if (o.end > m->end) {		/* so does the part after */
			o.pgoff += m->end - o.start;
			o.start = m->end;
			v[k++] = o;
		}
	}
	if (!placed)
		v[k++] = *m;
	free(p->maps);
	p->maps = v;
	p->n = k;
	p->cap = cap;
}

static struct map *find_map(const struct proc *p, uint64_t ip)
{
	size_t lo = 0, hi = p->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->maps[mid].end <= ip)
			lo = mid + 1;
		else if (p->maps[mid].start > ip)
			hi = mid;
		else
			return &p->maps[mid];
	}
	return NULL;
}

/* The name a record's bytes give, NUL-terminated within @n. */
static const char *rec_string(const uint8_t *p, size_t n, size_t *len)
{
	*len = strnlen((const char *)p, n);
	return (const char *)p;
}

/* The build id of a mapping: the kernel's (MMAP2), else the file's. */
static const char *build_id(struct ehd__procs *ps, uint32_t type,
			    uint16_t misc, const uint8_t *b, const char *name)
{
	unsigned int n;

	if (type == PERF_RECORD_MMAP2 && (misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
		n = b[32] <= 20 ? b[32] : 20;
		ehd__hex(b + 36, n, ps->build_id);
		return n ? ps->build_id : NULL;
	}
	if (name[0] != '/' || ehd__syms_build_id(ps->syms, name, ps->build_id) <= 0)
		return NULL;
	return ps->build_id;
}

/*
 * Whether @path is the file of mapping @m: the device and inode, or the
 * build id, the record gave.
 */
static bool is_mapped_file(struct ehd__procs *ps, const struct map *m,
			   const char *path)
{
	char hex[2 * 64 + 1];
	dev_t dev;
	ino_t ino;

	if (m->ino)	/* (the file as read for its segments: one stat) */
		return !ehd__syms_identity(ps->syms, path, &dev, &ino) &&
		       ino == m->ino && dev == m->dev;
	return m->build_id && ehd__syms_build_id(ps->syms, path, hex) > 0 &&
	       !strncmp(hex, m->build_id, strlen(m->build_id));
}

/*
 * The path by which this process reads the file of mapping @m of process
 * @pid (interned), worked out once: its name, when that is the file here
 * as the record's build id or device and inode say, or when the record
 * says neither; else the name under /proc/PID/root (the file as a
 * process in a container, with its own mount namespace, sees it) when
 * that is the file, or, when only device and inode tell (an overlay file
 * system shows other ones), when the process has a root of its own. A
 * file whose build id neither path has is not read: "" (no names rather
 * than another file's). Done when the mapping is recorded, while the
 * process runs (its segments go into the mapping's metadata); again for
 * a forked process's copy, by its own pid.
 */
static const char *mapped_file(struct ehd__procs *ps, uint32_t pid,
			       struct map *m)
{
	bool known = m->ino || m->build_id, there;
	char alt[PATH_MAX];
	const char *got;

	if (m->file)
		return m->file;
	m->file = m->name;
	if (m->name[0] != '/' || (known && is_mapped_file(ps, m, m->name)))
		return m->file;
	there = ehd__proc_root_path(pid, m->name, alt, sizeof(alt)) &&
		!access(alt, F_OK);
	if (there && known)
		there = is_mapped_file(ps, m, alt) ||
			(m->ino && ehd__proc_other_root(pid));
	else if (there)
		there = ehd__proc_other_root(pid);
	if (there) {
		got = intern(ps, alt, strlen(alt));
		if (got)
			m->file = got;
	} else if (m->build_id) {
		m->file = "";
	}
	return m->file;
}

/*
 * The loadable segment of @m's file that the mapping begins in, into
 * @sys: PerfView looks a frame's function up in the file of a build id
 * with the segment's p_vaddr and p_offset (its ProcessMappingMetadata).
 */
static void map_segment(struct ehd__procs *ps, const struct map *m,
			struct ehd_system *sys)
{
	if (m->file && m->file[0] == '/' &&
	    !ehd__syms_segment(ps->syms, m->file, m->pgoff,
			       &sys->segment_vaddr, &sys->segment_offset))
		sys->has_segment = 1;
}

static bool mapping(struct ehd__procs *ps, uint32_t type, uint16_t misc,
		    const uint8_t *b, size_t n, int big, struct ehd_system *sys)
{
	size_t at = type == PERF_RECORD_MMAP2 ? 64 : 32, len;
	uint32_t pid = (uint32_t)ehd__load_uint(b, 4, big);
	struct map m;
	struct proc *p;
	const char *name;

	if (n <= at || pid == UINT32_MAX)	/* the kernel's own */
		return false;
	if (type == PERF_RECORD_MMAP && (misc & PERF_RECORD_MISC_MMAP_DATA))
		return false;
	if (type == PERF_RECORD_MMAP2 &&
	    !(ehd__load_uint(b + 56, 4, big) & PROT_EXEC))
		return false;
	m.start = ehd__load_uint(b + 8, 8, big);
	m.end = m.start + ehd__load_uint(b + 16, 8, big);
	m.pgoff = ehd__load_uint(b + 24, 8, big);
	m.build_id = NULL;
	m.file = NULL;
	m.dev = m.ino = 0;
	m.libc = -1;
	if (type == PERF_RECORD_MMAP2 &&
	    !(misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
		m.dev = makedev(ehd__load_uint(b + 32, 4, big),
				ehd__load_uint(b + 36, 4, big));
		m.ino = ehd__load_uint(b + 40, 8, big);
	}
	if (m.end <= m.start)
		return false;
	name = rec_string(b + at, n - at, &len);
	m.name = intern(ps, name, len);
	p = get_proc(ps, pid);
	if (!m.name || !p)
		return false;
	/*
	 * The build id the kernel gave, kept with the mapping: a process
	 * forked later has the mapping too, and the file may have changed
	 * by the time it is read.
	 */
	if (type == PERF_RECORD_MMAP2 &&
	    (misc & PERF_RECORD_MISC_MMAP_BUILD_ID) &&
	    build_id(ps, type, misc, b, m.name))
		m.build_id = intern(ps, ps->build_id, strlen(ps->build_id));
	mapped_file(ps, pid, &m);
	m.id = ++ps->next_id;
	add_map(ps, p, &m);
	sys->kind = EHD_SYSTEM_MAPPING;
	sys->pid = pid;
	sys->mapping_id = m.id;
	sys->start = m.start;
	sys->end = m.end;
	sys->file_offset = m.pgoff;
	sys->file_name = m.name;
	sys->build_id = m.build_id ? m.build_id :
			build_id(ps, type, misc, b, m.file);
	map_segment(ps, &m, sys);
	return true;
}

static void set_name(struct ehd__procs *ps, const char *name, size_t len)
{
	if (len >= sizeof(ps->name))
		len = sizeof(ps->name) - 1;
	memcpy(ps->name, name ? name : "", name ? len : 0);
	ps->name[name ? len : 0] = 0;
}

bool ehd__procs_record(struct ehd__procs *ps, uint32_t type, uint16_t misc,
		       const uint8_t *b, size_t n, int big,
		       const struct ehd__threads *names, struct ehd_system *sys)
{
	uint32_t pid, tid, ppid, ptid;
	struct proc *p, *parent;
	const char *name;
	size_t len, i;

	memset(sys, 0, sizeof(*sys));
	ps->exec_ended = false;		/* of this record only */
	if (type == PERF_RECORD_MMAP || type == PERF_RECORD_MMAP2)
		return mapping(ps, type, misc, b, n, big, sys);
	if (n < 8)
		return false;
	pid = (uint32_t)ehd__load_uint(b, 4, big);
	tid = (uint32_t)ehd__load_uint(b + 4, 4, big);
	switch (type) {
	case PERF_RECORD_COMM:
		if (pid != tid || !(p = get_proc(ps, pid)))
			return false;
		/*
		 * An exec: a new program in a new address space, given as a
		 * new process (PerfView keeps a process's modules until it
		 * ends: only a ProcessCreate starts a list afresh); the old
		 * one ends there if it was named (ehd__procs_exec_ended()).
		 */
		if (misc & PERF_RECORD_MISC_COMM_EXEC) {
			ps->exec_ended = p->known && !p->exited;
			p->n = 0;
			sys->kind = EHD_SYSTEM_PROCESS_CREATE;
		} else if (p->known) {
			return false;
		} else {
			sys->kind = EHD_SYSTEM_EXISTING_PROCESS;
		}
		p->known = true;
		p->exited = false;
		name = rec_string(b + 8, n - 8, &len);
		break;
	case PERF_RECORD_FORK:
		if (n < 16)
			return false;
		ppid = tid;
		tid = (uint32_t)ehd__load_uint(b + 8, 4, big);
		ptid = (uint32_t)ehd__load_uint(b + 12, 4, big);
		if (pid != tid || pid == ppid || !(p = get_proc(ps, pid)))
			return false;
		/* get_proc() may move the array: look the parent up after */
		parent = find_proc(ps, ppid);
		p->n = 0;
		if (parent && parent->n) {
			if (p->cap < parent->n) {
				struct map *v = realloc(p->maps, parent->n *
							sizeof(*v));

				if (!v) {
					ps->err = -ENOMEM;
					return false;
				}
				p->maps = v;
				p->cap = parent->n;
			}
			memcpy(p->maps, parent->maps,
			       parent->n * sizeof(*p->maps));
			p->n = parent->n;
			for (i = 0; i < p->n; i++)	/* by its own pid */
				if (p->maps[i].file != p->maps[i].name)
					p->maps[i].file = NULL;
		}
		p->known = true;
		p->exited = false;
		name = ehd__threads_name(names, ptid);
		len = name ? strlen(name) : 0;
		sys->kind = EHD_SYSTEM_PROCESS_CREATE;
		break;
	case PERF_RECORD_EXIT:
		if (n < 16 || (uint32_t)ehd__load_uint(b + 8, 4, big) != pid)
			return false;
		p = find_proc(ps, pid);
		if (p)
			p->exited = true;
		sys->kind = EHD_SYSTEM_PROCESS_EXIT;
		sys->pid = pid;
		return true;
	default:
		return false;
	}
	set_name(ps, name, len);
	sys->pid = pid;
	sys->name = ps->name;
	sys->ns_pid = pid;
	sys->ns_name = "";
	if (ps->live) {
		sys->ns_pid = ehd__proc_nspid(pid);
		ehd__proc_pidns(pid, ps->ns_name, sizeof(ps->ns_name));
		sys->ns_name = ps->ns_name;
	}
	return true;
}

bool ehd__procs_exec_ended(const struct ehd__procs *ps)
{
	return ps->exec_ended;
}

bool ehd__procs_live_at(const struct ehd__procs *ps, size_t *i,
			uint32_t *pid)
{
	for (; *i < ps->nprocs; ++*i) {
		const struct proc *p = &ps->procs[*i];

		if (p->known && !p->exited) {
			*pid = p->pid;
			return true;
		}
	}
	return false;
}

bool ehd__procs_mapping_at(struct ehd__procs *ps, uint32_t pid, size_t i,
			   struct ehd_system *sys)
{
	const struct proc *p = find_proc(ps, pid);
	struct map *m;

	if (!p || i >= p->n)
		return false;
	m = &p->maps[i];
	mapped_file(ps, pid, m);	/* (a fork's copy: by its own pid) */
	memset(sys, 0, sizeof(*sys));
	sys->kind = EHD_SYSTEM_MAPPING;
	sys->pid = pid;
	sys->mapping_id = m->id;
	sys->start = m->start;
	sys->end = m->end;
	sys->file_offset = m->pgoff;
	sys->file_name = m->name;
	sys->build_id = m->build_id ? m->build_id :
			build_id(ps, 0, 0, NULL, m->file);
	map_segment(ps, m, sys);
	return true;
}

/* ---- mappings and functions the trace names (nettrace) ------------------- */

void ehd__procs_given_mapping(struct ehd__procs *ps, uint32_t pid, uint64_t id,
			      uint64_t start, uint64_t end, uint64_t pgoff,
			      const char *name, size_t len)
{
	struct proc *p = get_proc(ps, pid);
	struct map m = { .start = start, .end = end, .pgoff = pgoff, .id = id,
			 .name = intern(ps, name, len), .libc = -1 };

	m.file = m.name;	/* another machine's, or long gone: as named */
	ps->given = true;
	if (p && m.name && end > start)
		add_map(ps, p, &m);
}

/* The functions named in mapping @id; NULL when none (and @add false). */
static struct given_syms *given_syms(struct ehd__procs *ps, uint64_t id,
				     bool add)
{
	size_t pos = 0;
	uint32_t i;

	while (ehd__table_next(&ps->by_mapping, id, &pos, &i))
		if (ps->gsyms[i].mapping_id == id)
			return &ps->gsyms[i];
	if (!add)
		return NULL;
	if (ehd__grow(&ps->gsyms, &ps->gsyms_cap, ps->ngsyms + 1,
		      sizeof(*ps->gsyms)) ||
	    ehd__table_add(&ps->by_mapping, id, (uint32_t)ps->ngsyms)) {
		ps->err = -ENOMEM;
		return NULL;
	}
	memset(&ps->gsyms[ps->ngsyms], 0, sizeof(*ps->gsyms));
	ps->gsyms[ps->ngsyms].mapping_id = id;
	return &ps->gsyms[ps->ngsyms++];
}

/* Where in @gs the last function starting at or before @ip is, plus one. */
static size_t given_upper(const struct given_syms *gs, uint64_t ip)
{
	size_t lo = 0, hi = gs->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (gs->v[mid].start <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Kept sorted as they come (a trace names a function before the first
 * stack that needs it: lookups and additions interleave), one list per
 * mapping, so that an addition moves only that mapping's functions.
 */
void ehd__procs_given_process(struct ehd__procs *ps, uint32_t pid)
{
	struct proc *p = find_proc(ps, pid);

	if (p)
		p->n = 0;
}

void ehd__procs_given_symbol(struct ehd__procs *ps, uint64_t mapping_id,
			     uint64_t start, uint64_t end, const char *name,
			     size_t len)
{
	struct given_syms *gs = given_syms(ps, mapping_id, true);
	struct given_sym g = { start, end > start ? end : start + 1,
			       intern(ps, name, len) };
	size_t at;

	if (!gs || !g.name)
		return;
	if (ehd__grow(&gs->v, &gs->cap, gs->n + 1, sizeof(*gs->v))) {
		ps->err = -ENOMEM;
		return;
	}
	at = given_upper(gs, start);
	memmove(&gs->v[at + 1], &gs->v[at], (gs->n - at) * sizeof(*gs->v));
	gs->v[at] = g;
	gs->n++;
}

/* The function the trace names at @ip of mapping @id, or NULL. */
static const struct given_sym *given_symbol(struct ehd__procs *ps, uint64_t id,
					    uint64_t ip)
{
	const struct given_syms *gs = given_syms(ps, id, false);
	size_t at = gs ? given_upper(gs, ip) : 0;

	if (!at || ip >= gs->v[at - 1].end)
		return NULL;
	return &gs->v[at - 1];
}

/* ---- stacks ---------------------------------------------------------------- */

/* @f named by @s (whose addresses are the frame's own). */
static void name_frame(struct ehd_frame *f, const struct ehd__sym *s)
{
	f->symbol = s->name;
	f->symbol_offset = s->offset;
	f->symbol_start = s->start;
	f->symbol_end = s->start + s->size;
}

static void kernel_frame(struct ehd__procs *ps, struct ehd_frame *f)
{
	struct ehd__sym s;

	f->module = EHD__KERNEL_MODULE;
	f->offset = f->ip;
	if (!ehd__syms_kernel(ps->syms, f->ip, &s) && s.name)
		name_frame(f, &s);
}

/*
 * A frame in anonymous memory, or in no mapping: named by the perf map of
 * the process's JIT, if any.
 */
static void jit_frame(struct ehd__procs *ps, uint32_t pid,
		      struct ehd_frame *f)
{
	struct ehd__sym s;

	if (!ehd__syms_jit(ps->syms, pid, f->ip, &s))
		name_frame(f, &s);
}

static void user_frame(struct ehd__procs *ps, uint32_t pid,
		       const struct proc *p, struct ehd_frame *f)
{
	struct map *m = p ? find_map(p, f->ip) : NULL;
	const struct given_sym *g;
	uint64_t off;
	struct ehd__sym s;

	if (!m) {
		if (!ps->given)
			jit_frame(ps, pid, f);
		return;
	}
	f->module = m->name;
	f->mapping_id = m->id;
	off = m->pgoff + (f->ip - m->start);
	f->offset = off;
	if (ps->given) {
		/* The kernel as a nettrace writer maps it in each process. */
		if (!strcmp(m->name, EHD__KERNEL_MODULE)) {
			f->kind = EHD_FRAME_KERNEL;
			f->offset = f->ip;
			f->mapping_id = 0;
		}
		g = ps->ngsyms ? given_symbol(ps, m->id, f->ip) : NULL;
		if (g) {
			f->symbol = g->name;
			f->symbol_offset = f->ip - g->start;
			f->symbol_start = g->start;
			f->symbol_end = g->end;
		}
		if (g || f->kind == EHD_FRAME_KERNEL)
			return;
	}
	if (!strcmp(m->name, "//anon") || !strncmp(m->name, "[anon", 5)) {
		f->offset = f->ip;
		jit_frame(ps, pid, f);
		return;
	}
	if (m->name[0] != '/' || !*mapped_file(ps, pid, m) ||
	    ehd__syms_file(ps->syms, m->file, off, &s))
		return;
	f->offset = s.addr;
	if (!s.name)
		return;
	f->symbol = s.name;
	f->symbol_offset = s.offset;
	f->symbol_start = f->ip - s.offset;
	f->symbol_end = f->symbol_start + s.size;
}

size_t ehd__procs_frames(struct ehd__procs *ps, uint32_t pid,
			 const uint64_t *chain, size_t count,
			 struct ehd_frame *frames, size_t max)
{
	const struct proc *p = ps ? find_proc(ps, pid) : NULL;
	bool kernel = false;
	size_t i, k = 0;

	for (i = 0; i < count && k < max; i++) {
		struct ehd_frame *f = &frames[k];
		uint64_t ip = chain[i];

		if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
			kernel = ip == (uint64_t)PERF_CONTEXT_KERNEL ||
				 ip == (uint64_t)PERF_CONTEXT_GUEST_KERNEL;
			continue;
		}
		memset(f, 0, sizeof(*f));
		f->ip = ip;
		f->kind = kernel ? EHD_FRAME_KERNEL : EHD_FRAME_USER;
		if (ps && kernel && !ps->given)
			kernel_frame(ps, f);
		else if (ps)
			user_frame(ps, pid, p, f);
		k++;
	}
	return k;
}

/* ---- the outer end of stacks --------------------------------------------- */

size_t ehd__procs_trim(const struct ehd__procs *ps, uint32_t pid,
		       const uint64_t *chain, size_t count)
{
	const struct proc *p = find_proc(ps, pid);
	size_t user = SIZE_MAX, n = count, i;

	if (!p || !p->n)	/* its mappings are not known: cannot tell */
		return count;
	for (i = count; i > 0; i--) {
		if (chain[i - 1] >= (uint64_t)PERF_CONTEXT_MAX) {
			if (chain[i - 1] == (uint64_t)PERF_CONTEXT_USER)
				user = i;	/* the user part begins there */
			break;
		}
	}
	if (user == SIZE_MAX)	/* no user part (or no markers to tell) */
		return count;
	while (n > user && (chain[n - 1] < PAGE_ZERO_END ||
			    !find_map(p, chain[n - 1])))
		n--;
	return n == user ? n - 1 : n;	/* the marker goes with the last */
}

/*
 * Whether the file name of @module, without its last extension (as .NET's
 * Path.GetFileNameWithoutExtension() takes it: "libc.so.6" is "libc.so"),
 * is @name (@prefix false) or begins with it, ASCII case aside.
 */
static bool module_named(const char *module, const char *name, bool prefix)
{
	const char *base = strrchr(module, '/'), *dot;
	size_t len, n = strlen(name);

	base = base ? base + 1 : module;
	dot = strrchr(base, '.');
	len = dot ? (size_t)(dot - base) : strlen(base);
	return n && (prefix ? len >= n : len == n) &&
	       !strncasecmp(base, name, n);
}

int ehd__procs_stack_end(const struct ehd__procs *ps, uint32_t pid,
			 const char *process, const uint64_t *chain,
			 size_t count)
{
	const struct proc *p = find_proc(ps, pid);
	struct map *m;
	size_t i = count;

	if (!pid)
		return EHD__STACK_IDLE;
	while (i > 0 && chain[i - 1] >= (uint64_t)PERF_CONTEXT_MAX)
		i--;		/* (a marker with nothing after it) */
	if (!i)
		return EHD__STACK_NONE;
	m = p ? find_map(p, chain[i - 1]) : NULL;
	if (!m)
		return EHD__STACK_BROKEN;
	if (m->libc < 0)	/* (once per mapping: this is per event) */
		m->libc = module_named(m->name, "libc", false) ||
			  module_named(m->name, "libc.", true) ||
			  module_named(m->name, "libc-", true) ||
			  module_named(m->name, "ld-musl-", true);
	return m->libc || (process && module_named(m->name, process, false)) ?
	       EHD__STACK_ROOT : EHD__STACK_BROKEN;
}

void ehd__procs_files(const struct ehd__procs *ps, uint64_t *files,
		      uint64_t *with_symbols)
{
	ehd__syms_counts(ps->syms, files, with_symbols);
}

void ehd__procs_count(const struct ehd__procs *ps, const struct ehd_event *ev,
		      struct ehd__stack_counts *c)
{
	if (!(ev->context & EHD_CTX_CALLCHAIN) || !ev->callchain_count)
		return;
	switch (ehd__procs_stack_end(ps, ev->pid, ev->process, ev->callchain,
				     ev->callchain_count)) {
	case EHD__STACK_BROKEN:
		c->broken++;
		c->stacks++;
		break;
	case EHD__STACK_IDLE:
		c->idle++;
		/* fall through */
	case EHD__STACK_ROOT:
		c->stacks++;
		break;
	}
}

/* ---- off-CPU -------------------------------------------------------------- */

static struct away *get_away(struct ehd__procs *ps, uint32_t tid, bool add)
{
	size_t pos = 0;
	uint32_t i;
	struct away *a;

	while (ehd__table_next(&ps->by_tid, tid, &pos, &i))
		if (ps->away[i].tid == tid)
			return &ps->away[i];
	if (!add)
		return NULL;
	if (ehd__grow(&ps->away, &ps->away_cap, ps->naway + 1,
		      sizeof(*ps->away)) ||
	    ehd__table_add(&ps->by_tid, tid, (uint32_t)ps->naway)) {
		ps->err = -ENOMEM;
		return NULL;
	}
	a = &ps->away[ps->naway++];
	memset(a, 0, sizeof(*a));
	a->tid = tid;
	return a;
}

bool ehd__procs_switch(struct ehd__procs *ps, uint64_t time, uint32_t prev,
		       uint32_t next, const uint64_t *chain, size_t count,
		       uint64_t *off_ns, const uint64_t **stack,
		       size_t *nstack)
{
	struct away *a;
	bool known = false;

	/* @next first: recording @prev may move the array */
	a = next ? get_away(ps, next, false) : NULL;
	if (a && a->time) {
		*off_ns = time > a->time ? time - a->time : 0;
		*stack = a->stack;
		*nstack = a->n;
		a->time = 0;
		known = true;
	}
	if (!prev)
		return known;	/* the idle task */
	/* another entry: *@stack (its own allocation) stays as it is */
	a = get_away(ps, prev, true);
	if (!a)
		return known;
	if (a->cap < count) {
		uint64_t *v = realloc(a->stack, count * sizeof(*v));

		if (!v) {
			ps->err = -ENOMEM;
			return known;
		}
		a->stack = v;
		a->cap = count;
	}
	if (count)
		memcpy(a->stack, chain, count * sizeof(*chain));
	a->n = count;
	a->time = time;
	return known;
}
