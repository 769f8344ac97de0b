// SPDX-License-Identifier: MIT
/*
 * test-spool - the queue between a live session's drain thread and its
 * consumer (decode/live/spool.c): what waits past the memory bound goes to
 * a file, and a file that finds no room on its disk refuses the put whole,
 * as a full spool does, instead of failing the recording; a file read to
 * its end is used again from its start; chunks reserved before a
 * recording are faulted in then, not by the puts; the copy of a span into
 * the spool moves every byte, whichever moves the CPU has; a consumer is
 * woken once as much waits as it asked for.
 */
#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <stdbool.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <cmocka.h>

#include "core/ehd-bytes.h"
#include "formats/perf/perf-file.h"
#include "live/spool.h"
#include "test-faults.h"

/* Puts of an odd size, so that the file's limit falls inside one. */
#define PUT 3000

/* Put number @k: its bytes say which it is. */
static void fill(uint8_t *p, uint32_t k)
{
	size_t i;

	for (i = 0; i < PUT; i++)
		p[i] = (uint8_t)(k * 7 + i);
}

/* Read what is committed: the puts from @first on, whole and in order. */
static uint32_t read_puts(struct ehd__spool *sp, uint32_t first)
{
	uint8_t got[PUT], want[PUT];
	uint32_t k = first;
	size_t have = 0;
	ssize_t n;

	while ((n = ehd__spool_read(sp, got + have, PUT - have)) > 0) {
		have += (size_t)n;
		if (have < PUT)
			continue;
		fill(want, k++);
		assert_memory_equal(got, want, PUT);
		have = 0;
	}
	assert_int_equal(n, -EAGAIN);
	assert_int_equal(have, 0);
	return k - first;
}

/*
 * Memory of one chunk, then a file whose size limit is 256 KiB (SIGXFSZ
 * ignored): the put that passes it is refused with -ENOSPC, nothing of
 * it read, and the spool goes on: once the consumer has taken what
 * waited, puts are taken again.
 */
static void test_file_no_room(void **state)
{
	char dir[] = "/tmp/test-spool.XXXXXX";
	struct ehd__spool_stats st;
	struct rlimit old, lim;
	void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
	struct ehd__spool *sp;
	uint8_t buf[PUT];
	struct iovec v = { buf, PUT };
	uint32_t k = 0, n;
	int err;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(ehd__spool_new(&sp, EHD__SPOOL_CHUNK, 64u << 20, dir),
			 0);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = 256u << 10;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	for (;;) {
		fill(buf, k);
		err = ehd__spool_put(sp, &v, 1);
		if (err)
			break;
		k++;
	}
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, was);
	assert_int_equal(err, -ENOSPC);
	ehd__spool_stats(sp, &st);
	print_message("%u puts taken, %llu bytes in the file\n", k,
		      (unsigned long long)st.disk);
	assert_true(st.disk > 0 && st.disk <= (256u << 10));
	assert_int_equal(st.refused, 1);
	ehd__spool_commit(sp);
	assert_int_equal(read_puts(sp, 0), k);
	/* Room again: taken (in memory), and read after the others. */
	fill(buf, k);
	assert_int_equal(ehd__spool_put(sp, &v, 1), 0);
	ehd__spool_commit(sp);
	n = read_puts(sp, k);
	assert_int_equal(n, 1);
	ehd__spool_close(sp, 0);
	assert_int_equal(ehd__spool_read(sp, buf, PUT), 0);
	ehd__spool_free(sp);
	assert_int_equal(rmdir(dir), 0);
}

/* Put number @k (fill()) into @sp; the put's result. */
static int put_one(struct ehd__spool *sp, uint32_t k)
{
	uint8_t buf[PUT];
	struct iovec v = { buf, PUT };

	fill(buf, k);
	return ehd__spool_put(sp, &v, 1);
}

/*
 * A file whose every chunk was read is started again from its first
 * byte the next time memory is full: the bytes read back are those put,
 * and the file grows no larger than its first use made it.
 */
static void test_file_again(void **state)
{
	char dir[] = "/tmp/test-spool.XXXXXX";
	uint32_t per = EHD__SPOOL_CHUNK / PUT, k = 0, first, i;
	struct ehd__spool_stats st;
	struct ehd__spool *sp;
	uint64_t peak;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(ehd__spool_new(&sp, EHD__SPOOL_CHUNK, 64u << 20, dir),
			 0);
	/* a chunk of memory, then 100 puts in the file */
	for (i = 0; i < per + 100; i++)
		assert_int_equal(put_one(sp, k++), 0);
	ehd__spool_commit(sp);
	assert_int_equal(read_puts(sp, 0), k);
	ehd__spool_stats(sp, &st);
	peak = st.disk_peak;
	assert_int_equal(peak, 100 * PUT);
	/* a put in memory again; read, it lets the file's chunk go */
	first = k;
	assert_int_equal(put_one(sp, k++), 0);
	ehd__spool_commit(sp);
	assert_int_equal(read_puts(sp, first), 1);
	/* memory full again: 50 puts in the file, from its start */
	first = k;
	for (i = 0; i < per - 1 + 50; i++)
		assert_int_equal(put_one(sp, k++), 0);
	ehd__spool_commit(sp);
	ehd__spool_stats(sp, &st);
	assert_int_equal(st.disk, 150 * PUT);
	assert_int_equal(st.disk_peak, peak);
	assert_int_equal(read_puts(sp, first), k - first);
	ehd__spool_close(sp, 0);
	ehd__spool_free(sp);
	assert_int_equal(rmdir(dir), 0);
}

/*
 * A bound of one chunk and no file: once the consumer has read all the
 * chunk holds, a put that does not fit in what is left of it is taken
 * (in a chunk made in its place), not refused for good; read, and given
 * back where the consumer views what it reads.
 */
static void test_one_chunk(void **state)
{
	uint32_t per = EHD__SPOOL_CHUNK / PUT, k = 0, i, first;
	const void *p;
	size_t n;
	int view;

	(void)state;
	for (view = 0; view < 2; view++) {
		struct ehd__spool *sp;

		assert_int_equal(ehd__spool_new(&sp, EHD__SPOOL_CHUNK, 0,
						NULL), 0);
		for (i = 0; i < per; i++)
			assert_int_equal(put_one(sp, k++), 0);
		/* full: refused while nothing was read */
		assert_int_equal(put_one(sp, k), -ENOSPC);
		ehd__spool_commit(sp);
		if (view) {
			/* viewed: taken only once given back */
			assert_int_equal(ehd__spool_view(sp, &p, &n), 1);
			assert_int_equal(n, (size_t)per * PUT);
			assert_int_equal(put_one(sp, k), -ENOSPC);
			ehd__spool_release(sp, (uint64_t)per * PUT);
		} else {
			assert_int_equal(read_puts(sp, k - per), per);
		}
		first = k;
		for (i = 0; i < 10; i++)
			assert_int_equal(put_one(sp, k++), 0);
		ehd__spool_commit(sp);
		if (view) {
			uint8_t want[PUT];

			assert_int_equal(ehd__spool_view(sp, &p, &n), 1);
			assert_int_equal(n, 10 * PUT);
			for (i = 0; i < 10; i++) {
				fill(want, first + i);
				assert_memory_equal((const uint8_t *)p + i * PUT,
						    want, PUT);
			}
		} else {
			assert_int_equal(read_puts(sp, first), 10);
		}
		ehd__spool_close(sp, 0);
		ehd__spool_free(sp);
	}
}

/* Puts of @chunks chunks' worth (each holds its whole puts): faults taken. */
static long put_chunks(struct ehd__spool *sp, unsigned int chunks)
{
	uint32_t k, per = EHD__SPOOL_CHUNK / PUT;
	uint8_t buf[PUT];
	struct iovec v = { buf, PUT };
	long before;

	memset(buf, 0x5a, sizeof(buf));
	before = tf_faults();
	for (k = 0; k < chunks * per; k++)
		assert_int_equal(ehd__spool_put(sp, &v, 1), 0);
	return tf_faults() - before;
}

/*
 * Three chunks reserved: their pages are touched by the reserve, and
 * three chunks' worth of puts then take almost no fault (without the
 * reserve, about one a page: 768). A reserve stays within the memory
 * bound.
 */
static void test_reserve(void **state)
{
	const long pages = 3 * EHD__SPOOL_CHUNK / 4096;
	struct ehd__spool_stats st;
	struct ehd__spool *sp;
	long with, without;

	(void)state;
	/* (first, while the allocator has no freed memory to give again) */
	assert_int_equal(ehd__spool_new(&sp, 8 * EHD__SPOOL_CHUNK, 0, NULL),
			 0);
	without = put_chunks(sp, 3);
	ehd__spool_free(sp);

	assert_int_equal(ehd__spool_new(&sp, 8 * EHD__SPOOL_CHUNK, 0, NULL),
			 0);
	assert_int_equal(ehd__spool_reserve(sp, 3 * EHD__SPOOL_CHUNK), 0);
	ehd__spool_stats(sp, &st);
	assert_int_equal(st.spare, 3 * EHD__SPOOL_CHUNK);
	with = put_chunks(sp, 3);
	ehd__spool_stats(sp, &st);
	assert_int_equal(st.spare, 0);
	ehd__spool_free(sp);
	print_message("faults of 3 chunks of puts: %ld reserved, %ld not\n",
		      with, without);
	assert_true(with < pages / 16);
	assert_true(without > pages / 2);

	/* the bound: 2 chunks, a reserve of 8 makes 2 */
	assert_int_equal(ehd__spool_new(&sp, 2 * EHD__SPOOL_CHUNK, 0, NULL),
			 0);
	assert_int_equal(ehd__spool_reserve(sp, 8 * EHD__SPOOL_CHUNK), 0);
	ehd__spool_stats(sp, &st);
	assert_int_equal(st.spare, 2 * EHD__SPOOL_CHUNK);
	ehd__spool_free(sp);
}

/*
 * What a recording reserves for its rings: two passes over them and a
 * chunk, at most 16 MiB, whatever the rings (64 rings of 1 GiB: no
 * overflow).
 */
static void test_reserve_for(void **state)
{
	(void)state;
	assert_int_equal(ehd__spool_reserve_for(0), EHD__SPOOL_CHUNK);
	assert_int_equal(ehd__spool_reserve_for(2 << 20),
			 (4 << 20) + EHD__SPOOL_CHUNK);
	assert_int_equal(EHD__SPOOL_RESERVE_MAX, 16 << 20);
	assert_int_equal(ehd__spool_reserve_for(
			 (EHD__SPOOL_RESERVE_MAX - EHD__SPOOL_CHUNK) / 2),
			 EHD__SPOOL_RESERVE_MAX);
	assert_int_equal(ehd__spool_reserve_for(8 << 20),
			 EHD__SPOOL_RESERVE_MAX);
	assert_int_equal(ehd__spool_reserve_for((size_t)64 << 30),
			 EHD__SPOOL_RESERVE_MAX);
	assert_int_equal(ehd__spool_reserve_for(SIZE_MAX),
			 EHD__SPOOL_RESERVE_MAX);
}

/*
 * The reader's held entries made at the start of a live session: two
 * rounds of 256-byte records, as a power of two from 1,024 to
 * EHD__PERF_HELD_RESERVE_MAX.
 */
static void test_held_reserve_for(void **state)
{
	(void)state;
	assert_int_equal(ehd__perf_held_reserve_for(0), 1024);
	assert_int_equal(ehd__perf_held_reserve_for(128 << 10), 1024);
	assert_int_equal(ehd__perf_held_reserve_for((128 << 10) + 128), 2048);
	assert_int_equal(ehd__perf_held_reserve_for(2 << 20), 16384);
	assert_int_equal(EHD__PERF_HELD_RESERVE_MAX, 32768);
	assert_int_equal(ehd__perf_held_reserve_for((2 << 20) + 128),
			 EHD__PERF_HELD_RESERVE_MAX);
	assert_int_equal(ehd__perf_held_reserve_for((size_t)64 << 30),
			 EHD__PERF_HELD_RESERVE_MAX);
	assert_int_equal(ehd__perf_held_reserve_for(SIZE_MAX),
			 EHD__PERF_HELD_RESERVE_MAX);
}

/*
 * Every span copy (ehd__copy_span(), the 16-byte loop, and where the CPU
 * has AVX2 the 32-byte loop) copies exactly its bytes, at every length
 * around its loops' steps and from any alignment: nothing before or past
 * them written.
 */
static void test_copy_span(void **state)
{
	enum { MOST = 600, GUARD = 64 };
	static uint8_t src[MOST + 8], dst[GUARD + MOST + 8 + GUARD];
	void (*copy[3])(uint8_t *, const uint8_t *, size_t) = {
		ehd__copy_span, ehd__copy_span16, NULL
	};
	size_t n, k, i, off, doff;

	(void)state;
#ifdef EHD__COPY_SPAN32
	if (__builtin_cpu_supports("avx2"))
		copy[2] = ehd__copy_span32;
#endif
	for (i = 0; i < sizeof(src); i++)
		src[i] = (uint8_t)(i * 13 + 5);
	for (k = 0; k < 3 && copy[k]; k++)
		for (n = 0; n <= MOST; n++)
			for (off = 0; off < 8; off += 3)
				for (doff = 0; doff < 8; doff += 5) {
					uint8_t *d = dst + GUARD + doff;

					memset(dst, 0xee, sizeof(dst));
					copy[k](d, src + off, n);
					assert_memory_equal(d, src + off, n);
					for (i = 0; i < (size_t)(d - dst); i++)
						assert_int_equal(dst[i], 0xee);
					for (i = (size_t)(d - dst) + n;
					     i < sizeof(dst); i++)
						assert_int_equal(dst[i], 0xee);
				}
}

/* Whether the consumer's descriptor says to look now. */
static bool woken(struct ehd__spool *sp)
{
	struct pollfd pfd = { .fd = ehd__spool_fd(sp), .events = POLLIN };

	return poll(&pfd, 1, 0) == 1;
}

/*
 * With a wake of 10 puts' worth, a waiting consumer is not woken by the
 * commit of 5 puts, and is by the commit that brings 10; a refused put
 * wakes it whatever waits, as does the close. Without a wake set, each
 * commit that adds bytes wakes it.
 */
static void test_wake(void **state)
{
	struct ehd__spool *sp;
	uint32_t k = 0, i;

	(void)state;
	assert_int_equal(ehd__spool_new(&sp, EHD__SPOOL_CHUNK, 0, NULL), 0);
	assert_int_equal(read_puts(sp, 0), 0);	/* waits */
	assert_int_equal(put_one(sp, k++), 0);
	ehd__spool_commit(sp);
	assert_true(woken(sp));
	assert_int_equal(read_puts(sp, 0), 1);

	ehd__spool_set_wake(sp, 10 * PUT);
	for (i = 0; i < 5; i++)
		assert_int_equal(put_one(sp, k++), 0);
	ehd__spool_commit(sp);
	assert_false(woken(sp));
	for (i = 0; i < 5; i++)
		assert_int_equal(put_one(sp, k++), 0);
	ehd__spool_commit(sp);
	assert_true(woken(sp));
	assert_int_equal(read_puts(sp, 1), 10);
	assert_false(woken(sp));

	/* fill the chunk: the refusal wakes, with less than 10 waiting */
	while (put_one(sp, k) == 0)
		k++;
	assert_true(woken(sp));
	assert_true(ehd__spool_starved(sp));
	ehd__spool_commit(sp);
	assert_int_equal(read_puts(sp, 11), k - 11);

	assert_int_equal(put_one(sp, k++), 0);
	ehd__spool_close(sp, 0);
	assert_true(woken(sp));
	ehd__spool_free(sp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_no_room),
		cmocka_unit_test(test_file_again),
		cmocka_unit_test(test_one_chunk),
		cmocka_unit_test(test_reserve),
		cmocka_unit_test(test_reserve_for),
		cmocka_unit_test(test_held_reserve_for),
		cmocka_unit_test(test_copy_span),
		cmocka_unit_test(test_wake),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
