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
for f in examples/hello examples/providers tools/ehdecode tools/ehrecord; do
	[ -x "$build/$f" ] || { echo "ERROR: $build/$f is missing"; exit 99; }
done
vm_run -t 120 -- /bin/bash "$vm_srcdir/../../scripts/demo-guest.sh" "$build"
