#!/bin/bash
# SPDX-License-Identifier: MIT
#
# record.sh - ehrecord -p, --children, --duration, --max-size,
# --switch-output, -o -, the summary's count, --filter and the drain's
# wakes on a real user_events kernel: boots the test kernel once and runs
# record-guest.sh there (see its header for the checks). Skips (77)
# without a kernel or QEMU, except in CI.
set -u -o pipefail

# shellcheck source=tests/vm/lib.sh
. "${EH_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/vm/lib.sh"
vm_require

build=${EH_BUILDDIR:-$PWD}
vm_need "$build" tools/ehrecord tools/ehdecode tests/vm/vm-aim bench/live-load
vm_guest 1500 "$vm_srcdir/record-guest.sh" "$build" "${EH_SANITIZED:-0}"
