// SPDX-License-Identifier: MIT
/*
 * vm-sizes - how large an event reaches ftrace and perf
 *
 * Run as root in the test guest. Writes single events of chosen sizes
 * (counted in event bytes: EventHeader header, extension, payload; the
 * write index and the kernel's 8-byte common header not included) to one
 * tracepoint that both ftrace and a perf event listen to, and reports
 * which consumer received each. The largest size each consumer takes is
 * found by bisection, for ftrace also with 64 KiB ring-buffer pages
 * (buffer_subbuf_size_kb) when the kernel has them.
 *
 * Checked: the kernel accepts every write up to EH_EVENT_MAX bytes (the
 * producer's limit) and EH_WRITE() refuses larger ones with E2BIG; events
 * up to VM_SIZE_GUARANTEED bytes reach both consumers. The limits found
 * are printed as "note" lines.
 */
#include <eventheader/eh-provider.h>

#include "vm-util.h"

EH_DEFINE_PROVIDER(size_provider, "EhVmTest_Size");

#define TRACEPOINT "EhVmTest_Size_L4K1"
/* Event bytes around the binary data: header 8, extension 4, "Size" 5,
 * "data" 5, encoding 1, count 2. */
#define OVERHEAD 25
/* Sizes that must reach ftrace and perf with the default settings. */
#define VM_SIZE_GUARANTEED 2048

static uint8_t data[EH_EVENT_MAX + 16];
static struct vm_perf perf = VM_PERF_INIT;

struct probe {
	int rc;			/* EH_WRITE() */
	int ftrace;		/* records in the ftrace buffer */
	int perf;		/* perf samples */
	size_t perf_len;	/* PERF_SAMPLE_RAW bytes after the common header */
};

static int write_event(size_t event_size)
{
	return EH_WRITE(size_provider, "Size", EH_LEVEL(4), EH_KEYWORD(1),
			EH_BINARY("data", data, event_size - OVERHEAD));
}

static void on_sample(const uint8_t *raw, uint32_t size, void *ctx)
{
	struct probe *p = ctx;

	p->perf++;
	p->perf_len = size >= 8 ? size - 8 : 0;
}

static struct probe probe(size_t event_size)
{
	struct probe p = { 0, 0, 0, 0 };
	long long entries = vm_stats_sum("entries");

	vm_perf_drain(&perf, on_sample, &p, NULL);
	p.perf = 0;
	p.rc = write_event(event_size);
	vm_perf_drain(&perf, on_sample, &p, NULL);
	/* Only this tracepoint is enabled: every new entry is ours. */
	p.ftrace = (int)(vm_stats_sum("entries") - entries);
	return p;
}

/* Largest size in [lo, hi] that @consumer (0 ftrace, 1 perf) receives,
 * given that lo is received; bisection. */
static size_t largest(size_t lo, size_t hi, int consumer)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo + 1) / 2;
		struct probe p = probe(mid);

		if (consumer ? p.perf : p.ftrace)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

int main(void)
{
	static const size_t sizes[] = { 100, 1024, 2048, 4000, 4096, 8000, 8192,
					16384, 32768, 65535 };
	size_t i, max_ftrace, max_perf;
	struct probe p;
	int err, id, bad = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 13 + 1);

	err = EH_REGISTER(size_provider);
	VM_CHECK(err == 0, "EH_REGISTER() = %d", err);
	/* Register the tracepoint before looking for it in tracefs. */
	(void)EH_ENABLED(size_provider, 4, 1);
	id = vm_event_id(TRACEPOINT);
	VM_CHECK(id > 0, "%s has id %d", TRACEPOINT, id);
	/* Room for every probe (at most ~60 events of at most 4 KiB): the
	 * probes count entries without clearing the buffer, which is slow. */
	VM_CHECK(vm_tracefs_write("buffer_size_kb", "1024") == 0 &&
			 vm_tracefs_write("trace", "") == 0,
		 "ftrace buffer 1 MiB per CPU, cleared");
	VM_CHECK(vm_tracefs_write("tracing_on", "1") == 0 &&
			 vm_event_file_write(TRACEPOINT, "enable", "1") == 0,
		 "ftrace enabled on %s", TRACEPOINT);
	err = vm_perf_open(&perf, id, 64);
	VM_CHECK(err == 0, "perf event opened (%s)", strerror(err));

	p = probe(100);
	VM_CHECK(p.rc == 0 && p.ftrace == 1 && p.perf == 1 &&
			 p.perf_len == ((4 + 8 + 100 + 7) & ~(size_t)7) - 12,
		 "a 100-byte event reaches both (perf gives %zu bytes with padding)",
		 p.perf_len);

	printf("     event bytes   EH_WRITE   ftrace   perf\n");
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		p = probe(sizes[i]);
		printf("     %11zu   %8d   %6s   %4s\n", sizes[i], p.rc,
		       p.ftrace ? "yes" : "LOST", p.perf ? "yes" : "LOST");
		bad += p.rc != 0;
		if (sizes[i] <= VM_SIZE_GUARANTEED)
			VM_CHECK(p.ftrace == 1 && p.perf == 1,
				 "a %zu-byte event reaches ftrace and perf",
				 sizes[i]);
	}
	VM_CHECK(bad == 0, "the kernel accepts writes of every size up to %d bytes",
		 EH_EVENT_MAX);
	err = write_event(EH_EVENT_MAX + 1);
	VM_CHECK(err == E2BIG, "EH_WRITE() of a %d-byte event returns E2BIG (%d)",
		 EH_EVENT_MAX + 1, err);

	max_ftrace = largest(100, EH_EVENT_MAX, 0);
	max_perf = largest(100, EH_EVENT_MAX, 1);
	vm_note("largest event received: ftrace %zu bytes, perf %zu bytes",
		max_ftrace, max_perf);
	if (vm_tracefs_write("buffer_subbuf_size_kb", "64") == 0) {
		max_ftrace = largest(100, EH_EVENT_MAX, 0);
		vm_note("with buffer_subbuf_size_kb=64: ftrace %zu bytes",
			max_ftrace);
		vm_tracefs_write("buffer_subbuf_size_kb", "4");
	} else {
		vm_note("no buffer_subbuf_size_kb in this kernel");
	}

	vm_perf_close(&perf);
	vm_event_file_write(TRACEPOINT, "enable", "0");
	EH_UNREGISTER(size_provider);
	return vm_summary("vm-sizes");
}
