#!/bin/bash
# SPDX-License-Identifier: MIT
#
# bench-ab.sh - bench/run-ab.sh's convert mode (AB_WHAT=convert), run
# where the test runs (--guest: it needs no user_events), this build as
# both A and B, on the corpus's perf.data:
#  - every run prints "A x.xxx" or "B x.xxx", each build's runs in turns,
#    AB_PAIRS of each;
#  - the medians it prints are those of the runs it printed, and B/A
#    their ratio;
#  - it says what reading the file costs of that;
#  - a build whose conversion fails (a convert-floor that exits 1) fails
#    the run; AB_WHAT=convert without AB_FILE, or an unknown AB_WHAT, is a
#    usage error (exit 2).
set -u
# shellcheck source=tests/common/test-lib.sh
. "$(dirname "$0")/../common/test-lib.sh"
src=${EH_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
bin=$(cd "${EH_BUILDDIR:-.}" && pwd)
ab=$src/bench/run-ab.sh
data=${EH_SHARED_DIR:-../shared}/conformance/eventheader/perf.data
[ -r "$data" ] || skip "reference corpus not found: $data"
[ -x "$bin/bench/convert-floor" ] || skip "bench/convert-floor not built"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-ab.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export TMPDIR=$tmp

AB_WHAT=convert AB_FILE=$data AB_PAIRS=3 \
	bash "$ab" --guest "$bin" "$bin" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 0 ] && ok "convert mode ran (exit 0)" ||
	bad "convert mode: exit $rc: $(head -n 3 "$tmp/err")"
runs=$(grep -cE '^[AB] [0-9]+\.[0-9]{3}$' "$tmp/out")
order=$(awk '/^[AB] /{ printf "%s", $1 }' "$tmp/out")
[ "$runs" = 6 ] && [ "$order" = ABBAAB ] && ok "3 pairs of runs, in turns ($order)" ||
	bad "runs: $runs lines, order '$order', want 6, ABBAAB"
# The medians of the printed runs, and their ratio, as the script says them.
want=$(awk '/^[AB] /{ v[$1] = v[$1] " " $2 }
	function med(s,    a, n, i, j, t) {
		n = split(s, a, " ")
		for (i = 1; i <= n; i++)
			for (j = i + 1; j <= n; j++)
				if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
		return a[2]
	}
	END { printf "median A %.3f us/event, B %.3f us/event, B/A %.3f",
		med(v["A"]), med(v["B"]), med(v["B"]) / med(v["A"]) }' "$tmp/out")
got=$(grep '^median ' "$tmp/out")
[ -n "$got" ] && [ "$got" = "$want" ] && ok "medians and ratio ($got)" ||
	bad "medians: got '$got', want '$want'"
grep -qE '^of which reading the file \(A\): [0-9]+\.[0-9]{3} us/event$' "$tmp/out" &&
	ok "the file's read cost said" || bad "no read cost: $(tail -n 2 "$tmp/out")"

# A B whose convert-floor fails: the run fails, A's runs still print.
mkdir -p "$tmp/broken/bench"
printf '#!/bin/sh\necho "convert-floor: broken" >&2\nexit 1\n' \
	>"$tmp/broken/bench/convert-floor"
chmod +x "$tmp/broken/bench/convert-floor"
AB_WHAT=convert AB_FILE=$data AB_PAIRS=1 \
	bash "$ab" --guest "$bin" "$tmp/broken" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 1 ] && grep -q 'B: convert-floor failed: convert-floor: broken' "$tmp/err" &&
	grep -qE '^A [0-9.]+$' "$tmp/out" && ok "a failing build fails the run (exit 1)" ||
	bad "failing build: exit $rc: $(head -n 2 "$tmp/err")"

AB_WHAT=convert bash "$ab" --guest "$bin" "$bin" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q 'needs AB_FILE' "$tmp/err" &&
	ok "convert without AB_FILE: usage error" || bad "no AB_FILE: exit $rc"
AB_WHAT=sideways bash "$ab" --guest "$bin" "$bin" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q 'AB_WHAT is main, process or convert' "$tmp/err" &&
	ok "unknown AB_WHAT: usage error" || bad "AB_WHAT=sideways: exit $rc"
finish
