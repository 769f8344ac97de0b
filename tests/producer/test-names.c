// SPDX-License-Identifier: MIT
/*
 * test-names - tracepoint names and the checks of provider names, groups
 * and options (eventheader.h)
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <eventheader/eventheader.h>

/* A string of @n copies of @c (n < 1024). */
static const char *rep(char c, size_t n)
{
	static char buf[4][1024];
	static int next;
	char *s = buf[next++ & 3];

	assert_true(n < sizeof(buf[0]));
	memset(s, c, n);
	s[n] = 0;
	return s;
}

static void check_name(const char *provider, uint8_t level, uint64_t keyword,
		       const char *options, const char *expected)
{
	char buf[EH_NAME_MAX];
	int n;

	memset(buf, 'x', sizeof(buf));
	n = eh_format_tracepoint_name(buf, sizeof(buf), provider, level,
				      keyword, options);
	assert_string_equal(buf, expected);
	assert_int_equal(n, strlen(expected));
}

static void test_format_basic(void **state)
{
	(void)state;
	check_name("P", 5, 0, NULL, "P_L5K0");
	check_name("P", 5, 0, "", "P_L5K0");
	check_name("MyCompany_MyComponent", 4, 1, NULL,
		   "MyCompany_MyComponent_L4K1");
	check_name("P", 1, 0x1, "Gmygroup", "P_L1K1Gmygroup");
}

static void test_format_hex(void **state)
{
	(void)state;
	/* Lowercase hex without leading zeros. */
	check_name("P", 10, 10, NULL, "P_LaKa");
	check_name("P", 0x10, 0x100, NULL, "P_L10K100");
	check_name("P", 0xab, 0xabcdef, NULL, "P_LabKabcdef");
	check_name("P", 255, UINT64_C(0xffffffffffffffff), NULL,
		   "P_LffKffffffffffffffff");
	check_name("P", 0, UINT64_C(0x8000000000000000), NULL,
		   "P_L0K8000000000000000");
	check_name("P", 5, UINT64_C(0x0123456789abcdef), NULL,
		   "P_L5K123456789abcdef");
}

static void test_format_options(void **state)
{
	(void)state;
	check_name("P", 5, 0, "G0", "P_L5K0G0");
	check_name("Prov", 3, 0x30, "Aa1Gxyz", "Prov_L3K30Aa1Gxyz");
}

static void test_format_small_buffer(void **state)
{
	char buf[8];
	/* Sizes the compiler cannot see, or it warns of the truncation. */
	volatile size_t four = 4, eight = sizeof(buf);
	int n;

	(void)state;
	/* Like snprintf: truncated, terminated, full length returned. */
	memset(buf, 'x', sizeof(buf));
	n = eh_format_tracepoint_name(buf, four, "Prov", 5, 0, NULL);
	assert_int_equal(n, strlen("Prov_L5K0"));
	assert_string_equal(buf, "Pro");
	assert_int_equal(buf[4], 'x');
	n = eh_format_tracepoint_name(buf, eight, "Prov", 5, 0, NULL);
	assert_true(n >= (int)sizeof(buf));
	assert_int_equal(strlen(buf), sizeof(buf) - 1);
	n = eh_format_tracepoint_name(NULL, 0, "Prov", 5, 0, "Gg");
	assert_int_equal(n, strlen("Prov_L5K0Gg"));
	/* Exactly the size needed. */
	n = eh_format_tracepoint_name(buf, strlen("P_L5K0") + 1, "P", 5, 0,
				      NULL);
	assert_int_equal(n, strlen("P_L5K0"));
	assert_string_equal(buf, "P_L5K0");
}

static void test_format_longest(void **state)
{
	char buf[EH_NAME_MAX];
	const char *name = rep('a', 234);
	int n;

	(void)state;
	/* The longest valid name with the longest suffix fits EH_NAME_MAX. */
	assert_true(eh_provider_name_valid(name));
	n = eh_format_tracepoint_name(buf, sizeof(buf), name, 255,
				      UINT64_C(0xffffffffffffffff), NULL);
	assert_int_equal(n, EH_NAME_MAX - 1);
	assert_int_equal(strlen(buf), EH_NAME_MAX - 1);
	assert_string_equal(buf + strlen(name), "_LffKffffffffffffffff");
	/* With a group, one character less for name and group together. */
	name = rep('a', 232);
	n = eh_format_tracepoint_name(buf, sizeof(buf), name, 255,
				      UINT64_C(0xffffffffffffffff), "Gg");
	assert_int_equal(n, EH_NAME_MAX - 1);
	assert_string_equal(buf + strlen(name), "_LffKffffffffffffffffGg");
}

static void test_name_valid(void **state)
{
	(void)state;
	assert_true(eh_provider_name_valid("P"));
	assert_true(eh_provider_name_valid("MyCompany_MyComponent"));
	assert_true(eh_provider_name_valid("a.b-c+d"));
	assert_true(eh_provider_name_valid("0123456789"));

	assert_false(eh_provider_name_valid(NULL));
	assert_false(eh_provider_name_valid(""));
	assert_false(eh_provider_name_valid(" "));
	assert_false(eh_provider_name_valid("a b"));
	assert_false(eh_provider_name_valid("ab "));
	assert_false(eh_provider_name_valid(" ab"));
	assert_false(eh_provider_name_valid("a:b"));
	assert_false(eh_provider_name_valid(":"));
	assert_false(eh_provider_name_valid("ab:"));
}

static void test_name_control_chars(void **state)
{
	char name[4] = "a?b";
	int c;

	(void)state;
	for (c = 1; c < 0x20; c++) {
		name[1] = (char)c;
		assert_false(eh_provider_name_valid(name));
	}
	name[1] = 0x7f;
	assert_false(eh_provider_name_valid(name));
	for (c = 0x21; c < 0x7f; c++) {
		name[1] = (char)c;
		assert_int_equal(eh_provider_name_valid(name), c != ':');
	}
}

static void test_name_length(void **state)
{
	(void)state;
	/*
	 * 256 - strlen("_LffKffffffffffffffff") - 1 (the NUL) = 234: the
	 * longest name whose tracepoint names all fit EH_NAME_MAX.
	 */
	assert_true(eh_provider_name_valid(rep('a', 1)));
	assert_true(eh_provider_name_valid(rep('a', 233)));
	assert_true(eh_provider_name_valid(rep('a', 234)));
	assert_false(eh_provider_name_valid(rep('a', 235)));
	assert_false(eh_provider_name_valid(rep('a', 236)));
	assert_false(eh_provider_name_valid(rep('a', 255)));
	assert_false(eh_provider_name_valid(rep('a', 256)));
	assert_false(eh_provider_name_valid(rep('a', 1000)));
	/* Not only the length counts: a long name is still checked. */
	assert_false(eh_provider_name_valid("a b"
					    "cccccccccccccccccccccccccccccc"));
}

static void test_group_valid(void **state)
{
	char group[4] = "a?b";
	int c;

	(void)state;
	assert_true(eh_provider_group_valid(NULL));
	assert_true(eh_provider_group_valid(""));
	assert_true(eh_provider_group_valid("mygroup"));
	assert_true(eh_provider_group_valid("abc123"));
	assert_true(eh_provider_group_valid("0"));
	assert_false(eh_provider_group_valid("A"));
	assert_false(eh_provider_group_valid("myGroup"));
	assert_false(eh_provider_group_valid("my_group"));
	assert_false(eh_provider_group_valid("my group"));
	assert_false(eh_provider_group_valid("my-group"));
	assert_false(eh_provider_group_valid("g:"));
	for (c = 1; c < 256; c++) {
		group[1] = (char)c;
		assert_int_equal(eh_provider_group_valid(group),
				 (c >= 'a' && c <= 'z') ||
					 (c >= '0' && c <= '9'));
	}
}

static void test_options_valid(void **state)
{
	(void)state;
	assert_true(eh_options_valid(NULL));
	assert_true(eh_options_valid(""));
	assert_true(eh_options_valid("G"));
	assert_true(eh_options_valid("Gmygroup"));
	assert_true(eh_options_valid("G0a9z"));
	assert_true(eh_options_valid("AB"));
	assert_true(eh_options_valid("Aa1Gxyz"));
	assert_true(eh_options_valid("AxByCz"));
	assert_true(eh_options_valid("Z"));

	/* Not sorted. */
	assert_false(eh_options_valid("GxAy"));
	assert_false(eh_options_valid("BA"));
	assert_false(eh_options_valid("Gabc" "A"));
	/* Must start with an uppercase letter. */
	assert_false(eh_options_valid("g"));
	assert_false(eh_options_valid("gabc"));
	assert_false(eh_options_valid("1G"));
	assert_false(eh_options_valid("_G"));
	/* Values are [0-9a-z]*. */
	assert_false(eh_options_valid("Ga_b"));
	assert_false(eh_options_valid("Ga b"));
	assert_false(eh_options_valid("Ga:b"));
	assert_false(eh_options_valid("Ga-b"));
	assert_false(eh_options_valid("G\xe9"));
	assert_false(eh_options_valid(" G"));
}

static void test_limits(void **state)
{
	(void)state;
	assert_int_equal(EH_NAME_MAX, 256);
	/* The longest "_L<level>K<keyword>G" a provider name may get. */
	assert_int_equal(EH_NAME_SUFFIX_MAX, strlen("_LffKffffffffffffffffG"));
	assert_string_equal(EH_COMMAND_TYPES,
			    "u8 eventheader_flags; u8 version; u16 id; "
			    "u16 tag; u8 opcode; u8 level");
	/* Longest name (255 + NUL) where the NUL is the space, then types. */
	assert_int_equal(EH_COMMAND_MAX,
			 EH_NAME_MAX + strlen(EH_COMMAND_TYPES) + 1);
	assert_int_equal(EH_COMMAND_MAX, 256 + 71);
	assert_int_equal(EH_STRUCT_FIELDS_MAX, 127);
	assert_int_equal(EH_ARRAY_MAX, 65535);
	assert_int_equal(EH_STRING_MAX, 65535);
	assert_int_equal(EH_EVENT_MAX, 65535);
	assert_int_equal(EH_ACTIVITY_ID_SIZE, 16);
}

static void test_command_fits(void **state)
{
	char cmd[EH_COMMAND_MAX];
	const char *name = rep('p', 234);
	int n;

	(void)state;
	/* The runtime's way: name, then " " EH_COMMAND_TYPES. */
	n = eh_format_tracepoint_name(cmd, EH_NAME_MAX, name, 255,
				      UINT64_C(0xffffffffffffffff), NULL);
	assert_int_equal(n, EH_NAME_MAX - 1);
	assert_true(n + sizeof(" " EH_COMMAND_TYPES) <= sizeof(cmd));
	memcpy(cmd + n, " " EH_COMMAND_TYPES, sizeof(" " EH_COMMAND_TYPES));
	assert_int_equal(strlen(cmd), EH_COMMAND_MAX - 1);
}

static void test_format_layout(void **state)
{
	(void)state;
	assert_int_equal(sizeof(struct eh_header), 8);
	assert_int_equal(offsetof(struct eh_header, flags), 0);
	assert_int_equal(offsetof(struct eh_header, version), 1);
	assert_int_equal(offsetof(struct eh_header, id), 2);
	assert_int_equal(offsetof(struct eh_header, tag), 4);
	assert_int_equal(offsetof(struct eh_header, opcode), 6);
	assert_int_equal(offsetof(struct eh_header, level), 7);
	assert_int_equal(sizeof(struct eh_extension), 4);
	assert_int_equal(offsetof(struct eh_extension, kind), 2);
	assert_int_equal(EH_FLAG_DEFAULT,
			 (sizeof(void *) == 8 ? EH_FLAG_POINTER64 : 0) |
				 (*(const uint8_t *)&(const uint16_t){ 1 } ?
					  EH_FLAG_LITTLE_ENDIAN : 0));
	assert_int_equal(EH_FLAG_DEFAULT_WITH_EXTENSION,
			 EH_FLAG_DEFAULT | EH_FLAG_EXTENSION);
	assert_int_equal(EH_ENC_VALUE_LONG,
			 sizeof(long) == 8 ? EH_ENC_VALUE64 : EH_ENC_VALUE32);
	assert_int_equal(EH_ENC_VALUE_PTR,
			 sizeof(void *) == 8 ? EH_ENC_VALUE64 : EH_ENC_VALUE32);
}

/* eh_parse_tracepoint_name() undoes eh_format_tracepoint_name(). */
static void test_parse(void **state)
{
	static const struct {
		const char *name;
		int ok;
		size_t provider_len;
		uint8_t level;
		uint64_t keyword;
		const char *options;
	} t[] = {
		{ "MyProvider_L4K1", 1, 10, 4, 1, "" },
		{ "MyProvider_L5K0Gmygroup", 1, 10, 5, 0, "Gmygroup" },
		{ "My_Provider_L4Kff", 1, 11, 4, 0xff, "" },
		{ "A_L1K1_L4K1", 1, 6, 4, 1, "" },	/* the last '_' */
		{ "P_LffKffffffffffffffff", 1, 1, 0xff,
		  UINT64_C(0xffffffffffffffff), "" },
		{ "P_L04K0001", 1, 1, 4, 1, "" },	/* leading zeros */
		{ "P_L1K2AbcG1", 1, 1, 1, 2, "AbcG1" },	/* any options */
		{ "P_L1K2G", 1, 1, 1, 2, "G" },
		{ "P_LaK1234567890abcdef", 1, 1, 0xa,
		  UINT64_C(0x1234567890abcdef), "" },
		{ "P_L100K1", 0, 0, 0, 0, NULL },	/* level over ff */
		{ "P_L1K10000000000000000", 0, 0, 0, 0, NULL },	/* 17 digits */
		{ "P_LaKFF", 0, 0, 0, 0, NULL },	/* uppercase keyword */
		{ "P_LAK1", 0, 0, 0, 0, NULL },		/* uppercase level */
		{ "P_L4K1g", 0, 0, 0, 0, NULL },	/* option not uppercase */
		{ "P_L4K1Gmy-group", 0, 0, 0, 0, NULL },
		{ "P_L4K1Gmygroup_x", 0, 0, 0, 0, NULL },	/* '_' after */
		{ "P_L4K", 0, 0, 0, 0, NULL },
		{ "P_LK1", 0, 0, 0, 0, NULL },
		{ "P_L4", 0, 0, 0, 0, NULL },
		{ "_L4K1", 0, 0, 0, 0, NULL },		/* no provider */
		{ "MyProvider", 0, 0, 0, 0, NULL },
		{ "sched_switch", 0, 0, 0, 0, NULL },
		{ "", 0, 0, 0, 0, NULL },
	};
	char name[EH_NAME_MAX + 8];
	const char *options;
	uint64_t keyword;
	size_t i, plen;
	uint8_t level;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		plen = 12345;
		level = 77;
		keyword = 77;
		options = NULL;
		assert_int_equal(eh_parse_tracepoint_name(t[i].name, &plen,
							  &level, &keyword,
							  &options), t[i].ok);
		if (!t[i].ok) {
			/* nothing is set */
			assert_int_equal(plen, 12345);
			assert_int_equal(level, 77);
			assert_null(options);
			continue;
		}
		assert_int_equal(plen, t[i].provider_len);
		assert_int_equal(level, t[i].level);
		assert_true(keyword == t[i].keyword);
		assert_string_equal(options, t[i].options);
	}
	/* Every out pointer may be NULL. */
	assert_int_equal(eh_parse_tracepoint_name("P_L1K1", NULL, NULL, NULL,
						  NULL), 1);
	/* Round trip, and the length limit. */
	eh_format_tracepoint_name(name, sizeof(name), rep('p', 234), 255,
				  UINT64_C(0xffffffffffffffff), NULL);
	assert_int_equal(eh_parse_tracepoint_name(name, &plen, &level,
						  &keyword, &options), 1);
	assert_int_equal(plen, 234);
	assert_int_equal(level, 255);
	eh_format_tracepoint_name(name, sizeof(name), rep('p', 235), 255,
				  UINT64_C(0xffffffffffffffff), NULL);
	assert_int_equal(eh_parse_tracepoint_name(name, NULL, NULL, NULL,
						  NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_basic),
		cmocka_unit_test(test_format_hex),
		cmocka_unit_test(test_format_options),
		cmocka_unit_test(test_format_small_buffer),
		cmocka_unit_test(test_format_longest),
		cmocka_unit_test(test_name_valid),
		cmocka_unit_test(test_name_control_chars),
		cmocka_unit_test(test_name_length),
		cmocka_unit_test(test_group_valid),
		cmocka_unit_test(test_options_valid),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_command_fits),
		cmocka_unit_test(test_format_layout),
		cmocka_unit_test(test_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL) ? 1 : 0;
}
