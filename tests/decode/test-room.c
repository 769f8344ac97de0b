// SPDX-License-Identifier: MIT
/*
 * test-room.c - a buffered output (JSON, JSON lines, CSV, text, Chrome
 * JSON, Heph) whose file finds no room: it is cut back to the end of an
 * event and ended there, complete.
 *
 * Events the producer wrote through the interceptor (with a non-ASCII
 * string, one that is not UTF-8: its text, repaired or read as Latin-1,
 * is longer than its bytes; one that strict UTF-8 outputs repair and
 * count; and an activity begun and ended around them)
 * are written again and again under a file size limit (RLIMIT_FSIZE,
 * SIGXFSZ ignored) until one is refused. The file must then be, byte for
 * byte, the file the same format writes of the events it holds (those
 * it says, or for Heph, whose events are packets, those that make a file
 * of its bytes), with no limit: its ending (closing brackets, a trailer's
 * counts, a Heph trace's last packets) is there, as those events have it,
 * and nothing of the events that did not fit. Limits inside the first buffer, past
 * it, and just short of the whole output (the ending itself not fitting)
 * are tried; a limit that not even one event and the ending fit in loses
 * the file, as any failed write does.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
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

#include "test-files.h"

EH_DEFINE_PROVIDER(room_provider, "RoomTest");

/* libtraceevent leaks on formats it cannot parse (not ours). */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\n";
}

static char dat_path[64];

static int make_capture(void **state)
{
	static const uint8_t id[16] = { 1, 2, 3 };

	(void)state;
	if (tf_capture(dat_path, "test-room"))
		return -1;
	EH_REGISTER(room_provider);
	/* An activity around the others: begun, and (ALL only) ended. */
	EH_WRITE_ACTIVITY(room_provider, "Open", id, NULL,
			  EH_OPCODE(EH_OPCODE_ACTIVITY_START), EH_LEVEL(4));
	EH_WRITE(room_provider, "Tick", EH_LEVEL(4), EH_UINT32("i", 7),
		 EH_STRING_UTF8("name", "caf\xc3\xa9 \xe2\x82\xac"));
	/*
	 * Neither is UTF-8: the first is read as Latin-1, the second (beyond
	 * U+10FFFF) is U+FFFD where the output is strict UTF-8, counted.
	 */
	EH_WRITE(room_provider, "Bad", EH_LEVEL(4),
		 EH_STRING_UTF8("s", "x\xff\xfe\xfdy"),
		 EH_STRING32("w", ((const eh_char32_t[]){ 'a', 0x110000, 0 })));
	EH_WRITE(room_provider, "Wide", EH_LEVEL(4),
		 EH_UINT64_FIXED_ARRAY("v", ((const uint64_t[]){ 1, 2, 3, 4 }),
				       4));
	EH_WRITE_ACTIVITY(room_provider, "Close", id, NULL,
			  EH_OPCODE(EH_OPCODE_ACTIVITY_STOP), EH_LEVEL(4));
	EH_UNREGISTER(room_provider);
	return 0;
}

static int remove_capture(void **state)
{
	(void)state;
	unlink(dat_path);
	return 0;
}

/* Which of the capture's events go in. */
enum which {
	PLAIN,		/* those of no activity */
	OPEN,		/* the activity's start only: its ending ends it */
	ALL,		/* all: the activity begun and ended, over and over */
};

/* A format, its flags, and which events it is given. */
struct out {
	int format;
	unsigned int flags;
	enum which which;
};

static const struct out outs[] = {
	{ EHD_OUT_JSONL, 0, PLAIN },
	{ EHD_OUT_JSON, EHD_WRITER_UTF8_STRICT, PLAIN },
	{ EHD_OUT_JSON, EHD_WRITER_SPACE, PLAIN },
	{ EHD_OUT_CSV, 0, PLAIN },
	{ EHD_OUT_TEXT, EHD_WRITER_UTF8_STRICT, PLAIN },
	{ EHD_OUT_CHROME, 0, PLAIN },
	{ EHD_OUT_HEPH, 0, PLAIN },
};

/* What fill() did. */
struct fill {
	uint64_t taken;		/* events ehd_writer_event() took */
	int refused;		/* what it returned for the one it did not */
	int close_err;
	struct ehd_writer_stats st;
};

/*
 * How the events go in: all in one source, or the first @split (0: all)
 * in one and the rest in a second; with @end, each source ended before
 * the close (as ehdecode does), else the last one ended by the close.
 */
struct shape {
	uint64_t split;
	bool end;
};

static const struct shape one = { 0, false };

/*
 * Write the capture's events to @fd as @o, over and over, each at its own
 * time, until one is refused or @max were written (0: no most), under a
 * file size limit of @fsize bytes, in sources as @sh says.
 */
static void fill(const struct out *o, int fd, rlim_t fsize, uint64_t max,
		 const struct shape *sh, struct fill *f)
{
	struct ehd_writer *w = ehd_writer_new(o->format, fd, o->flags,
					      EHD_META_DEFAULT);
	void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
	const struct ehd_event *ev;
	struct rlimit old, lim;
	int err = 0;

	assert_non_null(w);
	memset(f, 0, sizeof(*f));
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = fsize;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	assert_int_equal(ehd_writer_begin(w, "room"), 0);
	while (!err && (!max || f->taken < max)) {
		struct ehd_reader *r = ehd_reader_new(0);

		assert_non_null(r);
		assert_int_equal(ehd_reader_open(r, dat_path), 0);
		while (!err && (!max || f->taken < max) &&
		       ehd_reader_next(r, &ev) > 0) {
			struct ehd_event e = *ev;

			if (o->which != ALL &&
			    (o->which == OPEN) !=
			    (ev->opcode == EH_OPCODE_ACTIVITY_START))
				continue;
			if (o->which == PLAIN &&
			    ev->opcode == EH_OPCODE_ACTIVITY_STOP)
				continue;
			e.context |= EHD_CTX_TIME | EHD_CTX_TIME_UTC |
				     EHD_CTX_CPU | EHD_CTX_PID;
			e.time = UINT64_C(1700000000000000000) +
				 f->taken * 1000;
			e.cpu = (uint32_t)(f->taken % 3);
			e.pid = 100;
			e.tid = 100 + (uint32_t)(f->taken % 2);
			if (sh->split && f->taken == sh->split) {
				if (sh->end)
					assert_int_equal(ehd_writer_end(w), 0);
				err = ehd_writer_begin(w, "room2");
				if (err) {
					f->refused = err;
					break;
				}
			}
			err = ehd_writer_event(w, &e);
			if (!err)
				f->taken++;
			else
				f->refused = err;
		}
		ehd_reader_free(r);
	}
	if (sh->end)
		ehd_writer_end(w);
	f->close_err = ehd_writer_close(w);
	ehd_writer_stats(w, &f->st);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, was);
	ehd_writer_free(w);
}

/*
 * The bytes @o writes of the first @n events in @sh, without a limit (its
 * counts in *@st, if not NULL).
 */
static char *whole_stats(const struct out *o, uint64_t n,
			 const struct shape *sh, size_t *size,
			 struct ehd_writer_stats *st)
{
	int fd = memfd_create("whole", 0);
	struct fill f;
	char *s;

	fill(o, fd, RLIM_INFINITY, n, sh, &f);
	if (st)
		*st = f.st;
	assert_int_equal(f.close_err, 0);
	assert_int_equal(f.taken, n);
	s = tf_slurp_fd(fd, size);
	assert_non_null(s);
	close(fd);
	return s;
}

static char *whole(const struct out *o, uint64_t n, const struct shape *sh,
		   size_t *size)
{
	return whole_stats(o, n, sh, size, NULL);
}

/*
 * Under @fsize bytes, @max events at most (0: until refused) in @sh: a
 * complete file of the events that fit; their number returned.
 */
static uint64_t cut_at(const struct out *o, rlim_t fsize, uint64_t max,
		       const struct shape *sh)
{
	int fd = memfd_create("room", 0);
	struct ehd_writer_stats wst;
	size_t len, wlen;
	uint64_t given;
	char *s, *want;
	struct fill f;

	fill(o, fd, fsize, max, sh, &f);
	s = tf_slurp_fd(fd, &len);
	assert_non_null(s);
	print_message("%s flags %#x, %llu bytes: %zu bytes, %llu of %llu events\n",
		      ehd_writer_format_name(o->format), o->flags,
		      (unsigned long long)fsize, len,
		      (unsigned long long)f.st.events,
		      (unsigned long long)f.taken);
	/* (refused, or cut at the close: all were taken) */
	assert_true(f.refused == -EFBIG || (!f.refused && max));
	assert_int_equal(f.close_err, -EFBIG);
	assert_int_equal(f.st.no_room, EFBIG);
	assert_true(len <= fsize);
	assert_int_equal(f.st.bytes, len);
	assert_true(f.st.events > 0 && f.st.events <= f.taken);
	given = f.st.events;
	if (o->format == EHD_OUT_HEPH) {
		/*
		 * Its events are packets (an activity's start and stop make
		 * one): the events given that make a file of its bytes (the
		 * first of its length, or one after: a stop may add none).
		 */
		uint64_t lo = 1, hi = f.taken, mid;

		while (lo < hi) {
			mid = lo + (hi - lo) / 2;
			free(whole(o, mid, sh, &wlen));
			if (wlen < len)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (given = lo; given < f.taken; given++) {
			want = whole(o, given, sh, &wlen);
			mid = wlen == len && !memcmp(want, s, len);
			free(want);
			if (mid || wlen != len)
				break;
		}
	}
	want = whole_stats(o, given, sh, &wlen, &wst);
	/* Its counts are those of the events it holds. */
	assert_int_equal(f.st.events, wst.events);
	assert_int_equal(f.st.utf8_replaced, wst.utf8_replaced);
	if ((o->flags & EHD_WRITER_UTF8_STRICT) && given > 2)
		assert_true(wst.utf8_replaced > 0);	/* (one a round) */
	assert_int_equal(f.st.unfinished, wst.unfinished);
	assert_int_equal(f.st.unmatched, wst.unmatched);
	assert_int_equal(len, wlen);
	assert_memory_equal(s, want, len);
	free(want);
	free(s);
	close(fd);
	return given;
}

static void test_cut(void **state)
{
	size_t i, size;
	char *s;

	(void)state;
	for (i = 0; i < sizeof(outs) / sizeof(outs[0]); i++) {
		cut_at(&outs[i], 3000, 0, &one);	/* the first buffer */
		cut_at(&outs[i], 700000, 0, &one);	/* past it */
		/*
		 * All the events fit, but not the end of the output: cut back
		 * at the close, from the last write.
		 */
		s = whole(&outs[i], 20000, &one, &size);
		free(s);
		cut_at(&outs[i], size - 1, 20000, &one);
	}
}

/*
 * The sources ended before the close, as ehdecode ends each file it
 * reads: a cut at the close goes back into the source ended (its end
 * written again after the cut), and a cut in a second source before any
 * of its events fit goes back into the first. Before, the end of a
 * source took away every place to cut back to: both files were lost.
 */
static void test_sources(void **state)
{
	const struct shape ended = { 0, true }, two = { 300, true };
	size_t i, size;
	char *s;

	(void)state;
	for (i = 0; i < sizeof(outs) / sizeof(outs[0]); i++) {
		s = whole(&outs[i], 2000, &ended, &size);
		free(s);
		cut_at(&outs[i], size - 1, 2000, &ended);
		/* The first source whole fits, the second's start does not. */
		s = whole(&outs[i], two.split, &ended, &size);
		free(s);
		assert_int_equal(cut_at(&outs[i], size, 2000, &two),
				 two.split);
		/* Cut in the second source, past its first buffer. */
		assert_true(cut_at(&outs[i], 700000, 0, &two) > two.split);
	}
}

/*
 * An activity begun and ended over and over, in two sources (Chrome's B
 * and E events; Heph writes an activity at its end): the file cut short
 * anywhere is still the file of the events it holds, the activities open
 * there ended by its ending, its counts theirs. Before, the ending ended
 * those open at the last event given, at its time, with its counts.
 */
static void test_activities(void **state)
{
	static const struct out acts[] = {
		{ EHD_OUT_CHROME, 0, ALL }, { EHD_OUT_HEPH, 0, ALL },
		{ EHD_OUT_JSON, 0, ALL },
	};
	const struct shape two = { 1003, true };
	size_t i, size;
	rlim_t limit;
	char *s;

	(void)state;
	for (i = 0; i < sizeof(acts) / sizeof(acts[0]); i++) {
		/* Cut after each of the events of a few rounds. */
		for (limit = 1900; limit < 2700; limit += 16)
			cut_at(&acts[i], limit, 0, &one);
		cut_at(&acts[i], 700000, 0, &one);
		s = whole(&acts[i], 2000, &two, &size);
		free(s);
		/* At the close, then back into the first source. */
		cut_at(&acts[i], size - 1, 2000, &two);
		cut_at(&acts[i], size / 2 - 300, 2000, &two);
	}
}

/*
 * Not even one event and the ending fit: lost, as at any write error. (A
 * file is not cut back to no events: Chrome's ending, closing an
 * activity begun in the records cut, would follow them with a comma.)
 */
static void test_none_fits(void **state)
{
	static const struct out open[] = {
		{ EHD_OUT_CHROME, 0, OPEN }, { EHD_OUT_HEPH, 0, OPEN },
	};
	size_t i, size;
	char *s;

	(void)state;
	for (i = 0; i < sizeof(outs) / sizeof(outs[0]) + 2; i++) {
		const struct out *o = i < 2 ? &open[i] : &outs[i - 2];
		int fd = memfd_create("none", 0);
		struct fill f;

		s = whole(o, 1, &one, &size);
		free(s);
		fill(o, fd, size - 1, 1, &one, &f);
		assert_int_equal(f.taken, 1);
		assert_int_equal(f.close_err, -EFBIG);
		assert_int_equal(f.st.no_room, 0);
		close(fd);
		/* Nor the output's start. */
		fd = memfd_create("lost", 0);
		fill(o, fd, 4, 0, &one, &f);
		assert_int_equal(f.refused, -EFBIG);
		assert_int_equal(f.close_err, -EFBIG);
		assert_int_equal(f.st.no_room, 0);
		close(fd);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_activities),
		cmocka_unit_test(test_sources),
		cmocka_unit_test(test_none_fits),
	};

	return cmocka_run_group_tests(tests, make_capture, remove_capture);
}
