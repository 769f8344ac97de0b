// SPDX-License-Identifier: MIT
/*
 * mangled-spin - a hot loop under a C++ name, for CPU sampling
 * (tests/tools/symbols-host.sh)
 *
 *	mangled-spin [MILLISECONDS]
 *
 * Spins for MILLISECONDS (default 300) of CPU time in a function whose
 * symbol is "_ZN2ns5Class3hotEi" (ns::Class::hot(int), a member function
 * of a class in a namespace, to a demangler), called from main. Built
 * with frame pointers.
 */
#include <stdlib.h>
#include <time.h>

__attribute__((noinline, used))
unsigned long spin(int ms) __asm__("_ZN2ns5Class3hotEi");
__attribute__((noinline, used))
unsigned long spin(int ms)
{
	struct timespec t0, t;
	volatile unsigned long n = 0;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 100000; i++)
			n++;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 +
		 (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
	return n;
}

int main(int argc, char **argv)
{
	return spin(argc > 1 ? atoi(argv[1]) : 300) ? 0 : 1;
}
