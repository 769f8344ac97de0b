# SPDX-License-Identifier: MIT
# test-lib.sh - what the shell tests share; sourced, never run:
#
#	. "$(dirname "$0")/../common/test-lib.sh"
#	ok "what held"; bad "what did not"
#	[ -r "$file" ] || skip "no $file"
#	finish		# the counts; status 0 only if nothing failed
#
# skip exits 77 (automake's SKIP), except with CI=true, where a test that
# cannot run is a failure. With TEST_TIMES=1 set before, each line ends
# with the seconds since the start (the VM tests).

passed=0
failed=0

test_when() { [ "${TEST_TIMES:-}" = 1 ] && echo " [${SECONDS}s]"; }
ok() { echo "ok: $*$(test_when)"; passed=$((passed + 1)); }
bad() { echo "FAIL: $*$(test_when)"; failed=$((failed + 1)); }

skip() {
	if [ "${CI:-}" = true ]; then
		echo "FAIL: CI must run this, but: $*"
		exit 1
	fi
	echo "SKIP: $*"
	exit 77
}

finish() {
	echo "$(basename "$0" .sh): $passed passed, $failed failed"
	[ "$failed" = 0 ]
	exit
}
