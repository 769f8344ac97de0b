#!/bin/bash
# SPDX-License-Identifier: MIT
#
# user-events.sh - the producer on a real user_events kernel
#
# Boots the test kernel once (tests/vm/run-in-vm.sh, EH_TEST_KERNEL) and
# runs guest-checks.sh there, which runs the vm-* check programs built by
# make check: byte-exact round trip through ftrace and perf against the
# interceptor, enable bits, unregistration, no access, concurrency, and
# event size limits. Skips (77) without a kernel or QEMU, except in CI.
set -u -o pipefail

# shellcheck source=tests/vm/lib.sh
. "${EH_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/vm/lib.sh"
vm_require

# vm-filter needs libbpf: without it (EH_HAVE_BPF=no, configure said so)
# it is not built, and guest-checks.sh says it is left out.
progs="vm-intercept vm-roundtrip vm-noaccess vm-concurrency vm-sizes vm-raw"
if [ "${EH_HAVE_BPF:-yes}" = no ]; then
	[ "${CI:-}" = true ] &&
		{ echo "FAIL: CI must run vm-filter, but configure found no libbpf"; exit 1; }
	echo "vm-filter: not built, configure found no libbpf (apt-get install libbpf-dev)"
else
	progs="$progs vm-filter"
fi
# shellcheck disable=SC2086
vm_need "$vm_bindir" $progs
vm_guest 300 "$vm_srcdir/guest-checks.sh" "$vm_bindir"
