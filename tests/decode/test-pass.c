// SPDX-License-Identifier: MIT
/*
 * test-pass.c - ehd_reader_pass(): the events the reader writes to a
 * nettrace writer itself come out byte for byte as ehd_reader_next() and
 * ehd_writer_event() write them, counted the same, and they are most of
 * a recording's.
 *
 * The recording is made here, as a live session writes its stream:
 * EventHeader events from the producer (through the interceptor) in the
 * samples of two user_events tracepoints, whose formats come from a
 * tracefs made in a temporary folder; two CPUs written in turns, each
 * turn ended by a round; threads named, then one renamed, by COMM
 * records; a tracepoint whose events change type; activity ids; a
 * damaged payload; stacks on one tracepoint; enough events for several
 * nettrace windows.
 *
 * The reader's short way for plain samples (ehd__perf_next_places()) gives
 * the same events as its general one, so only a count can tell it is
 * taken: the test is linked with --wrap=ehd__perf_next_places, and counts.
 * It is linked with --wrap=realloc too, to count the library's large
 * allocations and refuse one of them.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <tracefs.h>

#include <eventheader/eh-provider.h>
#include <ehdecode/reader.h>
#include <ehdecode/writer.h>

#include "formats/perf/perf-file.h"
#include "formats/perf/perf-stream.h"
#include "perf-build.h"
#include "test-faults.h"
#include "test-files.h"

EH_DEFINE_PROVIDER(pass_provider, "NtPass");

#define TICKS 64	/* Tick events of the capture, of one type */
#define ROUNDS 40
#define TURN 250	/* events of a CPU in each turn */
#define EVENTS (2 * ROUNDS * TURN)	/* of the recording */
#define TP_INFO 2000	/* tracefs ids: NtPass_L4K1 */
#define TP_VERBOSE 2001	/* NtPass_L5K1 */
#define ONLY_TICKS 16000	/* events of one type from there on */
/*
 * g.late: CPU 1's turn of round LATE_ROUND has times LATE_BY older, those
 * of three rounds before: the reader has given out newer samples when it
 * gets them. The round is past ONLY_TICKS, so that all its samples are
 * rows.
 */
#define LATE_ROUND (ROUNDS - 5)
#define LATE_BY (3 * 2 * TURN)
_Static_assert(LATE_BY > 2 * TURN && LATE_ROUND * 2 * TURN >= ONLY_TICKS,
	       "the late turn is older than the round before, and all rows");
#define T0 1000000000ull
#define SAMPLE_TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | \
		     PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_RAW)

/*
 * The library's large reallocs (LARGE_ALLOC bytes or more) are counted,
 * and the refuse_nth-th of them fails (0: none does).
 */
#define LARGE_ALLOC (64u << 10)
static unsigned int large_allocs, refuse_nth;

void *__real_realloc(void *p, size_t n);
void *__wrap_realloc(void *p, size_t n);

void *__wrap_realloc(void *p, size_t n)
{
	if (n >= LARGE_ALLOC && ++large_allocs == refuse_nth)
		return NULL;
	return __real_realloc(p, n);
}

/* Samples the reader read the short way (ehd__perf_next_places()). */
static uint64_t lean_samples;

size_t __real_ehd__perf_next_places(struct ehd__perf_file *f,
				    struct ehd__perf_place *out,
				    size_t stride, size_t max,
				    size_t max_bytes);
size_t __wrap_ehd__perf_next_places(struct ehd__perf_file *f,
				    struct ehd__perf_place *out,
				    size_t stride, size_t max,
				    size_t max_bytes);

size_t __wrap_ehd__perf_next_places(struct ehd__perf_file *f,
				    struct ehd__perf_place *out,
				    size_t stride, size_t max,
				    size_t max_bytes)
{
	size_t n = __real_ehd__perf_next_places(f, out, stride, max,
						max_bytes);

	lean_samples += n;
	return n;
}

/* The events of the capture, by kind. */
struct ev_bytes {
	const uint8_t *p;
	size_t n;
};

static struct {
	unsigned char *dat;
	struct ev_bytes tick[TICKS], tock, act, text;
	struct ev_bytes trailing;	/* a Tick with bytes after its fields */
	unsigned int ntrailing;		/* of those in the recording */
	bool no_tid;		/* the recording's samples carry no thread */
	bool late;		/* a turn of CPU 1's is a round late */
	char dir[64];		/* the made-up tracefs */
	struct wr x;		/* the recording */
} g;

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void make_dir(const char *dir, const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(mkdir(path, 0700), 0);
}

/* A user_events tracepoint with an EventHeader name, as 6.12 shows it. */
static void write_format(const char *name, int id)
{
	char path[128], text[1024];

	snprintf(path, sizeof(path), "events/user_events/%s", name);
	make_dir(g.dir, path);
	snprintf(text, sizeof(text),
		 "name: %s\nID: %d\nformat:\n"
		 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		 "\tfield:u8 eventheader_flags;\toffset:8;\tsize:1;\tsigned:0;\n"
		 "\tfield:u8 version;\toffset:9;\tsize:1;\tsigned:0;\n"
		 "\tfield:u16 id;\toffset:10;\tsize:2;\tsigned:0;\n"
		 "\tfield:u16 tag;\toffset:12;\tsize:2;\tsigned:0;\n"
		 "\tfield:u8 opcode;\toffset:14;\tsize:1;\tsigned:0;\n"
		 "\tfield:u8 level;\toffset:15;\tsize:1;\tsigned:0;\n\n"
		 "print fmt: \"flags=%%u\", REC->eventheader_flags\n",
		 name, id);
	snprintf(path, sizeof(path), "events/user_events/%s/format", name);
	write_file(g.dir, path, text);
}

static void make_tracefs(void)
{
	strcpy(g.dir, "/tmp/test-pass.XXXXXX");
	assert_non_null(mkdtemp(g.dir));
	make_dir(g.dir, "events");
	make_dir(g.dir, "events/user_events");
	write_file(g.dir, "events/header_page",
		   "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		   "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
		   "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
		   "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n");
	write_file(g.dir, "events/header_event",
		   "# compressed entry header\n"
		   "\ttype_len    :    5 bits\n"
		   "\ttime_delta  :   27 bits\n"
		   "\tarray       :   32 bits\n");
	write_format("NtPass_L4K1", TP_INFO);
	write_format("NtPass_L5K1", TP_VERBOSE);
	assert_int_equal(tracefs_set_tracing_dir(g.dir), 0);
}

static void remove_tracefs(void)
{
	static const char *const files[] = {
		"events/user_events/NtPass_L4K1/format",
		"events/user_events/NtPass_L5K1/format",
		"events/user_events/NtPass_L4K1",
		"events/user_events/NtPass_L5K1",
		"events/user_events", "events/header_page",
		"events/header_event", "events",
	};
	char path[256];
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", g.dir, files[i]);
		remove(path);
	}
	rmdir(g.dir);
}

/* The producer's events, each kind's bytes kept in g. */
static void make_events(void)
{
	static const uint8_t aid[16] = { 1, 2, 3, 4, 5, 6, 7, 8,
					 9, 10, 11, 12, 13, 14, 15, 16 };
	static const char *const words[] = { "", "a", "tick", "a longer word" };
	struct ev_bytes *all[TICKS + 3];
	uint8_t *p;
	struct tf_record rec;
	char path[64];
	size_t size, off = 0, n = 0;
	uint32_t i;

	assert_int_equal(tf_capture(path, "test-pass"), 0);
	EH_REGISTER(pass_provider);
	for (i = 0; i < TICKS; i++)
		EH_WRITE(pass_provider, "Tick", EH_LEVEL(4), EH_KEYWORD(1),
			 EH_UINT32("n", i * 7 + 1),
			 EH_STRING_UTF8("s", words[i % 4]),
			 EH_INT64("v", -(int64_t)i));
	EH_WRITE(pass_provider, "Tock", EH_LEVEL(4), EH_KEYWORD(1),
		 EH_UINT64("v", 99));
	EH_WRITE_ACTIVITY(pass_provider, "Act", aid, NULL, EH_LEVEL(4),
			  EH_KEYWORD(1), EH_UINT8("x", 3));
	EH_WRITE(pass_provider, "Text", EH_LEVEL(5), EH_KEYWORD(1),
		 EH_STRING_UTF8("u", "h\xc3\xa9llo \xe2\x98\x83"));
	EH_UNREGISTER(pass_provider);
	g.dat = tf_slurp(path, &size);
	unlink(path);
	assert_non_null(g.dat);
	for (i = 0; i < TICKS; i++)
		all[i] = &g.tick[i];
	all[TICKS] = &g.tock;
	all[TICKS + 1] = &g.act;
	all[TICKS + 2] = &g.text;
	while (tf_dat_next(g.dat, size, &off, &rec) > 0) {
		assert_true(n < TICKS + 3);
		all[n]->p = rec.event;
		all[n++]->n = rec.event_size;
	}
	assert_int_equal(n, TICKS + 3);
	/* (16 bytes: more than perf's padding of up to 7) */
	g.trailing.n = g.tick[3].n + 16;
	g.trailing.p = p = malloc(g.trailing.n);
	assert_non_null(p);
	memcpy(p, g.tick[3].p, g.tick[3].n);
	memset(p + g.tick[3].n, 0xab, 16);
}

/* ---- the recording ---- */

struct thread {
	uint32_t pid, tid;
};

static const struct thread threads[] = { { 100, 100 }, { 100, 101 },
					  { 200, 200 } };

/* The sample_id trailer of a record (SAMPLE_TYPE's context fields). */
static void sample_id(uint64_t id, const struct thread *t, uint64_t time,
		      uint32_t cpu)
{
	if (!g.no_tid) {
		w4(&g.x, t->pid);
		w4(&g.x, t->tid);
	}
	w8(&g.x, time);
	w4(&g.x, cpu);
	w4(&g.x, 0);
	w8(&g.x, id);
}

static void comm(const struct thread *t, const char *name, uint64_t time)
{
	size_t at = rec_begin(&g.x, PERF_RECORD_COMM);
	char c[16] = { 0 };

	w4(&g.x, t->pid);
	w4(&g.x, t->tid);
	strncpy(c, name, 15);
	wbytes(&g.x, c, 16);
	sample_id(1, t, time, 0);
	rec_end(&g.x, at);
}

/*
 * A sample of tracepoint @id (perf id @sid) with EventHeader bytes @e,
 * @cut bytes short of its end (more than the padding after it); @chain: a
 * stack of 3 frames.
 */
static void sample(uint64_t sid, int id, const struct ev_bytes *e, size_t cut,
		   const struct thread *t, uint64_t time, uint32_t cpu,
		   bool chain)
{
	size_t at = rec_begin(&g.x, PERF_RECORD_SAMPLE);
	size_t n = e->n - cut, raw = (4 + 8 + n + 7) / 8 * 8 - 4, i;
	static const uint8_t zero[8];

	if (e == &g.trailing)
		g.ntrailing++;

	w8(&g.x, sid);
	if (!g.no_tid) {
		w4(&g.x, t->pid);
		w4(&g.x, t->tid);
	}
	w8(&g.x, time);
	w4(&g.x, cpu);
	w4(&g.x, 0);
	if (chain) {
		w8(&g.x, 3);
		for (i = 0; i < 3; i++)
			w8(&g.x, 0x400000 + 16 * i + (time & 0xf));
	}
	w4(&g.x, (uint32_t)raw);
	w(&g.x, (uint64_t)id, 2);
	w(&g.x, 0, 2);
	w4(&g.x, t->pid);
	wbytes(&g.x, e->p, n);
	wbytes(&g.x, zero, raw - 8 - n);
	rec_end(&g.x, at);
}

static void attr(int config, uint64_t sample_type, const uint64_t *ids,
		 const char *name)
{
	struct perf_event_attr a;
	struct ehd_buf b = EHD_BUF_INIT;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_TRACEPOINT;
	a.size = sizeof(a);
	a.config = (uint64_t)config;
	a.sample_period = 1;
	a.sample_type = sample_type;
	a.sample_id_all = 1;
	a.use_clockid = 1;
	a.clockid = CLOCK_MONOTONIC;
	ehd__ps_attr(&b, &a, ids, 2);
	ehd__ps_event_name(&b, ids[0], name);
	assert_int_equal(b.err, 0);
	wbytes(&g.x, b.p, b.len);
	ehd__buf_free(&b);
}

/* Event @k of the recording, on @cpu at @time. */
static void event(unsigned int k, uint32_t cpu, uint64_t time)
{
	static const uint64_t info_ids[2] = { 1, 2 }, verbose_ids[2] = { 3, 4 };
	const struct thread *t = &threads[k % 3];

	if (k >= ONLY_TICKS)
		sample(info_ids[cpu], TP_INFO, &g.tick[k % TICKS], 0, t, time,
		       cpu, false);
	else if (k % 53 == 7)
		sample(verbose_ids[cpu], TP_VERBOSE, &g.text, 0, t, time, cpu,
		       true);
	else if (k % 211 == 5)
		sample(info_ids[cpu], TP_INFO, &g.act, 0, t, time, cpu, false);
	else if (k % 97 == 3 || (k >= 9000 && k < 9040))
		sample(info_ids[cpu], TP_INFO, &g.tock, 0, t, time, cpu, false);
	else if (k % 389 == 17)
		sample(info_ids[cpu], TP_INFO, &g.trailing, 0, t, time, cpu,
		       false);
	else
		sample(info_ids[cpu], TP_INFO, &g.tick[k % TICKS],
		       k == 5001 ? 9 : 0, t, time, cpu, false);
}

static void make_recording(void)
{
	static const struct ehd__ps_tracepoint tps[] = {
		{ "user_events", "NtPass_L4K1" },
		{ "user_events", "NtPass_L5K1" },
	};
	static const uint64_t info_ids[2] = { 1, 2 }, verbose_ids[2] = { 3, 4 };
	struct ehd__ps_machine m = { .clockid = CLOCK_MONOTONIC,
				     .clock_ns = T0, .wall_ns = T0 * 1000,
				     .version = "test-pass" };
	uint64_t type = SAMPLE_TYPE & ~(g.no_tid ? PERF_SAMPLE_TID : 0ull);
	struct ehd_buf b = EHD_BUF_INIT;
	unsigned int r, c, i, k;
	uint64_t t;
	char why[256];

	g.ntrailing = 0;
	ehd__ps_pipe_header(&b);
	wbytes(&g.x, b.p, b.len);
	attr(TP_INFO, type, info_ids, "user_events:NtPass_L4K1");
	attr(TP_VERBOSE, type | PERF_SAMPLE_CALLCHAIN, verbose_ids,
	     "user_events:NtPass_L5K1");
	b.len = 0;
	assert_int_equal(ehd__ps_tracing_data(&b, tps, 2, why, sizeof(why)),
			 0);
	ehd__ps_features(&b, &m);
	assert_int_equal(b.err, 0);
	wbytes(&g.x, b.p, b.len);
	comm(&threads[0], "main", T0);
	comm(&threads[1], "worker", T0);
	comm(&threads[2], "other", T0);
	for (r = 0; r < ROUNDS; r++) {
		/* CPU 0 has the even times of the round, CPU 1 the odd. */
		for (c = 0; c < 2; c++) {
			for (i = 0; i < TURN; i++) {
				k = (r * TURN + i) * 2 + c;
				t = T0 + 10 + k;
				if (g.late && r == LATE_ROUND && c == 1)
					t -= LATE_BY;
				event(k, c, t);
			}
			if (r == ROUNDS / 2 && c == 1)
				comm(&threads[1], "renamed", T0 + 10 +
				     (r * TURN + TURN / 2) * 2);
		}
		b.len = 0;
		ehd__ps_finished_round(&b);
		wbytes(&g.x, b.p, b.len);
	}
	ehd__buf_free(&b);
}

static int setup(void **state)
{
	(void)state;
	make_tracefs();
	make_events();
	make_recording();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	remove_tracefs();
	free(g.dat);
	free((void *)g.trailing.p);
	free(g.x.b.p);
	return 0;
}

/* ---- converting, both ways ---- */

struct result {
	char *out;		/* the writer's output */
	size_t len;
	struct ehd_writer_stats wst;
	uint64_t events;	/* the reader's */
	uint64_t passed;	/* written by ehd_reader_pass() */
	uint64_t lean;		/* samples read the short way */
	uint64_t tp_samples;	/* the reader's tracepoint_samples */
	unsigned int gave_back;	/* its returns without an event */
	unsigned int errors;	/* events ehd_writer_event() refused or said
				   damaged */
};

static int mem_file(const void *p, size_t len)
{
	int fd = memfd_create("input", 0);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, p, len), (ssize_t)len);
	return fd;
}

/*
 * @in converted to @format by a writer of @flags (EHD_WRITER_*), passing
 * rows (@pass) or not.
 */
static void convert_flags(const void *in, size_t len, int format,
			  unsigned int flags, bool pass, uint64_t limit,
			  struct result *res)
{
	int fd = mem_file(in, len), out = memfd_create("out", 0), err;
	struct ehd_reader *r = ehd_reader_new(EHD_READER_SORT_TIME);
	struct ehd_writer *w = ehd_writer_new(format, out, flags,
					      EHD_META_DEFAULT);
	struct ehd_reader_stats rst;
	const struct ehd_event *ev;
	uint64_t passed;

	memset(res, 0, sizeof(*res));
	lean_samples = 0;
	assert_non_null(r);
	assert_non_null(w);
	if (limit)
		assert_int_equal(ehd_writer_set_limit(w, limit), 0);
	assert_int_equal(ehd_reader_open_fd(r, fd, "in"), 0);
	err = ehd_reader_next(r, &ev);
	assert_int_equal(ehd_writer_begin_trace(w, "in",
						ehd_reader_trace_info(r)), 0);
	while (err > 0) {
		if (ev && ehd_writer_event(w, ev) < 0)
			res->errors++;
		if (!pass) {
			err = ehd_reader_next(r, &ev);
			continue;
		}
		err = ehd_reader_pass(r, w, &ev, &passed);
		res->passed += passed;
		if (err > 0 && !ev) {
			assert_int_equal(passed, EHD_PASS_MAX);
			res->gave_back++;
		}
	}
	assert_int_equal(err, 0);
	assert_int_equal(ehd_writer_end(w), 0);
	ehd_writer_stats(w, &res->wst);
	/* (limited: the output stops where it was full) */
	assert_true(ehd_writer_close(w) == 0 || limit);
	ehd_reader_stats(r, &rst);
	res->events = rst.events;
	res->lean = lean_samples;
	res->tp_samples = rst.tracepoint_samples;
	res->out = tf_slurp_fd(out, &res->len);
	assert_non_null(res->out);
	ehd_writer_free(w);
	ehd_reader_free(r);
	close(fd);
	close(out);
}

static void convert(const void *in, size_t len, int format, bool pass,
		    uint64_t limit, struct result *res)
{
	convert_flags(in, len, format, 0, pass, limit, res);
}

/*
 * @in (@len bytes) converted both ways, with a @limit (or 0): the same
 * bytes, counts and errors; *@fast the ehd_reader_pass() way. The caller
 * frees both outputs.
 */
static void both_ways(const void *in, size_t len, int format, uint64_t limit,
		      struct result *slow, struct result *fast)
{
	convert(in, len, format, false, limit, slow);
	convert(in, len, format, true, limit, fast);
	assert_int_equal(slow->len, fast->len);
	assert_memory_equal(slow->out, fast->out, slow->len);
	assert_memory_equal(&slow->wst, &fast->wst, sizeof(slow->wst));
	assert_int_equal(slow->events, fast->events);
	assert_int_equal(slow->errors, fast->errors);
	assert_int_equal(slow->passed, 0);
}

static void test_recording(void **state)
{
	struct result slow, fast;
	uint64_t n = EVENTS;

	(void)state;
	both_ways(g.x.b.p, g.x.b.len, EHD_OUT_NETTRACE, 0, &slow, &fast);
	/* Every sample is an event; the cut one is said damaged. */
	assert_int_equal(fast.events, n);
	assert_int_equal(fast.errors, 1);
	/* ... and the data after the fields of some counted, not written */
	assert_true(g.ntrailing >= 20);
	assert_int_equal(fast.wst.trailing, g.ntrailing);
	assert_int_equal(fast.wst.events, n);
	/*
	 * Over two windows of payloads (256 KiB each); most events written
	 * without an ehd_event; the last 4,000, all passed, with returns
	 * between.
	 */
	assert_true(fast.len > 2 * 262144);
	assert_true(fast.passed > n * 9 / 10);
	/* All but the samples with stacks are read the short way, both ways. */
	assert_true(fast.lean > n * 9 / 10);
	assert_int_equal(slow.lean, fast.lean);
	/* ... and counted as tracepoint samples either way */
	assert_int_equal(fast.tp_samples, n);
	assert_int_equal(slow.tp_samples, n);
	assert_true(fast.gave_back >= 3);
	free(slow.out);
	free(fast.out);
}

/* The main recording, while a variant (setup_variant()) has its own in g.x. */
static struct wr main_x;
static unsigned int main_trailing;

static void setup_variant(bool no_tid, bool late)
{
	main_x = g.x;
	main_trailing = g.ntrailing;
	memset(&g.x, 0, sizeof(g.x));
	g.no_tid = no_tid;
	g.late = late;
	make_recording();
	g.no_tid = g.late = false;
}

static int setup_no_thread(void **state)
{
	(void)state;
	setup_variant(true, false);
	return 0;
}

static int setup_late(void **state)
{
	(void)state;
	setup_variant(false, true);
	return 0;
}

static int teardown_variant(void **state)
{
	(void)state;
	free(g.x.b.p);
	g.x = main_x;
	g.ntrailing = main_trailing;
	return 0;
}

/*
 * Samples without a thread (no PERF_SAMPLE_TID): the rows go on the
 * capture thread's, as their events do, and all holds as with threads.
 */
static void test_no_thread(void **state)
{
	test_recording(state);	/* (on setup_no_thread()'s recording) */
}

/*
 * A turn of samples a round late, older than some the reader gave out
 * before them: their rows come out of time order within a window, which
 * the writer sorts as its general way does. None is older than the
 * window before (none moved up to its sequence point: were one, the late
 * rows would no longer all be sorted within a window, and the test would
 * not test that). The same bytes both ways, and a file TraceEvent's rules
 * take (strict): every event (the damaged one as its record), in time
 * order.
 */
static void test_late(void **state)
{
	struct ehd_reader *r = ehd_reader_new(EHD_READER_STRICT);
	const struct ehd_event *ev;
	struct result slow, fast;
	uint64_t n = 0, last = 0;
	int fd, err;

	(void)state;
	both_ways(g.x.b.p, g.x.b.len, EHD_OUT_NETTRACE, 0, &slow, &fast);
	assert_int_equal(fast.events, EVENTS);
	assert_true(fast.passed > EVENTS * 9 / 10);
	assert_int_equal(fast.wst.reordered, 0);
	fd = mem_file(fast.out, fast.len);
	assert_int_equal(ehd_reader_open_fd(r, fd, "late.nettrace"), 0);
	while ((err = ehd_reader_next(r, &ev)) > 0) {
		assert_true(ev->time >= last);
		last = ev->time;
		n++;
	}
	assert_int_equal(err, 0);
	assert_int_equal(n, EVENTS);
	ehd_reader_free(r);
	close(fd);
	free(slow.out);
	free(fast.out);
}

/* A writer that must see every event gets every event. */
static void test_not_passed(void **state)
{
	struct result slow, fast;

	(void)state;
	both_ways(g.x.b.p, g.x.b.len, EHD_OUT_JSON, 0, &slow, &fast);
	assert_int_equal(fast.passed, 0);
	free(slow.out);
	free(fast.out);
}

/*
 * A size limit: the event that would pass it is taken back whole, and it
 * and all after it are refused, whichever way it came.
 */
static void test_limit(void **state)
{
	struct result slow, fast;

	(void)state;
	both_ways(g.x.b.p, g.x.b.len, EHD_OUT_NETTRACE, 300000, &slow, &fast);
	assert_true(fast.passed > fast.wst.events / 2);
	assert_true(fast.wst.events < EVENTS);
	assert_true(fast.len <= 300000);
	/* Each one refused is said, as is the damaged one before them. */
	assert_int_equal(fast.errors, EVENTS - fast.wst.events + 1);
	free(slow.out);
	free(fast.out);
}

/*
 * The output fails (a full device) while the reader writes rows: the
 * next event the caller writes says so, as a failure that is not the
 * event's, and so does the close.
 */
static void test_write_fails(void **state)
{
	int fd = mem_file(g.x.b.p, g.x.b.len);
	int out = open("/dev/full", O_WRONLY);
	struct ehd_reader *r = ehd_reader_new(EHD_READER_SORT_TIME);
	struct ehd_writer *w = ehd_writer_new(EHD_OUT_NETTRACE, out, 0,
					      EHD_META_DEFAULT);
	const struct ehd_event *ev;
	uint64_t passed = 0, all = 0;
	bool failed = false;
	int err, werr;

	(void)state;
	assert_true(out >= 0);
	assert_int_equal(ehd_reader_open_fd(r, fd, "in"), 0);
	err = ehd_reader_next(r, &ev);
	assert_int_equal(ehd_writer_begin_trace(w, "in",
						ehd_reader_trace_info(r)), 0);
	for (; err > 0; err = ehd_reader_pass(r, w, &ev, &passed)) {
		all += passed;
		werr = ev ? ehd_writer_event(w, ev) : 0;
		if (werr < 0 && !ehd_writer_error(w, NULL)) {
			failed = true;
			break;
		}
	}
	assert_true(failed);
	assert_true(all > 0);
	assert_int_equal(ehd_writer_close(w), -ENOSPC);
	ehd_writer_free(w);
	ehd_reader_free(r);
	close(fd);
	close(out);
}

/*
 * The reference's recordings, where they are: their EventHeader events
 * are nearly all of a type other than their tracepoint's event before,
 * so few if any are passed; the rest must not change.
 */
static void test_corpus(void **state)
{
	static const char *const files[] = { "perf.data", "pipe.data" };
	struct result slow, fast;
	unsigned char *p;
	char path[512];
	size_t i, len;

	(void)state;
	for (i = 0; i < 2; i++) {
		if (tf_corpus(path, sizeof(path), files[i])) {
			skip();
			return;
		}
		p = tf_slurp(path, &len);
		assert_non_null(p);
		both_ways(p, len, EHD_OUT_NETTRACE, 0, &slow, &fast);
		free(slow.out);
		free(fast.out);
		free(p);
	}
}

/* Page faults a child takes to make a writer, and then to convert. */
struct faults {
	long make;
	long convert;
};

/*
 * Page faults taken converting the recording to nettrace with a writer of
 * @flags, counted in a child process: there every page first written
 * after the fork faults, whoever had it before. Both are -1 on an error.
 */
static struct faults child_faults(unsigned int flags)
{
	struct faults n = { -1, -1 };
	int p[2], st, fd;
	pid_t pid;

	assert_int_equal(pipe(p), 0);
	fd = mem_file(g.x.b.p, g.x.b.len);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct ehd_reader *r = ehd_reader_new(EHD_READER_SORT_TIME);
		int out = open("/dev/null", O_WRONLY);
		long at = tf_faults();
		struct ehd_writer *w = ehd_writer_new(EHD_OUT_NETTRACE, out,
						      flags, 0);
		const struct ehd_event *ev = NULL;
		long made = tf_faults();
		uint64_t passed;
		int err = -1;

		if (r && w && !ehd_reader_open_fd(r, fd, "in") &&
		    !ehd_writer_begin_trace(w, "in", NULL)) {
			do {	/* (the damaged event said, and left) */
				if (ev)
					ehd_writer_event(w, ev);
				err = ehd_reader_pass(r, w, &ev, &passed);
			} while (err > 0);
		}
		if (!err && !ehd_writer_end(w) && !ehd_writer_close(w)) {
			n.make = made - at;
			n.convert = tf_faults() - made;
		}
		if (write(p[1], &n, sizeof(n)) != sizeof(n))
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	close(fd);
	if (read(p[0], &n, sizeof(n)) != sizeof(n))
		n.make = n.convert = -1;
	close(p[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return n;
}

/*
 * EHD_WRITER_RESERVE: the same output, but the writer's window is made,
 * and its pages written, as the writer is. Making the writer then takes
 * at least 200 more page faults (its window is about 1 MiB; seen: 4 and
 * 265, 19 and 371 under ASan), and the conversion after it at least 150
 * fewer, where the window grows as the events come. Fault counts drift with the build and its place (a
 * distcheck saw 1,021 and 738 converting where a build here saw 1,100 and
 * 739; 2,005 and 1,545 under ASan), so the bounds are well inside what is
 * seen; with the window made but its pages not written, making the writer
 * takes about as many faults as without the flag, which the first bound
 * refuses.
 */
static void test_reserve(void **state)
{
	struct result grown, made;
	struct faults without, with;

	(void)state;
	convert_flags(g.x.b.p, g.x.b.len, EHD_OUT_NETTRACE, 0, true, 0,
		      &grown);
	convert_flags(g.x.b.p, g.x.b.len, EHD_OUT_NETTRACE,
		      EHD_WRITER_RESERVE, true, 0, &made);
	assert_int_equal(grown.len, made.len);
	assert_memory_equal(grown.out, made.out, grown.len);
	assert_memory_equal(&grown.wst, &made.wst, sizeof(grown.wst));
	free(grown.out);
	free(made.out);
	without = child_faults(0);
	with = child_faults(EHD_WRITER_RESERVE);
	print_message("page faults making the writer: %ld, %ld with the "
		      "reserve; converting: %ld, %ld\n", without.make,
		      with.make, without.convert, with.convert);
	assert_true(without.make >= 0 && with.make >= 0);
	assert_true(without.make + 200 < with.make);
	assert_true(with.convert + 150 < without.convert);
}

/*
 * A writer whose window cannot be made is not made: ENOMEM, and nothing
 * of it kept (a leak, under ASan: LeakSanitizer fails the test). The
 * window's buffers are the large allocations a writer with the flag
 * makes (rows, payloads and blocks: three), each refused in turn; a
 * writer without the flag makes none of them.
 */
static void test_reserve_fails(void **state)
{
	struct ehd_writer *w;
	unsigned int i, n;
	int fd;

	(void)state;
	fd = open("/dev/null", O_WRONLY);
	assert_true(fd >= 0);
	large_allocs = 0;
	w = ehd_writer_new(EHD_OUT_NETTRACE, fd, 0, 0);
	assert_non_null(w);
	ehd_writer_free(w);
	assert_int_equal(large_allocs, 0);
	w = ehd_writer_new(EHD_OUT_NETTRACE, fd, EHD_WRITER_RESERVE, 0);
	assert_non_null(w);
	ehd_writer_free(w);
	n = large_allocs;
	assert_int_equal(n, 3);
	for (i = 1; i <= n; i++) {
		large_allocs = 0;
		refuse_nth = i;
		errno = 0;
		w = ehd_writer_new(EHD_OUT_NETTRACE, fd, EHD_WRITER_RESERVE, 0);
		refuse_nth = 0;
		assert_null(w);
		assert_int_equal(errno, ENOMEM);
		assert_int_equal(large_allocs, i);	/* (none after it) */
	}
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recording),
		cmocka_unit_test_setup_teardown(test_no_thread, setup_no_thread,
						teardown_variant),
		cmocka_unit_test_setup_teardown(test_late, setup_late,
						teardown_variant),
		cmocka_unit_test(test_not_passed),
		cmocka_unit_test(test_limit),
		cmocka_unit_test(test_write_fails),
		cmocka_unit_test(test_corpus),
		cmocka_unit_test(test_reserve),
		cmocka_unit_test(test_reserve_fails),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
