/* SPDX-License-Identifier: MIT */
/*
 * gen-common.h - the 114 events that the reference's C and C++ test
 * providers write, expressed with the TraceLogging names.
 *
 * Included by gen-c.c (as C, provider TestProviderC) and gen-cpp.cpp (as
 * C++, provider TestProviderCpp) after defining GEN_PROVIDER. Field names
 * the calls leave out are the value expressions after macro expansion,
 * so the limit macros of <stdint.h>/<limits.h> must be gcc's and glibc's,
 * as when the corpus was made.
 */
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <wchar.h>
#include <arpa/inet.h>

#include <eventheader/TraceLoggingProvider.h>

#ifndef GEN_PROVIDER
#error "define GEN_PROVIDER before including gen-common.h"
#endif

static float gen_f32_bits(uint32_t bits)
{
	float f;

	memcpy(&f, &bits, sizeof(f));
	return f;
}

static double gen_f64_bits(uint64_t bits)
{
	double d;

	memcpy(&d, &bits, sizeof(d));
	return d;
}

static void gen_common_events(void)
{
	static const uint8_t guid[16] = { 1, 2, 3, 4, 5, 6, 7, 8,
					  1, 2, 3, 4, 5, 6, 7, 8 };
	static const uint8_t ipv6[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
					  11, 12, 13, 14, 15, 16 };
	static const uint8_t ipv6_fe[16] = { 0xfe, 0xfe, 0xfe, 0xfe, 0xfe,
					     0xfe, 0xfe, 0xfe, 0xfe, 0xfe,
					     0xfe, 0xfe, 0xfe, 0xfe, 0xfe, 0 };
	/* "hjkl" with no BOM, with a BOM, and with a byte-swapped BOM. */
	static const char n8[] = "hjkl";
	static const char n8_bom[] = "\xef\xbb\xbfhjkl";
	static const uint16_t n16[] = { 'h', 'j', 'k', 'l', 0 };
	static const uint16_t n16_bom[] = { 0xfeff, 'h', 'j', 'k', 'l', 0 };
	static const uint16_t n16_xbom[] = { 0xfffe, 0x6800, 0x6a00, 0x6b00,
					     0x6c00, 0 };
	static const uint32_t n32[] = { 'h', 'j', 'k', 'l', 0 };
	static const uint32_t n32_bom[] = { 0xfeff, 'h', 'j', 'k', 'l', 0 };
	static const uint32_t n32_xbom[] = { 0xfffe0000, 0x68000000,
					     0x6a000000, 0x6b000000,
					     0x6c000000, 0 };
	static const char strings3[] = "ABC\0\0XYZ";
	const char *ch10 = "HowAreU8?";
	const wchar_t *wch10 = L"Goodbye!!";
	const eh_char16_t *u16ch10 = u"HowAreU16";
	const eh_char32_t *u32ch10 = U"HowAreU32";
	const void *pSamplePtr = (const void *)(intptr_t)-12345;
	int8_t i8 = 100;
	uint8_t u8 = 200;
	int16_t i16 = 30000;
	uint16_t u16 = 60000;
	int32_t i32 = 2000000000;
	uint32_t u32 = 4000000000u;
	int64_t i64 = 9000000000000000000;
	uint64_t u64 = 18000000000000000000u;
	intptr_t iptr = 1234;
	uintptr_t uptr = 4321;
	long iL = 2000000000;
	unsigned long uL = 4000000000u;
	float f32 = 3.14f;
	double f64 = 6.28;
	uint16_t port80 = htons(80);
	uint32_t ipv4 = htonl(0x7f000001);
	uint16_t count0 = 0, count1 = 1, count3 = 3;
	uint16_t count4 = 4, count5 = 5, count7 = 7;
	uint16_t bool16[4] = { 0, 1, 60000, 30000 };
	uint8_t b8one = 1;
	int32_t b32one = 1;

	TraceLoggingWrite(GEN_PROVIDER, "CScalars1");
	TraceLoggingWrite(GEN_PROVIDER, "CScalars2",
			  TraceLoggingLevel(1),
			  TraceLoggingKeyword(0xf123456789abcdef),
			  TraceLoggingOpcode(2));
	TraceLoggingWrite(GEN_PROVIDER, "CScalars3",
			  TraceLoggingIdVersion(1000, 11),
			  TraceLoggingEventTag(0x1234),
			  TraceLoggingLevel(4),
			  TraceLoggingKeyword(0x80),
			  TraceLoggingKeyword(0x05),
			  TraceLoggingOpcode(3),
			  TraceLoggingDescription("three"),
			  TraceLoggingStruct(20, "Struct20", "a struct", 0xBEEF),
			  TraceLoggingString("hi", "hi", "a string", 0x12),
			  TraceLoggingCharArray(ch10, 3, "ch10", "chars", 0x10));

	TraceLoggingWriteActivity(GEN_PROVIDER, "Transfer00", NULL, NULL);
	TraceLoggingWriteActivity(GEN_PROVIDER, "Transfer10", guid, NULL);
	TraceLoggingWriteActivity(GEN_PROVIDER, "Transfer11", guid, guid);

	TraceLoggingWrite(GEN_PROVIDER, "i8", TraceLoggingInt8(i8), TraceLoggingInt8(INT8_MIN));
	TraceLoggingWrite(GEN_PROVIDER, "u8", TraceLoggingUInt8(u8), TraceLoggingUInt8(UINT8_MAX));
	TraceLoggingWrite(GEN_PROVIDER, "i16", TraceLoggingInt16(i16), TraceLoggingInt16(INT16_MIN));
	TraceLoggingWrite(GEN_PROVIDER, "u16", TraceLoggingUInt16(u16), TraceLoggingUInt16(UINT16_MAX));
	TraceLoggingWrite(GEN_PROVIDER, "i32", TraceLoggingInt32(i32), TraceLoggingInt32(INT32_MIN));
	TraceLoggingWrite(GEN_PROVIDER, "u32", TraceLoggingUInt32(u32), TraceLoggingUInt32(UINT32_MAX));
	TraceLoggingWrite(GEN_PROVIDER, "i64", TraceLoggingInt64(i64), TraceLoggingInt64(INT64_MIN));
	TraceLoggingWrite(GEN_PROVIDER, "u64", TraceLoggingUInt64(u64), TraceLoggingUInt64(UINT64_MAX));
	TraceLoggingWrite(GEN_PROVIDER, "iptr", TraceLoggingIntPtr(iptr), TraceLoggingIntPtr(INTPTR_MIN));
	TraceLoggingWrite(GEN_PROVIDER, "uptr", TraceLoggingUIntPtr(uptr), TraceLoggingUIntPtr(UINTPTR_MAX));
	TraceLoggingWrite(GEN_PROVIDER, "iL", TraceLoggingLong(iL), TraceLoggingLong(LONG_MIN));
	TraceLoggingWrite(GEN_PROVIDER, "uL", TraceLoggingULong(uL), TraceLoggingULong(ULONG_MAX));

	TraceLoggingWrite(GEN_PROVIDER, "hi8", TraceLoggingHexInt8(i8), TraceLoggingHexInt8(INT8_MIN));
	TraceLoggingWrite(GEN_PROVIDER, "hu8", TraceLoggingHexUInt8(u8), TraceLoggingHexUInt8(UINT8_MAX));
	TraceLoggingWrite(GEN_PROVIDER, "hi16", TraceLoggingHexInt16(i16), TraceLoggingHexInt16(INT16_MIN));
	TraceLoggingWrite(GEN_PROVIDER, "hu16", TraceLoggingHexUInt16(u16), TraceLoggingHexUInt16(UINT16_MAX));
	TraceLoggingWrite(GEN_PROVIDER, "hi32", TraceLoggingHexInt32(i32), TraceLoggingHexInt32(INT32_MIN));
	TraceLoggingWrite(GEN_PROVIDER, "hu32", TraceLoggingHexUInt32(u32), TraceLoggingHexUInt32(UINT32_MAX));
	TraceLoggingWrite(GEN_PROVIDER, "hi64", TraceLoggingHexInt64(i64), TraceLoggingHexInt64(INT64_MIN));
	TraceLoggingWrite(GEN_PROVIDER, "hu64", TraceLoggingHexUInt64(u64), TraceLoggingHexUInt64(UINT64_MAX));
	TraceLoggingWrite(GEN_PROVIDER, "hiptr", TraceLoggingHexIntPtr(iptr), TraceLoggingHexIntPtr(INTPTR_MIN));
	TraceLoggingWrite(GEN_PROVIDER, "huptr", TraceLoggingHexUIntPtr(uptr), TraceLoggingHexUIntPtr(UINTPTR_MAX));
	TraceLoggingWrite(GEN_PROVIDER, "hiL", TraceLoggingHexLong(iL), TraceLoggingHexLong(LONG_MIN));
	TraceLoggingWrite(GEN_PROVIDER, "huL", TraceLoggingHexULong(uL), TraceLoggingHexULong(ULONG_MAX));

	TraceLoggingWrite(GEN_PROVIDER, "f32",
			  TraceLoggingFloat32(f32),
			  TraceLoggingFloat32(1.0f / 3.0f, "1/3"),
			  TraceLoggingFloat32(gen_f32_bits(0xffc00000), "NaN"),
			  TraceLoggingFloat32(gen_f32_bits(0xff800000), "-Inf"));
	TraceLoggingWrite(GEN_PROVIDER, "f64",
			  TraceLoggingFloat64(f64),
			  TraceLoggingFloat64(1.0 / 3.0, "1/3"),
			  TraceLoggingFloat64(gen_f64_bits(0xfff8000000000000), "NaN"),
			  TraceLoggingFloat64(gen_f64_bits(0xfff0000000000000), "-Inf"));
	TraceLoggingWrite(GEN_PROVIDER, "b8",
			  TraceLoggingBoolean(0, "b0"),
			  TraceLoggingBoolean(1, "b1"),
			  TraceLoggingBoolean(UINT8_MAX));
	TraceLoggingWrite(GEN_PROVIDER, "b32",
			  TraceLoggingBool(0, "b0"),
			  TraceLoggingBool(1, "b1"),
			  TraceLoggingBool(INT32_MIN));
	TraceLoggingWrite(GEN_PROVIDER, "ch",
			  TraceLoggingChar('A', "ch"),
			  TraceLoggingChar((char)0xfe, "FE"));
	TraceLoggingWrite(GEN_PROVIDER, "u16ch",
			  TraceLoggingChar16(u'A', "u16ch"),
			  TraceLoggingChar16(0xfffe, "FFFE"));
	TraceLoggingWrite(GEN_PROVIDER, "u32ch",
			  TraceLoggingChar32(U'A', "u32ch"),
			  TraceLoggingChar32(0xfffe, "FFFE"),
			  TraceLoggingChar32(0x10ffff, "10FFFF"),
			  TraceLoggingChar32(0xfffefdfc, "FFFEFDFC"));
	TraceLoggingWrite(GEN_PROVIDER, "wch",
			  TraceLoggingWChar(L'B', "wch"),
			  TraceLoggingWChar(0xfffe, "FFFE"),
			  TraceLoggingWChar(0x10ffff, "10FFFF"),
			  TraceLoggingWChar(WCHAR_MAX));
	TraceLoggingWrite(GEN_PROVIDER, "ptr",
			  TraceLoggingPointer(pSamplePtr),
			  TraceLoggingPointer((const void *)UINTPTR_MAX, "UINTPTR_MAX"));
	TraceLoggingWrite(GEN_PROVIDER, "pid", TraceLoggingPid(i32), TraceLoggingPid(INT32_MAX));
	TraceLoggingWrite(GEN_PROVIDER, "port", TraceLoggingPort(port80), TraceLoggingPort(UINT16_MAX));
	TraceLoggingWrite(GEN_PROVIDER, "errno",
			  TraceLoggingErrno(INT32_MIN),
			  TraceLoggingErrno(1),
			  TraceLoggingErrno(131));
	TraceLoggingWrite(GEN_PROVIDER, "t32",
			  TraceLoggingTime32(i32),
			  TraceLoggingTime32(INT32_MIN),
			  TraceLoggingTime32(INT32_MAX),
			  TraceLoggingTime32(0));
	TraceLoggingWrite(GEN_PROVIDER, "t64",
			  TraceLoggingTime64(i64),
			  TraceLoggingTime64(INT64_MIN),
			  TraceLoggingTime64(INT64_MAX),
			  TraceLoggingTime64(0),
			  TraceLoggingTime64(-11644473600),
			  TraceLoggingTime64(-11644473601),
			  TraceLoggingTime64(910692730085),
			  TraceLoggingTime64(910692730086));
	TraceLoggingWrite(GEN_PROVIDER, "guid", TraceLoggingGuid(guid));

	TraceLoggingWrite(GEN_PROVIDER, "sz",
			  TraceLoggingString(NULL, "NULL"),
			  TraceLoggingString(ch10));
	TraceLoggingWrite(GEN_PROVIDER, "sz8",
			  TraceLoggingUtf8String(NULL, "NULL"),
			  TraceLoggingUtf8String(ch10));
	TraceLoggingWrite(GEN_PROVIDER, "wsz",
			  TraceLoggingWideString(NULL, "NULL"),
			  TraceLoggingWideString(wch10));
	TraceLoggingWrite(GEN_PROVIDER, "sz16",
			  TraceLoggingString16(NULL, "NULL"),
			  TraceLoggingString16(u16ch10));
	TraceLoggingWrite(GEN_PROVIDER, "sz32",
			  TraceLoggingString32(NULL, "NULL"),
			  TraceLoggingString32(u32ch10));
	TraceLoggingWrite(GEN_PROVIDER, "csz",
			  TraceLoggingCountedString(NULL, 0, "NULL"),
			  TraceLoggingCountedString(ch10, 5));
	TraceLoggingWrite(GEN_PROVIDER, "csz8",
			  TraceLoggingCountedUtf8String(NULL, 0, "NULL"),
			  TraceLoggingCountedUtf8String(ch10, 5));
	TraceLoggingWrite(GEN_PROVIDER, "cwsz",
			  TraceLoggingCountedWideString(NULL, 0, "NULL"),
			  TraceLoggingCountedWideString(wch10, 5));
	TraceLoggingWrite(GEN_PROVIDER, "csz16",
			  TraceLoggingCountedString16(NULL, 0, "NULL"),
			  TraceLoggingCountedString16(u16ch10, 5));
	TraceLoggingWrite(GEN_PROVIDER, "csz32",
			  TraceLoggingCountedString32(NULL, 0, "NULL"),
			  TraceLoggingCountedString32(u32ch10, 5));
	TraceLoggingWrite(GEN_PROVIDER, "bin",
			  TraceLoggingBinary(NULL, 0, "NULL"),
			  TraceLoggingBinary(ch10, 5));
	TraceLoggingWrite(GEN_PROVIDER, "ipV4",
			  TraceLoggingIPv4Address(ipv4),
			  TraceLoggingIPv4Address(UINT32_MAX));
	TraceLoggingWrite(GEN_PROVIDER, "ipV6",
			  TraceLoggingIPv6Address(ipv6, "ipv6"),
			  TraceLoggingIPv6Address(ipv6_fe, "fefe..fe00"));

#define GEN_ARRAYS(event, Kind, p)                                             \
	TraceLoggingWrite(GEN_PROVIDER, event,                                 \
			  TraceLogging##Kind##FixedArray(p, 1, "a1"),          \
			  TraceLogging##Kind##Array(p, 1, "s"))
	GEN_ARRAYS("ai8", Int8, &i8);
	GEN_ARRAYS("au8", UInt8, &u8);
	GEN_ARRAYS("ai16", Int16, &i16);
	GEN_ARRAYS("au16", UInt16, &u16);
	GEN_ARRAYS("ai32", Int32, &i32);
	GEN_ARRAYS("au32", UInt32, &u32);
	GEN_ARRAYS("ai64", Int64, &i64);
	GEN_ARRAYS("au64", UInt64, &u64);
	GEN_ARRAYS("aiptr", IntPtr, &iptr);
	GEN_ARRAYS("auptr", UIntPtr, &uptr);
	GEN_ARRAYS("aiL", Long, &iL);
	GEN_ARRAYS("auL", ULong, &uL);
	GEN_ARRAYS("hai8", HexInt8, &i8);
	GEN_ARRAYS("hau8", HexUInt8, &u8);
	GEN_ARRAYS("hai16", HexInt16, &i16);
	GEN_ARRAYS("hau16", HexUInt16, &u16);
	GEN_ARRAYS("hai32", HexInt32, &i32);
	GEN_ARRAYS("hau32", HexUInt32, &u32);
	GEN_ARRAYS("hai64", HexInt64, &i64);
	GEN_ARRAYS("hau64", HexUInt64, &u64);
	GEN_ARRAYS("haiptr", HexIntPtr, &iptr);
	GEN_ARRAYS("hauptr", HexUIntPtr, &uptr);
	GEN_ARRAYS("haiL", HexLong, &iL);
	GEN_ARRAYS("hauL", HexULong, &uL);
	GEN_ARRAYS("af32", Float32, &f32);
	GEN_ARRAYS("af64", Float64, &f64);
	GEN_ARRAYS("ab8", Boolean, &b8one);
	GEN_ARRAYS("ab32", Bool, &b32one);
	TraceLoggingWrite(GEN_PROVIDER, "ach",
			  TraceLoggingCharFixedArray(ch10, 4, "a4"),
			  TraceLoggingCharArray(ch10, 5, "s5"));
	TraceLoggingWrite(GEN_PROVIDER, "ach16",
			  TraceLoggingChar16FixedArray(u16ch10, 4, "a4"),
			  TraceLoggingChar16Array(u16ch10, 5, "s5"));
	TraceLoggingWrite(GEN_PROVIDER, "ach32",
			  TraceLoggingChar32FixedArray(u32ch10, 4, "a4"),
			  TraceLoggingChar32Array(u32ch10, 5, "s5"));
	TraceLoggingWrite(GEN_PROVIDER, "awch",
			  TraceLoggingWCharFixedArray(wch10, 4, "a4"),
			  TraceLoggingWCharArray(wch10, 5, "s5"));
	GEN_ARRAYS("aptr", Pointer, &pSamplePtr);
	GEN_ARRAYS("apid", Pid, &i32);
	GEN_ARRAYS("aport", Port, &u16);
	GEN_ARRAYS("aerrno", Errno, &i32);
	GEN_ARRAYS("aft", Time32, &i32);
	GEN_ARRAYS("auft", Time64, &i64);
#undef GEN_ARRAYS

	/* Arrays of GUIDs and of 16-byte hex values, written packed. */
	TraceLoggingWrite(GEN_PROVIDER, "ag",
			  TraceLoggingPackedMetadataEx(event_field_encoding_value128 | event_field_encoding_varray_flag,
						       event_field_format_uuid, "s0"),
			  TraceLoggingPackedMetadataEx(event_field_encoding_value128 | event_field_encoding_varray_flag,
						       event_field_format_uuid, "s1"),
			  TraceLoggingPackedData(&count0, 2),
			  TraceLoggingPackedData(&count1, 2),
			  TraceLoggingPackedData(guid, 16));
	TraceLoggingWrite(GEN_PROVIDER, "ahexbytes",
			  TraceLoggingPackedMetadataEx(event_field_encoding_value128 | event_field_encoding_varray_flag,
						       event_field_format_hex_bytes, "s0"),
			  TraceLoggingPackedMetadataEx(event_field_encoding_value128 | event_field_encoding_varray_flag,
						       event_field_format_hex_bytes, "s1"),
			  TraceLoggingPackedData(&count0, 2),
			  TraceLoggingPackedData(&count1, 2),
			  TraceLoggingPackedData(guid, 16));

	/* Every encoding with its default format, then as hex bytes. */
	TraceLoggingWrite(GEN_PROVIDER, "Default",
			  TraceLoggingPackedField(&u8, 1, event_field_encoding_value8, "V8"),
			  TraceLoggingPackedField(&u16, 2, event_field_encoding_value16, "V16"),
			  TraceLoggingPackedField(&u32, 4, event_field_encoding_value32, "V32"),
			  TraceLoggingPackedField(&u64, 8, event_field_encoding_value64, "V64"),
			  TraceLoggingPackedField(guid, 16, event_field_encoding_value128, "V128"),
			  TraceLoggingPackedField(n8, 5, event_field_encoding_zstring_char8, "NChar8"),
			  TraceLoggingPackedField(n16, 10, event_field_encoding_zstring_char16, "NChar16"),
			  TraceLoggingPackedField(n32, 20, event_field_encoding_zstring_char32, "NChar32"),
			  TraceLoggingPackedMetadata(event_field_encoding_string_length16_char8, "LChar8"),
			  TraceLoggingPackedData(&count4, 2), TraceLoggingPackedData(n8, 4),
			  TraceLoggingPackedMetadata(event_field_encoding_string_length16_char16, "LChar16"),
			  TraceLoggingPackedData(&count4, 2), TraceLoggingPackedData(n16, 8),
			  TraceLoggingPackedMetadata(event_field_encoding_string_length16_char32, "LChar32"),
			  TraceLoggingPackedData(&count4, 2), TraceLoggingPackedData(n32, 16));
	TraceLoggingWrite(GEN_PROVIDER, "HexBytes",
			  TraceLoggingPackedFieldEx(guid, 1, event_field_encoding_value8, event_field_format_hex_bytes, "V8"),
			  TraceLoggingPackedFieldEx(guid, 2, event_field_encoding_value16, event_field_format_hex_bytes, "V16"),
			  TraceLoggingPackedFieldEx(guid, 4, event_field_encoding_value32, event_field_format_hex_bytes, "V32"),
			  TraceLoggingPackedFieldEx(guid, 8, event_field_encoding_value64, event_field_format_hex_bytes, "V64"),
			  TraceLoggingPackedFieldEx(guid, 16, event_field_encoding_value128, event_field_format_hex_bytes, "V128"),
			  TraceLoggingPackedFieldEx(n8, 5, event_field_encoding_zstring_char8, event_field_format_hex_bytes, "NChar8"),
			  TraceLoggingPackedFieldEx(n16, 10, event_field_encoding_zstring_char16, event_field_format_hex_bytes, "NChar16"),
			  TraceLoggingPackedFieldEx(n32, 20, event_field_encoding_zstring_char32, event_field_format_hex_bytes, "NChar32"),
			  TraceLoggingPackedMetadataEx(event_field_encoding_string_length16_char8, event_field_format_hex_bytes, "LChar8"),
			  TraceLoggingPackedData(&count4, 2), TraceLoggingPackedData(n8, 4),
			  TraceLoggingPackedMetadataEx(event_field_encoding_string_length16_char16, event_field_format_hex_bytes, "LChar16"),
			  TraceLoggingPackedData(&count4, 2), TraceLoggingPackedData(n16, 8),
			  TraceLoggingPackedMetadataEx(event_field_encoding_string_length16_char32, event_field_format_hex_bytes, "LChar32"),
			  TraceLoggingPackedData(&count4, 2), TraceLoggingPackedData(n32, 16));
	TraceLoggingWrite(GEN_PROVIDER, "Bool16",
			  TraceLoggingPackedFieldEx(&bool16[0], 2, event_field_encoding_value16, event_field_format_boolean, "false16"),
			  TraceLoggingPackedFieldEx(&bool16[1], 2, event_field_encoding_value16, event_field_format_boolean, "true16"),
			  TraceLoggingPackedFieldEx(&bool16[2], 2, event_field_encoding_value16, event_field_format_boolean, "u16"),
			  TraceLoggingPackedFieldEx(&bool16[3], 2, event_field_encoding_value16, event_field_format_boolean, "i16"));

	/* The string formats, without a BOM, with one, and byte-swapped. */
#define GEN_STRINGS(event, fmt, s8, c8, s16, c16, s32, c32)                   \
	TraceLoggingWrite(GEN_PROVIDER, event,                                 \
			  TraceLoggingPackedFieldEx(s8, sizeof(s8), event_field_encoding_zstring_char8, fmt, "NChar8"), \
			  TraceLoggingPackedFieldEx(s16, sizeof(s16), event_field_encoding_zstring_char16, fmt, "NChar16"), \
			  TraceLoggingPackedFieldEx(s32, sizeof(s32), event_field_encoding_zstring_char32, fmt, "NChar32"), \
			  TraceLoggingPackedMetadataEx(event_field_encoding_string_length16_char8, fmt, "LChar8"), \
			  TraceLoggingPackedData(c8, 2), TraceLoggingPackedData(s8, sizeof(s8) - 1), \
			  TraceLoggingPackedMetadataEx(event_field_encoding_string_length16_char16, fmt, "LChar16"), \
			  TraceLoggingPackedData(c16, 2), TraceLoggingPackedData(s16, sizeof(s16) - 2), \
			  TraceLoggingPackedMetadataEx(event_field_encoding_string_length16_char32, fmt, "LChar32"), \
			  TraceLoggingPackedData(c32, 2), TraceLoggingPackedData(s32, sizeof(s32) - 4))
	GEN_STRINGS("StringUtf", event_field_format_string_utf, n8, &count4, n16, &count4, n32, &count4);
	GEN_STRINGS("StringUtfBom-NoBom", event_field_format_string_utf_bom, n8, &count4, n16, &count4, n32, &count4);
	GEN_STRINGS("StringXml-NoBom", event_field_format_string_xml, n8, &count4, n16, &count4, n32, &count4);
	GEN_STRINGS("StringJson-NoBom", event_field_format_string_json, n8, &count4, n16, &count4, n32, &count4);
	GEN_STRINGS("StringUtfBom-Bom", event_field_format_string_utf_bom, n8_bom, &count7, n16_bom, &count5, n32_bom, &count5);
	GEN_STRINGS("StringXml-Bom", event_field_format_string_xml, n8_bom, &count7, n16_bom, &count5, n32_bom, &count5);
	GEN_STRINGS("StringJson-Bom", event_field_format_string_json, n8_bom, &count7, n16_bom, &count5, n32_bom, &count5);
	GEN_STRINGS("StringUtfBom-XBom", event_field_format_string_utf_bom, n8_bom, &count7, n16_xbom, &count5, n32_xbom, &count5);
	GEN_STRINGS("StringXml-XBom", event_field_format_string_xml, n8_bom, &count7, n16_xbom, &count5, n32_xbom, &count5);
	GEN_STRINGS("StringJson-XBom", event_field_format_string_json, n8_bom, &count7, n16_xbom, &count5, n32_xbom, &count5);
#undef GEN_STRINGS

	/* An array of structs, filled in by hand; then the same empty. */
#define GEN_PACKED(event, count, ...)                                          \
	TraceLoggingWrite(GEN_PROVIDER, event,                                 \
			  TraceLoggingInt32(5, "five"),                        \
			  TraceLoggingStruct(1, "Struct1"),                    \
			  TraceLoggingPackedField(n8, 5, event_field_encoding_zstring_char8, "NChar8"), \
			  TraceLoggingPackedStructArray(1, "StructArray"),     \
			  TraceLoggingPackedStruct(2, "Struct2"),              \
			  TraceLoggingPackedMetadataEx(event_field_encoding_value8, event_field_format_string8, "K"), \
			  TraceLoggingPackedMetadataEx(event_field_encoding_zstring_char16, event_field_format_hex_bytes, "NChar16"), \
			  TraceLoggingPackedData(count, 2), __VA_ARGS__        \
			  TraceLoggingInt32(5, "five"))
	GEN_PACKED("Packed", &count3,
		   TraceLoggingPackedData("A", 1), TraceLoggingPackedData(n16, 10),
		   TraceLoggingPackedData("B", 1), TraceLoggingPackedData(n16_bom, 12),
		   TraceLoggingPackedData("C", 1), TraceLoggingPackedData(n16_xbom, 12),);
	GEN_PACKED("Packed0", &count0, );
#undef GEN_PACKED
	TraceLoggingWrite(GEN_PROVIDER, "PackedComplexArray",
			  TraceLoggingInt32(5, "five"),
			  TraceLoggingPackedMetadata(event_field_encoding_zstring_char8 | event_field_encoding_varray_flag, "MyStrings3"),
			  TraceLoggingPackedData(&count3, 2),
			  TraceLoggingPackedData(strings3, sizeof(strings3)),
			  TraceLoggingInt32(5, "five"));
}
