// SPDX-License-Identifier: MIT
/*
 * test-dynamic - unit tests of the dynamic API (eh-dynamic.h)
 *
 * One source, three programs (see Makefile.am), by the macros defined:
 *
 *	EH_INTERCEPTOR: builder and provider tests; the events are read
 *	back from the interceptor file.
 *
 *	EH_INTERCEPTOR and EH_DYN_TEST_CORPUS: gen_dyn() against the
 *	TestProviderDyn records of EventHeaderInterceptorLE64.dat in
 *	$EH_SHARED_DIR (exit 77 without it).
 *
 *	neither: the real user_events backend. Without user_events, opening
 *	a provider fails with an errno that its sets carry, and writes
 *	return EBADF.
 *
 * The interceptor programs expect the bytes of a 64-bit little-endian
 * host; elsewhere they exit 77.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#ifndef EH_DYN_TEST_CORPUS
/* Allocations left before EH_DYN_REALLOC fails; negative: never fails. */
static int alloc_budget = -1;

static void *failing_realloc(void *p, size_t n)
{
	if (alloc_budget == 0)
		return NULL;
	if (alloc_budget > 0)
		alloc_budget--;
	return realloc(p, n);
}

#define EH_DYN_REALLOC(p, n) failing_realloc((p), (n))
#define EH_DYN_FREE(p) free(p)
#endif

#include <eventheader/eh-dynamic.h>

#ifdef EH_DYN_TEST_CORPUS
#include "../conformance/gen-dyn.h"
#endif

#define SKIP 77

#ifdef EH_INTERCEPTOR
/* Whole-file reading of an interceptor file. */
static unsigned char *read_all(const char *path, size_t *len)
{
	unsigned char *buf = NULL;
	size_t cap = 0, n = 0, r;
	FILE *f = fopen(path, "rb");

	if (!f)
		return NULL;
	for (;;) {
		if (n == cap) {
			unsigned char *nb;

			cap = cap ? cap * 2 : 65536;
			nb = (unsigned char *)realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		r = fread(buf + n, 1, cap - n, f);
		if (!r)
			break;
		n += r;
	}
	fclose(f);
	*len = n;
	return buf;
}

/* One interceptor record: tracepoint name and event bytes. */
struct rec {
	const char *name;
	const unsigned char *event;
	size_t event_len;
	const unsigned char *raw;	/* the whole record */
	size_t raw_len;
};

/* Split @buf into records; returns how many, -1 if malformed. */
static int split_records(const unsigned char *buf, size_t len,
			 struct rec *recs, int max)
{
	size_t off = 0;
	int n = 0;

	while (off < len) {
		uint32_t size;
		const unsigned char *nul;

		if (len - off < 5)
			return -1;
		size = (uint32_t)buf[off] | (uint32_t)buf[off + 1] << 8 |
		       (uint32_t)buf[off + 2] << 16 |
		       (uint32_t)buf[off + 3] << 24;
		if (size < 5 || size > len - off)
			return -1;
		nul = (const unsigned char *)memchr(buf + off + 4, 0, size - 4);
		if (!nul)
			return -1;
		if (n < max) {
			recs[n].name = (const char *)buf + off + 4;
			recs[n].event = nul + 1;
			recs[n].event_len =
				(size_t)(buf + off + size - nul - 1);
			recs[n].raw = buf + off;
			recs[n].raw_len = size;
		}
		n++;
		off += size;
	}
	return n;
}

/* A fresh empty file for the interceptor; returns its path (static). */
static const char *capture_start(void)
{
	static char path[4096];
	const char *dir = getenv("EH_BUILDDIR");
	int fd;

	if (!dir || !*dir)
		dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	snprintf(path, sizeof(path), "%s/eh-test-dynamic-XXXXXX", dir);
	fd = mkstemp(path);
	if (fd < 0) {
		snprintf(path, sizeof(path), "/tmp/eh-test-dynamic-XXXXXX");
		fd = mkstemp(path);
	}
	if (fd < 0)
		return NULL;
	close(fd);
	setenv("EH_INTERCEPTOR_FILE", path, 1);
	return path;
}

static int host_is_le64(void)
{
	return EH_FLAG_DEFAULT == (EH_FLAG_POINTER64 | EH_FLAG_LITTLE_ENDIAN);
}
#endif /* EH_INTERCEPTOR */

#if defined(EH_INTERCEPTOR) && !defined(EH_DYN_TEST_CORPUS)

/*
 * Builder and provider tests (interceptor backend).
 */

static const char *cap_path;

static int setup(void **state)
{
	(void)state;
	alloc_budget = -1;
	cap_path = capture_start();
	return cap_path ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	alloc_budget = -1;
	unlink(cap_path);
	return 0;
}

/* Read the capture file; check it holds @count records. */
static unsigned char *captured(struct rec *recs, int count)
{
	size_t len = 0;
	unsigned char *buf = read_all(cap_path, &len);

	assert_non_null(buf);
	assert_int_equal(split_records(buf, len, recs, count), count);
	return buf;
}

static void assert_event(const struct rec *r, const char *tp_name,
			 const unsigned char *exp, size_t exp_len)
{
	assert_string_equal(r->name, tp_name);
	assert_int_equal(r->event_len, exp_len);
	assert_memory_equal(r->event, exp, exp_len);
}

/* Field declarations after the event name "E". */
static const unsigned char *fields_meta(const struct eh_dyn_builder *b)
{
	return b->meta + sizeof(struct eh_extension) + 2;
}

static void test_provider_sets(void **state)
{
	struct eh_dyn_provider p;
	struct eh_dyn_set *s1, *s2;

	(void)state;
	assert_int_equal(eh_dyn_provider_open(&p, "DynTest", NULL), 0);
	assert_int_equal(eh_dyn_provider_errno(&p), 0);
	assert_string_equal(eh_dyn_provider_name(&p), "DynTest");
	assert_string_equal(eh_dyn_provider_options(&p), "");

	assert_null(eh_dyn_provider_find_set(&p, 5, 1));
	s1 = eh_dyn_provider_register_set(&p, 5, 1);
	assert_non_null(s1);
	assert_int_equal(eh_dyn_set_errno(s1), 0);
	assert_true(eh_dyn_set_enabled(s1));	/* interceptor: always */
	assert_ptr_equal(eh_dyn_provider_register_set(&p, 5, 1), s1);
	assert_ptr_equal(eh_dyn_provider_find_set(&p, 5, 1), s1);
	s2 = eh_dyn_provider_register_set(&p, 4, 0x2a);
	assert_non_null(s2);
	assert_ptr_not_equal(s1, s2);
	assert_int_equal(s2->tp.level, 4);
	assert_true(eh_dyn_provider_enabled(&p, 4, 0x2a));
	assert_false(eh_dyn_provider_enabled(&p, 4, 0x2b));
	assert_null(eh_dyn_provider_find_set(&p, 5, 2));
	/* many sets: the array grows and old pointers stay valid */
	{
		int i;

		for (i = 0; i < 40; i++)
			assert_non_null(eh_dyn_provider_register_set(&p, 1,
							     (uint64_t)i << 8));
		assert_ptr_equal(eh_dyn_provider_find_set(&p, 5, 1), s1);
		assert_ptr_equal(eh_dyn_provider_find_set(&p, 4, 0x2a), s2);
		assert_int_equal(p.sets_count, 42);
	}
	eh_dyn_provider_close(&p);
	assert_int_equal(eh_dyn_provider_errno(&p), EBADF);
	assert_null(eh_dyn_provider_name(&p));
}

static void test_provider_group_and_name(void **state)
{
	static const unsigned char exp[] = {
		0x07, 0, 0, 0, 0, 0, 0, 0x04,	/* level 4 */
		0x02, 0x00, 0x01, 0x00, 'G', 0,
	};
	struct eh_dyn_builder b = EH_DYN_BUILDER_INIT;
	struct eh_dyn_provider p;
	struct eh_dyn_set *set;
	struct rec r[2];
	unsigned char *buf;

	(void)state;
	assert_int_equal(eh_dyn_provider_open(&p, "DynTest", "grp1"), 0);
	assert_string_equal(eh_dyn_provider_options(&p), "Ggrp1");
	set = eh_dyn_provider_register_set(&p, 4, 0x2a);
	assert_int_equal(eh_dyn_builder_reset(&b, "G", 0), 0);
	assert_int_equal(eh_dyn_builder_write(&b, set, NULL, NULL), 0);
	eh_dyn_provider_close(&p);

	/* "" is no group */
	assert_int_equal(eh_dyn_provider_open(&p, "DynTest", ""), 0);
	assert_string_equal(eh_dyn_provider_options(&p), "");
	set = eh_dyn_provider_register_set(&p, 4, 0);
	assert_int_equal(eh_dyn_builder_write(&b, set, NULL, NULL), 0);
	eh_dyn_provider_close(&p);
	eh_dyn_builder_destroy(&b);

	buf = captured(r, 2);
	assert_event(&r[0], "DynTest_L4K2aGgrp1", exp, sizeof(exp));
	assert_event(&r[1], "DynTest_L4K0", exp, sizeof(exp));
	free(buf);
}

static void test_provider_bad_names(void **state)
{
	char name[300];
	struct eh_dyn_builder b = EH_DYN_BUILDER_INIT;
	struct eh_dyn_provider p;
	struct eh_dyn_set *set;

	(void)state;
	assert_int_equal(eh_dyn_provider_open(&p, NULL, NULL), EINVAL);
	eh_dyn_provider_close(&p);
	assert_int_equal(eh_dyn_provider_open(&p, "", NULL), EINVAL);
	eh_dyn_provider_close(&p);
	assert_int_equal(eh_dyn_provider_open(&p, "a b", NULL), EINVAL);
	eh_dyn_provider_close(&p);
	assert_int_equal(eh_dyn_provider_open(&p, "a:b", NULL), EINVAL);
	eh_dyn_provider_close(&p);
	assert_int_equal(eh_dyn_provider_open(&p, "ok", "Upper"), EINVAL);
	eh_dyn_provider_close(&p);
	assert_int_equal(eh_dyn_provider_open(&p, "ok", "a_b"), EINVAL);
	eh_dyn_provider_close(&p);

	/* name + group: at most 233 characters */
	memset(name, 'n', 200);
	name[200] = 0;
	assert_int_equal(eh_dyn_provider_open(&p, name,
				"ggggggggggggggggggggggggggggggggg"), 0);
	set = eh_dyn_provider_register_set(&p, 0xff, UINT64_MAX);
	assert_int_equal(eh_dyn_set_errno(set), 0);
	eh_dyn_provider_close(&p);
	assert_int_equal(eh_dyn_provider_open(&p, name,
				"gggggggggggggggggggggggggggggggggg"), EINVAL);

	/* a provider that failed to open still works, as a disabled one */
	assert_null(eh_dyn_provider_name(&p));
	set = eh_dyn_provider_register_set(&p, 5, 1);
	assert_non_null(set);
	assert_int_equal(eh_dyn_set_errno(set), EINVAL);
	assert_false(eh_dyn_set_enabled(set));
	assert_int_equal(eh_dyn_builder_reset(&b, "E", 0), 0);
	assert_int_equal(eh_dyn_builder_write(&b, set, NULL, NULL), EBADF);
	eh_dyn_provider_close(&p);
	eh_dyn_builder_destroy(&b);
}

/* The metadata rule: tag -> enc|80 fmt|80 tag; format -> enc|80 fmt. */
static void test_meta_rules(void **state)
{
	static const unsigned char exp[] = {
		0x07, 0, 0, 0, 0, 0, 0, 0x05,
		0x16, 0x00, 0x01, 0x00,
		'E', 'v', 0,
		'a', 0, 0x04,			/* no format, no tag */
		'b', 0, 0x84, 0x02,		/* format */
		'c', 0, 0x84, 0x80, 0x34, 0x12,	/* tag only */
		'd', 0, 0x84, 0x83, 0xef, 0xbe,	/* format and tag */
		0x44, 0x33, 0x22, 0x11, 0x44, 0x33, 0x22, 0x11,
		0x44, 0x33, 0x22, 0x11, 0x44, 0x33, 0x22, 0x11,
	};
	struct eh_dyn_builder b = EH_DYN_BUILDER_INIT;
	struct eh_dyn_provider p;
	struct eh_dyn_set *set;
	uint32_t v = 0x11223344;
	struct rec r[1];
	unsigned char *buf;

	(void)state;
	assert_int_equal(eh_dyn_provider_open(&p, "DynTest", NULL), 0);
	set = eh_dyn_provider_register_set(&p, 5, 1);
	assert_int_equal(eh_dyn_builder_reset(&b, "Ev", 0), 0);
	assert_int_equal(eh_dyn_builder_add_value(&b, "a", &v, 4, 0, 0), 0);
	assert_int_equal(eh_dyn_builder_add_value(&b, "b", &v, 4,
						  EH_FMT_SIGNED_INT, 0), 0);
	assert_int_equal(eh_dyn_builder_add_value(&b, "c", &v, 4, 0, 0x1234),
			 0);
	assert_int_equal(eh_dyn_builder_add_value(&b, "d", &v, 4,
						  EH_FMT_HEX_INT, 0xbeef), 0);
	assert_int_equal(eh_dyn_builder_write(&b, set, NULL, NULL), 0);
	eh_dyn_provider_close(&p);
	eh_dyn_builder_destroy(&b);

	buf = captured(r, 1);
	assert_event(&r[0], "DynTest_L5K1", exp, sizeof(exp));
	free(buf);
}

static void test_header_fields(void **state)
{
	static const unsigned char exp1[] = {
		0x07, 0x07, 0x34, 0x12, 0xcd, 0xab, 0x01, 0x03,
		0x02, 0x00, 0x01, 0x00, 'H', 0,
	};
	static const unsigned char exp2[] = {
		0x07, 0, 0, 0, 0, 0, 0, 0x03,
		0x02, 0x00, 0x01, 0x00, 'I', 0,
	};
	struct eh_dyn_builder b = EH_DYN_BUILDER_INIT;
	struct eh_dyn_provider p;
	struct eh_dyn_set *set;
	struct rec r[2];
	unsigned char *buf;

	(void)state;
	assert_int_equal(eh_dyn_provider_open(&p, "DynTest", NULL), 0);
	set = eh_dyn_provider_register_set(&p, 3, 0);
	assert_int_equal(eh_dyn_builder_reset(&b, "H", 0xabcd), 0);
	eh_dyn_builder_id_version(&b, 0x1234, 7);
	eh_dyn_builder_opcode(&b, EH_OPCODE_ACTIVITY_START);
	assert_int_equal(eh_dyn_builder_write(&b, set, NULL, NULL), 0);
	/* reset clears id, version, opcode and tag */
	assert_int_equal(eh_dyn_builder_reset(&b, "I", 0), 0);
	assert_int_equal(eh_dyn_builder_write(&b, set, NULL, NULL), 0);
	eh_dyn_provider_close(&p);
	eh_dyn_builder_destroy(&b);

	buf = captured(r, 2);
	assert_event(&r[0], "DynTest_L3K0", exp1, sizeof(exp1));
	assert_event(&r[1], "DynTest_L3K0", exp2, sizeof(exp2));
	free(buf);
}

static void test_value_sizes(void **state)
{
	static const unsigned char exp_meta[] = {
		'1', 0, 0x02, '2', 0, 0x03, '4', 0, 0x04, '8', 0, 0x05,
		'6', 0, 0x86, 0x0f,
	};
	unsigned char v[16];
	struct eh_dyn_builder b = EH_DYN_BUILDER_INIT;
	int i;

	(void)state;
	for (i = 0; i < 16; i++)
		v[i] = (unsigned char)(0xa0 + i);
	assert_int_equal(eh_dyn_builder_reset(&b, "E", 0), 0);
	assert_int_equal(eh_dyn_builder_add_value(&b, "1", v, 1, 0, 0), 0);
	assert_int_equal(eh_dyn_builder_add_value(&b, "2", v, 2, 0, 0), 0);
	assert_int_equal(eh_dyn_builder_add_value(&b, "4", v, 4, 0, 0), 0);
	assert_int_equal(eh_dyn_builder_add_value(&b, "8", v, 8, 0, 0), 0);
	assert_int_equal(eh_dyn_builder_add_value(&b, "6", v, 16,
						  EH_FMT_UUID, 0), 0);
	assert_int_equal(b.meta_size - 4 - 2, sizeof(exp_meta));
	assert_memory_equal(fields_meta(&b), exp_meta, sizeof(exp_meta));
	assert_int_equal(b.data_size, 1 + 2 + 4 + 8 + 16);
	assert_memory_equal(b.data, v, 1);
	assert_memory_equal(b.data + 1, v, 2);
	assert_memory_equal(b.data + 15, v, 16);

	/* sizes without an encoding */
	assert_int_equal(eh_dyn_builder_add_value(&b, "3", v, 3, 0, 0), EINVAL);
	assert_int_equal(eh_dyn_builder_error(&b), EINVAL);
	assert_int_equal(eh_dyn_builder_write(&b, NULL, NULL, NULL), EINVAL);
	eh_dyn_builder_reset(&b, "E", 0);
	assert_int_equal(eh_dyn_builder_add_value(&b, "0", v, 0, 0, 0), EINVAL);
	eh_dyn_builder_reset(&b, "E", 0);
	assert_int_equal(eh_dyn_builder_add_value(&b, "x", v, 32, 0, 0),
			 EINVAL);
	eh_dyn_builder_destroy(&b);
}

static void test_strings_binary(void **state)
{
	static const uint16_t hi16[] = { 'h', 'i', 0 };
	static const uint32_t hi32[] = { 'h', 'i', 0 };
	static const unsigned char exp_meta[] = {
		'a', 0, 0x07,
		'b', 0, 0x08,
		'c', 0, 0x89, 0x0c,
		'd', 0, 0x07,
		'e', 0, 0x08,
		'f', 0, 0x8a, 0x0a,
		'g', 0, 0x0b,
		'h', 0, 0x8c, 0x80, 0x01, 0x00,
		'i', 0, 0x0d,
		'j', 0, 0x0a,
	};
	static const unsigned char exp_data[] = {
		'h', 'i', 0,
		'h', 0, 'i', 0, 0, 0,
		'h', 0, 0, 0, 'i', 0, 0, 0, 0, 0, 0, 0,
		0,
		0, 0,
		3, 0, 'a', 0, 'c',
		2, 0, 'h', 0, 'i', 0,
		1, 0, 'h', 0, 0, 0,
		2, 0, 0x01, 0x02,
		0, 0,
	};
	struct eh_dyn_builder b = EH_DYN_BUILDER_INIT;

	(void)state;
	assert_int_equal(eh_dyn_builder_reset(&b, "E", 0), 0);
	assert_int_equal(eh_dyn_builder_add_zstring8(&b, "a", "hi", 0, 0), 0);
	assert_int_equal(eh_dyn_builder_add_zstring16(&b, "b", hi16, 0, 0), 0);
	assert_int_equal(eh_dyn_builder_add_zstring32(&b, "c", hi32,
					EH_FMT_STRING_UTF_BOM, 0), 0);
	assert_int_equal(eh_dyn_builder_add_zstring8(&b, "d", NULL, 0, 0), 0);
	assert_int_equal(eh_dyn_builder_add_zstring16(&b, "e", NULL, 0, 0), 0);
	assert_int_equal(eh_dyn_builder_add_string8(&b, "f", "a\0c", 3,
						    EH_FMT_STRING8, 0), 0);
	assert_int_equal(eh_dyn_builder_add_string16(&b, "g", hi16, 2, 0, 0),
			 0);
	assert_int_equal(eh_dyn_builder_add_string32(&b, "h", hi32, 1, 0, 1),
			 0);
	assert_int_equal(eh_dyn_builder_add_binary(&b, "i", "\x01\x02", 2, 0,
						   0), 0);
	assert_int_equal(eh_dyn_builder_add_string8(&b, "j", NULL, 0, 0, 0), 0);
	assert_int_equal(b.meta_size - 4 - 2, sizeof(exp_meta));
	assert_memory_equal(fields_meta(&b), exp_meta, sizeof(exp_meta));
	assert_int_equal(b.data_size, sizeof(exp_data));
	assert_memory_equal(b.data, exp_data, sizeof(exp_data));
	eh_dyn_builder_destroy(&b);
}

static void test_values_array(void **state)
{
	static const uint16_t v[] = { 1, 2, 0xabcd };
	static const unsigned char exp_meta[] = {
		'a', 0, 0xc3, 0x03,
		'z', 0, 0x42,
	};
	static const unsigned char exp_data[] = {
		3, 0, 1, 0, 2, 0, 0xcd, 0xab,
		0, 0,
	};
	struct eh_dyn_builder b = EH_DYN_BUILDER_INIT;

	(void)state;
	assert_int_equal(eh_dyn_builder_reset(&b, "E", 0), 0);
	assert_int_equal(eh_dyn_builder_add_values(&b, "a", v, 3, 2,
						   EH_FMT_HEX_INT, 0), 0);
	assert_int_equal(eh_dyn_builder_add_values(&b, "z", NULL, 0, 1, 0, 0),
			 0);
	assert_memory_equal(fields_meta(&b), exp_meta, sizeof(exp_meta));
	assert_int_equal(b.data_size, sizeof(exp_data));
	assert_memory_equal(b.data, exp_data, sizeof(exp_data));
	assert_int_equal(eh_dyn_builder_add_values(&b, "x", v, 1, 3, 0, 0),
			 EINVAL);
	eh_dyn_builder_reset(&b, "E", 0);
	assert_int_equal(eh_dyn_builder_add_values(&b, "x", NULL, 1, 2, 0, 0),
			 EINVAL);
	eh_dyn_builder_destroy(&b);
}

static void test_struct_bookmark(void **state)
{
	static const unsigned char exp_meta[] = {
		's', 't', 0, 0x81, 0x02,
		'x', 0, 0x02,
		'y', 0, 0x02,
		't', 0, 0x81, 0x83, 0x55, 0x00,
		'z', 0, 0x02,
	};
	struct eh_dyn_builder b = EH_DYN_BUILDER_INIT;
	size_t bm1, bm2, bm;
	uint8_t v = 9;

	(void)state;
	assert_int_equal(eh_dyn_builder_reset(&b, "E", 0), 0);
	assert_int_equal(eh_dyn_builder_add_struct(&b, "st", 5, 0, &bm1), 0);
	assert_int_equal(eh_dyn_builder_add_value(&b, "x", &v, 1, 0, 0), 0);
	assert_int_equal(eh_dyn_builder_add_value(&b, "y", &v, 1, 0, 0), 0);
	assert_int_equal(eh_dyn_builder_add_struct(&b, "t", 1, 0x55, &bm2), 0);
	assert_int_equal(eh_dyn_builder_add_value(&b, "z", &v, 1, 0, 0), 0);
	assert_int_equal(eh_dyn_builder_set_struct_field_count(&b, bm1, 2), 0);
	assert_int_equal(eh_dyn_builder_set_struct_field_count(&b, bm2, 3), 0);
	assert_int_equal(b.meta_size - 4 - 2, sizeof(exp_meta));
	assert_memory_equal(fields_meta(&b), exp_meta, sizeof(exp_meta));
	assert_int_equal(b.data_size, 3);	/* structs have no data */
	assert_int_equal(eh_dyn_builder_add_struct(&b, "n", 1, 0, NULL), 0);

	/* bad bookmarks and counts */
	assert_int_equal(eh_dyn_builder_set_struct_field_count(&b, bm1, 0),
			 EINVAL);
	eh_dyn_builder_reset(&b, "E", 0);
	eh_dyn_builder_add_struct(&b, "st", 5, 0, &bm1);
	assert_int_equal(eh_dyn_builder_set_struct_field_count(&b, bm1, 128),
			 EINVAL);
	eh_dyn_builder_reset(&b, "E", 0);
	eh_dyn_builder_add_value(&b, "x", &v, 1, EH_FMT_HEX_INT, 0);
	/* the format byte of a value is not a struct's */
	assert_int_equal(eh_dyn_builder_set_struct_field_count(&b,
							b.meta_size - 1, 1),
			 EINVAL);
	eh_dyn_builder_reset(&b, "E", 0);
	assert_int_equal(eh_dyn_builder_set_struct_field_count(&b, 0, 1),
			 EINVAL);
	eh_dyn_builder_reset(&b, "E", 0);
	assert_int_equal(eh_dyn_builder_set_struct_field_count(&b, 1000, 1),
			 EINVAL);
	eh_dyn_builder_reset(&b, "E", 0);
	assert_int_equal(eh_dyn_builder_add_struct(&b, "s", 0, 0, &bm), EINVAL);
	assert_int_equal(bm, 0);
	eh_dyn_builder_reset(&b, "E", 0);
	assert_int_equal(eh_dyn_builder_add_struct(&b, "s", 128, 0, &bm),
			 EINVAL);
	eh_dyn_builder_reset(&b, "E", 0);
	assert_int_equal(eh_dyn_builder_add_struct(&b, "s", 127, 0, &bm), 0);
	eh_dyn_builder_destroy(&b);
}

static void test_counts_clamp(void **state)
{
	const size_t big = 70000;
	unsigned char *buf = (unsigned char *)calloc(big, 4);
	struct eh_dyn_builder b = EH_DYN_BUILDER_INIT;

	(void)state;
	assert_non_null(buf);
	assert_int_equal(eh_dyn_builder_reset(&b, "E", 0), 0);
	assert_int_equal(eh_dyn_builder_add_string8(&b, "s", (char *)buf, big,
						    0, 0), 0);
	assert_int_equal(b.data_size, 2 + 65535);
	assert_int_equal(b.data[0], 0xff);
	assert_int_equal(b.data[1], 0xff);
	assert_int_equal(eh_dyn_builder_write(&b, NULL, NULL, NULL), ERANGE);

	eh_dyn_builder_reset(&b, "E", 0);
	assert_int_equal(eh_dyn_builder_add_binary(&b, "b", buf, big, 0, 0), 0);
	assert_int_equal(b.data_size, 2 + 65535);
	assert_int_equal(b.data[0] | b.data[1] << 8, 65535);

	eh_dyn_builder_reset(&b, "E", 0);
	assert_int_equal(eh_dyn_builder_add_string16(&b, "w", buf, big, 0, 0),
			 0);
	assert_int_equal(b.data_size, 2 + 65535 * 2);
	assert_int_equal(b.data[0] | b.data[1] << 8, 65535);

	eh_dyn_builder_reset(&b, "E", 0);
	assert_int_equal(eh_dyn_builder_add_string32(&b, "w", buf, big, 0, 0),
			 0);
	assert_int_equal(b.data_size, 2 + 65535 * 4);

	eh_dyn_builder_reset(&b, "E", 0);
	assert_int_equal(eh_dyn_builder_add_values(&b, "v", buf, big, 2, 0, 0),
			 0);
	assert_int_equal(b.data_size, 2 + 65535 * 2);
	assert_int_equal(b.data[0] | b.data[1] << 8, 65535);

	/* 65535 itself is not clamped */
	eh_dyn_builder_reset(&b, "E", 0);
	assert_int_equal(eh_dyn_builder_add_binary(&b, "b", buf, 65534, 0, 0),
			 0);
	assert_int_equal(b.data[0] | b.data[1] << 8, 65534);
	eh_dyn_builder_destroy(&b);
	free(buf);
}

/* meta + data may be 65467 bytes, not one more. */
static void test_erange_boundary(void **state)
{
	const size_t n = EH_DYN_META_DATA_MAX - 7;	/* meta 5, count 2 */
	unsigned char *bytes = (unsigned char *)calloc(n + 1, 1);
	struct eh_dyn_builder b = EH_DYN_BUILDER_INIT;
	struct eh_dyn_provider p;
	struct eh_dyn_set *set;
	struct rec r[2];
	unsigned char *buf;

	(void)state;
	assert_int_equal(EH_DYN_META_DATA_MAX, 65467);
	assert_non_null(bytes);
	assert_int_equal(eh_dyn_provider_open(&p, "DynTest", NULL), 0);
	set = eh_dyn_provider_register_set(&p, 5, 1);

	eh_dyn_builder_reset(&b, "E", 0);
	eh_dyn_builder_add_binary(&b, "x", bytes, n + 1, 0, 0);
	assert_int_equal(eh_dyn_builder_write(&b, set, NULL, NULL), ERANGE);
	/* the same through the metadata: a longer field name */
	eh_dyn_builder_reset(&b, "E", 0);
	eh_dyn_builder_add_binary(&b, "xy", bytes, n, 0, 0);
	assert_int_equal(eh_dyn_builder_write(&b, set, NULL, NULL), ERANGE);

	eh_dyn_builder_reset(&b, "E", 0);
	eh_dyn_builder_add_binary(&b, "x", bytes, n, 0, 0);
	assert_int_equal(eh_dyn_builder_write(&b, set, NULL, NULL), 0);
	/* with both activity ids the event is still under 64 KiB */
	assert_int_equal(eh_dyn_builder_write(&b, set, bytes, bytes), 0);
	eh_dyn_provider_close(&p);
	eh_dyn_builder_destroy(&b);

	buf = captured(r, 2);
	assert_int_equal(r[0].event_len, 8 + 4 + 5 + 2 + n);
	assert_int_equal(r[1].event_len, 8 + 4 + 32 + 4 + 5 + 2 + n);
	free(buf);
	free(bytes);
}

static void test_einval(void **state)
{
	struct eh_dyn_builder b = EH_DYN_BUILDER_INIT;
	uint32_t v = 1;

	(void)state;
	/* nothing before the first reset */
	assert_int_equal(eh_dyn_builder_write(&b, NULL, NULL, NULL), EINVAL);
	assert_int_equal(eh_dyn_builder_add_value(&b, "v", &v, 4, 0, 0),
			 EINVAL);
	assert_int_equal(eh_dyn_builder_reset(&b, NULL, 0), EINVAL);
	assert_int_equal(eh_dyn_builder_write(&b, NULL, NULL, NULL), EINVAL);

#define CHECK_EINVAL(call)                                                     \
	do {                                                                   \
		assert_int_equal(eh_dyn_builder_reset(&b, "E", 0), 0);         \
		assert_int_equal(call, EINVAL);                                \
		assert_int_equal(eh_dyn_builder_error(&b), EINVAL);            \
		assert_int_equal(b.meta_size, 4 + 2);                          \
		assert_int_equal(b.data_size, 0);                              \
	} while (0)

	CHECK_EINVAL(eh_dyn_builder_add_value(&b, NULL, &v, 4, 0, 0));
	CHECK_EINVAL(eh_dyn_builder_add_value(&b, "v", NULL, 4, 0, 0));
	CHECK_EINVAL(eh_dyn_builder_add_value(&b, "v", &v, 4, 0x80, 0));
	CHECK_EINVAL(eh_dyn_builder_add_string8(&b, "s", NULL, 1, 0, 0));
	CHECK_EINVAL(eh_dyn_builder_add_string8(&b, "s", "a", 1, 0x8b, 0));
	CHECK_EINVAL(eh_dyn_builder_add_string16(&b, "s", NULL, 1, 0, 0));
	CHECK_EINVAL(eh_dyn_builder_add_string32(&b, NULL, "", 0, 0, 0));
	CHECK_EINVAL(eh_dyn_builder_add_binary(&b, "s", NULL, 2, 0, 0));
	CHECK_EINVAL(eh_dyn_builder_add_zstring8(&b, "z", "a", 0xff, 0));
	CHECK_EINVAL(eh_dyn_builder_add_zstring32(&b, NULL, NULL, 0, 0));
	CHECK_EINVAL(eh_dyn_builder_raw_add_meta(&b, "r", EH_ENC_INVALID, 0,
						 0));
	CHECK_EINVAL(eh_dyn_builder_raw_add_meta(&b, "r", EH_ENC_MAX, 0, 0));
	CHECK_EINVAL(eh_dyn_builder_raw_add_meta(&b, "r", 0x1f, 0, 0));
	CHECK_EINVAL(eh_dyn_builder_raw_add_meta(&b, "r",
				EH_ENC_VALUE8 | EH_ENC_CARRAY_FLAG, 0, 0));
	CHECK_EINVAL(eh_dyn_builder_raw_add_meta(&b, "r",
				EH_ENC_VALUE8 | EH_ENC_CHAIN_FLAG, 0, 0));
	CHECK_EINVAL(eh_dyn_builder_raw_add_meta(&b, "r", EH_ENC_STRUCT, 0, 0));
	CHECK_EINVAL(eh_dyn_builder_raw_add_meta(&b, "r", EH_ENC_VALUE8, 0x80,
						 0));
	CHECK_EINVAL(eh_dyn_builder_raw_add_data(&b, NULL, 1));
#undef CHECK_EINVAL

	/* the first error sticks until reset; later adds do nothing */
	eh_dyn_builder_reset(&b, "E", 0);
	assert_int_equal(eh_dyn_builder_add_value(&b, "v", &v, 3, 0, 0),
			 EINVAL);
	assert_int_equal(eh_dyn_builder_add_value(&b, "v", &v, 4, 0, 0),
			 EINVAL);
	assert_int_equal(b.data_size, 0);
	assert_int_equal(eh_dyn_builder_write(&b, NULL, NULL, NULL), EINVAL);
	assert_int_equal(eh_dyn_builder_reset(&b, "E", 0), 0);
	assert_int_equal(eh_dyn_builder_error(&b), 0);
	assert_int_equal(eh_dyn_builder_add_value(&b, "v", &v, 4, 0, 0), 0);
	eh_dyn_builder_destroy(&b);
}

static void test_enomem(void **state)
{
	unsigned char bytes[1000] = { 0 };
	struct eh_dyn_builder b = EH_DYN_BUILDER_INIT;
	struct eh_dyn_provider p;
	struct eh_dyn_set *set;
	uint32_t v = 1;

	(void)state;
	/* the first reset allocates */
	alloc_budget = 0;
	assert_int_equal(eh_dyn_builder_reset(&b, "E", 0), ENOMEM);
	assert_int_equal(eh_dyn_builder_error(&b), ENOMEM);
	assert_int_equal(eh_dyn_builder_add_value(&b, "v", &v, 4, 0, 0),
			 ENOMEM);
	assert_int_equal(eh_dyn_builder_write(&b, NULL, NULL, NULL), ENOMEM);
	assert_int_equal(eh_dyn_builder_reserve(&b, 10, 10), ENOMEM);

	/* an add that needs to grow a buffer fails and changes nothing */
	alloc_budget = -1;
	assert_int_equal(eh_dyn_builder_reset(&b, "E", 0), 0);
	assert_int_equal(eh_dyn_builder_add_value(&b, "v", &v, 4, 0, 0), 0);
	alloc_budget = 0;
	assert_int_equal(eh_dyn_builder_add_binary(&b, "b", bytes,
						   sizeof(bytes), 0, 0),
			 ENOMEM);
	assert_int_equal(b.meta_size, 4 + 2 + 3);
	assert_int_equal(b.data_size, 4);
	/* ... and is remembered: a later add that fits still fails */
	assert_int_equal(eh_dyn_builder_add_value(&b, "w", &v, 4, 0, 0),
			 ENOMEM);
	assert_int_equal(eh_dyn_builder_write(&b, NULL, NULL, NULL), ENOMEM);
	/* reset keeps the buffers: no allocation needed */
	assert_int_equal(eh_dyn_builder_reset(&b, "E", 0), 0);
	assert_int_equal(eh_dyn_builder_add_value(&b, "w", &v, 4, 0, 0), 0);
	assert_int_equal(eh_dyn_builder_raw_add_data(&b, bytes, sizeof(bytes)),
			 ENOMEM);
	/* an EINVAL recorded first is what write reports */
	assert_int_equal(eh_dyn_builder_reset(&b, "E", 0), 0);
	assert_int_equal(eh_dyn_builder_add_value(&b, "v", &v, 5, 0, 0),
			 EINVAL);
	assert_int_equal(eh_dyn_builder_add_binary(&b, "b", bytes,
						   sizeof(bytes), 0, 0),
			 EINVAL);
	assert_int_equal(eh_dyn_builder_write(&b, NULL, NULL, NULL), EINVAL);
	alloc_budget = -1;
	assert_int_equal(eh_dyn_builder_reserve(&b, 5000, 5000), 0);
	alloc_budget = 0;
	assert_int_equal(eh_dyn_builder_reset(&b, "E", 0), 0);
	assert_int_equal(eh_dyn_builder_add_binary(&b, "b", bytes,
						   sizeof(bytes), 0, 0), 0);
	alloc_budget = -1;
	eh_dyn_builder_destroy(&b);

	/* provider: copying the name fails */
	alloc_budget = 0;
	assert_int_equal(eh_dyn_provider_open(&p, "DynTest", NULL), ENOMEM);
	assert_int_equal(eh_dyn_provider_errno(&p), ENOMEM);
	set = eh_dyn_provider_register_set(&p, 5, 1);
	assert_null(set);
	assert_int_equal(eh_dyn_set_errno(set), ENOMEM);
	assert_false(eh_dyn_set_enabled(set));
	eh_dyn_provider_close(&p);
	alloc_budget = 1;
	assert_int_equal(eh_dyn_provider_open(&p, "DynTest", "g"), ENOMEM);
	eh_dyn_provider_close(&p);

	/* sets: the set array, then the set itself */
	alloc_budget = 2;
	assert_int_equal(eh_dyn_provider_open(&p, "DynTest", NULL), 0);
	assert_null(eh_dyn_provider_register_set(&p, 5, 1));
	alloc_budget = 1;
	assert_null(eh_dyn_provider_register_set(&p, 5, 1));
	assert_null(eh_dyn_provider_find_set(&p, 5, 1));
	alloc_budget = -1;
	set = eh_dyn_provider_register_set(&p, 5, 1);
	assert_non_null(set);
	assert_int_equal(eh_dyn_set_errno(set), 0);
	assert_int_equal(p.sets_count, 1);
	/* a NULL set writes nothing */
	assert_int_equal(eh_dyn_builder_reset(&b, "E", 0), 0);
	assert_int_equal(eh_dyn_builder_write(&b, NULL, NULL, NULL), EBADF);
	eh_dyn_provider_close(&p);
	eh_dyn_builder_destroy(&b);
}

static void test_activity_ids(void **state)
{
	static const unsigned char id[16] = {
		1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
	};
	static const unsigned char rel[16] = {
		0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8,
		0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf, 0xb0,
	};
	static const unsigned char head[] = { 0x07, 0, 0, 0, 0, 0, 0x01, 0x05 };
	static const unsigned char meta[] = {
		0x05, 0x00, 0x01, 0x00, 'T', 0, 'v', 0, 0x02, 0x2a,
	};
	unsigned char exp[8 + 4 + 32 + sizeof(meta)];
	struct eh_dyn_builder b = EH_DYN_BUILDER_INIT;
	struct eh_dyn_provider p;
	struct eh_dyn_set *set;
	struct rec r[3];
	unsigned char *buf;
	uint8_t v = 42;

	(void)state;
	assert_int_equal(eh_dyn_provider_open(&p, "DynTest", NULL), 0);
	set = eh_dyn_provider_register_set(&p, 5, 1);
	eh_dyn_builder_reset(&b, "T", 0);
	eh_dyn_builder_opcode(&b, EH_OPCODE_ACTIVITY_START);
	eh_dyn_builder_add_value(&b, "v", &v, 1, 0, 0);
	assert_int_equal(eh_dyn_builder_write(&b, set, id, NULL), 0);
	assert_int_equal(eh_dyn_builder_write(&b, set, id, rel), 0);
	/* a related id alone is not sent */
	assert_int_equal(eh_dyn_builder_write(&b, set, NULL, rel), 0);
	eh_dyn_provider_close(&p);
	eh_dyn_builder_destroy(&b);

	buf = captured(r, 3);
	memcpy(exp, head, 8);
	memcpy(exp + 8, "\x10\x00\x02\x80", 4);
	memcpy(exp + 12, id, 16);
	memcpy(exp + 28, meta, sizeof(meta));
	assert_event(&r[0], "DynTest_L5K1", exp, 28 + sizeof(meta));
	memcpy(exp + 8, "\x20\x00\x02\x80", 4);
	memcpy(exp + 28, rel, 16);
	memcpy(exp + 44, meta, sizeof(meta));
	assert_event(&r[1], "DynTest_L5K1", exp, 44 + sizeof(meta));
	memcpy(exp + 8, meta, sizeof(meta));
	assert_event(&r[2], "DynTest_L5K1", exp, 8 + sizeof(meta));
	free(buf);
}

static void test_raw(void **state)
{
	static const char *const strs[] = { "ABC", "DE", "F" };
	static const unsigned char exp[] = {
		0x07, 0, 0, 0, 0, 0, 0, 0x05,
		0x11, 0x00, 0x01, 0x00,
		'R', 0,
		'p', 't', 0, 0xc1, 0x02,	/* array of struct, 2 members */
		'x', 0, 0x02,
		'n', 0, 0x07,
		's', 0, 0xc7, 0x0a,		/* zstring array, string8 */
		0x01, 0x00, 0x07, 'q', 0,	/* 1 struct: x=7, n="q" */
		0x03, 0x00, 'A', 'B', 'C', 0, 'D', 'E', 0, 'F', 0,
	};
	struct eh_dyn_builder b = EH_DYN_BUILDER_INIT;
	struct eh_dyn_provider p;
	struct eh_dyn_set *set;
	uint16_t count;
	struct rec r[1];
	unsigned char *buf;
	size_t i;

	(void)state;
	assert_int_equal(eh_dyn_provider_open(&p, "DynTest", NULL), 0);
	set = eh_dyn_provider_register_set(&p, 5, 1);
	eh_dyn_builder_reset(&b, "R", 0);
	assert_int_equal(eh_dyn_builder_raw_add_meta(&b, "pt",
			EH_ENC_STRUCT | EH_ENC_VARRAY_FLAG, 2, 0), 0);
	assert_int_equal(eh_dyn_builder_raw_add_meta(&b, "x", EH_ENC_VALUE8, 0,
						     0), 0);
	assert_int_equal(eh_dyn_builder_raw_add_meta(&b, "n",
			EH_ENC_ZSTRING_CHAR8, 0, 0), 0);
	assert_int_equal(eh_dyn_builder_raw_add_meta(&b, "s",
			EH_ENC_ZSTRING_CHAR8 | EH_ENC_VARRAY_FLAG,
			EH_FMT_STRING8, 0), 0);
	count = 1;
	eh_dyn_builder_raw_add_data(&b, &count, 2);
	eh_dyn_builder_raw_add_data(&b, "\x07", 1);
	eh_dyn_builder_raw_add_data(&b, "q", 2);
	count = 3;
	eh_dyn_builder_raw_add_data(&b, &count, 2);
	for (i = 0; i < 3; i++)
		eh_dyn_builder_raw_add_data(&b, strs[i], strlen(strs[i]) + 1);
	assert_int_equal(eh_dyn_builder_raw_add_data(&b, NULL, 0), 0);
	assert_int_equal(eh_dyn_builder_write(&b, set, NULL, NULL), 0);
	eh_dyn_provider_close(&p);
	eh_dyn_builder_destroy(&b);

	buf = captured(r, 1);
	assert_event(&r[0], "DynTest_L5K1", exp, sizeof(exp));
	free(buf);
}

/* A reused builder writes each event exactly; writes repeat. */
static void test_reuse(void **state)
{
	static const unsigned char exp_small[] = {
		0x07, 0, 0, 0, 0, 0, 0, 0x05,
		0x05, 0x00, 0x01, 0x00, 'S', 0, 'b', 0, 0x0d,
		0x01, 0x00, 0x5a,
	};
	unsigned char bytes[600];
	struct eh_dyn_builder b = EH_DYN_BUILDER_INIT;
	struct eh_dyn_provider p;
	struct eh_dyn_set *set;
	struct rec r[3];
	unsigned char *buf;
	unsigned char *meta, *data;

	(void)state;
	memset(bytes, 0x5a, sizeof(bytes));
	assert_int_equal(eh_dyn_provider_open(&p, "DynTest", NULL), 0);
	set = eh_dyn_provider_register_set(&p, 5, 1);
	eh_dyn_builder_reset(&b, "Big", 0);
	eh_dyn_builder_add_binary(&b, "b", bytes, sizeof(bytes), 0, 0);
	assert_int_equal(eh_dyn_builder_write(&b, set, NULL, NULL), 0);
	meta = b.meta;
	data = b.data;
	eh_dyn_builder_reset(&b, "S", 0);
	eh_dyn_builder_add_binary(&b, "b", bytes, 1, 0, 0);
	assert_int_equal(eh_dyn_builder_write(&b, set, NULL, NULL), 0);
	assert_int_equal(eh_dyn_builder_write(&b, set, NULL, NULL), 0);
	assert_ptr_equal(b.meta, meta);		/* no reallocation */
	assert_ptr_equal(b.data, data);
	eh_dyn_provider_close(&p);
	eh_dyn_builder_destroy(&b);

	buf = captured(r, 3);
	assert_int_equal(r[0].event_len, 8 + 4 + 4 + 3 + 2 + sizeof(bytes));
	assert_event(&r[1], "DynTest_L5K1", exp_small, sizeof(exp_small));
	assert_event(&r[2], "DynTest_L5K1", exp_small, sizeof(exp_small));
	free(buf);
}

/* Writes through a set nobody listens to return EBADF. */
static void test_disabled(void **state)
{
	struct eh_dyn_builder b = EH_DYN_BUILDER_INIT;
	struct eh_dyn_provider p;
	struct eh_dyn_set *set;
	struct rec r[1];
	unsigned char *buf;

	(void)state;
	assert_int_equal(eh_dyn_provider_open(&p, "DynTest", NULL), 0);
	set = eh_dyn_provider_register_set(&p, 5, 1);
	eh_dyn_builder_reset(&b, "E", 0);
	/* what the kernel does when the last consumer goes away */
	__atomic_store_n(&set->tp.status, 0, __ATOMIC_RELAXED);
	assert_false(eh_dyn_set_enabled(set));
	assert_false(eh_dyn_provider_enabled(&p, 5, 1));
	assert_int_equal(eh_dyn_builder_write(&b, set, NULL, NULL), EBADF);
	__atomic_store_n(&set->tp.status, 1, __ATOMIC_RELAXED);
	assert_int_equal(eh_dyn_builder_write(&b, set, NULL, NULL), 0);
	eh_dyn_provider_close(&p);
	eh_dyn_builder_destroy(&b);

	buf = captured(r, 1);
	free(buf);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_provider_sets),
		T(test_provider_group_and_name),
		T(test_provider_bad_names),
		T(test_meta_rules),
		T(test_header_fields),
		T(test_value_sizes),
		T(test_strings_binary),
		T(test_values_array),
		T(test_struct_bookmark),
		T(test_counts_clamp),
		T(test_erange_boundary),
		T(test_einval),
		T(test_enomem),
		T(test_activity_ids),
		T(test_raw),
		T(test_reuse),
		T(test_disabled),
	};
#undef T

	if (!host_is_le64()) {
		printf("SKIP: expected bytes are for 64-bit little-endian\n");
		return SKIP;
	}
	return cmocka_run_group_tests(tests, NULL, NULL) ? 1 : 0;
}

#elif defined(EH_INTERCEPTOR) /* && EH_DYN_TEST_CORPUS */

/*
 * gen_dyn() against the reference corpus.
 */

#define CORPUS_DYN_COUNT 114
#define MAX_RECORDS 1024

static char corpus_path[4096];

static void test_corpus(void **state)
{
	static struct rec want[MAX_RECORDS], got[MAX_RECORDS];
	unsigned char *cbuf, *gbuf;
	size_t clen = 0, glen = 0;
	const char *path;
	int nc, ng, i, nw = 0, matched = 0;

	(void)state;
	path = capture_start();
	assert_non_null(path);
	gen_dyn();
	gbuf = read_all(path, &glen);
	unlink(path);
	assert_non_null(gbuf);
	cbuf = read_all(corpus_path, &clen);
	assert_non_null(cbuf);

	nc = split_records(cbuf, clen, want, MAX_RECORDS);
	assert_true(nc > 0 && nc <= MAX_RECORDS);
	for (i = 0; i < nc; i++)
		if (strncmp(want[i].name, "TestProviderDyn_", 16) == 0)
			want[nw++] = want[i];
	ng = split_records(gbuf, glen, got, MAX_RECORDS);
	assert_true(ng >= 0 && ng <= MAX_RECORDS);

	for (i = 0; i < nw && i < ng; i++) {
		if (got[i].raw_len == want[i].raw_len &&
		    memcmp(got[i].raw, want[i].raw, want[i].raw_len) == 0) {
			matched++;
			continue;
		}
		if (matched + 5 > i) {
			size_t k = 0;

			while (k < got[i].raw_len && k < want[i].raw_len &&
			       got[i].raw[k] == want[i].raw[k])
				k++;
			printf("# record %d (%s): differs at byte %zu of %zu "
			       "(expected %zu bytes)\n", i,
			       want[i].name, k, got[i].raw_len,
			       want[i].raw_len);
		}
	}
	printf("%d of %d matched (%d generated)\n", matched, nw, ng);
	free(cbuf);
	free(gbuf);
	assert_int_equal(nw, CORPUS_DYN_COUNT);
	assert_int_equal(ng, CORPUS_DYN_COUNT);
	assert_int_equal(matched, CORPUS_DYN_COUNT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus),
	};
	const char *shared = getenv("EH_SHARED_DIR");

	if (!host_is_le64()) {
		printf("SKIP: the corpus is for 64-bit little-endian\n");
		return SKIP;
	}
	snprintf(corpus_path, sizeof(corpus_path),
		 "%s/conformance/eventheader/EventHeaderInterceptorLE64.dat",
		 shared ? shared : ".");
	if (!shared || !*shared || access(corpus_path, R_OK) != 0) {
		printf("SKIP: corpus not found (%s); set EH_SHARED_DIR\n",
		       corpus_path);
		return SKIP;
	}
	return cmocka_run_group_tests(tests, NULL, NULL) ? 1 : 0;
}

#else /* !EH_INTERCEPTOR */

/*
 * The real backend on a host without user_events (or with nobody
 * listening): nothing is written, and the reasons are reported.
 */

static void test_real_backend(void **state)
{
	static const unsigned char id[16] = { 1 };
	struct eh_dyn_builder b = EH_DYN_BUILDER_INIT;
	struct eh_dyn_provider p;
	struct eh_dyn_set *set, *set2;
	unsigned char big[EH_DYN_META_DATA_MAX];
	uint32_t v = 7;
	int err;

	(void)state;
	memset(big, 0, sizeof(big));
	err = eh_dyn_provider_open(&p, "EhTestDynReal", NULL);
	printf("# eh_dyn_provider_open: %d (%s)\n", err,
	       err ? strerror(err) : "user_events available");
	assert_int_equal(eh_dyn_provider_errno(&p), err);
	set = eh_dyn_provider_register_set(&p, 5, 1);
	assert_non_null(set);
	if (err)	/* the provider's reason is kept in its sets */
		assert_int_equal(eh_dyn_set_errno(set), err);
	set2 = eh_dyn_provider_register_set(&p, 4, 0x2a);
	assert_non_null(set2);
	assert_ptr_not_equal(set, set2);
	assert_ptr_equal(eh_dyn_provider_register_set(&p, 5, 1), set);
	/* nobody listens here (no user_events, or a fresh tracepoint) */
	assert_false(eh_dyn_set_enabled(set));
	assert_false(eh_dyn_provider_enabled(&p, 5, 1));

	assert_int_equal(eh_dyn_builder_reset(&b, "E", 0), 0);
	assert_int_equal(eh_dyn_builder_add_value(&b, "v", &v, 4, 0, 0), 0);
	assert_int_equal(eh_dyn_builder_write(&b, set, NULL, NULL), EBADF);
	assert_int_equal(eh_dyn_builder_write(&b, set2, id, id), EBADF);
	assert_int_equal(eh_dyn_builder_write(&b, NULL, NULL, NULL), EBADF);

	/* builder errors and ERANGE come before EBADF */
	assert_int_equal(eh_dyn_builder_add_binary(&b, "b", big, sizeof(big),
						   0, 0), 0);
	assert_int_equal(eh_dyn_builder_write(&b, set, NULL, NULL), ERANGE);
	assert_int_equal(eh_dyn_builder_add_value(&b, "v", &v, 3, 0, 0),
			 EINVAL);
	assert_int_equal(eh_dyn_builder_write(&b, set, NULL, NULL), EINVAL);

	eh_dyn_provider_close(&p);
	eh_dyn_builder_destroy(&b);

	/* names are checked before user_events is looked for */
	assert_int_equal(eh_dyn_provider_open(&p, "bad name", NULL), EINVAL);
	eh_dyn_provider_close(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_backend),
	};

	return cmocka_run_group_tests(tests, NULL, NULL) ? 1 : 0;
}

#endif
