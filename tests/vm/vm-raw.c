// SPDX-License-Identifier: MIT
/*
 * vm-raw - plain (non-EventHeader) tracepoints on the real kernel
 *
 * Registers "EhVmRaw u32 count; u16 code" and "EhVmRawEmpty" (no fields)
 * with eh_tracepoint_register_raw(), enables them through perf and ftrace,
 * writes with eh_tracepoint_write_raw() and checks what arrives: the
 * fields in the declared layout after the common header, and for the
 * event without data the single 0 byte the runtime adds. (6.12 would
 * record an empty write as well, padded with zeros, so this shows that
 * the kernel takes such events; test-macros proves the byte is sent.)
 */
#include <sched.h>
#include <tracefs.h>

#include <eventheader/eh-tracepoint.h>

#include "vm-util.h"

struct raw_seen {
	int id_raw, id_empty;
	int n_raw, n_empty, bad;
};

static void on_sample(const uint8_t *raw, uint32_t size, void *ctx)
{
	struct raw_seen *s = ctx;
	uint16_t type, code;
	uint32_t count;

	if (size < 9) {
		s->bad++;
		return;
	}
	memcpy(&type, raw, 2);
	if (type == s->id_raw && size >= 8 + 6) {
		memcpy(&count, raw + 8, 4);
		memcpy(&code, raw + 12, 2);
		if (count == 1000u + (uint32_t)s->n_raw && code == 0xbeef)
			s->n_raw++;
		else
			s->bad++;
	} else if (type == s->id_empty) {
		if (raw[8] == 0)
			s->n_empty++;
		else
			s->bad++;
	} else {
		s->bad++;
	}
}

/* ftrace records of EhVmRawEmpty: common header + the added byte. */
static int on_ftrace(struct tep_event *event, struct tep_record *rec, int cpu,
		     void *ctx)
{
	int *sizes_ok = ctx;

	(void)cpu;
	if (event && event->name && strcmp(event->name, "EhVmRawEmpty") == 0 &&
	    rec->size >= 9 && ((uint8_t *)rec->data)[8] == 0)
		(*sizes_ok)++;
	return 0;
}

int main(void)
{
	const char *systems[] = { "user_events", NULL };
	struct tep_handle *tep;
	cpu_set_t cpu0;
	int ftrace_ok = 0;
	static struct eh_tracepoint tp_raw = EH_TRACEPOINT_INIT(0, 0);
	static struct eh_tracepoint tp_empty = EH_TRACEPOINT_INIT(0, 0);
	struct vm_perf perf = VM_PERF_INIT;
	struct raw_seen seen = { 0 };
	uint16_t code = 0xbeef;
	uint32_t count;
	struct iovec iov[3];
	int err, i, rc;

	err = eh_tracepoint_register_raw(&tp_raw, "EhVmRaw u32 count; u16 code");
	VM_CHECK(err == 0, "register EhVmRaw: %s", strerror(err));
	err = eh_tracepoint_register_raw(&tp_empty, "EhVmRawEmpty");
	VM_CHECK(err == 0, "register EhVmRawEmpty: %s", strerror(err));
	err = eh_tracepoint_register_raw(&tp_empty, "EhVmRawEmpty");
	VM_CHECK(err == EBUSY, "registering a registered tracepoint: EBUSY (%d)", err);
	VM_CHECK(!eh_tracepoint_enabled(&tp_raw), "disabled before a consumer");
	iov[1].iov_base = &count;
	iov[1].iov_len = 4;
	VM_CHECK(eh_tracepoint_write_raw(&tp_raw, iov, 2) == EBADF,
		 "a disabled write returns EBADF");

	seen.id_raw = vm_event_id("EhVmRaw");
	seen.id_empty = vm_event_id("EhVmRawEmpty");
	VM_CHECK(seen.id_raw > 0 && seen.id_empty > 0, "both are in tracefs");
	if (seen.id_raw <= 0 || seen.id_empty <= 0)
		return vm_summary("vm-raw");
	VM_CHECK(vm_perf_open(&perf, seen.id_raw, 16) == 0 &&
			 vm_perf_open(&perf, seen.id_empty, 16) == 0,
		 "perf events opened");
	VM_CHECK(eh_tracepoint_enabled(&tp_raw) && eh_tracepoint_enabled(&tp_empty),
		 "perf enabled both (enable bits set)");
	/* ftrace too, with this thread on CPU 0 to read one buffer. */
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	sched_setaffinity(0, sizeof(cpu0), &cpu0);
	vm_tracefs_write("trace", "");
	VM_CHECK(vm_event_file_write("EhVmRawEmpty", "enable", "1") == 0,
		 "ftrace enabled on EhVmRawEmpty");

	for (i = 0; i < 10; i++) {
		count = 1000u + (uint32_t)i;
		iov[1].iov_base = &count;
		iov[1].iov_len = 4;
		iov[2].iov_base = &code;
		iov[2].iov_len = 2;
		rc = eh_tracepoint_write_raw(&tp_raw, iov, 3);
		if (rc)
			break;
		rc = eh_tracepoint_write_raw(&tp_empty, iov, 1);
		if (rc)
			break;
	}
	VM_CHECK(rc == 0, "20 writes returned 0 (%d)", rc);
	vm_perf_drain(&perf, on_sample, &seen, NULL);
	VM_CHECK(seen.n_raw == 10, "10 EhVmRaw samples with their fields (%d)",
		 seen.n_raw);
	VM_CHECK(seen.n_empty == 10,
		 "10 EhVmRawEmpty samples, each with the added 0 byte (%d)",
		 seen.n_empty);
	VM_CHECK(seen.bad == 0, "no unexpected samples (%d)", seen.bad);
	vm_perf_close(&perf);
	tep = tracefs_local_events_system(NULL, systems);
	if (tep)
		tracefs_iterate_raw_events(tep, NULL, &cpu0, sizeof(cpu0),
					   on_ftrace, &ftrace_ok);
	VM_CHECK(ftrace_ok == 10,
		 "10 EhVmRawEmpty ftrace records of 1 data byte (%d)", ftrace_ok);
	vm_event_file_write("EhVmRawEmpty", "enable", "0");
	tep_free(tep);

	eh_tracepoint_unregister_raw(&tp_raw);
	eh_tracepoint_unregister_raw(&tp_empty);
	VM_CHECK(vm_event_wait_gone("EhVmRaw", 1000) &&
			 vm_event_wait_gone("EhVmRawEmpty", 1000),
		 "both leave tracefs after unregistering");
	return vm_summary("vm-raw");
}
