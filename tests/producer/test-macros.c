// SPDX-License-Identifier: MIT
/*
 * test-macros - the bytes written by the macro API (eh-provider.h and
 * TraceLoggingProvider.h), read back from the interceptor
 *
 * Built with -DEH_INTERCEPTOR: every tracepoint of a registered provider
 * is enabled and each event is appended to $EH_INTERCEPTOR_FILE (set by
 * main() to a temporary file) as {u32 LE size, tracepoint name, NUL, event
 * bytes}. Each test notes the file size, writes, and decodes the records
 * that were added. Values are compared in this machine's byte order, as
 * the events are written in it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wchar.h>
#include <cmocka.h>
#include <pthread.h>

#include <eventheader/TraceLoggingProvider.h>

#ifndef EH_INTERCEPTOR
#error "test-macros needs -DEH_INTERCEPTOR"
#endif

EH_DEFINE_PROVIDER(mprov, "TestMacros");
EH_DEFINE_PROVIDER_GROUP(mgroup, "TestMacros", "grp1");
EH_DEFINE_PROVIDER(mnever, "TestMacrosNever");	/* never registered */

#define TP_DEFAULT "TestMacros_L5K0"

static char path[] = "/tmp/eh-test-macros.XXXXXX";

/*
 * Reading the records back
 */

struct field {
	const char *name;
	uint8_t enc;		/* encoding and flags, without the chain flag */
	uint8_t fmt;		/* format, without the chain flag; 0 if absent */
	uint16_t tag;
	uint16_t count;		/* constant array count */
	int has_fmt, has_tag, has_count;
};

struct event {
	const char *tp;			/* tracepoint name */
	const unsigned char *bytes;	/* the event */
	size_t size;
	struct eh_header h;
	unsigned int n_ext;
	struct eh_extension ext[4];
	const unsigned char *ext_data[4];
	const char *name;		/* event name, from the metadata */
	unsigned int n_fields;
	struct field f[128];
	const unsigned char *payload;
	size_t payload_size;
};

#define MAX_EVENTS 8
static struct event ev[MAX_EVENTS];
static unsigned char *file_buf;
static off_t mark_pos;

static off_t file_size(void)
{
	struct stat st;

	assert_int_equal(stat(path, &st), 0);
	return st.st_size;
}

/* Remember where the next records will start. */
static void mark(void)
{
	mark_pos = file_size();
}

static void decode_event(struct event *e)
{
	const unsigned char *p = e->bytes, *end = e->bytes + e->size;
	const unsigned char *meta = NULL, *mend = NULL;
	struct eh_extension x;

	assert_true(e->size >= sizeof(e->h));
	memcpy(&e->h, p, sizeof(e->h));
	p += sizeof(e->h);
	e->n_ext = 0;
	if (e->h.flags & EH_FLAG_EXTENSION) {
		do {
			assert_true((size_t)(end - p) >= sizeof(x));
			memcpy(&x, p, sizeof(x));
			p += sizeof(x);
			assert_true((size_t)(end - p) >= x.size);
			assert_true(e->n_ext < 4);
			e->ext[e->n_ext] = x;
			e->ext_data[e->n_ext++] = p;
			if ((x.kind & EH_EXT_KIND_MASK) == EH_EXT_METADATA) {
				meta = p;
				mend = p + x.size;
			}
			p += x.size;
		} while (x.kind & EH_EXT_CHAIN_FLAG);
	}
	e->payload = p;
	e->payload_size = (size_t)(end - p);

	assert_non_null(meta);
	assert_non_null(memchr(meta, 0, (size_t)(mend - meta)));
	e->name = (const char *)meta;
	meta += strlen(e->name) + 1;
	e->n_fields = 0;
	while (meta < mend) {
		struct field *f = &e->f[e->n_fields++];
		uint8_t b;

		assert_true(e->n_fields <= 128);
		memset(f, 0, sizeof(*f));
		assert_non_null(memchr(meta, 0, (size_t)(mend - meta)));
		f->name = (const char *)meta;
		meta += strlen(f->name) + 1;
		assert_true(meta < mend);
		b = *meta++;
		f->enc = b & (uint8_t)~EH_ENC_CHAIN_FLAG;
		if (b & EH_ENC_CHAIN_FLAG) {
			assert_true(meta < mend);
			b = *meta++;
			f->has_fmt = 1;
			f->fmt = b & (uint8_t)~EH_FMT_CHAIN_FLAG;
			if (b & EH_FMT_CHAIN_FLAG) {
				assert_true(meta + 2 <= mend);
				f->has_tag = 1;
				memcpy(&f->tag, meta, 2);
				meta += 2;
			}
		}
		if (f->enc & EH_ENC_CARRAY_FLAG) {
			assert_true(meta + 2 <= mend);
			f->has_count = 1;
			memcpy(&f->count, meta, 2);
			meta += 2;
		}
	}
	assert_true(meta == mend);
}

/* Decode the records added since mark(); returns how many. */
static int read_new(void)
{
	off_t size = file_size();
	size_t len, off = 0;
	FILE *f;
	int n = 0;

	assert_true(size >= mark_pos);
	len = (size_t)(size - mark_pos);
	free(file_buf);
	file_buf = (unsigned char *)malloc(len + 1);
	assert_non_null(file_buf);
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fseeko(f, mark_pos, SEEK_SET), 0);
	assert_int_equal(fread(file_buf, 1, len, f), len);
	fclose(f);
	while (off < len) {
		const unsigned char *r = file_buf + off;
		uint32_t rlen;
		size_t nlen;

		assert_true(len - off >= 4);
		rlen = (uint32_t)r[0] | (uint32_t)r[1] << 8 |
		       (uint32_t)r[2] << 16 | (uint32_t)r[3] << 24;
		assert_true(rlen >= 5 && rlen <= len - off);
		assert_non_null(memchr(r + 4, 0, rlen - 4));
		assert_true(n < MAX_EVENTS);
		ev[n].tp = (const char *)r + 4;
		nlen = strlen(ev[n].tp) + 1;
		ev[n].bytes = r + 4 + nlen;
		ev[n].size = rlen - 4 - nlen;
		decode_event(&ev[n]);
		off += rlen;
		n++;
	}
	return n;
}

/* Exactly one new record: ev[0]. */
static void read_one(void)
{
	assert_int_equal(read_new(), 1);
}

static void check_payload(const struct event *e, const void *data,
			  size_t size)
{
	assert_int_equal(e->payload_size, size);
	if (size)
		assert_memory_equal(e->payload, data, size);
}

/* The field count (u16) at payload offset @off. */
static uint16_t payload_u16(const struct event *e, size_t off)
{
	uint16_t v;

	assert_true(off + 2 <= e->payload_size);
	memcpy(&v, e->payload + off, 2);
	return v;
}

/*
 * Setup
 */

static int setup(void **state)
{
	(void)state;
	if (EH_REGISTER(mprov) != 0 || EH_REGISTER(mgroup) != 0)
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	EH_UNREGISTER(mgroup);
	EH_UNREGISTER(mprov);
	free(file_buf);
	file_buf = NULL;
	return 0;
}

/*
 * Header and attributes
 */

static void test_defaults(void **state)
{
	int32_t one = 1;

	(void)state;
	mark();
	assert_int_equal(EH_WRITE(mprov, "Defaults", EH_INT32("a", 1)), 0);
	read_one();
	assert_string_equal(ev[0].tp, TP_DEFAULT);
	assert_int_equal(ev[0].h.flags, EH_FLAG_DEFAULT_WITH_EXTENSION);
	assert_int_equal(ev[0].h.version, 0);
	assert_int_equal(ev[0].h.id, 0);
	assert_int_equal(ev[0].h.tag, 0);
	assert_int_equal(ev[0].h.opcode, 0);
	assert_int_equal(ev[0].h.level, 5);
	assert_int_equal(ev[0].n_ext, 1);
	assert_int_equal(ev[0].ext[0].kind, EH_EXT_METADATA);
	assert_int_equal(ev[0].ext[0].size,
			 sizeof("Defaults") + sizeof("a") + 2);
	assert_string_equal(ev[0].name, "Defaults");
	assert_int_equal(ev[0].n_fields, 1);
	assert_string_equal(ev[0].f[0].name, "a");
	assert_int_equal(ev[0].f[0].enc, EH_ENC_VALUE32);
	assert_int_equal(ev[0].f[0].fmt, EH_FMT_SIGNED_INT);
	check_payload(&ev[0], &one, 4);
	/* The whole event, byte for byte. */
	assert_int_equal(ev[0].size, 8 + 4 + 9 + 2 + 2 + 4);
}

static void test_group_name(void **state)
{
	(void)state;
	mark();
	assert_int_equal(EH_WRITE(mgroup, "G", EH_LEVEL(2), EH_KEYWORD(0xab)),
			 0);
	read_one();
	assert_string_equal(ev[0].tp, "TestMacros_L2KabGgrp1");
	assert_int_equal(ev[0].h.level, 2);
}

static void test_attributes_last_wins(void **state)
{
	(void)state;
	mark();
	assert_int_equal(EH_WRITE(mprov, "Attrs", EH_LEVEL(2), EH_OPCODE(1),
				  EH_ID_VERSION(1, 2), EH_EVENT_TAG(5),
				  EH_KEYWORD(0x1), EH_INT32("a", 7),
				  EH_LEVEL(3), EH_OPCODE(2), EH_KEYWORD(0x4),
				  EH_ID_VERSION(3, 4), EH_EVENT_TAG(6),
				  EH_KEYWORD(0x100000000ULL)),
			 0);
	read_one();
	assert_string_equal(ev[0].tp, "TestMacros_L3K100000005");
	assert_int_equal(ev[0].h.level, 3);
	assert_int_equal(ev[0].h.opcode, 2);
	assert_int_equal(ev[0].h.id, 3);
	assert_int_equal(ev[0].h.version, 4);
	assert_int_equal(ev[0].h.tag, 6);
	assert_int_equal(ev[0].n_fields, 1);

	/* The same through the TraceLogging names. */
	mark();
	assert_int_equal(TraceLoggingWrite(mprov, "TlgAttrs",
					   TraceLoggingLevel(1),
					   TraceLoggingKeyword(0x10),
					   TraceLoggingOpcode(9),
					   TraceLoggingIdVersion(7, 8),
					   TraceLoggingEventTag(0x1234),
					   TraceLoggingDescription("ignored"),
					   TraceLoggingLevel(4),
					   TraceLoggingKeyword(0x3),
					   TraceLoggingOpcode(EH_OPCODE_RECEIVE),
					   TraceLoggingIdVersion(65535, 255),
					   TraceLoggingEventTag(0xfedc)),
			 0);
	read_one();
	assert_string_equal(ev[0].tp, "TestMacros_L4K13");
	assert_int_equal(ev[0].h.level, 4);
	assert_int_equal(ev[0].h.opcode, EH_OPCODE_RECEIVE);
	assert_int_equal(ev[0].h.id, 65535);
	assert_int_equal(ev[0].h.version, 255);
	assert_int_equal(ev[0].h.tag, 0xfedc);
	assert_int_equal(ev[0].n_fields, 0);
}

static void test_enabled(void **state)
{
	(void)state;
	assert_int_not_equal(EH_ENABLED(mprov, 4, 1), 0);
	assert_int_not_equal(TraceLoggingProviderEnabled(mprov, 5, 0), 0);
	assert_int_equal(EH_ENABLED(mnever, 4, 1), 0);
}

/*
 * Evaluation of the arguments
 */

static int evaluated;

static int32_t ival(int32_t v)
{
	evaluated++;
	return v;
}

static const void *pval(const void *p)
{
	evaluated++;
	return p;
}

static const char *sval(const char *s)
{
	evaluated++;
	return s;
}

static size_t nval(size_t n)
{
	evaluated++;
	return n;
}

static const unsigned char id1[16] = { 0x11, 0x12, 0x13, 0x14, 0x15, 0x16,
				       0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c,
				       0x1d, 0x1e, 0x1f, 0x20 };
static const unsigned char id2[16] = { 0x21, 0x22, 0x23, 0x24, 0x25, 0x26,
				       0x27, 0x28, 0x29, 0x2a, 0x2b, 0x2c,
				       0x2d, 0x2e, 0x2f, 0x30 };

static void test_args_once(void **state)
{
	static const int32_t arr[3] = { 10, 20, 30 };
	static const unsigned char packed[6] = { 1, 2, 3, 4, 5, 6 };

	(void)state;
	evaluated = 0;
	mark();
	assert_int_equal(
		EH_WRITE_ACTIVITY(mprov, "Once", pval(id1), pval(id2),
				  EH_INT32("i", ival(1)),
				  EH_STRING8("s", sval("str")),
				  EH_INT32_ARRAY("v", pval(arr), nval(3)),
				  EH_INT32_FIXED_ARRAY("f", pval(arr), 3),
				  EH_COUNTED_STRING8("c", sval("abcdef"), nval(3)),
				  EH_BINARY("b", pval(packed), nval(2)),
				  EH_GUID("g", pval(id1)),
				  EH_STRUCT_ARRAY("sa", 1, nval(2)),
				  EH_PACKED_META("x", EH_ENC_VALUE16, 0),
				  EH_PACKED_DATA(pval(packed), nval(4)),
				  EH_PACKED_FIELD("p", pval(packed), nval(2),
						  EH_ENC_VALUE16, 0)),
		0);
	assert_int_equal(evaluated, 2 + 1 + 1 + 2 + 1 + 2 + 2 + 1 + 1 + 2 + 2);
	read_one();
	assert_int_equal(ev[0].n_fields, 10);

	evaluated = 0;
	mark();
	assert_int_equal(
		TraceLoggingWriteActivity(mprov, "TlgOnce", pval(id1), 0,
					  TraceLoggingInt32(ival(5), "i"),
					  TraceLoggingString(sval("s"), "s"),
					  TraceLoggingInt32Array(pval(arr), nval(2), "v"),
					  TraceLoggingBinary(pval(packed), nval(3), "b"),
					  TraceLoggingCountedString(sval("xyz"), nval(2), "c"),
					  TraceLoggingPackedField(pval(packed), nval(2),
								  EH_ENC_VALUE16, "p")),
		0);
	assert_int_equal(evaluated, 1 + 1 + 1 + 2 + 2 + 2 + 2);
	read_one();
	assert_int_equal(ev[0].n_fields, 6);
}

static void test_not_registered(void **state)
{
	int i;

	(void)state;
	evaluated = 0;
	mark();
	for (i = 0; i < 100; i++) {
		assert_int_equal(EH_WRITE(mnever, "Never", EH_INT32("i", ival(1)),
					  EH_STRING8("s", sval("x"))),
				 EBADF);
		assert_int_equal(TraceLoggingWriteActivity(mnever, "Never",
							   pval(id1), pval(id2),
							   TraceLoggingInt32(ival(1))),
				 EBADF);
	}
	assert_int_equal(evaluated, 0);
	assert_int_equal(read_new(), 0);
}

/*
 * Sizes
 */

static unsigned char big[70000];

static void fill_big(void)
{
	size_t i;

	for (i = 0; i < sizeof(big); i++)
		big[i] = (unsigned char)(i * 7 + 3);
}

static void test_e2big(void **state)
{
	(void)state;
	fill_big();
	mark();
	/* 65535 bytes of binary alone are more than an event can hold. */
	assert_int_equal(EH_WRITE(mprov, "Big", EH_BINARY("b", big, 65535),
				  EH_INT32("after", 1)),
			 E2BIG);
	assert_int_equal(EH_WRITE(mprov, "Big", EH_BINARY("b", big, 65535)),
			 E2BIG);
	assert_int_equal(EH_WRITE(mprov, "Big",
				  EH_BINARY("b1", big, 40000),
				  EH_BINARY("b2", big, 40000)),
			 E2BIG);
	assert_int_equal(EH_WRITE(mprov, "Big",
				  EH_UINT32_ARRAY("a", (const uint32_t *)big,
						  16384)),
			 E2BIG);
	assert_int_equal(read_new(), 0);
}

/* Bytes of "Max" with one EH_BINARY("b", .., 0) field, activity ids aside. */
static size_t overhead(void)
{
	mark();
	assert_int_equal(EH_WRITE(mprov, "Max", EH_BINARY("b", big, 0)), 0);
	read_one();
	/* header, metadata extension, count */
	assert_int_equal(ev[0].size, 8 + 4 + 4 + 2 + 1 + 2);
	return ev[0].size;
}

static void test_event_max_boundary(void **state)
{
	size_t n;

	(void)state;
	fill_big();
	n = EH_EVENT_MAX - overhead();

	/* Exactly EH_EVENT_MAX bytes (the write index not counted): sent. */
	mark();
	assert_int_equal(EH_WRITE(mprov, "Max", EH_BINARY("b", big, n)), 0);
	read_one();
	assert_int_equal(ev[0].size, EH_EVENT_MAX);
	assert_int_equal(payload_u16(&ev[0], 0), n);
	assert_memory_equal(ev[0].payload + 2, big, n);

	/* One byte more: E2BIG, nothing written. */
	mark();
	assert_int_equal(EH_WRITE(mprov, "Max", EH_BINARY("b", big, n + 1)),
			 E2BIG);
	assert_int_equal(read_new(), 0);

	/* The activity extension counts: 20 more bytes with one id. */
	mark();
	assert_int_equal(EH_WRITE_ACTIVITY(mprov, "Max", id1, 0,
					   EH_BINARY("b", big, n - 20)),
			 0);
	read_one();
	assert_int_equal(ev[0].size, EH_EVENT_MAX);
	mark();
	assert_int_equal(EH_WRITE_ACTIVITY(mprov, "Max", id1, 0,
					   EH_BINARY("b", big, n - 19)),
			 E2BIG);
	assert_int_equal(EH_WRITE_ACTIVITY(mprov, "Max", id1, id2,
					   EH_BINARY("b", big, n - 35)),
			 E2BIG);
	assert_int_equal(read_new(), 0);
	mark();
	assert_int_equal(EH_WRITE_ACTIVITY(mprov, "Max", id1, id2,
					   EH_BINARY("b", big, n - 36)),
			 0);
	read_one();
	assert_int_equal(ev[0].size, EH_EVENT_MAX);
}

static void test_gather_boundary(void **state)
{
	size_t n, base;

	(void)state;
	fill_big();
	base = overhead() + 4;	/* with the write index */
	/* Around EH_GATHER_MAX: gathered into one buffer, or written as is. */
	for (n = EH_GATHER_MAX - base - 8; n <= EH_GATHER_MAX - base + 8;
	     n++) {
		mark();
		assert_int_equal(EH_WRITE(mprov, "Max",
					  EH_BINARY("b", big + n, n)),
				 0);
		read_one();
		assert_int_equal(ev[0].size, base - 4 + n);
		assert_int_equal(payload_u16(&ev[0], 0), n);
		assert_memory_equal(ev[0].payload + 2, big + n, n);
	}
}

/*
 * Run-time lengths from 0 to 100 (strings, counted strings, variable
 * arrays) between two fixed fields: every byte lands where it belongs
 * whatever way the write path copies segments of each length.
 */
static void test_copy_lengths(void **state)
{
	unsigned char want[512], str[128];
	uint32_t pre = 0xaaaaaaaa, post = 0xbbbbbbbb;
	volatile size_t vlen;	/* not a constant to the compiler */
	size_t len, i, off;

	(void)state;
	for (i = 0; i < sizeof(str); i++)
		str[i] = (unsigned char)('A' + i % 50);
	for (len = 0; len <= 100; len++) {
		assert_true(4 + (len + 1) + 3 * (2 + len) + 4 <= sizeof(want));
		vlen = len;
		str[len] = 0;
		mark();
		assert_int_equal(EH_WRITE(mprov, "Len", EH_UINT32("pre", pre),
					  EH_STRING8("z", (const char *)str),
					  EH_COUNTED_STRING8("c",
							     (const char *)str,
							     vlen),
					  EH_UINT8_ARRAY("v", str, vlen),
					  EH_BINARY("b", str, vlen),
					  EH_UINT32("post", post)),
				 0);
		str[len] = (unsigned char)('A' + len % 50);
		off = 0;
		memcpy(want + off, &pre, 4);
		off += 4;
		memcpy(want + off, str, len);
		want[off + len] = 0;
		off += len + 1;
		for (i = 0; i < 3; i++) {
			uint16_t c = (uint16_t)len;

			memcpy(want + off, &c, 2);
			memcpy(want + off + 2, str, len);
			off += 2 + len;
		}
		memcpy(want + off, &post, 4);
		off += 4;
		read_one();
		if (ev[0].payload_size != off ||
		    memcmp(ev[0].payload, want, off) != 0)
			fail_msg("length %zu: payload differs", len);
	}
}

static void test_count_clamp(void **state)
{
	(void)state;
	assert_int_equal(eh__count16(0), 0);
	assert_int_equal(eh__count16(1), 1);
	assert_int_equal(eh__count16(65535), 65535);
	assert_int_equal(eh__count16(65536), 65535);
	assert_int_equal(eh__count16(65536 + 5), 65535);
	assert_int_equal(eh__count16((size_t)-1), 65535);

	/*
	 * A count of 65541 is sent as 65535 (too big for an event), not
	 * wrapped to 5 (a short event that looks fine).
	 */
	fill_big();
	mark();
	assert_int_equal(EH_WRITE(mprov, "Clamp",
				  EH_UINT8_ARRAY("a", big, 65536 + 5)),
			 E2BIG);
	assert_int_equal(EH_WRITE(mprov, "Clamp",
				  EH_COUNTED_STRING8("s", (const char *)big,
						     65536 + 3)),
			 E2BIG);
	assert_int_equal(EH_WRITE(mprov, "Clamp",
				  EH_BINARY("b", big, 65536 + 3)),
			 E2BIG);
	assert_int_equal(EH_WRITE(mprov, "Clamp",
				  TraceLoggingBinary(big, 65536 + 3, "b")),
			 E2BIG);
	assert_int_equal(EH_WRITE(mprov, "Clamp",
				  TraceLoggingCountedUtf8String(
					  (const char *)big, 65536 + 3, "s")),
			 E2BIG);
	assert_int_equal(read_new(), 0);
}

/*
 * Strings
 */

static const eh_char16_t s16[] = { 'h', 'i', 0x263a, 0 };
static const eh_char32_t s32[] = { 'h', 'i', 0x1f600, 0 };
static const wchar_t sw[] = L"hi";

/* One string field: its encoding, format (0: none) and payload. */
static void check_string(int rc, uint8_t enc, uint8_t fmt, const void *data,
			 size_t size)
{
	assert_int_equal(rc, 0);
	read_one();
	assert_int_equal(ev[0].n_fields, 1);
	assert_string_equal(ev[0].f[0].name, "s");
	assert_int_equal(ev[0].f[0].enc, enc);
	assert_int_equal(ev[0].f[0].has_fmt, fmt != 0);
	assert_int_equal(ev[0].f[0].fmt, fmt);
	check_payload(&ev[0], data, size);
}

#define CHECK_STRING(field, enc, fmt, data, size)                              \
	do {                                                                   \
		mark();                                                        \
		check_string(EH_WRITE(mprov, "Str", field), enc, fmt, data,    \
			     size);                                            \
	} while (0)

static void test_strings(void **state)
{
	(void)state;
	CHECK_STRING(EH_STRING8("s", "hi"), EH_ENC_ZSTRING_CHAR8,
		     EH_FMT_STRING8, "hi", 3);
	CHECK_STRING(EH_STRING_UTF8("s", "hi"), EH_ENC_ZSTRING_CHAR8, 0,
		     "hi", 3);
	CHECK_STRING(EH_STRING_JSON("s", "{}"), EH_ENC_ZSTRING_CHAR8,
		     EH_FMT_STRING_JSON, "{}", 3);
	CHECK_STRING(EH_STRING_XML("s", "<a/>"), EH_ENC_ZSTRING_CHAR8,
		     EH_FMT_STRING_XML, "<a/>", 5);
	CHECK_STRING(EH_STRING16("s", s16), EH_ENC_ZSTRING_CHAR16, 0, s16,
		     sizeof(s16));
	CHECK_STRING(EH_STRING32("s", s32), EH_ENC_ZSTRING_CHAR32, 0, s32,
		     sizeof(s32));
	CHECK_STRING(EH_WSTRING("s", sw), EH_ENC_ZSTRING_WCHAR, 0, sw,
		     sizeof(sw));
	CHECK_STRING(EH_STRING8("s", ""), EH_ENC_ZSTRING_CHAR8,
		     EH_FMT_STRING8, "", 1);

	CHECK_STRING(TraceLoggingString("hi", "s"), EH_ENC_ZSTRING_CHAR8,
		     EH_FMT_STRING8, "hi", 3);
	CHECK_STRING(TraceLoggingUtf8String("hi", "s"), EH_ENC_ZSTRING_CHAR8,
		     0, "hi", 3);
	CHECK_STRING(TraceLoggingString16(s16, "s"), EH_ENC_ZSTRING_CHAR16, 0,
		     s16, sizeof(s16));
	CHECK_STRING(TraceLoggingString32(s32, "s"), EH_ENC_ZSTRING_CHAR32, 0,
		     s32, sizeof(s32));
	CHECK_STRING(TraceLoggingWideString(sw, "s"), EH_ENC_ZSTRING_WCHAR, 0,
		     sw, sizeof(sw));
}

static void test_null_strings(void **state)
{
	static const unsigned char zeros[8];

	(void)state;
	CHECK_STRING(EH_STRING8("s", NULL), EH_ENC_ZSTRING_CHAR8,
		     EH_FMT_STRING8, zeros, 1);
	CHECK_STRING(EH_STRING_UTF8("s", NULL), EH_ENC_ZSTRING_CHAR8, 0,
		     zeros, 1);
	CHECK_STRING(EH_STRING_JSON("s", NULL), EH_ENC_ZSTRING_CHAR8,
		     EH_FMT_STRING_JSON, zeros, 1);
	CHECK_STRING(EH_STRING_XML("s", NULL), EH_ENC_ZSTRING_CHAR8,
		     EH_FMT_STRING_XML, zeros, 1);
	CHECK_STRING(EH_STRING16("s", NULL), EH_ENC_ZSTRING_CHAR16, 0,
		     zeros, 2);
	CHECK_STRING(EH_STRING32("s", NULL), EH_ENC_ZSTRING_CHAR32, 0,
		     zeros, 4);
	CHECK_STRING(EH_WSTRING("s", NULL), EH_ENC_ZSTRING_WCHAR, 0, zeros,
		     sizeof(wchar_t));
	CHECK_STRING(TraceLoggingString(NULL, "s"), EH_ENC_ZSTRING_CHAR8,
		     EH_FMT_STRING8, zeros, 1);
	CHECK_STRING(TraceLoggingString16(NULL, "s"), EH_ENC_ZSTRING_CHAR16,
		     0, zeros, 2);
	CHECK_STRING(TraceLoggingWideString(NULL, "s"), EH_ENC_ZSTRING_WCHAR,
		     0, zeros, sizeof(wchar_t));
	/* Counted strings of NULL with count 0: just the count. */
	CHECK_STRING(EH_COUNTED_STRING8("s", NULL, 0),
		     EH_ENC_STRING_LENGTH16_CHAR8, EH_FMT_STRING8, zeros, 2);
	CHECK_STRING(EH_COUNTED_STRING16("s", NULL, 0),
		     EH_ENC_STRING_LENGTH16_CHAR16, 0, zeros, 2);
}

static void test_counted_strings(void **state)
{
	unsigned char buf[64];

	(void)state;
	/* u16 count of units, then the units (no terminator). */
	memcpy(buf, &(uint16_t){ 3 }, 2);
	memcpy(buf + 2, "hel", 3);
	CHECK_STRING(EH_COUNTED_STRING8("s", "hello", 3),
		     EH_ENC_STRING_LENGTH16_CHAR8, EH_FMT_STRING8, buf, 5);
	CHECK_STRING(EH_COUNTED_STRING_UTF8("s", "hello", 3),
		     EH_ENC_STRING_LENGTH16_CHAR8, 0, buf, 5);
	CHECK_STRING(TraceLoggingCountedString("hello", 3, "s"),
		     EH_ENC_STRING_LENGTH16_CHAR8, EH_FMT_STRING8, buf, 5);
	CHECK_STRING(TraceLoggingCountedUtf8String("hello", 3, "s"),
		     EH_ENC_STRING_LENGTH16_CHAR8, 0, buf, 5);

	memcpy(buf + 2, s16, 3 * sizeof(s16[0]));
	CHECK_STRING(EH_COUNTED_STRING16("s", s16, 3),
		     EH_ENC_STRING_LENGTH16_CHAR16, 0, buf, 2 + 6);
	CHECK_STRING(TraceLoggingCountedString16(s16, 3, "s"),
		     EH_ENC_STRING_LENGTH16_CHAR16, 0, buf, 2 + 6);
	memcpy(buf + 2, s32, 3 * sizeof(s32[0]));
	CHECK_STRING(EH_COUNTED_STRING32("s", s32, 3),
		     EH_ENC_STRING_LENGTH16_CHAR32, 0, buf, 2 + 12);
	CHECK_STRING(TraceLoggingCountedString32(s32, 3, "s"),
		     EH_ENC_STRING_LENGTH16_CHAR32, 0, buf, 2 + 12);
	memcpy(buf, &(uint16_t){ 2 }, 2);
	memcpy(buf + 2, sw, 2 * sizeof(wchar_t));
	CHECK_STRING(EH_COUNTED_WSTRING("s", sw, 2),
		     EH_ENC_STRING_LENGTH16_WCHAR, 0, buf,
		     2 + 2 * sizeof(wchar_t));
	CHECK_STRING(TraceLoggingCountedWideString(sw, 2, "s"),
		     EH_ENC_STRING_LENGTH16_WCHAR, 0, buf,
		     2 + 2 * sizeof(wchar_t));

	/* Binary: EH_BINARY is binary_length16_char8; TraceLoggingBinary is
	 * LinuxTracepoints' string_length16_char8 with format hex_bytes. */
	memcpy(buf, &(uint16_t){ 4 }, 2);
	memcpy(buf + 2, id1, 4);
	CHECK_STRING(EH_BINARY("s", id1, 4), EH_ENC_BINARY_LENGTH16_CHAR8, 0,
		     buf, 6);
	CHECK_STRING(TraceLoggingBinary(id1, 4, "s"),
		     EH_ENC_STRING_LENGTH16_CHAR8, EH_FMT_HEX_BYTES, buf, 6);
	CHECK_STRING(TraceLoggingBinaryEx(id1, 4, EH_FMT_UUID, "s"),
		     EH_ENC_STRING_LENGTH16_CHAR8, EH_FMT_UUID, buf, 6);
	memcpy(buf, &(uint16_t){ 0 }, 2);
	CHECK_STRING(EH_BINARY("s", id1, 0), EH_ENC_BINARY_LENGTH16_CHAR8, 0,
		     buf, 2);
}

/*
 * Arrays, structs, packed fields
 */

static void test_array_encodings(void **state)
{
	static const int32_t a[3] = { -1, 2, 0x7fffffff };
	unsigned char buf[64];

	(void)state;
	mark();
	assert_int_equal(EH_WRITE(mprov, "Arrays",
				  EH_INT32_ARRAY("v", a, 3),
				  EH_INT32_FIXED_ARRAY("f", a, 3),
				  EH_UINT8_ARRAY("uv", id1, 2),
				  EH_UINT8_FIXED_ARRAY("uf", id1, 2, 0x4321),
				  EH_INT32_ARRAY("empty", a, 0),
				  EH_INT32_ARRAY("null", NULL, 0)),
			 0);
	read_one();
	assert_int_equal(ev[0].n_fields, 6);
	/* Variable: varray flag, count in the payload, none in metadata. */
	assert_int_equal(ev[0].f[0].enc, EH_ENC_VALUE32 | EH_ENC_VARRAY_FLAG);
	assert_int_equal(ev[0].f[0].fmt, EH_FMT_SIGNED_INT);
	assert_false(ev[0].f[0].has_count);
	/* Constant: carray flag, count in metadata after format (and tag). */
	assert_int_equal(ev[0].f[1].enc, EH_ENC_VALUE32 | EH_ENC_CARRAY_FLAG);
	assert_int_equal(ev[0].f[1].fmt, EH_FMT_SIGNED_INT);
	assert_true(ev[0].f[1].has_count);
	assert_int_equal(ev[0].f[1].count, 3);
	assert_int_equal(ev[0].f[2].enc, EH_ENC_VALUE8 | EH_ENC_VARRAY_FLAG);
	assert_false(ev[0].f[2].has_fmt);
	assert_int_equal(ev[0].f[3].enc, EH_ENC_VALUE8 | EH_ENC_CARRAY_FLAG);
	assert_true(ev[0].f[3].has_fmt);
	assert_int_equal(ev[0].f[3].fmt, 0);
	assert_true(ev[0].f[3].has_tag);
	assert_int_equal(ev[0].f[3].tag, 0x4321);
	assert_true(ev[0].f[3].has_count);
	assert_int_equal(ev[0].f[3].count, 2);
	assert_int_equal(ev[0].f[4].enc, EH_ENC_VALUE32 | EH_ENC_VARRAY_FLAG);
	assert_int_equal(ev[0].f[5].enc, EH_ENC_VALUE32 | EH_ENC_VARRAY_FLAG);

	memcpy(buf, &(uint16_t){ 3 }, 2);
	memcpy(buf + 2, a, 12);
	memcpy(buf + 14, a, 12);
	memcpy(buf + 26, &(uint16_t){ 2 }, 2);
	memcpy(buf + 28, id1, 2);
	memcpy(buf + 30, id1, 2);
	memcpy(buf + 32, &(uint16_t){ 0 }, 2);
	memcpy(buf + 34, &(uint16_t){ 0 }, 2);
	check_payload(&ev[0], buf, 36);
}

static void test_struct_nesting(void **state)
{
	unsigned char buf[32];

	(void)state;
	mark();
	assert_int_equal(EH_WRITE(mprov, "Nest",
				  EH_STRUCT("outer", 3),
				  EH_INT32("a", 1),
				  EH_STRUCT("inner", 2, 0x55),
				  EH_UINT8("b", 2),
				  EH_STRING8("c", "x"),
				  EH_INT16("d", 4),
				  EH_INT32("after", 9)),
			 0);
	read_one();
	assert_int_equal(ev[0].n_fields, 7);
	assert_string_equal(ev[0].f[0].name, "outer");
	assert_int_equal(ev[0].f[0].enc, EH_ENC_STRUCT);
	assert_true(ev[0].f[0].has_fmt);
	assert_int_equal(ev[0].f[0].fmt, 3);
	assert_false(ev[0].f[0].has_tag);
	assert_string_equal(ev[0].f[2].name, "inner");
	assert_int_equal(ev[0].f[2].enc, EH_ENC_STRUCT);
	assert_int_equal(ev[0].f[2].fmt, 2);
	assert_true(ev[0].f[2].has_tag);
	assert_int_equal(ev[0].f[2].tag, 0x55);
	assert_int_equal(ev[0].f[3].enc, EH_ENC_VALUE8);
	assert_int_equal(ev[0].f[4].enc, EH_ENC_ZSTRING_CHAR8);
	assert_string_equal(ev[0].f[6].name, "after");
	/* Structs have no payload of their own. */
	memcpy(buf, &(int32_t){ 1 }, 4);
	buf[4] = 2;
	memcpy(buf + 5, "x", 2);
	memcpy(buf + 7, &(int16_t){ 4 }, 2);
	memcpy(buf + 9, &(int32_t){ 9 }, 4);
	check_payload(&ev[0], buf, 13);

	/* TraceLogging: Struct(count, name [, description [, tag]]). */
	mark();
	assert_int_equal(TraceLoggingWrite(mprov, "TlgNest",
					   TraceLoggingStruct(2, "s"),
					   TraceLoggingInt32(1, "a"),
					   TraceLoggingStruct(1, "t", "d", 0x66),
					   TraceLoggingInt32(2, "b")),
			 0);
	read_one();
	assert_int_equal(ev[0].n_fields, 4);
	assert_int_equal(ev[0].f[0].enc, EH_ENC_STRUCT);
	assert_int_equal(ev[0].f[0].fmt, 2);
	assert_int_equal(ev[0].f[2].enc, EH_ENC_STRUCT);
	assert_int_equal(ev[0].f[2].fmt, 1);
	assert_int_equal(ev[0].f[2].tag, 0x66);
	assert_int_equal(ev[0].payload_size, 8);
}

static void test_struct_array(void **state)
{
	static const unsigned char data[9] = { 1, 0, 0xa, 2, 0, 0xb, 3, 0, 0xc };
	unsigned char buf[16];

	(void)state;
	mark();
	assert_int_equal(EH_WRITE(mprov, "StructArray",
				  EH_STRUCT_ARRAY("sa", 2, 3),
				  EH_PACKED_META("x", EH_ENC_VALUE16, 0),
				  EH_PACKED_META("y", EH_ENC_VALUE8,
						 EH_FMT_HEX_INT, 0x77),
				  EH_PACKED_DATA(data, sizeof(data))),
			 0);
	read_one();
	assert_int_equal(ev[0].n_fields, 3);
	assert_int_equal(ev[0].f[0].enc, EH_ENC_STRUCT | EH_ENC_VARRAY_FLAG);
	assert_int_equal(ev[0].f[0].fmt, 2);
	assert_int_equal(ev[0].f[1].enc, EH_ENC_VALUE16);
	assert_int_equal(ev[0].f[1].fmt, 0);
	assert_int_equal(ev[0].f[2].enc, EH_ENC_VALUE8);
	assert_int_equal(ev[0].f[2].fmt, EH_FMT_HEX_INT);
	assert_int_equal(ev[0].f[2].tag, 0x77);
	memcpy(buf, &(uint16_t){ 3 }, 2);
	memcpy(buf + 2, data, sizeof(data));
	check_payload(&ev[0], buf, 2 + sizeof(data));

	/* A packed field: declaration and bytes as given. */
	mark();
	assert_int_equal(EH_WRITE(mprov, "Packed",
				  EH_PACKED_FIELD("p", data, 4,
						  EH_ENC_VALUE32,
						  EH_FMT_HEX_INT)),
			 0);
	read_one();
	assert_int_equal(ev[0].f[0].enc, EH_ENC_VALUE32);
	assert_int_equal(ev[0].f[0].fmt, EH_FMT_HEX_INT);
	check_payload(&ev[0], data, 4);
}

/*
 * Activity ids
 */

static void check_activity(int rc, const void *aid, const void *rid)
{
	assert_int_equal(rc, 0);
	read_one();
	assert_int_equal(ev[0].h.flags, EH_FLAG_DEFAULT_WITH_EXTENSION);
	if (!aid) {
		assert_int_equal(ev[0].n_ext, 1);
		assert_int_equal(ev[0].ext[0].kind, EH_EXT_METADATA);
		return;
	}
	assert_int_equal(ev[0].n_ext, 2);
	/* The activity id first, chained to the metadata, which is last. */
	assert_int_equal(ev[0].ext[0].kind,
			 EH_EXT_ACTIVITY_ID | EH_EXT_CHAIN_FLAG);
	assert_int_equal(ev[0].ext[0].size, rid ? 32 : 16);
	assert_memory_equal(ev[0].ext_data[0], aid, 16);
	if (rid)
		assert_memory_equal(ev[0].ext_data[0] + 16, rid, 16);
	assert_int_equal(ev[0].ext[1].kind, EH_EXT_METADATA);
	assert_string_equal(ev[0].name, "Act");
	/* The activity extension sits right after the header. */
	assert_ptr_equal(ev[0].ext_data[0], ev[0].bytes + 8 + 4);
	assert_ptr_equal(ev[0].ext_data[1],
			 ev[0].bytes + 8 + 4 + (rid ? 32 : 16) + 4);
}

static void test_activity(void **state)
{
	(void)state;
	mark();
	check_activity(EH_WRITE_ACTIVITY(mprov, "Act", id1, NULL,
					 EH_OPCODE(EH_OPCODE_ACTIVITY_START),
					 EH_INT32("i", 1)),
		       id1, NULL);
	assert_int_equal(ev[0].h.opcode, EH_OPCODE_ACTIVITY_START);
	assert_int_equal(ev[0].payload_size, 4);
	mark();
	check_activity(EH_WRITE_ACTIVITY(mprov, "Act", id1, id2,
					 EH_OPCODE(EH_OPCODE_ACTIVITY_START)),
		       id1, id2);
	assert_int_equal(ev[0].payload_size, 0);
	mark();
	check_activity(TraceLoggingWriteActivity(mprov, "Act", id2, id1,
						 TraceLoggingInt32(3, "i")),
		       id2, id1);
	mark();
	check_activity(EH_WRITE_ACTIVITY(mprov, "Act", id1, NULL,
					 EH_OPCODE(EH_OPCODE_ACTIVITY_STOP)),
		       id1, NULL);
	/* No activity id: no extension (a related id alone is dropped). */
	mark();
	check_activity(EH_WRITE_ACTIVITY(mprov, "Act", NULL, NULL), NULL,
		       NULL);
	mark();
	check_activity(EH_WRITE_ACTIVITY(mprov, "Act", NULL, id2,
					 EH_INT32("i", 1)),
		       NULL, NULL);
}

/*
 * Every native field macro: scalar, scalar with tag, variable array and
 * constant array, by their encoding, format and value bytes.
 */

struct native {
	const char *macro;
	uint8_t enc;
	uint8_t fmt;	/* 0: no format byte */
	size_t size;	/* bytes of one value */
	const void *value;
};

static void check_native(const struct native *n, int rc, int kind)
{
	unsigned char buf[64];
	const struct field *f = &ev[0].f[0];
	size_t i;

	if (rc != 0)
		fail_msg("%s (kind %d): write returned %d", n->macro, kind, rc);
	read_one();
	if (ev[0].n_fields != 1 || strcmp(f->name, "f") != 0)
		fail_msg("%s (kind %d): bad metadata", n->macro, kind);
	switch (kind) {
	case 0:	/* scalar */
	case 1:	/* scalar with tag 0x1234 */
		if (f->enc != n->enc)
			fail_msg("%s: encoding %#x, expected %#x", n->macro,
				 f->enc, n->enc);
		memcpy(buf, n->value, n->size);
		i = n->size;
		break;
	case 2:	/* EH_..._ARRAY(name, values, 3) */
		if (f->enc != (n->enc | EH_ENC_VARRAY_FLAG) || f->has_count)
			fail_msg("%s_ARRAY: encoding %#x, expected %#x",
				 n->macro, f->enc, n->enc | EH_ENC_VARRAY_FLAG);
		memcpy(buf, &(uint16_t){ 3 }, 2);
		for (i = 0; i < 3; i++)
			memcpy(buf + 2 + i * n->size, n->value, n->size);
		i = 2 + 3 * n->size;
		break;
	default: /* EH_..._FIXED_ARRAY(name, values, 3) */
		if (f->enc != (n->enc | EH_ENC_CARRAY_FLAG) || !f->has_count ||
		    f->count != 3)
			fail_msg("%s_FIXED_ARRAY: encoding %#x count %d, "
				 "expected %#x count 3", n->macro, f->enc,
				 f->has_count ? f->count : -1,
				 n->enc | EH_ENC_CARRAY_FLAG);
		for (i = 0; i < 3; i++)
			memcpy(buf + i * n->size, n->value, n->size);
		i = 3 * n->size;
		break;
	}
	if (kind == 1) {
		if (!f->has_fmt || f->fmt != n->fmt || !f->has_tag ||
		    f->tag != 0x1234)
			fail_msg("%s with tag: format %#x tag %#x", n->macro,
				 f->fmt, f->tag);
	} else if (f->has_fmt != (n->fmt != 0) || f->fmt != n->fmt ||
		   f->has_tag) {
		fail_msg("%s (kind %d): format %#x (present %d), expected %#x",
			 n->macro, kind, f->fmt, f->has_fmt, n->fmt);
	}
	if (ev[0].payload_size != i || memcmp(ev[0].payload, buf, i) != 0)
		fail_msg("%s (kind %d): payload of %zu bytes, expected %zu",
			 n->macro, kind, ev[0].payload_size, i);
}

/* X(name, C type, value, encoding, format) for EH_<name> and the TraceLogging name. */
#define NATIVE_TYPES(X)                                                        \
	X(INT8, Int8, int8_t, -5, EH_ENC_VALUE8, EH_FMT_SIGNED_INT)            \
	X(UINT8, UInt8, uint8_t, 200, EH_ENC_VALUE8, 0)                        \
	X(INT16, Int16, int16_t, -300, EH_ENC_VALUE16, EH_FMT_SIGNED_INT)      \
	X(UINT16, UInt16, uint16_t, 60000, EH_ENC_VALUE16, 0)                  \
	X(INT32, Int32, int32_t, -70000, EH_ENC_VALUE32, EH_FMT_SIGNED_INT)    \
	X(UINT32, UInt32, uint32_t, 4000000000u, EH_ENC_VALUE32, 0)            \
	X(INT64, Int64, int64_t, -5000000000000LL, EH_ENC_VALUE64,             \
	  EH_FMT_SIGNED_INT)                                                   \
	X(UINT64, UInt64, uint64_t, 0xfedcba9876543210ULL, EH_ENC_VALUE64, 0)  \
	X(INTPTR, IntPtr, intptr_t, -12345, EH_ENC_VALUE_PTR,                  \
	  EH_FMT_SIGNED_INT)                                                   \
	X(UINTPTR, UIntPtr, uintptr_t, 12345, EH_ENC_VALUE_PTR, 0)             \
	X(LONG, Long, long, -123456789L, EH_ENC_VALUE_LONG, EH_FMT_SIGNED_INT) \
	X(ULONG, ULong, unsigned long, 123456789UL, EH_ENC_VALUE_LONG, 0)      \
	X(HEXINT8, HexInt8, int8_t, -2, EH_ENC_VALUE8, EH_FMT_HEX_INT)         \
	X(HEXUINT8, HexUInt8, uint8_t, 0xfe, EH_ENC_VALUE8, EH_FMT_HEX_INT)    \
	X(HEXINT16, HexInt16, int16_t, -2, EH_ENC_VALUE16, EH_FMT_HEX_INT)     \
	X(HEXUINT16, HexUInt16, uint16_t, 0xfedc, EH_ENC_VALUE16,              \
	  EH_FMT_HEX_INT)                                                      \
	X(HEXINT32, HexInt32, int32_t, -2, EH_ENC_VALUE32, EH_FMT_HEX_INT)     \
	X(HEXUINT32, HexUInt32, uint32_t, 0xfedcba98u, EH_ENC_VALUE32,         \
	  EH_FMT_HEX_INT)                                                      \
	X(HEXINT64, HexInt64, int64_t, -2, EH_ENC_VALUE64, EH_FMT_HEX_INT)     \
	X(HEXUINT64, HexUInt64, uint64_t, 0xfedcba9876543210ULL,               \
	  EH_ENC_VALUE64, EH_FMT_HEX_INT)                                      \
	X(HEXINTPTR, HexIntPtr, intptr_t, -2, EH_ENC_VALUE_PTR,                \
	  EH_FMT_HEX_INT)                                                      \
	X(HEXUINTPTR, HexUIntPtr, uintptr_t, 0xabcdef, EH_ENC_VALUE_PTR,       \
	  EH_FMT_HEX_INT)                                                      \
	X(HEXLONG, HexLong, long, -2L, EH_ENC_VALUE_LONG, EH_FMT_HEX_INT)      \
	X(HEXULONG, HexULong, unsigned long, 0xabcdefUL, EH_ENC_VALUE_LONG,    \
	  EH_FMT_HEX_INT)                                                      \
	X(FLOAT32, Float32, float, 1.5f, EH_ENC_VALUE32, EH_FMT_FLOAT)         \
	X(FLOAT64, Float64, double, -2.25, EH_ENC_VALUE64, EH_FMT_FLOAT)       \
	X(BOOL8, Boolean, uint8_t, 1, EH_ENC_VALUE8, EH_FMT_BOOLEAN)           \
	X(BOOL32, Bool, int32_t, 1, EH_ENC_VALUE32, EH_FMT_BOOLEAN)            \
	X(CHAR8, Char, char, 'x', EH_ENC_VALUE8, EH_FMT_STRING8)               \
	X(CHAR16, Char16, eh_char16_t, 0x263a, EH_ENC_VALUE16,                 \
	  EH_FMT_STRING_UTF)                                                   \
	X(CHAR32, Char32, eh_char32_t, 0x1f600, EH_ENC_VALUE32,                \
	  EH_FMT_STRING_UTF)                                                   \
	X(WCHAR, WChar, wchar_t, L'w', EH_ENC_VALUE_WCHAR, EH_FMT_STRING_UTF)  \
	X(POINTER, Pointer, const void *, &big[1], EH_ENC_VALUE_PTR,           \
	  EH_FMT_HEX_INT)                                                      \
	X(PID, Pid, int32_t, 4242, EH_ENC_VALUE32, EH_FMT_PID)                 \
	X(PORT, Port, uint16_t, 0x5000, EH_ENC_VALUE16, EH_FMT_PORT)           \
	X(ERRNO, Errno, int32_t, 2, EH_ENC_VALUE32, EH_FMT_ERRNO)              \
	X(TIME32, Time32, int32_t, 1700000000, EH_ENC_VALUE32, EH_FMT_TIME)    \
	X(TIME64, Time64, int64_t, 17000000000LL, EH_ENC_VALUE64, EH_FMT_TIME)

#define NATIVE_EH(N, T, ctype, val, enc, fmt)                                  \
	do {                                                                   \
		ctype v[3] = { (ctype)(val), (ctype)(val), (ctype)(val) };       \
		const struct native n = { "EH_" #N, enc, fmt, sizeof(ctype),   \
					  v };                                 \
		mark();                                                        \
		check_native(&n, EH_WRITE(mprov, "Native", EH_##N("f", v[0])), \
			     0);                                               \
		mark();                                                        \
		check_native(&n,                                               \
			     EH_WRITE(mprov, "Native",                         \
				      EH_##N("f", v[0], 0x1234)),              \
			     1);                                               \
		mark();                                                        \
		check_native(&n,                                               \
			     EH_WRITE(mprov, "Native",                         \
				      EH_##N##_ARRAY("f", v, 3)),              \
			     2);                                               \
		mark();                                                        \
		check_native(&n,                                               \
			     EH_WRITE(mprov, "Native",                         \
				      EH_##N##_FIXED_ARRAY("f", v, 3)),        \
			     3);                                               \
	} while (0);

#define NATIVE_TLG(N, T, ctype, val, enc, fmt)                                 \
	do {                                                                   \
		ctype v[3] = { (ctype)(val), (ctype)(val), (ctype)(val) };       \
		const struct native n = { "TraceLogging" #T, enc, fmt,         \
					  sizeof(ctype), v };                  \
		mark();                                                        \
		check_native(&n,                                               \
			     TraceLoggingWrite(mprov, "Native",                \
					       TraceLogging##T(v[0], "f")),    \
			     0);                                               \
		mark();                                                        \
		check_native(&n,                                               \
			     TraceLoggingWrite(mprov, "Native",                \
					       TraceLogging##T(v[0], "f", "d", \
							       0x1234)),       \
			     1);                                               \
		mark();                                                        \
		check_native(&n,                                               \
			     TraceLoggingWrite(mprov, "Native",                \
					       TraceLogging##T##Array(v, 3,    \
								      "f")),   \
			     2);                                               \
		mark();                                                        \
		check_native(&n,                                               \
			     TraceLoggingWrite(mprov, "Native",                \
					       TraceLogging##T##FixedArray(    \
						       v, 3, "f")),            \
			     3);                                               \
	} while (0);

static void test_native_fields(void **state)
{
	(void)state;
	NATIVE_TYPES(NATIVE_EH)
}

static void test_native_fields_tlg(void **state)
{
	(void)state;
	NATIVE_TYPES(NATIVE_TLG)
}

static void test_guid_ip(void **state)
{
	uint32_t v4 = 0x0100007f;

	(void)state;
	mark();
	assert_int_equal(EH_WRITE(mprov, "Addr", EH_GUID("g", id1),
				  EH_IPV4("a4", v4), EH_IPV6("a6", id2),
				  EH_GUID("t", id2, 0x99)),
			 0);
	read_one();
	assert_int_equal(ev[0].n_fields, 4);
	assert_int_equal(ev[0].f[0].enc, EH_ENC_VALUE128);
	assert_int_equal(ev[0].f[0].fmt, EH_FMT_UUID);
	assert_int_equal(ev[0].f[1].enc, EH_ENC_VALUE32);
	assert_int_equal(ev[0].f[1].fmt, EH_FMT_IP_ADDRESS);
	assert_int_equal(ev[0].f[2].enc, EH_ENC_VALUE128);
	assert_int_equal(ev[0].f[2].fmt, EH_FMT_IP_ADDRESS);
	assert_int_equal(ev[0].f[3].fmt, EH_FMT_UUID);
	assert_int_equal(ev[0].f[3].tag, 0x99);
	assert_int_equal(ev[0].payload_size, 16 + 4 + 16 + 16);
	assert_memory_equal(ev[0].payload, id1, 16);
	assert_memory_equal(ev[0].payload + 16, &v4, 4);
	assert_memory_equal(ev[0].payload + 20, id2, 16);
	assert_memory_equal(ev[0].payload + 36, id2, 16);

	mark();
	assert_int_equal(TraceLoggingWrite(mprov, "TlgAddr",
					   TraceLoggingGuid(id1, "g"),
					   TraceLoggingIPv4Address(v4, "a4"),
					   TraceLoggingIPv6Address(id2, "a6")),
			 0);
	read_one();
	assert_int_equal(ev[0].f[0].fmt, EH_FMT_UUID);
	assert_int_equal(ev[0].f[1].fmt, EH_FMT_IP_ADDRESS);
	/* LinuxTracepoints' TraceLoggingIPv6Address keeps the old format. */
	assert_int_equal(ev[0].f[2].fmt, EH_FMT_IP_ADDRESS_OBSOLETE);
	assert_int_equal(ev[0].payload_size, 36);
}

/*
 * Default field names of the TraceLogging macros: the value expression.
 */
static void test_tlg_default_names(void **state)
{
	int32_t count = 3;

	(void)state;
	mark();
	assert_int_equal(TraceLoggingWrite(mprov, "Names",
					   TraceLoggingInt32(count),
					   TraceLoggingInt32(count + 1),
					   TraceLoggingString("lit")),
			 0);
	read_one();
	assert_int_equal(ev[0].n_fields, 3);
	assert_string_equal(ev[0].f[0].name, "count");
	assert_string_equal(ev[0].f[1].name, "count + 1");
	assert_string_equal(ev[0].f[2].name, "\"lit\"");
}

/* Last: unregistering disables every write; registering again works. */
/*
 * Plain tracepoints: the record holds the field bytes as given, and an
 * event with no data gets one 0 byte (as LinuxTracepoints does: empty
 * user_events writes were not recorded correctly by some kernels; 6.12
 * takes both, see tests/vm/vm-raw.c).
 */
static void read_raw_since_mark(unsigned char *buf, size_t cap, size_t *len)
{
	FILE *f = fopen(path, "rb");

	assert_non_null(f);
	assert_int_equal(fseeko(f, mark_pos, SEEK_SET), 0);
	*len = fread(buf, 1, cap, f);
	fclose(f);
}

static void test_raw_tracepoints(void **state)
{
	static struct eh_tracepoint tp = EH_TRACEPOINT_INIT(0, 0);
	static struct eh_tracepoint empty = EH_TRACEPOINT_INIT(0, 0);
	static const unsigned char want_tp[] = "TestRaw\0\x2a\0\0\0\xef\xbe";
	static const unsigned char want_empty[] = "TestRawEmpty\0\0";
	unsigned char buf[64];
	uint32_t count = 42;
	uint16_t code = 0xbeef;
	struct iovec iov[3];
	size_t len;

	(void)state;
	assert_int_equal(eh_tracepoint_register_raw(&tp, "TestRaw u32 count; u16 code"), 0);
	assert_int_equal(eh_tracepoint_register_raw(&empty, "TestRawEmpty"), 0);
	assert_int_equal(eh_tracepoint_register_raw(&empty, "TestRawEmpty"), EBUSY);

	mark();
	iov[1].iov_base = &count;
	iov[1].iov_len = sizeof(count);
	iov[2].iov_base = &code;
	iov[2].iov_len = sizeof(code);
	assert_int_equal(eh_tracepoint_write_raw(&tp, iov, 3), 0);
	read_raw_since_mark(buf, sizeof(buf), &len);
	assert_int_equal(len, 4 + sizeof(want_tp) - 1);
	assert_int_equal(buf[0], len);
	assert_memory_equal(buf + 4, want_tp, sizeof(want_tp) - 1);

	mark();
	assert_int_equal(eh_tracepoint_write_raw(&empty, iov, 1), 0);
	read_raw_since_mark(buf, sizeof(buf), &len);
	assert_int_equal(len, 4 + sizeof(want_empty) - 1);
	assert_memory_equal(buf + 4, want_empty, sizeof(want_empty) - 1);

	eh_tracepoint_unregister_raw(&tp);
	eh_tracepoint_unregister_raw(&empty);
	assert_int_equal(eh_tracepoint_write_raw(&empty, iov, 1), EBADF);
}

/*
 * Registration from many threads at once: every tracepoint gets its own
 * write index (the interceptor's name table is shared state).
 */
#define REG_THREADS 8
#define REG_EACH 256
static struct eh_tracepoint reg_tps[REG_THREADS][REG_EACH];

static void *register_many(void *arg)
{
	struct eh_tracepoint *tps = arg;
	long failed = 0;
	int i;

	for (i = 0; i < REG_EACH; i++) {
		struct eh_tracepoint tp = EH_TRACEPOINT_INIT(4, (uint64_t)i + 1);

		tps[i] = tp;
		failed += eh_tracepoint_register(&tps[i], &mprov) != 0;
	}
	return (void *)failed;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static void test_concurrent_registration(void **state)
{
	static int idx[REG_THREADS * REG_EACH];
	pthread_t t[REG_THREADS];
	void *failed;
	int i, j;

	(void)state;
	for (i = 0; i < REG_THREADS; i++)
		assert_int_equal(pthread_create(&t[i], NULL, register_many,
						reg_tps[i]), 0);
	for (i = 0; i < REG_THREADS; i++) {
		assert_int_equal(pthread_join(t[i], &failed), 0);
		assert_null(failed);
	}
	for (i = 0; i < REG_THREADS; i++)
		for (j = 0; j < REG_EACH; j++) {
			assert_true(eh_tracepoint_enabled(&reg_tps[i][j]));
			idx[i * REG_EACH + j] = reg_tps[i][j].write_index;
		}
	qsort(idx, REG_THREADS * REG_EACH, sizeof(idx[0]), cmp_int);
	assert_true(idx[0] >= 0);
	for (i = 1; i < REG_THREADS * REG_EACH; i++)
		assert_true(idx[i] > idx[i - 1]);
	for (i = 0; i < REG_THREADS; i++)
		for (j = 0; j < REG_EACH; j++)
			eh_tracepoint_unregister(&reg_tps[i][j]);
}

static void test_unregister(void **state)
{
	(void)state;
	EH_UNREGISTER(mprov);
	evaluated = 0;
	mark();
	assert_int_equal(EH_WRITE(mprov, "Off", EH_INT32("i", ival(1))), EBADF);
	assert_int_equal(EH_ENABLED(mprov, 4, 1), 0);
	assert_int_equal(evaluated, 0);
	assert_int_equal(read_new(), 0);
	/* The other provider is not affected. */
	mark();
	assert_int_equal(EH_WRITE(mgroup, "On", EH_LEVEL(2), EH_KEYWORD(0xab)),
			 0);
	read_one();
	assert_string_equal(ev[0].tp, "TestMacros_L2KabGgrp1");

	assert_int_equal(EH_REGISTER(mprov), 0);
	assert_int_equal(EH_REGISTER(mprov), EALREADY);
	mark();
	assert_int_equal(EH_WRITE(mprov, "On", EH_INT32("i", ival(1))), 0);
	assert_int_equal(evaluated, 1);
	read_one();
	assert_string_equal(ev[0].tp, TP_DEFAULT);
	assert_string_equal(ev[0].name, "On");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_group_name),
		cmocka_unit_test(test_attributes_last_wins),
		cmocka_unit_test(test_enabled),
		cmocka_unit_test(test_args_once),
		cmocka_unit_test(test_not_registered),
		cmocka_unit_test(test_e2big),
		cmocka_unit_test(test_event_max_boundary),
		cmocka_unit_test(test_gather_boundary),
		cmocka_unit_test(test_copy_lengths),
		cmocka_unit_test(test_count_clamp),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_null_strings),
		cmocka_unit_test(test_counted_strings),
		cmocka_unit_test(test_array_encodings),
		cmocka_unit_test(test_struct_nesting),
		cmocka_unit_test(test_struct_array),
		cmocka_unit_test(test_activity),
		cmocka_unit_test(test_native_fields),
		cmocka_unit_test(test_native_fields_tlg),
		cmocka_unit_test(test_guid_ip),
		cmocka_unit_test(test_tlg_default_names),
		cmocka_unit_test(test_concurrent_registration),
		cmocka_unit_test(test_raw_tracepoints),
		cmocka_unit_test(test_unregister),
	};
	int fd, rc;

	fd = mkstemp(path);
	if (fd < 0) {
		perror("mkstemp");
		return 1;
	}
	close(fd);
	setenv("EH_INTERCEPTOR_FILE", path, 1);
	rc = cmocka_run_group_tests(tests, setup, teardown);
	unlink(path);
	return rc ? 1 : 0;
}
