// SPDX-License-Identifier: MIT
/*
 * copy-bench - copying ring spans into the spool: glibc's memcpy()
 * against ehd__copy_span()'s loops, in 16-byte moves and (where the CPU
 * has AVX2, as ehd__copy_span() then takes) in 32-byte moves
 * (decode/core/ehd-bytes.h)
 *
 *	copy-bench [SPAN_BYTES [REPEATS]]
 *
 * Copies a SPAN_BYTES (262144: a quarter of ehrecord's 1 MiB ring) span
 * REPEATS (200) times with each, in turns, and prints the rate of each in
 * GB/s (10^9 bytes) from the process's CPU time, the better of three
 * turns. bench/run-live.sh runs it in the test VM, where QEMU's TCG
 * makes the difference; natively they are close.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/ehd-bytes.h"

static double cpu_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

typedef void copy_fn(uint8_t *d, const uint8_t *s, size_t n);

static void libc_copy(uint8_t *d, const uint8_t *s, size_t n)
{
	memcpy(d, s, n);
}

/* GB/s of @reps copies of @n bytes by @copy. */
static double rate(uint8_t *d, const uint8_t *s, size_t n, long reps,
		   copy_fn *copy)
{
	double t = cpu_now();
	long r;

	for (r = 0; r < reps; r++) {
		copy(d, s, n);
		__asm__ volatile("" : : "r"(d) : "memory");
	}
	t = cpu_now() - t;
	return t > 0 ? (double)n * (double)reps / t / 1e9 : 0;
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoul(argv[1], NULL, 0) : 262144;
	long reps = argc > 2 ? strtol(argv[2], NULL, 0) : 200;
	static copy_fn *const copy[] = {
		libc_copy, ehd__copy_span16,
#ifdef EHD__COPY_SPAN32
		ehd__copy_span32,
#endif
	};
	size_t ways = sizeof(copy) / sizeof(copy[0]);
	double best[3] = { 0, 0, 0 }, v;
	uint8_t *s, *d;
	int turn;
	size_t k;

	if (!n || reps <= 0) {
		fprintf(stderr, "usage: copy-bench [SPAN_BYTES [REPEATS]]\n");
		return 2;
	}
#ifdef EHD__COPY_SPAN32
	if (!__builtin_cpu_supports("avx2"))
		ways--;
#endif
	s = malloc(n);
	d = malloc(n);
	if (!s || !d) {
		perror("copy-bench");
		return 1;
	}
	memset(s, 0x5a, n);
	memset(d, 0, n);	/* faulted in before the clock starts */
	for (turn = 0; turn < 3; turn++)
		for (k = 0; k < ways; k++) {
			memset(d, 0, n);
			v = rate(d, s, n, reps, copy[k]);
			if (v > best[k])
				best[k] = v;
			if (memcmp(d, s, n)) {
				fprintf(stderr, "copy-bench: copy %zu differs\n", k);
				return 1;
			}
		}
	printf("copy of %zu-byte spans: memcpy %.2f GB/s, ehd__copy_span's 16-byte moves %.2f GB/s",
	       n, best[0], best[1]);
	if (ways > 2)
		printf(", 32-byte moves %.2f GB/s (taken)", best[2]);
	printf("\n");
	free(s);
	free(d);
	return 0;
}
