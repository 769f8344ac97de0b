#!/bin/bash
# SPDX-License-Identifier: MIT
#
# system.sh - system traces recorded to nettrace on a real kernel (CPU
# samples, context switches, processes, mappings and the stacks of
# user_events): boots the test kernel once and runs system-guest.sh there
# (see its header for the checks). Skips (77) without a kernel or QEMU,
# except in CI.
set -u -o pipefail

# shellcheck source=tests/vm/lib.sh
. "${EH_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/vm/lib.sh"
vm_require

build=${EH_BUILDDIR:-$PWD}
vm_need "$build" tools/ehrecord tools/ehdecode examples/spin
vm_guest 300 "$vm_srcdir/system-guest.sh" "$build"
