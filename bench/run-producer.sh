#!/bin/bash
# SPDX-License-Identifier: MIT
#
# run-producer.sh - run bench/producer on the host and in the test VM, then
# print a summary table. "make bench" runs it.
#
# usage: run-producer.sh [PRODUCER]
#   PRODUCER   the built benchmark (default: bench/producer)
#
# Environment:
#   EH_TEST_KERNEL      bzImage with CONFIG_USER_EVENTS (default:
#                       ../shared/vm/bzImage beside the source tree); without
#                       one, or without qemu, the VM part is skipped
#   EH_SHARED_DIR       the shared folder (default: ../shared beside the source)
#   PRODUCER_HOST_ARGS  more options for "producer host", e.g. "-r 9"
#   PRODUCER_VM_ARGS    more options for "producer vm", e.g. "-n 200000 -r 7"
#   PRODUCER_VM_TIMEOUT limit for the VM run in seconds (default 600)
#
# The VM runs under QEMU (TCG unless hardware KVM is there): its absolute
# times are inflated, its ratios are what to compare.
#
# Exit status: 0, or 1 if a part that ran failed. A skipped VM part is not
# a failure.
set -u -o pipefail

me='run-producer'
srcdir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
# shellcheck source=tests/common/test-lib.sh
. "$srcdir/tests/common/test-lib.sh"	# result_field, bench_*
prog=${1:-bench/producer}
shared=${EH_SHARED_DIR:-$srcdir/../shared}
kernel=${EH_TEST_KERNEL:-$srcdir/../shared/vm/bzImage}
vm_timeout=${PRODUCER_VM_TIMEOUT:-600}

bench_built "$prog"
prog=$(cd "$(dirname "$prog")" && pwd -P)/$(basename "$prog")

bench_tmp producer
status=0

# ---- host ------------------------------------------------------------------------
echo "== host: disabled EH_WRITE (and the enabled path up to writev)"
# shellcheck disable=SC2086 # word splitting of the extra options is wanted
"$prog" host ${PRODUCER_HOST_ARGS:-} | tee "$out/host"
host_rc=$?
[ "$host_rc" = 0 ] || { echo "$me: host part failed ($host_rc)" >&2; status=1; }

# ---- vm --------------------------------------------------------------------------
echo
echo "== vm: enabled EH_WRITE against a bare writev() of the same bytes"
runner=$srcdir/tests/vm/run-in-vm.sh
[ -x "$runner" ] || runner=$shared/vm/run-in-vm.sh
vm_skip=
if [ ! -f "$kernel" ]; then
	vm_skip="no test kernel ($kernel): set EH_TEST_KERNEL to a bzImage with CONFIG_USER_EVENTS"
elif [ ! -x "$runner" ]; then
	vm_skip="no VM runner (tests/vm/run-in-vm.sh or $shared/vm/run-in-vm.sh)"
elif ! command -v qemu-system-x86_64 >/dev/null; then
	vm_skip="qemu-system-x86_64 not installed (apt-get install qemu-system-x86)"
fi
vm_rc=77
if [ -n "$vm_skip" ]; then
	echo "VM part skipped: $vm_skip"
else
	echo "(runner $runner, kernel $kernel)"
	# The runner shows the guest its working directory even under /tmp.
	# shellcheck disable=SC2086
	(cd "$(dirname "$prog")" &&
		"$runner" -k "$kernel" -t "$vm_timeout" -- "$prog" vm ${PRODUCER_VM_ARGS:-}) |
		tee "$out/vm"
	vm_rc=$?
	case $vm_rc in
	0) ;;
	77) echo "VM part skipped: the guest has no usable user_events" ;;
	*) echo "$me: VM part failed ($vm_rc)" >&2; status=1 ;;
	esac
fi

# ---- summary --------------------------------------------------------------------
echo
echo "== summary (bench/producer)"
if [ "$host_rc" = 0 ]; then
	printf '  %-44s %10s ns/call\n' \
		"host: disabled 5-field EH_WRITE" "$(result_field "$out/host" host_disabled_ns)" \
		"host: empty loop (same shape)" "$(result_field "$out/host" host_empty_ns)" \
		"host: relaxed load+test+branch loop" "$(result_field "$out/host" host_loadbranch_ns)"
	printf '  %-44s %10s          (fastest rounds %s; target 1.00, the load+branch limit)\n' \
		"host: disabled / empty loop" "$(result_field "$out/host" host_ratio)" \
		"$(result_field "$out/host" host_ratio_min)"
	printf '  %-44s %10s ns/call\n' \
		"host: enabled EH_WRITE up to writev()" "$(result_field "$out/host" host_userside_ns)" \
		"host: same values into a buffer by hand" "$(result_field "$out/host" host_hand_ns)"
else
	echo "  host: failed"
fi
if [ "$vm_rc" = 0 ]; then
	r1=$(result_field "$out/vm" vm_ratio1)
	verdict=$(awk -v r="$r1" 'BEGIN { print (r <= 1.10) ? "within target" : "OVER target" }')
	printf '  %-44s %10s ns/call\n' \
		"vm: ours, enabled 5-field EH_WRITE" "$(result_field "$out/vm" vm_ours_ns)" \
		"vm: bare writev, same bytes, 1 iovec" "$(result_field "$out/vm" vm_bare1_ns)" \
		"vm: bare writev, same bytes, 8 iovecs" "$(result_field "$out/vm" vm_bare8_ns)" \
		"vm: hand-built values + writev, 1 iovec" "$(result_field "$out/vm" vm_hand_ns)"
	printf '  %-44s %10s          (target <= 1.10: %s)\n' \
		"vm: ours / bare 1-iovec writev" "$r1" "$verdict"
	printf '  %-44s %10s\n' \
		"vm: ours / bare 8-iovec writev" "$(result_field "$out/vm" vm_ratio8)" \
		"vm: ours / hand-built" "$(result_field "$out/vm" vm_ratio_hand)"
	echo "  (event $(result_field "$out/vm" vm_event_bytes) bytes; VM times are QEMU's: compare the ratios)"
elif [ "$vm_rc" = 77 ]; then
	echo "  vm: skipped${vm_skip:+ ($vm_skip)}"
else
	echo "  vm: failed"
fi
exit $status
