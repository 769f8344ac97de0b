#!/bin/bash
# SPDX-License-Identifier: MIT
#
# live.sh - ehrecord and ehdecode collecting user_events live on a real
# kernel: boots the test kernel once and runs live-guest.sh there (see
# its header for the checks). Skips (77) without a kernel or QEMU, except
# in CI.
set -u -o pipefail

# shellcheck source=tests/vm/lib.sh
. "${EH_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/vm/lib.sh"
vm_require

build=${EH_BUILDDIR:-$PWD}
vm_need "$build" tools/ehrecord tools/ehdecode examples/providers \
	tests/vm/providers-intercept
vm_guest 900 "$vm_srcdir/live-guest.sh" "$build"
