// SPDX-License-Identifier: MIT
/*
 * test-drain - the drain thread (decode/live/drain.c) on a ring made in
 * memory: it writes the ring's records to a file as they are, and counts
 * the samples among them by their headers, a span that wraps around the
 * ring's end too, the samples of the ids it is told to skip (CPU samples)
 * counted apart. Those counts are what ehrecord -F perf says it wrote:
 * the kernel's own count of an event was seen to say one more than its
 * ring held, and it counts no CPU samples. A snapshot of a circular
 * session is written, and counted, the same way, within the file's bound.
 * The rings' wakeup watermark follows where the data go, and a ring
 * filling fast is emptied into the spool by timed passes before it.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <time.h>
#include <cmocka.h>

#include "live/drain.h"
#include "live/spool.h"

#define RING 4096u
/* Where the records begin: close to the ring's end, so that they wrap. */
#define START (RING - 136u)

struct fake_ring {
	struct perf_event_mmap_page page;
	uint8_t data[RING];
};

/*
 * A record at ring offset @at of @type and @size bytes (a multiple of 8),
 * with @id after its header as PERF_SAMPLE_IDENTIFIER puts it, the rest
 * bytes that say where it is; the offset after it.
 */
static uint64_t put(struct fake_ring *r, uint64_t at, uint32_t type,
		    uint16_t size, uint64_t id)
{
	struct perf_event_header h = { .type = type, .size = size };
	uint8_t rec[256];
	uint16_t i;

	memcpy(rec, &h, sizeof(h));
	memcpy(rec + sizeof(h), &id, sizeof(id));
	for (i = sizeof(h) + sizeof(id); i < size; i++)
		rec[i] = (uint8_t)(at + i);
	for (i = 0; i < size; i++)
		r->data[(at + i) % RING] = rec[i];
	return at + size;
}

/*
 * One fake ring @r into the sink @k, waited on with @timeout_ms: its fd
 * an eventfd never ready (only the timeout, or a wake, ends a wait).
 */
static void one_ring(struct fake_ring *r, struct ehd__drain_ring *ring,
		     struct ehd__drain_cfg *cfg, struct ehd__sink *k,
		     int timeout_ms)
{
	ring->fd = eventfd(0, EFD_CLOEXEC);
	assert_true(ring->fd >= 0);
	ring->base = &r->page;
	ring->data = r->data;
	memset(cfg, 0, sizeof(*cfg));
	cfg->rings = ring;
	cfg->nrings = 1;
	cfg->size = RING;
	cfg->sink = k;
	cfg->timeout_ms = timeout_ms;
}

/*
 * The ring: samples of ids 5 (3 of them), 7 (2) and 9 (1), one of them
 * split by the ring's end between its header and its id, and two records
 * that are not samples (a COMM and a LOST_SAMPLES, with 7 where a
 * sample's id would be). Skipping 7, the drain must count 4 samples;
 * skipping none, 6.
 */
static void run(const uint64_t *skip, size_t nskip, uint64_t want)
{
	static struct fake_ring r;
	char path[] = "/tmp/test-drain.XXXXXX";
	struct ehd__drain_ring ring;
	struct ehd__drain_cfg cfg;
	struct ehd__drain_stats st;
	struct ehd__drain *d;
	struct ehd__sink k;
	struct stat sb;
	uint64_t at = START, i;
	uint8_t *file;

	memset(&r, 0, sizeof(r));
	at = put(&r, at, PERF_RECORD_SAMPLE, 48, 5);
	at = put(&r, at, PERF_RECORD_COMM, 40, 7);
	at = put(&r, at, PERF_RECORD_SAMPLE, 40, 7);
	/* Its header the ring's last 8 bytes, its id the first. */
	assert_true(at == RING - 8);
	at = put(&r, at, PERF_RECORD_SAMPLE, 48, 5);
	at = put(&r, at, PERF_RECORD_SAMPLE, 24, 9);
	at = put(&r, at, PERF_RECORD_LOST_SAMPLES, 24, 7);
	at = put(&r, at, PERF_RECORD_SAMPLE, 56, 7);
	at = put(&r, at, PERF_RECORD_SAMPLE, 48, 5);
	r.page.data_tail = START;
	r.page.data_head = at;

	memset(&k, 0, sizeof(k));
	k.fd = mkstemp(path);
	assert_true(k.fd >= 0);
	one_ring(&r, &ring, &cfg, &k, 5);
	cfg.skip_ids = skip;
	cfg.nskip = nskip;
	assert_int_equal(ehd__drain_start(&d, &cfg), 0);
	assert_int_equal(ehd__drain_stop(d), 0);
	ehd__drain_stats(d, &st);
	ehd__drain_free(d);

	assert_int_equal(st.samples, want);
	assert_int_equal(st.skipped, 6 - want);	/* the rest of the six */
	assert_int_equal(st.bytes, at - START);
	assert_int_equal(r.page.data_tail, at);
	/* The file: the ring's bytes as they were, then round ends. */
	assert_int_equal(fstat(k.fd, &sb), 0);
	assert_true((uint64_t)sb.st_size >= at - START + 8);
	file = malloc((size_t)sb.st_size);
	assert_non_null(file);
	assert_int_equal(pread(k.fd, file, (size_t)sb.st_size, 0),
			 sb.st_size);
	for (i = 0; i < at - START; i++)
		assert_int_equal(file[i], r.data[(START + i) % RING]);
	free(file);
	close(ring.fd);
	close(k.fd);
	unlink(path);
}

static void test_counts_samples(void **state)
{
	(void)state;
	run(NULL, 0, 6);
}

static void test_skips_ids(void **state)
{
	static const uint64_t skip[] = { 11, 7, 2 };	/* (any order) */
	static const uint64_t all[] = { 9, 5, 7 };

	(void)state;
	run(skip, 3, 4);
	run(skip, 1, 6);	/* (only 11: nothing skipped) */
	run(all, 3, 0);
}

/*
 * A circular session's snapshot (ehd__sink_write_bounded()): the samples
 * counted are those of the records that go out, within the file's bound,
 * those of the ids skipped apart; nothing is counted when nothing goes
 * out.
 */
static void test_bounded_counts(void **state)
{
	static const uint64_t skip[] = { 7 };
	static struct fake_ring r;
	char path[] = "/tmp/test-drain.XXXXXX";
	struct ehd__samples sm = { skip, 1, 0, 0 };
	struct ehd__sink k;
	struct stat sb;
	uint64_t at = 0;

	(void)state;
	memset(&r, 0, sizeof(r));
	at = put(&r, at, PERF_RECORD_SAMPLE, 48, 5);
	at = put(&r, at, PERF_RECORD_COMM, 40, 7);
	at = put(&r, at, PERF_RECORD_SAMPLE, 40, 7);
	at = put(&r, at, PERF_RECORD_SAMPLE, 24, 9);	/* 152 bytes */
	memset(&k, 0, sizeof(k));
	k.fd = mkstemp(path);
	assert_true(k.fd >= 0);
	/* No bound: all of them. */
	assert_int_equal(ehd__sink_write_bounded(&k, r.data, at, &sm), 0);
	assert_int_equal(sm.n, 2);
	assert_int_equal(sm.skipped, 1);
	/* The same again, under a bound that lets in its first two records. */
	k.limit = at + 88 + 8;
	assert_int_equal(ehd__sink_write_bounded(&k, r.data, at, &sm), 0);
	assert_int_equal(sm.n, 3);
	assert_int_equal(sm.skipped, 1);
	assert_int_equal(k.limit_dropped, at - 88);
	assert_int_equal(fstat(k.fd, &sb), 0);
	assert_int_equal(sb.st_size, at + 88);
	/* Past it: nothing goes out, nothing counted. */
	assert_int_equal(ehd__sink_write_bounded(&k, r.data, at, &sm), 0);
	assert_int_equal(sm.n, 3);
	assert_int_equal(sm.skipped, 1);
	close(k.fd);
	unlink(path);
}

/*
 * The rings' watermark: a quarter with a latency bound, else half into a
 * file, and three quarters into a spool only where it holds every ring
 * twice over (1 MiB rings).
 */
static void test_watermark(void **state)
{
	const size_t m = 1u << 20;

	(void)state;
	assert_int_equal(ehd__drain_watermark(m, 2, true, 64 * m), m / 4);
	assert_int_equal(ehd__drain_watermark(m, 2, true, 0), m / 4);
	assert_int_equal(ehd__drain_watermark(m, 2, false, 0), m / 2);
	assert_int_equal(ehd__drain_watermark(m, 2, false, 64 * m), 3 * m / 4);
	assert_int_equal(ehd__drain_watermark(m, 1, false, 2 * m), 3 * m / 4);
	assert_int_equal(ehd__drain_watermark(m, 1, false, 2 * m - 1), m / 2);
	assert_int_equal(ehd__drain_watermark(m, 1, false, m + m / 2), m / 2);
	assert_int_equal(ehd__drain_watermark(m, 32, false, 64 * m), 3 * m / 4);
	assert_int_equal(ehd__drain_watermark(m, 33, false, 64 * m), m / 2);
}

/*
 * The early pass: timed for when the busiest ring is half full, only
 * where half fills in under EHD__DRAIN_EARLY_MS (1 MiB rings).
 */
static void test_early(void **state)
{
	const size_t m = 1u << 20;
	const uint64_t ms = 1000000;

	(void)state;
	/* 3/4 in 30 ms (about 26 MB/s): half in 20 */
	assert_int_equal(ehd__drain_early(m, 3 * m / 4, 30 * ms), 20);
	/* half in 60 ms: the watermark will do */
	assert_int_equal(ehd__drain_early(m, m / 4, 30 * ms), -1);
	/* half in 40 ms, then in exactly 50 */
	assert_int_equal(ehd__drain_early(m, m / 2, 40 * ms), 40);
	assert_int_equal(ehd__drain_early(m, m / 2, 50 * ms), -1);
	/* a whole ring in 99 ms: half in 49.5 */
	assert_int_equal(ehd__drain_early(m, m, 99 * ms), 49);
	/* a long wait, even with a full ring: never early (nor overflows) */
	assert_int_equal(ehd__drain_early(m, m, 100 * ms), -1);
	assert_int_equal(ehd__drain_early(m, m, UINT64_MAX), -1);
	/* nothing taken; fast enough to want less than a ms */
	assert_int_equal(ehd__drain_early(m, 0, 10 * ms), -1);
	assert_int_equal(ehd__drain_early(m, m, ms / 2), 1);
}

/*
 * The early pass in the thread: into a spool, with no latency bound and
 * rings that never say they are ready (the watermark never comes), a
 * ring fed faster than half of it fills in EHD__DRAIN_EARLY_MS is still
 * emptied, pass after pass, by the thread's own timed passes. Fed 512
 * bytes each 2 ms, half this ring fills in about 8 ms. The test wakes
 * the thread twice, 2 ms apart, to start (the second pass knows the
 * rate), and again so after 200 ms without a pass (a timed pass that
 * found nothing, the feeder late, ends the timing), and counts those
 * wakes: without the early pass, every pass is one.
 */
static void test_early_passes(void **state)
{
	static struct fake_ring r;
	struct timespec step = { 0, 2 * 1000 * 1000 };
	struct ehd__drain_ring ring;
	struct ehd__drain_cfg cfg;
	struct ehd__drain_stats st;
	struct ehd__spool *sp;
	struct ehd__drain *d;
	struct ehd__sink k;
	uint64_t at = 0, tail, seen = 0, wakes = 0;
	int i, idle = 0, poke = 2;

	(void)state;
	memset(&r, 0, sizeof(r));
	assert_int_equal(ehd__spool_new(&sp, 16u << 20, 0, NULL), 0);
	memset(&k, 0, sizeof(k));
	k.fd = -1;
	k.spool = sp;
	one_ring(&r, &ring, &cfg, &k, -1);
	assert_int_equal(ehd__drain_start(&d, &cfg), 0);
	for (i = 0; i < 1000; i++) {	/* 2 s */
		tail = __atomic_load_n(&r.page.data_tail, __ATOMIC_ACQUIRE);
		if (tail != seen) {
			seen = tail;
			idle = 0;
		} else if (++idle == 100) {
			poke = 2;
			idle = 0;
		}
		if (at + 512 - tail <= RING) {
			uint64_t end = at + 512;

			while (at < end)
				at = put(&r, at, PERF_RECORD_SAMPLE, 64, 5);
			__atomic_store_n(&r.page.data_head, at,
					 __ATOMIC_RELEASE);
		}
		if (poke) {
			ehd__drain_wake(d);
			wakes++;
			poke--;
		}
		nanosleep(&step, NULL);
	}
	assert_int_equal(ehd__drain_stop(d), 0);
	ehd__drain_stats(d, &st);
	ehd__drain_free(d);
	ehd__spool_free(sp);
	close(ring.fd);

	assert_int_equal(r.page.data_tail, at);
	assert_int_equal(st.bytes, at);
	print_message("early passes: %llu passes, %llu wakes by the test\n",
		      (unsigned long long)st.passes,
		      (unsigned long long)wakes);
	assert_true(st.passes >= 20);
	assert_true(st.passes >= 4 * wakes);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_samples),
		cmocka_unit_test(test_skips_ids),
		cmocka_unit_test(test_bounded_counts),
		cmocka_unit_test(test_watermark),
		cmocka_unit_test(test_early),
		cmocka_unit_test(test_early_passes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
