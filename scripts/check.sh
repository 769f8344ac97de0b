#!/bin/bash
# check.sh - the whole test suite, as CI runs it: install what is missing,
# then build and "make check" twice (plain, and with ASan+UBSan), build a
# --disable-shared tree and what its "make check" would run, a short
# libFuzzer run of each fuzz target, then "make distcheck". VM tests run
# when a test kernel is found (see README).
# Prints the logs of failed tests; exits non-zero on any failure.
set -uo pipefail
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$src/scripts/install-deps.sh" || exit 1

show_logs() {
	local d=$1
	echo "=== failed test logs in $d ==="
	find "$d" -name '*.log' ! -name config.log -newer "$d/config.status" |
		while read -r f; do
			grep -qE '^:test-result: (FAIL|ERROR|XPASS)' \
				"${f%.log}.trs" 2>/dev/null || continue
			echo "--- $f"
			cat "$f"
		done
}

run() {
	local name=$1 dir=$2
	shift 2
	echo "=== $name ($dir) ==="
	"$src/scripts/build.sh" "$dir" "$@" || { echo "check: $name: build failed"; return 1; }
	# (check_args: make's, e.g. TESTS= to build the tests, not run them)
	make -C "$dir" -s -j2 check ${check_args:-} || { show_logs "$dir"; return 1; }
}

rc=0
run "make check" "$src/build" || rc=1
# A static-only tree builds what "make check" builds (nothing of it may
# need libtool's shared libraries); its tests are the plain tree's.
check_args=TESTS= run "build --disable-shared" "$src/build-static" \
	--disable-shared || rc=1
run "make check under ASan+UBSan" "$src/build-asan" --enable-sanitizers || rc=1
echo "=== libFuzzer, 30 s per target ==="
make -C "$src/build" -s fuzz FUZZ_SECONDS=30 || rc=1
echo "=== make distcheck ==="
make -C "$src/build" -s -j2 distcheck >"$src/build/distcheck.log" 2>&1 ||
	{
		tail -n 60 "$src/build/distcheck.log"
		# (left in place by a failed distcheck)
		for d in "$src"/build/eventheader-*/_build/sub; do
			[ -f "$d/config.status" ] && show_logs "$d"
		done
		rc=1
	}
# One closing line over every test run above (automake .trs results).
count() { cat "$src"/build/tests/*/*.trs "$src"/build/tests/*.trs \
	"$src"/build-asan/tests/*/*.trs "$src"/build-asan/tests/*.trs 2>/dev/null |
	grep -c "^:test-result: $1" ; }
pass=$(( $(count PASS) + $(count XFAIL) )) fail=$(( $(count FAIL) + $(count ERROR) + $(count XPASS) ))
skip=$(count SKIP)
[ $rc = 0 ] || [ "$fail" -gt 0 ] || fail=1
echo "check: $pass passed, $fail failed, $skip skipped"
exit $rc
