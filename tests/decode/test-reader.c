// SPDX-License-Identifier: MIT
/*
 * test-reader.c - the public reader and writer on inputs made here:
 * interceptor captures written by the producer (EH_INTERCEPTOR), damaged
 * captures, hand-built pipe-mode perf data (time order per round, runs
 * merged or sorted with equal times in arrival order, lost
 * counts, standard input), kind detection and the writer's forms.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <cmocka.h>

#include <eventheader/eh-provider.h>
#include <ehdecode/reader.h>
#include <ehdecode/writer.h>

#include "perf-build.h"

EH_DEFINE_PROVIDER(test_provider, "TestReader");

static char dat_path[64];

/* Three events from the producer, captured by the interceptor. */
static int make_capture(void **state)
{
	static const uint8_t aid[16] = { 1, 2, 3, 4, 5, 6, 7, 8,
					 9, 10, 11, 12, 13, 14, 15, 16 };
	int fd;

	(void)state;
	strcpy(dat_path, "/tmp/test-reader.XXXXXX");
	fd = mkstemp(dat_path);
	if (fd < 0)
		return -1;
	close(fd);
	setenv("EH_INTERCEPTOR_FILE", dat_path, 1);
	EH_REGISTER(test_provider);
	EH_WRITE(test_provider, "First", EH_LEVEL(4), EH_KEYWORD(0x5),
		 EH_UINT32("u", 7), EH_STRING8("s", "hi"));
	EH_WRITE_ACTIVITY(test_provider, "Second", aid, NULL,
			  EH_LEVEL(5), EH_OPCODE(EH_OPCODE_ACTIVITY_START),
			  EH_INT32_FIXED_ARRAY("a", ((const int32_t[]){ -1, 2 }), 2));
	EH_WRITE(test_provider, "Third", EH_LEVEL(2), EH_HEXUINT16("h", 0xab));
	EH_UNREGISTER(test_provider);
	return 0;
}

static int remove_capture(void **state)
{
	(void)state;
	unlink(dat_path);
	return 0;
}

/* A memfd holding @len bytes of @p, at offset 0. */
static int mem_file(const void *p, size_t len)
{
	int fd = memfd_create("test-reader", 0);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, p, len), (ssize_t)len);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	return fd;
}

/* The whole output of writing every event of @fd in @format. */
static char *write_all(int fd, int format, unsigned int meta, int *last_err)
{
	struct ehd_reader *r = ehd_reader_new(0);
	int out = memfd_create("out", 0);
	struct ehd_writer *w = ehd_writer_new(format, out, 0, meta);
	const struct ehd_event *ev;
	off_t len;
	char *s;
	int err;

	assert_non_null(r);
	assert_non_null(w);
	assert_int_equal(ehd_reader_open_fd(r, fd, "in"), 0);
	assert_int_equal(ehd_writer_begin(w, "in"), 0);
	*last_err = 0;
	while ((err = ehd_reader_next(r, &ev)) > 0) {
		err = ehd_writer_event(w, ev);
		if (err)
			*last_err = err;
	}
	assert_int_equal(ehd_writer_close(w), 0);
	len = lseek(out, 0, SEEK_END);
	s = calloc(1, (size_t)len + 1);
	assert_int_equal(pread(out, s, (size_t)len, 0), len);
	ehd_writer_free(w);
	ehd_reader_free(r);
	close(out);
	return s;
}

static void test_capture_events(void **state)
{
	struct ehd_reader *r = ehd_reader_new(EHD_READER_SORT_TIME);
	const struct ehd_event *ev;
	struct ehd_enum *en = ehd_enum_new();
	const struct ehd_item *it;
	struct ehd_reader_stats st;

	(void)state;
	assert_int_equal(ehd_reader_open(r, dat_path), 0);
	assert_int_equal(ehd_reader_kind(r), EHD_INPUT_DAT);

	assert_int_equal(ehd_reader_next(r, &ev), 1);
	assert_int_equal(ev->kind, EHD_EVENT_EVENTHEADER);
	assert_int_equal(ev->provider_len, 10);
	assert_memory_equal(ev->provider, "TestReader", 10);
	assert_int_equal(ev->name_len, 5);
	assert_memory_equal(ev->name, "First", 5);
	assert_int_equal(ev->tracepoint_len, strlen("TestReader_L4K5"));
	assert_memory_equal(ev->tracepoint, "TestReader_L4K5", ev->tracepoint_len);
	assert_int_equal(ev->level, 4);
	assert_int_equal(ev->keyword, 5);
	assert_int_equal(ev->context, 0);
	assert_int_equal(ev->source_offset, 0);
	assert_null(ev->activity_id);
	assert_int_equal(ehd_event_fields(ev, en, 0), 0);
	assert_int_equal(ehd_enum_next(en), EHD_STATE_VALUE);
	it = ehd_enum_item(en);
	assert_string_equal(it->name, "u");
	assert_int_equal(it->value_size, 4);
	assert_int_equal(ehd_enum_next(en), EHD_STATE_VALUE);
	assert_string_equal(ehd_enum_item(en)->name, "s");
	assert_int_equal(ehd_enum_next(en), EHD_STATE_AFTER_LAST);

	assert_int_equal(ehd_reader_next(r, &ev), 1);
	assert_memory_equal(ev->name, "Second", 6);
	assert_int_equal(ev->opcode, EH_OPCODE_ACTIVITY_START);
	assert_non_null(ev->activity_id);
	assert_int_equal(ev->activity_id[15], 16);
	assert_true(ev->source_offset > 0);
	assert_int_equal(ehd_event_fields(ev, en, 0), 0);
	assert_int_equal(ehd_enum_next(en), EHD_STATE_ARRAY_BEGIN);
	assert_int_equal(ehd_enum_item(en)->array_count, 2);

	assert_int_equal(ehd_reader_next(r, &ev), 1);
	assert_memory_equal(ev->name, "Third", 5);
	assert_int_equal(ehd_reader_next(r, &ev), 0);
	assert_null(ev);
	assert_int_equal(ehd_reader_next(r, &ev), 0);
	ehd_reader_stats(r, &st);
	assert_int_equal(st.events, 3);
	assert_int_equal(st.not_eventheader, 0);
	assert_null(ehd_reader_error(r, NULL));
	assert_int_equal(ehd_reader_trace_info(r)->clockid, -1);
	ehd_enum_free(en);
	ehd_reader_free(r);
}

static void test_capture_forms(void **state)
{
	int fd = open(dat_path, O_RDONLY), err;
	char *s;

	(void)state;
	s = write_all(fd, EHD_OUT_JSONL, EHD_META_DEFAULT, &err);
	assert_int_equal(err, 0);
	assert_string_equal(s,
		"{\"n\":\"TestReader:First\",\"u\":7,\"s\":\"hi\",\"meta\":{\"level\":4,\"keyword\":\"0x5\"}}\n"
		"{\"n\":\"TestReader:Second\",\"a\":[-1,2],\"meta\":{\"level\":5,\"opcode\":1,\"activity\":\"01020304-0506-0708-090a-0b0c0d0e0f10\"}}\n"
		"{\"n\":\"TestReader:Third\",\"h\":\"0xAB\",\"meta\":{\"level\":2}}\n");
	free(s);
	s = write_all(fd, EHD_OUT_TEXT, EHD_META_DEFAULT, &err);
	assert_string_equal(s,
		"- TestReader:First u=7 s=\"hi\" | level=4 keyword=0x5\n"
		"- TestReader:Second a=[-1,2] | level=5 opcode=1 activity=01020304-0506-0708-090a-0b0c0d0e0f10\n"
		"- TestReader:Third h=\"0xAB\" | level=2\n");
	free(s);
	s = write_all(fd, EHD_OUT_JSON, EHD_META_N | EHD_META_PROVIDER, &err);
	assert_string_equal(s,
		"{\n\"in\": [\n"
		" {\"n\":\"TestReader:First\",\"u\":7,\"s\":\"hi\",\"meta\":{\"provider\":\"TestReader\"}},\n"
		" {\"n\":\"TestReader:Second\",\"a\":[-1,2],\"meta\":{\"provider\":\"TestReader\"}},\n"
		" {\"n\":\"TestReader:Third\",\"h\":\"0xAB\",\"meta\":{\"provider\":\"TestReader\"}} ]\n}\n");
	free(s);
	close(fd);
}

/* The capture's bytes. */
static uint8_t *capture(size_t *len)
{
	int fd = open(dat_path, O_RDONLY);
	off_t n = lseek(fd, 0, SEEK_END);
	uint8_t *p = malloc((size_t)n);

	assert_int_equal(pread(fd, p, (size_t)n, 0), n);
	close(fd);
	*len = (size_t)n;
	return p;
}

/* Reads @p; returns the events before the error, the error in *err. */
static int read_mem(const void *p, size_t len, int *err, uint64_t *off,
		    const char **why)
{
	static char reason[320];
	struct ehd_reader *r = ehd_reader_new(0);
	const struct ehd_event *ev;
	int fd = mem_file(p, len), n = 0;

	*err = ehd_reader_open_fd(r, fd, "mem");
	if (!*err)
		while ((*err = ehd_reader_next(r, &ev)) > 0)
			n++;
	*why = NULL;
	if (ehd_reader_error(r, off)) {
		snprintf(reason, sizeof(reason), "%s", ehd_reader_error(r, off));
		*why = reason;
	}
	ehd_reader_free(r);
	close(fd);
	return n;
}

static void test_capture_damage(void **state)
{
	size_t len, first;
	uint8_t *p = capture(&len);
	const char *why;
	uint64_t off;
	int err, n;

	(void)state;
	first = p[0] | p[1] << 8;
	/* Cut inside the second record: the first event, then the error. */
	n = read_mem(p, first + 10, &err, &off, &why);
	assert_int_equal(n, 1);
	assert_int_equal(err, -EBADMSG);
	assert_int_equal(off, first);
	assert_non_null(strstr(why, "cut short"));
	/* Cut inside a size field. */
	n = read_mem(p, first + 2, &err, &off, &why);
	assert_int_equal(n, 1);
	assert_int_equal(err, -EBADMSG);
	assert_int_equal(off, first);
	/* A size beyond the limit. */
	p[first + 3] = 0x7f;
	n = read_mem(p, len, &err, &off, &why);
	assert_int_equal(n, 1);
	assert_int_equal(err, -EFBIG);
	assert_int_equal(off, first);
	/* A size below the minimum. */
	p[first] = 4;
	p[first + 1] = p[first + 2] = p[first + 3] = 0;
	n = read_mem(p, len, &err, &off, &why);
	assert_int_equal(err, -EBADMSG);
	assert_int_equal(off, first);
	/* A tracepoint name without its NUL. */
	memset(p + 4, 'x', first - 4);
	n = read_mem(p, first, &err, &off, &why);
	assert_int_equal(n, 0);
	assert_int_equal(err, -EBADMSG);
	assert_int_equal(off, 4);
	assert_string_equal(why, "tracepoint name not terminated");
	free(p);
}

/* An event with bad header flags: given out raw, counted, and reported. */
static void test_capture_bad_event(void **state)
{
	size_t len;
	uint8_t *p = capture(&len);
	const uint8_t *nul = memchr(p + 4, 0, len - 4);
	struct ehd_reader *r = ehd_reader_new(0);
	struct ehd_reader_stats st;
	const struct ehd_event *ev;
	int fd, err;
	char *s;

	(void)state;
	p[nul - p + 1] = 0xff;
	fd = mem_file(p, len);
	assert_int_equal(ehd_reader_open_fd(r, fd, "mem"), 0);
	assert_int_equal(ehd_reader_next(r, &ev), 1);
	assert_int_equal(ev->kind, EHD_EVENT_RAW);
	assert_int_equal(ev->decode_error, -ENOTSUP);
	assert_int_equal(ev->decode_offset, 0);
	assert_string_equal(ev->decode_reason, "unknown header flags 0xFF");
	while (ehd_reader_next(r, &ev) > 0)
		;
	ehd_reader_stats(r, &st);
	assert_int_equal(st.events, 3);
	assert_int_equal(st.not_eventheader, 1);
	ehd_reader_free(r);

	s = write_all(fd, EHD_OUT_JSONL, EHD_META_DEFAULT, &err);
	assert_int_equal(err, -ENOTSUP);
	assert_true(!strncmp(s, "{\"n\":\"TestReader_L4K5\",\"raw\":\"ff ", 33));
	assert_non_null(strstr(s, "TestReader:Third"));
	free(s);
	close(fd);
	free(p);
}

static void test_kind(void **state)
{
	static const char text[] = "not a trace at all";
	const char *why;
	uint64_t off;
	int err;

	(void)state;
	read_mem(text, sizeof(text), &err, &off, &why);
	assert_int_equal(err, -ENOTSUP);
	assert_int_equal(off, 0);
	assert_non_null(strstr(why, "unknown input kind"));
	read_mem(text, 0, &err, &off, &why);
	assert_int_equal(err, -EBADMSG);
	assert_string_equal(why, "empty input");
	read_mem("PERFILE2", 8, &err, &off, &why);
	assert_int_equal(err, -EBADMSG);
}

/* ---- pipe-mode perf data ---- */

#define ST (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU)

static void pm_header(struct wr *x)
{
	wbytes(x, "PERFILE2", 8);
	w8(x, 16);
}

/* The event's attr: its samples of ST, and raw data with @raw. */
static void pm_attr_raw(struct wr *x, bool raw)
{
	size_t at = rec_begin(x, 64 /* HEADER_ATTR */), i;

	w4(x, PERF_TYPE_SOFTWARE);
	w4(x, PERF_ATTR_SIZE_VER7);
	w8(x, PERF_COUNT_SW_CPU_CLOCK);
	w8(x, 1);
	w8(x, ST | (raw ? PERF_SAMPLE_RAW : 0));
	for (i = 32; i < PERF_ATTR_SIZE_VER7; i += 8)
		w8(x, 0);
	rec_end(x, at);
}

static void pm_attr(struct wr *x)
{
	pm_attr_raw(x, false);
}

/*
 * A sample at @time of thread @tid (pid 100, CPU 2), with 4 bytes of raw
 * data with @raw (a plain sample, read the short way).
 */
static void pm_sample_raw(struct wr *x, uint64_t time, uint32_t tid,
			  bool raw)
{
	size_t at = rec_begin(x, PERF_RECORD_SAMPLE);

	w4(x, 100);
	w4(x, tid);
	w8(x, time);
	w4(x, 2);
	w4(x, 0);
	if (raw) {
		w4(x, 4);
		w4(x, tid);
	}
	rec_end(x, at);
}

static void pm_sample_of(struct wr *x, uint64_t time, uint32_t tid)
{
	pm_sample_raw(x, time, tid, false);
}

static void pm_sample(struct wr *x, uint64_t time)
{
	pm_sample_of(x, time, 100 + (uint32_t)time);
}

static void pm_round(struct wr *x)
{
	rec_end(x, rec_begin(x, 68 /* FINISHED_ROUND */));
}

static void pm_lost(struct wr *x, uint64_t lost, bool samples)
{
	size_t at = rec_begin(x, samples ? PERF_RECORD_LOST_SAMPLES :
					   PERF_RECORD_LOST);

	if (!samples)
		w8(x, 1);	/* id */
	w8(x, lost);
	rec_end(x, at);
}

/*
 * 30 10 20 | 5 40 | 3 (no round at the end). In time order: at the
 * first round's end nothing is known complete; at the second, all up to
 * 30 (the latest time before the first round's end); then the rest.
 */
static void make_rounds(struct wr *x)
{
	pm_header(x);
	pm_attr(x);
	pm_sample(x, 30);
	pm_sample(x, 10);
	pm_lost(x, 7, false);
	pm_sample(x, 20);
	pm_round(x);
	pm_sample(x, 5);
	pm_lost(x, 7, true);	/* the same 7, as the total at the end */
	pm_sample(x, 40);
	pm_round(x);
	pm_sample(x, 3);
}

static void check_order(int fd, unsigned int flags, const uint64_t *want,
			size_t n)
{
	struct ehd_reader *r = ehd_reader_new(flags);
	const struct ehd_event *ev;
	struct ehd_reader_stats st;
	size_t i = 0;
	int err;

	assert_int_equal(ehd_reader_open_fd(r, fd, "pipe"), 0);
	assert_int_equal(ehd_reader_kind(r), EHD_INPUT_PERF_PIPE);
	while ((err = ehd_reader_next(r, &ev)) > 0) {
		assert_true(i < n);
		assert_int_equal(ev->time, want[i]);
		assert_int_equal(ev->context, EHD_CTX_TIME | EHD_CTX_CPU |
						       EHD_CTX_PID);
		assert_int_equal(ev->kind, EHD_EVENT_RAW);
		assert_int_equal(ev->cpu, 2);
		assert_int_equal(ev->pid, 100);
		assert_int_equal(ev->tid, 100 + want[i]);
		i++;
	}
	assert_int_equal(err, 0);
	assert_int_equal(i, n);
	ehd_reader_stats(r, &st);
	assert_int_equal(st.events, n);
	/* CPU samples (cpu-clock), none of a tracepoint */
	assert_int_equal(st.tracepoint_samples, 0);
	/* LOST_SAMPLES totals replace the LOST reports, not add to them */
	assert_int_equal(st.lost, 7);
	assert_int_equal(st.lost_records, 2);
	ehd_reader_free(r);
}

static void test_perf_rounds(void **state)
{
	static const uint64_t sorted[] = { 5, 10, 20, 30, 3, 40 };
	static const uint64_t file[] = { 30, 10, 20, 5, 40, 3 };
	struct wr x = { .be = false };
	int fd;

	(void)state;
	make_rounds(&x);
	fd = mem_file(x.b.p, x.b.len);
	check_order(fd, EHD_READER_SORT_TIME, sorted, 6);
	check_order(fd, 0, file, 6);
	close(fd);
	free(x.b.p);
}

struct arrival {
	uint64_t time;
	uint32_t n;	/* arrival order */
};

static int cmp_arrival(const void *a, const void *b)
{
	const struct arrival *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->n < y->n ? -1 : x->n > y->n;
}

/*
 * @nruns runs of samples, each in time order but going back in time from
 * the one before, with times shared within and across runs, and no
 * round: read in time order, they come out as a stable sort of them
 * (equal times in arrival order), whether merged (a few runs) or sorted
 * (more than the reader tracks); with @raw, of plain samples, whose runs
 * are read in one call (hold_places()).
 */
static void check_runs(unsigned int nruns, bool raw)
{
	struct arrival *a = calloc(64 * nruns, sizeof(*a));
	struct wr x = { .be = false };
	const struct ehd_event *ev;
	struct ehd_reader *r;
	uint32_t seed = 12345 + nruns, n = 0, i, k, len;
	uint64_t t = 1000000;
	int fd, err;

	assert_non_null(a);
	pm_header(&x);
	pm_attr_raw(&x, raw);
	for (k = 0; k < nruns; k++) {
		seed = seed * 1103515245 + 12345;
		len = 1 + (seed >> 16) % 60;
		t -= 1 + (seed >> 8) % 100;	/* back: a run begins */
		for (i = 0; i < len; i++) {
			seed = seed * 1103515245 + 12345;
			if (i)	/* (a third at the time of the one before) */
				t += (seed >> 16) % 3;
			a[n].time = t;
			a[n].n = n;
			pm_sample_raw(&x, t, 1000 + n, raw);
			n++;
		}
	}
	qsort(a, n, sizeof(*a), cmp_arrival);
	fd = mem_file(x.b.p, x.b.len);
	r = ehd_reader_new(EHD_READER_SORT_TIME);
	assert_int_equal(ehd_reader_open_fd(r, fd, "runs"), 0);
	for (i = 0; (err = ehd_reader_next(r, &ev)) > 0; i++) {
		assert_true(i < n);
		assert_int_equal(ev->time, a[i].time);
		assert_int_equal(ev->tid, 1000 + a[i].n);
	}
	assert_int_equal(err, 0);
	assert_int_equal(i, n);
	ehd_reader_free(r);
	close(fd);
	free(x.b.p);
	free(a);
}

static void test_perf_runs(void **state)
{
	(void)state;
	bool raw = false;

	do {
		check_runs(2, raw);
		check_runs(40, raw);
		/* the most merged (64 after the first) */
		check_runs(65, raw);
		check_runs(66, raw);	/* sorted */
		raw = !raw;
	} while (raw);
}

/* Pipe-mode data on a pipe: the first bytes are read before the kind is
 * known and must not be lost. */
static void test_perf_stdin_pipe(void **state)
{
	static const uint64_t sorted[] = { 5, 10, 20, 30, 3, 40 };
	struct wr x = { .be = false };
	int p[2];

	(void)state;
	make_rounds(&x);
	assert_int_equal(pipe(p), 0);
	assert_true(x.b.len < 4096);
	assert_int_equal(write(p[1], x.b.p, x.b.len), (ssize_t)x.b.len);
	close(p[1]);
	check_order(p[0], EHD_READER_SORT_TIME, sorted, 6);
	close(p[0]);
	free(x.b.p);
}

static void test_meta_parse(void **state)
{
	unsigned int m = 12345;

	(void)state;
	assert_int_equal(ehd_meta_parse("n,time,relatedActivity", &m), 0);
	assert_int_equal(m, EHD_META_N | EHD_META_TIME |
			    EHD_META_RELATED_ACTIVITY);
	assert_int_equal(ehd_meta_parse("DEFAULT,common", &m), 0);
	assert_int_equal(m, EHD_META_DEFAULT | EHD_META_COMMON);
	assert_int_equal(ehd_meta_parse("none", &m), 0);
	assert_int_equal(m, 0);
	assert_int_equal(ehd_meta_parse("all", &m), 0);
	assert_int_equal(m, EHD_META_ALL);
	assert_int_equal(ehd_meta_parse("time,", &m), -EINVAL);
	assert_int_equal(ehd_meta_parse("times", &m), -EINVAL);
	assert_int_equal(m, EHD_META_ALL);
}

/* A failed write is kept and returned by close. */
static void test_writer_errors(void **state)
{
	int fd = open("/dev/full", O_WRONLY);
	struct ehd_writer *w;

	(void)state;
	assert_null(ehd_writer_new(0, 1, 0, 0));
	assert_int_equal(errno, EINVAL);
	assert_null(ehd_writer_new(EHD_OUT_JSON, 1, 0x100, 0));
	if (fd < 0)
		return;
	w = ehd_writer_new(EHD_OUT_JSON, fd, 0, EHD_META_DEFAULT);
	assert_int_equal(ehd_writer_begin(w, "x"), 0);
	assert_int_equal(ehd_writer_begin(w, "y"), -EINVAL);
	assert_int_equal(ehd_writer_end(w), 0);
	assert_int_equal(ehd_writer_close(w), -ENOSPC);
	ehd_writer_free(w);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_capture_events),
		cmocka_unit_test(test_capture_forms),
		cmocka_unit_test(test_capture_damage),
		cmocka_unit_test(test_capture_bad_event),
		cmocka_unit_test(test_kind),
		cmocka_unit_test(test_perf_rounds),
		cmocka_unit_test(test_perf_runs),
		cmocka_unit_test(test_perf_stdin_pipe),
		cmocka_unit_test(test_meta_parse),
		cmocka_unit_test(test_writer_errors),
	};

	return cmocka_run_group_tests(tests, make_capture, remove_capture);
}
