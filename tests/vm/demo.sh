#!/bin/bash
# SPDX-License-Identifier: MIT
#
# demo.sh - the README's demo keeps working: runs scripts/demo-guest.sh (the
# hello example, its tracepoint enabled through tracefs, the kernel's
# records counted) in the test VM. Skips (77) without a kernel, except in CI.
set -u -o pipefail

# shellcheck source=tests/vm/lib.sh
. "${EH_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/vm/lib.sh"
vm_require

build=${EH_BUILDDIR:-$PWD}
[ -x "$build/examples/hello" ] || { echo "ERROR: $build/examples/hello is missing"; exit 99; }
vm_run -t 120 -- /bin/bash "$vm_srcdir/../../scripts/demo-guest.sh" "$build"
