#!/bin/bash
# SPDX-License-Identifier: MIT
#
# guest-checks.sh BINDIR - runs inside the test VM (see user-events.sh):
# the vm-* programs of BINDIR, one after the other, in one boot. Exit
# status 0 only if every program passed.
set -u

bindir=${1:?usage: guest-checks.sh BINDIR}
# shellcheck source=tests/common/test-lib.sh
. "$(dirname "$0")/../common/test-lib.sh"	# (stamp, ms_since)
passed=0
failed=0

check() {
	local name=$1 t0 ms rc
	shift
	echo "=== $name"
	stamp t0
	"$@"
	rc=$?
	ms_since ms "$t0"
	echo "=== $name: exit $rc, $ms ms"
	if [ $rc = 0 ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
}

echo "guest: Linux $(uname -r), $(nproc) CPUs"
cd /tmp || exit 1
capture=/tmp/vm-roundtrip.dat
rm -f "$capture"
check vm-intercept env EH_INTERCEPTOR_FILE=$capture "$bindir/vm-intercept"
check vm-roundtrip "$bindir/vm-roundtrip" "$capture"
check vm-noaccess "$bindir/vm-noaccess"
check vm-concurrency "$bindir/vm-concurrency" 2000
check vm-sizes "$bindir/vm-sizes"
check vm-raw "$bindir/vm-raw"
if [ -x "$bindir/vm-filter" ]; then
	check vm-filter "$bindir/vm-filter" 1000
else
	echo "=== vm-filter: not built (configure found no libbpf), left out"
fi
echo "vm: $passed passed, $failed failed"
[ $failed = 0 ]
