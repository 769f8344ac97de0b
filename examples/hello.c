// SPDX-License-Identifier: MIT
/*
 * hello - the smallest instrumented program
 *
 * Writes a "Hello" event and COUNT "Count" events to the user_events
 * tracepoint "EhExample_Hello_L4K1":
 *
 *	hello [-w] [COUNT]
 *
 * -w waits (up to 10 s) until a consumer has enabled the tracepoint before
 * writing, so a demo can start the program first and enable it second.
 * Record with e.g. "perf record -e user_events:EhExample_Hello_L4K1".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <eventheader/eh-provider.h>

EH_DEFINE_PROVIDER(hello_provider, "EhExample_Hello");

static int wait_enabled(void)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	int i;

	for (i = 0; i < 1000; i++) {
		if (EH_ENABLED(hello_provider, EH_LEVEL_INFO, 1))
			return 1;
		nanosleep(&tick, NULL);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int wait = argc > 1 && strcmp(argv[1], "-w") == 0;
	int count = argc > 1 + wait ? atoi(argv[1 + wait]) : 1;
	int err, i;

	err = EH_REGISTER(hello_provider);
	if (err)
		fprintf(stderr, "hello: tracing unavailable (%s); running anyway\n",
			strerror(err));
	else if (wait && !wait_enabled())
		fprintf(stderr, "hello: nobody enabled the tracepoint in 10 s\n");

	EH_WRITE(hello_provider, "Hello", EH_LEVEL(EH_LEVEL_INFO), EH_KEYWORD(1),
		 EH_STRING_UTF8("greeting", "hello, world"),
		 EH_INT32("pid", getpid()));
	for (i = 0; i < count; i++)
		EH_WRITE(hello_provider, "Count", EH_LEVEL(EH_LEVEL_INFO),
			 EH_KEYWORD(1), EH_INT32("i", i),
			 EH_FLOAT64("half", i / 2.0));

	EH_UNREGISTER(hello_provider);
	printf("hello: wrote %d event(s)\n", count + 1);
	return 0;
}
