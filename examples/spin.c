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
 *	ehrecord --cpu-sampling -o spin.nettrace -- ./spin
 *	ehdecode -m pid,stack -F jsonl spin.nettrace | grep spin_hot_loop
 *
 * Each round also writes a "Round" event to "EhExample_Spin_L4K1"; asked
 * for with its stack, the stack shows where spin_work wrote it:
 *
 *	ehrecord -e EhExample_Spin_L4K1/stacks -o rounds.nettrace -- ./spin
 *
 * Built with frame pointers (see Makefile.am) so that perf's user
 * stacks are whole.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <eventheader/eh-provider.h>

EH_DEFINE_PROVIDER(spin_provider, "EhExample_Spin");

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
		EH_WRITE(spin_provider, "Round", EH_LEVEL(EH_LEVEL_INFO),
			 EH_KEYWORD(1), EH_UINT64("round", rounds));
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
	EH_REGISTER(spin_provider);	/* without tracing, it spins all the same */
	printf("spin: %lu rounds\n", spin_work(ms));
	EH_UNREGISTER(spin_provider);
	return 0;
}
