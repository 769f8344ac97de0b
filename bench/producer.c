// SPDX-License-Identifier: MIT
/*
 * producer - what an EH_WRITE costs, disabled and enabled
 *
 *	producer host [-n N] [-r REPS]
 *		No kernel support needed. A disabled 5-field EH_WRITE in a
 *		loop against an empty loop and a hand-written relaxed
 *		load+test+branch loop; then the enabled path up to the
 *		writev() call, against storing the same values into a
 *		prepared buffer by hand.
 *	producer vm [-n N] [-r REPS] [-b KB]
 *		Needs user_events and root (the test VM). Enables the
 *		tracepoint through tracefs into the trace ring buffer
 *		(tracing_on=1, overwrite mode, buffer_size_kb=KB per CPU) and
 *		times N enabled EH_WRITE calls against a bare writev() of the
 *		same event bytes (captured with the interceptor backend) as
 *		one iovec and as the 8 iovecs of a non-gathering producer
 *		(write index, header, metadata, 5 fields), and against a
 *		hand-written producer (values into a prepared buffer, one
 *		iovec).
 *
 * Each measurement is N calls (host 100000000, vm 100000); REPS rounds
 * (host 9, vm 5) run the variants back to back, in a rotating order, and
 * the median is reported (on the host also the minimum, which a busy
 * machine disturbs less). Lines starting with "result " are for
 * bench/run-producer.sh. Exit status: 0, 1 on error, 77 when user_events
 * is not available (vm).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "producer.h"

#define TRACEFS "/sys/kernel/tracing"
#define MAX_REPS 99
#define CAPTURE_I 12345u

/* Registered in the VM; never registered on the host (stays disabled). */
EH_DEFINE_PROVIDER(bench_provider, BENCH_PROVIDER_NAME);

/*
 * Host only: never registered, its one tracepoint is marked enabled by
 * hand. With no user_events file open, a write runs the whole enabled
 * path and stops in the backend right before writev() (EBADF).
 */
EH_DEFINE_PROVIDER(bench_forced, BENCH_PROVIDER_NAME);

static const char *const bench_names[] = BENCH_NAMES;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(const double *v, int n)
{
	double s[MAX_REPS];

	memcpy(s, v, (size_t)n * sizeof(*s));
	qsort(s, (size_t)n, sizeof(*s), cmp_double);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

static double minimum(const double *v, int n)
{
	double m = v[0];
	int i;

	for (i = 1; i < n; i++)
		if (v[i] < m)
			m = v[i];
	return m;
}

static double time_loop(void (*loop)(uint32_t), uint32_t n)
{
	double t0 = now_ns();

	loop(n);
	return (now_ns() - t0) / n;
}

/* ---- the event's bytes ------------------------------------------------------ */

/* Write index (set in the VM), then the event as EH_WRITE makes it. */
static unsigned char ev[4 + EH_EVENT_MAX];
static size_t ev_len;		/* with the write index */
static size_t payload_off;	/* where the field values start */
static struct iovec iov1[1], iov8[8];

/*
 * Capture the event and cut it into the pieces a non-gathering producer
 * passes to writev(): write index, header, metadata, then each field.
 */
static int prepare_event(void)
{
	static const size_t fields[BENCH_FIELDS] = BENCH_FIELD_SIZES;
	size_t off, meta, payload = 0;
	uint16_t ext_size, ext_kind;
	long len;
	int k;

	len = bench_capture(CAPTURE_I, ev + 4, sizeof(ev) - 4);
	if (len < 0)
		return -1;
	ev_len = 4 + (size_t)len;
	for (k = 0; k < BENCH_FIELDS; k++)
		payload += fields[k];
	off = 4 + sizeof(struct eh_header);
	if (ev_len < off + sizeof(struct eh_extension))
		return -1;
	memcpy(&ext_size, ev + off, 2);
	memcpy(&ext_kind, ev + off + 2, 2);
	meta = sizeof(struct eh_extension) + ext_size;
	if (ext_kind != EH_EXT_METADATA || off + meta + payload != ev_len) {
		fprintf(stderr, "producer: unexpected event layout (kind %#x, "
			"%zu + %zu + %zu != %zu)\n", ext_kind, off, meta,
			payload, ev_len);
		return -1;
	}
	iov1[0].iov_base = ev;
	iov1[0].iov_len = ev_len;
	iov8[0].iov_base = ev;
	iov8[0].iov_len = 4;
	iov8[1].iov_base = ev + 4;
	iov8[1].iov_len = sizeof(struct eh_header);
	iov8[2].iov_base = ev + off;
	iov8[2].iov_len = meta;
	off += meta;
	payload_off = off;
	for (k = 0; k < BENCH_FIELDS; k++) {
		iov8[3 + k].iov_base = ev + off;
		iov8[3 + k].iov_len = fields[k];
		off += fields[k];
	}
	return 0;
}

/*
 * A hand-written producer: the same values, computed the same way, stored
 * into a prepared copy of the event. Returns the event's size.
 */
static unsigned char hand_buf[4 + EH_EVENT_MAX];

static inline size_t hand_fill(uint32_t x)
{
	int32_t count = (int32_t)x * 7 + 3;
	uint64_t square = (uint64_t)x * (uint64_t)x;
	double ratio = (double)x / 3.0;
	const char *name = bench_names[x & 3];
	uint32_t mixed = x ^ 0x5a5a5a5aU;
	unsigned char *p = hand_buf + payload_off;
	size_t len = strlen(name) + 1;

	memcpy(p, &count, 4);
	memcpy(p + 4, &square, 8);
	memcpy(p + 12, &ratio, 8);
	memcpy(p + 20, name, len);
	memcpy(p + 20 + len, &mixed, 4);
	return payload_off + 24 + len;
}

/* ---- host: the disabled path, and the enabled one without the kernel ------- */

/* Same loop, nothing in it (the asm keeps the loop and its counter). */
static __attribute__((noinline)) void empty_loop(uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		__asm__ volatile("" : : "r"(i));
}

static uint32_t lb_status;

static __attribute__((noinline, cold)) void lb_taken(uint32_t i)
{
	__asm__ volatile("" : : "r"(i) : "memory");
}

/* The limit: one relaxed load, test and branch per iteration. */
static __attribute__((noinline)) void load_branch_loop(uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (__builtin_expect(__atomic_load_n(&lb_status, __ATOMIC_RELAXED),
				     0))
			lb_taken(i);
}

static __attribute__((noinline)) void disabled_loop(uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		(void)BENCH_EVENT(bench_provider, i, bench_names);
}

static int host_err;

static __attribute__((noinline)) void userside_loop(uint32_t n)
{
	uint32_t i;
	int err = 0;

	for (i = 0; i < n; i++)
		err |= BENCH_EVENT(bench_forced, i, bench_names) ^ EBADF;
	if (err)
		host_err = 1;
}

static __attribute__((noinline)) void hand_fill_loop(uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		size_t len = hand_fill(i);

		__asm__ volatile("" : : "r"(hand_buf), "r"(len) : "memory");
	}
}

static int force_enable(void)
{
	struct eh_tracepoint *const *p;
	int count = 0;

	for (p = __start_eh_tp_bench_forced; p < __stop_eh_tp_bench_forced;
	     p++) {
		(*p)->write_index = 0;
		__atomic_store_n(&(*p)->status, 1, __ATOMIC_RELAXED);
		count++;
	}
	return count;
}

static int run_host(uint32_t n, int reps)
{
	static void (*const loops[5])(uint32_t) = { empty_loop,
						    load_branch_loop,
						    disabled_loop,
						    userside_loop,
						    hand_fill_loop };
	/* The enabled variants take ~50x longer: fewer calls. */
	static const uint32_t div[5] = { 1, 1, 1, 50, 50 };
	double t[5][MAX_REPS], m[5], lo[5];
	int r, k;

	if (prepare_event() != 0)
		return 1;
	memcpy(hand_buf, ev, ev_len);
	if (force_enable() != 1) {
		fprintf(stderr, "producer: expected 1 forced tracepoint\n");
		return 1;
	}
	for (k = 0; k < 5; k++)
		loops[k](n / div[k] / 10);	/* warm up */
	for (r = 0; r < reps; r++)
		for (k = 0; k < 5; k++) {
			int v = (r + k) % 5;

			t[v][r] = time_loop(loops[v], n / div[v]);
		}
	if (host_err) {
		fprintf(stderr, "producer: forced write did not reach the backend\n");
		return 1;
	}
	for (k = 0; k < 5; k++) {
		m[k] = median(t[k], reps);
		lo[k] = minimum(t[k], reps);
	}

	printf("host: %u calls per measurement (enabled: %u), %d rounds, "
	       "median (min)\n", n, n / div[3], reps);
	printf("  empty loop                     %7.3f (%.3f) ns/iter\n",
	       m[0], lo[0]);
	printf("  relaxed load+test+branch loop  %7.3f (%.3f) ns/iter\n",
	       m[1], lo[1]);
	printf("  disabled 5-field EH_WRITE      %7.3f (%.3f) ns/call  "
	       "%.2fx (%.2fx) empty loop\n", m[2], lo[2], m[2] / m[0],
	       lo[2] / lo[0]);
	printf("  enabled EH_WRITE up to writev  %7.2f (%.2f) ns/call\n",
	       m[3], lo[3]);
	printf("  hand-built, same values        %7.2f (%.2f) ns/call  "
	       "(values into a prepared buffer)\n", m[4], lo[4]);
	printf("result host_empty_ns=%.3f host_loadbranch_ns=%.3f "
	       "host_disabled_ns=%.3f host_ratio=%.2f host_userside_ns=%.2f "
	       "host_hand_ns=%.2f host_empty_min_ns=%.3f "
	       "host_disabled_min_ns=%.3f host_ratio_min=%.2f\n",
	       m[0], m[1], m[2], m[2] / m[0], m[3], m[4], lo[0], lo[2],
	       lo[2] / lo[0]);
	return 0;
}

/* ---- vm: the enabled path ---------------------------------------------------- */

static int write_file(const char *path, const char *text)
{
	size_t len = strlen(text);
	int fd = open(path, O_WRONLY | O_TRUNC);
	int ok;

	if (fd < 0) {
		fprintf(stderr, "producer: open %s: %s\n", path, strerror(errno));
		return -1;
	}
	ok = write(fd, text, len) == (ssize_t)len;
	if (!ok)
		fprintf(stderr, "producer: write %s: %s\n", path,
			strerror(errno));
	close(fd);
	return ok ? 0 : -1;
}

static void read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");

	buf[0] = 0;
	if (f) {
		if (fgets(buf, (int)size, f))
			buf[strcspn(buf, "\n")] = 0;
		fclose(f);
	}
	if (!buf[0])
		snprintf(buf, size, "?");
}

/* Sum "entries", "overrun" and "dropped events" over the CPUs' buffers. */
static void ring_stats(unsigned long long *entries, unsigned long long *overrun,
		       unsigned long long *dropped)
{
	char path[128], line[128];
	int cpu;

	*entries = *overrun = *dropped = 0;
	for (cpu = 0; cpu < 1024; cpu++) {
		unsigned long long v;
		FILE *f;

		snprintf(path, sizeof(path), TRACEFS "/per_cpu/cpu%d/stats", cpu);
		f = fopen(path, "r");
		if (!f)
			break;
		while (fgets(line, sizeof(line), f)) {
			if (sscanf(line, "entries: %llu", &v) == 1)
				*entries += v;
			else if (sscanf(line, "overrun: %llu", &v) == 1)
				*overrun += v;
			else if (sscanf(line, "dropped events: %llu", &v) == 1)
				*dropped += v;
		}
		fclose(f);
	}
}

/*
 * The bare writer has its own user_events file and registration of the
 * same tracepoint: the kernel's write index belongs to a file.
 */
struct bare {
	int fd;
	uint32_t status;
	int32_t write_index;
};

static int bare_register(struct bare *b, const char *name)
{
	char cmd[EH_COMMAND_MAX];
	struct eh__user_reg reg;

	b->fd = open(TRACEFS "/user_events_data", O_WRONLY | O_CLOEXEC);
	if (b->fd < 0) {
		fprintf(stderr, "producer: open user_events_data: %s\n",
			strerror(errno));
		return -1;
	}
	snprintf(cmd, sizeof(cmd), "%s %s", name, EH_COMMAND_TYPES);
	memset(&reg, 0, sizeof(reg));
	reg.size = sizeof(reg);
	reg.enable_bit = 0;
	reg.enable_size = sizeof(b->status);
	reg.enable_addr = (uint64_t)(uintptr_t)&b->status;
	reg.name_args = (uint64_t)(uintptr_t)cmd;
	if (ioctl(b->fd, EH__DIAG_IOCSREG, &reg) < 0) {
		fprintf(stderr, "producer: register %s: %s\n", cmd,
			strerror(errno));
		close(b->fd);
		return -1;
	}
	b->write_index = (int32_t)reg.write_index;
	return 0;
}

static void bare_unregister(struct bare *b)
{
	struct eh__user_unreg unreg;

	memset(&unreg, 0, sizeof(unreg));
	unreg.size = sizeof(unreg);
	unreg.disable_addr = (uint64_t)(uintptr_t)&b->status;
	ioctl(b->fd, EH__DIAG_IOCSUNREG, &unreg);
	close(b->fd);
}

static uint32_t vm_base = CAPTURE_I;	/* first event = the captured one */
static int vm_err;
static int bare_fd;

/* Ours: enabled EH_WRITE, values computed each time. */
static __attribute__((noinline)) void ours_loop(uint32_t n)
{
	uint32_t i, base = vm_base;
	int err = 0;

	for (i = 0; i < n; i++)
		err |= BENCH_EVENT(bench_provider, base + i, bench_names);
	vm_base = base + n;
	if (err)
		vm_err = err;
}

static __attribute__((noinline)) void bare_loop(const struct iovec *iov,
						int cnt, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (writev(bare_fd, iov, cnt) < 0)
			vm_err = errno;
}

static void bare1_loop(uint32_t n)
{
	bare_loop(iov1, 1, n);
}

static void bare8_loop(uint32_t n)
{
	bare_loop(iov8, 8, n);
}

static __attribute__((noinline)) void hand_loop(uint32_t n)
{
	uint32_t i, base = vm_base;
	struct iovec iov;

	iov.iov_base = hand_buf;
	for (i = 0; i < n; i++) {
		iov.iov_len = hand_fill(base + i);
		if (writev(bare_fd, &iov, 1) < 0)
			vm_err = errno;
	}
	vm_base = base + n;
}

#define VM_VARIANTS 4

static int run_vm(uint32_t n, int reps, unsigned int buffer_kb)
{
	static void (*const loops[VM_VARIANTS])(uint32_t) = {
		ours_loop, bare1_loop, bare8_loop, hand_loop
	};
	static const char *const label[VM_VARIANTS] = {
		"ours: EH_WRITE, enabled", "bare writev, 1 iovec",
		"bare writev, 8 iovecs", "hand-built + writev, 1 iovec"
	};
	unsigned long long entries, overrun, dropped, written;
	double t[VM_VARIANTS][MAX_REPS], ratio[3][MAX_REPS], m[VM_VARIANTS];
	double res_ns;
	char name[EH_NAME_MAX], path[EH_NAME_MAX + 64], buf[64];
	char clocksource[64], cur_tracer[64];
	struct timespec res;
	struct bare bare;
	cpu_set_t cpus;
	int err, r, k, rc = 1;

	if (access(TRACEFS "/user_events_data", W_OK) != 0) {
		printf("vm: skipped: no writable " TRACEFS
		       "/user_events_data (needs CONFIG_USER_EVENTS and root)\n");
		return 77;
	}
	/* One CPU: no migrations between the variants. */
	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	sched_setaffinity(0, sizeof(cpus), &cpus);

	if (prepare_event() != 0)
		return 1;
	err = EH_REGISTER(bench_provider);
	if (err) {
		fprintf(stderr, "producer: EH_REGISTER: %s\n", strerror(err));
		return 1;
	}
	eh_format_tracepoint_name(name, sizeof(name), BENCH_PROVIDER_NAME,
				  BENCH_LEVEL, BENCH_KEYWORD, "");
	if (bare_register(&bare, name) != 0)
		goto out_provider;
	bare_fd = bare.fd;
	memcpy(ev, &bare.write_index, 4);
	memcpy(hand_buf, ev, ev_len);

	/*
	 * The realistic case: recorded into the ring buffer, which
	 * overwrites its oldest events when full (so it never blocks a
	 * writer, and no write is cut short by a full buffer).
	 */
	snprintf(buf, sizeof(buf), "%u", buffer_kb);
	snprintf(path, sizeof(path), TRACEFS "/events/user_events/%s/enable",
		 name);
	if (write_file(TRACEFS "/tracing_on", "1") ||
	    write_file(TRACEFS "/options/overwrite", "1") ||
	    write_file(TRACEFS "/buffer_size_kb", buf) ||
	    write_file(TRACEFS "/trace", "") || write_file(path, "1"))
		goto out_disable;
	if (!(__atomic_load_n(&bare.status, __ATOMIC_RELAXED) & 1) ||
	    !EH_ENABLED(bench_provider, BENCH_LEVEL, BENCH_KEYWORD)) {
		fprintf(stderr, "producer: %s is not enabled after writing 1 "
			"to %s\n", name, path);
		goto out_disable;
	}

	read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		  clocksource, sizeof(clocksource));
	read_line(TRACEFS "/current_tracer", cur_tracer, sizeof(cur_tracer));
	clock_getres(CLOCK_MONOTONIC, &res);
	printf("vm: tracepoint %s enabled; tracing_on=1, overwrite=1, "
	       "buffer_size_kb=%u, tracer %s\n", name, buffer_kb, cur_tracer);
	printf("vm: event %zu bytes + 4 (write index); clocksource %s, "
	       "resolution %.0f us\n", ev_len - 4, clocksource,
	       ((double)res.tv_sec * 1e9 + (double)res.tv_nsec) / 1e3);
	printf("vm: %u calls per measurement, %d rounds, variants in "
	       "rotating order, median\n", n, reps);

	for (k = 0; k < VM_VARIANTS; k++)
		loops[k](n / 20 + 1);	/* warm up */
	for (r = 0; r < reps; r++) {
		for (k = 0; k < VM_VARIANTS; k++) {
			int v = (r + k) % VM_VARIANTS;

			t[v][r] = time_loop(loops[v], n);
		}
		for (k = 0; k < 3; k++)
			ratio[k][r] = t[0][r] / t[k + 1][r];
		printf("  round %d: ours %.0f, bare1 %.0f, bare8 %.0f, hand %.0f "
		       "ns/call\n", r + 1, t[0][r], t[1][r], t[2][r], t[3][r]);
	}
	if (vm_err) {
		fprintf(stderr, "producer: a write failed: %s\n",
			strerror(vm_err));
		goto out_disable;
	}
	res_ns = (double)res.tv_sec * 1e9 + (double)res.tv_nsec;
	if (minimum(t[1], reps) * n < 50 * res_ns)
		printf("  warning: a measurement takes under 50 clock ticks "
		       "(%.0f us): raise -n\n", res_ns / 1e3);
	ring_stats(&entries, &overrun, &dropped);
	written = VM_VARIANTS * ((unsigned long long)reps * n + n / 20 + 1);

	for (k = 0; k < VM_VARIANTS; k++) {
		m[k] = median(t[k], reps);
		printf("  %-30s %8.1f ns/call\n", label[k], m[k]);
	}
	printf("  ours / bare 1-iovec writev:  %.3f  (median of the rounds' "
	       "ratios %.3f)\n", m[0] / m[1], median(ratio[0], reps));
	printf("  ours / bare 8-iovec writev:  %.3f  (median of the rounds' "
	       "ratios %.3f)\n", m[0] / m[2], median(ratio[1], reps));
	printf("  ours / hand-built:           %.3f  (median of the rounds' "
	       "ratios %.3f)\n", m[0] / m[3], median(ratio[2], reps));
	printf("  ring buffer: %llu entries + %llu overwritten, %llu dropped, "
	       "for %llu writes\n", entries, overrun, dropped, written);
	printf("result vm_ours_ns=%.1f vm_bare1_ns=%.1f vm_bare8_ns=%.1f "
	       "vm_hand_ns=%.1f vm_ratio1=%.3f vm_ratio8=%.3f "
	       "vm_ratio_hand=%.3f vm_event_bytes=%zu\n", m[0], m[1], m[2],
	       m[3], m[0] / m[1], m[0] / m[2], m[0] / m[3], ev_len - 4);
	rc = 0;

out_disable:
	write_file(path, "0");
	bare_unregister(&bare);
out_provider:
	EH_UNREGISTER(bench_provider);
	return rc;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: producer host [-n N] [-r REPS]\n"
		"       producer vm [-n N] [-r REPS] [-b BUFFER_KB]\n");
	return 2;
}

int main(int argc, char **argv)
{
	unsigned long n = 0, b = 1024;
	int host, reps = 5, reps_set = 0, opt;

	if (argc < 2)
		return usage();
	if (strcmp(argv[1], "host") == 0)
		host = 1;
	else if (strcmp(argv[1], "vm") == 0)
		host = 0;
	else
		return usage();
	optind = 2;
	while ((opt = getopt(argc, argv, "n:r:b:")) != -1) {
		switch (opt) {
		case 'n':
			n = strtoul(optarg, NULL, 0);
			break;
		case 'r':
			reps = atoi(optarg);
			reps_set = 1;
			break;
		case 'b':
			b = strtoul(optarg, NULL, 0);
			break;
		default:
			return usage();
		}
	}
	if (reps < 1 || reps > MAX_REPS || n > UINT32_MAX || b < 1 ||
	    optind != argc)
		return usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
#if !defined(__OPTIMIZE__) || defined(__SANITIZE_ADDRESS__)
	printf("note: built without optimisation or with sanitizers: "
	       "the numbers do not mean much\n");
#endif
	if (host)
		return run_host(n ? (uint32_t)n : 100000000u, reps_set ? reps : 9);
	return run_vm(n ? (uint32_t)n : 100000u, reps, (unsigned int)b);
}
