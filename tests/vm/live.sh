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
for f in tools/ehrecord tools/ehdecode examples/providers \
	 tests/vm/providers-intercept; do
	[ -x "$build/$f" ] || { echo "ERROR: $build/$f is missing"; exit 99; }
done
started=$SECONDS
vm_run -t 600 -- /bin/bash "$vm_srcdir/live-guest.sh" "$build"
rc=$?
echo "live.sh: VM run took $((SECONDS - started)) s, exit status $rc"
exit $rc
