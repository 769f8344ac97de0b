/* SPDX-License-Identifier: MIT */
/*
 * vm-events.h - the events of the round-trip test
 *
 * vm-events.c is compiled twice: into vm-roundtrip with the kernel backend
 * and into vm-intercept with -DEH_INTERCEPTOR. Both programs make exactly
 * the same EH_WRITE() calls, so the kernel's records and the interceptor's
 * file must hold the same event bytes in the same order.
 */
#ifndef EH_TESTS_VM_EVENTS_H
#define EH_TESTS_VM_EVENTS_H

#include <stdint.h>

/* The providers, by index. */
enum vm_provider_index {
	VM_PROVIDER_A,		/* "EhVmTest_A" */
	VM_PROVIDER_B,		/* "EhVmTest_B" */
	VM_PROVIDER_G,		/* "EhVmTest_G", group "ehvm" */
	VM_PROVIDERS
};

/* One registered tracepoint, as the test sees it. */
struct vm_tracepoint {
	char name[256];			/* tracefs event name */
	const volatile uint32_t *status;	/* the kernel's enable word */
	int provider;			/* enum vm_provider_index */
};

/* Most EH_WRITE() calls vm_events_write() makes. */
#define VM_EVENTS_MAX 64

int vm_events_register(int provider);
void vm_events_unregister(int provider);

/*
 * Lists the registered tracepoints of every registered provider, including
 * the one vm_events_probe_enabled() uses.
 */
int vm_events_tracepoints(struct vm_tracepoint *out, int max);

/*
 * Makes all the EH_WRITE() calls, storing each call's return value in
 * rcs[]; returns the number of calls.
 */
int vm_events_write(int rcs[VM_EVENTS_MAX]);

/* One event on provider B's "EhVmTest_B_L4K1"; returns EH_WRITE()'s rc. */
int vm_events_write_one(void);

/* EH_ENABLED(provider A, level 4, keyword 0x10): never written to. */
int vm_events_probe_enabled(void);
#define VM_PROBE_TRACEPOINT "EhVmTest_A_L4K10"

#endif /* EH_TESTS_VM_EVENTS_H */
