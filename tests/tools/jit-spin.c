// SPDX-License-Identifier: MIT
/*
 * jit-spin - code run from anonymous memory and named by a perf map, as a
 * JIT compiler's code is (tests/tools/symbols-host.sh)
 *
 *	jit-spin [MILLISECONDS]
 *
 * Copies a small loop into an anonymous executable mapping, writes
 * /tmp/perf-PID.map naming it "jit_hot_loop" (perf's "START SIZE NAME"
 * lines, in hex), then runs it for MILLISECONDS (default 300) of CPU
 * time. Prints "jit-spin: pid PID". The map file is left for the decoder
 * (as JITs leave theirs); the test deletes it. Built with frame pointers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>

#define CODE_BYTES 256	/* more than the loop takes */

/* Position-independent: no calls, no data (copied as it is). */
__attribute__((noinline, used))
static unsigned long hot_loop(unsigned long n)
{
	unsigned long s = 0, i;

	for (i = 0; i < n; i++)
		s = s * 31 + i;
	return s;
}

static double cpu_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 300, start;
	unsigned long (*fn)(unsigned long), sum = 0;
	char path[64];
	void *code;
	FILE *map;

	code = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (code == MAP_FAILED) {
		perror("jit-spin: mmap");
		return 1;
	}
	memcpy(code, (const void *)hot_loop, CODE_BYTES);
	if (mprotect(code, 4096, PROT_READ | PROT_EXEC)) {
		perror("jit-spin: mprotect");
		return 1;
	}
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	map = fopen(path, "w");
	if (!map) {
		perror(path);
		return 1;
	}
	fprintf(map, "%lx %x jit_hot_loop\n", (unsigned long)code, CODE_BYTES);
	fclose(map);
	printf("jit-spin: pid %d\n", (int)getpid());
	fflush(stdout);
	fn = (unsigned long (*)(unsigned long))code;
	start = cpu_ms();
	while (cpu_ms() - start < ms)
		sum += fn(1000000);
	return sum == 42;	/* (never: keeps the calls) */
}
