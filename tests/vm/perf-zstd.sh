#!/bin/bash
# SPDX-License-Identifier: MIT
#
# perf-zstd.sh - a zstd-compressed perf.data recorded in the VM ("perf
# record -z" on the user_events of the examples) decodes to the same events
# as the uncompressed recording of the same run.
#
# Boots the test kernel once and runs perf-zstd-guest.sh there: two "perf
# record -a" sessions, with and without -z, record examples/hello and
# examples/activity at the same time; tools/ehdecode -F jsonl --sort time
# must decode both without error to exactly the events the examples wrote,
# identical but for the time, and the -z file must really hold zstd
# COMPRESSED records. A perf without zstd support is a failure. Skips (77)
# without a kernel or QEMU, except in CI.
set -u -o pipefail

# shellcheck source=tests/vm/lib.sh
. "${EH_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/vm/lib.sh"
vm_require

build=${EH_BUILDDIR:-$PWD}
vm_need "$build" examples/hello examples/activity tools/ehdecode
command -v perf >/dev/null ||
	{ echo "ERROR: perf not found (apt-get install linux-perf, see scripts/deps.txt)"; exit 99; }
vm_guest 120 "$vm_srcdir/perf-zstd-guest.sh" "$build" 2000
