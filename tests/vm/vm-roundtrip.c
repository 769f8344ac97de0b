// SPDX-License-Identifier: MIT
/*
 * vm-roundtrip - events written through the real kernel are the bytes the
 * interceptor backend captures, and they go away after unregistering
 *
 * usage: vm-roundtrip CAPTURE
 *	CAPTURE is the file vm-intercept wrote (EH_INTERCEPTOR_FILE) for the
 *	same EH_WRITE() calls (vm-events.c).
 *
 * Run as root in the test guest. Checks, in order:
 *  - the providers register and their tracepoints appear in tracefs under
 *    the expected names (level, keyword, group);
 *  - with no consumer the enable words are 0 and every write returns EBADF;
 *  - enabling through events/user_events/<name>/enable sets the enable
 *    word of every call site of that tracepoint (EH_ENABLED() follows);
 *  - the events read back from the kernel, through ftrace (libtracefs,
 *    trace_pipe_raw) and through perf (PERF_SAMPLE_RAW), are byte for byte
 *    the interceptor's records, in the same order, on the same tracepoints;
 *    a corrupted copy is told apart (the comparison can fail);
 *  - disabling clears the enable words;
 *  - after the last provider is unregistered no descriptor of
 *    user_events_data is left and the tracepoints leave tracefs; one that a
 *    consumer still has enabled leaves once it is disabled.
 */
#include <sched.h>
#include <tracefs.h>

#include "vm-events.h"
#include "vm-util.h"

static const char *const user_events_only[] = { "user_events", NULL };

#define MAX_TPS 64

/* The unique tracepoint names vm-events.c must produce. */
static const char *const expected_names[] = {
	"EhVmTest_A_L4K1",
	"EhVmTest_A_L5K2",
	VM_PROBE_TRACEPOINT,
	"EhVmTest_B_L3K8000000000000000",
	"EhVmTest_B_L4K1",
	"EhVmTest_G_L1KffGehvm",
};
#define N_EXPECTED ((int)(sizeof(expected_names) / sizeof(expected_names[0])))

static struct vm_tracepoint tps[MAX_TPS];
static int n_tps;
static int ids[N_EXPECTED];

static int expected_index(const char *name)
{
	int i;

	for (i = 0; i < N_EXPECTED; i++)
		if (strcmp(expected_names[i], name) == 0)
			return i;
	return -1;
}

static const char *name_of_id(int id)
{
	int i;

	for (i = 0; i < N_EXPECTED; i++)
		if (ids[i] == id)
			return expected_names[i];
	return "?";
}

/* Enable words of every call site of tracepoint @name: 1 if all are set,
 * 0 if all are clear, -1 if mixed or none. */
static int status_of(const char *name)
{
	int i, set = 0, clear = 0;

	for (i = 0; i < n_tps; i++) {
		if (strcmp(tps[i].name, name) != 0)
			continue;
		if (*tps[i].status)
			set++;
		else
			clear++;
	}
	return set && !clear ? 1 : clear && !set ? 0 : -1;
}

static int all_status_clear(void)
{
	int i;

	for (i = 0; i < n_tps; i++)
		if (*tps[i].status)
			return 0;
	return 1;
}

/*
 * Padding after the event bytes. ftrace: the common header (8 bytes) and
 * the event are rounded up to 4 bytes (RB_ARCH_ALIGNMENT on x86-64). perf:
 * the u32 size of PERF_SAMPLE_RAW plus the entry is rounded up to 8.
 */
static size_t ftrace_padded(size_t len)
{
	return ((8 + len + 3) & ~(size_t)3) - 8;
}

static size_t perf_padded(size_t len)
{
	return ((4 + 8 + len + 7) & ~(size_t)7) - 4 - 8;
}

static void add_perf_sample(const uint8_t *raw, uint32_t size, void *ctx)
{
	uint16_t type;

	if (size < 8)
		return;
	memcpy(&type, raw, 2);
	vm_records_add(ctx, name_of_id(type), raw + 8, size - 8);
}

static int add_ftrace_record(struct tep_event *event, struct tep_record *rec,
			     int cpu, void *ctx)
{
	if (event && event->system && strcmp(event->system, "user_events") == 0 &&
	    rec->size >= 8)
		vm_records_add(ctx, event->name, (uint8_t *)rec->data + 8,
			       (size_t)rec->size - 8);
	return 0;
}

static void check_against(const char *via, const struct vm_records *want,
			  const struct vm_records *got, size_t (*pad)(size_t))
{
	int bad = vm_records_compare(want, got, pad, 1);

	VM_CHECK(bad == 0, "%s: %d records received, %d expected, %d differ",
		 via, got->n, want->n, bad);
}

/* The comparison must notice one changed byte in any record. */
static void check_comparator(const struct vm_records *want,
			     const struct vm_records *got, size_t (*pad)(size_t))
{
	int i, missed = 0;

	for (i = 0; i < got->n; i++) {
		size_t at = want->v[i].size / 2;

		if (!want->v[i].size)
			continue;
		got->v[i].data[at] ^= 0x01;
		if (vm_records_compare(want, got, pad, 0) == 0)
			missed++;
		got->v[i].data[at] ^= 0x01;
	}
	VM_CHECK(got->n > 0 && missed == 0,
		 "a one-byte change in any of the %d records is detected (%d missed)",
		 got->n, missed);
}

int main(int argc, char **argv)
{
	struct vm_records want = { 0 }, via_perf = { 0 }, via_ftrace = { 0 };
	struct vm_perf perf = VM_PERF_INIT;
	int rcs[VM_EVENTS_MAX];
	int i, n, err, bad, seen[N_EXPECTED] = { 0 };
	struct tep_handle *tep;
	cpu_set_t cpu0;
	uint64_t lost = 0;
	double t0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc != 2) {
		fprintf(stderr, "usage: %s CAPTURE\n", argv[0]);
		return 2;
	}
	/* One CPU: the ftrace records of all tracepoints land in one per-CPU
	 * buffer, in the order written. */
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0) < 0)
		vm_die("sched_setaffinity");

	err = vm_records_load(&want, argv[1]);
	VM_CHECK(err == 0 && want.n > 0, "interceptor capture %s: %d records",
		 argv[1], want.n);

	VM_CHECK(vm_tracefs_write("tracing_on", "1") == 0, "tracing on");
	VM_CHECK(vm_tracefs_write("buffer_size_kb", "1024") == 0,
		 "ftrace buffer 1024 KiB per CPU");
	VM_CHECK(vm_tracefs_write("trace", "") == 0, "ftrace buffer cleared");

	/* ---- registration ---- */
	for (i = 0; i < VM_PROVIDERS; i++) {
		err = vm_events_register(i);
		VM_CHECK(err == 0, "EH_REGISTER(provider %d) = %d (%s)", i, err,
			 strerror(err));
	}
	VM_CHECK(vm_user_events_fds() == 1,
		 "one descriptor of user_events_data is shared by the providers (%d)",
		 vm_user_events_fds());
	n_tps = vm_events_tracepoints(tps, MAX_TPS);
	bad = 0;
	for (i = 0; i < n_tps; i++) {
		int e = expected_index(tps[i].name);

		if (e < 0) {
			printf("     unexpected tracepoint %s\n", tps[i].name);
			bad++;
		} else {
			seen[e]++;
		}
	}
	for (i = 0; i < N_EXPECTED; i++) {
		if (!seen[i]) {
			printf("     tracepoint %s missing\n", expected_names[i]);
			bad++;
		}
	}
	VM_CHECK(n_tps > N_EXPECTED && bad == 0,
		 "%d call sites registered on the %d expected tracepoints",
		 n_tps, N_EXPECTED);
	for (i = 0; i < N_EXPECTED; i++) {
		ids[i] = vm_event_id(expected_names[i]);
		VM_CHECK(vm_event_exists(expected_names[i]) && ids[i] > 0,
			 "tracefs has user_events/%s (id %d)", expected_names[i],
			 ids[i]);
	}

	/* ---- no consumer: enable words clear, writes return EBADF ---- */
	VM_CHECK(all_status_clear(), "enable words are 0 before any consumer");
	n = vm_events_write(rcs);
	bad = 0;
	for (i = 0; i < n; i++)
		bad += rcs[i] != EBADF;
	VM_CHECK(bad == 0, "with no consumer all %d EH_WRITE()s return EBADF", n);
	VM_CHECK(n == want.n, "the interceptor captured one record per call (%d calls, %d records)",
		 n, want.n);

	/* ---- enable through tracefs ---- */
	for (i = 0; i < N_EXPECTED; i++) {
		const char *name = expected_names[i];

		if (strcmp(name, VM_PROBE_TRACEPOINT) == 0)
			continue;
		err = vm_event_file_write(name, "enable", "1");
		VM_CHECK(err == 0 && status_of(name) == 1,
			 "enable %s: every call site's enable word is set", name);
	}
	VM_CHECK(!vm_events_probe_enabled() && status_of(VM_PROBE_TRACEPOINT) == 0,
		 "EH_ENABLED() is 0 for %s, which is not enabled",
		 VM_PROBE_TRACEPOINT);
	err = vm_event_file_write(VM_PROBE_TRACEPOINT, "enable", "1");
	VM_CHECK(err == 0 && vm_events_probe_enabled(),
		 "EH_ENABLED() is 1 once %s is enabled", VM_PROBE_TRACEPOINT);
	err = vm_event_file_write(VM_PROBE_TRACEPOINT, "enable", "0");
	VM_CHECK(err == 0 && !vm_events_probe_enabled(),
		 "EH_ENABLED() is 0 again once it is disabled");

	/* perf on the same tracepoints, for this thread, into one ring. */
	bad = 0;
	for (i = 0; i < N_EXPECTED; i++) {
		if (strcmp(expected_names[i], VM_PROBE_TRACEPOINT) == 0)
			continue;
		err = vm_perf_open(&perf, ids[i], 64);
		if (err) {
			printf("     perf_event_open(%s): %s\n", expected_names[i],
			       strerror(err));
			bad++;
		}
	}
	VM_CHECK(bad == 0, "perf events open on the tracepoints");

	/* ---- write, read back, compare ---- */
	n = vm_events_write(rcs);
	bad = 0;
	for (i = 0; i < n; i++) {
		if (rcs[i] != 0) {
			printf("     call %d returned %d (%s)\n", i, rcs[i],
			       strerror(rcs[i]));
			bad++;
		}
	}
	VM_CHECK(bad == 0, "with consumers all %d EH_WRITE()s return 0", n);

	vm_perf_drain(&perf, add_perf_sample, &via_perf, &lost);
	VM_CHECK(lost == 0, "perf lost no sample (%llu)", (unsigned long long)lost);
	check_against("perf PERF_SAMPLE_RAW", &want, &via_perf, perf_padded);

	tep = tracefs_local_events_system(NULL, user_events_only);
	if (!tep)
		vm_die("tracefs_local_events");
	err = tracefs_iterate_raw_events(tep, NULL, &cpu0, sizeof(cpu0),
					 add_ftrace_record, &via_ftrace);
	VM_CHECK(err == 0, "ftrace records read from trace_pipe_raw");
	check_against("ftrace", &want, &via_ftrace, ftrace_padded);

	if (via_perf.n == want.n)
		check_comparator(&want, &via_perf, perf_padded);
	else
		VM_CHECK(0, "comparator check skipped: record counts differ");

	/* ---- disable ---- */
	vm_perf_close(&perf);
	for (i = 0; i < N_EXPECTED; i++)
		vm_event_file_write(expected_names[i], "enable", "0");
	VM_CHECK(all_status_clear(), "enable words are 0 after disabling");
	err = vm_events_write_one();
	VM_CHECK(err == EBADF, "EH_WRITE() returns EBADF again (%d)", err);

	/* ---- unregister ---- */
	vm_events_unregister(VM_PROVIDER_A);
	VM_CHECK(vm_user_events_fds() == 1,
		 "user_events_data stays open while providers B and G are registered");
	vm_sleep_ms(50);
	vm_note("after EH_UNREGISTER(A) alone, %s is %s (the kernel keeps events while the registering file is open)",
		"EhVmTest_A_L4K1",
		vm_event_exists("EhVmTest_A_L4K1") ? "still in tracefs" : "gone");

	/* A consumer keeps one tracepoint of B enabled across unregistration. */
	err = vm_event_file_write("EhVmTest_B_L4K1", "enable", "1");
	VM_CHECK(err == 0 && status_of("EhVmTest_B_L4K1") == 1,
		 "EhVmTest_B_L4K1 enabled before unregistering");
	vm_events_unregister(VM_PROVIDER_B);
	vm_events_unregister(VM_PROVIDER_G);
	VM_CHECK(vm_user_events_fds() == 0,
		 "no descriptor of user_events_data left after the last EH_UNREGISTER");
	VM_CHECK(all_status_clear(), "enable words are 0 after unregistering");
	err = vm_events_write_one();
	VM_CHECK(err == EBADF,
		 "EH_WRITE() after unregistering returns EBADF though a consumer listens (%d)",
		 err);

	t0 = vm_now();
	for (i = 0; i < N_EXPECTED; i++) {
		if (strcmp(expected_names[i], "EhVmTest_B_L4K1") == 0)
			continue;
		VM_CHECK(vm_event_wait_gone(expected_names[i], 3000),
			 "%s left tracefs after the last unregistration",
			 expected_names[i]);
	}
	vm_note("the unused tracepoints were gone %.0f ms after unregistration",
		(vm_now() - t0) * 1000);
	vm_sleep_ms(50);
	vm_note("EhVmTest_B_L4K1, still enabled by ftrace, is %s",
		vm_event_exists("EhVmTest_B_L4K1") ? "still in tracefs" : "gone");
	err = vm_event_file_write("EhVmTest_B_L4K1", "enable", "0");
	VM_CHECK(vm_event_wait_gone("EhVmTest_B_L4K1", 3000),
		 "EhVmTest_B_L4K1 left tracefs once disabled (disable: %d)", err);

	/* ---- and again ---- */
	err = vm_events_register(VM_PROVIDER_A);
	VM_CHECK(err == 0 && vm_event_exists("EhVmTest_A_L4K1") &&
			 vm_user_events_fds() == 1,
		 "EH_REGISTER(A) works again after everything was unregistered (%d)",
		 err);
	err = vm_event_file_write(VM_PROBE_TRACEPOINT, "enable", "1");
	VM_CHECK(err == 0 && vm_events_probe_enabled(),
		 "and its tracepoints can be enabled again");
	vm_event_file_write(VM_PROBE_TRACEPOINT, "enable", "0");
	vm_events_unregister(VM_PROVIDER_A);
	VM_CHECK(vm_event_wait_gone("EhVmTest_A_L4K1", 3000) &&
			 vm_event_wait_gone(VM_PROBE_TRACEPOINT, 3000),
		 "and they leave tracefs after EH_UNREGISTER(A)");

	tep_free(tep);
	vm_records_free(&want);
	vm_records_free(&via_perf);
	vm_records_free(&via_ftrace);
	return vm_summary("vm-roundtrip");
}
