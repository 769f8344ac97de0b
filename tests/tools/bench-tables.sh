#!/bin/bash
# SPDX-License-Identifier: MIT
#
# bench-tables.sh - bench/live-tables.sh, which prints bench/run-live.sh's
# tables, on results made here (three runs of each recorder at 20,000
# events/s, and an idle run each), whose numbers are known:
#  - each recorder's median run (of steady CPU per event) is the one its
#    ratios come from: nettrace 1.8 us, -F perf 1.2, perf record 1.2, so
#    nettrace / -F perf is 1.50x streaming and steady, with the converter
#    (nettrace's main thread) 1.20 us, the others 0.60, and a budget at
#    1.2x of 0.84; ehrecord / perf record 1.50x (nettrace) and 1.00x
#    (-F perf), over the whole run too (less the idle run's CPU);
#  - a rung where one of nettrace's runs missed events is not passed,
#    though its median run lost nothing, and the table of events captured
#    says which runs missed and how many at worst;
#  - without that run's loss, the rung is passed, with the median run's
#    cost;
#  - flat out, a recorder passes with the median rate made only if every
#    run there lost nothing;
#  - with bench/convert-floor's output beside the results, the summary
#    gives its library cost, the file's read of it (when convert-floor
#    printed one) and the floor.
set -u
tables=$(dirname "$0")/../../bench/live-tables.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-tables.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/common/test-lib.sh
. "$(dirname "$0")/../common/test-lib.sh"

# results: recorder rate written made/s recorded dups lost cpu cpu_in_load
# stop load_cpu steady_cpu steady_written steady_main_cpu
write_results() {
	cat >"$tmp/results" <<-END
	nettrace idle 5 1 5 0 0 0.30 0.002 0.08 0 0 0 -1
	perf idle 5 1 5 0 0 0.20 0.001 0.07 0 0 0 -1
	perf-record idle 5 1 5 0 0 0.80 0.001 1.20 0 0 0 -1
	nettrace 20000 100000 19998 100000 0 0 0.45 0.15 0.08 0.15 0.075 50000 0.05
	perf 20000 100000 19998 100000 0 0 0.30 0.10 0.07 0.10 0.05 50000 -1
	perf-record 20000 100000 19998 100000 0 0 0.92 0.12 1.20 0.12 0.06 50000 -1
	nettrace 20000 100000 19998 100000 0 0 0.48 0.18 0.08 0.18 0.09 50000 0.06
	perf 20000 100000 19998 100000 0 0 0.32 0.12 0.07 0.12 0.06 50000 -1
	perf-record 20000 100000 19998 100000 0 0 0.95 0.15 1.20 0.15 0.075 50000 -1
	nettrace 20000 100000 19998 $1 0 $2 0.60 0.30 0.08 0.30 0.15 50000 0.1
	perf 20000 100000 19998 100000 0 0 0.40 0.20 0.07 0.20 0.10 50000 -1
	perf-record 20000 100000 19998 100000 0 0 0.89 0.09 1.20 0.09 0.045 50000 -1
	nettrace max 300000 200000 300000 0 0 1.0 0.5 0.08 0.5 0.25 100000 0.1
	nettrace max 300000 210000 299000 0 1000 1.0 0.5 0.08 0.5 0.25 100000 0.1
	perf max 300000 220000 300000 0 0 1.0 0.5 0.08 0.5 0.25 100000 -1
	perf-record max 300000 220000 300000 0 0 1.0 0.5 0.08 0.5 0.25 100000 -1
	END
}

# has LABEL REGEX: a line of the tables matches REGEX
has() {
	if grep -Eq -- "$2" "$tmp/out"; then
		ok "$1"
	else
		bad "$1: no /$2/ in:"
		sed 's/^/	/' "$tmp/out"
	fi
}

tables() {
	LIVE_SECONDS=5 LIVE_REPEATS=3 bash "$tables" "$tmp" >"$tmp/out" 2>&1 ||
		bad "live-tables.sh: status $?"
}

write_results 99990 10
tables
has "nettrace / -F perf: 1.50x streaming and steady, converter 1.20 us, others 0.60, budget 0.84" \
	'^20000 +1\.50x +1\.50x +1\.20 +0\.60 +0\.84$'
has "ehrecord / perf record: nettrace 1.50x, -F perf 1.00x (stream, steady, whole)" \
	'^20000 +1\.50x +1\.50x +1\.50x +1\.00x +1\.00x +1\.00x$'
has "a rung where one run of three missed events is not passed" \
	'^nettrace +- +0\.00 +0% +20000 '
has "... and the others pass it (and flat out), at their median run's cost" \
	'^perf +>=220000 +1\.20 '
has "the runs that missed events are named under the table of captures" \
	'^nettrace at 20000: 1 of 3 runs missed events, at worst 99990/100000 \(99\.99%\)$'

write_results 100000 0
tables
has "with no run missing events, the rung is passed at the median run's cost" \
	'^nettrace +20000 +1\.80 +3% +- '
has "flat out, a recorder whose every run lost nothing passes at its median rate made" \
	'^perf +>=220000 +1\.20 +2% +- +220000 +0 '
has "... and one with a run that lost does not, with the most it missed" \
	'^nettrace +20000 .* 200000 +1000 '
if grep -q "at 20000: .* runs missed events" "$tmp/out"; then
	bad "no run at 20000 missed events, but the tables say one did"
else
	ok "no run at 20000 named as missing events when none did"
fi

# With bench/convert-floor's output: its library, read and floor costs in
# the summary; an output without read (an older convert-floor) leaves it out.
cat >"$tmp/floor.txt" <<-END
	touch        70.0 ns per sample (300000 samples)
	floor       140.0 ns per sample (300000 samples)
	library     800.0 ns per sample (300000 samples)
	read        290.0 ns per sample (300000 samples)
END
tables
has "the summary gives the library's cost, what reading the file is of it, and the floor" \
	'^reading included: 0\.29\), the least conversion 0\.14 us \(floor\)$'
has "... the library's cost on the line before" \
	'^converting a file costs 0\.80 us here \(convert-floor library, its$'
sed -i '/^read /d' "$tmp/floor.txt"
tables
has "without a read line, the summary says none" \
	'^reading included\), the least conversion 0\.14 us \(floor\)$'
finish
