// SPDX-License-Identifier: MIT
/*
 * vm-intercept - make the EH_WRITE() calls of vm-events.c with the
 * interceptor backend (vm-events.c is compiled with -DEH_INTERCEPTOR for
 * this program), so that vm-roundtrip can compare the kernel's records
 * with them. The records go to $EH_INTERCEPTOR_FILE.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vm-events.h"

int main(void)
{
	int rcs[VM_EVENTS_MAX];
	int i, n, err;

	if (!getenv("EH_INTERCEPTOR_FILE")) {
		fprintf(stderr, "vm-intercept: set EH_INTERCEPTOR_FILE\n");
		return 2;
	}
	for (i = 0; i < VM_PROVIDERS; i++) {
		err = vm_events_register(i);
		if (err) {
			fprintf(stderr, "vm-intercept: EH_REGISTER: %s\n",
				strerror(err));
			return 1;
		}
	}
	n = vm_events_write(rcs);
	for (i = 0; i < n; i++) {
		if (rcs[i]) {
			fprintf(stderr, "vm-intercept: call %d: %s\n", i,
				strerror(rcs[i]));
			return 1;
		}
	}
	for (i = 0; i < VM_PROVIDERS; i++)
		vm_events_unregister(i);
	printf("vm-intercept: %d events captured\n", n);
	return 0;
}
