// SPDX-License-Identifier: MIT
/*
 * thread-spin - a hot loop in the main thread and in a second thread, for
 * CPU sampling (tests/tools/system-host.sh: where their stacks end)
 *
 *	thread-spin [MILLISECONDS]
 *
 * Both threads spin for MILLISECONDS (default 300) of their own CPU time
 * in thread_spin_loop(), the main thread called from main, the other from
 * its start routine. Built with frame pointers.
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

static int ms = 300;

__attribute__((noinline, used))
static unsigned long thread_spin_loop(void)
{
	struct timespec t0, t;
	volatile unsigned long n = 0;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 100000; i++)
			n++;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 +
		 (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
	return n;
}

__attribute__((noinline, used))
static void *thread_spin_start(void *arg)
{
	return thread_spin_loop() ? arg : NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc > 1)
		ms = atoi(argv[1]);
	if (pthread_create(&t, NULL, thread_spin_start, NULL))
		return 1;
	thread_spin_loop();
	return pthread_join(t, NULL) ? 1 : 0;
}
