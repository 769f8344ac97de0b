// SPDX-License-Identifier: MIT
/*
 * providers - two providers, four tracepoints, a known set of events
 *
 *	providers [-w] [COUNT]
 *
 * Writes COUNT rounds (default 3) of four events:
 *
 *	EhExample_Alpha:Start   level 4 (info), keyword 0x1   i, name
 *	EhExample_Alpha:Detail  level 5 (verbose), keyword 0x2   i, half
 *	EhExample_Beta:Tick     level 3 (warning), keyword 0x1   i; id 7 version 1
 *	EhExample_Beta:Fail     level 2 (error), keyword 0x10   i, code
 *
 * so the tracepoints are EhExample_Alpha_L4K1, EhExample_Alpha_L5K2,
 * EhExample_Beta_L3K1 and EhExample_Beta_L2K10. -w waits (up to 10 s)
 * until all four are enabled, and 100 ms more, before writing: a recorder
 * that finds tracepoints as they appear ("ehrecord -e EhExample_Alpha -e
 * EhExample_Beta -- providers -w") then gets every event. (A tracepoint
 * is enabled once the recorder has opened it on its first CPU; the 100 ms
 * let it open the others.)
 *
 *	ehrecord -e EhExample_Alpha -e EhExample_Beta -- ./providers -w 3
 *	ehdecode trace.nettrace
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <eventheader/eh-provider.h>

EH_DEFINE_PROVIDER(alpha, "EhExample_Alpha");
EH_DEFINE_PROVIDER(beta, "EhExample_Beta");

static int all_enabled(void)
{
	return EH_ENABLED(alpha, EH_LEVEL_INFO, 0x1) &&
	       EH_ENABLED(alpha, EH_LEVEL_VERBOSE, 0x2) &&
	       EH_ENABLED(beta, EH_LEVEL_WARNING, 0x1) &&
	       EH_ENABLED(beta, EH_LEVEL_ERROR, 0x10);
}

static int wait_enabled(void)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	int i;

	for (i = 0; i < 1000; i++) {
		if (all_enabled()) {
			struct timespec rest = { 0, 100 * 1000 * 1000 };

			nanosleep(&rest, NULL);
			return 1;
		}
		nanosleep(&tick, NULL);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int wait = argc > 1 && strcmp(argv[1], "-w") == 0;
	int count = argc > 1 + wait ? atoi(argv[1 + wait]) : 3;
	int err, i;

	err = EH_REGISTER(alpha);
	if (!err)
		err = EH_REGISTER(beta);
	if (err)
		fprintf(stderr, "providers: tracing unavailable (%s); running anyway\n",
			strerror(err));
	else if (wait && !wait_enabled())
		fprintf(stderr, "providers: not all tracepoints enabled in 10 s\n");

	for (i = 0; i < count; i++) {
		EH_WRITE(alpha, "Start", EH_LEVEL(EH_LEVEL_INFO), EH_KEYWORD(0x1),
			 EH_INT32("i", i), EH_STRING_UTF8("name", "alpha"));
		EH_WRITE(alpha, "Detail", EH_LEVEL(EH_LEVEL_VERBOSE),
			 EH_KEYWORD(0x2), EH_INT32("i", i),
			 EH_FLOAT64("half", i / 2.0));
		EH_WRITE(beta, "Tick", EH_LEVEL(EH_LEVEL_WARNING), EH_KEYWORD(0x1),
			 EH_ID_VERSION(7, 1), EH_INT32("i", i));
		EH_WRITE(beta, "Fail", EH_LEVEL(EH_LEVEL_ERROR), EH_KEYWORD(0x10),
			 EH_INT32("i", i),
			 EH_UINT32("code", 0xC0DE0000u + (unsigned int)i));
	}

	EH_UNREGISTER(beta);
	EH_UNREGISTER(alpha);
	printf("providers: wrote %d events\n", 4 * count);
	return 0;
}
