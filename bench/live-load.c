// SPDX-License-Identifier: MIT
/*
 * live-load - write EventHeader events at a set rate, for recorders to
 * keep up with (bench/run-live.sh)
 *
 *	live-load [-r RATE] [-d SECS] [-t THREADS] [-w SECS] [-s MS]
 *		Writes bench/producer's 5-field event (provider "EhBench",
 *		level 4, keyword 1: tracepoint EhBench_L4K1) at RATE events
 *		per second in all (default 0: as fast as it can) for SECS
 *		seconds (default 3) from THREADS threads (default 1). A
 *		thread writes what is due every millisecond (by
 *		CLOCK_MONOTONIC), so the load is even, not in bursts; a
 *		thread that falls behind writes without pause until it has
 *		caught up or the time is over. -w waits up to SECS for the
 *		tracepoint to be enabled, and -s MS more after that (a
 *		recorder enables its CPUs' events one after the other).
 *		-p PID: the CPU time of process PID (a recorder) from the
 *		start of the writes to 200 ms after their end, to the ns
 *		(its CPU-time clock), goes in the result as rec_cpu_s.
 *		-W SECS, with -p: also from SECS into the writes (the
 *		recorder warmed up) to the same end, as rec_steady_cpu_s,
 *		with the events written in that time as steady_written,
 *		and the part of it spent by the recorder's main thread
 *		(where ehrecord converts to nettrace) as
 *		rec_steady_main_cpu_s (to the ns from a task-clock perf
 *		counter or its schedstat, else in clock ticks from its
 *		stat; -1 when none is there), and which of those it was as
 *		rec_main_clock (counter, schedstat, ticks, or none).
 *	live-load -H
 *		Registers the provider and holds it until SIGTERM or SIGINT,
 *		so that EhBench_L4K1 is in tracefs for "perf record -e".
 *
 * Prints "live-load: start" as it starts writing, then the events written,
 * the rate achieved and its own CPU time, and a line "result written=N
 * ..." for bench/run-live.sh. An event counts as written when EH_WRITE
 * returned 0 (the kernel took it); writes while the tracepoint was
 * disabled (EBADF) and failed ones are counted apart. The pacing is as
 * fine as CLOCK_MONOTONIC: in a guest on the jiffies clock source, every
 * tick (4 ms at HZ=250) rather than every millisecond.
 * Exit status: 0; 1 on error (or -w timed out); 2 for a usage error; 77
 * when user_events is not available.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <linux/perf_event.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "producer.h"

#define MAX_THREADS 64
#define TICK_NS 1000000ll	/* pacing step: 1 ms */
#define CHUNK 256		/* writes between looks at the clock */

EH_DEFINE_PROVIDER(bench_provider, BENCH_PROVIDER_NAME);

static const char *const bench_names[] = BENCH_NAMES;

struct worker {
	pthread_t thread;
	int64_t start_ns;	/* shared start, CLOCK_MONOTONIC */
	int64_t end_ns;		/* deadline */
	int paced;		/* else as fast as it can */
	uint64_t rate;		/* events/s for this thread, when paced */
	uint64_t quota;		/* events in all, when paced */
	uint32_t base;		/* first value of i */
	/* results */
	uint64_t written;
	uint64_t shown;		/* written, for the main thread to read */
	uint64_t disabled;
	uint64_t failed;
	int first_error;
	int64_t last_ns;	/* when the last write returned */
};

static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

static void sleep_until(int64_t t)
{
	struct timespec ts = { (time_t)(t / 1000000000ll),
			       (long)(t % 1000000000ll) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

/* Write @n events; the counts go to @w. */
static void write_some(struct worker *w, uint64_t n)
{
	uint32_t i = w->base + (uint32_t)(w->written + w->disabled + w->failed);
	uint64_t k;

	for (k = 0; k < n; k++, i++) {
		int err = BENCH_EVENT(bench_provider, i, bench_names);

		if (!err) {
			w->written++;
		} else if (err == EBADF) {
			w->disabled++;
		} else {
			if (!w->failed++)
				w->first_error = err;
		}
	}
	w->last_ns = now_ns();
	__atomic_store_n(&w->shown, w->written, __ATOMIC_RELAXED);
}

static void *work(void *arg)
{
	struct worker *w = arg;
	int64_t t = w->start_ns, tick = w->start_ns;

	sleep_until(w->start_ns);
	while (!stop) {
		uint64_t done = w->written + w->disabled + w->failed;
		uint64_t due;

		if (t >= w->end_ns) {
			/* The last tick's due, if it kept up; not a backlog. */
			due = w->rate / 1000 + 1;
			if (w->paced && done < w->quota)
				write_some(w, w->quota - done < due ?
					      w->quota - done : due);
			break;
		}
		if (!w->paced) {
			write_some(w, CHUNK);
			t = w->last_ns;
			continue;
		}
		/* What is due by now, at most CHUNK at a time. */
		due = (uint64_t)((double)(t - w->start_ns) * 1e-9 *
				 (double)w->rate);
		if (due > w->quota)
			due = w->quota;
		if (due > done) {
			write_some(w, due - done > CHUNK ? CHUNK : due - done);
			t = w->last_ns;
			continue;
		}
		if (done >= w->quota)
			break;
		/* Caught up: sleep to the next tick. */
		while (tick <= t)
			tick += TICK_NS;
		sleep_until(tick);
		t = now_ns();
	}
	return NULL;
}

/* Up to @secs for the tracepoint to be enabled; 0 when it is. */
static int wait_enabled(double secs)
{
	int64_t end = now_ns() + (int64_t)(secs * 1e9);

	while (!EH_ENABLED(bench_provider, BENCH_LEVEL, BENCH_KEYWORD)) {
		if (stop || now_ns() >= end)
			return -1;
		sleep_until(now_ns() + TICK_NS);
	}
	return 0;
}

static double cpu_seconds(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/*
 * The CPU time of the main thread of process @pid, in seconds from some
 * start (a thread's CPU-time clock is its own process's to read): a
 * task-clock perf counter on it, opened at the first call (the
 * scheduler's time, to the ns, in any kernel with perf events); else its
 * schedstat's time on a CPU, to the ns; or, where the kernel keeps
 * neither, its stat's user and system times, in clock ticks. -1 when
 * none can be read. main_clock says which was read.
 */
static const char *main_clock = "none";

static double main_thread_seconds(long pid)
{
	static int counter = -2;	/* -2: not tried yet */
	unsigned long long ns, ut, st;
	char path[64], buf[1024], *p;
	uint64_t count;
	size_t n;
	FILE *f;
	int k;

	if (counter == -2) {
		struct perf_event_attr a = {
			.type = PERF_TYPE_SOFTWARE,
			.size = sizeof(a),
			.config = PERF_COUNT_SW_TASK_CLOCK,
		};

		counter = (int)syscall(SYS_perf_event_open, &a, (pid_t)pid, -1,
				       -1, PERF_FLAG_FD_CLOEXEC);
		if (counter < 0)
			counter = -1;
	}
	if (counter >= 0) {
		if (read(counter, &count, sizeof(count)) != sizeof(count))
			return -1;
		main_clock = "counter";
		return (double)count / 1e9;
	}
	snprintf(path, sizeof(path), "/proc/%ld/task/%ld/schedstat", pid, pid);
	f = fopen(path, "r");
	if (f) {
		k = fscanf(f, "%llu", &ns);
		fclose(f);
		if (k != 1)
			return -1;
		main_clock = "schedstat";
		return (double)ns / 1e9;
	}
	snprintf(path, sizeof(path), "/proc/%ld/task/%ld/stat", pid, pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	/* utime and stime: fields 14 and 15, 11 after the comm's ")" */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u "
			 "%llu %llu", &ut, &st) != 2)
		return -1;
	main_clock = "ticks";
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

static int hold(void)
{
	sigset_t none;

	sigemptyset(&none);
	printf("live-load: holding %s_L%dK%d until SIGTERM\n",
	       BENCH_PROVIDER_NAME, BENCH_LEVEL, BENCH_KEYWORD);
	fflush(stdout);
	while (!stop)
		sigsuspend(&none);
	return 0;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: live-load [-r RATE] [-d SECS] [-t THREADS] [-w SECS] [-s MS]\n"
		"                 [-p PID [-W SECS]]\n"
		"       live-load -H\n");
	return 2;
}

int main(int argc, char **argv)
{
	static struct worker w[MAX_THREADS];
	unsigned char ev[EH_EVENT_MAX];
	double secs = 3, wait = -1, settle_ms = 0, cpu0, elapsed, rec_cpu = -1;
	double warm = 0, steady_cpu = -1, main0 = -1, steady_main = -1;
	unsigned long long steady_from = 0;
	clockid_t rec_clock = 0;
	struct timespec r0, r1, rw;
	long rec_pid = 0;
	unsigned long long rate = 0, written = 0, disabled = 0, failed = 0;
	int64_t start, last = 0;
	struct sigaction sa;
	int threads = 1, holding = 0, first_error = 0, c, i, err;
	long ev_bytes;
	char *end;

	while ((c = getopt(argc, argv, "r:d:t:w:s:p:W:H")) != -1) {
		switch (c) {
		case 'p':
			rec_pid = strtol(optarg, &end, 10);
			if (*end || rec_pid <= 0 ||
			    clock_getcpuclockid((pid_t)rec_pid, &rec_clock)) {
				fprintf(stderr, "live-load: no CPU clock for process %s\n",
					optarg);
				return usage();
			}
			break;
		case 'r':
			errno = 0;
			rate = strtoull(optarg, &end, 10);
			if (errno || *end || optarg[0] == '-')
				return usage();
			break;
		case 'd':
			secs = strtod(optarg, &end);
			if (*end || !(secs > 0 && secs < 86400))
				return usage();
			break;
		case 't':
			threads = atoi(optarg);
			if (threads < 1 || threads > MAX_THREADS)
				return usage();
			break;
		case 'w':
			wait = strtod(optarg, &end);
			if (*end || !(wait >= 0))
				return usage();
			break;
		case 's':
			settle_ms = strtod(optarg, &end);
			if (*end || !(settle_ms >= 0))
				return usage();
			break;
		case 'W':
			warm = strtod(optarg, &end);
			if (*end || !(warm > 0))
				return usage();
			break;
		case 'H':
			holding = 1;
			break;
		default:
			return usage();
		}
	}
	if (optind != argc || (warm && (!rec_pid || warm >= secs)))
		return usage();

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);	/* also when started with it ignored */
	sigaction(SIGTERM, &sa, NULL);

	/* The size of the event (interceptor backend), before registering. */
	ev_bytes = bench_capture(0, ev, sizeof(ev));
	if (ev_bytes < 0)
		return 1;

	err = EH_REGISTER(bench_provider);
	if (err) {
		fprintf(stderr, "live-load: user_events unavailable: %s\n",
			strerror(err));
		return err == ENOENT || err == EACCES || err == ENODEV ? 77 : 1;
	}
	if (holding) {
		err = hold();
		EH_UNREGISTER(bench_provider);
		return err;
	}
	if (wait >= 0 && wait_enabled(wait)) {
		fprintf(stderr, "live-load: %s_L%dK%d not enabled in %g s\n",
			BENCH_PROVIDER_NAME, BENCH_LEVEL, BENCH_KEYWORD, wait);
		EH_UNREGISTER(bench_provider);
		return 1;
	}
	if (settle_ms > 0)
		sleep_until(now_ns() + (int64_t)(settle_ms * 1e6));

	/* For bench/run-live.sh, which samples the recorder's CPU time now. */
	printf("live-load: start\n");
	fflush(stdout);
	if (rec_pid && clock_gettime(rec_clock, &r0))
		rec_pid = 0;
	cpu0 = cpu_seconds();
	/* A shared start a little ahead, so no thread has a head start. */
	start = now_ns() + 2 * TICK_NS * threads;
	for (i = 0; i < threads; i++) {
		uint64_t r = rate / (uint64_t)threads +
			     ((uint64_t)i < rate % (uint64_t)threads);

		w[i].start_ns = start;
		w[i].end_ns = start + (int64_t)(secs * 1e9);
		w[i].paced = rate != 0;
		w[i].rate = r;
		w[i].quota = (uint64_t)((double)r * secs + 0.5);
		w[i].base = (uint32_t)i << 26;
		w[i].last_ns = start;
		err = pthread_create(&w[i].thread, NULL, work, &w[i]);
		if (err) {
			fprintf(stderr, "live-load: thread: %s\n", strerror(err));
			stop = 1;
			threads = i;
			break;
		}
	}
	/* The steady part: from @warm s in, the counts as they are then. */
	if (warm && threads) {
		sleep_until(start + (int64_t)(warm * 1e9));
		main0 = main_thread_seconds(rec_pid);
		if (!clock_gettime(rec_clock, &rw)) {
			for (i = 0; i < threads; i++)
				steady_from += __atomic_load_n(&w[i].shown,
							       __ATOMIC_RELAXED);
		} else {
			warm = 0;
		}
	}
	for (i = 0; i < threads; i++) {
		pthread_join(w[i].thread, NULL);
		written += w[i].written;
		disabled += w[i].disabled;
		failed += w[i].failed;
		if (!first_error)
			first_error = w[i].first_error;
		if (w[i].last_ns > last)
			last = w[i].last_ns;
	}
	cpu0 = cpu_seconds() - cpu0;
	if (rec_pid) {
		sleep_until(now_ns() + 200 * TICK_NS);
		if (!clock_gettime(rec_clock, &r1)) {
			rec_cpu = (double)(r1.tv_sec - r0.tv_sec) +
				  (double)(r1.tv_nsec - r0.tv_nsec) / 1e9;
			if (warm)
				steady_cpu = (double)(r1.tv_sec - rw.tv_sec) +
					     (double)(r1.tv_nsec - rw.tv_nsec) /
					     1e9;
			if (warm && main0 >= 0 &&
			    (steady_main = main_thread_seconds(rec_pid)) >= 0)
				steady_main -= main0;
		}
	}
	EH_UNREGISTER(bench_provider);

	elapsed = (double)(last - start) / 1e9;
	if (elapsed <= 0)
		elapsed = 1e-9;
	printf("live-load: %llu events of %ld bytes in %.3f s from %d thread%s: "
	       "%.0f/s (target ", written, ev_bytes, elapsed, threads,
	       threads == 1 ? "" : "s", (double)written / elapsed);
	if (rate)
		printf("%llu/s", rate);
	else
		printf("as fast as possible");
	printf("); %.2f us CPU per event\n",
	       written ? cpu0 * 1e6 / (double)written : 0.0);
	if (disabled || failed)
		printf("live-load: %llu writes while disabled, %llu failed (%s)\n",
		       disabled, failed,
		       failed ? strerror(first_error) : "no error");
	printf("result written=%llu disabled=%llu failed=%llu seconds=%.4f "
	       "rate=%.0f target=%llu threads=%d cpu_s=%.4f event_bytes=%ld "
	       "rec_cpu_s=%.6f rec_steady_cpu_s=%.6f steady_written=%llu "
	       "rec_steady_main_cpu_s=%.6f rec_main_clock=%s\n",
	       written, disabled, failed, elapsed, (double)written / elapsed,
	       rate, threads, cpu0, ev_bytes, rec_cpu, steady_cpu,
	       steady_cpu < 0 ? 0 : written - steady_from, steady_main,
	       steady_main < 0 ? "none" : main_clock);
	return failed ? 1 : 0;
}
