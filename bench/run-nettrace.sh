#!/bin/bash
# SPDX-License-Identifier: MIT
#
# run-nettrace.sh - how fast tools/ehdecode converts a large perf.data to
# nettrace v6, how big the nettrace is, how fast it reads back, and that the
# conversion's memory does not grow with the file. "make bench" runs it.
#
# usage: run-nettrace.sh [EHDECODE [GEN_PERF]]
#   EHDECODE   the built tool (default: tools/ehdecode)
#   GEN_PERF   the built generator (default: bench/gen-perf)
#
# bench/gen-perf -c writes perf.data files of 1M and 4M samples made from the
# samples of the conformance corpus's perf.data (as bench/run-decode.sh does;
# that script deletes its files, so this one makes its own, in a temporary
# folder it deletes at the end). Every run is pinned to one CPU (taskset -c
# BENCH_NETTRACE_CPU, when taskset works) and done BENCH_NETTRACE_REPS times,
# the runs of the configurations compared taking turns so that a slow spell
# of the machine does not fall on one of them only. A line shows the fastest
# wall time (seconds; events/s is from it), the user and system CPU time of
# that run (bash's time, in ms) and the largest peak RSS (/usr/bin/time %M)
# of the runs, and how many times that run was preempted (involuntary
# context switches, /usr/bin/time %c): other work on the CPU lengthens the
# wall time but not the CPU time, so on a busy machine events per CPU second
# are the steadier figure. MB are 2^20 bytes. The tool is single-threaded.
#
#   conversion  EHDECODE -F nettrace --stats --sort ORDER -o OUT IN, ORDER
#               time (the default) and file; --stats only prints counts the
#               writer keeps anyway. Its line on standard error gives the
#               events, the bytes and per event the bytes of the compressed
#               event headers and of the payloads.
#   size        of the nettrace and of the perf.data, per event and as gzip -1
#               writes them (for context: how much of the size is redundancy).
#   read back   EHDECODE -F jsonl OUT.nettrace > /dev/null against
#               EHDECODE -F jsonl IN.perf.data > /dev/null in the same turns;
#               the ratio matters more than the rates on a noisy machine.
#
# Targets (reported, never a failure): >= 3,000,000 events/s converting on
# one core, an event header of <= 6 bytes on average, a peak RSS that does
# not grow with the file.
#
# Environment:
#   EH_SHARED_DIR        the shared folder (default: ../shared beside the source)
#   LIBTOOL              the build's libtool ("make bench" passes it), so that
#                        a libtool wrapper of EHDECODE is not what gets measured
#   BENCH_NETTRACE_N     the two sizes (default "1000000 4000000")
#   BENCH_NETTRACE_REPS  runs of each (default 3)
#   BENCH_NETTRACE_CPU   the CPU the runs are pinned to (default 0)
#
# Exit status: 0; 1 if a run failed or an event count was wrong; 77 if the
# corpus file is not there.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u -o pipefail

me='run-nettrace'
srcdir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
# shellcheck source=tests/common/test-lib.sh
. "$srcdir/tests/common/test-lib.sh"	# bench_*, real_program, stamp
tool=${1:-tools/ehdecode}
gen=${2:-bench/gen-perf}
reps=${BENCH_NETTRACE_REPS:-3}
cpu=${BENCH_NETTRACE_CPU:-0}
read -r n_small n_large <<<"${BENCH_NETTRACE_N:-1000000 4000000}"
: "${n_large:=$((4 * n_small))}"
target_eps=3000000
target_hdr=6

bench_corpus
bench_built "$tool" "$gen"
real_program	# tool, run
pin=()
if command -v taskset >/dev/null && taskset -c "$cpu" true 2>/dev/null; then
	pin=(taskset -c "$cpu")
	pinned="pinned to CPU $cpu"
else
	pinned="NOT pinned (no taskset, or CPU $cpu not allowed)"
fi
bench_time
bench_tmp nettrace
status=0
TIMEFORMAT='%3R %3U %3S'

# ---- generate and check ------------------------------------------------------------
echo "== generate: samples of $corpus, repeated (gen-perf -c, rounds of 1000 samples)"
t0='' took=''	# (stamp, secs_since)
for n in "$n_small" "$n_large"; do
	f=$out/$n.data
	stamp t0
	"$gen" -c "$n" "$corpus" "$f" || { echo "$me: gen-perf $n failed" >&2; exit 1; }
	secs_since took "$t0"
	got=$("${run[@]}" "$tool" -F jsonl --stats -o /dev/null "$f" 2>&1 >/dev/null |
		sed -n 's/^[^:]*: \([0-9]*\) events, .*/\1/p')
	awk -v n="$n" -v b="$(stat -c %s "$f")" -v t="$took" -v g="$got" \
		'BEGIN { printf "  %d samples: %.1f MB in %s s; ehdecode reads %s\n", n, b / 1048576, t, g }'
	[ "$got" = "$n" ] || { echo "$me: ehdecode read ${got:-no} samples of $n" >&2; exit 1; }
done

# ---- runs ---------------------------------------------------------------------------
# measure KEY EVENTS CMD...: one run of CMD (its output: its own -o or
# $out/KEY.stdout, its standard error $out/KEY.err); keeps the fastest in
# $out/KEY.best ("wall user sys preemptions") and the largest peak RSS in
# $out/KEY.rss.
measure() {
	local key=$1 t w u s r=0 c=-
	shift
	if [ -n "$have_time" ]; then
		t=$( { time "${run[@]}" "${pin[@]}" /usr/bin/time -f '%M %c' -o "$out/$key.m" \
			"$@" >"$out/$key.stdout" 2>"$out/$key.err"; } 2>&1) ||
			{ echo "$me: failed: $*" >&2; cat "$out/$key.err" >&2; status=1; return 1; }
		read -r r c <<<"$(tail -n 1 "$out/$key.m")"
	else
		t=$( { time "${run[@]}" "${pin[@]}" "$@" >"$out/$key.stdout" 2>"$out/$key.err"; } 2>&1) ||
			{ echo "$me: failed: $*" >&2; cat "$out/$key.err" >&2; status=1; return 1; }
	fi
	read -r w u s <<<"$t"
	if [ ! -f "$out/$key.best" ] ||
		awk -v w="$w" -v b="$(cut -d' ' -f1 "$out/$key.best")" 'BEGIN { exit !(w < b) }'; then
		echo "$w $u $s $c" >"$out/$key.best"
	fi
	if [ ! -f "$out/$key.rss" ] || [ "$r" -gt "$(cat "$out/$key.rss")" ]; then
		echo "$r" >"$out/$key.rss"
	fi
	rm -f "$out/$key.stdout"
}

# line LABEL N KEY: the result line of KEY
line() {
	local w u s c
	read -r w u s c <"$out/$3.best"
	awk -v l="$1" -v n="$2" -v w="$w" -v u="$u" -v s="$s" -v c="$c" \
		-v kb="$(cat "$out/$3.rss")" -v t="$have_time" 'BEGIN {
		printf "  %-22s %8d %8.3f %7.3f %7.3f %10.0f %12.0f %9s %6s\n", l, n, w, u, s, n / w,
			(u > 0 ? n / u : 0), (t ? sprintf("%.1f", kb / 1024) : "-"), c
	}'
}
header() {
	printf '  %-22s %8s %8s %7s %7s %10s %12s %9s %6s\n' run events wall_s user_s sys_s \
		events/s events/user_s peak_RSS_MB preempt
}

# stats KEY: "events bytes header_per_event payload_per_event types" from --stats
stats() {
	sed -n 's/^[^:]*: \([0-9]*\) events, \([0-9]*\) bytes; per event: \([0-9.]*\) bytes of header, \([0-9.]*\) of payload; \([0-9]*\) event types$/\1 \2 \3 \4 \5/p' \
		"$out/$1.err" | tail -n 1
}

echo
echo "== conversion: ehdecode -F nettrace --stats --sort ORDER -o OUT IN" \
	"(fastest of $reps; $(nproc) CPUs, $pinned)"
for ((i = 0; i < reps; i++)); do
	for n in "$n_small" "$n_large"; do
		for order in time file; do
			measure "conv-$n-$order" "$tool" -F nettrace --stats --sort "$order" \
				-o "$out/$n-$order.nettrace" "$out/$n.data"
		done
	done
done
header
for n in "$n_small" "$n_large"; do
	for order in time file; do
		[ -f "$out/conv-$n-$order.best" ] || continue
		line "nettrace --sort $order" "$n" "conv-$n-$order"
		read -r ev _ <<<"$(stats "conv-$n-$order")"
		[ "${ev:-}" = "$n" ] ||
			{ echo "$me: --sort $order $n: --stats says ${ev:-nothing} events" >&2; status=1; }
		grep -v ' events, [0-9]* bytes' "$out/conv-$n-$order.err" | sed 's/^/    (stderr) /'
	done
done

echo
echo "== size (MB = 2^20 bytes; gzip -1 for context)"
printf '  %-24s %8s %10s %9s %8s %9s %7s %9s %9s\n' file events MB bytes/ev hdr/ev \
	payload/ev other/ev gzip1_MB gzip1/ev
for n in "$n_small" "$n_large"; do
	f=$out/$n.data
	[ -f "$f" ] || continue
	b=$(stat -c %s "$f") z=$(gzip -1 -c "$f" | wc -c)
	awk -v n="$n" -v b="$b" -v z="$z" 'BEGIN {
		printf "  %-24s %8d %10.1f %9.2f %8s %9s %7s %9.1f %9.2f\n", "perf.data", n,
			b / 1048576, b / n, "-", "-", "-", z / 1048576, z / n }'
	echo "$n $b $z" >"$out/size-$n.data"
	for order in time file; do
		f=$out/$n-$order.nettrace
		[ -f "$f" ] || continue
		read -r ev by h p ty <<<"$(stats "conv-$n-$order")"
		b=$(stat -c %s "$f") z=$(gzip -1 -c "$f" | wc -c)
		[ "${by:-}" = "$b" ] ||
			echo "  ($me: --stats says ${by:-no} bytes, the file has $b)"
		awk -v n="$n" -v b="$b" -v z="$z" -v h="${h:-0}" -v p="${p:-0}" -v o="$order" 'BEGIN {
			printf "  %-24s %8d %10.1f %9.2f %8.2f %9.2f %7.2f %9.1f %9.2f\n",
				"nettrace --sort " o, n, b / 1048576, b / n, h, p, b / n - h - p,
				z / 1048576, z / n }'
		echo "$n $b $z $h $p ${ty:-0}" >"$out/size-$n-$order.nettrace"
	done
done
for n in "$n_small" "$n_large"; do
	{ [ -f "$out/size-$n.data" ] && [ -f "$out/size-$n-time.nettrace" ]; } || continue
	read -r _ db dz <"$out/size-$n.data"
	read -r _ nb nz h p ty <"$out/size-$n-time.nettrace"
	awk -v n="$n" -v db="$db" -v dz="$dz" -v nb="$nb" -v nz="$nz" -v ty="$ty" 'BEGIN {
		printf "  %d: nettrace/perf.data %.3f; gzip -1 of each: %.3f; gzip -1 makes the nettrace %.3f of its size; %d event types\n",
			n, nb / db, nz / dz, nz / nb, ty }'
done

echo
echo "== read back: ehdecode -F jsonl FILE > /dev/null (fastest of $reps, turns taken; $pinned)"
for n in "$n_small" "$n_large"; do
	# the count first (not timed): all the events come back
	got=$("${run[@]}" "$tool" -F jsonl --stats -o /dev/null "$out/$n-time.nettrace" 2>&1 >/dev/null |
		sed -n 's/^[^:]*: \([0-9]*\) events, .*/\1/p')
	[ "$got" = "$n" ] ||
		{ echo "$me: ehdecode read ${got:-no} events of $n back from the nettrace" >&2; status=1; }
done
for ((i = 0; i < reps; i++)); do
	for n in "$n_small" "$n_large"; do
		measure "read-$n-nettrace" "$tool" -F jsonl "$out/$n-time.nettrace"
		measure "read-$n-perf" "$tool" -F jsonl "$out/$n.data"
	done
done
header
for n in "$n_small" "$n_large"; do
	[ -f "$out/read-$n-nettrace.best" ] && line "jsonl of the nettrace" "$n" "read-$n-nettrace"
	[ -f "$out/read-$n-perf.best" ] && line "jsonl of the perf.data" "$n" "read-$n-perf"
done
for n in "$n_small" "$n_large"; do
	{ [ -f "$out/read-$n-nettrace.best" ] && [ -f "$out/read-$n-perf.best" ]; } || continue
	awk -v n="$n" -v a="$(cut -d' ' -f1 "$out/read-$n-nettrace.best")" \
		-v b="$(cut -d' ' -f1 "$out/read-$n-perf.best")" 'BEGIN {
		printf "  %d: nettrace read back at %.2fx the events/s of the perf.data\n", n, b / a }'
done

# ---- summary --------------------------------------------------------------------------
echo
echo "== summary (bench/run-nettrace.sh)"
for order in time file; do
	for n in "$n_small" "$n_large"; do
		[ -f "$out/conv-$n-$order.best" ] || continue
		read -r w u s _ <"$out/conv-$n-$order.best"
		awk -v n="$n" -v w="$w" -v u="$u" -v s="$s" -v o="$order" -v t="$target_eps" '
		function verdict(e) { return e >= t ? "meets it" : sprintf("BELOW (%.2fx)", e / t) }
		BEGIN {
			e = n / w; c = (u + s > 0) ? n / (u + s) : 0
			printf "  convert --sort %-4s %8d: %9.0f events/s wall: %s; %9.0f per CPU s (user+sys): %s\n",
				o, n, e, verdict(e), c, verdict(c) }'
	done
done
for n in "$n_small" "$n_large"; do
	[ -f "$out/size-$n-time.nettrace" ] || continue
	read -r _ nb _ h p _ <"$out/size-$n-time.nettrace"
	awk -v n="$n" -v h="$h" -v p="$p" -v nb="$nb" -v t="$target_hdr" 'BEGIN {
		printf "  event header %8d: %.2f bytes/event on average (payload %.2f, all %.2f), target <= %d: %s\n",
			n, h, p, nb / n, t, (h <= t ? "meets it" : "ABOVE") }'
done
if [ -n "$have_time" ]; then
	for order in time file; do
		{ [ -f "$out/conv-$n_small-$order.rss" ] && [ -f "$out/conv-$n_large-$order.rss" ]; } || continue
		awk -v a="$(cat "$out/conv-$n_small-$order.rss")" -v b="$(cat "$out/conv-$n_large-$order.rss")" \
			-v o="$order" -v n1="$n_small" -v n4="$n_large" 'BEGIN {
			d = (b - a) / 1024
			printf "  peak RSS convert --sort %-4s: %.1f MB at %d, %.1f MB at %d: ratio %.2f (%+.1f MB): %s\n",
				o, a / 1024, n1, b / 1024, n4, b / a, d,
				(d <= 4 ? "does not grow with the file (within +4 MB)" : "GROWS with the file (over +4 MB)")
		}'
	done
fi
echo "  targets: >= $target_eps events/s converting on one core (wall time, pinned; per CPU s when the CPU is shared); event header <= $target_hdr bytes/event on average; peak RSS flat in the file size"
exit $status
