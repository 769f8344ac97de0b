// SPDX-License-Identifier: MIT
/*
 * ring-bench - reading a user_events tracepoint's perf rings: libbpf's
 * perf_buffer against a hand-written mmap reader
 *
 *	ring-bench [-n EVENTS] [-p PAGES] [-r REPEATS] [-w WAKEUP_BYTES]
 *
 * Needs root, user_events and perf (the test VM):
 *	tests/vm/run-in-vm.sh -- bench/ring-bench
 *
 * A writer thread writes EVENTS (200000) small EventHeader events (two
 * u32 fields, 72-byte perf records) as fast as it can; a consumer thread
 * reads the tracepoint's per-CPU perf rings (PERF_SAMPLE_RAW |
 * PERF_SAMPLE_TIME, PAGES (64) data pages per CPU, woken when
 * WAKEUP_BYTES (a quarter of the ring) are waiting) and copies every
 * record into a staging buffer, as a recorder that merges the CPUs by
 * time must. The consumer is either
 *
 *  perf_buffer  libbpf's perf_buffer__new_raw() with a PERF_EVENT_ARRAY
 *		 map and the tracepoint's attr; the callback copies the record;
 *  mmap-ring	 perf_event_open() per CPU, mmap of 1 + PAGES pages, epoll;
 *		 data_head read with acquire, records copied straight from
 *		 the ring (two memcpy() when one wraps), data_tail stored
 *		 with release.
 *
 * Both consumers wait with epoll_wait() on the same descriptors and are
 * woken at the same fill level. The writer is pinned to CPU 0 and the
 * consumer to CPU 1 (when there are two CPUs), so that the consumer's
 * processing, everything between two epoll_wait() calls, can be timed
 * with the TSC (the guest marks its TSC unstable, so thread CPU times
 * advance in 4 ms jiffies and are only a rough check). Reported per run:
 * events written and received; lost events, as PERF_RECORD_LOST says and
 * as PERF_FORMAT_LOST counts them at the end (a loss shows up in the ring
 * only once a later record fits); per event received, the consumer's
 * processing time (TSC) and its thread CPU time (CLOCK_THREAD_CPUTIME_ID,
 * RUSAGE_THREAD); the number of wake-ups; the writer's time per event.
 * After one unreported warm-up run of each, the two consumers alternate,
 * REPEATS (3) times each, in one process; the medians are printed on
 * "result" lines.
 *
 * Then, not timed: whether an overwriting (flight-recorder) ring works
 * with the hand-written reader, and what an unprivileged user (uid 65534)
 * may do with the current and with relaxed sysctls (perf_event_paranoid,
 * unprivileged_bpf_disabled; both are restored).
 *
 * Exit status: 0, 1 on error, 77 when user_events is not available.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#endif

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <tracefs.h>

#include <eventheader/eh-provider.h>

EH_DEFINE_PROVIDER(bench_provider, "EhRingBench");

#define TRACEPOINT "EhRingBench_L4K1"
#define MAX_CPUS 64
#define STAGING_SIZE (4u << 20)
#define RECORD_SIZE 72		/* bytes in the ring for one of our events */

enum method { PERF_BUFFER, MMAP_RING, METHODS };

static const char *const method_names[METHODS] = { "perf_buffer",
						   "mmap-ring" };

static uint32_t n_events = 200000;
static unsigned int ring_pages = 64;
static unsigned int wakeup_bytes;
static int repeats = 3;
static int tp_id = -1;
static size_t page_size;
static double tsc_per_us;	/* calibrated at start-up */

static void die(const char *what) __attribute__((noreturn));
static void die(const char *what)
{
	fprintf(stderr, "ring-bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static double now(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The TSC where there is one, else CLOCK_MONOTONIC in nanoseconds. */
static inline uint64_t ticks(void)
{
#ifdef HAVE_TSC
	return __rdtsc();
#else
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

/* ---- the consumer's side: staging buffer and counts ---------------------- */

struct consumer {
	enum method method;
	uint8_t *staging;	/* records are copied here, as for a merge */
	size_t staged;
	uint64_t received;	/* PERF_RECORD_SAMPLE */
	uint64_t lost;		/* sum of PERF_RECORD_LOST counts */
	uint64_t kernel_lost;	/* PERF_FORMAT_LOST of the events, at the end */
	uint64_t bytes;
	int stop;		/* set by the main thread, atomic */
	double cpu, rusage;	/* seconds of the consumer thread */
	uint64_t cycles;	/* ticks() spent processing */
	uint64_t wakeups;	/* epoll_wait() calls that returned events */

	/* perf_buffer */
	struct perf_buffer *pb;
	int map_fd;

	/* mmap-ring */
	int n_rings;
	int epoll_fd;
	struct ring {
		int fd;
		struct perf_event_mmap_page *meta;
		uint8_t *data;
		size_t size;	/* data bytes, a power of 2 */
	} rings[MAX_CPUS];
};

/* Room for @len bytes; when the buffer is full its records are handed
 * over (here: dropped) and it starts again. */
static inline uint8_t *staging_reserve(struct consumer *c, size_t len)
{
	uint8_t *p;

	if (c->staged + len > STAGING_SIZE)
		c->staged = 0;
	p = c->staging + c->staged;
	c->staged += len;
	return p;
}

static inline void account(struct consumer *c, const uint8_t *rec)
{
	struct perf_event_header h;
	uint64_t n;

	memcpy(&h, rec, sizeof(h));
	c->bytes += h.size;
	if (h.type == PERF_RECORD_SAMPLE) {
		c->received++;
	} else if (h.type == PERF_RECORD_LOST) {
		memcpy(&n, rec + sizeof(h) + 8, 8);	/* {u64 id, lost} */
		c->lost += n;
	}
}

static struct perf_event_attr tracepoint_attr(int overwrite)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = (uint64_t)tp_id;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_RAW | PERF_SAMPLE_TIME;
	attr.watermark = 1;
	attr.wakeup_watermark = wakeup_bytes;
	attr.write_backward = !!overwrite;
	/* The kernel's count of lost samples, read at the end. */
	attr.read_format = PERF_FORMAT_LOST;
	return attr;
}

/* ---- libbpf perf_buffer -------------------------------------------------- */

static enum bpf_perf_event_ret pb_event(void *ctx, int cpu,
					struct perf_event_header *e)
{
	struct consumer *c = ctx;
	uint8_t *dst = staging_reserve(c, e->size);

	(void)cpu;
	memcpy(dst, e, e->size);
	account(c, dst);
	return LIBBPF_PERF_EVENT_CONT;
}

static int pb_open(struct consumer *c)
{
	struct perf_event_attr attr = tracepoint_attr(0);
	int cpus = libbpf_num_possible_cpus();

	if (cpus <= 0)
		return -1;
	c->map_fd = bpf_map_create(BPF_MAP_TYPE_PERF_EVENT_ARRAY, "ringbench",
				   4, 4, (uint32_t)cpus, NULL);
	if (c->map_fd < 0)
		return -1;
	c->pb = perf_buffer__new_raw(c->map_fd, ring_pages, &attr, pb_event, c,
				     NULL);
	if (!c->pb) {
		close(c->map_fd);
		return -1;
	}
	return 0;
}

/*
 * perf_buffer__poll() is epoll_wait() and then the ready buffers' records;
 * the same done in two steps, to time the second one.
 */
static void pb_run(struct consumer *c)
{
	struct epoll_event ev[MAX_CPUS];
	int fd = perf_buffer__epoll_fd(c->pb);
	uint64_t t0;
	int n;

	while (!__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE)) {
		n = epoll_wait(fd, ev, MAX_CPUS, 10);
		if (n <= 0)
			continue;
		c->wakeups++;
		t0 = ticks();
		perf_buffer__consume(c->pb);
		c->cycles += ticks() - t0;
	}
	t0 = ticks();
	perf_buffer__consume(c->pb);
	c->cycles += ticks() - t0;
}

/* PERF_FORMAT_LOST of perf event @fd: read() gives {u64 value, lost}. */
static uint64_t read_lost(int fd)
{
	uint64_t v[2];

	return read(fd, v, sizeof(v)) == (ssize_t)sizeof(v) ? v[1] : 0;
}

static void pb_close(struct consumer *c)
{
	size_t i;

	for (i = 0; i < perf_buffer__buffer_cnt(c->pb); i++)
		c->kernel_lost += read_lost(perf_buffer__buffer_fd(c->pb, i));
	perf_buffer__free(c->pb);
	close(c->map_fd);
}

/* ---- hand-written mmap ring reader --------------------------------------- */

static int ring_open(struct ring *r, int cpu, int overwrite)
{
	struct perf_event_attr attr = tracepoint_attr(overwrite);
	size_t len = (size_t)(ring_pages + 1) * page_size;
	void *base;

	r->fd = (int)syscall(__NR_perf_event_open, &attr, -1, cpu, -1,
			     PERF_FLAG_FD_CLOEXEC);
	if (r->fd < 0)
		return -1;
	/* Mapped read-only, the ring overwrites: the kernel ignores data_tail. */
	base = mmap(NULL, len, overwrite ? PROT_READ : PROT_READ | PROT_WRITE,
		    MAP_SHARED, r->fd, 0);
	if (base == MAP_FAILED) {
		close(r->fd);
		return -1;
	}
	r->meta = base;
	r->data = (uint8_t *)base + page_size;
	r->size = (size_t)ring_pages * page_size;
	return 0;
}

static void ring_close(struct ring *r)
{
	munmap(r->meta, r->size + page_size);
	close(r->fd);
}

/* Copies every waiting record into the staging buffer, then frees them. */
static void ring_drain(struct consumer *c, struct ring *r)
{
	uint64_t head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->meta->data_tail;	/* only we write it */
	size_t mask = r->size - 1;

	while (tail < head) {
		size_t off = (size_t)tail & mask, len, first;
		struct perf_event_header h;
		uint8_t *dst;

		/* Records are 8-byte aligned: a header never wraps. */
		memcpy(&h, r->data + off, sizeof(h));
		len = h.size;
		if (len < sizeof(h))
			break;
		first = len < r->size - off ? len : r->size - off;
		dst = staging_reserve(c, len);
		memcpy(dst, r->data + off, first);
		if (first < len)
			memcpy(dst + first, r->data, len - first);
		account(c, dst);
		tail += len;
	}
	__atomic_store_n(&r->meta->data_tail, tail, __ATOMIC_RELEASE);
}

static int mr_open(struct consumer *c)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct epoll_event ev;
	int i;

	if (cpus < 1 || cpus > MAX_CPUS)
		return -1;
	c->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (c->epoll_fd < 0)
		return -1;
	for (i = 0; i < cpus; i++) {
		if (ring_open(&c->rings[i], i, 0) < 0)
			return -1;
		c->n_rings++;
		ev.events = EPOLLIN;
		ev.data.ptr = &c->rings[i];
		if (epoll_ctl(c->epoll_fd, EPOLL_CTL_ADD, c->rings[i].fd,
			      &ev) < 0)
			return -1;
	}
	return 0;
}

static void mr_run(struct consumer *c)
{
	struct epoll_event ev[MAX_CPUS];
	uint64_t t0;
	int i, n;

	while (!__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE)) {
		n = epoll_wait(c->epoll_fd, ev, MAX_CPUS, 10);
		if (n <= 0)
			continue;
		c->wakeups++;
		t0 = ticks();
		for (i = 0; i < n; i++)
			ring_drain(c, ev[i].data.ptr);
		c->cycles += ticks() - t0;
	}
	t0 = ticks();
	for (i = 0; i < c->n_rings; i++)
		ring_drain(c, &c->rings[i]);
	c->cycles += ticks() - t0;
}

static void mr_close(struct consumer *c)
{
	int i;

	for (i = 0; i < c->n_rings; i++) {
		c->kernel_lost += read_lost(c->rings[i].fd);
		ring_close(&c->rings[i]);
	}
	c->n_rings = 0;
	close(c->epoll_fd);
}

/* ---- one run ------------------------------------------------------------- */

static int n_cpus;

/* Pins the calling thread to @cpu if there is more than one CPU. */
static void pin(int cpu)
{
	cpu_set_t set;

	if (n_cpus < 2)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		die("pthread_setaffinity_np");
}

/* Undoes pin(). */
static void pin_all(void)
{
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	for (i = 0; i < n_cpus && i < CPU_SETSIZE; i++)
		CPU_SET(i, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static void *consumer_main(void *arg)
{
	struct consumer *c = arg;
	struct rusage ru;
	double t0;

	pin(1);
	t0 = now(CLOCK_THREAD_CPUTIME_ID);

	if (c->method == PERF_BUFFER)
		pb_run(c);
	else
		mr_run(c);
	c->cpu = now(CLOCK_THREAD_CPUTIME_ID) - t0;
	getrusage(RUSAGE_THREAD, &ru);
	c->rusage = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		    (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	return NULL;
}

struct writer {
	uint32_t failed;
	double wall;
};

static void *writer_main(void *arg)
{
	struct writer *w = arg;
	double t0;
	uint32_t i;

	pin(0);
	t0 = now(CLOCK_MONOTONIC);
	for (i = 0; i < n_events; i++)
		w->failed += EH_WRITE(bench_provider, "Tick", EH_LEVEL(4),
				      EH_KEYWORD(1), EH_UINT32("seq", i),
				      EH_UINT32("value", 7)) != 0;
	w->wall = now(CLOCK_MONOTONIC) - t0;
	return NULL;
}

struct result {
	double us_per_event;	/* consumer's processing (TSC) */
	double cpu_per_event;	/* consumer's thread CPU time */
	uint64_t received, lost, kernel_lost;
	uint32_t failed;
};

/* Run @rep of consumer @m; rep 0 is a warm-up and prints nothing. */
static struct result run(enum method m, uint8_t *staging, int rep)
{
	struct consumer c;
	struct writer w = { 0, 0 };
	struct result res;
	pthread_t ct, wt;
	int err;

	memset(&c, 0, sizeof(c));
	c.method = m;
	c.staging = staging;
	err = m == PERF_BUFFER ? pb_open(&c) : mr_open(&c);
	if (err)
		die(method_names[m]);
	if (!EH_ENABLED(bench_provider, 4, 1)) {
		errno = ENODEV;
		die("the tracepoint is not enabled");
	}
	if (pthread_create(&ct, NULL, consumer_main, &c) ||
	    pthread_create(&wt, NULL, writer_main, &w))
		die("pthread_create");
	pthread_join(wt, NULL);
	__atomic_store_n(&c.stop, 1, __ATOMIC_RELEASE);
	pthread_join(ct, NULL);
	if (m == PERF_BUFFER)
		pb_close(&c);
	else
		mr_close(&c);

	/* Per event received: a lost event costs the consumer nothing. */
	res.us_per_event = c.received ?
		(double)c.cycles / tsc_per_us / (double)c.received : 0;
	res.cpu_per_event = c.received ? c.cpu * 1e6 / (double)c.received : 0;
	res.received = c.received;
	res.lost = c.lost;
	res.kernel_lost = c.kernel_lost;
	res.failed = w.failed;
	if (!rep)
		return res;
	printf("run %d %-11s written %u, received %llu, lost %llu (kernel count; %llu in PERF_RECORD_LOST), %.0f bytes a record; consumer %.3f us/event processing (TSC), thread CPU %.3f s = %.2f us/event (rusage %.3f s), %llu wake-ups; writer %.2f us/event\n",
	       rep, method_names[m], n_events - w.failed,
	       (unsigned long long)c.received,
	       (unsigned long long)c.kernel_lost, (unsigned long long)c.lost,
	       c.received ? (double)c.bytes / (double)c.received : 0.0,
	       res.us_per_event, c.cpu, res.cpu_per_event, c.rusage,
	       (unsigned long long)c.wakeups, w.wall * 1e6 / n_events);
	fflush(stdout);
	return res;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(double), cmp_double);
	return v[n / 2];
}

static void bench(void)
{
	double per[METHODS][16], cpu[METHODS][16], med[METHODS];
	uint64_t received[METHODS] = { 0 }, lost[METHODS] = { 0 };
	uint64_t kernel_lost[METHODS] = { 0 };
	uint8_t *staging = malloc(STAGING_SIZE);
	int rep, k, m;

	if (!staging)
		die("malloc");
	memset(staging, 0, STAGING_SIZE);
	/*
	 * Under QEMU TCG, code runs slower the first time (it is being
	 * translated): one unreported warm-up run of each consumer.
	 */
	for (m = 0; m < METHODS; m++)
		run((enum method)m, staging, 0);
	for (rep = 0; rep < repeats; rep++) {
		for (k = 0; k < METHODS; k++) {
			struct result r;

			/* Alternate which consumer goes first. */
			m = (k + rep) % METHODS;
			r = run((enum method)m, staging, rep + 1);
			per[m][rep] = r.us_per_event;
			cpu[m][rep] = r.cpu_per_event;
			received[m] += r.received;
			lost[m] += r.lost;
			kernel_lost[m] += r.kernel_lost;
		}
	}
	for (m = 0; m < METHODS; m++) {
		med[m] = median(per[m], repeats);
		printf("result %-11s consumer processing %.3f us/event (median; min %.3f, max %.3f), thread CPU %.2f us/event (median); received %llu of %llu, lost %llu (kernel count; %llu in PERF_RECORD_LOST)\n",
		       method_names[m], med[m], per[m][0], per[m][repeats - 1],
		       median(cpu[m], repeats),
		       (unsigned long long)received[m],
		       (unsigned long long)n_events * (uint64_t)repeats,
		       (unsigned long long)kernel_lost[m],
		       (unsigned long long)lost[m]);
	}
	if (med[MMAP_RING] > 0)
		printf("result perf_buffer / mmap-ring processing time: %.2f\n",
		       med[PERF_BUFFER] / med[MMAP_RING]);
	free(staging);
}

/* ---- flight recorder: an overwriting ring, read when stopped ------------- */

/* The "seq" field of one of our sample records, or -1. Record: header 8,
 * time 8, raw size 4, common header 8, eh_header 8, extension. */
static int64_t record_seq(const uint8_t *rec, size_t len)
{
	struct eh_extension ext;
	size_t off = 8 + 8 + 4 + 8 + sizeof(struct eh_header);
	uint32_t seq;

	if (len < off + sizeof(ext))
		return -1;
	memcpy(&ext, rec + off, sizeof(ext));
	off += sizeof(ext) + ext.size;
	if (len < off + 4)
		return -1;
	memcpy(&seq, rec + off, 4);
	return seq;
}

/*
 * One backward ring on CPU 0 (write_backward, read-only mmap): the writer,
 * pinned to CPU 0, writes 5 rings' worth of events; output is paused and
 * the ring read from data_head (newest) towards older records.
 */
static void flight_recorder(void)
{
	struct ring r;
	cpu_set_t set, old;
	uint32_t i, written = 5 * ring_pages * (uint32_t)page_size / RECORD_SIZE;
	uint64_t head, pos;
	int64_t newest = -1, oldest = -1, seq;
	uint32_t records = 0, lost_records = 0;
	uint8_t rec[512];

	if (ring_open(&r, 0, 1) < 0) {
		printf("flight: backward ring: %s\n", strerror(errno));
		return;
	}
	sched_getaffinity(0, sizeof(old), &old);
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	for (i = 0; i < written; i++)
		EH_WRITE(bench_provider, "Tick", EH_LEVEL(4), EH_KEYWORD(1),
			 EH_UINT32("seq", i), EH_UINT32("value", 7));
	sched_setaffinity(0, sizeof(old), &old);
	ioctl(r.fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1);

	head = __atomic_load_n(&r.meta->data_head, __ATOMIC_ACQUIRE);
	for (pos = head; pos - head < r.size;) {
		size_t off = (size_t)pos & (r.size - 1), len, first;
		struct perf_event_header h;

		memcpy(&h, r.data + off, sizeof(h));
		len = h.size;
		/* Stop at unwritten space or a record cut by the wrap. */
		if (len < sizeof(h) || len > sizeof(rec) ||
		    pos - head + len > r.size)
			break;
		first = len < r.size - off ? len : r.size - off;
		memcpy(rec, r.data + off, first);
		memcpy(rec + first, r.data, len - first);
		if (h.type == PERF_RECORD_SAMPLE) {
			seq = record_seq(rec, len);
			if (newest < 0)
				newest = seq;
			oldest = seq;
			records++;
		} else if (h.type == PERF_RECORD_LOST) {
			lost_records++;
		}
		pos += len;
	}
	printf("flight: overwriting ring (write_backward, read-only mmap, %u KiB) after %u events: %u newest kept, seq %lld down to %lld%s, %u PERF_RECORD_LOST\n",
	       (unsigned int)(r.size / 1024), written, records,
	       (long long)newest, (long long)oldest,
	       newest == (int64_t)written - 1 &&
			       oldest == newest - (int64_t)records + 1 ?
		       " (contiguous)" : " (NOT contiguous)",
	       lost_records);
	ring_close(&r);
}

/* ---- privileges: what uid 65534 may do ----------------------------------- */

static int silent_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static int sysctl_read(const char *path)
{
	char buf[32] = "";
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -100;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? atoi(buf) : -100;
}

static int sysctl_write(const char *path, int value)
{
	char buf[32];
	int fd = open(path, O_WRONLY | O_CLOEXEC), len;
	ssize_t n;

	if (fd < 0)
		return -1;
	len = snprintf(buf, sizeof(buf), "%d\n", value);
	n = write(fd, buf, (size_t)len);
	close(fd);
	return n == len ? 0 : -1;
}

#define PARANOID "/proc/sys/kernel/perf_event_paranoid"
#define UNPRIV_BPF "/proc/sys/kernel/unprivileged_bpf_disabled"

static const char *result_str(int ok)
{
	return ok ? "ok" : strerror(errno);
}

/* In a child: drop to uid 65534 and try each step a consumer needs. */
static void try_unprivileged(void)
{
	struct perf_event_attr attr = tracepoint_attr(0);
	struct perf_buffer *pb = NULL;
	char *path;
	int fd, ok;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid > 0) {
		waitpid(pid, NULL, 0);
		return;
	}
	if (setgroups(0, NULL) < 0 || setgid(65534) < 0 || setuid(65534) < 0)
		die("setuid");
	libbpf_set_print(silent_print);
	printf("priv:   paranoid %d, unprivileged_bpf_disabled %d:",
	       sysctl_read(PARANOID), sysctl_read(UNPRIV_BPF));

	path = tracefs_get_tracing_file("events/user_events/" TRACEPOINT "/id");
	fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	printf(" tracefs id %s;", result_str(fd >= 0));
	if (fd >= 0)
		close(fd);
	tracefs_put_tracing_file(path);

	fd = (int)syscall(__NR_perf_event_open, &attr, 0, -1, -1,
			  PERF_FLAG_FD_CLOEXEC);
	printf(" perf own-task %s;", result_str(fd >= 0));
	if (fd >= 0)
		close(fd);
	fd = (int)syscall(__NR_perf_event_open, &attr, -1, 0, -1,
			  PERF_FLAG_FD_CLOEXEC);
	printf(" perf CPU-wide %s;", result_str(fd >= 0));
	if (fd >= 0)
		close(fd);

	fd = bpf_map_create(BPF_MAP_TYPE_PERF_EVENT_ARRAY, "ringbench", 4, 4,
			    (uint32_t)libbpf_num_possible_cpus(), NULL);
	ok = fd >= 0;
	printf(" bpf PERF_EVENT_ARRAY map %s;", result_str(ok));
	if (ok) {
		pb = perf_buffer__new_raw(fd, ring_pages, &attr, pb_event,
					  NULL, NULL);
		printf(" perf_buffer__new_raw %s", result_str(pb != NULL));
		perf_buffer__free(pb);
		close(fd);
	} else {
		printf(" perf_buffer__new_raw impossible");
	}
	printf("\n");
	fflush(stdout);
	_exit(0);
}

static void privileges(void)
{
	int paranoid = sysctl_read(PARANOID);
	int unpriv_bpf = sysctl_read(UNPRIV_BPF);

	printf("priv: as uid 65534, with the tracepoint id known:\n");
	try_unprivileged();
	if (sysctl_write(PARANOID, -1) == 0)
		try_unprivileged();
	if (unpriv_bpf != 1 && sysctl_write(UNPRIV_BPF, 2) == 0)
		try_unprivileged();
	sysctl_write(PARANOID, paranoid);
	if (unpriv_bpf != 1)
		sysctl_write(UNPRIV_BPF, unpriv_bpf);
}

/* TSC ticks per microsecond, against CLOCK_MONOTONIC over 0.5 s on CPU 1. */
static void calibrate_tsc(void)
{
	double t0, t;
	uint64_t c0;

	pin(1);
	t0 = now(CLOCK_MONOTONIC);
	c0 = ticks();
	do
		t = now(CLOCK_MONOTONIC);
	while (t - t0 < 0.5);
	tsc_per_us = (double)(ticks() - c0) / ((t - t0) * 1e6);
	pin_all();
}

int main(int argc, char **argv)
{
	static const char *const systems[] = { "user_events", NULL };
	struct tep_handle *tep;
	struct tep_event *event;
	int opt, err;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((opt = getopt(argc, argv, "n:p:r:w:")) != -1) {
		switch (opt) {
		case 'n':
			n_events = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'p':
			ring_pages = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'r':
			repeats = atoi(optarg);
			break;
		case 'w':
			wakeup_bytes = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc || !n_events || repeats < 1 || repeats > 16 ||
	    !ring_pages || (ring_pages & (ring_pages - 1)))
		goto usage;
	page_size = (size_t)sysconf(_SC_PAGESIZE);
	n_cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (!wakeup_bytes)
		wakeup_bytes = ring_pages * (unsigned int)page_size / 4;

	err = EH_REGISTER(bench_provider);
	if (err) {
		fprintf(stderr, "ring-bench: EH_REGISTER: %s\n", strerror(err));
		return err == ENOENT || err == EACCES || err == EPERM ? 77 : 1;
	}
	tep = tracefs_local_events_system(NULL, systems);
	event = tep ? tep_find_event_by_name(tep, "user_events", TRACEPOINT) :
		      NULL;
	if (!event) {
		fprintf(stderr, "ring-bench: user_events:%s not in tracefs\n",
			TRACEPOINT);
		return 77;
	}
	tp_id = event->id;
	tep_free(tep);

	calibrate_tsc();
	printf("ring-bench: %u events a run, %u pages (%u KiB) a CPU, wakeup at %u bytes, %d CPUs, TSC %.0f MHz, libbpf %d.%d\n",
	       n_events, ring_pages, ring_pages * (unsigned int)page_size / 1024,
	       wakeup_bytes, n_cpus, tsc_per_us,
	       (int)libbpf_major_version(), (int)libbpf_minor_version());
	bench();
	flight_recorder();
	privileges();
	EH_UNREGISTER(bench_provider);
	return 0;
usage:
	fprintf(stderr,
		"usage: %s [-n EVENTS] [-p PAGES (power of 2)] [-r REPEATS (1-16)] [-w WAKEUP_BYTES]\n",
		argv[0]);
	return 2;
}
