#!/bin/bash
# SPDX-License-Identifier: MIT
#
# demo.sh - the README's demo keeps working: runs scripts/demo-guest.sh (the
# hello example recorded by perf, the recording decoded by ehdecode, the
# events counted) in the test VM. Skips (77) without a kernel, except in CI.
set -u -o pipefail

# shellcheck source=tests/vm/lib.sh
. "${EH_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/vm/lib.sh"
vm_require

build=${EH_BUILDDIR:-$PWD}
vm_need "$build" examples/hello examples/providers examples/spin tools/ehdecode \
	tools/ehrecord
vm_guest 120 "$vm_srcdir/../../scripts/demo-guest.sh" "$build"
