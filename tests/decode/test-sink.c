// SPDX-License-Identifier: MIT
/*
 * test-sink - where a live session's drain thread writes a perf.data
 * (decode/live/drain.c): a file that finds no room is cut back to a place
 * where it was whole, and the marks of those places reach back to the
 * file's first, however many passes wrote it.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <cmocka.h>

#include "live/drain.h"

/* A record's size: odd to the ending's, so that cuts fall inside them. */
#define REC 96
#define PASSES 2000
/* The end of the stream: far more than 64 passes' records. */
#define ENDING 40000

/* Record number @k: a header, then bytes that say which it is. */
static void fill(uint8_t *p, uint32_t k)
{
	struct perf_event_header h = {
		.type = PERF_RECORD_SAMPLE, .size = REC,
	};
	size_t i;

	memcpy(p, &h, sizeof(h));
	for (i = sizeof(h); i < REC; i++)
		p[i] = (uint8_t)(k * 7 + i);
}

/*
 * Many passes of one record each, then an ending that fits only where
 * the file is cut back far more than 64 passes: it is cut back to a
 * pass's end not much further than it must be, and completed there (as
 * end_stream() does). Before the marks were thinned, the 64 newest
 * passes' ends were all there was, and the file was lost.
 */
static void test_far_back(void **state)
{
	char path[] = "/tmp/test-sink.XXXXXX";
	void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
	static uint8_t ending[ENDING];
	const uint64_t all = (uint64_t)PASSES * REC, bound = all + 1000;
	uint8_t rec[REC], got[REC];
	struct iovec v = { rec, REC };
	struct ehd__sink k;
	struct rlimit old, lim;
	struct stat sb;
	uint64_t kept, need;
	uint32_t i;
	int err;

	(void)state;
	memset(&k, 0, sizeof(k));
	k.fd = mkstemp(path);
	assert_true(k.fd >= 0);
	k.cuttable = true;
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = bound;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	for (i = 0; i < PASSES; i++) {
		fill(rec, i);
		assert_int_equal(ehd__sink_write_records(&k, &v, 1), 0);
	}
	memset(ending, 0xee, sizeof(ending));
	for (;;) {
		err = k.err;
		if (!err)
			err = ehd__sink_put(&k, ending, sizeof(ending));
		if (!err || ehd__sink_cut(&k, err))
			break;
	}
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, was);
	assert_int_equal(err, 0);
	assert_int_equal(k.no_room, EFBIG);
	assert_int_equal(fstat(k.fd, &sb), 0);
	kept = (uint64_t)sb.st_size - ENDING;
	need = all + ENDING - bound;
	print_message("%llu of %llu bytes of records kept (%llu had to go)\n",
		      (unsigned long long)kept, (unsigned long long)all,
		      (unsigned long long)need);
	assert_true((uint64_t)sb.st_size <= bound);
	assert_int_equal(kept % REC, 0);
	assert_int_equal(k.limit_dropped, all - kept);
	/* Not cut back a tenth further than it had to be. */
	assert_true(all - kept < need + need / 10);
	for (i = 0; i < kept / REC; i++) {
		fill(rec, i);
		assert_int_equal(pread(k.fd, got, REC, (off_t)i * REC), REC);
		assert_memory_equal(got, rec, REC);
	}
	assert_int_equal(pread(k.fd, got, REC, (off_t)kept), REC);
	assert_memory_equal(got, ending, REC);
	close(k.fd);
	unlink(path);
}

/*
 * Marks past the most kept: the oldest and the newest stay, none twice,
 * in order, and those between thin out back from the newest (each
 * farther back no more than twice as far as the one after it).
 */
static void test_thinned(void **state)
{
	struct ehd__sink k;
	uint64_t at, newest = 0;
	size_t i;

	(void)state;
	memset(&k, 0, sizeof(k));
	k.cuttable = true;
	for (at = 100; at <= 1000000; at += 100) {
		ehd__sink_mark(&k, at);
		ehd__sink_mark(&k, at);	/* (the same end again) */
		newest = at;
	}
	ehd__sink_mark(&k, 500);	/* (before the last: not one) */
	assert_int_equal(k.nends, EHD__SINK_ENDS);
	assert_int_equal(k.ends[0], 100);
	assert_int_equal(k.ends[k.nends - 1], newest);
	for (i = 1; i < k.nends; i++)
		assert_true(k.ends[i - 1] < k.ends[i]);
	for (i = 1; i + 1 < k.nends; i++)
		assert_true(newest - k.ends[i - 1] <=
			    2 * (newest - k.ends[i]) + 100);
	/* Not cuttable: no marks. */
	memset(&k, 0, sizeof(k));
	ehd__sink_mark(&k, 100);
	assert_int_equal(k.nends, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_far_back),
		cmocka_unit_test(test_thinned),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
