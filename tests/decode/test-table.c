// SPDX-License-Identifier: MIT
/*
 * test-table - the small hash table and the hashes of core/table.c: every
 * value stored under a key comes back, and only those, across growth,
 * colliding home slots and the wrap at the table's end; a cleared table
 * is empty; ehd__hash_bytes() keeps the values outputs write; and
 * ehd__hash_words() tells apart the stacks a writer meets (frames that
 * differ in one place, in order, or in length) and spreads them over a
 * table's slots.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/ehd-table.h"

/* The values under @key, as a bit set (values below 64). */
static uint64_t values_of(const struct ehd_table *t, uint64_t key,
			  unsigned int *n)
{
	uint64_t set = 0;
	size_t pos = 0;
	uint32_t v;

	*n = 0;
	while (ehd__table_next(t, key, &pos, &v)) {
		assert_true(v < 64);
		set |= 1ull << v;
		(*n)++;
	}
	return set;
}

static void test_several_values(void **state)
{
	struct ehd_table t = { 0 };
	unsigned int n;

	(void)state;
	assert_int_equal(values_of(&t, 1, &n), 0);	/* never allocated */
	assert_int_equal(ehd__table_add(&t, 7, 1), 0);
	assert_int_equal(ehd__table_add(&t, 9, 2), 0);
	assert_int_equal(ehd__table_add(&t, 7, 3), 0);
	assert_int_equal(ehd__table_add(&t, 7, 0), 0);
	assert_int_equal(values_of(&t, 7, &n), 0xb);
	assert_int_equal(n, 3);
	assert_int_equal(values_of(&t, 9, &n), 0x4);
	assert_int_equal(n, 1);
	assert_int_equal(values_of(&t, 8, &n), 0);
	ehd__table_clear(&t);
	assert_int_equal(t.n, 0);
	assert_int_equal(values_of(&t, 7, &n), 0);
	assert_int_equal(ehd__table_add(&t, 7, 5), 0);
	assert_int_equal(values_of(&t, 7, &n), 0x20);
	ehd__table_free(&t);
	assert_null(t.keys);
}

/*
 * Keys that differ by multiples of the size, many under one key, and
 * enough of them to grow the table several times: each lookup finds
 * exactly what was stored.
 */
static void test_growth_and_collisions(void **state)
{
	enum { N = 5000 };
	struct ehd_table t = { 0 };
	unsigned int n;
	uint64_t k;

	(void)state;
	for (k = 0; k < N; k++)
		assert_int_equal(ehd__table_add(&t, k << 32, (uint32_t)(k % 50)),
				 0);
	for (k = 0; k < 40; k++)
		assert_int_equal(ehd__table_add(&t, 0xabcdull,
						(uint32_t)k), 0);
	assert_int_equal(t.n, N + 40);
	assert_true(t.cap >= 2 * t.n);
	for (k = 0; k < N; k++) {
		assert_int_equal(values_of(&t, k << 32, &n), 1ull << (k % 50));
		assert_int_equal(n, 1);
	}
	assert_int_equal(values_of(&t, 0xabcdull, &n), (1ull << 40) - 1);
	assert_int_equal(n, 40);
	assert_int_equal(values_of(&t, (uint64_t)N << 32, &n), 0);
	ehd__table_free(&t);
}

/*
 * A run of slots that wraps past the table's end: the lookup follows it
 * to the start. Keys are chosen whose home is the last slot.
 */
static void test_wrap(void **state)
{
	struct ehd_table t = { 0 };
	uint64_t keys[4], k;
	unsigned int i = 0, n;

	(void)state;
	assert_int_equal(ehd__table_add(&t, 0, 60), 0);	/* 256 slots */
	assert_int_equal(t.cap, 256);
	for (k = 1; i < 4; k++) {
		struct ehd_table probe = { 0 };
		size_t pos = 0;
		uint32_t v;

		/* Home of k: the slot it lands in, in an empty table. */
		assert_int_equal(ehd__table_add(&probe, k, 0), 0);
		assert_true(ehd__table_next(&probe, k, &pos, &v));
		if (pos == 1)	/* found in slot 255: *pos is the next + 1 */
			keys[i++] = k;
		ehd__table_free(&probe);
	}
	for (i = 0; i < 4; i++)
		assert_int_equal(ehd__table_add(&t, keys[i], i), 0);
	for (i = 0; i < 4; i++) {
		assert_int_equal(values_of(&t, keys[i], &n), 1ull << i);
		assert_int_equal(n, 1);
	}
	assert_int_equal(values_of(&t, 0, &n), 1ull << 60);
	ehd__table_free(&t);
}

/*
 * The nettrace writer gives tracepoint events ids from this hash: a
 * changed value changes the files it writes.
 */
static void test_hash_bytes_stable(void **state)
{
	static const char s[] = "sched:sched_switch";

	(void)state;
	assert_int_equal(ehd__hash_bytes("", 0, 0), 0);
	assert_int_equal(ehd__hash_bytes(s, strlen(s), 0),
			 0xc60d32e655f26f37ull);
	assert_int_equal(ehd__hash_bytes(s, 5, 0x1234), 0xa2b4d46dc1359607ull);
	assert_int_equal(ehd__hash_bytes(s, 8, 0), 0xa148aa0ab9223ef8ull);
}

/* Set bits of a 64-bit word. */
static unsigned int bits(uint64_t v)
{
	return (unsigned int)__builtin_popcountll(v);
}

/*
 * Stacks as a writer meets them: one base stack, and others that differ
 * from it in one frame (each position, by a small or a high-bit step), in
 * the order of two frames, or by a frame more or less. All hash apart,
 * and a changed frame changes about half the hash's bits.
 */
static void test_hash_words_apart(void **state)
{
	enum { DEPTH = 24 };
	uint64_t base[DEPTH], w[DEPTH + 1], h0, h, hs[3 * DEPTH + 2];
	unsigned int i, j, nh = 0, flips = 0;

	(void)state;
	for (i = 0; i < DEPTH; i++)
		base[i] = 0x7f3a12340000ull + 0x1000ull * i + 0x2a;
	h0 = ehd__hash_words(base, DEPTH);
	assert_int_equal(h0, ehd__hash_words(base, DEPTH));
	for (i = 0; i < DEPTH; i++) {
		memcpy(w, base, sizeof(base));
		w[i] += 4;
		hs[nh++] = h = ehd__hash_words(w, DEPTH);
		flips += bits(h ^ h0);
		memcpy(w, base, sizeof(base));
		w[i] ^= 1ull << 63;
		hs[nh++] = ehd__hash_words(w, DEPTH);
		if (i + 1 < DEPTH) {
			memcpy(w, base, sizeof(base));
			w[i] = base[i + 1];
			w[i + 1] = base[i];
			hs[nh++] = ehd__hash_words(w, DEPTH);
		}
	}
	hs[nh++] = ehd__hash_words(base, DEPTH - 1);
	memcpy(w, base, sizeof(base));
	w[DEPTH] = 0;
	hs[nh++] = ehd__hash_words(w, DEPTH + 1);
	hs[nh++] = ehd__hash_words(base, 0);
	for (i = 0; i < nh; i++) {
		assert_true(hs[i] != h0);
		for (j = 0; j < i; j++)
			assert_true(hs[i] != hs[j]);
	}
	/* Half of 64 bits on average: 32 +- a few, over 24 changes. */
	assert_in_range(flips / DEPTH, 24, 40);
}

/*
 * 20,000 stacks that differ only in their innermost frame, by 16 bytes
 * (calls from neighbouring places), into 32,768 slots by the low bits, as
 * the table's keys: no slot gets many. Uniform hashing puts at most about
 * 8 in one; a hash that passed the frame through untouched would put them
 * all in a few.
 */
static void test_hash_words_spread(void **state)
{
	enum { N = 20000, SLOTS = 32768 };
	uint16_t *load = calloc(SLOTS, sizeof(*load));
	uint64_t w[8];
	unsigned int i, most = 0, used = 0;

	(void)state;
	assert_non_null(load);
	for (i = 0; i < 8; i++)
		w[i] = 0x555555550000ull + 0x340 * i;
	for (i = 0; i < N; i++) {
		uint64_t h;

		w[0] = 0x400000ull + 16ull * i;
		h = ehd__hash_words(w, 8);
		if (!load[h & (SLOTS - 1)]++)
			used++;
		if (load[h & (SLOTS - 1)] > most)
			most = load[h & (SLOTS - 1)];
	}
	assert_true(most <= 12);
	assert_true(used > N * 3 / 4);	/* uniform: about 15,500 */
	free(load);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_several_values),
		cmocka_unit_test(test_growth_and_collisions),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_hash_bytes_stable),
		cmocka_unit_test(test_hash_words_apart),
		cmocka_unit_test(test_hash_words_spread),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
