// SPDX-License-Identifier: MIT
/*
 * test-session - what a live session decides without a kernel: which
 * specs are accepted, and the order of calls (what an EventHeader
 * tracepoint name is, eh_parse_tracepoint_name(), is tested by
 * tests/producer/test-names), what its rings' watermark is made of, and
 * what a recording's command line says it asked for. (Collection itself
 * is tested on the host by tests/tools/live-host.sh and on user_events by
 * tests/vm/live.sh.)
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>
#include <cmocka.h>

#include <ehdecode/session.h>

#include "live/session-int.h"

static void specs(void **state)
{
	struct ehd_session *s = ehd_session_new(0);

	(void)state;
	assert_non_null(s);
	assert_int_equal(ehd_session_add(s, "MyProvider"), 0);
	assert_int_equal(ehd_session_add(s, "MyProvider_L4K1"), 0);
	assert_int_equal(ehd_session_add(s, "sched:sched_process_exec"), 0);
	assert_int_equal(ehd_session_add(s, "user_events:X_L1K1"), 0);
	assert_int_equal(ehd_session_add(s, ""), -EINVAL);
	assert_int_equal(ehd_session_add(s, "a b"), -EINVAL);
	assert_int_equal(ehd_session_add(s, "sched:"), -EINVAL);
	assert_int_equal(ehd_session_add(s, ":x"), -EINVAL);
	assert_int_equal(ehd_session_add(s, "a:b:c"), -EINVAL);
	assert_int_equal(ehd_session_add(s, "a:../b"), -EINVAL);
	/* "/stacks" after any spec, nothing else after a '/' */
	assert_int_equal(ehd_session_add(s, "MyProvider/stacks"), 0);
	assert_int_equal(ehd_session_add(s, "MyProvider_L4K1/stacks"), 0);
	assert_int_equal(ehd_session_add(s, "sched:sched_switch/stacks"), 0);
	assert_int_equal(ehd_session_add(s, "MyProvider/stack"), -EINVAL);
	assert_int_equal(ehd_session_add(s, "MyProvider/stacks/stacks"),
			 -EINVAL);
	assert_int_equal(ehd_session_add(s, "/stacks"), -EINVAL);
	assert_non_null(ehd_session_error(s));
	ehd_session_free(s);
}

static void order(void **state)
{
	struct ehd_session *s = ehd_session_new(0);
	char buf[8];

	(void)state;
	assert_null(ehd_session_new(0x100));
	assert_non_null(s);
	assert_int_equal(ehd_session_start(s), -EINVAL);	/* no spec */
	assert_int_equal(ehd_session_read(s, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(ehd_session_snapshot(s), -EINVAL);	/* not circular */
	assert_int_equal(ehd_session_set_buffer(s, 0), -EINVAL);
	assert_int_equal(ehd_session_set_buffer(s, (size_t)2 << 30), -EINVAL);
	assert_int_equal(ehd_session_set_buffer(s, 5000), 0);
	assert_int_equal(ehd_session_set_latency(s, -2), -EINVAL);
	assert_int_equal(ehd_session_set_latency(s, -1), 0);
	assert_int_equal(ehd_session_set_latency(s, 10), 0);
	assert_int_equal(ehd_session_set_filter(s, "id == 1"), 0);
	assert_int_equal(ehd_session_set_cpu_sampling(s, EHD_SESSION_HZ_MAX + 1),
			 -EINVAL);
	assert_int_equal(ehd_session_set_cpu_sampling(s, 1000), 0);
	assert_int_equal(ehd_session_set_off_cpu(s, true), 0);
	assert_int_equal(ehd_session_stop(s), 0);	/* not started: nothing */
	ehd_session_free(s);
}

/*
 * What the rings' watermark is made of: the session's ring size, latency
 * bound, CPUs and spool (memory and disk), or its output file instead.
 */
static void watermark(void **state)
{
	const size_t m = EHD_SESSION_BUFFER_DEFAULT;
	struct ehd_session *s = ehd_session_new(0);
	int cpu0 = 0, fd;

	(void)state;
	assert_non_null(s);
	/* a latency bound by default: a quarter */
	assert_int_equal(ehd__session_watermark(s, 2), m / 4);
	assert_int_equal(ehd_session_set_latency(s, -1), 0);
	/* the default spool holds 2 rings twice over, not 64 */
	assert_true(EHD_SESSION_SPOOL_DEFAULT >= 4 * m);
	assert_true(EHD_SESSION_SPOOL_DEFAULT < 128 * m);
	assert_int_equal(ehd__session_watermark(s, 2), 3 * m / 4);
	assert_int_equal(ehd__session_watermark(s, 64), m / 2);
	/* the CPUs asked for, not those the machine has */
	assert_int_equal(ehd_session_set_cpus(s, &cpu0, 1), 0);
	assert_int_equal(ehd__session_watermark(s, 64), 3 * m / 4);
	/* memory and disk together */
	assert_int_equal(ehd_session_set_spool(s, m, 0, NULL), 0);
	assert_int_equal(ehd__session_watermark(s, 1), m / 2);
	assert_int_equal(ehd_session_set_spool(s, m, m, "/tmp"), 0);
	assert_int_equal(ehd__session_watermark(s, 1), 3 * m / 4);
	/* disk without a folder is no disk */
	assert_int_equal(ehd_session_set_spool(s, m, m, NULL), 0);
	assert_int_equal(ehd__session_watermark(s, 1), m / 2);
	/* the ring size set */
	assert_int_equal(ehd_session_set_spool(s, m, 0, NULL), 0);
	assert_int_equal(ehd_session_set_buffer(s, m / 4), 0);
	assert_int_equal(ehd__session_watermark(s, 1), 3 * m / 16);
	/* an output file: half, whatever the spool */
	fd = open("/dev/null", O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(ehd_session_set_output(s, fd), 0);
	assert_int_equal(ehd__session_watermark(s, 1), m / 8);
	assert_int_equal(ehd_session_set_latency(s, 10), 0);
	assert_int_equal(ehd__session_watermark(s, 1), m / 16);
	ehd_session_free(s);
	close(fd);
}

/* ehrecord's command line, by the words perf.data's CMDLINE keeps. */
static void cmdline_switch(void **state)
{
	static const char *const yes[] = {
		"ehrecord --off-cpu -e sched:sched_switch -o t.data",
		"/usr/bin/ehrecord -esched:sched_switch/stacks -F perf",
		"./tools/.libs/lt-ehrecord --event sched:sched_switch",
		"ehrecord -q --event=sched:sched_switch -- sleep 1",
		"ehrecord -qe sched:sched_switch --off-cpu",
		"ehrecord -gqesched:sched_switch",
		"ehrecord --e=sched:sched_switch",
		"ehrecord --eve sched:sched_switch/stacks",
		"ehrecord -o - -e sched:sched_switch",
	};
	static const char *const no[] = {
		"ehrecord --off-cpu -o t.data -F perf",
		"ehrecord --off-cpu -- perf record -e sched:sched_switch",
		"ehrecord -e sched:sched_switches",
		"ehrecord -e sched:sched_switch/stack",
		"ehrecord sched:sched_switch",
		"perf record -e sched:sched_switch -g",
		"notehrecord -e sched:sched_switch",
		"ehrecord -e",
		"ehrecord -o -e sched:sched_switch",
		"ehrecord -qo -e sched:sched_switch",
		"ehrecord --output -e sched:sched_switch",
		"ehrecord --out -e sched:sched_switch",
		"ehrecord -oe sched:sched_switch",
		"ehrecord --filter -esched:sched_switch",
		"",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		assert_true(ehd__cmdline_asks_switch(yes[i]));
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		assert_false(ehd__cmdline_asks_switch(no[i]));
	assert_false(ehd__cmdline_asks_switch(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(specs),
		cmocka_unit_test(order),
		cmocka_unit_test(watermark),
		cmocka_unit_test(cmdline_switch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
