#!/bin/bash
# SPDX-License-Identifier: MIT
#
# admin.sh - ehrecord --check, --list, --register, --persist and
# --unregister on a real user_events kernel: boots the test kernel once
# and runs admin-guest.sh there (see its header for the checks). Skips
# (77) without a kernel or QEMU, except in CI.
set -u -o pipefail

# shellcheck source=tests/vm/lib.sh
. "${EH_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/vm/lib.sh"
vm_require

build=${EH_BUILDDIR:-$PWD}
vm_need "$build" tools/ehrecord tools/ehdecode examples/providers examples/spin
vm_guest 600 "$vm_srcdir/admin-guest.sh" "$build"
