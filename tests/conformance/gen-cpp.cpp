// SPDX-License-Identifier: MIT
/*
 * gen-cpp.cpp - TestProviderCpp of the reference corpus: the same events
 * as gen-c.c with the header compiled as C++.
 */
#include <eventheader/TraceLoggingProvider.h>

#include "gen.h"

TRACELOGGING_DEFINE_PROVIDER(TestProviderCpp, "TestProviderCpp",
	(0x0da7a945, 0x8af5, 0x5a4c, 0x2b, 0x1a, 0x7b, 0x27, 0x7a, 0x6e, 0x8b,
	 0x10));

TRACELOGGING_DEFINE_PROVIDER(TestProviderCppG, "TestProviderCpp",
	(0x0da7a945, 0x8af5, 0x5a4c, 0x2b, 0x1a, 0x7b, 0x27, 0x7a, 0x6e, 0x8b,
	 0x10),
	TraceLoggingOptionGroupName("msft"));

#define GEN_PROVIDER TestProviderCpp
#include "gen-common.h"

static void gen_group_event(void)
{
	TraceLoggingWrite(TestProviderCppG, "EventCppG",
			  TraceLoggingBoolean(TraceLoggingProviderEnabled(
						      TestProviderCppG, 5, 0),
					      "enabled"));
}

/* TraceLoggingValue: the field kind follows the C++ type. */
static void gen_values(void)
{
	static const char16_t hello16[] = u"hello";
	static const char32_t hello32[] = U"hello";
	static const wchar_t hellow[] = L"hello";
	void *p = (void *)(intptr_t)-12345;
	char hello[] = "hello";

#define GEN_VALUE(event, type, zero, a, a_name)                                \
	TraceLoggingWrite(TestProviderCpp, "Value:" event,                     \
			  TraceLoggingValue(static_cast<type>(zero), "0"),     \
			  TraceLoggingValue(static_cast<type>(a), a_name))
	TraceLoggingWrite(TestProviderCpp, "Value:bool",
			  TraceLoggingValue(false, "false", "d", 0x1234),
			  TraceLoggingValue(true));
	GEN_VALUE("char", char, 0, 'A', "A");
	GEN_VALUE("char16", char16_t, 0, u'A', "A");
	GEN_VALUE("char32", char32_t, 0, U'A', "A");
	GEN_VALUE("wchar", wchar_t, 0, L'A', "A");
	GEN_VALUE("schar", signed char, 0, 'A', "A");
	GEN_VALUE("uchar", unsigned char, 0, 'A', "A");
	GEN_VALUE("sshort", short, 0, 'A', "A");
	GEN_VALUE("ushort", unsigned short, 0, 'A', "A");
	GEN_VALUE("sint", int, 0, 'A', "A");
	GEN_VALUE("uint", unsigned, 0, 'A', "A");
	GEN_VALUE("slong", long, 0, 'A', "A");
	GEN_VALUE("ulong", unsigned long, 0, 'A', "A");
	GEN_VALUE("slonglong", long long, 0, 'A', "A");
	GEN_VALUE("ulonglong", unsigned long long, 0, 'A', "A");
	GEN_VALUE("float", float, 0, 'A', "65");
	GEN_VALUE("double", double, 0, 'A', "65");
	GEN_VALUE("void*", void *, 0, p, "p");
	GEN_VALUE("cvoid*", const void *, 0, p, "p");
	GEN_VALUE("char*", char *, 0, hello, "hello");
	GEN_VALUE("cchar*", const char *, 0, hello, "hello");
	GEN_VALUE("char16_t*", char16_t *, 0, const_cast<char16_t *>(hello16), "hello");
	GEN_VALUE("cchar16_t*", const char16_t *, 0, hello16, "hello");
	GEN_VALUE("char32_t*", char32_t *, 0, const_cast<char32_t *>(hello32), "hello");
	GEN_VALUE("cchar32_t*", const char32_t *, 0, hello32, "hello");
	GEN_VALUE("wchar_t*", wchar_t *, 0, const_cast<wchar_t *>(hellow), "hello");
	GEN_VALUE("cwchar_t*", const wchar_t *, 0, hellow, "hello");
#undef GEN_VALUE
}

void gen_cpp(void)
{
	TraceLoggingRegister(TestProviderCpp);
	TraceLoggingRegister(TestProviderCppG);

	gen_group_event();
	gen_group_event();
	gen_common_events();
	gen_values();

	TraceLoggingUnregister(TestProviderCppG);
	TraceLoggingUnregister(TestProviderCpp);
}
