// SPDX-License-Identifier: MIT
/*
 * vm-events.c - the EH_WRITE() calls of the round-trip test
 *
 * Built once for the kernel (vm-roundtrip) and once with -DEH_INTERCEPTOR
 * (vm-intercept). Every value written is a constant, so two runs write the
 * same bytes. The events cover the field kinds of eh-provider.h: integers
 * of each size, hex, floats, booleans, chars, pid/errno/time, pointers,
 * strings of each unit size (NUL-terminated and counted), variable and
 * fixed arrays, binary, GUID, IP addresses, ports, structs, field and event
 * tags, id/version, opcodes, activity ids with and without a related id,
 * a provider group, a 64-bit keyword, an event without fields and one
 * larger than EH_GATHER_MAX (written as several iovecs).
 */
#include <string.h>
#include <wchar.h>

#include <eventheader/eh-provider.h>

#include "vm-events.h"

EH_DEFINE_PROVIDER(vm_prov_a, "EhVmTest_A");
EH_DEFINE_PROVIDER(vm_prov_b, "EhVmTest_B");
EH_DEFINE_PROVIDER_GROUP(vm_prov_g, "EhVmTest_G", "ehvm");

int vm_events_register(int provider)
{
	switch (provider) {
	case VM_PROVIDER_A:
		return EH_REGISTER(vm_prov_a);
	case VM_PROVIDER_B:
		return EH_REGISTER(vm_prov_b);
	case VM_PROVIDER_G:
		return EH_REGISTER(vm_prov_g);
	}
	return EINVAL;
}

void vm_events_unregister(int provider)
{
	switch (provider) {
	case VM_PROVIDER_A:
		EH_UNREGISTER(vm_prov_a);
		break;
	case VM_PROVIDER_B:
		EH_UNREGISTER(vm_prov_b);
		break;
	case VM_PROVIDER_G:
		EH_UNREGISTER(vm_prov_g);
		break;
	}
}

/*
 * The tracepoints of a provider are the entries of its linker section
 * "eh_tp_<sym>", bounded by the __start_/__stop_ symbols that
 * EH_DEFINE_PROVIDER() declares.
 */
static int list_section(struct eh_tracepoint *const *start,
			struct eh_tracepoint *const *stop,
			const struct eh_provider *p, int index,
			struct vm_tracepoint *out, int n, int max)
{
	for (; start && start < stop; start++) {
		const struct eh_tracepoint *tp = *start;

		if (!tp || tp->provider != p || n >= max)
			continue;
		eh_format_tracepoint_name(out[n].name, sizeof(out[n].name),
					  p->name, tp->level, tp->keyword,
					  p->options);
		out[n].status = &tp->status;
		out[n].provider = index;
		n++;
	}
	return n;
}

int vm_events_tracepoints(struct vm_tracepoint *out, int max)
{
	int n = 0;

	n = list_section(__start_eh_tp_vm_prov_a, __stop_eh_tp_vm_prov_a,
			 &vm_prov_a, VM_PROVIDER_A, out, n, max);
	n = list_section(__start_eh_tp_vm_prov_b, __stop_eh_tp_vm_prov_b,
			 &vm_prov_b, VM_PROVIDER_B, out, n, max);
	n = list_section(__start_eh_tp_vm_prov_g, __stop_eh_tp_vm_prov_g,
			 &vm_prov_g, VM_PROVIDER_G, out, n, max);
	return n;
}

int vm_events_probe_enabled(void)
{
	return EH_ENABLED(vm_prov_a, 4, 0x10);
}

int vm_events_write_one(void)
{
	return EH_WRITE(vm_prov_b, "One", EH_LEVEL(4), EH_KEYWORD(1),
			EH_UINT32("answer", 42));
}

int vm_events_write(int rcs[VM_EVENTS_MAX])
{
	static const int32_t i32s[5] = { -2, -1, 0, 1, 0x7fffffff };
	static const uint16_t u16s[3] = { 1, 0x8000, 0xffff };
	static const double f64s[2] = { 0.5, -1e300 };
	static const eh_char16_t s16[] = { 'u', 't', 'f', '1', '6', 0x263a, 0 };
	static const eh_char32_t s32[] = { 'u', 't', 'f', '3', '2',
					   0x1f600, 0 };
	static const uint8_t guid[16] = { 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc,
					  0x4d, 0xef, 0x80, 0x01, 0x02, 0x03,
					  0x04, 0x05, 0x06, 0x07 };
	static const uint8_t ipv6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0,
					  0, 0, 0, 0, 0, 0, 0, 1 };
	static const uint8_t aid[16] = { 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6,
					 0x47, 0xa8, 0xa9, 0xaa, 0xab, 0xac,
					 0xad, 0xae, 0xaf, 0xb0 };
	static const uint8_t rid[16] = { 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6,
					 0x47, 0xc8, 0xc9, 0xca, 0xcb, 0xcc,
					 0xcd, 0xce, 0xcf, 0xd0 };
	static const char counted[] = "counted, not terminated";
	uint8_t bytes[700];
	int n = 0, i;

	for (i = 0; i < (int)sizeof(bytes); i++)
		bytes[i] = (uint8_t)(i * 7 + 3);

	rcs[n++] = EH_WRITE(vm_prov_a, "Empty", EH_LEVEL(4), EH_KEYWORD(1));

	rcs[n++] = EH_WRITE(vm_prov_a, "Integers", EH_LEVEL(4), EH_KEYWORD(1),
			    EH_INT8("i8", -8), EH_UINT8("u8", 200),
			    EH_INT16("i16", -1600), EH_UINT16("u16", 60000),
			    EH_INT32("i32", -320000), EH_UINT32("u32", 4000000000u),
			    EH_INT64("i64", -6400000000000LL),
			    EH_UINT64("u64", 18000000000000000000ULL),
			    EH_LONG("long", -7L), EH_ULONG("ulong", 7UL),
			    EH_INTPTR("intptr", -9), EH_UINTPTR("uintptr", 9));

	rcs[n++] = EH_WRITE(vm_prov_a, "Formats", EH_LEVEL(4), EH_KEYWORD(1),
			    EH_HEXUINT32("hex32", 0xdeadbeef),
			    EH_HEXUINT64("hex64", 0x0123456789abcdefULL),
			    EH_FLOAT32("f32", 1.5f), EH_FLOAT64("f64", -2.25),
			    EH_BOOL8("b8", 1), EH_BOOL32("b32", 0),
			    EH_CHAR8("c8", 'x'), EH_CHAR16("c16", 0x3a9),
			    EH_CHAR32("c32", 0x1f642), EH_WCHAR("wc", L'w'),
			    EH_POINTER("ptr", (const void *)(uintptr_t)0x1000),
			    EH_PID("pid", 4321), EH_ERRNO("errno", ENOENT),
			    EH_TIME32("t32", 1700000000),
			    EH_TIME64("t64", 4102444800LL),
			    EH_PORT("port", 0x5000), EH_IPV4("ipv4", 0x0100007f),
			    EH_IPV6("ipv6", ipv6), EH_GUID("guid", guid));

	rcs[n++] = EH_WRITE(vm_prov_a, "Strings", EH_LEVEL(5), EH_KEYWORD(2),
			    EH_STRING_UTF8("utf8", "h\xc3\xa9llo"),
			    EH_STRING8("latin1", "caf\xe9"),
			    EH_STRING16("utf16", s16), EH_STRING32("utf32", s32),
			    EH_WSTRING("wide", L"wide"),
			    EH_STRING_UTF8("null", NULL),
			    EH_STRING_UTF8("empty", ""),
			    EH_COUNTED_STRING_UTF8("counted", counted, 7),
			    EH_COUNTED_STRING8("counted8", counted, 0),
			    EH_STRING_JSON("json", "{\"a\":1}"),
			    EH_STRING_XML("xml", "<a/>"));

	rcs[n++] = EH_WRITE(vm_prov_a, "Arrays", EH_LEVEL(4), EH_KEYWORD(1),
			    EH_INT32_ARRAY("i32s", i32s, 5),
			    EH_INT32_ARRAY("none", i32s, 0),
			    EH_UINT16_FIXED_ARRAY("u16s", u16s, 3),
			    EH_FLOAT64_ARRAY("f64s", f64s, 2),
			    EH_CHAR8_ARRAY("chars", "abc", 3),
			    EH_BINARY("bin", bytes, 10));

	rcs[n++] = EH_WRITE(vm_prov_b, "Tagged", EH_LEVEL(3),
			    EH_KEYWORD(0x8000000000000000ULL),
			    EH_ID_VERSION(1000, 2), EH_EVENT_TAG(0x1234),
			    EH_OPCODE(EH_OPCODE_SEND),
			    EH_INT32("tagged", 5, 0x55),
			    EH_STRING_UTF8("plain", "p"));

	rcs[n++] = EH_WRITE(vm_prov_b, "Struct", EH_LEVEL(4), EH_KEYWORD(1),
			    EH_UINT8("before", 1), EH_STRUCT("point", 2),
			    EH_INT32("x", 10), EH_INT32("y", -10),
			    EH_UINT8("after", 2));

	rcs[n++] = EH_WRITE_ACTIVITY(vm_prov_a, "Work", aid, rid,
				     EH_LEVEL(4), EH_KEYWORD(1),
				     EH_OPCODE(EH_OPCODE_ACTIVITY_START),
				     EH_UINT32("items", 3));
	rcs[n++] = EH_WRITE_ACTIVITY(vm_prov_a, "Step", aid, NULL,
				     EH_LEVEL(5), EH_KEYWORD(2),
				     EH_UINT32("item", 1));
	rcs[n++] = EH_WRITE_ACTIVITY(vm_prov_a, "Work", aid, NULL,
				     EH_LEVEL(4), EH_KEYWORD(1),
				     EH_OPCODE(EH_OPCODE_ACTIVITY_STOP),
				     EH_ERRNO("result", 0));

	rcs[n++] = EH_WRITE(vm_prov_g, "Grouped", EH_LEVEL(1), EH_KEYWORD(0xff),
			    EH_STRING_UTF8("group", "ehvm"));

	/* Over EH_GATHER_MAX: goes to the kernel as several iovecs. */
	rcs[n++] = EH_WRITE(vm_prov_a, "Large", EH_LEVEL(4), EH_KEYWORD(1),
			    EH_UINT32("size", (uint32_t)sizeof(bytes)),
			    EH_BINARY("bytes", bytes, sizeof(bytes)),
			    EH_STRING_UTF8("tail", "end"));

	for (i = 0; i < 3; i++)
		rcs[n++] = EH_WRITE(vm_prov_b, "Seq", EH_LEVEL(4), EH_KEYWORD(1),
				    EH_INT32("i", i));

	rcs[n++] = vm_events_write_one();
	return n;
}
