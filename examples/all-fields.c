// SPDX-License-Identifier: MIT
/*
 * all-fields - every field macro of eh-provider.h, in five events
 *
 *	all-fields
 *
 * Writes these events to the tracepoint EhExample_AllFields_L4K1 (level 4,
 * keyword 0x1), which between them use each field macro once or more:
 *
 *	Scalars      one value of each scalar kind: integers, hex integers,
 *	             floats, booleans, characters, a pointer, pid, port,
 *	             errno, times, IPv4, IPv6, a GUID, and a field with a tag
 *	Strings      NUL-terminated and counted strings of 8, 16 and 32-bit
 *	             units, JSON and XML text, bytes
 *	Arrays       each kind as a variable array (count sent with the data)
 *	FixedArrays  each kind as a fixed array (count in the metadata)
 *	Structs      a struct in a struct, an array of structs, and a field
 *	             given as bytes (EH_STRUCT, EH_STRUCT_ARRAY, EH_PACKED_*)
 *
 * Record and look at it with
 *
 *	ehrecord -o all-fields.nettrace -e EhExample_AllFields_L4K1 -- ./all-fields
 *	ehdecode -F text all-fields.nettrace
 *
 * EH_VALUE(), which picks the kind from a C++ type, is C++ only and is not
 * used here. Exit status 0, with or without tracing.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>

#include <eventheader/eh-provider.h>

EH_DEFINE_PROVIDER(all_fields, "EhExample_AllFields");

/* Two elements of each C type the array macros take. */
static const int8_t i8[2] = { -8, 8 };
static const uint8_t u8[2] = { 0, 255 };
static const int16_t i16[2] = { -16, 16 };
static const uint16_t u16[2] = { 80, 443 };
static const int32_t i32[2] = { -32, 32 };
static const uint32_t u32[2] = { 0, 0xffffffffu };
static const int64_t i64[2] = { -64, 64 };
static const uint64_t u64[2] = { 1, 0x8000000000000000ull };
static const intptr_t iptr[2] = { -1, 1 };
static const uintptr_t uptr[2] = { 0x1000, 0x2000 };
static const long lng[2] = { -1L, 1L };
static const unsigned long ulng[2] = { 1UL, 2UL };
static const float f32[2] = { 0.5f, -1.25f };
static const double f64[2] = { 3.141592653589793, 2.718281828459045 };
static const uint8_t b8[2] = { 0, 1 };
static const int32_t b32[2] = { 1, 0 };
static const char c8[2] = { 'h', 'i' };
static const eh_char16_t c16[3] = { 'h', 'i', 0 };
static const eh_char32_t c32[3] = { 'h', 'i', 0 };
static const wchar_t wc[3] = { L'h', L'i', 0 };
static const void *const ptrs[2] = { NULL, &i8 };
static const int32_t errnos[2] = { 0, ENOENT };
static const int32_t t32[2] = { 0, 1700000000 };
static const int64_t t64[2] = { 0, 1700000000 };

/* RFC 4122 byte order; the IPv6 address is ::1. */
static const uint8_t guid[16] = { 0x3b, 0x2c, 0x1d, 0x0e, 0x4f, 0x5a, 0x46,
				  0x6b, 0x8c, 0x7d, 0x6e, 0x5f, 0x4a, 0x3b,
				  0x2c, 0x1d };
static const uint8_t ipv6[16] = { [15] = 1 };

static int write_scalars(void)
{
	int32_t pid = getpid();

	return EH_WRITE(all_fields, "Scalars", EH_LEVEL(EH_LEVEL_INFO),
			EH_KEYWORD(0x1),
			EH_INT8("int8", -8), EH_UINT8("uint8", 8),
			EH_INT16("int16", -16), EH_UINT16("uint16", 16),
			EH_INT32("int32", -32), EH_UINT32("uint32", 32),
			EH_INT64("int64", -64), EH_UINT64("uint64", 64),
			EH_INTPTR("intptr", -1), EH_UINTPTR("uintptr", 1),
			EH_LONG("long", -1L), EH_ULONG("ulong", 1UL),
			EH_HEXINT8("hexint8", 0x7f), EH_HEXUINT8("hexuint8", 0xff),
			EH_HEXINT16("hexint16", 0x7fff),
			EH_HEXUINT16("hexuint16", 0xffff),
			EH_HEXINT32("hexint32", 0x12345678),
			EH_HEXUINT32("hexuint32", 0xdeadbeef),
			EH_HEXINT64("hexint64", 0x123456789abcdefll),
			EH_HEXUINT64("hexuint64", 0xfedcba9876543210ull),
			EH_HEXINTPTR("hexintptr", 0x1000),
			EH_HEXUINTPTR("hexuintptr", 0x2000),
			EH_HEXLONG("hexlong", 0x10L),
			EH_HEXULONG("hexulong", 0x20UL),
			EH_FLOAT32("float32", 0.5f),
			EH_FLOAT64("float64", 3.141592653589793),
			EH_BOOL8("bool8", 1), EH_BOOL32("bool32", 0),
			EH_CHAR8("char8", 'A'), EH_CHAR16("char16", 0x00e9),
			EH_CHAR32("char32", 0x1f600), EH_WCHAR("wchar", L'w'),
			EH_POINTER("pointer", &pid), EH_PID("pid", pid),
			EH_PORT("port", htons(80)),
			EH_ERRNO("errno", ENOENT),
			EH_TIME32("time32", 1700000000),
			EH_TIME64("time64", 1700000000),
			EH_IPV4("ipv4", htonl(0x7f000001)),	/* 127.0.0.1 */
			EH_IPV6("ipv6", ipv6), EH_GUID("guid", guid),
			EH_UINT32("tagged", 7, 0x1234));
}

static int write_strings(void)
{
	return EH_WRITE(all_fields, "Strings", EH_LEVEL(EH_LEVEL_INFO),
			EH_KEYWORD(0x1),
			EH_STRING8("latin1", "caf\xe9"),
			EH_STRING_UTF8("utf8", "caf\xc3\xa9"),
			EH_STRING16("utf16", c16), EH_STRING32("utf32", c32),
			EH_WSTRING("wide", wc),
			EH_STRING_JSON("json", "{\"a\":1}"),
			EH_STRING_XML("xml", "<a>1</a>"),
			EH_COUNTED_STRING8("counted8", "hello", 5),
			EH_COUNTED_STRING_UTF8("countedutf8", "hello", 5),
			EH_COUNTED_STRING16("counted16", c16, 2),
			EH_COUNTED_STRING32("counted32", c32, 2),
			EH_COUNTED_WSTRING("countedwide", wc, 2),
			EH_BINARY("binary", guid, 4));
}

static int write_arrays(void)
{
	const uint16_t ports[2] = { htons(80), htons(443) };
	const int32_t pids[2] = { 1, getpid() };

	return EH_WRITE(all_fields, "Arrays", EH_LEVEL(EH_LEVEL_INFO),
			EH_KEYWORD(0x1),
			EH_INT8_ARRAY("int8", i8, 2),
			EH_UINT8_ARRAY("uint8", u8, 2),
			EH_INT16_ARRAY("int16", i16, 2),
			EH_UINT16_ARRAY("uint16", u16, 2),
			EH_INT32_ARRAY("int32", i32, 2),
			EH_UINT32_ARRAY("uint32", u32, 2),
			EH_INT64_ARRAY("int64", i64, 2),
			EH_UINT64_ARRAY("uint64", u64, 2),
			EH_INTPTR_ARRAY("intptr", iptr, 2),
			EH_UINTPTR_ARRAY("uintptr", uptr, 2),
			EH_LONG_ARRAY("long", lng, 2),
			EH_ULONG_ARRAY("ulong", ulng, 2),
			EH_HEXINT8_ARRAY("hexint8", i8, 2),
			EH_HEXUINT8_ARRAY("hexuint8", u8, 2),
			EH_HEXINT16_ARRAY("hexint16", i16, 2),
			EH_HEXUINT16_ARRAY("hexuint16", u16, 2),
			EH_HEXINT32_ARRAY("hexint32", i32, 2),
			EH_HEXUINT32_ARRAY("hexuint32", u32, 2),
			EH_HEXINT64_ARRAY("hexint64", i64, 2),
			EH_HEXUINT64_ARRAY("hexuint64", u64, 2),
			EH_HEXINTPTR_ARRAY("hexintptr", iptr, 2),
			EH_HEXUINTPTR_ARRAY("hexuintptr", uptr, 2),
			EH_HEXLONG_ARRAY("hexlong", lng, 2),
			EH_HEXULONG_ARRAY("hexulong", ulng, 2),
			EH_FLOAT32_ARRAY("float32", f32, 2),
			EH_FLOAT64_ARRAY("float64", f64, 2),
			EH_BOOL8_ARRAY("bool8", b8, 2),
			EH_BOOL32_ARRAY("bool32", b32, 2),
			EH_CHAR8_ARRAY("char8", c8, 2),
			EH_CHAR16_ARRAY("char16", c16, 2),
			EH_CHAR32_ARRAY("char32", c32, 2),
			EH_WCHAR_ARRAY("wchar", wc, 2),
			EH_POINTER_ARRAY("pointer", ptrs, 2),
			EH_PID_ARRAY("pid", pids, 2),
			EH_PORT_ARRAY("port", ports, 2),
			EH_ERRNO_ARRAY("errno", errnos, 2),
			EH_TIME32_ARRAY("time32", t32, 2),
			EH_TIME64_ARRAY("time64", t64, 2));
}

static int write_fixed_arrays(void)
{
	const uint16_t ports[2] = { htons(80), htons(443) };
	const int32_t pids[2] = { 1, getpid() };

	return EH_WRITE(all_fields, "FixedArrays", EH_LEVEL(EH_LEVEL_INFO),
			EH_KEYWORD(0x1),
			EH_INT8_FIXED_ARRAY("int8", i8, 2),
			EH_UINT8_FIXED_ARRAY("uint8", u8, 2),
			EH_INT16_FIXED_ARRAY("int16", i16, 2),
			EH_UINT16_FIXED_ARRAY("uint16", u16, 2),
			EH_INT32_FIXED_ARRAY("int32", i32, 2),
			EH_UINT32_FIXED_ARRAY("uint32", u32, 2),
			EH_INT64_FIXED_ARRAY("int64", i64, 2),
			EH_UINT64_FIXED_ARRAY("uint64", u64, 2),
			EH_INTPTR_FIXED_ARRAY("intptr", iptr, 2),
			EH_UINTPTR_FIXED_ARRAY("uintptr", uptr, 2),
			EH_LONG_FIXED_ARRAY("long", lng, 2),
			EH_ULONG_FIXED_ARRAY("ulong", ulng, 2),
			EH_HEXINT8_FIXED_ARRAY("hexint8", i8, 2),
			EH_HEXUINT8_FIXED_ARRAY("hexuint8", u8, 2),
			EH_HEXINT16_FIXED_ARRAY("hexint16", i16, 2),
			EH_HEXUINT16_FIXED_ARRAY("hexuint16", u16, 2),
			EH_HEXINT32_FIXED_ARRAY("hexint32", i32, 2),
			EH_HEXUINT32_FIXED_ARRAY("hexuint32", u32, 2),
			EH_HEXINT64_FIXED_ARRAY("hexint64", i64, 2),
			EH_HEXUINT64_FIXED_ARRAY("hexuint64", u64, 2),
			EH_HEXINTPTR_FIXED_ARRAY("hexintptr", iptr, 2),
			EH_HEXUINTPTR_FIXED_ARRAY("hexuintptr", uptr, 2),
			EH_HEXLONG_FIXED_ARRAY("hexlong", lng, 2),
			EH_HEXULONG_FIXED_ARRAY("hexulong", ulng, 2),
			EH_FLOAT32_FIXED_ARRAY("float32", f32, 2),
			EH_FLOAT64_FIXED_ARRAY("float64", f64, 2),
			EH_BOOL8_FIXED_ARRAY("bool8", b8, 2),
			EH_BOOL32_FIXED_ARRAY("bool32", b32, 2),
			EH_CHAR8_FIXED_ARRAY("char8", c8, 2),
			EH_CHAR16_FIXED_ARRAY("char16", c16, 2),
			EH_CHAR32_FIXED_ARRAY("char32", c32, 2),
			EH_WCHAR_FIXED_ARRAY("wchar", wc, 2),
			EH_POINTER_FIXED_ARRAY("pointer", ptrs, 2),
			EH_PID_FIXED_ARRAY("pid", pids, 2),
			EH_PORT_FIXED_ARRAY("port", ports, 2),
			EH_ERRNO_FIXED_ARRAY("errno", errnos, 2),
			EH_TIME32_FIXED_ARRAY("time32", t32, 2),
			EH_TIME64_FIXED_ARRAY("time64", t64, 2));
}

/* Elements of an array of structs, as the format lays them out. */
struct __attribute__((packed)) point {
	int32_t x;
	int32_t y;
};

static int write_structs(void)
{
	static const struct point points[3] = { { 0, 0 }, { 3, 4 }, { -1, 2 } };
	static const uint16_t raw = 0x1234;

	return EH_WRITE(all_fields, "Structs", EH_LEVEL(EH_LEVEL_INFO),
			EH_KEYWORD(0x1),
			/* "file" holds "name" and "size", which holds two */
			EH_STRUCT("file", 2),
			EH_STRING_UTF8("name", "/etc/hostname"),
			EH_STRUCT("size", 2, 0x10),	/* with a field tag */
			EH_UINT64("bytes", 4096),
			EH_UINT32("blocks", 8),
			/* three elements of two members, then their bytes */
			EH_STRUCT_ARRAY("points", 2, 3),
			EH_PACKED_META("x", EH_ENC_VALUE32, EH_FMT_SIGNED_INT),
			EH_PACKED_META("y", EH_ENC_VALUE32, EH_FMT_SIGNED_INT),
			EH_PACKED_DATA(points, sizeof(points)),
			/* a field given as bytes, in this machine's order */
			EH_PACKED_FIELD("packed", &raw, sizeof(raw),
					EH_ENC_VALUE16, EH_FMT_HEX_INT));
}

int main(void)
{
	int (*const writes[])(void) = { write_scalars, write_strings,
					write_arrays, write_fixed_arrays,
					write_structs };
	unsigned int i, written = 0;
	int err;

	err = EH_REGISTER(all_fields);
	if (err)
		fprintf(stderr, "all-fields: tracing unavailable (%s); running anyway\n",
			strerror(err));
	for (i = 0; i < sizeof(writes) / sizeof(writes[0]); i++)
		if (writes[i]() == 0)
			written++;
	EH_UNREGISTER(all_fields);
	printf("all-fields: %u of %u events written\n", written, i);
	return 0;
}
