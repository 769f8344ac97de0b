// SPDX-License-Identifier: MIT
/*
 * perf-stream.c - perf.data records in pipe mode, made by a live session
 *
 * The layouts are perf's own (tools/perf/util/header.c, synthetic-events.c
 * and trace-event-info.c), checked against what "perf record -o -" of
 * perf 6.1 writes:
 *
 *	HEADER_ATTR	header, the attr (attr.size bytes), u64 ids
 *	EVENT_UPDATE	header, u64 type (2: NAME), u64 id, the name, NUL
 *	HEADER_FEATURE	header, u64 feature, the feature section as in a
 *			normal-mode file (strings: u32 length, a multiple
 *			of 64 with the NUL, then the string NUL-padded)
 *	HEADER_TRACING_DATA
 *			header, u32 size, u32 padding (16 bytes), then
 *			size bytes outside the record: the tracing data
 *			and zeros up to a multiple of 8 (size counts them;
 *			perf checks that the data it parses plus that
 *			padding make size)
 *	COMM		header, u32 pid, u32 tid, comm NUL-padded to 8
 *			bytes, the sample_id fields
 *	FINISHED_ROUND	header only
 *
 * perf does not pad its feature records to 8 bytes; these are padded
 * (both readers take the section from the front and ignore the rest), so
 * that every record of the stream stays 8-byte aligned.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <endian.h>
#include <sys/utsname.h>

#include <tracefs.h>

#include "core/ehd-buf.h"
#include "core/ehd-bytes.h"
#include "core/io.h"
#include "formats/perf/perf-file.h"
#include "formats/perf/perf-stream.h"

#define PIPE_MAGIC	0x32454c4946524550ull	/* "PERFILE2" */
#define PIPE_HEADER_SIZE 16
#define REC_MAX		0xFFF8u	/* largest multiple of 8 in a u16 */
#define NAME_ALIGN	64		/* perf's header strings */
#define EVENT_UPDATE_NAME 2		/* PERF_EVENT_UPDATE__NAME */
#define TRACING_VERSION	"0.6"
#define COMM_MAX	15		/* TASK_COMM_LEN - 1 */

static const char zeros[NAME_ALIGN];

static void put_u32(struct ehd_buf *b, uint32_t v)
{
	ehd__buf_put(b, &v, sizeof(v));
}

static void put_u64(struct ehd_buf *b, uint64_t v)
{
	ehd__buf_put(b, &v, sizeof(v));
}

/* Zeros up to a multiple of 8 bytes from @from. */
static void pad8(struct ehd_buf *b, size_t from)
{
	ehd__buf_put(b, zeros, (8 - (b->len - from) % 8) % 8);
}

/* Drops what was appended from @at on (a record that cannot be whole). */
static void cut(struct ehd_buf *b, size_t at)
{
	if (b->len > at) {
		b->len = at;
		b->p[at] = 0;
	}
}

static size_t rec_begin(struct ehd_buf *b, uint32_t type, uint16_t misc)
{
	struct perf_event_header h = { .type = type, .misc = misc, .size = 0 };
	size_t at = b->len;

	ehd__buf_put(b, &h, sizeof(h));
	return at;
}

/*
 * rec_end() - pad the record begun at @at and set its size
 * @b: the stream
 * @at: where it begins
 *
 * A record beyond what header.size can say is dropped, with b->err set to
 * -E2BIG; so is a record that ran out of memory.
 */
static void rec_end(struct ehd_buf *b, size_t at)
{
	uint16_t size;

	pad8(b, at);
	if (!b->err && b->len - at > REC_MAX)
		b->err = -E2BIG;
	if (b->err) {
		cut(b, at);
		return;
	}
	size = (uint16_t)(b->len - at);
	memcpy(b->p + at + offsetof(struct perf_event_header, size), &size,
	       sizeof(size));
}

/* Bytes that put_string() appends for @s. */
static size_t string_size(const char *s)
{
	return 4 + (strlen(s) + NAME_ALIGN) / NAME_ALIGN * NAME_ALIGN;
}

/* A perf header string: u32 length (NUL included, padded), the bytes. */
static void put_string(struct ehd_buf *b, const char *s)
{
	size_t olen = strlen(s) + 1;
	size_t len = string_size(s) - 4;

	put_u32(b, (uint32_t)len);
	ehd__buf_put(b, s, olen);
	while (olen < len) {
		size_t n = len - olen < NAME_ALIGN ? len - olen : NAME_ALIGN;

		ehd__buf_put(b, zeros, n);
		olen += n;
	}
}

void ehd__ps_pipe_header(struct ehd_buf *b)
{
	const uint64_t h[2] = { PIPE_MAGIC, PIPE_HEADER_SIZE };

	ehd__buf_put(b, h, sizeof(h));
}

void ehd__ps_attr(struct ehd_buf *b, const struct perf_event_attr *attr,
		  const uint64_t *ids, size_t nids)
{
	struct perf_event_attr a = *attr;
	size_t n = attr->size, at;

	/* perf finds the ids after attr.size bytes: that size is written. */
	if (n < PERF_ATTR_SIZE_VER0)
		n = PERF_ATTR_SIZE_VER0;
	if (n > sizeof(a))
		n = sizeof(a);
	n = (n + 7) & ~(size_t)7;
	a.size = (uint32_t)n;
	at = rec_begin(b, EHD__PERF_RECORD_HEADER_ATTR, 0);
	ehd__buf_put(b, &a, n);
	if (nids > REC_MAX / sizeof(*ids)) {
		if (!b->err)
			b->err = -E2BIG;
	} else if (nids) {
		ehd__buf_put(b, ids, nids * sizeof(*ids));
	}
	rec_end(b, at);
}

void ehd__ps_event_name(struct ehd_buf *b, uint64_t id, const char *name)
{
	size_t len = strlen(name), at;

	at = rec_begin(b, EHD__PERF_RECORD_EVENT_UPDATE, 0);
	put_u64(b, EVENT_UPDATE_NAME);
	put_u64(b, id);
	if (len >= REC_MAX) {
		if (!b->err)
			b->err = -E2BIG;
	} else {
		ehd__buf_put(b, name, len + 1);
	}
	rec_end(b, at);
}

/* ---- tracing data -------------------------------------------------------- */

struct td {
	struct ehd_buf *b;
	char *why;
	size_t why_size;
};

/*
 * put_tracefs() - append a tracefs file, its size first
 * @t: the stream and where the reason goes
 * @sys: the event's system, or NULL for a file of the tracing directory
 * @ev: the event (with @sys)
 * @file: the file: "format" of the event, or a path in the tracing
 *	directory ("events/header_page")
 * @optional: a file that cannot be read is written as empty
 *
 * The size is a u64 in host order, as perf writes it.
 *
 * Return: 0 or a negative errno (with the reason in @t->why).
 */
static int put_tracefs(struct td *t, const char *sys, const char *ev,
		       const char *file, bool optional)
{
	char *text;
	int size = 0, err;

	errno = 0;
	if (sys)
		text = tracefs_event_file_read(NULL, sys, ev, file, &size);
	else
		text = tracefs_instance_file_read(NULL, file, &size);
	err = errno;
	/* libtracefs gives NULL with errno 0 for an empty file. */
	if (!text && err && !optional) {
		if (sys)
			snprintf(t->why, t->why_size,
				 "cannot read tracefs events/%s/%s/%s: %s",
				 sys, ev, file, strerror(err));
		else
			snprintf(t->why, t->why_size,
				 "cannot read tracefs %s: %s", file,
				 strerror(err));
		return -err;
	}
	if (!text || size < 0)
		size = 0;
	put_u64(t->b, (uint64_t)size);
	if (size)
		ehd__buf_put(t->b, text, (size_t)size);
	free(text);
	return 0;
}

/* tps[i] came before (the same system and event). */
static bool seen_before(const struct ehd__ps_tracepoint *tps, size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (!strcmp(tps[j].system, tps[i].system) &&
		    !strcmp(tps[j].event, tps[i].event))
			return true;
	return false;
}

/* tps[i] is the first of its system. */
static bool system_first(const struct ehd__ps_tracepoint *tps, size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (!strcmp(tps[j].system, tps[i].system))
			return false;
	return true;
}

/*
 * put_system() - the format files of the system of tps[first]: u32 count,
 * then each file with its u64 size
 * @t: the stream
 * @tps: the tracepoints
 * @n: how many
 * @first: the first tracepoint of the system
 *
 * Return: 0 or a negative errno.
 */
static int put_system(struct td *t, const struct ehd__ps_tracepoint *tps,
		      size_t n, size_t first)
{
	const char *sys = tps[first].system;
	uint32_t count = 0;
	size_t i;
	int err;

	for (i = first; i < n; i++)
		if (!strcmp(tps[i].system, sys) && !seen_before(tps, i))
			count++;
	put_u32(t->b, count);
	for (i = first; i < n; i++) {
		if (strcmp(tps[i].system, sys) || seen_before(tps, i))
			continue;
		err = put_tracefs(t, sys, tps[i].event, "format", false);
		if (err)
			return err;
	}
	return 0;
}

/* A name that is one path component. */
static bool name_ok(const char *s)
{
	return s && *s && !strchr(s, '/') && strcmp(s, ".") && strcmp(s, "..");
}

/*
 * put_tracing() - the tracing data, as perf's tracing_data_get() writes
 * them
 * @t: the stream
 * @tps: the tracepoints
 * @n: how many
 *
 * Return: 0 or a negative errno.
 */
static int put_tracing(struct td *t, const struct ehd__ps_tracepoint *tps,
		       size_t n)
{
	static const char magic[10] = "\x17\x08\x44tracing";
	uint32_t nsys = 0, nftrace = 0;
	long page_size = sysconf(_SC_PAGESIZE);
	size_t i;
	char c;
	int err;

	ehd__buf_put(t->b, magic, sizeof(magic));
	ehd__buf_put(t->b, TRACING_VERSION, sizeof(TRACING_VERSION));
	c = __BYTE_ORDER == __BIG_ENDIAN;
	ehd__buf_putc(t->b, c);
	c = (char)sizeof(long);
	ehd__buf_putc(t->b, c);
	put_u32(t->b, page_size > 0 ? (uint32_t)page_size : 4096);

	ehd__buf_put(t->b, "header_page", sizeof("header_page"));
	err = put_tracefs(t, NULL, NULL, "events/header_page", false);
	if (err)
		return err;
	ehd__buf_put(t->b, "header_event", sizeof("header_event"));
	err = put_tracefs(t, NULL, NULL, "events/header_event", false);
	if (err)
		return err;

	/* The "ftrace" system goes in a part of its own, without its name. */
	for (i = 0; i < n; i++) {
		if (!strcmp(tps[i].system, "ftrace"))
			nftrace += !seen_before(tps, i);
		else
			nsys += system_first(tps, i);
	}
	if (nftrace) {
		for (i = 0; strcmp(tps[i].system, "ftrace"); i++)
			;
		err = put_system(t, tps, n, i);
		if (err)
			return err;
	} else {
		put_u32(t->b, 0);
	}
	put_u32(t->b, nsys);
	for (i = 0; i < n; i++) {
		if (!strcmp(tps[i].system, "ftrace") || !system_first(tps, i))
			continue;
		ehd__buf_puts(t->b, tps[i].system);
		ehd__buf_putc(t->b, 0);
		err = put_system(t, tps, n, i);
		if (err)
			return err;
	}

	put_u32(t->b, 0);	/* kallsyms */
	put_u32(t->b, 0);	/* printk formats */
	return put_tracefs(t, NULL, NULL, "saved_cmdlines", true);
}

int ehd__ps_tracing_data(struct ehd_buf *b,
			 const struct ehd__ps_tracepoint *tps, size_t n,
			 char *why, size_t why_size)
{
	struct td t = { b, why, why_size };
	size_t at = b->len, start, i;
	uint16_t rec_size = 16;
	uint32_t size;
	int err;

	for (i = 0; i < n; i++) {
		if (!name_ok(tps[i].system) || !name_ok(tps[i].event)) {
			snprintf(why, why_size, "bad tracepoint name %s:%s",
				 tps[i].system ? tps[i].system : "(null)",
				 tps[i].event ? tps[i].event : "(null)");
			return -EINVAL;
		}
	}
	if (b->err) {
		snprintf(why, why_size, "%s", strerror(-b->err));
		return b->err;
	}

	rec_begin(b, EHD__PERF_RECORD_HEADER_TRACING_DATA, 0);
	put_u32(b, 0);		/* size, set below */
	put_u32(b, 0);		/* padding of the record */
	start = b->len;
	err = put_tracing(&t, tps, n);
	if (!err && b->err == 0 && b->len - start > UINT32_MAX - 7) {
		snprintf(why, why_size, "%zu bytes of tracing data",
			 b->len - start);
		err = -EFBIG;
	}
	if (!err) {
		pad8(b, start);
		if (b->err) {
			snprintf(why, why_size, "%s", strerror(-b->err));
			err = b->err;
		}
	}
	if (err) {
		cut(b, at);
		return err;
	}
	size = (uint32_t)(b->len - start);
	memcpy(b->p + at + 8, &size, sizeof(size));
	memcpy(b->p + at + offsetof(struct perf_event_header, size), &rec_size,
	       sizeof(rec_size));
	return 0;
}

/* ---- features ------------------------------------------------------------ */

static size_t feat_begin(struct ehd_buf *b, unsigned int feat)
{
	size_t at = rec_begin(b, EHD__PERF_RECORD_HEADER_FEATURE, 0);

	put_u64(b, feat);
	return at;
}

static void feat_string(struct ehd_buf *b, unsigned int feat, const char *s)
{
	size_t at = feat_begin(b, feat);

	put_string(b, s);
	rec_end(b, at);
}

/*
 * cpu_desc() - /proc/cpuinfo's first "model name", white space squashed
 * as perf does
 * @buf: gets it
 * @size: its size
 *
 * Return: @buf, or NULL when there is none.
 */
static char *cpu_desc(char *buf, size_t size)
{
	static const char key[] = "model name";
	char *line = NULL, *s, *d;
	size_t cap = 0;
	bool found = false;
	FILE *fp;

	fp = fopen("/proc/cpuinfo", "re");
	if (!fp)
		return NULL;
	while (getline(&line, &cap, fp) > 0) {
		if (strncmp(line, key, sizeof(key) - 1))
			continue;
		s = strchr(line, ':');
		s = s && s[1] == ' ' && s[2] ? s + 2 : line;
		d = strchr(s, '\n');
		if (d)
			*d = 0;
		for (d = buf; *s && d < buf + size - 1; s++) {
			if (isspace((unsigned char)*s)) {
				*d++ = ' ';
				while (isspace((unsigned char)s[1]))
					s++;
			} else {
				*d++ = *s;
			}
		}
		*d = 0;
		found = true;
		break;
	}
	free(line);
	fclose(fp);
	return found ? buf : NULL;
}

/* CMDLINE: u32 count, the words; words that do not fit are left out. */
static void feat_cmdline(struct ehd_buf *b, const char *const *argv)
{
	size_t at = feat_begin(b, EHD__PERF_FEAT_CMDLINE);
	size_t total = 16 + 4, i, nr = 0;

	while (argv[nr] && total + string_size(argv[nr]) <= REC_MAX)
		total += string_size(argv[nr++]);
	put_u32(b, (uint32_t)nr);
	for (i = 0; i < nr; i++)
		put_string(b, argv[i]);
	rec_end(b, at);
}

void ehd__ps_features(struct ehd_buf *b, const struct ehd__ps_machine *m)
{
	struct utsname u;
	struct timespec res;
	bool have_uts = !uname(&u);
	char desc[256];
	long conf, onln;
	size_t at;

	if (have_uts) {
		feat_string(b, EHD__PERF_FEAT_HOSTNAME, u.nodename);
		feat_string(b, EHD__PERF_FEAT_OSRELEASE, u.release);
	}
	feat_string(b, EHD__PERF_FEAT_VERSION,
		    m->version ? m->version : "libehdecode " PACKAGE_VERSION);
	if (have_uts)
		feat_string(b, EHD__PERF_FEAT_ARCH, u.machine);

	/* NRCPUS: u32 available (perf: present), u32 online. */
	conf = sysconf(_SC_NPROCESSORS_CONF);
	onln = sysconf(_SC_NPROCESSORS_ONLN);
	if (conf > 0 && onln > 0) {
		at = feat_begin(b, EHD__PERF_FEAT_NRCPUS);
		put_u32(b, (uint32_t)conf);
		put_u32(b, (uint32_t)onln);
		rec_end(b, at);
	}

	if (cpu_desc(desc, sizeof(desc)))
		feat_string(b, EHD__PERF_FEAT_CPUDESC, desc);
	if (m->cmdline)
		feat_cmdline(b, m->cmdline);

	/* CLOCKID: the resolution of the clock in ns (not the clock's id). */
	if (!clock_getres(m->clockid, &res)) {
		at = feat_begin(b, EHD__PERF_FEAT_CLOCKID);
		put_u64(b, (uint64_t)res.tv_sec * 1000000000u +
			   (uint64_t)res.tv_nsec);
		rec_end(b, at);
	}

	/* CLOCK_DATA: u32 version 1, u32 clockid, u64 wall ns, u64 clock ns. */
	at = feat_begin(b, EHD__PERF_FEAT_CLOCK_DATA);
	put_u32(b, 1);
	put_u32(b, (uint32_t)m->clockid);
	put_u64(b, m->wall_ns);
	put_u64(b, m->clock_ns);
	rec_end(b, at);

	at = feat_begin(b, EHD__PERF_FEAT_LAST);
	rec_end(b, at);
}

/* ---- threads ------------------------------------------------------------- */

static void put_sample_id(struct ehd_buf *b,
			  const struct ehd__ps_sample_id *sid, uint32_t pid,
			  uint32_t tid)
{
	uint64_t st = sid->sample_type;

	if (st & PERF_SAMPLE_TID) {
		put_u32(b, pid);
		put_u32(b, tid);
	}
	if (st & PERF_SAMPLE_TIME)
		put_u64(b, sid->time);
	if (st & PERF_SAMPLE_ID)
		put_u64(b, sid->id);
	if (st & PERF_SAMPLE_STREAM_ID)
		put_u64(b, sid->id);
	if (st & PERF_SAMPLE_CPU)
		put_u64(b, 0);	/* u32 cpu, u32 reserved: perf writes 0 */
	if (st & PERF_SAMPLE_IDENTIFIER)
		put_u64(b, sid->id);
}

/*
 * read_comm() - a thread's comm, as the kernel's COMM records carry it
 * @task: the /proc/PID/task directory
 * @tid: the thread
 * @comm: gets the name, at most COMM_MAX characters
 *
 * Return: true, or false when the thread is gone.
 */
static bool read_comm(int task, uint32_t tid, char comm[COMM_MAX + 1])
{
	char path[32], buf[64];
	size_t len;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%u/comm", tid);
	fd = openat(task, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = ehd__read_retry(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = 0;
	len = strcspn(buf, "\n");
	if (len > COMM_MAX)
		len = COMM_MAX;
	memcpy(comm, buf, len);
	comm[len] = 0;
	return true;
}

static void put_comm(struct ehd_buf *b, const struct ehd__ps_sample_id *sid,
		     uint32_t pid, uint32_t tid, const char *comm)
{
	size_t at = rec_begin(b, PERF_RECORD_COMM, 0), start;

	put_u32(b, pid);
	put_u32(b, tid);
	start = b->len;
	ehd__buf_put(b, comm, strlen(comm) + 1);
	pad8(b, start);
	put_sample_id(b, sid, pid, tid);
	rec_end(b, at);
}

/* One line of /proc/PID/maps, executable: its MMAP2 record. */
static bool put_map(struct ehd_buf *b, const struct ehd__ps_sample_id *sid,
		    uint32_t pid, const char *line)
{
	unsigned long long start, end, pgoff, ino;
	unsigned int maj, min, prot = 0;
	char perms[8], *name;
	int used = 0;
	size_t at, from;

	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end,
		   perms, &pgoff, &maj, &min, &ino, &used) < 7 || !used ||
	    strlen(perms) < 4 || perms[2] != 'x' || end <= start)
		return false;
	name = (char *)line + used;
	name[strcspn(name, "\n")] = 0;
	if (!*name)
		name = (char *)"//anon";
	prot |= perms[0] == 'r' ? 1 : 0;	/* PROT_READ */
	prot |= perms[1] == 'w' ? 2 : 0;	/* PROT_WRITE */
	prot |= 4;				/* PROT_EXEC */
	at = rec_begin(b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
	put_u32(b, pid);
	put_u32(b, pid);
	put_u64(b, start);
	put_u64(b, end - start);
	put_u64(b, pgoff);
	put_u32(b, maj);
	put_u32(b, min);
	put_u64(b, ino);
	put_u64(b, 0);				/* ino_generation */
	put_u32(b, prot);
	put_u32(b, perms[3] == 's' ? 1 : 2);	/* MAP_SHARED : MAP_PRIVATE */
	from = b->len;
	ehd__buf_put(b, name, strlen(name) + 1);
	pad8(b, from);
	put_sample_id(b, sid, pid, pid);
	rec_end(b, at);
	return true;
}

/* The MMAP2 records of the executable mappings of process @pid. */
static void put_maps(struct ehd_buf *b, const struct ehd__ps_sample_id *sid,
		     int proc, uint32_t pid, char **line, size_t *cap)
{
	char path[32];
	FILE *fp;
	int fd;

	snprintf(path, sizeof(path), "%u/maps", pid);
	fd = openat(proc, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;		/* gone, or not ours to read */
	fp = fdopen(fd, "r");
	if (!fp) {
		close(fd);
		return;
	}
	while (getline(line, cap, fp) > 0)
		put_map(b, sid, pid, *line);
	fclose(fp);
}

/* The COMMs of process @pid's threads (and its mappings); how many. */
static size_t put_process(struct ehd_buf *b, const struct ehd__ps_sample_id *sid,
			  int proc, uint32_t pid, bool maps, char **line,
			  size_t *cap)
{
	char path[32], comm[COMM_MAX + 1];
	struct dirent *te;
	size_t count = 0;
	uint32_t tid;
	DIR *task;
	int fd;

	snprintf(path, sizeof(path), "%u/task", pid);
	fd = openat(proc, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return 0;	/* gone */
	task = fdopendir(fd);
	if (!task) {
		close(fd);
		return 0;
	}
	while ((te = readdir(task))) {
		tid = ehd__proc_id(te->d_name);
		if (!tid || !read_comm(dirfd(task), tid, comm))
			continue;
		put_comm(b, sid, pid, tid, comm);
		count++;
	}
	closedir(task);
	if (maps)
		put_maps(b, sid, proc, pid, line, cap);
	return count;
}

size_t ehd__ps_threads(struct ehd_buf *b, const struct ehd__ps_sample_id *sid,
		       bool maps, const pid_t *pids, size_t npids)
{
	struct dirent *pe;
	char *line = NULL;
	size_t count = 0, cap = 0, i;
	uint32_t pid;
	DIR *proc;

	proc = opendir("/proc");
	if (!proc)
		return 0;
	if (pids) {
		for (i = 0; i < npids; i++)
			count += put_process(b, sid, dirfd(proc),
					     (uint32_t)pids[i], maps, &line,
					     &cap);
	} else {
		while ((pe = readdir(proc))) {
			pid = ehd__proc_id(pe->d_name);
			if (pid)
				count += put_process(b, sid, dirfd(proc), pid,
						     maps, &line, &cap);
		}
	}
	free(line);
	closedir(proc);
	return count;
}

void ehd__ps_finished_round(struct ehd_buf *b)
{
	size_t at = rec_begin(b, EHD__PERF_RECORD_FINISHED_ROUND, 0);

	rec_end(b, at);
}
