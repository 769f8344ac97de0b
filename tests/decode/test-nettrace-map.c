// SPDX-License-Identifier: MIT
/*
 * test-nettrace-map - the payload programs of the nettrace writer
 * (decode/formats/nettrace/nettrace-map.c)
 *
 * A program of copies and 8-bit strings has a fast runner (run_steps(),
 * which widens ASCII 8 bytes at a time); every other program, and any
 * program with its steps taken away, takes the general one. Both must
 * write the same bytes and fail the same way for every payload.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <eventheader/eventheader.h>

#include "formats/nettrace/nettrace-map.h"

/* Declarations: a string field "s" (Latin-1 or UTF-8), then a u32 "n". */
static size_t string_then_u32(uint8_t *d, bool latin1)
{
	size_t n = 0;

	d[n++] = 's';
	d[n++] = 0;
	d[n++] = EH_ENC_ZSTRING_CHAR8 | EH_ENC_CHAIN_FLAG;
	d[n++] = latin1 ? EH_FMT_STRING8 : EH_FMT_STRING_UTF;
	d[n++] = 'n';
	d[n++] = 0;
	d[n++] = EH_ENC_VALUE32;
	return n;
}

/* @n bytes at @p in hex, a line on standard error (for a failure). */
static void dump(const char *what, const void *p, size_t n)
{
	size_t i;

	fprintf(stderr, "%s:", what);
	for (i = 0; i < n; i++)
		fprintf(stderr, " %02x", ((const uint8_t *)p)[i]);
	fputc('\n', stderr);
}

/* The same payload through both runners: the same bytes or failure. */
static void both_runners(struct ehd__ntm *m, const uint8_t *src, size_t size,
			 const char *what)
{
	struct ehd_buf fast = EHD_BUF_INIT, slow = EHD_BUF_INIT;
	struct ehd__ntm_result rf, rs;
	size_t nsteps = m->nsteps;
	int ef, es;

	/* Something before: the output goes on from where it is. */
	ehd__buf_put(&fast, "ab", 2);
	ehd__buf_put(&slow, "ab", 2);
	ef = ehd__ntm_convert(m, src, size, &fast, &rf);
	m->nsteps = 0;
	es = ehd__ntm_convert(m, src, size, &slow, &rs);
	m->nsteps = nsteps;
	if (ef != es || fast.len != slow.len ||
	    memcmp(fast.p, slow.p, fast.len) || rf.lossy != rs.lossy ||
	    rf.extra != rs.extra || (ef && rf.where != rs.where)) {
		dump("payload", src, size);
		dump("fast", fast.p, fast.len);
		dump("general", slow.p, slow.len);
		fail_msg("%s: fast %d (%zu bytes, at %zu), "
			 "general %d (%zu bytes, at %zu)",
			 what, ef, fast.len, ef ? rf.where : 0, es, slow.len,
			 es ? rs.where : 0);
	}
	ehd__buf_free(&fast);
	ehd__buf_free(&slow);
}

/*
 * Strings of 0 to 40 bytes, ASCII or with a byte that is not (Latin-1
 * é, a UTF-8 é, a stray 0xff) at each place, unterminated or followed by
 * 0 to 9 bytes: the 8-byte steps, their ends and every way out of them.
 */
static void test_strings_both_runners(void **state)
{
	static const uint8_t odd[][2] = { { 0xe9, 0 }, { 0xc3, 0xa9 },
					  { 0xff, 0 }, { 0x80, 0 } };
	uint8_t decl[16], src[64];
	struct ehd__ntm m;
	size_t len, at, after, o, k, n;
	char what[96];
	int latin1;

	(void)state;
	for (latin1 = 0; latin1 < 2; latin1++) {
		memset(&m, 0, sizeof(m));
		n = string_then_u32(decl, latin1);
		assert_int_equal(ehd__ntm_eventheader(&m, decl, n, false), 0);
		assert_true(m.nsteps);
		for (len = 0; len <= 40; len++)
			for (at = 0; at <= len; at++)
				for (o = 0; o < 4; o++)
					for (after = 0; after <= 10; after++) {
						for (k = 0; k < len; k++)
							src[k] = (uint8_t)('a' + k % 26);
						if (at < len) {
							src[at] = odd[o][0];
							if (odd[o][1] && at + 1 < len)
								src[at + 1] = odd[o][1];
						} else if (o) {
							continue;
						}
						/* after 10: no terminator at all */
						n = len;
						if (after < 10) {
							src[n++] = 0;
							for (k = 0; k < after; k++)
								src[n++] = (uint8_t)(0x41 + k);
						}
						snprintf(what, sizeof(what),
							 "latin1 %d len %zu odd %zu@%zu, %zu after",
							 latin1, len, o, at, after);
						both_runners(&m, src, n, what);
					}
		ehd__ntm_fini(&m);
	}
}

/*
 * Copies between strings: u32, u64, string, string, u16 (three steps).
 * Each payload cut short at every byte, a string made non-ASCII: the
 * same bytes or failure from both runners.
 */
static void test_steps_both_runners(void **state)
{
	static const uint8_t decl[] = {
		'a', 0, EH_ENC_VALUE32, 'b', 0, EH_ENC_VALUE64,
		's', 0, EH_ENC_ZSTRING_CHAR8,
		't', 0, EH_ENC_ZSTRING_CHAR8 | EH_ENC_CHAIN_FLAG,
		EH_FMT_STRING8,
		'c', 0, EH_ENC_VALUE16,
	};
	uint8_t src[64];
	struct ehd__ntm m;
	size_t n = 0, cut;
	char what[64];
	int k;

	(void)state;
	memset(&m, 0, sizeof(m));
	assert_int_equal(ehd__ntm_eventheader(&m, decl, sizeof(decl), false),
			 0);
	assert_int_equal(m.nsteps, 3);
	memcpy(src, "\x01\x02\x03\x04" "12345678", 12);
	n = 12;
	memcpy(src + n, "first string\0", 13);
	n += 13;
	memcpy(src + n, "sec\xe9nd\0", 7);
	n += 7;
	memcpy(src + n, "\x05\x06", 2);
	n += 2;
	for (k = 0; k < 2; k++) {
		for (cut = 0; cut <= n + 9; cut++) {
			if (cut > n)
				src[cut - 1] = (uint8_t)cut;	/* extra */
			snprintf(what, sizeof(what), "%s, %zu of %zu bytes",
				 k ? "UTF-8" : "ASCII", cut, n);
			both_runners(&m, src, cut, what);
		}
		src[12 + 3] = 0xc3;	/* "fir\xc3\xa9t": UTF-8 */
		src[12 + 4] = 0xa9;
	}
	ehd__ntm_fini(&m);
}

/*
 * A program of one copy (u32, u64) is a fixed size, not steps: a short
 * payload is "shorter than its fields" at its end, as it always was.
 */
static void test_fixed_size(void **state)
{
	static const uint8_t decl[] = {
		'a', 0, EH_ENC_VALUE32, 'b', 0, EH_ENC_VALUE64,
	};
	static const uint8_t src[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	struct ehd_buf out = EHD_BUF_INIT;
	struct ehd__ntm_result res;
	struct ehd__ntm m;

	(void)state;
	memset(&m, 0, sizeof(m));
	assert_int_equal(ehd__ntm_eventheader(&m, decl, sizeof(decl), false),
			 0);
	assert_int_equal(m.fixed_size, 12);
	assert_int_equal(m.nsteps, 0);
	assert_int_equal(ehd__ntm_convert(&m, src, 10, &out, &res), -EBADMSG);
	assert_int_equal(res.where, 10);
	assert_string_equal(res.why, "payload shorter than its fields");
	assert_int_equal(out.len, 0);
	assert_int_equal(ehd__ntm_convert(&m, src, 12, &out, &res), 0);
	assert_memory_equal(out.p, src, 12);
	ehd__buf_free(&out);
	ehd__ntm_fini(&m);
}

/* What the fast runner writes for ASCII: UTF-16LE and its terminator. */
static void test_ascii_widened(void **state)
{
	static const char text[] = "a string longer than sixteen bytes";
	uint8_t decl[16], src[64];
	struct ehd_buf out = EHD_BUF_INIT;
	struct ehd__ntm_result res;
	struct ehd__ntm m;
	size_t n, i, len = sizeof(text);	/* with its 0 */

	(void)state;
	memset(&m, 0, sizeof(m));
	n = string_then_u32(decl, false);
	assert_int_equal(ehd__ntm_eventheader(&m, decl, n, false), 0);
	memcpy(src, text, len);
	memcpy(src + len, "\x01\x02\x03\x04", 4);
	assert_int_equal(ehd__ntm_convert(&m, src, len + 4, &out, &res), 0);
	assert_int_equal(out.len, 2 * len + 4);
	for (i = 0; i < len; i++) {
		assert_int_equal((uint8_t)out.p[2 * i], (uint8_t)text[i]);
		assert_int_equal(out.p[2 * i + 1], 0);
	}
	assert_memory_equal(out.p + 2 * len, "\x01\x02\x03\x04", 4);
	ehd__buf_free(&out);
	ehd__ntm_fini(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strings_both_runners),
		cmocka_unit_test(test_steps_both_runners),
		cmocka_unit_test(test_fixed_size),
		cmocka_unit_test(test_ascii_widened),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
