// SPDX-License-Identifier: MIT
/*
 * test-json-values - value rendering of libehdecode (decode/json-values.c)
 *
 * Expected texts are those of the reference decoder: every value of the
 * TestProviderC and TestProviderDyn events of
 * EventHeaderInterceptorLE64.dat.linux.json, plus edge cases. Float texts
 * not in that file were produced by std::to_chars (GCC 12, libstdc++).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "model/json-values.h"
#include "core/utf8.h"

static struct ehd_buf buf = EHD_BUF_INIT;

/* Print bytes readably for a failure message. */
static void dump(const char *what, const char *p, size_t n)
{
	size_t i;

	fprintf(stderr, "%s (%zu):", what, n);
	for (i = 0; i < n; i++)
		fprintf(stderr, " %02x", (unsigned char)p[i]);
	fprintf(stderr, "  \"%.*s\"\n", (int)n, p);
}

/* The buffer must hold exactly @want (@n bytes); then it is emptied. */
static void expect_bytes(const char *want, size_t n, const char *ctx, int line)
{
	int ok = buf.err == 0 && buf.len == n &&
		 (!n || memcmp(buf.p, want, n) == 0);

	if (!ok) {
		fprintf(stderr, "line %d: %s\n", line, ctx);
		dump("want", want, n);
		dump("got ", buf.len ? buf.p : "", buf.len);
	}
	ehd__buf_reset(&buf);
	assert_true(ok);
}

#define EXPECT(lit) expect_bytes(lit, sizeof(lit) - 1, #lit, __LINE__)
#define EXPECT_STR(s, ctx) expect_bytes(s, strlen(s), ctx, __LINE__)

static void reset(void)
{
	ehd__buf_reset(&buf);
}

/* Each test starts with an empty buffer, also after a failed one. */
static int setup(void **state)
{
	(void)state;
	ehd__buf_reset(&buf);
	return 0;
}

/* ---- integers --------------------------------------------------------- */

static const struct {
	uint64_t v;
	const char *want;
} u64_cases[] = {
	{ 0, "0" }, { 200, "200" }, { 255, "255" }, { 60000, "60000" },
	{ 65535, "65535" }, { 4000000000u, "4000000000" },
	{ 4294967295u, "4294967295" }, { 4321, "4321" }, { 1, "1" },
	{ 240, "240" }, { 61681, "61681" }, { 4042388211u, "4042388211" },
	{ UINT64_C(18000000000000000000), "18000000000000000000" },
	{ UINT64_C(17361925168090707703), "17361925168090707703" },
	{ UINT64_MAX, "18446744073709551615" },
};

static const struct {
	int64_t v;
	const char *want;
} i64_cases[] = {
	{ 0, "0" }, { 100, "100" }, { -128, "-128" }, { 30000, "30000" },
	{ -32768, "-32768" }, { 2000000000, "2000000000" },
	{ INT32_MIN, "-2147483648" }, { INT32_MAX, "2147483647" },
	{ 1234, "1234" }, { 65, "65" }, { -16, "-16" }, { -3855, "-3855" },
	{ -252579085, "-252579085" },
	{ INT64_C(9000000000000000000), "9000000000000000000" },
	{ INT64_C(-1084818905618843913), "-1084818905618843913" },
	{ INT64_MIN, "-9223372036854775808" },
	{ INT64_MAX, "9223372036854775807" },
};

static void test_decimal(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(u64_cases) / sizeof(u64_cases[0]); i++) {
		ehd__json_u64(&buf, u64_cases[i].v);
		EXPECT_STR(u64_cases[i].want, "u64");
	}
	for (i = 0; i < sizeof(i64_cases) / sizeof(i64_cases[0]); i++) {
		ehd__json_i64(&buf, i64_cases[i].v);
		EXPECT_STR(i64_cases[i].want, "i64");
	}
}

static const struct {
	uint64_t v;
	unsigned int size;
	const char *want;
} hex_cases[] = {
	{ 100, 1, "0x64" },
	{ (uint64_t)(int64_t)-128, 1, "0x80" },
	{ 200, 1, "0xC8" },
	{ 255, 1, "0xFF" },
	{ 30000, 2, "0x7530" },
	{ (uint64_t)(int64_t)-32768, 2, "0x8000" },
	{ 60000, 2, "0xEA60" },
	{ 65535, 2, "0xFFFF" },
	{ 2000000000, 4, "0x77359400" },
	{ (uint64_t)(int64_t)INT32_MIN, 4, "0x80000000" },
	{ 4000000000u, 4, "0xEE6B2800" },
	{ 4294967295u, 4, "0xFFFFFFFF" },
	{ UINT64_C(9000000000000000000), 8, "0x7CE66C50E2840000" },
	{ (uint64_t)INT64_MIN, 8, "0x8000000000000000" },
	{ UINT64_C(18000000000000000000), 8, "0xF9CCD8A1C5080000" },
	{ UINT64_MAX, 8, "0xFFFFFFFFFFFFFFFF" },
	{ 1234, 8, "0x4D2" },
	{ 4321, 8, "0x10E1" },
	{ UINT64_C(0xFFFFFFFFFFFFCFC7), 8, "0xFFFFFFFFFFFFCFC7" },
	{ 0, 8, "0x0" },
	{ 1, 1, "0x1" }, { 1, 2, "0x1" }, { 1, 4, "0x1" }, { 1, 8, "0x1" },
	{ 0xF0, 1, "0xF0" },
	{ 0xF0F1, 2, "0xF0F1" },
	{ 0xF0F1F2F3, 4, "0xF0F1F2F3" },
	{ UINT64_C(0xF0F1F2F3F4F5F6F7), 8, "0xF0F1F2F3F4F5F6F7" },
	/* only the low @size bytes count */
	{ UINT64_C(0x123456789ABC), 2, "0x9ABC" },
	{ UINT64_C(0xFFFFFFFFFFFFFFFF), 1, "0xFF" },
};

static void test_hex_int(void **state)
{
	char want[64];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(hex_cases) / sizeof(hex_cases[0]); i++) {
		ehd__json_hex(&buf, hex_cases[i].v, hex_cases[i].size,
			      EHD__JSON);
		snprintf(want, sizeof(want), "\"%s\"", hex_cases[i].want);
		EXPECT_STR(want, "hex quoted");
		ehd__json_hex(&buf, hex_cases[i].v, hex_cases[i].size, 0);
		EXPECT_STR(hex_cases[i].want, "hex bare");
	}
}

static void test_boolean(void **state)
{
	(void)state;
	ehd__json_bool(&buf, 0);
	EXPECT("false");
	ehd__json_bool(&buf, 1);
	EXPECT("true");
	ehd__json_bool(&buf, 255);		/* b8 (255) */
	EXPECT("255");
	ehd__json_bool(&buf, INT32_MIN);	/* b32 (-2147483647-1) */
	EXPECT("-2147483648");
	ehd__json_bool(&buf, 240);		/* Dyn b1big */
	EXPECT("240");
	ehd__json_bool(&buf, 61681);		/* Dyn b2big (Value16) */
	EXPECT("61681");
	ehd__json_bool(&buf, -252579085);	/* Dyn b4big */
	EXPECT("-252579085");
	ehd__json_bool(&buf, 2);
	EXPECT("2");
	ehd__json_bool(&buf, -1);
	EXPECT("-1");
}

/* ---- errno -------------------------------------------------------------- */

static void test_errno_golden(void **state)
{
	(void)state;
	ehd__json_errno(&buf, INT32_MIN, EHD__JSON);
	EXPECT("\"ERRNO(-2147483648)\"");
	ehd__json_errno(&buf, 1, EHD__JSON);
	EXPECT("\"EPERM(1)\"");
	ehd__json_errno(&buf, 131, EHD__JSON);
	EXPECT("\"ENOTRECOVERABLE(131)\"");
	ehd__json_errno(&buf, 2000000000, EHD__JSON);
	EXPECT("\"ERRNO(2000000000)\"");
	ehd__json_errno(&buf, -252579085, EHD__JSON);
	EXPECT("\"ERRNO(-252579085)\"");
	ehd__json_errno(&buf, 5, 0);
	EXPECT("EIO(5)");
}

static void test_errno_edges(void **state)
{
	static const int32_t unnamed[] = { 0, 41, 58, 134, 135, 1000, -1,
					   -5, INT32_MAX };
	char want[64];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(unnamed) / sizeof(unnamed[0]); i++) {
		ehd__json_errno(&buf, unnamed[i], EHD__JSON);
		snprintf(want, sizeof(want), "\"ERRNO(%" PRId32 ")\"",
			 unnamed[i]);
		EXPECT_STR(want, "unnamed errno");
		assert_string_equal(ehd__errno_name(unnamed[i]), "ERRNO");
	}
	ehd__json_errno(&buf, 11, EHD__JSON);
	EXPECT("\"EAGAIN(11)\"");
	ehd__json_errno(&buf, 35, EHD__JSON);
	EXPECT("\"EDEADLK(35)\"");
	ehd__json_errno(&buf, 95, EHD__JSON);
	EXPECT("\"EOPNOTSUPP(95)\"");
	ehd__json_errno(&buf, 133, EHD__JSON);
	EXPECT("\"EHWPOISON(133)\"");
}

#if defined(__linux__) && defined(EHWPOISON)
/* The table against this system's <errno.h> (Linux numbering). */
#define E(name) { name, #name }
static const struct {
	int v;
	const char *name;
} sys_errnos[] = {
	E(EPERM), E(ENOENT), E(ESRCH), E(EINTR), E(EIO), E(ENXIO), E(E2BIG),
	E(ENOEXEC), E(EBADF), E(ECHILD), E(EAGAIN), E(ENOMEM), E(EACCES),
	E(EFAULT), E(ENOTBLK), E(EBUSY), E(EEXIST), E(EXDEV), E(ENODEV),
	E(ENOTDIR), E(EISDIR), E(EINVAL), E(ENFILE), E(EMFILE), E(ENOTTY),
	E(ETXTBSY), E(EFBIG), E(ENOSPC), E(ESPIPE), E(EROFS), E(EMLINK),
	E(EPIPE), E(EDOM), E(ERANGE), E(EDEADLK), E(ENAMETOOLONG),
	E(ENOLCK), E(ENOSYS), E(ENOTEMPTY), E(ELOOP), E(ENOMSG), E(EIDRM),
	E(ECHRNG), E(EL2NSYNC), E(EL3HLT), E(EL3RST), E(ELNRNG), E(EUNATCH),
	E(ENOCSI), E(EL2HLT), E(EBADE), E(EBADR), E(EXFULL), E(ENOANO),
	E(EBADRQC), E(EBADSLT), E(EBFONT), E(ENOSTR), E(ENODATA), E(ETIME),
	E(ENOSR), E(ENONET), E(ENOPKG), E(EREMOTE), E(ENOLINK), E(EADV),
	E(ESRMNT), E(ECOMM), E(EPROTO), E(EMULTIHOP), E(EDOTDOT),
	E(EBADMSG), E(EOVERFLOW), E(ENOTUNIQ), E(EBADFD), E(EREMCHG),
	E(ELIBACC), E(ELIBBAD), E(ELIBSCN), E(ELIBMAX), E(ELIBEXEC),
	E(EILSEQ), E(ERESTART), E(ESTRPIPE), E(EUSERS), E(ENOTSOCK),
	E(EDESTADDRREQ), E(EMSGSIZE), E(EPROTOTYPE), E(ENOPROTOOPT),
	E(EPROTONOSUPPORT), E(ESOCKTNOSUPPORT), E(EOPNOTSUPP),
	E(EPFNOSUPPORT), E(EAFNOSUPPORT), E(EADDRINUSE), E(EADDRNOTAVAIL),
	E(ENETDOWN), E(ENETUNREACH), E(ENETRESET), E(ECONNABORTED),
	E(ECONNRESET), E(ENOBUFS), E(EISCONN), E(ENOTCONN), E(ESHUTDOWN),
	E(ETOOMANYREFS), E(ETIMEDOUT), E(ECONNREFUSED), E(EHOSTDOWN),
	E(EHOSTUNREACH), E(EALREADY), E(EINPROGRESS), E(ESTALE), E(EUCLEAN),
	E(ENOTNAM), E(ENAVAIL), E(EISNAM), E(EREMOTEIO), E(EDQUOT),
	E(ENOMEDIUM), E(EMEDIUMTYPE), E(ECANCELED), E(ENOKEY),
	E(EKEYEXPIRED), E(EKEYREVOKED), E(EKEYREJECTED), E(EOWNERDEAD),
	E(ENOTRECOVERABLE), E(ERFKILL), E(EHWPOISON),
};
#undef E

static void test_errno_system(void **state)
{
	int seen[134] = { 0 };
	size_t i;
	int v;

	(void)state;
	for (i = 0; i < sizeof(sys_errnos) / sizeof(sys_errnos[0]); i++) {
		assert_in_range(sys_errnos[i].v, 1, 133);
		assert_string_equal(ehd__errno_name(sys_errnos[i].v),
				    sys_errnos[i].name);
		seen[sys_errnos[i].v] = 1;
	}
	/* every value 1..133 has a name except the alias slots 41 and 58 */
	for (v = 1; v <= 133; v++)
		assert_int_equal(seen[v], v != 41 && v != 58);
}
#else
static void test_errno_system(void **state)
{
	(void)state;
	skip();
}
#endif

/* ---- time --------------------------------------------------------------- */

static const struct {
	int64_t t;
	const char *want;
} time_cases[] = {
	/* t32 */
	{ 2000000000, "2033-05-18T03:33:20" },
	{ INT32_MIN, "1901-12-13T20:45:52" },
	{ INT32_MAX, "2038-01-19T03:14:07" },
	{ 0, "1970-01-01T00:00:00" },
	/* t64 */
	{ INT64_C(9000000000000000000), "TIME(9000000000000000000)" },
	{ INT64_MIN, "TIME(-9223372036854775808)" },
	{ INT64_MAX, "TIME(9223372036854775807)" },
	{ INT64_C(-11644473600), "1601-01-01T00:00:00" },
	{ INT64_C(-11644473601), "1600-12-31T23:59:59" },
	{ INT64_C(910692730085), "30828-09-14T02:48:05" },
	{ INT64_C(910692730086), "30828-09-14T02:48:06" },
	/* Dyn */
	{ 1, "1970-01-01T00:00:01" },
	{ -252579085, "1961-12-30T15:08:35" },
	{ INT64_C(-1084818905618843913), "TIME(-1084818905618843913)" },
	/* edges */
	{ -1, "1969-12-31T23:59:59" },
	{ 951782400, "2000-02-29T00:00:00" },
	{ 4107542400, "2100-03-01T00:00:00" },
	{ 253402300799, "9999-12-31T23:59:59" },
	{ 253402300800, "10000-01-01T00:00:00" },
	{ INT64_C(-62135596800), "0001-01-01T00:00:00" },
	{ INT64_C(-62167219200), "0000-01-01T00:00:00" },
	{ INT64_C(-62167219201), "-001-12-31T23:59:59" },
	{ INT64_C(-62198755200), "-001-01-01T00:00:00" },
	{ INT64_C(-62482838400), "-011-12-31T00:00:00" },
	/* glibc's gmtime_r range: year - 1900 must fit in an int */
	{ INT64_C(67767976233532799), "2147483647-12-31T23:59:59" },
	{ INT64_C(67767976233532800), "-2147483648-01-01T00:00:00" },
	{ INT64_C(67768036191676799), "-2147481749-12-31T23:59:59" },
	{ INT64_C(67768036191676800), "TIME(67768036191676800)" },
	{ INT64_C(-67768040609740800), "-2147481748-01-01T00:00:00" },
	{ INT64_C(-67768040609740801), "TIME(-67768040609740801)" },
};

static void test_time(void **state)
{
	char want[64];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(time_cases) / sizeof(time_cases[0]); i++) {
		ehd__json_time(&buf, time_cases[i].t, EHD__JSON);
		snprintf(want, sizeof(want), "\"%s\"", time_cases[i].want);
		EXPECT_STR(want, "time quoted");
		ehd__json_time(&buf, time_cases[i].t, 0);
		EXPECT_STR(time_cases[i].want, "time bare");
	}
}

static uint64_t rng_state = UINT64_C(0x9E3779B97F4A7C15);

static uint64_t rng(void)
{
	uint64_t x = rng_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	rng_state = x;
	return x;
}

#ifdef __GLIBC__
/* What the reference writes: gmtime_r() and "%04d" of 1900 + tm_year. */
static void gmtime_text(int64_t t, char *out, size_t size)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (gmtime_r(&tt, &tm))
		snprintf(out, size, "%04d-%02u-%02uT%02u:%02u:%02u",
			 (int)(int32_t)(1900u + (uint32_t)tm.tm_year),
			 (unsigned int)tm.tm_mon + 1, (unsigned int)tm.tm_mday,
			 (unsigned int)tm.tm_hour, (unsigned int)tm.tm_min,
			 (unsigned int)tm.tm_sec);
	else
		snprintf(out, size, "TIME(%" PRId64 ")", t);
}

static void test_time_vs_gmtime(void **state)
{
	char want[64];
	int64_t t;
	long i;

	(void)state;
	if (sizeof(time_t) < 8)
		skip();
	for (i = 0; i < 300000; i++) {
		/* all magnitudes: shift a random value right by 0..63 */
		t = (int64_t)rng() >> (rng() % 64);
		gmtime_text(t, want, sizeof(want));
		ehd__json_time(&buf, t, 0);
		EXPECT_STR(want, "time vs gmtime_r");
	}
	for (t = -20000000000; t < 20000000000; t += 86399 * 97) {
		gmtime_text(t, want, sizeof(want));
		ehd__json_time(&buf, t, 0);
		EXPECT_STR(want, "time vs gmtime_r (range)");
	}
}
#else
static void test_time_vs_gmtime(void **state)
{
	(void)state;
	skip();
}
#endif

/* ---- floats ------------------------------------------------------------- */

static const struct {
	uint32_t bits;
	const char *want;
} float_cases[] = {
	{ 0x4048f5c3, "3.14" },			/* f32 */
	{ 0x3eaaaaab, "0.33333334" },		/* f32 1/3 */
	{ 0xffc00000, "\"-nan\"" },		/* f32 NaN */
	{ 0xff800000, "\"-inf\"" },		/* f32 -Inf */
	{ 0x42820000, "65" },			/* Value:float */
	{ 0x00000001, "1e-45" },		/* Dyn b4one */
	{ 0xf0f1f2f3, "-5.9903676e+29" },	/* Dyn b4big */
	{ 0x7fc00000, "\"nan\"" },
	{ 0x7f800001, "\"nan\"" },
	{ 0x7f800000, "\"inf\"" },
	{ 0x00000000, "0" },
	{ 0x80000000, "-0" },
	{ 0x47c35000, "1e+05" },
	{ 0x47f1205a, "123456.7" },
	{ 0x4b800000, "16777216" },
	{ 0x501502f9, "1e+10" },
	{ 0x505f8476, "1.5e+10" },
	{ 0x51e5f4c9, "123456790528" },
	{ 0x51e5f4c8, "123456782336" },
	{ 0x7f7fffff, "3.4028235e+38" },
	{ 0x00800000, "1.1754944e-38" },
	{ 0x007fffff, "1.1754942e-38" },
	{ 0x3dcccccd, "0.1" },
	{ 0x3727c5ac, "1e-05" },
	{ 0x4b000000, "8388608" },
	{ 0x7f7fc99e, "3.4e+38" },
	{ 0x00000005, "7e-45" },
	{ 0x7e967699, "1e+38" },
	{ 0x40200000, "2.5" },
	{ 0x4b189680, "1e+07" },
};

static const struct {
	uint64_t bits;
	const char *want;
} double_cases[] = {
	{ UINT64_C(0x40191eb851eb851f), "6.28" },		/* f64 */
	{ UINT64_C(0x3fd5555555555555), "0.3333333333333333" },	/* 1/3 */
	{ UINT64_C(0xfff8000000000000), "\"-nan\"" },		/* NaN */
	{ UINT64_C(0xfff0000000000000), "\"-inf\"" },		/* -Inf */
	{ UINT64_C(0x4050400000000000), "65" },	/* Value:double */
	{ UINT64_C(0x0000000000000001), "5e-324" },	/* Dyn b8one */
	{ UINT64_C(0xf0f1f2f3f4f5f6f7), "-1.1413996157316056e+236" },
	{ UINT64_C(0x7ff8000000000000), "\"nan\"" },
	{ UINT64_C(0x7ff0000000000000), "\"inf\"" },
	{ UINT64_C(0x0000000000000000), "0" },
	{ UINT64_C(0x8000000000000000), "-0" },
	{ UINT64_C(0x3ff0000000000000), "1" },
	{ UINT64_C(0xbff0000000000000), "-1" },
	{ UINT64_C(0x4059000000000000), "100" },
	{ UINT64_C(0x40f86a0000000000), "1e+05" },
	{ UINT64_C(0x40f86a1000000000), "100001" },
	{ UINT64_C(0x40fe240000000000), "123456" },
	{ UINT64_C(0x430c6bf526340000), "1e+15" },
	{ UINT64_C(0x4341c37937e08000), "1e+16" },
	{ UINT64_C(0x434aa535d3d0c000), "1.5e+16" },
	{ UINT64_C(0x4340000000000000), "9007199254740992" },
	{ UINT64_C(0x441ac53a7e04bcda), "123456789012345683968" },
	{ UINT64_C(0x43b0000000000000), "1152921504606846976" },
	{ UINT64_C(0x444b1ae4d6e2ef50), "1e+21" },
	{ UINT64_C(0x4480f0cf064dd592), "1e+22" },
	{ UINT64_C(0x44b52d02c7e14af6), "1e+23" },
	{ UINT64_C(0x448017f7df96be18), "9.5e+21" },
	{ UINT64_C(0x432ee89a998bc000), "4.35e+15" },
	{ UINT64_C(0x3fb999999999999a), "0.1" },
	{ UINT64_C(0x3fc999999999999a), "0.2" },
	{ UINT64_C(0x3fd3333333333333), "0.3" },
	{ UINT64_C(0x3f1a36e2eb1c432d), "1e-04" },
	{ UINT64_C(0x3ee4f8b588e368f1), "1e-05" },
	{ UINT64_C(0x3f50624dd2f1a9fc), "0.001" },
	{ UINT64_C(0x3f201f31f46ed246), "0.000123" },
	{ UINT64_C(0x3e7ad7f29abcaf48), "1e-07" },
	{ UINT64_C(0x7fefffffffffffff), "1.7976931348623157e+308" },
	{ UINT64_C(0x0010000000000000), "2.2250738585072014e-308" },
	{ UINT64_C(0x000fffffffffffff), "2.225073858507201e-308" },
	{ UINT64_C(0x0000000000000003), "1.5e-323" },
	{ UINT64_C(0x00005c0ab9347ed7), "5e-310" },
	{ UINT64_C(0x41b1de784a000000), "299792458" },
	{ UINT64_C(0x4132d68720000000), "1234567.125" },
	{ UINT64_C(0x3fe0000000000000), "0.5" },
	{ UINT64_C(0x4004000000000000), "2.5" },
	{ UINT64_C(0x7e37e43c8800759c), "1e+300" },
	{ UINT64_C(0x81a56e1fc2f8f359), "-1e-300" },
};

static float float_of(uint32_t bits)
{
	float f;

	memcpy(&f, &bits, sizeof(f));
	return f;
}

static double double_of(uint64_t bits)
{
	double d;

	memcpy(&d, &bits, sizeof(d));
	return d;
}

static void test_float_table(void **state)
{
	const char *w;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(float_cases) / sizeof(float_cases[0]); i++) {
		w = float_cases[i].want;
		ehd__json_float(&buf, float_of(float_cases[i].bits), EHD__JSON);
		EXPECT_STR(w, "float");
		/* unquoted without EHD__JSON_QUOTE */
		ehd__json_float(&buf, float_of(float_cases[i].bits), 0);
		if (*w == '"')
			expect_bytes(w + 1, strlen(w) - 2, "float bare",
				     __LINE__);
		else
			EXPECT_STR(w, "float bare");
	}
	for (i = 0; i < sizeof(double_cases) / sizeof(double_cases[0]); i++) {
		w = double_cases[i].want;
		ehd__json_double(&buf, double_of(double_cases[i].bits),
				 EHD__JSON);
		EXPECT_STR(w, "double");
		ehd__json_double(&buf, double_of(double_cases[i].bits), 0);
		if (*w == '"')
			expect_bytes(w + 1, strlen(w) - 2, "double bare",
				     __LINE__);
		else
			EXPECT_STR(w, "double bare");
	}
}

/*
 * Significant digits of a shortest text: leading and trailing zeros do
 * not count (not for integers written exactly).
 */
static int sig_digits(const char *s)
{
	int n = 0, last = 0;

	for (; *s && *s != 'e'; s++) {
		if (*s < '0' || *s > '9' || (!n && *s == '0'))
			continue;
		n++;
		if (*s != '0')
			last = n;
	}
	return last;
}

/*
 * The shortest "%.*e" text of @v that reads back (as a float if
 * @is_float), found by trying every precision.
 */
static void shortest_sci(double v, bool is_float, char *out, size_t size)
{
	int p;

	for (p = 0; p < 17; p++) {
		snprintf(out, size, "%.*e", p, v);
		if (is_float ? strtof(out, NULL) == (float)v :
			       strtod(out, NULL) == v)
			return;
	}
}

/*
 * Checks of the text of a finite value: it reads back as the same bits;
 * an integer in fixed notation is the exact value and not longer than
 * the scientific form; otherwise one significant digit less does not read
 * back.
 */
static void check_text(double v, bool is_float, uint64_t bits)
{
	char other[64], text[64];
	char *end;
	double back;
	uint64_t bb = 0;
	float backf;
	int n;

	if (is_float)
		ehd__json_float(&buf, (float)v, EHD__JSON);
	else
		ehd__json_double(&buf, v, EHD__JSON);
	assert_int_equal(buf.err, 0);
	snprintf(text, sizeof(text), "%s", ehd__buf_cstr(&buf));
	reset();
	if (is_float) {
		backf = strtof(text, &end);
		memcpy(&bb, &backf, 4);
	} else {
		back = strtod(text, &end);
		memcpy(&bb, &back, 8);
	}
	assert_true(*end == 0);
	if (bb != bits)
		fprintf(stderr, "%016" PRIx64 " -> %s\n", bits, text);
	assert_true(bb == bits);

	if (!strchr(text, '.') && !strchr(text, 'e')) {
		snprintf(other, sizeof(other), "%.0f", v);
		assert_string_equal(text, other);
		shortest_sci(v, is_float, other, sizeof(other));
		if (strlen(text) > strlen(other))
			fprintf(stderr, "%016" PRIx64 " -> %s, %s\n", bits,
				text, other);
		assert_true(strlen(text) <= strlen(other));
		return;
	}
	n = sig_digits(text);
	if (n > 1) {
		snprintf(other, sizeof(other), "%.*e", n - 2, v);
		if (is_float) {
			backf = strtof(other, NULL);
			memcpy(&bb, &backf, 4);
		} else {
			back = strtod(other, NULL);
			memcpy(&bb, &back, 8);
		}
		if (bb == bits)
			fprintf(stderr, "%016" PRIx64 " -> %s, %s\n", bits,
				text, other);
		assert_true(bb != bits);
	}
}

static void check_double_text(double v)
{
	uint64_t bits;

	memcpy(&bits, &v, 8);
	check_text(v, false, bits);
}

static void check_float_text(float v)
{
	uint32_t bits;

	memcpy(&bits, &v, 4);
	check_text(v, true, bits);
}

static void test_float_roundtrip(void **state)
{
	uint64_t u;
	uint32_t f;
	double d;
	long i;

	(void)state;
	for (i = 0; i < 100000; i++) {
		u = rng();
		d = double_of(u);
		if ((u >> 52 & 0x7ff) != 0x7ff)
			check_double_text(d);
		f = (uint32_t)(u >> 13);
		if ((f >> 23 & 0xff) != 0xff)
			check_float_text(float_of(f));
	}
	/* every binary exponent, with small and large mantissas */
	for (u = 0; u < 0x7ff; u++) {
		check_double_text(double_of(u << 52));
		check_double_text(double_of(u << 52 | 1));
		check_double_text(double_of(u << 52 | 0xfffffffffffffULL));
		check_double_text(-double_of(u << 52 | 0x8000000000000ULL));
	}
	for (f = 0; f < 0xff; f++) {
		check_float_text(float_of(f << 23));
		check_float_text(float_of(f << 23 | 1));
		check_float_text(float_of(f << 23 | 0x7fffff));
		check_float_text(-float_of(f << 23 | 0x400000));
	}
	/* decimal-looking values */
	for (i = -20000; i < 20000; i++) {
		check_double_text(i / 100.0);
		check_float_text(i / 100.0f);
		check_double_text(i * 1e15);
		check_float_text(i * 1e6f);
	}
}

/* ---- characters and strings --------------------------------------------- */

static void test_char(void **state)
{
	(void)state;
	ehd__json_char(&buf, 'A', EHD__JSON);
	EXPECT("\"A\"");
	ehd__json_char(&buf, 0xFE, EHD__JSON);		/* ch FE */
	EXPECT("\"\xc3\xbe\"");
	ehd__json_char(&buf, 0xFFFE, EHD__JSON);	/* u16ch FFFE */
	EXPECT("\"\xef\xbf\xbe\"");
	ehd__json_char(&buf, 0x10FFFF, EHD__JSON);	/* u32ch 10FFFF */
	EXPECT("\"\xf4\x8f\xbf\xbf\"");
	ehd__json_char(&buf, 0xFFFEFDFC, EHD__JSON);	/* u32ch FFFEFDFC */
	EXPECT("\"\xfe\x83\xbf\xbf\xaf\xb7\xbc\"");
	ehd__json_char(&buf, 0x7FFFFFFF, EHD__JSON);	/* wch 0x7fffffff */
	EXPECT("\"\xfd\xbf\xbf\xbf\xbf\xbf\"");
	ehd__json_char(&buf, 0, EHD__JSON);		/* Value:char 0 */
	EXPECT("\"\\u0000\"");
	ehd__json_char(&buf, 0xD800, EHD__JSON);	/* lone surrogate */
	EXPECT("\"\xed\xa0\x80\"");
	ehd__json_char(&buf, '"', EHD__JSON);
	EXPECT("\"\\\"\"");
	ehd__json_char(&buf, '"', 0);
	EXPECT("\"");
	ehd__json_char(&buf, 0, 0);
	EXPECT("\0");
	/* each length step of the (extended) UTF-8 forms */
	ehd__json_char(&buf, 0x7F, 0);
	EXPECT("\x7f");
	ehd__json_char(&buf, 0x80, 0);
	EXPECT("\xc2\x80");
	ehd__json_char(&buf, 0x7FF, 0);
	EXPECT("\xdf\xbf");
	ehd__json_char(&buf, 0x800, 0);
	EXPECT("\xe0\xa0\x80");
	ehd__json_char(&buf, 0xFFFF, 0);
	EXPECT("\xef\xbf\xbf");
	ehd__json_char(&buf, 0x10000, 0);
	EXPECT("\xf0\x90\x80\x80");
	ehd__json_char(&buf, 0x110000, 0);
	EXPECT("\xf4\x90\x80\x80");
	ehd__json_char(&buf, 0x1FFFFF, 0);
	EXPECT("\xf7\xbf\xbf\xbf");
	ehd__json_char(&buf, 0x200000, 0);
	EXPECT("\xf8\x88\x80\x80\x80");
	ehd__json_char(&buf, 0x3FFFFFF, 0);
	EXPECT("\xfb\xbf\xbf\xbf\xbf");
	ehd__json_char(&buf, 0x4000000, 0);
	EXPECT("\xfc\x84\x80\x80\x80\x80");
	ehd__json_char(&buf, 0x80000000, 0);
	EXPECT("\xfe\x82\x80\x80\x80\x80\x80");
	ehd__json_char(&buf, 0xFFFFFFFF, 0);
	EXPECT("\xfe\x83\xbf\xbf\xbf\xbf\xbf");
}

enum conv { LATIN1, UTF8, UTF16, UTF32, BOM8, BOM16, BOM32 };

struct str_case {
	enum conv conv;
	const char *in;
	size_t size;
	bool swap;
	const char *want;	/* JSON (EHD__JSON) */
	size_t want_len;
};

#define S(conv, in, swap, want) \
	{ conv, in, sizeof(in) - 1, swap, want, sizeof(want) - 1 }

static const struct str_case str_cases[] = {
	/* sz, sz8, csz, MyStrings3, Dyn (8-bit) */
	S(UTF8, "HowAreU8?", false, "\"HowAreU8?\""),
	S(LATIN1, "HowAreU8?", false, "\"HowAreU8?\""),
	S(UTF8, "HowAr", false, "\"HowAr\""),
	S(UTF8, "ABC", false, "\"ABC\""),
	S(UTF8, "", false, "\"\""),
	S(LATIN1, "", false, "\"\""),
	S(LATIN1, "\x01", false, "\"\\u0001\""),
	S(LATIN1, "\xf0", false, "\"\xc3\xb0\""),
	S(LATIN1, "\x01\x00", false, "\"\\u0001\\u0000\""),
	S(LATIN1, "\xf1\xf0", false, "\"\xc3\xb1\xc3\xb0\""),
	S(UTF8, "\x01\x00\x00\x00", false,
	  "\"\\u0001\\u0000\\u0000\\u0000\""),
	S(UTF8, "\xf3\xf2\xf1\xf0", false,
	  "\"\xc3\xb3\xc3\xb2\xc3\xb1\xc3\xb0\""),
	S(UTF8, "\xf7\xf6\xf5\xf4\xf3\xf2\xf1\xf0", false,
	  "\"\xc3\xb7\xc3\xb6\xc3\xb5\xc3\xb4\xc3\xb3\xc3\xb2\xc3\xb1\xc3\xb0\""),
	S(UTF8, "\xf0\xf1\xf2\xf3\xf4\xf5\xf6\xf7\xf8\xf9\xfa\xfb\xfc\xfd\xfe\xff",
	  false,
	  "\"\xc3\xb0\xc3\xb1\xc3\xb2\xc3\xb3\xc3\xb4\xc3\xb5\xc3\xb6\xc3\xb7"
	  "\xc3\xb8\xc3\xb9\xc3\xba\xc3\xbb\xc3\xbc\xc3\xbd\xc3\xbe\xc3\xbf\""),
	S(LATIN1,
	  "\xf0\xf1\xf2\xf3\xf4\xf5\xf6\xf7\xf8\xf9\xfa\xfb\xfc\xfd\xfe\xff",
	  false,
	  "\"\xc3\xb0\xc3\xb1\xc3\xb2\xc3\xb3\xc3\xb4\xc3\xb5\xc3\xb6\xc3\xb7"
	  "\xc3\xb8\xc3\xb9\xc3\xba\xc3\xbb\xc3\xbc\xc3\xbd\xc3\xbe\xc3\xbf\""),
	S(UTF8, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\x01", false,
	  "\"\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000"
	  "\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0001\""),
	/* wsz, sz16, sz32, cwsz (little-endian host units) */
	S(UTF32, "G\0\0\0o\0\0\0o\0\0\0d\0\0\0b\0\0\0y\0\0\0e\0\0\0!\0\0\0!\0\0\0",
	  false, "\"Goodbye!!\""),
	S(UTF16, "H\0o\0w\0A\0r\0e\0U\0" "1\0" "6\0", false,
	  "\"HowAreU16\""),
	S(UTF32, "H\0\0\0o\0\0\0w\0\0\0A\0\0\0r\0\0\0", false, "\"HowAr\""),
	S(UTF16, "", false, "\"\""),
	S(UTF32, "", false, "\"\""),
	S(UTF16, "\0H\0i", true, "\"Hi\""),
	S(UTF32, "\0\0\0H\0\0\0i", true, "\"Hi\""),

	/* UTF-8: valid sequences pass, others are Latin-1 byte by byte */
	S(UTF8, "\xc3\xbe", false, "\"\xc3\xbe\""),
	S(UTF8, "\xe2\x82\xac", false, "\"\xe2\x82\xac\""),
	S(UTF8, "\xf0\x9f\x98\x80", false, "\"\xf0\x9f\x98\x80\""),
	S(UTF8, "\xf4\x8f\xbf\xbf", false, "\"\xf4\x8f\xbf\xbf\""),
	/* 3-byte surrogates pass */
	S(UTF8, "\xed\xa0\x80", false, "\"\xed\xa0\x80\""),
	S(UTF8, "\xed\xbf\xbf", false, "\"\xed\xbf\xbf\""),
	/* cut off by the end, overlong, above 0x10FFFF, stray, interrupted */
	S(UTF8, "a\xe2\x82", false, "\"a\xc3\xa2\xc2\x82\""),
	S(UTF8, "a\xc3", false, "\"a\xc3\x83\""),
	S(UTF8, "\xf0\x9f\x98", false, "\"\xc3\xb0\xc2\x9f\xc2\x98\""),
	S(UTF8, "\xc0\x80", false, "\"\xc3\x80\xc2\x80\""),
	S(UTF8, "\xc1\xbf", false, "\"\xc3\x81\xc2\xbf\""),
	S(UTF8, "\xe0\x9f\xbf", false, "\"\xc3\xa0\xc2\x9f\xc2\xbf\""),
	S(UTF8, "\xf0\x8f\xbf\xbf", false,
	  "\"\xc3\xb0\xc2\x8f\xc2\xbf\xc2\xbf\""),
	S(UTF8, "\xf4\x90\x80\x80", false,
	  "\"\xc3\xb4\xc2\x90\xc2\x80\xc2\x80\""),
	S(UTF8, "\xf5\x80\x80\x80", false,
	  "\"\xc3\xb5\xc2\x80\xc2\x80\xc2\x80\""),
	S(UTF8, "\x80x", false, "\"\xc2\x80x\""),
	S(UTF8, "\xc3x", false, "\"\xc3\x83x\""),
	S(UTF8, "\xe2\x82x", false, "\"\xc3\xa2\xc2\x82x\""),
	S(UTF8, "\xc3\xc3\xbe", false, "\"\xc3\x83\xc3\xbe\""),
	S(UTF8, "\xff\"\\", false, "\"\xc3\xbf\\\"\\\\\""),

	/* UTF-16: pairs joined, lone surrogates as 3 bytes */
	S(UTF16, "\x3d\xd8\x00\xde", false, "\"\xf0\x9f\x98\x80\""),
	S(UTF16, "\xd8\x3d\xde\x00", true, "\"\xf0\x9f\x98\x80\""),
	S(UTF16, "\xff\xdb\xff\xdf", false, "\"\xf4\x8f\xbf\xbf\""),
	S(UTF16, "\x00\xd8", false, "\"\xed\xa0\x80\""),
	S(UTF16, "\x00\xdc", false, "\"\xed\xb0\x80\""),
	S(UTF16, "\x00\xd8" "a\0", false, "\"\xed\xa0\x80" "a\""),
	S(UTF16, "\x00\xdc\x00\xd8", false, "\"\xed\xb0\x80\xed\xa0\x80\""),
	S(UTF16, "\x00\xd8\x00\xd8\x00\xdc", false,
	  "\"\xed\xa0\x80\xf0\x90\x80\x80\""),
	S(UTF16, "\xfe\xff", false, "\"\xef\xbf\xbe\""),
	S(UTF16, "A\0B", false, "\"A\""),		/* odd byte ignored */

	/* UTF-32: any value, up to 7 bytes */
	S(UTF32, "\x00\x00\x11\x00", false, "\"\xf4\x90\x80\x80\""),
	S(UTF32, "\xff\xff\xff\x7f", false, "\"\xfd\xbf\xbf\xbf\xbf\xbf\""),
	S(UTF32, "\xff\xff\xff\xff", false,
	  "\"\xfe\x83\xbf\xbf\xbf\xbf\xbf\""),
	S(UTF32, "\xfc\xfd\xfe\xff", false,
	  "\"\xfe\x83\xbf\xbf\xaf\xb7\xbc\""),
	S(UTF32, "\xff\xfe\xfd\xfc", true,
	  "\"\xfe\x83\xbf\xbf\xaf\xb7\xbc\""),
	S(UTF32, "\x00\xd8\x00\x00", false, "\"\xed\xa0\x80\""),
	S(UTF32, "A\0\0\0B\0\0", false, "\"A\""),	/* partial unit */

	/* BOM events: NoBom, Bom, XBom of unit 8, 16, 32 */
	S(BOM8, "hjkl", false, "\"hjkl\""),
	S(BOM16, "h\0j\0k\0l\0", false, "\"hjkl\""),
	S(BOM32, "h\0\0\0j\0\0\0k\0\0\0l\0\0\0", false, "\"hjkl\""),
	S(BOM8, "\xef\xbb\xbfhjkl", false, "\"hjkl\""),
	S(BOM16, "\xff\xfeh\0j\0k\0l\0", false, "\"hjkl\""),
	S(BOM32, "\xff\xfe\0\0h\0\0\0j\0\0\0k\0\0\0l\0\0\0", false,
	  "\"hjkl\""),
	S(BOM16, "\xfe\xff\0h\0j\0k\0l", false, "\"hjkl\""),
	S(BOM32, "\0\0\xfe\xff\0\0\0h\0\0\0j\0\0\0k\0\0\0l", false,
	  "\"hjkl\""),
	/* the BOM decides whatever the unit size; without, the unit does */
	S(BOM8, "\xff\xfeh\0i\0", false, "\"hi\""),
	S(BOM8, "\xfe\xff\0h\0i", false, "\"hi\""),
	S(BOM8, "\xff\xfe\0\0h\0\0\0", false, "\"h\""),
	S(BOM16, "\xef\xbb\xbfhi", false, "\"hi\""),
	S(BOM32, "\xef\xbb\xbfhi", false, "\"hi\""),
	S(BOM16, "\0\0\xfe\xff\0\0\0h", false, "\"h\""),
	S(BOM16, "\xff\xfe\0\0", false, "\"\""),	/* UTF-32LE, empty */
	S(BOM8, "\xef\xbb\xbf", false, "\"\""),
	S(BOM8, "\xef\xbb", false, "\"\xc3\xaf\xc2\xbb\""),
	S(BOM8, "\xff\xfe" "A", false, "\"\""),	/* half a unit */
	S(BOM16, "h\0i\0", true, "\"\xe6\xa0\x80\xe6\xa4\x80\""),
	S(BOM32, "\xff\xfe\0\0\x3d\xd8\0\0", false, "\"\xed\xa0\xbd\""),
	S(BOM16, "\xff\xfe\x3d\xd8\x00\xde", false, "\"\xf0\x9f\x98\x80\""),
	S(BOM8, "", false, "\"\""),
	S(BOM16, "", false, "\"\""),
	S(BOM32, "", false, "\"\""),
	S(BOM8, "\xc3\xbe", false, "\"\xc3\xbe\""),
	S(BOM8, "\xfe", false, "\"\xc3\xbe\""),
};

static void run_conv(const struct str_case *c, unsigned int flags)
{
	switch (c->conv) {
	case LATIN1:
		ehd__json_latin1(&buf, c->in, c->size, flags);
		break;
	case UTF8:
		ehd__json_utf8(&buf, c->in, c->size, flags);
		break;
	case UTF16:
		ehd__json_utf16(&buf, c->in, c->size, c->swap, flags);
		break;
	case UTF32:
		ehd__json_utf32(&buf, c->in, c->size, c->swap, flags);
		break;
	case BOM8:
		ehd__json_utf_bom(&buf, c->in, c->size, 1, c->swap, flags);
		break;
	case BOM16:
		ehd__json_utf_bom(&buf, c->in, c->size, 2, c->swap, flags);
		break;
	case BOM32:
		ehd__json_utf_bom(&buf, c->in, c->size, 4, c->swap, flags);
		break;
	}
}

static bool host_le(void)
{
	const uint16_t one = 1;

	return *(const unsigned char *)&one == 1;
}

static void test_strings(void **state)
{
	char ctx[64];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(str_cases) / sizeof(str_cases[0]); i++) {
		const struct str_case *c = &str_cases[i];

		/* the 16/32-bit cases are written for a little-endian host */
		if (!host_le() && c->conv >= UTF16)
			continue;
		snprintf(ctx, sizeof(ctx), "str_cases[%zu]", i);
		run_conv(c, EHD__JSON);
		expect_bytes(c->want, c->want_len, ctx, __LINE__);
		/* quotes only: the same here as no escape is needed */
		if (!memchr(c->want, '\\', c->want_len)) {
			run_conv(c, EHD__JSON_QUOTE);
			expect_bytes(c->want, c->want_len, ctx, __LINE__);
			run_conv(c, 0);
			expect_bytes(c->want + 1, c->want_len - 2, ctx,
				     __LINE__);
		}
	}
}

/* Every byte below 0x20, the quote and the backslash, in every converter. */
static const char ctl_json[] =
	"\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007"
	"\\b\\t\\n\\u000b\\f\\r\\u000e\\u000f"
	"\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017"
	"\\u0018\\u0019\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f"
	" !\\\"#/\\\\]\x7f";

static void test_escaping(void **state)
{
	unsigned char in[40], in16[80], in32[160];
	char want[sizeof(ctl_json) + 2];
	size_t n = 0, i, wl;

	(void)state;
	for (i = 0; i < 0x20; i++)
		in[n++] = (unsigned char)i;
	in[n++] = ' ';
	in[n++] = '!';
	in[n++] = '"';
	in[n++] = '#';
	in[n++] = '/';
	in[n++] = '\\';
	in[n++] = ']';
	in[n++] = 0x7f;
	memset(in16, 0, sizeof(in16));
	memset(in32, 0, sizeof(in32));
	for (i = 0; i < n; i++) {
		in16[2 * i + !host_le()] = in[i];
		in32[4 * i + 3 * !host_le()] = in[i];
	}
	wl = sizeof(ctl_json) - 1;
	want[0] = '"';
	memcpy(want + 1, ctl_json, wl);
	want[wl + 1] = '"';

	ehd__json_string(&buf, (const char *)in, n);
	expect_bytes(want, wl + 2, "json_string", __LINE__);
	ehd__json_escape(&buf, (const char *)in, n);
	expect_bytes(ctl_json, wl, "json_escape", __LINE__);
	ehd__json_latin1(&buf, in, n, EHD__JSON);
	expect_bytes(want, wl + 2, "latin1", __LINE__);
	ehd__json_utf8(&buf, in, n, EHD__JSON);
	expect_bytes(want, wl + 2, "utf8", __LINE__);
	ehd__json_utf16(&buf, in16, 2 * n, false, EHD__JSON);
	expect_bytes(want, wl + 2, "utf16", __LINE__);
	ehd__json_utf32(&buf, in32, 4 * n, false, EHD__JSON);
	expect_bytes(want, wl + 2, "utf32", __LINE__);
	ehd__json_utf_bom(&buf, in, n, 1, false, EHD__JSON);
	expect_bytes(want, wl + 2, "bom", __LINE__);
	/* escape without quotes */
	ehd__json_utf16(&buf, in16, 2 * n, false, EHD__JSON_ESCAPE);
	expect_bytes(ctl_json, wl, "utf16 escape only", __LINE__);
	/* no escaping: the bytes themselves */
	ehd__json_latin1(&buf, in, n, 0);
	expect_bytes((const char *)in, n, "latin1 raw", __LINE__);
	ehd__json_utf32(&buf, in32, 4 * n, false, 0);
	expect_bytes((const char *)in, n, "utf32 raw", __LINE__);

	/* only ASCII is escaped: bytes >= 0x80 are copied */
	ehd__json_string(&buf, "a\xff\x80\xc3\xbe\x7f", 6);
	EXPECT("\"a\xff\x80\xc3\xbe\x7f\"");
	ehd__json_string(&buf, "", 0);
	EXPECT("\"\"");
	ehd__json_escape(&buf, "", 0);
	EXPECT("");
	ehd__json_escape(&buf, "Provider:Event", 14);
	EXPECT("Provider:Event");
}

/* ---- bytes, UUID, port, IP ---------------------------------------------- */

static const unsigned char guid[16] = {
	1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8
};
static const unsigned char big16[16] = {
	0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7,
	0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff
};
static const unsigned char one16[16] = { [15] = 1 };

static void test_hex_bytes(void **state)
{
	(void)state;
	ehd__json_hex_bytes(&buf, "", 0, EHD__JSON);
	EXPECT("\"\"");
	ehd__json_hex_bytes(&buf, "HowAr", 5, EHD__JSON);
	EXPECT("\"48 6f 77 41 72\"");
	ehd__json_hex_bytes(&buf, "\x01", 1, EHD__JSON);
	EXPECT("\"01\"");
	ehd__json_hex_bytes(&buf, "\x01\x02", 2, EHD__JSON);
	EXPECT("\"01 02\"");
	ehd__json_hex_bytes(&buf, guid, 16, EHD__JSON);
	EXPECT("\"01 02 03 04 05 06 07 08 01 02 03 04 05 06 07 08\"");
	ehd__json_hex_bytes(&buf, big16, 16, EHD__JSON);
	EXPECT("\"f0 f1 f2 f3 f4 f5 f6 f7 f8 f9 fa fb fc fd fe ff\"");
	ehd__json_hex_bytes(&buf, "h\0j\0k\0l\0", 8, EHD__JSON);
	EXPECT("\"68 00 6a 00 6b 00 6c 00\"");
	ehd__json_hex_bytes(&buf, "\xff\xfeh\0j\0k\0l\0", 10, EHD__JSON);
	EXPECT("\"ff fe 68 00 6a 00 6b 00 6c 00\"");
	ehd__json_hex_bytes(&buf, "\x01\x00", 2, 0);
	EXPECT("01 00");
	ehd__json_hex_bytes(&buf, "", 0, 0);
	EXPECT("");
}

static void test_uuid(void **state)
{
	(void)state;
	ehd__json_uuid(&buf, guid, EHD__JSON);
	EXPECT("\"01020304-0506-0708-0102-030405060708\"");
	ehd__json_uuid(&buf, one16, EHD__JSON);
	EXPECT("\"00000000-0000-0000-0000-000000000001\"");
	ehd__json_uuid(&buf, big16, EHD__JSON);
	EXPECT("\"f0f1f2f3-f4f5-f6f7-f8f9-fafbfcfdfeff\"");
	ehd__json_uuid(&buf, guid, 0);
	EXPECT("01020304-0506-0708-0102-030405060708");
}

static void test_port(void **state)
{
	(void)state;
	ehd__json_port(&buf, "\x00\x50");
	EXPECT("80");
	ehd__json_port(&buf, "\xff\xff");
	EXPECT("65535");
	ehd__json_port(&buf, "\x60\xea");	/* aport */
	EXPECT("24810");
	ehd__json_port(&buf, "\x01\x00");	/* Dyn b2one */
	EXPECT("256");
	ehd__json_port(&buf, "\xf1\xf0");	/* Dyn b2big */
	EXPECT("61936");
	ehd__json_port(&buf, "\x00\x00");
	EXPECT("0");
}

static void test_ip(void **state)
{
	static const unsigned char v6a[16] = {
		1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16
	};
	static const unsigned char v6b[16] = {
		0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe,
		0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0x00
	};
	static const unsigned char zero16[16];
	static const unsigned char mapped[16] = {
		[10] = 0xff, [11] = 0xff, [12] = 1, [13] = 2, [14] = 3, [15] = 4
	};
	static const unsigned char mid[16] = {
		0x20, 0x01, 0x0d, 0xb8, [15] = 1
	};

	(void)state;
	ehd__json_ipv4(&buf, "\x7f\x00\x00\x01", EHD__JSON);
	EXPECT("\"127.0.0.1\"");
	ehd__json_ipv4(&buf, "\xff\xff\xff\xff", EHD__JSON);
	EXPECT("\"255.255.255.255\"");
	ehd__json_ipv4(&buf, "\x01\x00\x00\x00", EHD__JSON);
	EXPECT("\"1.0.0.0\"");
	ehd__json_ipv4(&buf, "\xf3\xf2\xf1\xf0", EHD__JSON);
	EXPECT("\"243.242.241.240\"");
	ehd__json_ipv4(&buf, "\0\0\0\0", 0);
	EXPECT("0.0.0.0");

	ehd__json_ipv6(&buf, v6a, EHD__JSON);
	EXPECT("\"102:304:506:708:90a:b0c:d0e:f10\"");
	ehd__json_ipv6(&buf, v6b, EHD__JSON);
	EXPECT("\"fefe:fefe:fefe:fefe:fefe:fefe:fefe:fe00\"");
	ehd__json_ipv6(&buf, one16, EHD__JSON);
	EXPECT("\"::1\"");
	ehd__json_ipv6(&buf, big16, EHD__JSON);
	EXPECT("\"f0f1:f2f3:f4f5:f6f7:f8f9:fafb:fcfd:feff\"");
	ehd__json_ipv6(&buf, zero16, EHD__JSON);
	EXPECT("\"::\"");
	ehd__json_ipv6(&buf, mid, 0);
	EXPECT("2001:db8::1");
#ifdef __GLIBC__
	ehd__json_ipv6(&buf, mapped, EHD__JSON);
	EXPECT("\"::ffff:1.2.3.4\"");
#else
	(void)mapped;
#endif
}

/* ---- buffer behaviour --------------------------------------------------- */

static void test_appends(void **state)
{
	(void)state;
	/* values append to what is there */
	ehd__buf_puts(&buf, "[");
	ehd__json_u64(&buf, 1);
	ehd__buf_puts(&buf, ",");
	ehd__json_string(&buf, "a", 1);
	ehd__buf_puts(&buf, ",");
	ehd__json_double(&buf, 0.5, EHD__JSON);
	ehd__buf_puts(&buf, ",");
	ehd__json_time(&buf, 0, EHD__JSON);
	ehd__buf_puts(&buf, "]");
	EXPECT("[1,\"a\",0.5,\"1970-01-01T00:00:00\"]");

	/* a buffer in error takes nothing more */
	buf.err = -ENOMEM;
	ehd__json_u64(&buf, 1);
	ehd__json_string(&buf, "abc", 3);
	ehd__json_utf16(&buf, "a\0", 2, false, EHD__JSON);
	ehd__json_double(&buf, 1.5, EHD__JSON);
	ehd__json_time(&buf, 1, EHD__JSON);
	ehd__json_errno(&buf, 1, EHD__JSON);
	ehd__json_hex(&buf, 1, 4, EHD__JSON);
	assert_int_equal(buf.len, 0);
	reset();

	/* a size that cannot be reserved fails cleanly */
	ehd__json_string(&buf, "", SIZE_MAX / 2);
	assert_int_equal(buf.err, -ENOMEM);
	assert_int_equal(buf.len, 0);
	reset();

	/* long text: growth past the first allocation */
	{
		static unsigned char big[70000];
		size_t i;

		for (i = 0; i < sizeof(big); i++)
			big[i] = (unsigned char)(0x80 + i % 64);
		ehd__json_latin1(&buf, big, sizeof(big), EHD__JSON);
		assert_int_equal(buf.err, 0);
		assert_int_equal(buf.len, 2 * sizeof(big) + 2);
		reset();
		ehd__json_utf32(&buf, big, sizeof(big), false, EHD__JSON);
		assert_int_equal(buf.err, 0);
		reset();
	}
}

/*
 * Well-formed UTF-8 for the outputs that promise it (utf8.h): one U+FFFD
 * per maximal part of an ill-formed sequence, well-formed text unchanged.
 */
static void fixed(const char *in, size_t n, const char *want, size_t count)
{
	struct ehd_buf b = EHD_BUF_INIT;

	ehd__buf_puts(&b, "x");
	ehd__buf_put(&b, in, n);
	assert_int_equal(ehd__utf8_fix(&b, 1), count);
	assert_int_equal(b.len, 1 + strlen(want));
	assert_memory_equal(b.p + 1, want, strlen(want));
	ehd__buf_free(&b);
}

static void test_utf8_fix(void **state)
{
	(void)state;
	fixed("plain", 5, "plain", 0);
	fixed("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 9,
	      "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 0);
	/* a lone surrogate (U+D800 in 3 bytes): 3 parts */
	fixed("a\xed\xa0\x80" "b", 5,
	      "a\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" "b", 3);
	/* past U+10FFFF, 7 bytes of the old scheme: 7 parts */
	fixed("\xfe\x83\xbf\xbf\xaf\xb7\xbc", 7,
	      "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
	      "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", 7);
	/* a sequence cut short: its lead and the bytes that fit, one part */
	fixed("\xe2\x82z", 3, "\xef\xbf\xbdz", 1);
	fixed("\xf0\x9f\x98", 3, "\xef\xbf\xbd", 1);
	/* overlong forms and bad leads */
	fixed("\xc0\xaf", 2, "\xef\xbf\xbd\xef\xbf\xbd", 2);
	fixed("\xe0\x80\xaf", 3, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", 3);
	fixed("\xf4\x90\x80\x80", 4,
	      "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", 4);
	assert_int_equal(ehd__utf8_well_formed("ab\xff" "c", 4), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_decimal, setup),
		cmocka_unit_test_setup(test_hex_int, setup),
		cmocka_unit_test_setup(test_boolean, setup),
		cmocka_unit_test_setup(test_errno_golden, setup),
		cmocka_unit_test_setup(test_errno_edges, setup),
		cmocka_unit_test_setup(test_errno_system, setup),
		cmocka_unit_test_setup(test_time, setup),
		cmocka_unit_test_setup(test_time_vs_gmtime, setup),
		cmocka_unit_test_setup(test_float_table, setup),
		cmocka_unit_test_setup(test_float_roundtrip, setup),
		cmocka_unit_test_setup(test_char, setup),
		cmocka_unit_test_setup(test_strings, setup),
		cmocka_unit_test_setup(test_escaping, setup),
		cmocka_unit_test_setup(test_hex_bytes, setup),
		cmocka_unit_test_setup(test_uuid, setup),
		cmocka_unit_test_setup(test_port, setup),
		cmocka_unit_test_setup(test_ip, setup),
		cmocka_unit_test_setup(test_appends, setup),
		cmocka_unit_test(test_utf8_fix),
	};
	int rc;

	rc = cmocka_run_group_tests(tests, NULL, NULL);
	ehd__buf_free(&buf);
	return rc;
}
