// SPDX-License-Identifier: MIT
/*
 * test-nettrace.c - the nettrace writer against the rules TraceEvent's
 * reader needs (docs/nettrace-mapping.md), and the strict reader refusing
 * streams that break them.
 *
 * Events come from the producer through the interceptor; their context
 * (time, cpu, pid, callchain) is set here. The writer's output is read
 * back with the strict reader and walked block by block.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#include <cmocka.h>

#include <eventheader/eh-provider.h>
#include <ehdecode/reader.h>
#include <ehdecode/writer.h>

EH_DEFINE_PROVIDER(nt_provider, "NtTest");
EH_DEFINE_PROVIDER(other_provider, "NtOther");

static char dat_path[64];

/* Text of 20,000 'é' (40,000 bytes of UTF-8, 40,000 of UTF-16). */
static char big_utf8[40001];

static int make_capture(void **state)
{
	static const uint8_t aid[16] = { 1, 2, 3, 4, 5, 6, 7, 8,
					 9, 10, 11, 12, 13, 14, 15, 16 };
	static const uint8_t rid[16] = { 0xa1, 2, 3, 4, 5, 6, 7, 8,
					 9, 10, 11, 12, 13, 14, 15, 0xff };
	static const uint8_t uuid[16] = { 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc,
					  0xde, 0xf0, 1, 2, 3, 4, 5, 6, 7, 8 };
	static char huge[70001];
	size_t i;
	int fd;

	(void)state;
	for (i = 0; i < sizeof(big_utf8) - 1; i += 2)
		memcpy(big_utf8 + i, "\xc3\xa9", 2);
	memset(huge, 'x', sizeof(huge) - 1);
	huge[sizeof(huge) - 1] = 0;
	strcpy(dat_path, "/tmp/test-nettrace.XXXXXX");
	fd = mkstemp(dat_path);
	if (fd < 0)
		return -1;
	close(fd);
	setenv("EH_INTERCEPTOR_FILE", dat_path, 1);
	EH_REGISTER(nt_provider);
	EH_REGISTER(other_provider);
	EH_WRITE(nt_provider, "Hello", EH_LEVEL(4), EH_KEYWORD(0x5),
		 EH_UINT32("u", 7), EH_STRING_UTF8("s", "hi"));
	/* Text TraceEvent would show as Latin-1. */
	EH_WRITE(nt_provider, "Text", EH_LEVEL(4),
		 EH_STRING_UTF8("utf8", "h\xc3\xa9llo \xe2\x98\x83 \xf0\x9f\x98\x80"),
		 EH_STRING8("latin1", "caf\xe9"),
		 EH_COUNTED_STRING_UTF8("counted", "\xc3\xa0 la", 5),
		 EH_STRING32("u32", U"\U0001F600x"),
		 EH_GUID("g", uuid));
	/* A name TraceEvent would strip without an OpCode. */
	EH_WRITE(nt_provider, "WorkStart", EH_LEVEL(4), EH_UINT8("x", 1));
	/* Same provider, name and id 0 but other fields. */
	EH_WRITE(nt_provider, "Shape", EH_LEVEL(4), EH_UINT8("a", 1));
	EH_WRITE(nt_provider, "Shape", EH_LEVEL(4), EH_UINT16("a", 1));
	/* Two event types with the same EventHeader id. */
	EH_WRITE(nt_provider, "IdOne", EH_LEVEL(4), EH_ID_VERSION(7, 1),
		 EH_UINT8("a", 1));
	EH_WRITE(nt_provider, "IdTwo", EH_LEVEL(4), EH_ID_VERSION(7, 1),
		 EH_UINT32("b", 2));
	EH_WRITE(other_provider, "IdOne", EH_LEVEL(4), EH_ID_VERSION(7, 1),
		 EH_UINT8("a", 1));
	EH_WRITE_ACTIVITY(nt_provider, "Act", aid, rid, EH_LEVEL(5),
			  EH_OPCODE(EH_OPCODE_ACTIVITY_START),
			  EH_INT32_FIXED_ARRAY("a", ((const int32_t[]){ -1, 2 }), 2),
			  EH_STRUCT("st", 2), EH_UINT8("x", 3),
			  EH_STRING_UTF8("y", "in"));
	EH_WRITE_ACTIVITY(nt_provider, "Act", aid, NULL, EH_LEVEL(5),
			  EH_INT32_FIXED_ARRAY("a", ((const int32_t[]){ 5, 6 }), 2),
			  EH_STRUCT("st", 2), EH_UINT8("x", 4),
			  EH_STRING_UTF8("y", "out"));
	/* 40,000 bytes of UTF-8 become 40,000 of UTF-16: it fits. */
	EH_WRITE(nt_provider, "Big", EH_LEVEL(4), EH_STRING_UTF8("s", big_utf8));
	/* 60,000 bytes of ASCII, 120,000 in UTF-16: more than TraceEvent
	 * reads. */
	EH_WRITE(nt_provider, "Huge", EH_LEVEL(4),
		 EH_STRING_UTF8("s", huge + 40000),
		 EH_STRING_UTF8("t", huge + 40000));
	EH_UNREGISTER(other_provider);
	EH_UNREGISTER(nt_provider);
	return 0;
}

static int remove_capture(void **state)
{
	(void)state;
	unlink(dat_path);
	return 0;
}

/* ---- writing: the capture's events, with context set here ---- */

#define NEVENTS 12	/* events in the capture */

struct written {
	int fd;				/* memfd with the nettrace stream */
	struct ehd_writer_stats st;
	char *jsonl;			/* the events as JSON lines, written */
};

static uint64_t frames[9000];

/*
 * Write @rounds copies of the capture's events; @windows makes the events
 * large enough to span several windows. Event k of round r gets time
 * 1e18 + r * 1000 + k (one in 7 earlier: out of order), cpu k % 4 (the
 * first one 300), pid 100 + k % 3, a callchain on every third.
 */
static void write_capture(struct written *out, int rounds, bool late)
{
	struct ehd_writer *w, *jw;
	struct ehd_trace_info info;
	const struct ehd_event *ev;
	struct ehd_reader *r;
	int jfd = memfd_create("jsonl", 0), r_i, k, err;
	size_t i;
	off_t len;

	for (i = 0; i < 9000; i++)
		frames[i] = 0x400000 + i;
	out->fd = memfd_create("nettrace", 0);
	assert_true(out->fd >= 0 && jfd >= 0);
	w = ehd_writer_new(EHD_OUT_NETTRACE, out->fd, 0, 0);
	jw = ehd_writer_new(EHD_OUT_JSONL, jfd, 0, EHD_META_ALL);
	assert_non_null(w);
	assert_non_null(jw);
	memset(&info, 0, sizeof(info));
	info.clockid = 1;
	info.has_clock_offset = 1;
	info.clock_offset = 1000;
	info.nr_cpus_online = 4;
	info.hostname = "host";
	assert_int_equal(ehd_writer_begin_trace(w, "test", &info), 0);
	assert_int_equal(ehd_writer_begin(jw, "test"), 0);
	for (r_i = 0; r_i < rounds; r_i++) {
		r = ehd_reader_new(0);
		assert_int_equal(ehd_reader_open(r, dat_path), 0);
		for (k = 0; ehd_reader_next(r, &ev) > 0; k++) {
			struct ehd_event e = *ev;

			e.context = EHD_CTX_TIME | EHD_CTX_TIME_UTC |
				    EHD_CTX_CPU | EHD_CTX_PID;
			e.time = UINT64_C(1000000000000000000) +
				 (uint64_t)r_i * 1000 + (uint64_t)k * 10;
			if ((r_i * NEVENTS + k) % 7 == 3)
				e.time -= 25;	/* before the previous event */
			e.cpu = r_i == 0 && k == 0 ? 300 : (uint32_t)k % 4;
			e.pid = 100 + (uint32_t)k % 3;
			e.tid = e.pid + 1000;
			if (k % 3 == 1) {
				e.context |= EHD_CTX_CALLCHAIN;
				e.callchain = frames;
				e.callchain_count = k == 1 && r_i == 0 ? 9000 :
						    3 + (size_t)k;
			}
			err = ehd_writer_event(w, &e);
			if (err == -E2BIG)
				continue;	/* the huge event: skipped */
			assert_int_equal(err, 0);
			/* What nettrace keeps of a deep stack (counted). */
			if (e.callchain_count > 8190)
				e.callchain_count = 8190;
			assert_int_equal(ehd_writer_event(jw, &e), 0);
		}
		assert_int_equal(k, NEVENTS);
		ehd_reader_free(r);
	}
	if (late) {
		/* Older than every window written: moved up, counted. */
		struct ehd_event e;

		r = ehd_reader_new(0);
		assert_int_equal(ehd_reader_open(r, dat_path), 0);
		assert_int_equal(ehd_reader_next(r, &ev), 1);
		e = *ev;
		e.context = EHD_CTX_TIME | EHD_CTX_TIME_UTC;
		e.time = UINT64_C(1000000000000000000) - 1;
		assert_int_equal(ehd_writer_event(w, &e), 0);
		ehd_reader_free(r);
	}
	ehd_writer_add_lost(w, 42);
	assert_int_equal(ehd_writer_close(w), 0);
	assert_int_equal(ehd_writer_close(jw), 0);
	ehd_writer_stats(w, &out->st);
	ehd_writer_free(w);
	ehd_writer_free(jw);
	len = lseek(jfd, 0, SEEK_END);
	out->jsonl = calloc(1, (size_t)len + 1);
	assert_int_equal(pread(jfd, out->jsonl, (size_t)len, 0), len);
	close(jfd);
}

/* All of a memfd. */
static uint8_t *slurp(int fd, size_t *len)
{
	off_t n = lseek(fd, 0, SEEK_END);
	uint8_t *p = malloc((size_t)n + 1);

	assert_non_null(p);
	assert_int_equal(pread(fd, p, (size_t)n, 0), n);
	*len = (size_t)n;
	return p;
}

/*
 * The value of trace key @key in the Trace block of nettrace @f, in @v;
 * false when there is no such key.
 */
static bool trace_key(const uint8_t *f, size_t len, const char *key,
		      char *v, size_t size)
{
	const uint8_t *p = f + 20 + 4 + 16 + 8 + 8 + 4, *end = f + len;
	uint32_t n, i, k;

	assert_true(len > 64 && f[20 + 3] == 1);	/* the Trace block */
	memcpy(&n, p, 4);
	p += 4;
	for (i = 0; i < 2 * n; i++) {
		uint32_t l = 0;
		int shift = 0;

		do {
			assert_true(p < end);
			l |= (uint32_t)(*p & 0x7f) << shift;
			shift += 7;
		} while (*p++ & 0x80);
		assert_true(l <= (size_t)(end - p));
		k = (uint32_t)strlen(key);
		if (i % 2 == 0 && l == k && !memcmp(p, key, k)) {
			p += l;
			l = *p++;
			assert_true(l < size);
			memcpy(v, p, l);
			v[l] = 0;
			return true;
		}
		p += l;
	}
	return false;
}

/* Check that trace key @key says @want (20 digits). */
static void check_key(const uint8_t *f, size_t len, const char *key,
		      unsigned long long want)
{
	char v[64], w[32];

	if (!trace_key(f, len, key, v, sizeof(v)))
		fail_msg("no trace key %s", key);
	snprintf(w, sizeof(w), "%020llu", want);
	assert_string_equal(v, w);
}

/* Read @fd back (strict) as JSON lines, sorted like the writer's order. */
static char *read_back(int fd, unsigned int flags, int *err)
{
	struct ehd_reader *r = ehd_reader_new(flags);
	int out = memfd_create("back", 0);
	struct ehd_writer *w = ehd_writer_new(EHD_OUT_JSONL, out, 0, EHD_META_ALL);
	const struct ehd_event *ev;
	size_t len;
	char *s;

	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	*err = ehd_reader_open_fd(r, fd, "nettrace");
	ehd_writer_begin(w, "back");
	if (!*err)
		while ((*err = ehd_reader_next(r, &ev)) > 0)
			assert_int_equal(ehd_writer_event(w, ev), 0);
	if (*err < 0)
		print_message("read back: %s\n", ehd_reader_error(r, NULL));
	ehd_writer_close(w);
	ehd_writer_free(w);
	ehd_reader_free(r);
	s = (char *)slurp(out, &len);
	s[len] = 0;
	close(out);
	return s;
}

/* Sort the lines of @s (the writer sorts by time; the input was not). */
static int cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *sorted_lines(char *s)
{
	char **v = NULL, *p, *out;
	size_t n = 0, i, len = strlen(s);

	for (p = strtok(s, "\n"); p; p = strtok(NULL, "\n")) {
		v = realloc(v, (n + 1) * sizeof(*v));
		v[n++] = p;
	}
	qsort(v, n, sizeof(*v), cmp_line);
	out = calloc(1, len + 2);
	for (i = 0; i < n; i++) {
		strcat(out, v[i]);
		strcat(out, "\n");
	}
	free(v);
	return out;
}

/* @want and @got hold the same lines in any order; both are freed. */
static void same_lines(char *want, char *got)
{
	char *w = sorted_lines(want), *g = sorted_lines(got);

	assert_string_equal(w, g);
	free(w);
	free(g);
	free(want);
	free(got);
}

/* ---- walking the blocks ---- */

struct block {
	unsigned int kind;
	const uint8_t *p;
	size_t size;
};

static size_t blocks_of(const uint8_t *f, size_t len, struct block *b,
			size_t max)
{
	size_t pos = 20, n = 0;

	while (pos + 4 <= len && n < max) {
		uint32_t h = (uint32_t)f[pos] | (uint32_t)f[pos + 1] << 8 |
			     (uint32_t)f[pos + 2] << 16 |
			     (uint32_t)f[pos + 3] << 24;

		b[n].kind = h >> 24;
		b[n].size = h & 0xffffff;
		b[n].p = f + pos + 4;
		assert_true(pos + 4 + b[n].size <= len);
		pos += 4 + b[n].size;
		n++;
		if (!(h >> 24))
			break;
	}
	assert_int_equal(pos, len);	/* nothing after EndOfStream */
	return n;
}

/* Pitfalls 1, 2, 5, 18: the frame of the stream. */
static void test_stream_frame(void **state)
{
	struct written w;
	struct block b[512];
	uint8_t *f;
	size_t len, n, i, events = 0;

	(void)state;
	write_capture(&w, 1, false);
	f = slurp(w.fd, &len);
	assert_memory_equal(f, "Nettrace\0\0\0\0\6\0\0\0\0\0\0\0", 20);
	n = blocks_of(f, len, b, 512);
	assert_true(n >= 5);
	assert_int_equal(b[0].kind, 1);		/* Trace first */
	assert_int_equal(b[n - 1].kind, 0);	/* EndOfStream last */
	assert_int_equal(b[n - 1].size, 0);
	for (i = 0; i < n; i++) {
		assert_true(b[i].kind != 7);	/* no RemoveThread (5) */
		assert_true(b[i].size < (1u << 24));
		if (b[i].kind == 2) {
			/* header: size 20, compressed, rows follow (2, 18) */
			assert_int_equal(b[i].p[0] | b[i].p[1] << 8, 20);
			assert_int_equal(b[i].p[2] | b[i].p[3] << 8, 1);
			assert_true(b[i].size > 20);
			events++;
		}
	}
	assert_true(events >= 1);
	free(f);
	close(w.fd);
	free(w.jsonl);
}

/*
 * Pitfalls 3, 4, 6, 7, 16, 17: over several windows (sequence points
 * between them), with stacks, activity ids and out-of-order input, the
 * strict reader accepts every reference, id, sequence number and order,
 * and reads back every event as written.
 */
static void test_windows_round_trip(void **state)
{
	struct written w;
	struct block *b = calloc(4096, sizeof(*b));
	char *back, *want, *got;
	uint8_t *f;
	size_t len, n, i, sps = 0;
	int err;

	(void)state;
	write_capture(&w, 120, false);	/* the Big event: ~4.8 MB of payloads */
	f = slurp(w.fd, &len);
	n = blocks_of(f, len, b, 4096);
	for (i = 0; i < n; i++)
		sps += b[i].kind == 4;
	assert_true(sps >= 4);		/* several windows */
	/* The counts known at the end, written back into the Trace block. */
	check_key(f, len, "ehd:EventsLost", 42);
	check_key(f, len, "ehd:EventsNotWritten", 120);	/* Huge, each round */
	check_key(f, len, "ehd:StacksCut", 1);
	check_key(f, len, "ehd:EventsUntyped", 0);
	back = read_back(w.fd, EHD_READER_STRICT, &err);
	assert_int_equal(err, 0);
	want = sorted_lines(w.jsonl);
	got = sorted_lines(back);
	assert_string_equal(want, got);
	assert_int_equal(w.st.events, 120 * (NEVENTS - 1));
	assert_true(w.st.reordered == 0);	/* late only within a window */
	free(want);
	free(got);
	free(back);
	free(f);
	free(b);
	close(w.fd);
	free(w.jsonl);
}

/*
 * A window ends at a number of rows too, not only of payload bytes:
 * 20,000 events of a 1-byte payload (20,000 bytes, a tenth of a window's
 * bytes) are 3 windows of at most 8,192 rows, where they were one Event
 * block whose rows (and memory) grew with the events.
 */
static void test_small_events_windowed(void **state)
{
	const unsigned int n = 20000;
	struct ehd_writer *w;
	const struct ehd_event *ev;
	struct ehd_reader *r;
	struct block b[64];
	struct ehd_event e;
	unsigned int i, k, events = 0, sps = 0;
	char *back, *line;
	uint8_t *f;
	size_t len, nb;
	int fd, err;

	(void)state;
	fd = memfd_create("nettrace", 0);
	assert_true(fd >= 0);
	w = ehd_writer_new(EHD_OUT_NETTRACE, fd, 0, 0);
	assert_non_null(w);
	assert_int_equal(ehd_writer_begin(w, "test"), 0);
	r = ehd_reader_new(0);
	assert_int_equal(ehd_reader_open(r, dat_path), 0);
	for (k = 0; k < 3; k++)		/* "WorkStart": a UINT8 */
		assert_int_equal(ehd_reader_next(r, &ev), 1);
	assert_int_equal(ev->name_len, 9);
	assert_memory_equal(ev->name, "WorkStart", 9);
	for (i = 0; i < n; i++) {
		e = *ev;
		e.context = EHD_CTX_TIME | EHD_CTX_CPU | EHD_CTX_PID;
		e.time = 1000 + i;
		e.cpu = 0;
		e.pid = e.tid = 100;
		assert_int_equal(ehd_writer_event(w, &e), 0);
	}
	ehd_reader_free(r);
	assert_int_equal(ehd_writer_close(w), 0);
	ehd_writer_free(w);
	f = slurp(fd, &len);
	nb = blocks_of(f, len, b, 64);
	for (k = 0; k < nb; k++) {
		events += b[k].kind == 2;
		sps += b[k].kind == 4;
	}
	assert_int_equal(events, (n + 8191) / 8192);
	assert_int_equal(sps, events);
	back = read_back(fd, EHD_READER_STRICT, &err);
	assert_int_equal(err, 0);
	for (i = 0, line = back; (line = strchr(line, '\n')); line++)
		i++;
	assert_int_equal(i, n);
	free(back);
	free(f);
	close(fd);
}

/*
 * Event @n of a run made of the capture's events over and over: on 4
 * CPUs, 3 threads, every third with a stack, every seventh 25 ns before
 * the one before it.
 */
static struct ehd_event varied(const struct ehd_event *ev, uint64_t n)
{
	struct ehd_event e = *ev;

	e.context = EHD_CTX_TIME | EHD_CTX_CPU | EHD_CTX_PID;
	e.time = 1000000 + n * 10 - (n % 7 == 3 ? 25 : 0);
	e.cpu = (uint32_t)n % 4;
	e.pid = 100 + (uint32_t)n % 3;
	e.tid = e.pid + 1000;
	if (n % 3 == 1) {
		e.context |= EHD_CTX_CALLCHAIN;
		e.callchain = frames;
		e.callchain_count = 3 + n % 20;
	}
	return e;
}

/*
 * struct fill - a nettrace filled with varied() events (fill_until_refused())
 * @fsize: the file size limit (RLIMIT_FSIZE, SIGXFSZ ignored), or
 *	RLIM_INFINITY
 * @limit: ehd_writer_set_limit(), or 0
 * @max: events to take at most, or 0
 * @err: gets the error of the event refused, or 0
 * @refused: gets its payload's size
 * @taken: gets the events taken (each also written to the JSONL)
 * @close_err: gets what ehd_writer_close() returned
 * @st: gets the writer's counts after it
 */
struct fill {
	rlim_t fsize;
	uint64_t limit;
	uint64_t max;
	int err;
	uint64_t refused;
	uint64_t taken;
	int close_err;
	struct ehd_writer_stats st;
};

/*
 * Write varied() events to nettrace @fd, and each taken to JSONL @jfd,
 * until one is refused (no event is taken after it either) or @fl->max
 * are taken; 5 events said lost; close both.
 */
static void fill_until_refused(int fd, int jfd, struct fill *fl)
{
	struct ehd_writer *w = ehd_writer_new(EHD_OUT_NETTRACE, fd, 0, 0);
	struct ehd_writer *jw = ehd_writer_new(EHD_OUT_JSONL, jfd, 0,
					       EHD_META_ALL);
	struct ehd_trace_info info = { .clockid = 1 };
	void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
	const struct ehd_event *ev;
	struct rlimit old, lim;
	uint64_t n = 0;

	fl->err = 0;
	fl->taken = 0;
	if (fl->limit) {
		assert_int_equal(ehd_writer_set_limit(w, 100), -EINVAL);
		assert_int_equal(ehd_writer_set_limit(w, fl->limit), 0);
		assert_int_equal(ehd_writer_set_limit(jw, fl->limit),
				 -ENOTSUP);
	}
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = fl->fsize;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	assert_int_equal(ehd_writer_begin_trace(w, "test", &info), 0);
	assert_int_equal(ehd_writer_begin(jw, "test"), 0);
	while (!fl->err && (!fl->max || fl->taken < fl->max)) {
		struct ehd_reader *r = ehd_reader_new(0);

		assert_int_equal(ehd_reader_open(r, dat_path), 0);
		while (!fl->err && (!fl->max || fl->taken < fl->max) &&
		       ehd_reader_next(r, &ev) > 0) {
			struct ehd_event e = varied(ev, n++);

			fl->err = ehd_writer_event(w, &e);
			if (fl->err == -E2BIG) {
				fl->err = 0;	/* Huge: not written */
			} else if (fl->err) {
				fl->refused = e.size;
				assert_int_equal(ehd_writer_event(w, &e),
						 fl->err);
			} else {
				assert_int_equal(ehd_writer_event(jw, &e), 0);
				fl->taken++;
			}
		}
		ehd_reader_free(r);
	}
	ehd_writer_add_lost(w, 5);	/* (told at the end) */
	fl->close_err = ehd_writer_close(w);
	ehd_writer_stats(w, &fl->st);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, was);
	assert_int_equal(ehd_writer_close(jw), 0);
	ehd_writer_free(w);
	ehd_writer_free(jw);
}

/*
 * ehd_writer_set_limit(): events go in until one would take the closed
 * file past the limit; it and every later one are refused with -EFBIG,
 * and the file that closes is within the limit, strictly readable, with
 * exactly the events taken. Limits from one window to several (the Big
 * event's 40 KB payloads), with stacks and out-of-order times.
 */
static void test_size_limit(void **state)
{
	static const uint64_t limits[] = { 8192, 65536, 300000, 2500000 };
	size_t li;

	(void)state;
	for (li = 0; li < sizeof(limits) / sizeof(limits[0]); li++) {
		struct fill fl = { .fsize = RLIM_INFINITY,
				   .limit = limits[li] };
		int fd = memfd_create("limit", 0), jfd = memfd_create("j", 0);
		char *back, *jsonl;
		size_t len, jlen;
		uint8_t *f;
		int err;

		fill_until_refused(fd, jfd, &fl);
		assert_int_equal(fl.err, -EFBIG);
		assert_int_equal(fl.close_err, 0);
		f = slurp(fd, &len);
		print_message("limit %llu: %zu bytes, %llu events, then one of %llu bytes\n",
			      (unsigned long long)limits[li], len,
			      (unsigned long long)fl.taken,
			      (unsigned long long)fl.refused);
		assert_true(len <= limits[li]);
		/* Not far under, unless the next one was large. */
		assert_true(len + fl.refused >= limits[li] * 9 / 10);
		assert_true(fl.taken > 0);
		back = read_back(fd, EHD_READER_STRICT, &err);
		assert_int_equal(err, 0);
		jsonl = (char *)slurp(jfd, &jlen);
		jsonl[jlen] = 0;
		same_lines(jsonl, back);
		free(f);
		close(fd);
		close(jfd);
	}
}

/*
 * A file that finds no room (a full disk; here the file size limit) is
 * cut back to the windows written whole before it and ended there: a
 * complete file within the room, strictly readable, with the events of
 * those windows (the first ones taken), its counts those of the file
 * (the losses told after it included); the error said by
 * ehd_writer_stats() and ehd_writer_close(). So for a last window that
 * finds no room at the close (200 events, fewer than fit before the
 * file's windows took the 700,000 bytes). Where not even the first
 * window fits, the output is lost, as for any write error.
 */
static void test_no_room(void **state)
{
	static const struct {
		rlim_t room;
		uint64_t max;
	} runs[] = { { 700000, 0 }, { 2500000, 0 }, { 700000, 200 } };
	struct fill fl = { 0 };
	size_t ri, len, jlen, i, nl;
	int fd, jfd, err;
	char *back, *jsonl, *p;
	uint8_t *f;

	(void)state;
	for (ri = 0; ri < sizeof(runs) / sizeof(runs[0]); ri++) {
		fd = memfd_create("room", 0);
		jfd = memfd_create("j", 0);
		fl.fsize = runs[ri].room;
		fl.max = runs[ri].max;
		fill_until_refused(fd, jfd, &fl);
		f = slurp(fd, &len);
		print_message("room %llu: %zu bytes, %llu of %llu events\n",
			      (unsigned long long)runs[ri].room, len,
			      (unsigned long long)fl.st.events,
			      (unsigned long long)fl.taken);
		assert_int_equal(fl.err, runs[ri].max ? 0 : -EFBIG);
		assert_int_equal(fl.st.no_room, EFBIG);
		assert_int_equal(fl.close_err, -EFBIG);
		assert_true(len <= runs[ri].room);
		assert_int_equal(fl.st.bytes, len);
		assert_true(fl.st.events > 0 && fl.st.events < fl.taken);
		check_key(f, len, "ehd:EventsLost", 5);
		back = read_back(fd, EHD_READER_STRICT, &err);
		assert_int_equal(err, 0);
		/* The first st.events events taken, in time order. */
		jsonl = (char *)slurp(jfd, &jlen);
		for (i = 0, nl = 0, p = jsonl; i < jlen; i++)
			if (jsonl[i] == '\n' && ++nl == fl.st.events) {
				p = jsonl + i + 1;
				break;
			}
		*p = 0;
		same_lines(jsonl, back);
		free(f);
		close(fd);
		close(jfd);
	}
	/*
	 * Not even the first window fits: the file is its Trace block, a
	 * trace of no events (its losses told); not even that: lost, as at
	 * any write error.
	 */
	for (ri = 0; ri < 2; ri++) {
		fd = memfd_create("room", 0);
		jfd = memfd_create("j", 0);
		fl.fsize = ri ? 64 : 4096;
		fl.max = 0;
		fill_until_refused(fd, jfd, &fl);
		assert_int_equal(fl.err, -EFBIG);
		assert_int_equal(fl.close_err, -EFBIG);
		assert_int_equal(fl.st.events, 0);
		if (ri) {
			assert_int_equal(fl.st.no_room, 0);
		} else {
			assert_int_equal(fl.st.no_room, EFBIG);
			f = slurp(fd, &len);
			assert_true(len > 0 && len <= 4096);
			assert_int_equal(fl.st.bytes, len);
			check_key(f, len, "ehd:EventsLost", 5);
			back = read_back(fd, EHD_READER_STRICT, &err);
			assert_int_equal(err, 0);
			assert_string_equal(back, "");
			free(back);
			free(f);
		}
		close(fd);
		close(jfd);
	}
}

/*
 * A trace without a single event (a recording where nothing happened, the
 * first file of --switch-output before any came) is still valid: its sync
 * time is not tick 0.
 */
static void test_no_events(void **state)
{
	struct ehd_trace_info info = { .clockid = 1 };
	int fd = memfd_create("empty", 0), err;
	struct ehd_writer *w = ehd_writer_new(EHD_OUT_NETTRACE, fd, 0, 0);
	char *back;

	(void)state;
	assert_non_null(w);
	assert_int_equal(ehd_writer_begin_trace(w, "empty", &info), 0);
	assert_int_equal(ehd_writer_close(w), 0);
	ehd_writer_free(w);
	back = read_back(fd, EHD_READER_STRICT, &err);
	assert_int_equal(err, 0);
	assert_string_equal(back, "");
	free(back);
	close(fd);
}

/* Pitfalls 10, 11: too-large payloads skipped, long stacks cut; counted. */
static void test_limits_counted(void **state)
{
	struct written w;
	char *back;
	int err;

	(void)state;
	uint8_t *f;
	size_t len;

	write_capture(&w, 1, false);
	assert_int_equal(w.st.skipped, 1);	/* Huge */
	assert_int_equal(w.st.stacks_cut, 1);	/* 9,000 frames */
	assert_int_equal(w.st.lost, 42);
	/* One window: the Trace block went out at the close, counts in. */
	f = slurp(w.fd, &len);
	check_key(f, len, "ehd:EventsLost", 42);
	check_key(f, len, "ehd:EventsNotWritten", 1);
	check_key(f, len, "ehd:StacksCut", 1);
	free(f);
	back = read_back(w.fd, EHD_READER_STRICT, &err);
	assert_int_equal(err, 0);
	assert_null(strstr(back, "Huge"));
	assert_non_null(strstr(back, "NtTest:Big"));
	free(back);
	close(w.fd);
	free(w.jsonl);
}

/*
 * On a pipe the counts are in when the Trace block goes out at the close
 * (a small trace); an event without a time in a timed trace is counted.
 */
static void test_pipe_counts(void **state)
{
	struct ehd_trace_info info = { .clockid = 1 };
	struct ehd_writer_stats st;
	const struct ehd_event *ev;
	struct ehd_reader *r = ehd_reader_new(0);
	struct ehd_writer *w;
	uint8_t *f = malloc(1 << 20);
	ssize_t n;
	size_t len = 0;
	int p[2], k;

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_true(fcntl(p[1], F_SETPIPE_SZ, 1 << 20) >= (1 << 16));
	w = ehd_writer_new(EHD_OUT_NETTRACE, p[1], 0, 0);
	assert_int_equal(ehd_writer_begin_trace(w, "pipe", &info), 0);
	assert_int_equal(ehd_reader_open(r, dat_path), 0);
	for (k = 0; k < 3 && ehd_reader_next(r, &ev) > 0; k++) {
		struct ehd_event e = *ev;

		if (k != 1) {
			e.context |= EHD_CTX_TIME;
			e.time = 1000 + (uint64_t)k;
		}
		assert_int_equal(ehd_writer_event(w, &e), 0);
	}
	ehd_writer_add_lost(w, 7);
	assert_int_equal(ehd_writer_close(w), 0);
	ehd_writer_stats(w, &st);
	assert_int_equal(st.untimed, 1);
	close(p[1]);
	while ((n = read(p[0], f + len, (1 << 20) - len)) > 0)
		len += (size_t)n;
	check_key(f, len, "ehd:EventsLost", 7);
	close(p[0]);
	ehd_writer_free(w);
	ehd_reader_free(r);
	free(f);
}

/* JSON shows every frame of a stack, however deep. */
static void test_json_whole_stack(void **state)
{
	const struct ehd_event *ev;
	struct ehd_reader *r = ehd_reader_new(0);
	int fd = memfd_create("json", 0);
	struct ehd_writer *w = ehd_writer_new(EHD_OUT_JSONL, fd, 0,
					      EHD_META_ALL);
	struct ehd_event e;
	size_t len, n = 0;
	char *s, *p;

	(void)state;
	for (len = 0; len < 9000; len++)
		frames[len] = 0x400000 + len;
	assert_int_equal(ehd_reader_open(r, dat_path), 0);
	assert_int_equal(ehd_reader_next(r, &ev), 1);
	e = *ev;
	e.context |= EHD_CTX_CALLCHAIN;
	e.callchain = frames;
	e.callchain_count = 9000;
	assert_int_equal(ehd_writer_begin(w, "deep"), 0);
	assert_int_equal(ehd_writer_event(w, &e), 0);
	assert_int_equal(ehd_writer_close(w), 0);
	s = (char *)slurp(fd, &len);
	s[len] = 0;
	for (p = strstr(s, "\"stack\""); p && (p = strstr(p, "\"0x4")); p++)
		n++;
	assert_int_equal(n, 9000);
	free(s);
	close(fd);
	ehd_writer_free(w);
	ehd_reader_free(r);
}

/*
 * A stack is written once per window however many events have it: 30
 * events over three stacks (two the same but for their last frame, one
 * a frame longer) make a Stack block of three, and read back each event
 * has its own.
 */
static void test_stacks_shared(void **state)
{
	static const size_t len[3] = { 40, 40, 41 };
	const struct ehd_event *ev;
	struct ehd_reader *r = ehd_reader_new(0);
	int fd = memfd_create("nettrace", 0), err;
	struct ehd_writer *w = ehd_writer_new(EHD_OUT_NETTRACE, fd, 0, 0);
	uint64_t chain[3][41];
	struct ehd_event e;
	struct block b[64];
	size_t n, i, k, stacks = 0, fsize;
	uint8_t *f;
	char *back, *p;

	(void)state;
	for (k = 0; k < 3; k++)
		for (i = 0; i < 41; i++)
			chain[k][i] = 0x400000 + i * 16;
	chain[1][39] = 0x500000;	/* only the last frame differs */
	assert_int_equal(ehd_reader_open(r, dat_path), 0);
	assert_int_equal(ehd_reader_next(r, &ev), 1);
	e = *ev;
	e.context |= EHD_CTX_CALLCHAIN | EHD_CTX_TIME;
	assert_int_equal(ehd_writer_begin(w, "stacks"), 0);
	for (i = 0; i < 30; i++) {
		e.time = 1000 + i;
		e.callchain = chain[i % 3];
		e.callchain_count = len[i % 3];
		assert_int_equal(ehd_writer_event(w, &e), 0);
	}
	assert_int_equal(ehd_writer_close(w), 0);
	f = slurp(fd, &fsize);
	n = blocks_of(f, fsize, b, 64);
	for (i = 0; i < n; i++) {
		if (b[i].kind != 5)	/* StackBlock */
			continue;
		/* first id 1, then the count */
		assert_int_equal(b[i].p[0] | b[i].p[1] << 8, 1);
		stacks += (size_t)(b[i].p[4] | b[i].p[5] << 8);
	}
	assert_int_equal(stacks, 3);
	free(f);
	back = read_back(fd, EHD_READER_STRICT, &err);
	assert_int_equal(err, 0);
	for (k = 0, p = back; (p = strstr(p, "0x500000")); p++)
		k++;
	assert_int_equal(k, 10);	/* the second stack's events, each */
	free(back);
	close(fd);
	ehd_writer_free(w);
	ehd_reader_free(r);
}

/* A metadata row's parts, enough to check them. */
struct row {
	uint32_t id, event_id;
	char provider[64], name[64];
	bool has_opcode;
	const uint8_t *fields;
	size_t fields_len;
};

static uint64_t varuint(const uint8_t **p)
{
	uint64_t v = 0;
	int s = 0;

	do
		v |= (uint64_t)(**p & 0x7f) << s, s += 7;
	while (*(*p)++ & 0x80);
	return v;
}

static void string(const uint8_t **p, char *dst, size_t max)
{
	size_t n = (size_t)varuint(p);

	assert_true(n < max);
	memcpy(dst, *p, n);
	dst[n] = 0;
	*p += n;
}

/* The metadata rows of a stream. */
static size_t rows_of(const uint8_t *f, size_t len, struct row *rows,
		      size_t max)
{
	struct block b[512];
	size_t n = blocks_of(f, len, b, 512), i, k = 0;

	for (i = 0; i < n; i++) {
		const uint8_t *p, *end;

		if (b[i].kind != 3)
			continue;
		p = b[i].p + 2 + (b[i].p[0] | b[i].p[1] << 8);
		end = b[i].p + b[i].size;
		while (p < end && k < max) {
			size_t size = p[0] | p[1] << 8, count, j;
			const uint8_t *next = p + 2 + size, *o, *oend;

			p += 2;
			rows[k].id = (uint32_t)varuint(&p);
			string(&p, rows[k].provider, 64);
			rows[k].event_id = (uint32_t)varuint(&p);
			string(&p, rows[k].name, 64);
			rows[k].fields = p;
			count = p[0] | p[1] << 8;
			p += 2;
			for (j = 0; j < count; j++)
				p += 2 + (p[0] | p[1] << 8);
			rows[k].fields_len = (size_t)(p - rows[k].fields);
			oend = p + 2 + (p[0] | p[1] << 8);
			o = p + 2;
			rows[k].has_opcode = o < oend && *o == 1;
			assert_true(oend <= next);
			p = next;
			k++;
		}
	}
	return k;
}

/*
 * Pitfalls 4, 8, 9: metadata ids from 1, never reused; every row has an
 * OpCode; a (provider, EventId) pair names one field list: two shapes of
 * id 0 get two synthetic ids, a second event type with EventHeader id 7
 * does not get 7, another provider's id 7 does.
 */
static void test_metadata_ids(void **state)
{
	struct written w;
	struct row rows[64];
	uint8_t *f;
	size_t len, n, i, j;
	uint32_t shape[2], n_shape = 0, id7 = 0;

	(void)state;
	write_capture(&w, 1, false);
	f = slurp(w.fd, &len);
	n = rows_of(f, len, rows, 64);
	assert_int_equal(n, w.st.metadata);
	for (i = 0; i < n; i++) {
		assert_true(rows[i].id != 0);
		assert_true(rows[i].has_opcode);
		for (j = 0; j < i; j++) {
			assert_true(rows[i].id != rows[j].id);
			if (!strcmp(rows[i].provider, rows[j].provider) &&
			    rows[i].event_id == rows[j].event_id)
				fail_msg("%s: event id %u names two rows",
					 rows[i].provider, rows[i].event_id);
		}
		if (!strcmp(rows[i].name, "Shape"))
			shape[n_shape++] = rows[i].event_id;
		if (!strcmp(rows[i].provider, "NtTest") &&
		    (!strcmp(rows[i].name, "IdOne") || !strcmp(rows[i].name, "IdTwo")))
			id7 += rows[i].event_id == 7;
		if (!strcmp(rows[i].provider, "NtOther"))
			assert_int_equal(rows[i].event_id, 7);
		if (!strcmp(rows[i].name, "WorkStart"))
			assert_true(rows[i].has_opcode);
	}
	assert_int_equal(n_shape, 2);
	assert_true(shape[0] != shape[1] && shape[0] >= 0x8000 &&
		    shape[1] >= 0x8000);
	assert_int_equal(id7, 1);
	free(f);
	close(w.fd);
	free(w.jsonl);
}

/*
 * Pitfall 8: synthetic ids are stable: another file of the same events
 * gives each type the same EventId.
 */
static void test_event_ids_stable(void **state)
{
	struct written a, b;
	struct row ra[64], rb[64];
	uint8_t *fa, *fb;
	size_t la, lb, na, nb, i;

	(void)state;
	write_capture(&a, 1, false);
	write_capture(&b, 2, false);
	fa = slurp(a.fd, &la);
	fb = slurp(b.fd, &lb);
	na = rows_of(fa, la, ra, 64);
	nb = rows_of(fb, lb, rb, 64);
	assert_int_equal(na, nb);
	for (i = 0; i < na; i++) {
		assert_string_equal(ra[i].provider, rb[i].provider);
		assert_string_equal(ra[i].name, rb[i].name);
		assert_int_equal(ra[i].event_id, rb[i].event_id);
	}
	free(fa);
	free(fb);
	close(a.fd);
	close(b.fd);
	free(a.jsonl);
	free(b.jsonl);
}

/*
 * Pitfall 7: an event older than the windows already written is moved
 * up to the last sequence point's time and counted; the stream stays
 * valid for the strict reader.
 */
static void test_late_event_reordered(void **state)
{
	struct written w;
	char *back;
	int err;

	(void)state;
	write_capture(&w, 120, true);
	assert_int_equal(w.st.reordered, 1);
	back = read_back(w.fd, EHD_READER_STRICT, &err);
	assert_int_equal(err, 0);
	assert_int_equal(w.st.events, 120 * (NEVENTS - 1) + 1);
	free(back);
	close(w.fd);
	free(w.jsonl);
}

/* Pitfall 14: text is UTF-16 (type 18 or Array of UTF16CodeUnit). */
static void test_text_utf16(void **state)
{
	struct written w;
	struct row rows[64];
	uint8_t *f;
	size_t len, n, i;
	int err;
	char *back;

	(void)state;
	write_capture(&w, 1, false);
	f = slurp(w.fd, &len);
	n = rows_of(f, len, rows, 64);
	for (i = 0; i < n && strcmp(rows[i].name, "Text"); i++)
		;
	assert_true(i < n);
	/* fields: utf8 -> 18, latin1 -> 18, counted -> 19(4), u32 -> 18, g -> 17 */
	{
		const uint8_t *p = rows[i].fields + 2;
		static const uint8_t want[5][2] = {
			{ 18, 0 }, { 18, 0 }, { 19, 4 }, { 18, 0 }, { 17, 0 }
		};
		size_t k;

		for (k = 0; k < 5; k++) {
			size_t size = p[0] | p[1] << 8;
			const uint8_t *q = p + 2;
			char name[64];

			string(&q, name, sizeof(name));
			assert_int_equal(q[0], want[k][0]);
			if (want[k][1])
				assert_int_equal(q[1], want[k][1]);
			p += 2 + size;
		}
	}
	back = read_back(w.fd, EHD_READER_STRICT, &err);
	assert_int_equal(err, 0);
	assert_non_null(strstr(back, "\"utf8\":\"h\xc3\xa9llo \xe2\x98\x83 \xf0\x9f\x98\x80\""));
	assert_non_null(strstr(back, "\"latin1\":\"caf\xc3\xa9\""));
	assert_non_null(strstr(back, "\"g\":\"12345678-9abc-def0-0102-030405060708\""));
	free(back);
	free(f);
	close(w.fd);
	free(w.jsonl);
}

/* ---- the strict reader refuses what TraceEvent refuses ---- */

struct bytes {
	uint8_t p[72 << 10];	/* (a payload over 65,535 bytes fits) */
	size_t n;
};

static void b_put(struct bytes *b, const void *p, size_t n)
{
	assert_true(b->n + n <= sizeof(b->p));
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void b_le(struct bytes *b, uint64_t v, int size)
{
	int i;

	for (i = 0; i < size; i++)
		b->p[b->n++] = (uint8_t)(v >> (8 * i));
}

static void b_str(struct bytes *b, const char *s)
{
	b->p[b->n++] = (uint8_t)strlen(s);
	b_put(b, s, strlen(s));
}

static size_t b_block(struct bytes *b)
{
	b_le(b, 0, 4);
	return b->n;
}

static void b_end_block(struct bytes *b, size_t at, unsigned int kind)
{
	uint32_t h = (uint32_t)(b->n - at) | kind << 24;

	memcpy(b->p + at - 4, &h, 4);
}

/* What to break in a small valid stream. */
enum breakage {
	OK, NO_OPCODE, TWICE_METADATA, UNKNOWN_THREAD, SEQ_FROM_2,
	CAPTURE_UNSORTED, EMPTY_EVENT_BLOCK, NO_END, FIXED_ARRAY_0,
	SAME_EVENT_ID, BEFORE_SYNC, UNKNOWN_STACK, UNKNOWN_LABELS,
	LONG_NAME, BIG_PAYLOAD,
};

/* A thread name longer than the 63 bytes it was once cut to. */
static const char long_name[] =
	"a thread name of more than sixty-three bytes, which is read whole "
	"and given out whole";

/* A v6 stream: trace, metadata, thread, two events, end. */
static void stream(struct bytes *b, enum breakage brk)
{
	size_t at, row;
	int i;

	b->n = 0;
	b_put(b, "Nettrace\0\0\0\0\6\0\0\0\0\0\0\0", 20);
	at = b_block(b);
	b_le(b, 2025, 2), b_le(b, 1, 2), b_le(b, 3, 2), b_le(b, 1, 2);
	b_le(b, 0, 8);
	b_le(b, 100, 8);			/* sync ticks */
	b_le(b, 1000000000, 8);
	b_le(b, 8, 4);
	b_le(b, 0, 4);
	b_end_block(b, at, 1);
	at = b_block(b);
	b_le(b, 0, 2);
	for (i = 1; i <= (brk == TWICE_METADATA || brk == SAME_EVENT_ID ? 2 : 1); i++) {
		row = b->n;
		b_le(b, 0, 2);
		b->p[b->n++] = brk == TWICE_METADATA ? 1 : (uint8_t)i;
		b_str(b, "Prov");
		b->p[b->n++] = 5;		/* event id */
		b_str(b, "Ev");
		b_le(b, 1, 2);			/* one field */
		b_le(b, brk == FIXED_ARRAY_0 ? 6 : 3, 2);	/* field size */
		b_str(b, "x");
		if (brk == FIXED_ARRAY_0) {
			b->p[b->n++] = 22;
			b->p[b->n++] = 6;
			b_le(b, 0, 2);
		} else {
			b->p[b->n++] = i == 2 ? 8 : 6;	/* Byte / UInt16 */
		}
		if (brk == NO_OPCODE) {
			b_le(b, 0, 2);
		} else {
			b_le(b, 2, 2);
			b->p[b->n++] = 1;
			b->p[b->n++] = 0;
		}
		b_le(b, b->n - row - 2, 2);
		memmove(b->p + row, b->p + b->n - 2, 2);
		b->n -= 2;
	}
	b_end_block(b, at, 3);
	at = b_block(b);
	row = b->n;
	b_le(b, 5, 2);				/* row: index 1, pid 9 */
	b->p[b->n++] = 1;
	b->p[b->n++] = 2;
	b->p[b->n++] = 9;
	b->p[b->n++] = 3;
	b->p[b->n++] = 9;
	if (brk == LONG_NAME) {
		b->p[b->n++] = 1;		/* its Name */
		b_str(b, long_name);
		b->p[row] = (uint8_t)(b->n - row - 2);
	}
	b_end_block(b, at, 6);
	at = b_block(b);
	b_le(b, 20, 2), b_le(b, 1, 2), b_le(b, 200, 8), b_le(b, 300, 8);
	if (brk != EMPTY_EVENT_BLOCK) {
		/* all flags but stack/labels: metadata 1, seq, capture 1, cpu 0 */
		b->p[b->n++] = 0x01 | 0x02 | 0x04 | 0x40 | 0x80 |
			       (brk == UNKNOWN_STACK ? 0x08 : 0) |
			       (brk == UNKNOWN_LABELS ? 0x10 : 0);
		b->p[b->n++] = 1;
		b->p[b->n++] = brk == SEQ_FROM_2 ? 1 : 0;
		b->p[b->n++] = 1;
		b->p[b->n++] = 0;
		b->p[b->n++] = brk == UNKNOWN_THREAD ? 2 : 1;
		if (brk == UNKNOWN_STACK)
			b->p[b->n++] = 5;	/* no stack block has it */
		b_le(b, brk == BEFORE_SYNC ? 50 : 200, 1), b->p[b->n - 1] |= 0x80,
			b->p[b->n++] = brk == BEFORE_SYNC ? 0 : 1;
		if (brk == UNKNOWN_LABELS)
			b->p[b->n++] = 5;	/* no label block has it */
		b->p[b->n++] = 1;
		b->p[b->n++] = 7;
		/* second: another capture thread, not marked sorted */
		b->p[b->n++] = brk == CAPTURE_UNSORTED ? 0x02 :
			       brk == BIG_PAYLOAD ? 0x40 | 0x80 : 0x40;
		if (brk == CAPTURE_UNSORTED) {
			b->p[b->n++] = 0;
			b->p[b->n++] = 0;	/* capture thread 0: unknown too */
			b->p[b->n++] = 0;
		}
		b->p[b->n++] = 5;
		if (brk == BIG_PAYLOAD) {	/* 65,536 bytes: one too many */
			b_put(b, "\x80\x80\x04", 3);
			memset(b->p + b->n, 0, 1u << 16);
			b->n += 1u << 16;
		} else {
			b->p[b->n++] = 8;
		}
	}
	b_end_block(b, at, 2);
	if (brk != NO_END)
		b_le(b, 0, 4);
}

static int read_stream(const struct bytes *b, unsigned int flags,
		       char *why, size_t why_len)
{
	int fd = memfd_create("s", 0), err, n = 0;
	struct ehd_reader *r = ehd_reader_new(flags);
	const struct ehd_event *ev;

	assert_int_equal(write(fd, b->p, b->n), (ssize_t)b->n);
	err = ehd_reader_open_fd(r, fd, "s");
	if (!err)
		while ((err = ehd_reader_next(r, &ev)) > 0)
			n++;
	if (err < 0)
		snprintf(why, why_len, "%s", ehd_reader_error(r, NULL));
	ehd_reader_free(r);
	close(fd);
	return err < 0 ? err : n;
}

/*
 * Events naming a thread, stack or label list the file does not have:
 * the strict reader refuses them, the lax one gives them out without it,
 * counted (both events: the second takes the first one's references).
 */
static void test_dangling_counted(void **state)
{
	static const enum breakage brk[] = {
		UNKNOWN_THREAD, UNKNOWN_STACK, UNKNOWN_LABELS,
	};
	struct ehd_reader_stats st;
	const struct ehd_event *ev;
	struct ehd_reader *r;
	struct bytes b;
	size_t i;
	int fd, n;

	(void)state;
	for (i = 0; i < sizeof(brk) / sizeof(brk[0]); i++) {
		stream(&b, brk[i]);
		fd = memfd_create("s", 0);
		assert_int_equal(write(fd, b.p, b.n), (ssize_t)b.n);
		r = ehd_reader_new(0);
		assert_int_equal(ehd_reader_open_fd(r, fd, "s"), 0);
		for (n = 0; ehd_reader_next(r, &ev) > 0; n++)
			assert_false(ev->context & EHD_CTX_CALLCHAIN);
		assert_int_equal(n, 2);
		ehd_reader_stats(r, &st);
		assert_int_equal(st.dangling, 2);
		ehd_reader_free(r);
		close(fd);
	}
	stream(&b, OK);
	fd = memfd_create("s", 0);
	assert_int_equal(write(fd, b.p, b.n), (ssize_t)b.n);
	r = ehd_reader_new(0);
	assert_int_equal(ehd_reader_open_fd(r, fd, "s"), 0);
	while (ehd_reader_next(r, &ev) > 0)
		;
	ehd_reader_stats(r, &st);
	assert_int_equal(st.dangling, 0);
	ehd_reader_free(r);
	close(fd);
}

/* A thread's name is given out whole, however long. */
static void test_long_thread_name(void **state)
{
	const struct ehd_event *ev;
	struct ehd_reader *r = ehd_reader_new(EHD_READER_STRICT);
	struct bytes b;
	int fd = memfd_create("s", 0);

	(void)state;
	stream(&b, LONG_NAME);
	assert_int_equal(write(fd, b.p, b.n), (ssize_t)b.n);
	assert_int_equal(ehd_reader_open_fd(r, fd, "s"), 0);
	assert_int_equal(ehd_reader_next(r, &ev), 1);
	assert_non_null(ev->comm);
	assert_string_equal(ev->comm, long_name);
	ehd_reader_free(r);
	close(fd);
}

static void test_strict_refuses(void **state)
{
	static const struct {
		enum breakage brk;
		const char *why;	/* part of the strict reader's reason */
		bool lax_ok;		/* the lax reader reads it */
	} cases[] = {
		{ NO_OPCODE, "no OpCode", true },
		{ TWICE_METADATA, "defined twice", true },
		{ UNKNOWN_THREAD, "unknown thread index", true },
		{ SEQ_FROM_2, "not 1", true },
		{ CAPTURE_UNSORTED, "not marked IsSorted", true },
		{ EMPTY_EVENT_BLOCK, "without events", true },
		{ NO_END, "EndOfStream", false },
		{ FIXED_ARRAY_0, "fixed array of 0", true },
		{ SAME_EVENT_ID, "already names other fields", true },
		{ BEFORE_SYNC, "sync time", true },
		{ UNKNOWN_STACK, "unknown stack id", true },
		{ UNKNOWN_LABELS, "unknown label list", true },
		{ BIG_PAYLOAD, "TraceEvent reads 65,535", true },
	};
	struct bytes b;
	char why[256];
	size_t i;

	(void)state;
	stream(&b, OK);
	assert_int_equal(read_stream(&b, EHD_READER_STRICT, why, sizeof(why)), 2);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		stream(&b, cases[i].brk);
		why[0] = 0;
		assert_true(read_stream(&b, EHD_READER_STRICT, why,
					sizeof(why)) < 0);
		if (!strstr(why, cases[i].why))
			fail_msg("case %zu: \"%s\" does not say \"%s\"", i, why,
				 cases[i].why);
		if (cases[i].lax_ok)
			assert_true(read_stream(&b, 0, why, sizeof(why)) >= 0);
	}
}

/* ---- system traces: PerfView's universal providers ---- */

static struct ehd_event system_event(uint64_t t, uint32_t pid,
				     const struct ehd_system *sy,
				     const char *name)
{
	struct ehd_event e;

	memset(&e, 0, sizeof(e));
	e.kind = EHD_EVENT_SYSTEM;
	e.provider = "Universal.System";
	e.provider_len = strlen(e.provider);
	e.name = e.tracepoint = name;
	e.name_len = e.tracepoint_len = strlen(name);
	e.context = EHD_CTX_TIME | EHD_CTX_PID | EHD_CTX_CPU;
	e.time = t;
	e.pid = e.tid = pid;
	e.cpu = 1;
	e.system = sy;
	return e;
}

/* The field list of row @name: u16 count, then the fields. */
static const struct row *row_named(const struct row *rows, size_t n,
				   const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(rows[i].name, name))
			return &rows[i];
	fail_msg("no metadata row %s", name);
	return NULL;
}

/*
 * PerfView's symbol lookup from ProcessMappingMetadata: p_vaddr and
 * p_offset of the mapping's segment written with the build id (one
 * metadata per distinct text); --strict refuses them apart or not
 * numbers. The idle task: named swapper, its samples without a stack.
 */
static void test_lookup_metadata(void **state)
{
	static const uint64_t chain[] = { (uint64_t)-128, 0xffffffff81000000ull };
	struct ehd_system map1 = { .kind = EHD_SYSTEM_MAPPING, .pid = 42,
				   .mapping_id = 7, .start = 0x1000,
				   .end = 0x3000, .file_offset = 0x1000,
				   .file_name = "/bin/x", .build_id = "abcd",
				   .has_segment = 1, .segment_vaddr = 0x401000,
				   .segment_offset = 0x1000 };
	struct ehd_system map2 = map1, map3 = map1;
	struct ehd_event ev[4], *idle = &ev[3];
	int fd = memfd_create("lookup", 0), err;
	struct ehd_writer *w = ehd_writer_new(EHD_OUT_NETTRACE, fd, 0, 0);
	size_t len, i;
	uint8_t *file, *at;
	char *json;

	(void)state;
	map2.mapping_id = 8;
	map2.start = 0x8000;		/* the same file and segment */
	map2.end = 0xa000;
	map3.mapping_id = 9;
	map3.segment_vaddr = 0x402000;	/* another segment */
	ev[0] = system_event(110, 42, &map1, "ProcessMapping");
	ev[1] = system_event(120, 42, &map2, "ProcessMapping");
	ev[2] = system_event(130, 42, &map3, "ProcessMapping");
	ev[3] = system_event(140, 0, NULL, "cpu");
	idle->kind = EHD_EVENT_SAMPLE;
	idle->provider = "Universal.Events";
	idle->value = 1;
	idle->context |= EHD_CTX_CALLCHAIN;
	idle->callchain = chain;
	idle->callchain_count = 2;
	assert_int_equal(ehd_writer_begin(w, "test"), 0);
	for (i = 0; i < 4; i++)
		assert_int_equal(ehd_writer_event(w, &ev[i]), 0);
	assert_int_equal(ehd_writer_close(w), 0);
	ehd_writer_free(w);

	json = read_back(fd, EHD_READER_STRICT, &err);
	assert_int_equal(err, 0);
	assert_non_null(strstr(json, "\"SymbolMetadata\":\"{\\\"type\\\":\\\"ELF\\\",\\\"build_id\\\":\\\"abcd\\\",\\\"p_vaddr\\\":\\\"0x401000\\\",\\\"p_offset\\\":\\\"0x1000\\\"}\""));
	assert_non_null(strstr(json, "\"p_vaddr\\\":\\\"0x402000\\\""));
	assert_non_null(strstr(json, "\"Id\":8,\"StartAddress\":\"0x8000\",\"EndAddress\":\"0xA000\",\"FileOffset\":\"0x1000\",\"FileName\":\"/bin/x\",\"MetadataId\":1,"));
	assert_non_null(strstr(json, "\"Id\":9,\"StartAddress\":\"0x1000\",\"EndAddress\":\"0x3000\",\"FileOffset\":\"0x1000\",\"FileName\":\"/bin/x\",\"MetadataId\":2,"));
	assert_non_null(strstr(json, "{\"n\":\"Universal.System:ExistingProcess\",\"NamespaceId\":0,\"Name\":\"swapper\","));
	assert_non_null(strstr(json, "{\"n\":\"Universal.Events:cpu\",\"Value\":1,"));
	assert_null(strstr(strstr(json, "Universal.Events:cpu"), "\"stack\""));
	free(json);

	/* p_offset without p_vaddr: --strict says where; without, it reads */
	file = slurp(fd, &len);
	at = memmem(file, len, "\"p_vaddr\"", 9);
	assert_non_null(at);
	at[1] = 'q';
	assert_int_equal(pwrite(fd, file, len, 0), (ssize_t)len);
	json = read_back(fd, EHD_READER_STRICT, &err);
	assert_int_equal(err, -EBADMSG);
	free(json);
	json = read_back(fd, 0, &err);
	assert_int_equal(err, 0);
	free(json);
	/* a value PerfView does not read as a number */
	at[1] = 'p';
	at = memmem(file, len, "\"0x401000\"", 10);
	assert_non_null(at);
	at[3] = 'g';
	assert_int_equal(pwrite(fd, file, len, 0), (ssize_t)len);
	json = read_back(fd, EHD_READER_STRICT, &err);
	assert_int_equal(err, -EBADMSG);
	free(json);
	free(file);
	close(fd);
}

/* The length of JSON string @key of @json, all of it character @c. */
static size_t string_of(const char *json, const char *key, char c)
{
	char want[64], set[2] = { c, 0 };
	const char *at;
	size_t n;

	snprintf(want, sizeof(want), "\"%s\":\"", key);
	at = strstr(json, want);
	assert_non_null(at);
	at += strlen(want);
	n = strspn(at, set);
	assert_int_equal(at[n], '"');
	return n;
}

/*
 * A name PerfView reads as a u16 count of UTF-8 bytes (a mapping's file
 * name, a process's names) too long for its event's payload of at most
 * 65,535 bytes: cut before the character that would straddle the room
 * left, the file still one TraceEvent reads, and counted as lossy. The
 * room: 65,535 less the mapping's id, start, end and file offset before
 * the name (1 + 2 + 2 + 1 bytes), its count (2) and the most its
 * metadata id after it may take (10): 65,517 bytes, of which the euro
 * sign's first byte is the last. A process's two names (after its id, 1
 * byte) share the room: the namespace's name of 40,000 keeps 32,767
 * bytes (2 of count), the name what is left, 32,763.
 */
static void test_long_name_cut(void **state)
{
	enum { NAME = 70000, EURO_AT = 65516, NS_NAME = 40000 };
	struct ehd_system map = { .kind = EHD_SYSTEM_MAPPING, .pid = 42,
				  .mapping_id = 7, .start = 0x1000,
				  .end = 0x3000, .build_id = "abcd" };
	struct ehd_system proc = { .kind = EHD_SYSTEM_PROCESS_CREATE,
				   .pid = 42 };
	int fd = memfd_create("long", 0), err;
	struct ehd_writer *w = ehd_writer_new(EHD_OUT_NETTRACE, fd, 0, 0);
	struct ehd_writer_stats st;
	struct ehd_event ev;
	char *name = malloc(NAME + 1), *ns = malloc(NS_NAME + 1), *json;

	(void)state;
	assert_non_null(name);
	assert_non_null(ns);
	memset(name, 'a', NAME);
	memcpy(name + EURO_AT, "\xe2\x82\xac", 3);
	name[NAME] = 0;
	memset(ns, 'b', NS_NAME);
	ns[NS_NAME] = 0;
	map.file_name = name;
	proc.name = name;
	proc.ns_name = ns;
	assert_int_equal(ehd_writer_begin(w, "test"), 0);
	ev = system_event(100, 42, &proc, "ProcessCreate");
	assert_int_equal(ehd_writer_event(w, &ev), 0);
	ev = system_event(110, 42, &map, "ProcessMapping");
	assert_int_equal(ehd_writer_event(w, &ev), 0);
	ehd_writer_stats(w, &st);
	assert_int_equal(st.lossy, 3);
	assert_int_equal(ehd_writer_close(w), 0);
	ehd_writer_free(w);

	json = read_back(fd, EHD_READER_STRICT, &err);
	assert_int_equal(err, 0);
	assert_int_equal(string_of(json, "FileName", 'a'), EURO_AT);
	assert_int_equal(string_of(json, "Name", 'a'), 32763);
	assert_int_equal(string_of(json, "NamespaceName", 'b'), 32767);
	free(json);
	free(ns);
	free(name);
	close(fd);
}

/*
 * Samples and system events are written as PerfView's own parsers read
 * them: Universal.System ids 0-5, Universal.Events "cpu" and "cswitch"
 * with a VarUInt Value, payloads of varuints and u16-counted UTF-8
 * (Arrays of UTF8CodeUnit), one ProcessMappingMetadata per build id,
 * perf's context markers out of the stacks, ExpectedCPUSamplingRate in
 * the trace; read back, the mappings attribute the stacks.
 */
static void test_universal(void **state)
{
	static const uint64_t chain[] = {
		(uint64_t)-512, 0x1100, 0x2f00, 0x9999	/* PERF_CONTEXT_USER */
	};
	static const uint8_t mapping_fields[] = {
		6, 0,
		4, 0, 2, 'I', 'd', 21,
		14, 0, 12, 'S', 't', 'a', 'r', 't', 'A', 'd', 'd', 'r', 'e', 's', 's', 21,
		12, 0, 10, 'E', 'n', 'd', 'A', 'd', 'd', 'r', 'e', 's', 's', 21,
		12, 0, 10, 'F', 'i', 'l', 'e', 'O', 'f', 'f', 's', 'e', 't', 21,
		11, 0, 8, 'F', 'i', 'l', 'e', 'N', 'a', 'm', 'e', 19, 23,
		12, 0, 10, 'M', 'e', 't', 'a', 'd', 'a', 't', 'a', 'I', 'd', 21,
	};
	static const uint8_t mapping_payload[] = {
		7, 0x80, 0x20, 0x80, 0x60, 0x80, 0x04,	/* 7, 0x1000, 0x3000, 0x200 */
		6, 0, '/', 'b', 'i', 'n', '/', 'x', 1,
	};
	struct ehd_system proc = { .kind = EHD_SYSTEM_EXISTING_PROCESS,
				   .pid = 42, .name = "proc42" };
	struct ehd_system map1 = { .kind = EHD_SYSTEM_MAPPING, .pid = 42,
				   .mapping_id = 7, .start = 0x1000,
				   .end = 0x3000, .file_offset = 0x200,
				   .file_name = "/bin/x", .build_id = "abcd" };
	struct ehd_system map2 = map1, gone = { .kind = EHD_SYSTEM_PROCESS_EXIT,
						.pid = 42 };
	static const uint8_t blob[] = { 1, 2, 3, 4 };
	struct ehd_event ev[7], *cpu = &ev[2], *sw = &ev[3], *raw = &ev[6];
	struct ehd_writer_stats st;
	struct ehd_writer *again;
	struct ehd_trace_info info;
	const struct ehd_event *back;
	struct ehd_reader *r;
	struct ehd_frame f[4];
	struct row rows[16];
	const struct row *m;
	int fd = memfd_create("universal", 0), err, n_cpu = 0;
	struct ehd_writer *w = ehd_writer_new(EHD_OUT_NETTRACE, fd, 0, 0);
	size_t len, n, i;
	uint8_t *file;
	char *json;

	(void)state;
	map2.mapping_id = 8;
	map2.start = 0x5000;
	map2.end = 0x6000;
	ev[0] = system_event(100, 42, &proc, "ExistingProcess");
	ev[1] = system_event(110, 42, &map1, "ProcessMapping");
	ev[2] = system_event(120, 42, NULL, "cpu");
	ev[3] = system_event(130, 42, NULL, "cswitch");
	ev[4] = system_event(140, 42, &map2, "ProcessMapping");
	ev[5] = system_event(150, 42, &gone, "ProcessExit");
	ev[6] = system_event(160, 42, NULL, "blob");
	raw->kind = EHD_EVENT_RAW;
	raw->provider = "";
	raw->provider_len = 0;
	raw->data = blob;
	raw->size = sizeof(blob);
	cpu->kind = sw->kind = EHD_EVENT_SAMPLE;
	cpu->provider = sw->provider = "Universal.Events";
	cpu->value = 1;
	sw->value = 12345;
	cpu->tid = 43;
	cpu->context |= EHD_CTX_CALLCHAIN;
	cpu->callchain = chain;
	cpu->callchain_count = 4;
	memset(&info, 0, sizeof(info));
	info.clockid = -1;
	info.cpu_sample_period = 1001001;
	assert_int_equal(ehd_writer_begin_trace(w, "test", &info), 0);
	for (i = 0; i < 7; i++)
		assert_int_equal(ehd_writer_event(w, &ev[i]), 0);
	assert_int_equal(ehd_writer_close(w), 0);
	ehd_writer_free(w);

	file = slurp(fd, &len);
	n = rows_of(file, len, rows, 16);
	assert_int_equal(n, 7);
	assert_int_equal(row_named(rows, n, "ExistingProcess")->event_id, 0);
	assert_int_equal(row_named(rows, n, "ProcessExit")->event_id, 2);
	assert_int_equal(row_named(rows, n, "ProcessMappingMetadata")->event_id, 5);
	assert_int_equal(row_named(rows, n, "cpu")->event_id, 1);
	assert_int_equal(row_named(rows, n, "cswitch")->event_id, 2);
	m = row_named(rows, n, "ProcessMapping");
	assert_int_equal(m->event_id, 3);
	assert_string_equal(m->provider, "Universal.System");
	assert_int_equal(m->fields_len, sizeof(mapping_fields));
	assert_memory_equal(m->fields, mapping_fields, sizeof(mapping_fields));
	/* The payload of the first mapping, as PerfView's parser reads it. */
	assert_non_null(memmem(file, len, mapping_payload, sizeof(mapping_payload)));
	assert_non_null(memmem(file, len, "ExpectedCPUSamplingRate\x07" "1001001",
			       31));
	/* The stack: {id 1, 16 bytes, 0x1100, 0x2f00} with no marker. */
	assert_non_null(memmem(file, len, "\x01\0\0\0\x18\0\0\0\0\x11\0\0\0\0\0\0"
				     "\0\x2f\0\0\0\0\0\0\x99\x99", 26));
	assert_null(memmem(file, len, "\0\xfe\xff\xff\xff\xff\xff\xff", 8));
	free(file);

	json = read_back(fd, EHD_READER_STRICT, &err);
	assert_int_equal(err, 0);
	assert_non_null(strstr(json, "{\"n\":\"Universal.System:ExistingProcess\",\"NamespaceId\":42,\"Name\":\"proc42\",\"NamespaceName\":\"\","));
	assert_non_null(strstr(json, "{\"n\":\"Universal.System:ProcessMapping\",\"Id\":7,\"StartAddress\":\"0x1000\",\"EndAddress\":\"0x3000\",\"FileOffset\":\"0x200\",\"FileName\":\"/bin/x\",\"MetadataId\":1,"));
	assert_non_null(strstr(json, "\"Id\":8,\"StartAddress\":\"0x5000\",\"EndAddress\":\"0x6000\",\"FileOffset\":\"0x200\",\"FileName\":\"/bin/x\",\"MetadataId\":1,"));
	assert_non_null(strstr(json, "{\"n\":\"Universal.System:ProcessMappingMetadata\",\"Id\":1,\"SymbolMetadata\":\"{\\\"type\\\":\\\"ELF\\\",\\\"build_id\\\":\\\"abcd\\\"}\""));
	assert_null(strstr(strstr(json, "ProcessMappingMetadata") + 1,
			   "ProcessMappingMetadata"));
	assert_non_null(strstr(json, "{\"n\":\"Universal.Events:cswitch\",\"Value\":12345,"));
	assert_non_null(strstr(json, "{\"n\":\"Universal.System:ProcessExit\",\"meta\""));
	free(json);

	/*
	 * The trace's own mappings attribute the sample's stack. No event
	 * read back, whatever kind it is shown as (the blob comes back raw),
	 * is written to nettrace again: its fields are the metadata's.
	 */
	again = ehd_writer_new(EHD_OUT_NETTRACE, open("/dev/null", O_WRONLY), 0, 0);
	assert_non_null(again);
	assert_int_equal(ehd_writer_begin(again, "again"), 0);
	r = ehd_reader_new(0);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	assert_int_equal(ehd_reader_open_fd(r, fd, "nettrace"), 0);
	while (ehd_reader_next(r, &back) > 0) {
		if (ehd_writer_event(again, back) != -ENOTSUP)
			fail_msg("%.*s written again", (int)back->name_len, back->name);
		/* The trace block is read with the first event. */
		assert_int_equal(ehd_reader_trace_info(r)->cpu_sample_period,
				 1001001);
		if (back->name_len != 3 || memcmp(back->name, "cpu", 3))
			continue;
		n_cpu++;
		assert_int_equal(back->callchain_count, 3);
		assert_int_equal(ehd_event_frames(back, f, 4), 3);
		assert_string_equal(f[0].module, "/bin/x");
		assert_int_equal(f[0].offset, 0x300);	/* 0x200 + 0x100 */
		assert_int_equal(f[0].mapping_id, 7);
		assert_int_equal(f[1].offset, 0x2100);
		assert_null(f[2].module);		/* in no mapping */
	}
	assert_int_equal(n_cpu, 1);
	ehd_writer_stats(again, &st);
	assert_int_equal(st.events, 0);
	ehd_writer_free(again);
	ehd_reader_free(r);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stream_frame),
		cmocka_unit_test(test_windows_round_trip),
		cmocka_unit_test(test_small_events_windowed),
		cmocka_unit_test(test_limits_counted),
		cmocka_unit_test(test_size_limit),
		cmocka_unit_test(test_no_room),
		cmocka_unit_test(test_no_events),
		cmocka_unit_test(test_pipe_counts),
		cmocka_unit_test(test_json_whole_stack),
		cmocka_unit_test(test_stacks_shared),
		cmocka_unit_test(test_metadata_ids),
		cmocka_unit_test(test_event_ids_stable),
		cmocka_unit_test(test_late_event_reordered),
		cmocka_unit_test(test_text_utf16),
		cmocka_unit_test(test_strict_refuses),
		cmocka_unit_test(test_dangling_counted),
		cmocka_unit_test(test_long_thread_name),
		cmocka_unit_test(test_universal),
		cmocka_unit_test(test_lookup_metadata),
		cmocka_unit_test(test_long_name_cut),
	};

	return cmocka_run_group_tests(tests, make_capture, remove_capture);
}
