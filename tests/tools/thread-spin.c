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
 *
 * Built with -DTHREAD_SPIN_GARBAGE_FP (nofp-spin: no frame pointers, and
 * -ffixed-rbp, so that the compiler leaves the register alone), both
 * threads point %rbp at a frame of garbage, as code that keeps data there
 * does: a frame-pointer walk reads one return address that no mapping
 * holds (and then a null frame) in every sample, not only when what the
 * register happened to hold looked like a frame.
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

/*
 * thread_spin_loop(), with %rbp at a frame of garbage on the stack (above
 * the loop's, where a walk looks for frames; written, so its page is in):
 * the walk reads an address below any mapping, then a null frame.
 */
__attribute__((noinline))
static unsigned long spin(void)
{
#if defined(THREAD_SPIN_GARBAGE_FP) && defined(__x86_64__)
	volatile unsigned long frame[2] = { 0, 0x10 };

	__asm__ volatile("mov %0, %%rbp" : : "r"(frame) : "memory");
	return thread_spin_loop() + frame[0];
#else
	return thread_spin_loop();
#endif
}

__attribute__((noinline, used))
static void *thread_spin_start(void *arg)
{
	return spin() ? arg : NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc > 1)
		ms = atoi(argv[1]);
	if (pthread_create(&t, NULL, thread_spin_start, NULL))
		return 1;
	spin();
	return pthread_join(t, NULL) ? 1 : 0;
}
