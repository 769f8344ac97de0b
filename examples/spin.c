// SPDX-License-Identifier: MIT
/*
 * spin - keep a CPU busy in one known function, for CPU sampling
 *
 *	spin [MILLISECONDS]
 *
 * Runs spin_hot_loop() for MILLISECONDS (default 500) of its own CPU
 * time, then prints how many rounds it made. A sampler should find
 * spin_hot_loop (called from spin_work, from main) in most of its stacks:
 *
 *	ehrecord -F perf --cpu-sampling -o spin.data -- ./spin
 *	ehdecode --system -m pid,stack -F jsonl spin.data | grep spin_hot_loop
 *
 * Built with frame pointers (see Makefile.am) so that perf's user
 * stacks are whole.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The hot function: a loop the compiler cannot drop. */
unsigned long spin_hot_loop(unsigned long n);

__attribute__((noinline)) unsigned long spin_hot_loop(unsigned long n)
{
	volatile unsigned long x = 0;
	unsigned long i;

	for (i = 0; i < n; i++)
		x += i ^ (x >> 3);
	return x;
}

__attribute__((noinline)) static unsigned long spin_work(double ms)
{
	double end = cpu_ms() + ms;
	unsigned long rounds = 0;

	while (cpu_ms() < end) {
		spin_hot_loop(1000000);
		rounds++;
	}
	return rounds;
}

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 500;

	if (ms <= 0 || ms > 3600e3) {
		fprintf(stderr, "usage: spin [MILLISECONDS]\n");
		return 2;
	}
	printf("spin: %lu rounds\n", spin_work(ms));
	return 0;
}
