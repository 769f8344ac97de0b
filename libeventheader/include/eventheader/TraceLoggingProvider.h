/* SPDX-License-Identifier: MIT */
/*
 * TraceLoggingProvider.h - the TraceLogging macro names of LinuxTracepoints
 *
 * C and C++ code written against LinuxTracepoints' TraceLoggingProvider.h
 * compiles unchanged with this header and writes byte-identical events,
 * but needs no library: the macros map onto eh-provider.h.
 *
 *	#include <eventheader/TraceLoggingProvider.h>
 *
 *	TRACELOGGING_DEFINE_PROVIDER(MyProvider, "MyCompany_MyComponent",
 *		// {b3864c38-4273-58c5-545b-8b3608343471} (ignored on Linux)
 *		(0xb3864c38, 0x4273, 0x58c5, 0x54, 0x5b, 0x8b, 0x36, 0x08,
 *		 0x34, 0x34, 0x71));
 *
 *	TraceLoggingRegister(MyProvider);
 *	TraceLoggingWrite(MyProvider, "MyEvent",
 *			  TraceLoggingLevel(4),
 *			  TraceLoggingInt32(value, "value"),
 *			  TraceLoggingString(text));   // name "text"
 *	TraceLoggingUnregister(MyProvider);
 *
 * Field macros take the value(s) first, then an optional name (default:
 * the value expression as text, after macro expansion), an optional
 * description (ignored) and an optional 16-bit tag. Differences from
 * Windows TraceLogging are those of LinuxTracepoints: no channels, 16-bit
 * tags, GUID fields as big-endian bytes, the provider GUID ignored.
 *
 * Return values: TraceLoggingRegister() 0 or a positive errno;
 * TraceLoggingWrite() 0, EBADF when disabled, or a positive errno.
 *
 * TraceLoggingValue() (type-deduced fields) needs C++.
 */
#ifndef EVENTHEADER_TRACELOGGINGPROVIDER_H
#define EVENTHEADER_TRACELOGGINGPROVIDER_H

#include <eventheader/eh-provider.h>

/* The LinuxTracepoints enum names. */
enum {
	event_field_encoding_value_mask = EH_ENC_VALUE_MASK,
	event_field_encoding_flag_mask = EH_ENC_FLAG_MASK,
	event_field_encoding_carray_flag = EH_ENC_CARRAY_FLAG,
	event_field_encoding_varray_flag = EH_ENC_VARRAY_FLAG,
	event_field_encoding_chain_flag = EH_ENC_CHAIN_FLAG,
	event_field_encoding_invalid = EH_ENC_INVALID,
	event_field_encoding_struct = EH_ENC_STRUCT,
	event_field_encoding_value8 = EH_ENC_VALUE8,
	event_field_encoding_value16 = EH_ENC_VALUE16,
	event_field_encoding_value32 = EH_ENC_VALUE32,
	event_field_encoding_value64 = EH_ENC_VALUE64,
	event_field_encoding_value128 = EH_ENC_VALUE128,
	event_field_encoding_zstring_char8 = EH_ENC_ZSTRING_CHAR8,
	event_field_encoding_zstring_char16 = EH_ENC_ZSTRING_CHAR16,
	event_field_encoding_zstring_char32 = EH_ENC_ZSTRING_CHAR32,
	event_field_encoding_string_length16_char8 = EH_ENC_STRING_LENGTH16_CHAR8,
	event_field_encoding_string_length16_char16 = EH_ENC_STRING_LENGTH16_CHAR16,
	event_field_encoding_string_length16_char32 = EH_ENC_STRING_LENGTH16_CHAR32,
	event_field_encoding_binary_length16_char8 = EH_ENC_BINARY_LENGTH16_CHAR8,
	event_field_encoding_max = EH_ENC_MAX,
	event_field_encoding_value_float = EH_ENC_VALUE_FLOAT,
	event_field_encoding_value_double = EH_ENC_VALUE_DOUBLE,
	event_field_encoding_value_long = EH_ENC_VALUE_LONG,
	event_field_encoding_value_ptr = EH_ENC_VALUE_PTR,
	event_field_encoding_value_wchar = EH_ENC_VALUE_WCHAR,
	event_field_encoding_zstring_wchar = EH_ENC_ZSTRING_WCHAR,
	event_field_encoding_string_length16_wchar = EH_ENC_STRING_LENGTH16_WCHAR,

	event_field_format_value_mask = EH_FMT_VALUE_MASK,
	event_field_format_chain_flag = EH_FMT_CHAIN_FLAG,
	event_field_format_default = EH_FMT_DEFAULT,
	event_field_format_unsigned_int = EH_FMT_UNSIGNED_INT,
	event_field_format_signed_int = EH_FMT_SIGNED_INT,
	event_field_format_hex_int = EH_FMT_HEX_INT,
	event_field_format_errno = EH_FMT_ERRNO,
	event_field_format_pid = EH_FMT_PID,
	event_field_format_time = EH_FMT_TIME,
	event_field_format_boolean = EH_FMT_BOOLEAN,
	event_field_format_float = EH_FMT_FLOAT,
	event_field_format_hex_bytes = EH_FMT_HEX_BYTES,
	event_field_format_string8 = EH_FMT_STRING8,
	event_field_format_string_utf = EH_FMT_STRING_UTF,
	event_field_format_string_utf_bom = EH_FMT_STRING_UTF_BOM,
	event_field_format_string_xml = EH_FMT_STRING_XML,
	event_field_format_string_json = EH_FMT_STRING_JSON,
	event_field_format_uuid = EH_FMT_UUID,
	event_field_format_port = EH_FMT_PORT,
	event_field_format_ip_address = EH_FMT_IP_ADDRESS,
	event_field_format_ip_address_obsolete = EH_FMT_IP_ADDRESS_OBSOLETE,
	event_field_format_ipv4 = EH_FMT_IP_ADDRESS,
	event_field_format_ipv6 = EH_FMT_IP_ADDRESS_OBSOLETE,

	event_opcode_info = EH_OPCODE_INFO,
	event_opcode_activity_start = EH_OPCODE_ACTIVITY_START,
	event_opcode_activity_stop = EH_OPCODE_ACTIVITY_STOP,
	event_opcode_collection_start = EH_OPCODE_COLLECTION_START,
	event_opcode_collection_stop = EH_OPCODE_COLLECTION_STOP,
	event_opcode_extension = EH_OPCODE_EXTENSION,
	event_opcode_reply = EH_OPCODE_REPLY,
	event_opcode_resume = EH_OPCODE_RESUME,
	event_opcode_suspend = EH_OPCODE_SUSPEND,
	event_opcode_send = EH_OPCODE_SEND,
	event_opcode_receive = EH_OPCODE_RECEIVE,

	event_level_invalid = EH_LEVEL_INVALID,
	event_level_critical_error = EH_LEVEL_CRITICAL,
	event_level_error = EH_LEVEL_ERROR,
	event_level_warning = EH_LEVEL_WARNING,
	event_level_information = EH_LEVEL_INFO,
	event_level_verbose = EH_LEVEL_VERBOSE,
};

/* Providers. */
#define TRACELOGGING_DECLARE_PROVIDER(sym) EH_DECLARE_PROVIDER(sym)
#define TRACELOGGING_DEFINE_PROVIDER(...) EH__CAT(EH__TLDP_, EH__NARGS(__VA_ARGS__))(__VA_ARGS__)
#define EH__TLDP_3(sym, name, guid) EH__TLDP(sym, name, guid, "")
#define EH__TLDP_4(sym, name, guid, options) EH__TLDP(sym, name, guid, options)
#define EH__TLDP(sym, name, guid, options)                                     \
	EH__STATIC_ASSERT(EH__NARGS guid == 11,                                \
			  "provider GUID must be 11 integers (ignored)");      \
	EH__DEFINE_PROVIDER(sym, name, options)
#define TraceLoggingOptionGroupName(group) "G" group
#define TraceLoggingRegister(sym) EH_REGISTER(sym)
#define TraceLoggingUnregister(sym) EH_UNREGISTER(sym)
#define TraceLoggingProviderEnabled(sym, level, keyword) EH_ENABLED(sym, level, keyword)
#define TraceLoggingProviderName(sym) ((sym).name)
#define TraceLoggingProviderOptions(sym) ((sym).options)

/* Writing. */
#define TraceLoggingWrite(sym, name, ...) EH__WRITE(sym, name, 0, 0, __VA_ARGS__)
#define TraceLoggingWriteActivity(sym, name, activity_id, related_id, ...)     \
	EH__WRITE(sym, name, activity_id, related_id, __VA_ARGS__)

/* Event attributes. */
#define TraceLoggingLevel(level) (A, LEVEL, level, _)
#define TraceLoggingKeyword(keyword) (A, KEYWORD, keyword, _)
#define TraceLoggingOpcode(opcode) (A, OPCODE, opcode, _)
#define TraceLoggingIdVersion(id, version) (A, IDVER, id, version)
#define TraceLoggingEventTag(tag) (A, ETAG, tag, _)
#define TraceLoggingDescription(description) (A, NONE, _, _)

/* Scalars, then variable and constant arrays of them. */
#define TraceLoggingInt8(...) EH__T1(EF, EH_ENC_VALUE8, EH_FMT_SIGNED_INT, SCALAR, int8_t, __VA_ARGS__)
#define TraceLoggingUInt8(...) EH__T1(E, EH_ENC_VALUE8, 0, SCALAR, uint8_t, __VA_ARGS__)
#define TraceLoggingInt16(...) EH__T1(EF, EH_ENC_VALUE16, EH_FMT_SIGNED_INT, SCALAR, int16_t, __VA_ARGS__)
#define TraceLoggingUInt16(...) EH__T1(E, EH_ENC_VALUE16, 0, SCALAR, uint16_t, __VA_ARGS__)
#define TraceLoggingInt32(...) EH__T1(EF, EH_ENC_VALUE32, EH_FMT_SIGNED_INT, SCALAR, int32_t, __VA_ARGS__)
#define TraceLoggingUInt32(...) EH__T1(E, EH_ENC_VALUE32, 0, SCALAR, uint32_t, __VA_ARGS__)
#define TraceLoggingInt64(...) EH__T1(EF, EH_ENC_VALUE64, EH_FMT_SIGNED_INT, SCALAR, int64_t, __VA_ARGS__)
#define TraceLoggingUInt64(...) EH__T1(E, EH_ENC_VALUE64, 0, SCALAR, uint64_t, __VA_ARGS__)
#define TraceLoggingIntPtr(...) EH__T1(EF, EH_ENC_VALUE_PTR, EH_FMT_SIGNED_INT, SCALAR, intptr_t, __VA_ARGS__)
#define TraceLoggingUIntPtr(...) EH__T1(E, EH_ENC_VALUE_PTR, 0, SCALAR, uintptr_t, __VA_ARGS__)
#define TraceLoggingLong(...) EH__T1(EF, EH_ENC_VALUE_LONG, EH_FMT_SIGNED_INT, SCALAR, long, __VA_ARGS__)
#define TraceLoggingULong(...) EH__T1(E, EH_ENC_VALUE_LONG, 0, SCALAR, unsigned long, __VA_ARGS__)
#define TraceLoggingHexInt8(...) EH__T1(EF, EH_ENC_VALUE8, EH_FMT_HEX_INT, SCALAR, int8_t, __VA_ARGS__)
#define TraceLoggingHexUInt8(...) EH__T1(EF, EH_ENC_VALUE8, EH_FMT_HEX_INT, SCALAR, uint8_t, __VA_ARGS__)
#define TraceLoggingHexInt16(...) EH__T1(EF, EH_ENC_VALUE16, EH_FMT_HEX_INT, SCALAR, int16_t, __VA_ARGS__)
#define TraceLoggingHexUInt16(...) EH__T1(EF, EH_ENC_VALUE16, EH_FMT_HEX_INT, SCALAR, uint16_t, __VA_ARGS__)
#define TraceLoggingHexInt32(...) EH__T1(EF, EH_ENC_VALUE32, EH_FMT_HEX_INT, SCALAR, int32_t, __VA_ARGS__)
#define TraceLoggingHexUInt32(...) EH__T1(EF, EH_ENC_VALUE32, EH_FMT_HEX_INT, SCALAR, uint32_t, __VA_ARGS__)
#define TraceLoggingHexInt64(...) EH__T1(EF, EH_ENC_VALUE64, EH_FMT_HEX_INT, SCALAR, int64_t, __VA_ARGS__)
#define TraceLoggingHexUInt64(...) EH__T1(EF, EH_ENC_VALUE64, EH_FMT_HEX_INT, SCALAR, uint64_t, __VA_ARGS__)
#define TraceLoggingHexIntPtr(...) EH__T1(EF, EH_ENC_VALUE_PTR, EH_FMT_HEX_INT, SCALAR, intptr_t, __VA_ARGS__)
#define TraceLoggingHexUIntPtr(...) EH__T1(EF, EH_ENC_VALUE_PTR, EH_FMT_HEX_INT, SCALAR, uintptr_t, __VA_ARGS__)
#define TraceLoggingHexLong(...) EH__T1(EF, EH_ENC_VALUE_LONG, EH_FMT_HEX_INT, SCALAR, long, __VA_ARGS__)
#define TraceLoggingHexULong(...) EH__T1(EF, EH_ENC_VALUE_LONG, EH_FMT_HEX_INT, SCALAR, unsigned long, __VA_ARGS__)
#define TraceLoggingFloat32(...) EH__T1(EF, EH_ENC_VALUE_FLOAT, EH_FMT_FLOAT, SCALAR, float, __VA_ARGS__)
#define TraceLoggingFloat64(...) EH__T1(EF, EH_ENC_VALUE_DOUBLE, EH_FMT_FLOAT, SCALAR, double, __VA_ARGS__)
#define TraceLoggingBoolean(...) EH__T1(EF, EH_ENC_VALUE8, EH_FMT_BOOLEAN, SCALAR, uint8_t, __VA_ARGS__)
#define TraceLoggingBool(...) EH__T1(EF, EH_ENC_VALUE32, EH_FMT_BOOLEAN, SCALAR, int32_t, __VA_ARGS__)
#define TraceLoggingChar(...) EH__T1(EF, EH_ENC_VALUE8, EH_FMT_STRING8, SCALAR, char, __VA_ARGS__)
#define TraceLoggingChar16(...) EH__T1(EF, EH_ENC_VALUE16, EH_FMT_STRING_UTF, SCALAR, eh_char16_t, __VA_ARGS__)
#define TraceLoggingChar32(...) EH__T1(EF, EH_ENC_VALUE32, EH_FMT_STRING_UTF, SCALAR, eh_char32_t, __VA_ARGS__)
#define TraceLoggingWChar(...) EH__T1(EF, EH_ENC_VALUE_WCHAR, EH_FMT_STRING_UTF, SCALAR, wchar_t, __VA_ARGS__)
#define TraceLoggingPointer(...) EH__T1(EF, EH_ENC_VALUE_PTR, EH_FMT_HEX_INT, SCALAR, eh__cptr, __VA_ARGS__)
#define TraceLoggingPid(...) EH__T1(EF, EH_ENC_VALUE32, EH_FMT_PID, SCALAR, int32_t, __VA_ARGS__)
#define TraceLoggingPort(...) EH__T1(EF, EH_ENC_VALUE16, EH_FMT_PORT, SCALAR, uint16_t, __VA_ARGS__)
#define TraceLoggingErrno(...) EH__T1(EF, EH_ENC_VALUE32, EH_FMT_ERRNO, SCALAR, int32_t, __VA_ARGS__)
#define TraceLoggingTime32(...) EH__T1(EF, EH_ENC_VALUE32, EH_FMT_TIME, SCALAR, int32_t, __VA_ARGS__)
#define TraceLoggingTime64(...) EH__T1(EF, EH_ENC_VALUE64, EH_FMT_TIME, SCALAR, int64_t, __VA_ARGS__)

#define TraceLoggingInt8Array(...) EH__T2(EF, , EH_ENC_VALUE8 | EH_ENC_VARRAY_FLAG, EH_FMT_SIGNED_INT, OK, VARRAY, int8_t, __VA_ARGS__)
#define TraceLoggingUInt8Array(...) EH__T2(E, , EH_ENC_VALUE8 | EH_ENC_VARRAY_FLAG, 0, OK, VARRAY, uint8_t, __VA_ARGS__)
#define TraceLoggingInt16Array(...) EH__T2(EF, , EH_ENC_VALUE16 | EH_ENC_VARRAY_FLAG, EH_FMT_SIGNED_INT, OK, VARRAY, int16_t, __VA_ARGS__)
#define TraceLoggingUInt16Array(...) EH__T2(E, , EH_ENC_VALUE16 | EH_ENC_VARRAY_FLAG, 0, OK, VARRAY, uint16_t, __VA_ARGS__)
#define TraceLoggingInt32Array(...) EH__T2(EF, , EH_ENC_VALUE32 | EH_ENC_VARRAY_FLAG, EH_FMT_SIGNED_INT, OK, VARRAY, int32_t, __VA_ARGS__)
#define TraceLoggingUInt32Array(...) EH__T2(E, , EH_ENC_VALUE32 | EH_ENC_VARRAY_FLAG, 0, OK, VARRAY, uint32_t, __VA_ARGS__)
#define TraceLoggingInt64Array(...) EH__T2(EF, , EH_ENC_VALUE64 | EH_ENC_VARRAY_FLAG, EH_FMT_SIGNED_INT, OK, VARRAY, int64_t, __VA_ARGS__)
#define TraceLoggingUInt64Array(...) EH__T2(E, , EH_ENC_VALUE64 | EH_ENC_VARRAY_FLAG, 0, OK, VARRAY, uint64_t, __VA_ARGS__)
#define TraceLoggingIntPtrArray(...) EH__T2(EF, , EH_ENC_VALUE_PTR | EH_ENC_VARRAY_FLAG, EH_FMT_SIGNED_INT, OK, VARRAY, intptr_t, __VA_ARGS__)
#define TraceLoggingUIntPtrArray(...) EH__T2(E, , EH_ENC_VALUE_PTR | EH_ENC_VARRAY_FLAG, 0, OK, VARRAY, uintptr_t, __VA_ARGS__)
#define TraceLoggingLongArray(...) EH__T2(EF, , EH_ENC_VALUE_LONG | EH_ENC_VARRAY_FLAG, EH_FMT_SIGNED_INT, OK, VARRAY, long, __VA_ARGS__)
#define TraceLoggingULongArray(...) EH__T2(E, , EH_ENC_VALUE_LONG | EH_ENC_VARRAY_FLAG, 0, OK, VARRAY, unsigned long, __VA_ARGS__)
#define TraceLoggingHexInt8Array(...) EH__T2(EF, , EH_ENC_VALUE8 | EH_ENC_VARRAY_FLAG, EH_FMT_HEX_INT, OK, VARRAY, int8_t, __VA_ARGS__)
#define TraceLoggingHexUInt8Array(...) EH__T2(EF, , EH_ENC_VALUE8 | EH_ENC_VARRAY_FLAG, EH_FMT_HEX_INT, OK, VARRAY, uint8_t, __VA_ARGS__)
#define TraceLoggingHexInt16Array(...) EH__T2(EF, , EH_ENC_VALUE16 | EH_ENC_VARRAY_FLAG, EH_FMT_HEX_INT, OK, VARRAY, int16_t, __VA_ARGS__)
#define TraceLoggingHexUInt16Array(...) EH__T2(EF, , EH_ENC_VALUE16 | EH_ENC_VARRAY_FLAG, EH_FMT_HEX_INT, OK, VARRAY, uint16_t, __VA_ARGS__)
#define TraceLoggingHexInt32Array(...) EH__T2(EF, , EH_ENC_VALUE32 | EH_ENC_VARRAY_FLAG, EH_FMT_HEX_INT, OK, VARRAY, int32_t, __VA_ARGS__)
#define TraceLoggingHexUInt32Array(...) EH__T2(EF, , EH_ENC_VALUE32 | EH_ENC_VARRAY_FLAG, EH_FMT_HEX_INT, OK, VARRAY, uint32_t, __VA_ARGS__)
#define TraceLoggingHexInt64Array(...) EH__T2(EF, , EH_ENC_VALUE64 | EH_ENC_VARRAY_FLAG, EH_FMT_HEX_INT, OK, VARRAY, int64_t, __VA_ARGS__)
#define TraceLoggingHexUInt64Array(...) EH__T2(EF, , EH_ENC_VALUE64 | EH_ENC_VARRAY_FLAG, EH_FMT_HEX_INT, OK, VARRAY, uint64_t, __VA_ARGS__)
#define TraceLoggingHexIntPtrArray(...) EH__T2(EF, , EH_ENC_VALUE_PTR | EH_ENC_VARRAY_FLAG, EH_FMT_HEX_INT, OK, VARRAY, intptr_t, __VA_ARGS__)
#define TraceLoggingHexUIntPtrArray(...) EH__T2(EF, , EH_ENC_VALUE_PTR | EH_ENC_VARRAY_FLAG, EH_FMT_HEX_INT, OK, VARRAY, uintptr_t, __VA_ARGS__)
#define TraceLoggingHexLongArray(...) EH__T2(EF, , EH_ENC_VALUE_LONG | EH_ENC_VARRAY_FLAG, EH_FMT_HEX_INT, OK, VARRAY, long, __VA_ARGS__)
#define TraceLoggingHexULongArray(...) EH__T2(EF, , EH_ENC_VALUE_LONG | EH_ENC_VARRAY_FLAG, EH_FMT_HEX_INT, OK, VARRAY, unsigned long, __VA_ARGS__)
#define TraceLoggingFloat32Array(...) EH__T2(EF, , EH_ENC_VALUE_FLOAT | EH_ENC_VARRAY_FLAG, EH_FMT_FLOAT, OK, VARRAY, float, __VA_ARGS__)
#define TraceLoggingFloat64Array(...) EH__T2(EF, , EH_ENC_VALUE_DOUBLE | EH_ENC_VARRAY_FLAG, EH_FMT_FLOAT, OK, VARRAY, double, __VA_ARGS__)
#define TraceLoggingBooleanArray(...) EH__T2(EF, , EH_ENC_VALUE8 | EH_ENC_VARRAY_FLAG, EH_FMT_BOOLEAN, OK, VARRAY, uint8_t, __VA_ARGS__)
#define TraceLoggingBoolArray(...) EH__T2(EF, , EH_ENC_VALUE32 | EH_ENC_VARRAY_FLAG, EH_FMT_BOOLEAN, OK, VARRAY, int32_t, __VA_ARGS__)
#define TraceLoggingCharArray(...) EH__T2(EF, , EH_ENC_VALUE8 | EH_ENC_VARRAY_FLAG, EH_FMT_STRING8, OK, VARRAY, char, __VA_ARGS__)
#define TraceLoggingChar16Array(...) EH__T2(EF, , EH_ENC_VALUE16 | EH_ENC_VARRAY_FLAG, EH_FMT_STRING_UTF, OK, VARRAY, eh_char16_t, __VA_ARGS__)
#define TraceLoggingChar32Array(...) EH__T2(EF, , EH_ENC_VALUE32 | EH_ENC_VARRAY_FLAG, EH_FMT_STRING_UTF, OK, VARRAY, eh_char32_t, __VA_ARGS__)
#define TraceLoggingWCharArray(...) EH__T2(EF, , EH_ENC_VALUE_WCHAR | EH_ENC_VARRAY_FLAG, EH_FMT_STRING_UTF, OK, VARRAY, wchar_t, __VA_ARGS__)
#define TraceLoggingPointerArray(...) EH__T2(EF, , EH_ENC_VALUE_PTR | EH_ENC_VARRAY_FLAG, EH_FMT_HEX_INT, OK, VARRAY, eh__cptr, __VA_ARGS__)
#define TraceLoggingPidArray(...) EH__T2(EF, , EH_ENC_VALUE32 | EH_ENC_VARRAY_FLAG, EH_FMT_PID, OK, VARRAY, int32_t, __VA_ARGS__)
#define TraceLoggingPortArray(...) EH__T2(EF, , EH_ENC_VALUE16 | EH_ENC_VARRAY_FLAG, EH_FMT_PORT, OK, VARRAY, uint16_t, __VA_ARGS__)
#define TraceLoggingErrnoArray(...) EH__T2(EF, , EH_ENC_VALUE32 | EH_ENC_VARRAY_FLAG, EH_FMT_ERRNO, OK, VARRAY, int32_t, __VA_ARGS__)
#define TraceLoggingTime32Array(...) EH__T2(EF, , EH_ENC_VALUE32 | EH_ENC_VARRAY_FLAG, EH_FMT_TIME, OK, VARRAY, int32_t, __VA_ARGS__)
#define TraceLoggingTime64Array(...) EH__T2(EF, , EH_ENC_VALUE64 | EH_ENC_VARRAY_FLAG, EH_FMT_TIME, OK, VARRAY, int64_t, __VA_ARGS__)

#define TraceLoggingInt8FixedArray(...) EH__T2(EF, C, EH_ENC_VALUE8 | EH_ENC_CARRAY_FLAG, EH_FMT_SIGNED_INT, CARRAY, CARRAY, int8_t, __VA_ARGS__)
#define TraceLoggingUInt8FixedArray(...) EH__T2(E, C, EH_ENC_VALUE8 | EH_ENC_CARRAY_FLAG, 0, CARRAY, CARRAY, uint8_t, __VA_ARGS__)
#define TraceLoggingInt16FixedArray(...) EH__T2(EF, C, EH_ENC_VALUE16 | EH_ENC_CARRAY_FLAG, EH_FMT_SIGNED_INT, CARRAY, CARRAY, int16_t, __VA_ARGS__)
#define TraceLoggingUInt16FixedArray(...) EH__T2(E, C, EH_ENC_VALUE16 | EH_ENC_CARRAY_FLAG, 0, CARRAY, CARRAY, uint16_t, __VA_ARGS__)
#define TraceLoggingInt32FixedArray(...) EH__T2(EF, C, EH_ENC_VALUE32 | EH_ENC_CARRAY_FLAG, EH_FMT_SIGNED_INT, CARRAY, CARRAY, int32_t, __VA_ARGS__)
#define TraceLoggingUInt32FixedArray(...) EH__T2(E, C, EH_ENC_VALUE32 | EH_ENC_CARRAY_FLAG, 0, CARRAY, CARRAY, uint32_t, __VA_ARGS__)
#define TraceLoggingInt64FixedArray(...) EH__T2(EF, C, EH_ENC_VALUE64 | EH_ENC_CARRAY_FLAG, EH_FMT_SIGNED_INT, CARRAY, CARRAY, int64_t, __VA_ARGS__)
#define TraceLoggingUInt64FixedArray(...) EH__T2(E, C, EH_ENC_VALUE64 | EH_ENC_CARRAY_FLAG, 0, CARRAY, CARRAY, uint64_t, __VA_ARGS__)
#define TraceLoggingIntPtrFixedArray(...) EH__T2(EF, C, EH_ENC_VALUE_PTR | EH_ENC_CARRAY_FLAG, EH_FMT_SIGNED_INT, CARRAY, CARRAY, intptr_t, __VA_ARGS__)
#define TraceLoggingUIntPtrFixedArray(...) EH__T2(E, C, EH_ENC_VALUE_PTR | EH_ENC_CARRAY_FLAG, 0, CARRAY, CARRAY, uintptr_t, __VA_ARGS__)
#define TraceLoggingLongFixedArray(...) EH__T2(EF, C, EH_ENC_VALUE_LONG | EH_ENC_CARRAY_FLAG, EH_FMT_SIGNED_INT, CARRAY, CARRAY, long, __VA_ARGS__)
#define TraceLoggingULongFixedArray(...) EH__T2(E, C, EH_ENC_VALUE_LONG | EH_ENC_CARRAY_FLAG, 0, CARRAY, CARRAY, unsigned long, __VA_ARGS__)
#define TraceLoggingHexInt8FixedArray(...) EH__T2(EF, C, EH_ENC_VALUE8 | EH_ENC_CARRAY_FLAG, EH_FMT_HEX_INT, CARRAY, CARRAY, int8_t, __VA_ARGS__)
#define TraceLoggingHexUInt8FixedArray(...) EH__T2(EF, C, EH_ENC_VALUE8 | EH_ENC_CARRAY_FLAG, EH_FMT_HEX_INT, CARRAY, CARRAY, uint8_t, __VA_ARGS__)
#define TraceLoggingHexInt16FixedArray(...) EH__T2(EF, C, EH_ENC_VALUE16 | EH_ENC_CARRAY_FLAG, EH_FMT_HEX_INT, CARRAY, CARRAY, int16_t, __VA_ARGS__)
#define TraceLoggingHexUInt16FixedArray(...) EH__T2(EF, C, EH_ENC_VALUE16 | EH_ENC_CARRAY_FLAG, EH_FMT_HEX_INT, CARRAY, CARRAY, uint16_t, __VA_ARGS__)
#define TraceLoggingHexInt32FixedArray(...) EH__T2(EF, C, EH_ENC_VALUE32 | EH_ENC_CARRAY_FLAG, EH_FMT_HEX_INT, CARRAY, CARRAY, int32_t, __VA_ARGS__)
#define TraceLoggingHexUInt32FixedArray(...) EH__T2(EF, C, EH_ENC_VALUE32 | EH_ENC_CARRAY_FLAG, EH_FMT_HEX_INT, CARRAY, CARRAY, uint32_t, __VA_ARGS__)
#define TraceLoggingHexInt64FixedArray(...) EH__T2(EF, C, EH_ENC_VALUE64 | EH_ENC_CARRAY_FLAG, EH_FMT_HEX_INT, CARRAY, CARRAY, int64_t, __VA_ARGS__)
#define TraceLoggingHexUInt64FixedArray(...) EH__T2(EF, C, EH_ENC_VALUE64 | EH_ENC_CARRAY_FLAG, EH_FMT_HEX_INT, CARRAY, CARRAY, uint64_t, __VA_ARGS__)
#define TraceLoggingHexIntPtrFixedArray(...) EH__T2(EF, C, EH_ENC_VALUE_PTR | EH_ENC_CARRAY_FLAG, EH_FMT_HEX_INT, CARRAY, CARRAY, intptr_t, __VA_ARGS__)
#define TraceLoggingHexUIntPtrFixedArray(...) EH__T2(EF, C, EH_ENC_VALUE_PTR | EH_ENC_CARRAY_FLAG, EH_FMT_HEX_INT, CARRAY, CARRAY, uintptr_t, __VA_ARGS__)
#define TraceLoggingHexLongFixedArray(...) EH__T2(EF, C, EH_ENC_VALUE_LONG | EH_ENC_CARRAY_FLAG, EH_FMT_HEX_INT, CARRAY, CARRAY, long, __VA_ARGS__)
#define TraceLoggingHexULongFixedArray(...) EH__T2(EF, C, EH_ENC_VALUE_LONG | EH_ENC_CARRAY_FLAG, EH_FMT_HEX_INT, CARRAY, CARRAY, unsigned long, __VA_ARGS__)
#define TraceLoggingFloat32FixedArray(...) EH__T2(EF, C, EH_ENC_VALUE_FLOAT | EH_ENC_CARRAY_FLAG, EH_FMT_FLOAT, CARRAY, CARRAY, float, __VA_ARGS__)
#define TraceLoggingFloat64FixedArray(...) EH__T2(EF, C, EH_ENC_VALUE_DOUBLE | EH_ENC_CARRAY_FLAG, EH_FMT_FLOAT, CARRAY, CARRAY, double, __VA_ARGS__)
#define TraceLoggingBooleanFixedArray(...) EH__T2(EF, C, EH_ENC_VALUE8 | EH_ENC_CARRAY_FLAG, EH_FMT_BOOLEAN, CARRAY, CARRAY, uint8_t, __VA_ARGS__)
#define TraceLoggingBoolFixedArray(...) EH__T2(EF, C, EH_ENC_VALUE32 | EH_ENC_CARRAY_FLAG, EH_FMT_BOOLEAN, CARRAY, CARRAY, int32_t, __VA_ARGS__)
#define TraceLoggingCharFixedArray(...) EH__T2(EF, C, EH_ENC_VALUE8 | EH_ENC_CARRAY_FLAG, EH_FMT_STRING8, CARRAY, CARRAY, char, __VA_ARGS__)
#define TraceLoggingChar16FixedArray(...) EH__T2(EF, C, EH_ENC_VALUE16 | EH_ENC_CARRAY_FLAG, EH_FMT_STRING_UTF, CARRAY, CARRAY, eh_char16_t, __VA_ARGS__)
#define TraceLoggingChar32FixedArray(...) EH__T2(EF, C, EH_ENC_VALUE32 | EH_ENC_CARRAY_FLAG, EH_FMT_STRING_UTF, CARRAY, CARRAY, eh_char32_t, __VA_ARGS__)
#define TraceLoggingWCharFixedArray(...) EH__T2(EF, C, EH_ENC_VALUE_WCHAR | EH_ENC_CARRAY_FLAG, EH_FMT_STRING_UTF, CARRAY, CARRAY, wchar_t, __VA_ARGS__)
#define TraceLoggingPointerFixedArray(...) EH__T2(EF, C, EH_ENC_VALUE_PTR | EH_ENC_CARRAY_FLAG, EH_FMT_HEX_INT, CARRAY, CARRAY, eh__cptr, __VA_ARGS__)
#define TraceLoggingPidFixedArray(...) EH__T2(EF, C, EH_ENC_VALUE32 | EH_ENC_CARRAY_FLAG, EH_FMT_PID, CARRAY, CARRAY, int32_t, __VA_ARGS__)
#define TraceLoggingPortFixedArray(...) EH__T2(EF, C, EH_ENC_VALUE16 | EH_ENC_CARRAY_FLAG, EH_FMT_PORT, CARRAY, CARRAY, uint16_t, __VA_ARGS__)
#define TraceLoggingErrnoFixedArray(...) EH__T2(EF, C, EH_ENC_VALUE32 | EH_ENC_CARRAY_FLAG, EH_FMT_ERRNO, CARRAY, CARRAY, int32_t, __VA_ARGS__)
#define TraceLoggingTime32FixedArray(...) EH__T2(EF, C, EH_ENC_VALUE32 | EH_ENC_CARRAY_FLAG, EH_FMT_TIME, CARRAY, CARRAY, int32_t, __VA_ARGS__)
#define TraceLoggingTime64FixedArray(...) EH__T2(EF, C, EH_ENC_VALUE64 | EH_ENC_CARRAY_FLAG, EH_FMT_TIME, CARRAY, CARRAY, int64_t, __VA_ARGS__)

/* GUIDs, IP addresses. */
#define TraceLoggingGuid(...) EH__T1(EF, EH_ENC_VALUE128, EH_FMT_UUID, BYTES16, _, __VA_ARGS__)
#define TraceLoggingIPv4Address(...) EH__T1(EF, EH_ENC_VALUE32, EH_FMT_IP_ADDRESS, SCALAR, uint32_t, __VA_ARGS__)
#define TraceLoggingIPv6Address(...) EH__T1(EF, EH_ENC_VALUE128, EH_FMT_IP_ADDRESS_OBSOLETE, BYTES16, _, __VA_ARGS__)

/* Strings (NULL is sent as ""). String/CountedString are Latin-1. */
#define TraceLoggingString(...) EH__T1(EF, EH_ENC_ZSTRING_CHAR8, EH_FMT_STRING8, ZSTR, char, __VA_ARGS__)
#define TraceLoggingUtf8String(...) EH__T1(E, EH_ENC_ZSTRING_CHAR8, 0, ZSTR, char, __VA_ARGS__)
#define TraceLoggingString16(...) EH__T1(E, EH_ENC_ZSTRING_CHAR16, 0, ZSTR, eh_char16_t, __VA_ARGS__)
#define TraceLoggingString32(...) EH__T1(E, EH_ENC_ZSTRING_CHAR32, 0, ZSTR, eh_char32_t, __VA_ARGS__)
#define TraceLoggingWideString(...) EH__T1(E, EH_ENC_ZSTRING_WCHAR, 0, ZSTR, wchar_t, __VA_ARGS__)
#define TraceLoggingCountedString(...) EH__T2(EF, , EH_ENC_STRING_LENGTH16_CHAR8, EH_FMT_STRING8, OK, VARRAY, char, __VA_ARGS__)
#define TraceLoggingCountedUtf8String(...) EH__T2(E, , EH_ENC_STRING_LENGTH16_CHAR8, 0, OK, VARRAY, char, __VA_ARGS__)
#define TraceLoggingCountedString16(...) EH__T2(E, , EH_ENC_STRING_LENGTH16_CHAR16, 0, OK, VARRAY, eh_char16_t, __VA_ARGS__)
#define TraceLoggingCountedString32(...) EH__T2(E, , EH_ENC_STRING_LENGTH16_CHAR32, 0, OK, VARRAY, eh_char32_t, __VA_ARGS__)
#define TraceLoggingCountedWideString(...) EH__T2(E, , EH_ENC_STRING_LENGTH16_WCHAR, 0, OK, VARRAY, wchar_t, __VA_ARGS__)

/* Binary(p, cb): counted bytes, shown as hex. BinaryEx(p, cb, format). */
#define TraceLoggingBinary(...) EH__T2(EF, , EH_ENC_STRING_LENGTH16_CHAR8, EH_FMT_HEX_BYTES, OK, CBYTES, _, __VA_ARGS__)
#define TraceLoggingBinaryEx(p, cb, ...) EH__CAT(EH__TBX_, EH__NARGS(__VA_ARGS__))(p, cb, __VA_ARGS__)
#define EH__TBX_1(p, cb, f) (F, EF, #p, EH_ENC_STRING_LENGTH16_CHAR8, f, 0, 0, OK, CBYTES, _, p, cb)
#define EH__TBX_2(p, cb, f, n) (F, EF, n, EH_ENC_STRING_LENGTH16_CHAR8, f, 0, 0, OK, CBYTES, _, p, cb)
#define EH__TBX_3(p, cb, f, n, d) EH__TBX_2(p, cb, f, n)
#define EH__TBX_4(p, cb, f, n, d, t) (F, EFT, n, EH_ENC_STRING_LENGTH16_CHAR8, f, t, 0, OK, CBYTES, _, p, cb)

/* Struct(count, "name" [, "description" [, tag]]): the next count fields. */
#define TraceLoggingStruct(...) EH__CAT(EH__TSTRUCT_, EH__NARGS(__VA_ARGS__))(EH_ENC_STRUCT, __VA_ARGS__)
#define TraceLoggingPackedStruct(...) EH__CAT(EH__TSTRUCT_, EH__NARGS(__VA_ARGS__))(EH_ENC_STRUCT, __VA_ARGS__)
#define TraceLoggingPackedStructArray(...) EH__CAT(EH__TSTRUCT_, EH__NARGS(__VA_ARGS__))(EH_ENC_STRUCT | EH_ENC_VARRAY_FLAG, __VA_ARGS__)
#define EH__TSTRUCT_2(e, n, name) (F, EF, name, e, n, 0, 0, STRUCT, NONE, _, _, _)
#define EH__TSTRUCT_3(e, n, name, d) EH__TSTRUCT_2(e, n, name)
#define EH__TSTRUCT_4(e, n, name, d, t) (F, EFT, name, e, n, t, 0, STRUCT, NONE, _, _, _)

/*
 * Packed fields: the caller supplies bytes in the event's format.
 *	PackedField(p, cb, encoding [, "name" [, "desc" [, tag]]])
 *	PackedFieldEx(p, cb, encoding, format [, "name" [, "desc" [, tag]]])
 *	PackedMetadata(encoding, "name" [, "desc" [, tag]])
 *	PackedMetadataEx(encoding, format, "name" [, "desc" [, tag]])
 *	PackedData(p, cb)
 */
#define TraceLoggingPackedField(...) EH__CAT(EH__TPF_, EH__NARGS(__VA_ARGS__))(__VA_ARGS__)
#define EH__TPF_3(p, cb, e) (F, E, #p, e, 0, 0, 0, OK, BYTES, p, cb, _)
#define EH__TPF_4(p, cb, e, n) (F, E, n, e, 0, 0, 0, OK, BYTES, p, cb, _)
#define EH__TPF_5(p, cb, e, n, d) EH__TPF_4(p, cb, e, n)
#define EH__TPF_6(p, cb, e, n, d, t) (F, EFT, n, e, 0, t, 0, OK, BYTES, p, cb, _)
#define TraceLoggingPackedFieldEx(...) EH__CAT(EH__TPFX_, EH__NARGS(__VA_ARGS__))(__VA_ARGS__)
#define EH__TPFX_4(p, cb, e, f) (F, EF, #p, e, f, 0, 0, OK, BYTES, p, cb, _)
#define EH__TPFX_5(p, cb, e, f, n) (F, EF, n, e, f, 0, 0, OK, BYTES, p, cb, _)
#define EH__TPFX_6(p, cb, e, f, n, d) EH__TPFX_5(p, cb, e, f, n)
#define EH__TPFX_7(p, cb, e, f, n, d, t) (F, EFT, n, e, f, t, 0, OK, BYTES, p, cb, _)
#define TraceLoggingPackedMetadata(...) EH__CAT(EH__TPM_, EH__NARGS(__VA_ARGS__))(__VA_ARGS__)
#define EH__TPM_2(e, n) (F, E, n, e, 0, 0, 0, OK, NONE, _, _, _)
#define EH__TPM_3(e, n, d) EH__TPM_2(e, n)
#define EH__TPM_4(e, n, d, t) (F, EFT, n, e, 0, t, 0, OK, NONE, _, _, _)
#define TraceLoggingPackedMetadataEx(...) EH__CAT(EH__TPMX_, EH__NARGS(__VA_ARGS__))(__VA_ARGS__)
#define EH__TPMX_3(e, f, n) (F, EF, n, e, f, 0, 0, OK, NONE, _, _, _)
#define EH__TPMX_4(e, f, n, d) EH__TPMX_3(e, f, n)
#define EH__TPMX_5(e, f, n, d, t) (F, EFT, n, e, f, t, 0, OK, NONE, _, _, _)
#define TraceLoggingPackedData(p, cb) (P, p, cb, _)

#ifdef __cplusplus
/* Value(v [, "name" [, "desc" [, tag]]]): kind from the C++ type of v. */
#define TraceLoggingValue(...) EH__CAT(EH__TV_, EH__NARGS(__VA_ARGS__))(__VA_ARGS__)
#define EH__TV_1(v) (F, V, #v, 0, 0, 0, 0, OK, VALUE, _, v, 0)
#define EH__TV_2(v, n) (F, V, n, 0, 0, 0, 0, OK, VALUE, _, v, 0)
#define EH__TV_3(v, n, d) EH__TV_2(v, n)
#define EH__TV_4(v, n, d, t) (F, V, n, 0, 0, t, 0, OK, VALUE, _, v, 1)
#endif

/* Front ends: value(s) first, then optional name, description, tag. */
#define EH__T1(base, enc, fmt, dk, ctype, ...) EH__CAT(EH__T1_, EH__NARGS(__VA_ARGS__))(base, enc, fmt, dk, ctype, __VA_ARGS__)
#define EH__T1_1(base, enc, fmt, dk, ctype, v) (F, base, #v, enc, fmt, 0, 0, OK, dk, ctype, v, _)
#define EH__T1_2(base, enc, fmt, dk, ctype, v, n) (F, base, n, enc, fmt, 0, 0, OK, dk, ctype, v, _)
#define EH__T1_3(base, enc, fmt, dk, ctype, v, n, d) EH__T1_2(base, enc, fmt, dk, ctype, v, n)
#define EH__T1_4(base, enc, fmt, dk, ctype, v, n, d, t) (F, EFT, n, enc, fmt, t, 0, OK, dk, ctype, v, _)
#define EH__T2(base, sfx, enc, fmt, chk, dk, ctype, ...) EH__CAT(EH__T2_, EH__NARGS(__VA_ARGS__))(base, sfx, enc, fmt, chk, dk, ctype, __VA_ARGS__)
#define EH__T2_2(base, sfx, enc, fmt, chk, dk, ctype, p, c) (F, EH__CAT(base, sfx), #p, enc, fmt, 0, c, chk, dk, ctype, p, c)
#define EH__T2_3(base, sfx, enc, fmt, chk, dk, ctype, p, c, n) (F, EH__CAT(base, sfx), n, enc, fmt, 0, c, chk, dk, ctype, p, c)
#define EH__T2_4(base, sfx, enc, fmt, chk, dk, ctype, p, c, n, d) EH__T2_3(base, sfx, enc, fmt, chk, dk, ctype, p, c, n)
#define EH__T2_5(base, sfx, enc, fmt, chk, dk, ctype, p, c, n, d, t) (F, EH__CAT(EFT, sfx), n, enc, fmt, t, c, chk, dk, ctype, p, c)

#endif /* EVENTHEADER_TRACELOGGINGPROVIDER_H */
