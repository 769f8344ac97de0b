// SPDX-License-Identifier: MIT
/*
 * gen-c.c - the C providers of the reference corpus: the long-name
 * provider and TestProviderC, written with the TraceLogging names.
 */
#include <eventheader/TraceLoggingProvider.h>

#include "gen.h"

#define GEN_X10 "XXXXXXXXXX"
#define GEN_X50 GEN_X10 GEN_X10 GEN_X10 GEN_X10 GEN_X10

TRACELOGGING_DEFINE_PROVIDER(LongProvider,
	"Long_Provider_Name_" GEN_X50 GEN_X50 GEN_X50 GEN_X50
	"0123456789",
	(0x7a442600, 0x4333, 0x5126, 0x60, 0xef, 0x8a, 0xd4, 0x6e, 0xa6, 0x9d,
	 0x8b),
	TraceLoggingOptionGroupName("asdf"));

TRACELOGGING_DEFINE_PROVIDER(TestProviderC, "TestProviderC",
	(0x0da7a945, 0x8af5, 0x5a4c, 0x2b, 0x1a, 0x7b, 0x27, 0x7a, 0x6e, 0x8b,
	 0x0f));

TRACELOGGING_DEFINE_PROVIDER(TestProviderCG, "TestProviderC",
	(0x0da7a945, 0x8af5, 0x5a4c, 0x2b, 0x1a, 0x7b, 0x27, 0x7a, 0x6e, 0x8b,
	 0x0f),
	TraceLoggingOptionGroupName("msft"));

#define GEN_PROVIDER TestProviderC
#include "gen-common.h"

static void gen_group_event(void)
{
	TraceLoggingWrite(TestProviderCG, "EventCG",
			  TraceLoggingBoolean(TraceLoggingProviderEnabled(
						      TestProviderCG, 5, 0),
					      "enabled"));
}

void gen_c(void)
{
	TraceLoggingRegister(LongProvider);
	TraceLoggingRegister(TestProviderC);
	TraceLoggingRegister(TestProviderCG);

	TraceLoggingWrite(LongProvider, "LongProviderEvent");
	gen_group_event();
	gen_common_events();
	gen_group_event();

	TraceLoggingUnregister(TestProviderCG);
	TraceLoggingUnregister(TestProviderC);
	TraceLoggingUnregister(LongProvider);
}
