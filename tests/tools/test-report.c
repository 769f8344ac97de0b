// SPDX-License-Identifier: MIT
/*
 * test-report - ehrecord's end line (tools/report.c report_recording())
 * on made-up session counts: what a perf.data or a nettrace is said to
 * hold, and the line more when the kernel counted more events than its
 * rings held (for a nettrace, than its converter read of the whole
 * stream), which no test can make the kernel do, and not with --circular.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report.h"

/* What report_recording() says of @rec and @st, NUL-terminated (freed). */
static char *said(const struct report_recording *rec,
		  const struct ehd_session_stats *st)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	assert_non_null(f);
	report_recording(f, "ehrecord", rec, st);
	assert_int_equal(fclose(f), 0);
	return text;
}

static void check(const struct report_recording *rec,
		  const struct ehd_session_stats *st, const char *want)
{
	char *text = said(rec, st);

	assert_string_equal(text, want);
	free(text);
}

static void test_perf(void **state)
{
	struct report_recording rec = {
		.output = "a.data", .perf = true, .seconds = 2.04,
	};
	struct ehd_session_stats st = {
		.samples = 999, .kernel_samples = 999, .lost = 3,
	};

	(void)state;
	/* the drain thread's count: the file's */
	check(&rec, &st, "ehrecord: wrote a.data: 999 events, 3 lost, in 2.0 s\n");
	/* the kernel counted one it never wrote: said, on a line of its own */
	st.kernel_samples = 1000;
	check(&rec, &st,
	      "ehrecord: wrote a.data: 999 events, 3 lost, in 2.0 s\n"
	      "ehrecord: the kernel counted 1 more events than it wrote to the rings (not in the file, and not counted as lost)\n");
	/* records left out for --max-size: the gap is theirs */
	st.limit_dropped = 144;
	check(&rec, &st, "ehrecord: wrote a.data: 999 events, 3 lost, in 2.0 s\n");
	/* cut short for want of room: the kernel's count, as recorded */
	st.limit_dropped = 0;
	rec.cut = true;
	check(&rec, &st,
	      "ehrecord: wrote a.data (cut short: no room): 1000 events recorded, 3 lost, in 2.0 s\n");
	/* CPU samples: counted apart, as the drain thread wrote them */
	rec.cpu_samples = true;
	st.cpu_samples = 40;
	check(&rec, &st,
	      "ehrecord: wrote a.data (cut short: no room): 1000 events recorded and CPU samples, 3 lost, in 2.0 s\n");
	rec.cut = false;
	st.kernel_samples = 999;
	rec.last = "a.data.2";
	check(&rec, &st,
	      "ehrecord: wrote a.data to a.data.2: 999 events and 40 CPU samples, 3 lost, in 2.0 s\n");
}

/*
 * --circular: the file holds what the snapshots wrote, the newest; the
 * kernel's count takes in those overwritten, and is not the file's.
 */
static void test_circular(void **state)
{
	struct report_recording rec = {
		.output = "a.data", .perf = true, .seconds = 1.0,
	};
	struct ehd_session_stats st = {
		.samples = 400, .kernel_samples = 3000, .circular = true,
	};

	(void)state;
	check(&rec, &st, "ehrecord: wrote a.data: 400 events, 0 lost, in 1.0 s\n");
	/* converted: its reader read all the snapshots wrote */
	rec = (struct report_recording){
		.output = "a.nettrace", .events = 400, .samples_read = 400,
		.read_all = true, .seconds = 1.0,
	};
	check(&rec, &st, "ehrecord: wrote a.nettrace: 400 events, 0 lost, in 1.0 s\n");
	/* not circular: the gap is said */
	st.circular = false;
	check(&rec, &st,
	      "ehrecord: wrote a.nettrace: 400 events, 0 lost, in 1.0 s\n"
	      "ehrecord: the kernel counted 2600 more events than it wrote to the rings (not in the file, and not counted as lost)\n");
}

static void test_nettrace(void **state)
{
	struct report_recording rec = {
		.output = "a.nettrace", .events = 5, .cpu_samples = true,
		.seconds = 0.31,
	};
	/* the session's counts are not what a converted file holds */
	struct ehd_session_stats st = {
		.samples = 7, .kernel_samples = 9, .cpu_samples = 2,
	};

	(void)state;
	check(&rec, &st, "ehrecord: wrote a.nettrace: 5 events, 0 lost, in 0.3 s\n");
	/*
	 * Its reader read the whole stream: as many tracepoint samples as
	 * the kernel counted (some not events of the file: said apart), or
	 * one fewer, which is nowhere and said.
	 */
	rec.read_all = true;
	rec.samples_read = 9;
	check(&rec, &st, "ehrecord: wrote a.nettrace: 5 events, 0 lost, in 0.3 s\n");
	rec.samples_read = 8;
	check(&rec, &st,
	      "ehrecord: wrote a.nettrace: 5 events, 0 lost, in 0.3 s\n"
	      "ehrecord: the kernel counted 1 more events than it wrote to the rings (not in the file, and not counted as lost)\n");
	/* a conversion ended early read less: the gap is not the kernel's */
	rec.read_all = false;
	check(&rec, &st, "ehrecord: wrote a.nettrace: 5 events, 0 lost, in 0.3 s\n");
	rec.read_all = true;
	rec.cut = true;
	check(&rec, &st,
	      "ehrecord: wrote a.nettrace (cut short: no room): 5 events, 0 lost, in 0.3 s\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_perf),
		cmocka_unit_test(test_nettrace),
		cmocka_unit_test(test_circular),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
