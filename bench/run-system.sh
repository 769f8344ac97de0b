#!/bin/bash
# SPDX-License-Identifier: MIT
#
# run-system.sh - what a system trace costs: CPU sampling on every CPU at
# SYS_HZ (default 1000) while every CPU is busy, recorded for SYS_SECONDS
# (default 10) by
#
#   nettrace     ehrecord --cpu-sampling=HZ (decodes, attributes the
#                stacks' functions for ProcessSymbol events, nettrace v6)
#   perf         ehrecord -F perf --cpu-sampling=HZ (copies the records,
#                rewrites them to a normal perf.data at the end)
#   perf-record  perf record -a -g -e cpu-clock -F HZ (the peer)
#
# one after the other, under the same load: one examples/spin per CPU. For
# each: the recorder's CPU time (user+system, the shell's "time", start
# and end included) per second of tracing; the samples in the file
# (ehdecode's "cpu" events); the file's bytes per sample; the CPU time
# per sample. Ratios against perf record come from the same run. Then the
# peak RSS of ehdecode --system converting the perf.data to nettrace.
#
# usage: run-system.sh [BUILDDIR]     as root, with a tracefs
# Environment: SYS_SECONDS, SYS_HZ, SYS_RECORDERS (a subset of
# "nettrace perf perf-record").
set -u
build=${1:-.}
rec=$build/tools/ehrecord
dec=$build/tools/ehdecode
spin=$build/examples/spin
secs=${SYS_SECONDS:-10}
hz=${SYS_HZ:-1000}
recorders=${SYS_RECORDERS:-nettrace perf perf-record}
cpus=$(nproc)

for f in "$rec" "$dec" "$spin"; do
	[ -x "$f" ] || { echo "run-system.sh: $f is missing (build first)"; exit 1; }
done
[ "$(id -u)" = 0 ] || { echo "run-system.sh: needs root (sampling every CPU)"; exit 77; }
[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing ||
	{ echo "run-system.sh: no tracefs"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/run-system.XXXXXX")
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$tmp"' EXIT

# The CPU seconds (user + system) of a command, into $cpu.
timed() {
	local TIMEFORMAT='%3U %3S' t

	t=$( { time "$@" >/dev/null 2>"$tmp/err"; } 2>&1 ) ||
		{ echo "run-system.sh: $1 failed: $(head -n 2 "$tmp/err")"; return 1; }
	cpu=$(echo "$t" | tail -n 1 | awk '{ printf "%.3f", $1 + $2 }')
}

echo "system trace cost: $cpus CPUs busy (examples/spin each), $hz Hz, ${secs} s per recorder"
printf '%-12s %10s %10s %12s %12s\n' recorder "CPU s/s" samples "bytes/sample" "us/sample"
declare -A per_s
for r in $recorders; do
	for i in $(seq "$cpus"); do
		"$spin" $(((secs + 3) * 1000)) >/dev/null &
	done
	sleep 0.5
	case $r in
	nettrace)
		out=$tmp/s.nettrace
		timed "$rec" -q --cpu-sampling="$hz" -o "$out" -- sleep "$secs" || continue
		n=$("$dec" -F jsonl -m n "$out" | grep -c '^{"n":"Universal.Events:cpu"') ;;
	perf)
		out=$tmp/s.data
		timed "$rec" -q -F perf --cpu-sampling="$hz" -o "$out" -- sleep "$secs" || continue
		n=$("$dec" --system -F jsonl -m n "$out" | grep -c '^{"n":"Universal.Events:cpu"') ;;
	perf-record)
		command -v perf >/dev/null || { echo "perf-record: no perf"; continue; }
		out=$tmp/p.data
		timed perf record -q -a -g -k monotonic -e cpu-clock -F "$hz" -o "$out" -- sleep "$secs" || continue
		n=$("$dec" --system -F jsonl -m n "$out" | grep -c '^{"n":"Universal.Events:cpu"') ;;
	*)
		echo "unknown recorder $r"; continue ;;
	esac
	kill $(jobs -p) 2>/dev/null
	wait 2>/dev/null
	size=$(stat -c %s "$out")
	per_s[$r]=$(awk -v c="$cpu" -v s="$secs" 'BEGIN { printf "%.4f", c / s }')
	printf '%-12s %10s %10s %12s %12s\n' "$r" "${per_s[$r]}" "$n" \
		"$(awk -v b="$size" -v n="$n" 'BEGIN { if (n) printf "%.1f", b / n }')" \
		"$(awk -v c="$cpu" -v n="$n" 'BEGIN { if (n) printf "%.2f", c * 1e6 / n }')"
done
# The converter's memory: peak RSS of ehdecode --system turning the
# recorded perf.data into nettrace (every stack's functions looked up).
if [ -e "$tmp/s.data" ] && command -v python3 >/dev/null; then
	rss=$(python3 -c '
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL,
	       stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' \
		"$dec" --system -F nettrace -o "$tmp/c.nettrace" "$tmp/s.data")
	echo "ehdecode --system -F nettrace of the perf.data: peak RSS $((rss / 1024)).$(( (rss % 1024) * 10 / 1024 )) MiB"
fi
if [ -n "${per_s[perf-record]:-}" ]; then
	for r in nettrace perf; do
		[ -n "${per_s[$r]:-}" ] || continue
		echo "$r / perf-record CPU: $(awk -v a="${per_s[$r]}" -v b="${per_s[perf-record]}" 'BEGIN { if (b > 0) printf "%.2f", a / b }')"
	done
fi
