// SPDX-License-Identifier: MIT
/*
 * perf-lost - write to standard output a small pipe-mode perf.data with
 * what a tool must not drop silently: two events, two samples, one of
 * them with an id that no event has, then the same 7 losses reported twice,
 * as perf record 6.x does: a PERF_RECORD_LOST from the kernel while
 * recording, then a PERF_RECORD_LOST_SAMPLES with the total at the end.
 */
#include <stdio.h>
#include <linux/perf_event.h>

#include "perf-build.h"

static void sample(struct wr *x, uint64_t id, uint64_t time)
{
	size_t at = rec_begin(x, PERF_RECORD_SAMPLE);

	w8(x, id);
	w4(x, 100);
	w4(x, 101);
	w8(x, time);
	rec_end(x, at);
}

/* An event whose samples carry @id. */
static void attr(struct wr *x, uint64_t config, uint64_t id)
{
	size_t at = rec_begin(x, 64), i;	/* HEADER_ATTR */

	w4(x, PERF_TYPE_SOFTWARE);
	w4(x, PERF_ATTR_SIZE_VER7);
	w8(x, config);
	w8(x, 1);
	w8(x, PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME);
	for (i = 32; i < PERF_ATTR_SIZE_VER7; i += 8)
		w8(x, 0);
	w8(x, id);
	rec_end(x, at);
}

int main(void)
{
	struct wr x = { .be = false };
	size_t at;
	int ok;

	wbytes(&x, "PERFILE2", 8);
	w8(&x, 16);
	attr(&x, PERF_COUNT_SW_CPU_CLOCK, 1);
	attr(&x, PERF_COUNT_SW_TASK_CLOCK, 2);
	sample(&x, 1, 1000);
	sample(&x, 99, 2000);
	at = rec_begin(&x, PERF_RECORD_LOST);
	w8(&x, 1);
	w8(&x, 7);
	rec_end(&x, at);
	at = rec_begin(&x, PERF_RECORD_LOST_SAMPLES);
	w8(&x, 7);
	rec_end(&x, at);
	ok = fwrite(x.b.p, 1, x.b.len, stdout) == x.b.len && !fflush(stdout);
	free(x.b.p);
	return ok ? 0 : 1;
}
