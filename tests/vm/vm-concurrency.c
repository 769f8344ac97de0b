// SPDX-License-Identifier: MIT
/*
 * vm-concurrency - 16 threads and a forked child write at once; the trace
 * holds every event exactly once
 *
 * usage: vm-concurrency [EVENTS_PER_WRITER]     (default 2000)
 *
 * Run as root in the test guest. The tracepoint is enabled through tracefs
 * with a per-CPU buffer big enough for all events (no overwriting), the
 * child is forked after registration (it inherits the data descriptor and
 * the kernel keeps its copy of the enable word up to date), and all 17
 * writers start together. Each event carries its writer, a sequence
 * number and the writer's pid; the ftrace records are read back with
 * libtracefs and every (writer, sequence) pair must appear exactly once.
 */
#include <pthread.h>
#include <sys/wait.h>
#include <tracefs.h>

#include <eventheader/eh-provider.h>

#include "vm-util.h"

static const char *const user_events_only[] = { "user_events", NULL };

EH_DEFINE_PROVIDER(conc_provider, "EhVmTest_Conc");

#define TRACEPOINT "EhVmTest_Conc_L4K1"
#define THREADS 16
#define WRITERS (THREADS + 1)	/* the last one is the child process */

static uint32_t per_writer = 2000;
static pthread_barrier_t start_line;

struct writer {
	pthread_t thread;
	uint32_t index;
	uint32_t failed;
};

static uint32_t write_all(uint32_t index)
{
	uint32_t seq, failed = 0;
	int32_t pid = (int32_t)getpid();

	for (seq = 0; seq < per_writer; seq++)
		failed += EH_WRITE(conc_provider, "Tick", EH_LEVEL(4),
				   EH_KEYWORD(1), EH_UINT32("writer", index),
				   EH_UINT32("seq", seq),
				   EH_PID("pid", pid)) != 0;
	return failed;
}

static void *thread_main(void *arg)
{
	struct writer *w = arg;

	pthread_barrier_wait(&start_line);
	w->failed = write_all(w->index);
	return NULL;
}

struct tally {
	uint8_t *seen;		/* [writer * per_writer + seq] */
	pid_t pids[WRITERS];	/* expected pid of each writer */
	uint32_t records, duplicates, malformed, wrong_pid;
	long long missed;
};

/* Event bytes after the 8-byte common header: eh_header, the metadata
 * extension, then {u32 writer, u32 seq, i32 pid}. */
static int count_record(struct tep_event *event, struct tep_record *rec,
			int cpu, void *ctx)
{
	struct tally *t = ctx;
	const uint8_t *p = (const uint8_t *)rec->data + 8;
	size_t size = rec->size > 8 ? (size_t)rec->size - 8 : 0;
	struct eh_header h;
	struct eh_extension ext;
	uint32_t writer, seq;
	int32_t pid;
	size_t off;

	if (!event || strcmp(event->name, TRACEPOINT) != 0)
		return 0;
	t->records++;
	if (rec->missed_events > 0)
		t->missed += rec->missed_events;
	if (size < sizeof(h) + sizeof(ext))
		goto malformed;
	memcpy(&h, p, sizeof(h));
	memcpy(&ext, p + sizeof(h), sizeof(ext));
	off = sizeof(h) + sizeof(ext) + ext.size;
	if (!(h.flags & EH_FLAG_EXTENSION) || ext.kind != EH_EXT_METADATA ||
	    off + 12 > size)
		goto malformed;
	memcpy(&writer, p + off, 4);
	memcpy(&seq, p + off + 4, 4);
	memcpy(&pid, p + off + 8, 4);
	if (writer >= WRITERS || seq >= per_writer)
		goto malformed;
	if (t->seen[writer * per_writer + seq]++)
		t->duplicates++;
	if (pid != t->pids[writer])
		t->wrong_pid++;
	return 0;
malformed:
	t->malformed++;
	return 0;
}

int main(int argc, char **argv)
{
	struct writer writers[THREADS];
	struct tally t = { 0 };
	uint32_t failed = 0, missing = 0, i, total;
	int go[2], err, status;
	struct tep_handle *tep;
	pid_t child;
	double t0, elapsed;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1)
		per_writer = (uint32_t)strtoul(argv[1], NULL, 0);
	if (per_writer == 0 || per_writer > 1000000) {
		fprintf(stderr, "usage: %s [EVENTS_PER_WRITER]\n", argv[0]);
		return 2;
	}
	total = per_writer * WRITERS;

	/* ~60 bytes a record: 16 MiB a CPU holds all of them on one CPU. */
	VM_CHECK(vm_tracefs_write("buffer_size_kb", "16384") == 0,
		 "ftrace buffer 16 MiB per CPU");
	VM_CHECK(vm_tracefs_write("tracing_on", "1") == 0 &&
			 vm_tracefs_write("trace", "") == 0,
		 "tracing on, buffer cleared");
	err = EH_REGISTER(conc_provider);
	VM_CHECK(err == 0, "EH_REGISTER() = %d", err);
	err = vm_event_file_write(TRACEPOINT, "enable", "1");
	VM_CHECK(err == 0 && EH_ENABLED(conc_provider, 4, 1),
		 "%s enabled", TRACEPOINT);

	if (pipe(go) < 0)
		vm_die("pipe");
	fflush(stdout);
	child = fork();
	if (child < 0)
		vm_die("fork");
	if (child == 0) {
		char c;

		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(255);
		failed = write_all(THREADS);
		_exit(failed > 254 ? 254 : (int)failed);
	}
	close(go[0]);

	pthread_barrier_init(&start_line, NULL, THREADS + 1);
	for (i = 0; i < THREADS; i++) {
		writers[i].index = i;
		writers[i].failed = 0;
		if (pthread_create(&writers[i].thread, NULL, thread_main,
				   &writers[i]) != 0)
			vm_die("pthread_create");
	}
	t0 = vm_now();
	if (write(go[1], "g", 1) != 1)
		vm_die("write");
	pthread_barrier_wait(&start_line);
	for (i = 0; i < THREADS; i++) {
		pthread_join(writers[i].thread, NULL);
		failed += writers[i].failed;
	}
	if (waitpid(child, &status, 0) < 0)
		vm_die("waitpid");
	elapsed = vm_now() - t0;
	VM_CHECK(failed == 0, "no EH_WRITE() of the %d threads failed (%u did)",
		 THREADS, failed);
	VM_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		 "no EH_WRITE() of the forked child failed (exit status 0x%x)",
		 status);
	printf("     %u events by %d writers in %.2f s (%.1f us per event)\n",
	       total, WRITERS, elapsed, elapsed * 1e6 / total);

	vm_event_file_write(TRACEPOINT, "enable", "0");
	t.seen = calloc(total, 1);
	if (!t.seen)
		vm_die("calloc");
	for (i = 0; i < THREADS; i++)
		t.pids[i] = getpid();
	t.pids[THREADS] = child;
	tep = tracefs_local_events_system(NULL, user_events_only);
	if (!tep)
		vm_die("tracefs_local_events");
	err = tracefs_iterate_raw_events(tep, NULL, NULL, 0, count_record, &t);
	VM_CHECK(err == 0, "ftrace records read");
	for (i = 0; i < total; i++)
		missing += !t.seen[i];
	VM_CHECK(t.records == total && missing == 0 && t.duplicates == 0,
		 "the trace has each of the %u events exactly once (%u records, %u missing, %u duplicated)",
		 total, t.records, missing, t.duplicates);
	VM_CHECK(t.malformed == 0 && t.wrong_pid == 0,
		 "every record is well formed and carries its writer's pid (%u malformed, %u wrong pid)",
		 t.malformed, t.wrong_pid);
	VM_CHECK(t.missed == 0 && vm_stats_sum("overrun") == 0 &&
			 vm_stats_sum("dropped events") == 0,
		 "the ring buffer dropped nothing (missed %lld, overrun %lld, dropped %lld)",
		 t.missed, vm_stats_sum("overrun"), vm_stats_sum("dropped events"));

	EH_UNREGISTER(conc_provider);
	VM_CHECK(vm_event_wait_gone(TRACEPOINT, 3000),
		 "%s left tracefs after EH_UNREGISTER() (the child has exited)",
		 TRACEPOINT);
	tep_free(tep);
	free(t.seen);
	return vm_summary("vm-concurrency");
}
