// SPDX-License-Identifier: MIT
/*
 * hello - the smallest instrumented program
 *
 * Writes one "Hello" event to the user_events tracepoint
 * "EhExample_Hello_L4K1" each time it runs, plus "Count" events for
 * an optional count given as the first argument. See it with:
 *
 *	ehrecord -- ./hello 3     (or: perf record -e user_events:EhExample_Hello_L4K1)
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <eventheader/eh-provider.h>

EH_DEFINE_PROVIDER(hello_provider, "EhExample_Hello");

int main(int argc, char **argv)
{
	int count = argc > 1 ? atoi(argv[1]) : 1;
	int err, i;

	err = EH_REGISTER(hello_provider);
	if (err)
		fprintf(stderr, "hello: tracing unavailable (%s); running anyway\n",
			strerror(err));

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
