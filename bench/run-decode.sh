#!/bin/bash
# SPDX-License-Identifier: MIT
#
# run-decode.sh - how fast tools/ehdecode decodes a large perf.data, and that
# its memory does not grow with the file. "make bench" runs it.
#
# usage: run-decode.sh [EHDECODE [GEN_PERF]]
#   EHDECODE   the built tool (default: tools/ehdecode)
#   GEN_PERF   the built generator (default: bench/gen-perf)
#
# bench/gen-perf writes perf.data files of 1M and 4M samples made from the
# samples of the conformance corpus's perf.data (sched_switch and EventHeader
# events, about 130 bytes a sample); both are checked with ehdecode and, when
# it is installed, perf script (gen-perf -c keeps them readable by perf before
# 6.3). Then each run is EHDECODE -F FORMAT -o /dev/null --sort ORDER FILE,
# BENCH_DECODE_REPS times; the line shows the fastest wall time (seconds;
# events/s and MB/s are from it), the user+system CPU time of that run
# (cpu_s) and the largest peak RSS (/usr/bin/time %M) of them. MB are 2^20
# bytes. The tool is single-threaded.
#
# Environment:
#   EH_SHARED_DIR      the shared folder (default: ../shared beside the source)
#   LIBTOOL            the build's libtool ("make bench" passes it), so that
#                      a libtool wrapper of EHDECODE is not what gets measured
#   BENCH_DECODE_N     the two sizes (default "1000000 4000000")
#   BENCH_DECODE_REPS  runs of each (default 3)
#
# Exit status: 0; 1 if a run or a check of the generated files failed; 77 if
# the corpus file is not there. Missing a target is reported, not a failure.
set -u -o pipefail

me='run-decode'
srcdir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
# shellcheck source=tests/common/test-lib.sh
. "$srcdir/tests/common/test-lib.sh"	# bench_*, real_program, stamp
tool=${1:-tools/ehdecode}
gen=${2:-bench/gen-perf}
reps=${BENCH_DECODE_REPS:-3}
read -r n_small n_large <<<"${BENCH_DECODE_N:-1000000 4000000}"
: "${n_large:=$((4 * n_small))}"

bench_corpus
bench_built "$tool" "$gen"
real_program	# tool, run
bench_time
bench_tmp decode
status=0

# ---- generate and check ------------------------------------------------------------
echo "== generate: samples of $corpus, repeated (rounds of 1000 samples)"
t0='' took=''	# (stamp, secs_since)
for n in "$n_small" "$n_large"; do
	f=$out/$n.data
	stamp t0
	"$gen" -c "$n" "$corpus" "$f" || { echo "$me: gen-perf $n failed" >&2; exit 1; }
	secs_since took "$t0"
	got=$("${run[@]}" "$tool" -F jsonl --sort file "$f" | wc -l)
	line="$n samples: $(awk -v b="$(stat -c %s "$f")" \
		'BEGIN { printf "%.1f MB", b / 1048576 }') in $took s; ehdecode $got"
	[ "$got" = "$n" ] || { echo "$me: ehdecode read $got samples of $n" >&2; status=1; }
	if command -v perf >/dev/null && perf version >/dev/null 2>&1; then
		got=$(perf script -i "$f" 2>/dev/null | wc -l)
		line="$line, perf script $got"
		[ "$got" = "$n" ] || { echo "$me: perf script read $got samples of $n" >&2; status=1; }
	else
		line="$line, perf script: not installed"
	fi
	echo "  $line"
done
[ "$status" = 0 ] || exit 1

# ---- runs ---------------------------------------------------------------------------
# bench N FORMAT ORDER: one result line; "N FORMAT ORDER secs rss_kb" to $out/results
bench() {
	local n=$1 fmt=$2 order=$3 f=$out/$1.data i t0 best='' cpu=- rss=0 s r c
	for ((i = 0; i < reps; i++)); do
		stamp t0
		if [ -n "$have_time" ]; then
			"${run[@]}" /usr/bin/time -f '%M %U %S' -o "$out/rss" \
				"$tool" -F "$fmt" --sort "$order" -o /dev/null "$f"
		else
			"${run[@]}" "$tool" -F "$fmt" --sort "$order" -o /dev/null "$f"
		fi || { echo "$me: ehdecode -F $fmt --sort $order $f failed" >&2; status=1; return; }
		secs_since s "$t0"
		r=0 c=-
		[ -n "$have_time" ] &&
			read -r r c <<<"$(tail -n 1 "$out/rss" | awk '{ print $1, $2 + $3 }')"
		# (in ms: secs_since gives 3 decimals)
		if [ -z "$best" ] || ((10#${s/./} < 10#${best/./})); then
			best=$s cpu=$c
		fi
		[ "$r" -gt "$rss" ] && rss=$r
	done
	echo "$n $fmt $order $best $rss $cpu" >>"$out/results"
	awk -v n="$n" -v fmt="$fmt" -v order="$order" -v s="$best" -v kb="$rss" \
		-v c="$cpu" -v b="$(stat -c %s "$f")" -v t="$have_time" 'BEGIN {
		printf "  %-7s %-5s %9d %9.1f %8.3f %6s %10.0f %8.1f %9s\n", fmt, order, n,
			b / 1048576, s, c == "-" ? c : sprintf("%.2f", c), n / s, b / 1048576 / s,
			t ? sprintf("%.1f", kb / 1024) : "-"
	}'
}

echo
echo "== ehdecode -F FORMAT --sort ORDER -o /dev/null FILE (fastest of $reps; $(nproc) CPUs, the tool uses one)"
printf '  %-7s %-5s %9s %9s %8s %6s %10s %8s %9s\n' format sort samples input_MB seconds \
	cpu_s events/s MB/s peak_RSS_MB
for fmt in json jsonl text; do
	for order in time file; do
		bench "$n_small" "$fmt" "$order"
	done
done
for order in time file; do
	bench "$n_large" json "$order"
done

# ---- summary --------------------------------------------------------------------------
# get N FORMAT ORDER FIELD(4 secs, 5 rss_kb, 6 cpu_s)
get() {
	awk -v n="$1" -v f="$2" -v o="$3" -v k="$4" \
		'$1 == n && $2 == f && $3 == o { print $k }' "$out/results" 2>/dev/null | tail -n 1
}
echo
echo "== summary (bench/run-decode.sh)"
for order in time file; do
	s1=$(get "$n_small" json "$order" 4) s4=$(get "$n_large" json "$order" 4)
	{ [ -n "$s1" ] && [ -n "$s4" ]; } || continue
	awk -v n1="$n_small" -v n4="$n_large" -v s1="$s1" -v s4="$s4" -v o="$order" 'BEGIN {
		e1 = n1 / s1; e4 = n4 / s4
		v = (e1 >= 2e6 && e4 >= 2e6) ? "meets both targets" : \
			(e1 >= 1.48e6 && e4 >= 1.48e6) ? "meets 2x reference, BELOW 2M/s" : "BELOW both targets"
		printf "  json --sort %-4s: %.0f events/s at %d, %.0f at %d: %.2fx / %.2fx the reference: %s\n",
			o, e1, n1, e4, n4, e1 / 740000, e4 / 740000, v
	}'
done
st=$(get "$n_small" json time 4) sf=$(get "$n_small" json file 4)
ct=$(get "$n_small" json time 6) cf=$(get "$n_small" json file 6)
[ -n "$st" ] && [ -n "$sf" ] &&
	awk -v t="$st" -v f="$sf" -v ct="$ct" -v cf="$cf" -v n="$n_small" 'BEGIN {
		printf "  cost of --sort time over --sort file (json, %d): %+.1f%% wall time", n, (t / f - 1) * 100
		if (ct + 0 > 0 && cf + 0 > 0)
			printf ", %+.1f%% CPU time", (ct / cf - 1) * 100
		printf "\n" }'
if [ -n "$have_time" ]; then
	for order in time file; do
		r1=$(get "$n_small" json "$order" 5) r4=$(get "$n_large" json "$order" 5)
		{ [ -n "$r1" ] && [ -n "$r4" ]; } || continue
		awk -v a="$r1" -v b="$r4" -v o="$order" -v n1="$n_small" -v n4="$n_large" 'BEGIN {
			d = (b - a) / 1024
			printf "  peak RSS json --sort %-4s: %.1f MB at %d, %.1f MB at %d: ratio %.2f (%+.1f MB): %s\n",
				o, a / 1024, n1, b / 1024, n4, b / a, d,
				d <= 4 ? "does not grow with the file (limit +4 MB)" : "GROWS with the file (limit +4 MB)"
		}'
	done
fi
echo "  reference perf-decode: 740000 events/s, 10.2 MB peak RSS (224,400-sample file, this machine kind)"
echo "  targets: >= 1480000 events/s (2x the reference) and >= 2000000 events/s; peak RSS flat in the file size"
exit $status
