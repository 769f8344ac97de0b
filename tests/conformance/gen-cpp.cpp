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

void gen_cpp(void)
{
	TraceLoggingRegister(TestProviderCpp);
	TraceLoggingRegister(TestProviderCppG);

	gen_group_event();
	gen_group_event();
	gen_common_events();

	TraceLoggingUnregister(TestProviderCppG);
	TraceLoggingUnregister(TestProviderCpp);
}
