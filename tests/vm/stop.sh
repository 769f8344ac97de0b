#!/bin/bash
# SPDX-License-Identifier: MIT
#
# stop.sh - ehrecord stopped at random moments under load on a real
# kernel (both formats, -g and sched_switch among the specs, a producer
# writing flat out): boots the test kernel once and runs stop-guest.sh
# there (see its header for the checks). Skips (77) without a kernel or
# QEMU, except in CI.
set -u -o pipefail

# shellcheck source=tests/vm/lib.sh
. "${EH_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/vm/lib.sh"
vm_require

build=${EH_BUILDDIR:-$PWD}
vm_need "$build" tools/ehrecord tools/ehdecode bench/live-load \
	tests/vm/vm-switches tests/vm/libnobarrier.so
# (STOP_RUNS and STOP_NOBARRIER_RUNS, when set, go to the guest)
vm_guest -e STOP_RUNS -e STOP_NOBARRIER_RUNS 900 \
	"$vm_srcdir/stop-guest.sh" "$build" "${EH_SANITIZED:-0}"
