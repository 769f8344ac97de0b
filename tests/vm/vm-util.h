/* SPDX-License-Identifier: MIT */
/*
 * vm-util.h - helpers of the VM test programs
 *
 * The programs run as root in the test guest (tests/vm/run-in-vm.sh) with
 * tracefs at /sys/kernel/tracing. Each check prints one "ok" or "FAIL"
 * line; vm_summary() prints "<program>: N passed, N failed" and gives the
 * exit status. Everything is static: each program includes this once.
 */
#ifndef EH_TESTS_VM_UTIL_H
#define EH_TESTS_VM_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define VM_TRACEFS "/sys/kernel/tracing"

static int vm_passed, vm_failed;

static inline void vm_check(int ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline void vm_check(int ok, const char *fmt, ...)
{
	va_list ap;

	if (ok)
		vm_passed++;
	else
		vm_failed++;
	fputs(ok ? "ok   " : "FAIL ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

#define VM_CHECK(cond, ...) vm_check(!!(cond), __VA_ARGS__)

static inline void vm_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void vm_note(const char *fmt, ...)
{
	va_list ap;

	fputs("note ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static inline int vm_summary(const char *prog)
{
	printf("%s: %d passed, %d failed\n", prog, vm_passed, vm_failed);
	fflush(stdout);
	return vm_failed ? 1 : 0;
}

static inline void vm_die(const char *what) __attribute__((noreturn));
static inline void vm_die(const char *what)
{
	printf("FAIL %s: %s\n", what, strerror(errno));
	exit(1);
}

static inline double vm_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline void vm_sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* ---- tracefs files ---------------------------------------------------------- */

/* Writes @text to tracefs file @rel (truncating). Returns 0 or errno. */
static inline int vm_tracefs_write(const char *rel, const char *text)
{
	char path[1024];
	ssize_t n;
	int fd, err = 0;

	snprintf(path, sizeof(path), VM_TRACEFS "/%s", rel);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return errno;
	n = write(fd, text, strlen(text));
	if (n < 0)
		err = errno;
	close(fd);
	return err;
}

/* Reads tracefs file @rel into a malloc'ed string (NULL on error). */
static inline char *vm_tracefs_read(const char *rel)
{
	char path[1024];
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), VM_TRACEFS "/%s", rel);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || !buf) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
		len += (size_t)n;
		if (cap - len < 2) {
			char *p = realloc(buf, cap * 2);

			if (!p)
				break;
			buf = p;
			cap *= 2;
		}
	}
	buf[len] = 0;
	close(fd);
	return buf;
}

static inline int vm_event_file_write(const char *name, const char *file,
			       const char *text)
{
	char rel[512];

	snprintf(rel, sizeof(rel), "events/user_events/%s/%s", name, file);
	return vm_tracefs_write(rel, text);
}

static inline int vm_event_exists(const char *name)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), VM_TRACEFS "/events/user_events/%s", name);
	return stat(path, &st) == 0;
}

/* The tracepoint's id (perf config, common_type), or -1. */
static inline int vm_event_id(const char *name)
{
	char rel[512], *text;
	int id;

	snprintf(rel, sizeof(rel), "events/user_events/%s/id", name);
	text = vm_tracefs_read(rel);
	id = text ? atoi(text) : -1;
	free(text);
	return id;
}

/* Waits up to @ms for @name to leave tracefs (the kernel deletes events
 * from a work queue). Returns 1 if it is gone. */
static inline int vm_event_wait_gone(const char *name, int ms)
{
	int waited;

	for (waited = 0; waited < ms; waited += 10) {
		if (!vm_event_exists(name))
			return 1;
		vm_sleep_ms(10);
	}
	return !vm_event_exists(name);
}

/* Number of this process's descriptors open on user_events_data. */
static inline int vm_user_events_fds(void)
{
	char path[64], target[512];
	int fd, n = 0;
	ssize_t len;

	for (fd = 0; fd < 1024; fd++) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		len = readlink(path, target, sizeof(target) - 1);
		if (len <= 0)
			continue;
		target[len] = 0;
		if (strstr(target, "user_events_data"))
			n++;
	}
	return n;
}

/* Sum of a counter ("entries", "overrun", "dropped events") over the
 * per-CPU stats of the top trace buffer. */
static inline long long vm_stats_sum(const char *key)
{
	char rel[64], *text, *at;
	long long sum = 0;
	int cpu;

	for (cpu = 0; cpu < 64; cpu++) {
		snprintf(rel, sizeof(rel), "per_cpu/cpu%d/stats", cpu);
		text = vm_tracefs_read(rel);
		if (!text)
			break;
		at = strstr(text, key);
		if (at)
			sum += atoll(at + strlen(key) + 1);
		free(text);
	}
	return sum;
}

/* ---- perf ring buffer of PERF_SAMPLE_RAW samples ------------------------------ */

#define VM_PERF_MAX 16

struct vm_perf {
	int fd;			/* the first event: owns the ring */
	void *ring;
	size_t ring_size;	/* data area, a power of 2 */
	size_t page;
	int fds[VM_PERF_MAX];	/* all events, the first included */
	int n_fds;
};

#define VM_PERF_INIT { -1, NULL, 0, 0, { 0 }, 0 }

/*
 * Opens a PERF_TYPE_TRACEPOINT event for tracepoint @id on this thread.
 * The first call (p->fd < 0) maps a ring of @pages data pages; later ones
 * send their samples into that ring, so one ring holds the samples of all
 * tracepoints in the order they were written. Returns 0 or errno.
 */
static inline int vm_perf_open(struct vm_perf *p, int id, int pages)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = (uint64_t)id;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_RAW;
	attr.wakeup_events = 1;
	if (p->n_fds == VM_PERF_MAX)
		return EMFILE;
	fd = (int)syscall(__NR_perf_event_open, &attr, 0, -1, -1,
			  PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return errno;
	if (p->fd < 0) {
		p->page = (size_t)sysconf(_SC_PAGESIZE);
		p->ring_size = (size_t)pages * p->page;
		p->ring = mmap(NULL, p->ring_size + p->page,
			       PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (p->ring == MAP_FAILED) {
			int err = errno;

			close(fd);
			return err;
		}
		p->fd = fd;
		p->fds[p->n_fds++] = fd;
		return 0;
	}
	if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, p->fd) < 0) {
		int err = errno;

		close(fd);
		return err;
	}
	p->fds[p->n_fds++] = fd;
	return 0;
}

/* Closes every event and unmaps the ring. */
static inline void vm_perf_close(struct vm_perf *p)
{
	int i;

	if (p->ring)
		munmap(p->ring, p->ring_size + p->page);
	for (i = 0; i < p->n_fds; i++)
		close(p->fds[i]);
	p->ring = NULL;
	p->n_fds = 0;
	p->fd = -1;
}

/*
 * Calls @fn(raw, raw_size, ctx) for each PERF_RECORD_SAMPLE in the ring
 * and consumes them. @lost counts PERF_RECORD_LOST. Returns the number of
 * samples.
 */
static inline int vm_perf_drain(struct vm_perf *p,
			 void (*fn)(const uint8_t *, uint32_t, void *),
			 void *ctx, uint64_t *lost)
{
	struct perf_event_mmap_page *meta = p->ring;
	const uint8_t *data = (const uint8_t *)p->ring + p->page;
	uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = meta->data_tail;
	uint8_t *rec = malloc(65536 + 64);
	int samples = 0;

	while (rec && tail < head) {
		struct perf_event_header h;
		size_t i, off;

		for (i = 0; i < sizeof(h); i++)
			((uint8_t *)&h)[i] = data[(tail + i) & (p->ring_size - 1)];
		if (h.size < sizeof(h))
			break;
		for (i = 0; i < h.size; i++)
			rec[i] = data[(tail + i) & (p->ring_size - 1)];
		off = sizeof(h);
		if (h.type == PERF_RECORD_SAMPLE) {
			uint32_t raw_size;

			memcpy(&raw_size, rec + off, 4);
			if (off + 4 + raw_size <= h.size)
				fn(rec + off + 4, raw_size, ctx);
			samples++;
		} else if (h.type == PERF_RECORD_LOST && lost) {
			uint64_t n;

			memcpy(&n, rec + off + 8, 8);	/* {u64 id; u64 lost} */
			*lost += n;
		}
		tail += h.size;
	}
	free(rec);
	__atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
	return samples;
}

/* ---- records of the interceptor file and of the kernel ---------------------- */

struct vm_record {
	char *name;		/* tracepoint name */
	uint8_t *data;		/* event bytes (kernel: after the common header) */
	size_t size;		/* bytes in @data, padding included for the kernel */
};

struct vm_records {
	struct vm_record *v;
	int n, cap;
};

static inline void vm_records_add(struct vm_records *r, const char *name,
			   const void *data, size_t size)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 64;
		r->v = realloc(r->v, (size_t)r->cap * sizeof(*r->v));
		if (!r->v)
			vm_die("realloc");
	}
	r->v[r->n].name = strdup(name);
	r->v[r->n].data = malloc(size ? size : 1);
	if (!r->v[r->n].name || !r->v[r->n].data)
		vm_die("malloc");
	memcpy(r->v[r->n].data, data, size);
	r->v[r->n].size = size;
	r->n++;
}

static inline void vm_records_free(struct vm_records *r)
{
	int i;

	for (i = 0; i < r->n; i++) {
		free(r->v[i].name);
		free(r->v[i].data);
	}
	free(r->v);
	memset(r, 0, sizeof(*r));
}

/*
 * Loads an interceptor file: records of {u32 LE size including itself,
 * NUL-terminated tracepoint name, event bytes}. Returns 0, or -1 if the
 * file cannot be read or is malformed.
 */
static inline int vm_records_load(struct vm_records *r, const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long size;
	size_t off = 0;

	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	buf = malloc(size > 0 ? (size_t)size : 1);
	if (!buf || fread(buf, 1, (size_t)size, f) != (size_t)size) {
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	while (off + 4 <= (size_t)size) {
		uint32_t len = buf[off] | buf[off + 1] << 8 |
			       buf[off + 2] << 16 | (uint32_t)buf[off + 3] << 24;
		const char *name = (const char *)buf + off + 4;
		size_t name_len;

		if (len < 6 || off + len > (size_t)size)
			break;
		name_len = strnlen(name, len - 4);
		if (name_len == len - 4)
			break;
		vm_records_add(r, name, buf + off + 4 + name_len + 1,
			       len - 4 - name_len - 1);
		off += len;
	}
	free(buf);
	return off == (size_t)size ? 0 : -1;
}

static inline void vm_hexdump(const char *label, const uint8_t *p, size_t n)
{
	size_t i;

	printf("     %s (%zu bytes):", label, n);
	for (i = 0; i < n; i++)
		printf("%s%02x", i % 32 ? (i % 4 ? "" : " ") : "\n       ",
		       p[i]);
	putchar('\n');
}

/*
 * Compares the kernel's records with the expected (interceptor) ones.
 * A kernel record carries the event bytes and then alignment padding of
 * unknown content (user_events stores no length): the padded size must be
 * what @padded_size() says for the expected length, and the bytes before
 * the padding must be equal. Returns the number of mismatches; describes
 * the first few when @verbose.
 */
static inline int vm_records_compare(const struct vm_records *want,
			      const struct vm_records *got,
			      size_t (*padded_size)(size_t), int verbose)
{
	int i, bad = 0, n = want->n < got->n ? want->n : got->n;

	if (want->n != got->n) {
		bad++;
		if (verbose)
			printf("     %d records expected, %d received\n",
			       want->n, got->n);
	}
	for (i = 0; i < n; i++) {
		const struct vm_record *w = &want->v[i], *g = &got->v[i];
		const char *why = NULL;

		if (strcmp(w->name, g->name) != 0)
			why = "tracepoint differs";
		else if (g->size != padded_size(w->size))
			why = "size differs";
		else if (memcmp(w->data, g->data, w->size) != 0)
			why = "bytes differ";
		if (!why)
			continue;
		if (verbose && bad < 3) {
			printf("     record %d: %s: expected %s, %zu bytes; got %s, %zu bytes\n",
			       i, why, w->name, w->size, g->name, g->size);
			vm_hexdump("expected", w->data, w->size);
			vm_hexdump("received", g->data, g->size);
		}
		bad++;
	}
	return bad;
}

#endif /* EH_TESTS_VM_UTIL_H */
