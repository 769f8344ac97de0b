// SPDX-License-Identifier: MIT
/*
 * Every kind of field, with small objects of static and automatic storage,
 * for compile-test.sh to build with -O2 -Wall -Wextra -Werror as C and C++:
 * inlined writes must not draw warnings such as -Warray-bounds or
 * -Wstringop-overread from the optimiser in user code.
 */
#include <eventheader/TraceLoggingProvider.h>

EH_DEFINE_PROVIDER(ct_prov, "CompileTest");

static const eh_char16_t s16[] = { 'h', 'i', 0 };
static const eh_char32_t s32[] = { 'h', 'i', 0 };
static const wchar_t sw[] = { L'h', L'i', 0 };
static const unsigned char guid[16] = { 1, 2, 3, 4, 5, 6, 7, 8,
					9, 10, 11, 12, 13, 14, 15, 16 };

int write_all(int v);

int write_all(int v)
{
	const char s8[] = "hi";
	const int32_t a[2] = { v, v + 1 };
	const uint8_t b[3] = { 1, 2, 3 };
	const char *null_s = 0;
	int rc = 0;

	rc |= EH_WRITE(ct_prov, "Scalars", EH_INT8("i8", v), EH_UINT8("u8", v),
		       EH_INT16("i16", v), EH_UINT16("u16", v),
		       EH_INT32("i32", v), EH_UINT32("u32", v),
		       EH_INT64("i64", v), EH_UINT64("u64", v),
		       EH_INTPTR("ip", v), EH_UINTPTR("up", v),
		       EH_LONG("l", v), EH_ULONG("ul", v),
		       EH_HEXINT32("h32", v), EH_HEXUINT64("h64", v),
		       EH_FLOAT32("f", v), EH_FLOAT64("d", v),
		       EH_BOOL8("b8", v), EH_BOOL32("b32", v),
		       EH_CHAR8("c8", 'x'), EH_CHAR16("c16", 'x'),
		       EH_CHAR32("c32", 'x'), EH_WCHAR("wc", L'x'),
		       EH_POINTER("p", (const void *)(uintptr_t)0x1234),
		       EH_PID("pid", v),
		       EH_PORT("port", v), EH_ERRNO("e", v),
		       EH_TIME32("t32", v), EH_TIME64("t64", v),
		       EH_IPV4("v4", v), EH_GUID("g", guid),
		       EH_IPV6("v6", guid), EH_INT32("tagged", v, 0x1234));
	rc |= EH_WRITE(ct_prov, "Strings", EH_STRING8("s8", s8),
		       EH_STRING_UTF8("u8", "hi"), EH_STRING16("s16", s16),
		       EH_STRING32("s32", s32), EH_WSTRING("sw", sw),
		       EH_STRING_JSON("j", "{}"), EH_STRING_XML("x", "<a/>"),
		       EH_STRING8("null", null_s),
		       EH_COUNTED_STRING8("c8", s8, 2),
		       EH_COUNTED_STRING_UTF8("cu8", s8, 1),
		       EH_COUNTED_STRING16("c16", s16, 2),
		       EH_COUNTED_STRING32("c32", s32, 2),
		       EH_COUNTED_WSTRING("cw", sw, 2),
		       EH_BINARY("bin", b, 3), EH_BINARY("bin1", b, 1));
	rc |= EH_WRITE(ct_prov, "Arrays", EH_INT32_ARRAY("va", a, 2),
		       EH_INT32_FIXED_ARRAY("ca", a, 2),
		       EH_UINT8_ARRAY("vb", b, 3),
		       EH_UINT8_FIXED_ARRAY("cb", b, 1),
		       EH_CHAR16_ARRAY("v16", s16, 2),
		       EH_CHAR32_FIXED_ARRAY("c32", s32, 2),
		       EH_STRUCT("s", 2), EH_INT32("m1", v), EH_UINT8("m2", v),
		       EH_STRUCT_ARRAY("sa", 1, 3),
		       EH_PACKED_META("e", EH_ENC_VALUE8, 0),
		       EH_PACKED_DATA(b, 3),
		       EH_PACKED_FIELD("pf", b, 2, EH_ENC_VALUE16, 0));
	rc |= EH_WRITE_ACTIVITY(ct_prov, "Activity", guid, guid,
				EH_OPCODE(EH_OPCODE_ACTIVITY_START),
				EH_STRING16("s16", s16));
	rc |= TraceLoggingWrite(ct_prov, "Tlg", TraceLoggingInt32(v),
				TraceLoggingString(s8), TraceLoggingString16(s16),
				TraceLoggingString32(s32, "s32"),
				TraceLoggingWideString(sw, "sw"),
				TraceLoggingCountedString16(s16, 1, "c16"),
				TraceLoggingBinary(b, 2, "bin"),
				TraceLoggingGuid(guid, "g"),
				TraceLoggingInt32FixedArray(a, 2, "ca"),
				TraceLoggingUInt8Array(b, 3, "vb"));
	return rc;
}

int main(void)
{
	int rc;

	if (EH_REGISTER(ct_prov))
		return 10;
	rc = write_all(3);
	EH_UNREGISTER(ct_prov);
	return rc ? 1 : 0;
}
