// SPDX-License-Identifier: MIT
/*
 * test-enumerator.c - the EventHeader enumerator on hand-built events
 * (every encoding, arrays, structs, byte order, each error path) and on
 * every record of the reference interceptor corpus.
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

#include <ehdecode/enumerator.h>

#include "test-files.h"

/* ---- building events by hand ---- */

struct ev {
	uint8_t b[4096];
	size_t len;
	size_t meta_size_at;	/* where the metadata extension's size is */
	size_t meta_start;
	int big;		/* write multi-byte values big-endian */
};

static void put(struct ev *e, const void *p, size_t n)
{
	assert_true(e->len + n <= sizeof(e->b));
	memcpy(e->b + e->len, p, n);
	e->len += n;
}

static void put8(struct ev *e, uint8_t v)
{
	put(e, &v, 1);
}

static void put16(struct ev *e, uint16_t v)
{
	uint8_t b[2] = { (uint8_t)v, (uint8_t)(v >> 8) };

	if (e->big) {
		b[0] = (uint8_t)(v >> 8);
		b[1] = (uint8_t)v;
	}
	put(e, b, 2);
}

static void put32(struct ev *e, uint32_t v)
{
	put16(e, (uint16_t)(e->big ? v >> 16 : v));
	put16(e, (uint16_t)(e->big ? v : v >> 16));
}

static void puts0(struct ev *e, const char *s)
{
	put(e, s, strlen(s) + 1);
}

/* Header + (optional activity id) + the start of a metadata extension. */
static void ev_begin(struct ev *e, int big, uint8_t level, const uint8_t *aid)
{
	memset(e, 0, sizeof(*e));
	e->big = big;
	put8(e, (uint8_t)(EH_FLAG_POINTER64 | EH_FLAG_EXTENSION |
			  (big ? 0 : EH_FLAG_LITTLE_ENDIAN)));
	put8(e, 3);		/* version */
	put16(e, 1000);		/* id */
	put16(e, 0x1234);	/* tag */
	put8(e, 2);		/* opcode */
	put8(e, level);
	if (aid) {
		put16(e, 16);
		put16(e, EH_EXT_ACTIVITY_ID | EH_EXT_CHAIN_FLAG);
		put(e, aid, 16);
	}
	e->meta_size_at = e->len;
	put16(e, 0);
	put16(e, EH_EXT_METADATA);
	e->meta_start = e->len;
}

/* Close the metadata: fix its size. The payload follows. */
static void ev_meta_done(struct ev *e)
{
	size_t n = e->len - e->meta_start, at = e->len;

	e->len = e->meta_size_at;
	put16(e, (uint16_t)n);
	e->len = at;
}

static void field(struct ev *e, const char *name, uint8_t enc, int fmt,
		  int tag)
{
	puts0(e, name);
	if (fmt < 0 && tag < 0) {
		put8(e, enc);
		return;
	}
	put8(e, enc | EH_ENC_CHAIN_FLAG);
	if (tag < 0) {
		put8(e, (uint8_t)fmt);
		return;
	}
	put8(e, (uint8_t)((fmt < 0 ? 0 : fmt) | EH_FMT_CHAIN_FLAG));
	put16(e, (uint16_t)tag);
}

static struct ehd_enum *en;

static int setup(void **state)
{
	(void)state;
	en = ehd_enum_new();
	return en ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	ehd_enum_free(en);
	return 0;
}

static int start(struct ev *e, const char *tp)
{
	return ehd_enum_start(en, tp, strlen(tp), e->b, e->len, 0);
}

static const struct ehd_item *next_item(int state)
{
	assert_int_equal(ehd_enum_next(en), state);
	return ehd_enum_item(en);
}

/* ---- valid events ---- */

static void test_identity(void **state)
{
	static const uint8_t aid[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
					 13, 14, 15, 16 };
	const struct ehd_event_info *info;
	struct ev e;

	(void)state;
	ev_begin(&e, 0, 4, aid);
	puts0(&e, "Ev;x=1");
	ev_meta_done(&e);
	assert_int_equal(start(&e, "My_Provider_L4Kff0Gabc1"), 0);
	info = ehd_enum_event(en);
	assert_non_null(info);
	assert_int_equal(info->provider_len, strlen("My_Provider"));
	assert_int_equal(info->keyword, 0xff0);
	assert_int_equal(info->options_len, 5);
	assert_memory_equal(info->tracepoint + info->options, "Gabc1", 5);
	assert_string_equal(info->name, "Ev;x=1");
	assert_int_equal(info->name_len, 2);
	assert_int_equal(info->header.id, 1000);
	assert_int_equal(info->header.tag, 0x1234);
	assert_int_equal(info->header.version, 3);
	assert_int_equal(info->header.opcode, 2);
	assert_ptr_equal(info->activity_id, e.b + 12);
	assert_null(info->related_id);
	assert_int_equal(ehd_enum_next(en), EHD_STATE_AFTER_LAST);
	assert_null(ehd_enum_item(en));
	assert_int_equal(ehd_enum_trailing(en), 0);
}

static void test_scalars_and_strings(void **state)
{
	const struct ehd_item *it;
	struct ev e;
	int big;

	(void)state;
	for (big = 0; big <= 1; big++) {
		ev_begin(&e, big, 5, NULL);
		puts0(&e, "E");
		field(&e, "u8", EH_ENC_VALUE8, -1, -1);
		field(&e, "i16", EH_ENC_VALUE16, EH_FMT_SIGNED_INT, -1);
		field(&e, "x32", EH_ENC_VALUE32, EH_FMT_HEX_INT, 0xbeef);
		field(&e, "u64", EH_ENC_VALUE64, -1, -1);
		field(&e, "g", EH_ENC_VALUE128, EH_FMT_UUID, -1);
		field(&e, "z8", EH_ENC_ZSTRING_CHAR8, -1, -1);
		field(&e, "z16", EH_ENC_ZSTRING_CHAR16, -1, -1);
		field(&e, "z32", EH_ENC_ZSTRING_CHAR32, -1, -1);
		field(&e, "s16", EH_ENC_STRING_LENGTH16_CHAR16, -1, -1);
		field(&e, "bin", EH_ENC_BINARY_LENGTH16_CHAR8, -1, 7);
		ev_meta_done(&e);
		put8(&e, 0xab);
		put16(&e, 0xfffe);
		put32(&e, 0x12345678);
		put32(&e, 1);
		put32(&e, 2);
		put(&e, "0123456789abcdef", 16);
		puts0(&e, "hi");
		put16(&e, 'a');
		put16(&e, 0);
		put32(&e, 'b');
		put32(&e, 0);
		put16(&e, 2);
		put16(&e, 'x');
		put16(&e, 'y');
		put16(&e, 3);
		put(&e, "\1\2\3", 3);
		put(&e, "\0\0", 2);	/* trailing padding */
		assert_int_equal(start(&e, "P_L5K0"), 0);
		it = next_item(EHD_STATE_VALUE);
		assert_string_equal(it->name, "u8");
		assert_int_equal(it->value_size, 1);
		assert_int_equal(it->value[0], 0xab);
		assert_int_equal(it->swap, big);
		it = next_item(EHD_STATE_VALUE);
		assert_int_equal(it->format, EH_FMT_SIGNED_INT);
		assert_int_equal(it->element_size, 2);
		it = next_item(EHD_STATE_VALUE);
		assert_int_equal(it->tag, 0xbeef);
		assert_int_equal(it->format, EH_FMT_HEX_INT);
		assert_int_equal(it->value_size, 4);
		it = next_item(EHD_STATE_VALUE);
		assert_int_equal(it->value_size, 8);
		it = next_item(EHD_STATE_VALUE);
		assert_int_equal(it->value_size, 16);
		assert_int_equal(it->encoding, EH_ENC_VALUE128);
		it = next_item(EHD_STATE_VALUE);
		assert_int_equal(it->value_size, 2);
		assert_memory_equal(it->value, "hi", 2);
		it = next_item(EHD_STATE_VALUE);
		assert_int_equal(it->value_size, 2);
		it = next_item(EHD_STATE_VALUE);
		assert_int_equal(it->value_size, 4);
		it = next_item(EHD_STATE_VALUE);
		assert_int_equal(it->value_size, 4);
		it = next_item(EHD_STATE_VALUE);
		assert_int_equal(it->value_size, 3);
		assert_int_equal(it->tag, 7);
		assert_int_equal(it->format, 0);
		assert_int_equal(ehd_enum_next(en), EHD_STATE_AFTER_LAST);
		assert_int_equal(ehd_enum_trailing(en), 2);
	}
}

static void test_arrays(void **state)
{
	const struct ehd_item *it;
	struct ev e;

	(void)state;
	ev_begin(&e, 0, 5, NULL);
	puts0(&e, "E");
	puts0(&e, "c");			/* constant array of 3 u16 */
	put8(&e, EH_ENC_VALUE16 | EH_ENC_CARRAY_FLAG);
	put16(&e, 3);
	field(&e, "v0", EH_ENC_VALUE32 | EH_ENC_VARRAY_FLAG, -1, -1);
	field(&e, "vs", EH_ENC_ZSTRING_CHAR8 | EH_ENC_VARRAY_FLAG, -1, -1);
	ev_meta_done(&e);
	put16(&e, 10);
	put16(&e, 20);
	put16(&e, 30);
	put16(&e, 0);
	put16(&e, 2);
	puts0(&e, "a");
	puts0(&e, "");
	assert_int_equal(start(&e, "P_L5K0"), 0);
	it = next_item(EHD_STATE_ARRAY_BEGIN);
	assert_int_equal(it->array_count, 3);
	assert_int_equal(it->value_size, 6);
	assert_int_equal(it->array_flags, EH_ENC_CARRAY_FLAG);
	it = next_item(EHD_STATE_VALUE);
	assert_int_equal(it->array_index, 0);
	assert_int_equal(it->value[0], 10);
	next_item(EHD_STATE_VALUE);
	it = next_item(EHD_STATE_VALUE);
	assert_int_equal(it->array_index, 2);
	assert_int_equal(it->value[0], 30);
	next_item(EHD_STATE_ARRAY_END);
	it = next_item(EHD_STATE_ARRAY_BEGIN);
	assert_int_equal(it->array_count, 0);
	assert_int_equal(it->array_flags, EH_ENC_VARRAY_FLAG);
	next_item(EHD_STATE_ARRAY_END);
	it = next_item(EHD_STATE_ARRAY_BEGIN);
	assert_int_equal(it->array_count, 2);
	assert_int_equal(it->element_size, 0);
	it = next_item(EHD_STATE_VALUE);
	assert_int_equal(it->value_size, 1);
	it = next_item(EHD_STATE_VALUE);
	assert_int_equal(it->value_size, 0);
	next_item(EHD_STATE_ARRAY_END);
	assert_int_equal(ehd_enum_next(en), EHD_STATE_AFTER_LAST);
}

static void test_structs(void **state)
{
	const struct ehd_item *it;
	struct ev e;

	(void)state;
	ev_begin(&e, 0, 5, NULL);
	puts0(&e, "E");
	field(&e, "empty", EH_ENC_STRUCT | EH_ENC_VARRAY_FLAG, 2, -1);
	field(&e, "inner", EH_ENC_STRUCT, 1, -1);
	field(&e, "a", EH_ENC_VALUE8, -1, -1);
	field(&e, "b", EH_ENC_VALUE8, -1, -1);
	field(&e, "big", EH_ENC_STRUCT, 20, 0x11);	/* more than follow */
	field(&e, "c", EH_ENC_VALUE8, -1, -1);
	ev_meta_done(&e);
	put16(&e, 0);			/* no element in "empty" */
	put8(&e, 'c');
	assert_int_equal(start(&e, "P_L5K0"), 0);
	it = next_item(EHD_STATE_ARRAY_BEGIN);
	assert_string_equal(it->name, "empty");
	assert_int_equal(it->array_count, 0);
	next_item(EHD_STATE_ARRAY_END);
	it = next_item(EHD_STATE_STRUCT_BEGIN);
	assert_string_equal(it->name, "big");
	assert_int_equal(it->tag, 0x11);
	assert_int_equal(it->format, 20);
	it = next_item(EHD_STATE_VALUE);
	assert_string_equal(it->name, "c");
	next_item(EHD_STATE_STRUCT_END);
	assert_int_equal(ehd_enum_next(en), EHD_STATE_AFTER_LAST);

	/* An array of two structs of one struct of two values. */
	ev_begin(&e, 0, 5, NULL);
	puts0(&e, "E");
	field(&e, "arr", EH_ENC_STRUCT | EH_ENC_VARRAY_FLAG, 1, -1);
	field(&e, "s", EH_ENC_STRUCT, 2, -1);
	field(&e, "k", EH_ENC_VALUE8, -1, -1);
	field(&e, "z", EH_ENC_ZSTRING_CHAR8, -1, -1);
	field(&e, "after", EH_ENC_VALUE8, -1, -1);
	ev_meta_done(&e);
	put16(&e, 2);
	put8(&e, 'A');
	puts0(&e, "x");
	put8(&e, 'B');
	puts0(&e, "yy");
	put8(&e, 9);
	assert_int_equal(start(&e, "P_L5K0"), 0);
	next_item(EHD_STATE_ARRAY_BEGIN);
	it = next_item(EHD_STATE_STRUCT_BEGIN);
	assert_int_equal(it->array_index, 0);
	next_item(EHD_STATE_STRUCT_BEGIN);
	next_item(EHD_STATE_VALUE);
	next_item(EHD_STATE_VALUE);
	next_item(EHD_STATE_STRUCT_END);
	next_item(EHD_STATE_STRUCT_END);
	it = next_item(EHD_STATE_STRUCT_BEGIN);
	assert_int_equal(it->array_index, 1);
	next_item(EHD_STATE_STRUCT_BEGIN);
	it = next_item(EHD_STATE_VALUE);
	assert_int_equal(it->value[0], 'B');
	it = next_item(EHD_STATE_VALUE);
	assert_int_equal(it->value_size, 2);
	next_item(EHD_STATE_STRUCT_END);
	next_item(EHD_STATE_STRUCT_END);
	next_item(EHD_STATE_ARRAY_END);
	it = next_item(EHD_STATE_VALUE);
	assert_string_equal(it->name, "after");
	assert_int_equal(it->value[0], 9);
	assert_int_equal(ehd_enum_next(en), EHD_STATE_AFTER_LAST);
}

/* ---- errors: each names an offset and a reason ---- */

static void expect_start_error(struct ev *e, const char *tp, int err)
{
	uint64_t off = ~0ull;

	assert_int_equal(start(e, tp), err);
	assert_non_null(ehd_enum_error(en, &off));
	assert_true(off <= e->len);
	assert_null(ehd_enum_event(en));
}

static void test_identity_errors(void **state)
{
	struct ev e;

	(void)state;
	ev_begin(&e, 0, 5, NULL);
	puts0(&e, "E");
	ev_meta_done(&e);
	assert_int_equal(start(&e, "P_L5K0"), 0);
	expect_start_error(&e, "P5K0", -ENOTSUP);		/* no '_' */
	expect_start_error(&e, "P_5K0", -ENOTSUP);		/* no L */
	expect_start_error(&e, "P_L4K0", -ENOTSUP);		/* level */
	expect_start_error(&e, "P_L5K", -ENOTSUP);		/* keyword */
	expect_start_error(&e, "P_L5KF", -ENOTSUP);		/* uppercase hex */
	expect_start_error(&e, "P_L5K0g", -ENOTSUP);		/* option */
	expect_start_error(&e, "P_L5", -ENOTSUP);
	assert_int_equal(start(&e, "P_x_L5K0Gab9Hc"), 0);	/* last '_' */
	e.b[0] |= 0x08;
	expect_start_error(&e, "P_L5K0", -ENOTSUP);		/* flags */
	e.b[0] &= (uint8_t)~0x08;
	e.len = 7;
	expect_start_error(&e, "P_L5K0", -EINVAL);		/* size */
	e.len = 13;
	expect_start_error(&e, "P_L5K0", -EBADMSG);		/* ext cut */

	/* No extension at all, so no metadata. */
	ev_begin(&e, 0, 5, NULL);
	e.b[0] &= (uint8_t)~EH_FLAG_EXTENSION;
	e.len = 8;
	expect_start_error(&e, "P_L5K0", -ENOTSUP);

	/* Duplicate metadata; activity id of 20 bytes; kind 0. */
	ev_begin(&e, 0, 5, NULL);
	e.b[e.meta_size_at + 3] |= 0x80;	/* chain (kind is LE) */
	puts0(&e, "E");
	ev_meta_done(&e);
	put16(&e, 2);
	put16(&e, EH_EXT_METADATA);
	put(&e, "F", 2);
	expect_start_error(&e, "P_L5K0", -EBADMSG);
	e.b[e.len - 4] = EH_EXT_ACTIVITY_ID;
	e.b[e.len - 6] = 20;
	put(&e, "123456789012345678", 18);
	expect_start_error(&e, "P_L5K0", -EBADMSG);
	e.b[e.len - 22] = 0;
	expect_start_error(&e, "P_L5K0", -EBADMSG);
	/* An unknown kind is skipped. */
	e.b[e.len - 22] = 7;
	assert_int_equal(start(&e, "P_L5K0"), 0);
}

/* The items before the damage, then the error from ehd_enum_next(). */
static void expect_field_error(struct ev *e, int values, int err)
{
	uint64_t off = ~0ull;
	int i;

	assert_int_equal(start(e, "P_L5K0"), 0);
	for (i = 0; i < values; i++)
		assert_true(ehd_enum_next(en) > EHD_STATE_BEFORE_FIRST);
	assert_int_equal(ehd_enum_next(en), err);
	assert_non_null(ehd_enum_error(en, &off));
	assert_true(off <= e->len);
}

static void test_field_errors(void **state)
{
	struct ev e;
	int i;

	(void)state;
	/* Unterminated string after one good value. */
	ev_begin(&e, 0, 5, NULL);
	puts0(&e, "E");
	field(&e, "a", EH_ENC_VALUE8, -1, -1);
	field(&e, "z", EH_ENC_ZSTRING_CHAR8, -1, -1);
	ev_meta_done(&e);
	put(&e, "\1abc", 4);
	expect_field_error(&e, 1, -EBADMSG);

	/* Reserved encodings, both array flags, constant count 0. */
	for (i = 0; i < 4; i++) {
		static const uint8_t enc[] = { 0, 14, 31,
					       EH_ENC_VALUE8 | 0x60 };

		ev_begin(&e, 0, 5, NULL);
		puts0(&e, "E");
		field(&e, "x", enc[i], -1, -1);
		ev_meta_done(&e);
		put(&e, "\1\1\1\1", 4);
		expect_field_error(&e, 0, -ENOTSUP);
	}
	ev_begin(&e, 0, 5, NULL);
	puts0(&e, "E");
	puts0(&e, "c");
	put8(&e, EH_ENC_VALUE8 | EH_ENC_CARRAY_FLAG);
	put16(&e, 0);
	ev_meta_done(&e);
	expect_field_error(&e, 0, -EBADMSG);

	/* A struct of 0 fields; a value cut short; a missing format. */
	ev_begin(&e, 0, 5, NULL);
	puts0(&e, "E");
	field(&e, "s", EH_ENC_STRUCT, 0, -1);
	ev_meta_done(&e);
	expect_field_error(&e, 0, -EBADMSG);
	ev_begin(&e, 0, 5, NULL);
	puts0(&e, "E");
	field(&e, "q", EH_ENC_VALUE64, -1, -1);
	ev_meta_done(&e);
	put32(&e, 1);
	expect_field_error(&e, 0, -EBADMSG);
	ev_begin(&e, 0, 5, NULL);
	puts0(&e, "E");
	puts0(&e, "f");
	put8(&e, EH_ENC_VALUE8 | EH_ENC_CHAIN_FLAG);
	ev_meta_done(&e);
	expect_field_error(&e, 0, -EBADMSG);

	/* Structs nested 9 deep. */
	ev_begin(&e, 0, 5, NULL);
	puts0(&e, "E");
	for (i = 0; i < 9; i++)
		field(&e, "s", EH_ENC_STRUCT, 1, -1);
	field(&e, "v", EH_ENC_VALUE8, -1, -1);
	ev_meta_done(&e);
	put8(&e, 1);
	expect_field_error(&e, 8, -EOVERFLOW);

	/* Step limit, and too many top-level fields. */
	ev_begin(&e, 0, 5, NULL);
	puts0(&e, "E");
	puts0(&e, "a");
	put8(&e, EH_ENC_VALUE8 | EH_ENC_CARRAY_FLAG);
	put16(&e, 100);
	ev_meta_done(&e);
	for (i = 0; i < 100; i++)
		put8(&e, (uint8_t)i);
	assert_int_equal(ehd_enum_start(en, "P_L5K0", 6, e.b, e.len, 50), 0);
	for (i = 0; i < 50; i++)
		assert_true(ehd_enum_next(en) > 0);
	assert_int_equal(ehd_enum_next(en), -E2BIG);
	ev_begin(&e, 0, 5, NULL);
	puts0(&e, "E");
	for (i = 0; i < 256; i++)
		field(&e, "f", EH_ENC_VALUE8, -1, -1);
	ev_meta_done(&e);
	for (i = 0; i < 256; i++)
		put8(&e, 0);
	expect_field_error(&e, 255, -ENOTSUP);
}

/* ---- the reference corpus ---- */

static void test_corpus(void **state)
{
	const char *shared = getenv("EH_SHARED_DIR");
	char path[4096];
	struct tf_record rec;
	unsigned char *buf;
	size_t size, off = 0;
	long items = 0;
	int records = 0, st;

	(void)state;
	snprintf(path, sizeof(path),
		 "%s/conformance/eventheader/EventHeaderInterceptorLE64.dat",
		 shared ? shared : "../shared");
	buf = tf_slurp(path, &size);
	if (!buf) {
		print_message("corpus %s not found: not checked\n", path);
		skip();
	}
	while ((st = tf_dat_next(buf, size, &off, &rec)) > 0) {
		assert_int_equal(ehd_enum_start(en, rec.name, rec.name_len,
						rec.event, rec.event_size, 0), 0);
		while ((st = ehd_enum_next(en)) > 0)
			items++;
		assert_int_equal(st, EHD_STATE_AFTER_LAST);
		records++;
	}
	assert_int_equal(st, 0);
	free(buf);
	print_message("corpus: %d records, %ld items, no error\n", records,
		      items);
	assert_int_equal(records, 374);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identity),
		cmocka_unit_test(test_scalars_and_strings),
		cmocka_unit_test(test_arrays),
		cmocka_unit_test(test_structs),
		cmocka_unit_test(test_identity_errors),
		cmocka_unit_test(test_field_errors),
		cmocka_unit_test(test_corpus),
	};

	return cmocka_run_group_tests(tests, setup, teardown) != 0;
}
