#!/bin/bash
# SPDX-License-Identifier: MIT
#
# run-ab.sh - is build B's nettrace recording cheaper than build A's? The
# steady CPU per event of ehrecord's main thread (where it converts), or
# of the whole process, the two builds recording the same load in turns
# in the test VM; or (AB_WHAT=convert) each build's conversion of the same
# perf.data, by bench/convert-floor, in turns in the VM.
#
# usage: run-ab.sh BUILD_A BUILD_B         boots the test VM, runs the rest there
#        run-ab.sh --guest BUILD_A BUILD_B in the guest (root, user_events;
#                                          for convert, anywhere)
#   BUILD_A, BUILD_B   build trees with tools/ehrecord built (each runs its
#                      own libehdecode); bench/live-load is A's. For
#                      convert, bench/convert-floor built in each
#
# Each pair: A's ehrecord -o FILE.nettrace -e EhBench_L4K1, then B's,
# while bench/live-load writes AB_RATE events/s for AB_SECONDS seconds
# (pinned as bench/run-live.sh pins them: the recorder to CPU 0);
# live-load -p -W gives the recorder main thread's CPU time from
# AB_WARM seconds into the load to its end (to the ns: a task-clock perf
# counter on the thread), and the events written in that time. Single
# runs differ by 15% and more under TCG, so it takes AB_PAIRS pairs and
# prints every run, each build's median, and B's median over A's: below
# 1, B is cheaper. The order within a pair
# alternates, so that neither build always runs first.
#
# Environment:
#   EH_TEST_KERNEL   bzImage with CONFIG_USER_EVENTS (default:
#                    ../shared/vm/bzImage beside the source tree)
#   AB_RATE          events per second (default 50000)
#   AB_SECONDS       seconds of load per run (default 5)
#   AB_WARM          seconds into the load the count starts (default 1.5)
#   AB_PAIRS         pairs of runs (default 8)
#   AB_ENV_B         NAME=VALUE words for B's ehrecord's environment (an
#                    experiment switched by a variable in one build)
#   AB_WHAT          main (default): the main thread, the converter;
#                    process: every thread (the drain thread too), for a
#                    change on the drain's side; convert: convert-floor
#                    -o library on AB_FILE, the best of 3 conversions a
#                    run, in us per sample (no recording: the converter
#                    alone, in less than a second a run, where a
#                    recording's cost is noisier), and what reading the
#                    file costs of that (convert-floor -o read, once)
#   AB_FILE          for convert: a perf.data of bench/producer's events
#                    (ehrecord -F perf -e EhBench_L4K1 while
#                    bench/live-load runs)
#
# Exit status: 0; 1 if a run failed; 2 for a usage error; 77 with no VM
# kernel or QEMU, or no user_events in the guest.
set -u
me=run-ab.sh
srcdir=$(cd "$(dirname "$0")/.." && pwd -P)
# shellcheck source=tests/common/test-lib.sh
. "$srcdir/tests/common/test-lib.sh"	# result_field
rate=${AB_RATE:-50000}
secs=${AB_SECONDS:-5}
warm=${AB_WARM:-1.5}
pairs=${AB_PAIRS:-8}
what=${AB_WHAT:-main}
file=${AB_FILE:-}
case $what in
main) field=rec_steady_main_cpu_s ;;
process) field=rec_steady_cpu_s ;;
convert)
	[ -f "$file" ] ||
		{ echo "$me: AB_WHAT=convert needs AB_FILE, a perf.data (not '$file')" >&2; exit 2; }
	file=$(cd "$(dirname "$file")" && pwd -P)/$(basename "$file") ;;
*) echo "$me: AB_WHAT is main, process or convert, not '$what'" >&2; exit 2 ;;
esac
for v in "$rate" "$secs" "$pairs"; do
	case $v in
	''|*[!0-9]*|0) echo "$me: AB_RATE, AB_SECONDS and AB_PAIRS are positive numbers, not '$v'" >&2
		exit 2 ;;
	esac
done

# ---- host: boot the VM ---------------------------------------------------------
if [ "${1:-}" != --guest ]; then
	[ $# = 2 ] || { echo "usage: $me BUILD_A BUILD_B" >&2; exit 2; }
	a=$(cd "$1" && pwd -P) && b=$(cd "$2" && pwd -P) || exit 2
	kernel=${EH_TEST_KERNEL:-$srcdir/../shared/vm/bzImage}
	runner=$srcdir/tests/vm/run-in-vm.sh
	need=("$a/bench/live-load" "$a/tools/ehrecord" "$b/tools/ehrecord")
	[ "$what" = convert ] &&
		need=("$a/bench/convert-floor" "$b/bench/convert-floor")
	for f in "${need[@]}"; do
		[ -x "$f" ] || { echo "$me: $f not built (make bench)" >&2; exit 1; }
	done
	why=$(/bin/bash "$runner" -k "$kernel" --check 2>&1) ||
		{ echo "SKIP: $me: $why"; exit 77; }
	trees=()
	for d in "$a" "$b" "$srcdir" ${file:+"$(dirname "$file")"}; do
		case $d in /tmp/*) trees+=(-r "$d") ;; esac
	done
	exec /bin/bash "$runner" -k "$kernel" "${trees[@]}" -T \
		-t $((pairs * (2 * secs + 10) + 120)) \
		-e AB_RATE="$rate" -e AB_SECONDS="$secs" -e AB_WARM="$warm" \
		-e AB_PAIRS="$pairs" -e AB_ENV_B="${AB_ENV_B:-}" -e AB_WHAT="$what" \
		-e AB_FILE="$file" -- \
		/bin/bash "$srcdir/bench/run-ab.sh" --guest "$a" "$b"
fi

# ---- guest ---------------------------------------------------------------------
a=${2:?usage: $me --guest BUILD_A BUILD_B}
b=${3:?usage: $me --guest BUILD_A BUILD_B}
[ "$what" = convert ] || [ -e /sys/kernel/tracing/user_events_data ] ||
	{ echo "SKIP: $me: no user_events in this kernel"; exit 77; }
work=${TMPDIR:-/tmp}/run-ab
mkdir -p "$work" && cd "$work" || exit 1
# As bench/run-live.sh: the recorder on CPU 0, the load on the others.
pin_rec=() pin_load=()
ncpu=$(nproc)
if [ "$ncpu" -ge 2 ] && command -v taskset >/dev/null; then
	pin_rec=(taskset -c 0)
	pin_load=(taskset -c "1-$((ncpu - 1))")
fi

# convert NAME BUILD [NAME=VALUE...]: one conversion of AB_FILE (the best
# of 3); prints "NAME us/event"
convert() {
	local name=$1 build=$2
	shift 2
	env "$@" "$build/bench/convert-floor" -r 3 -o library "$file" \
		2>"$work"/err | awk -v name="$name" '
		$1 == "library" && $2 ~ /^[0-9.]+$/ {
			printf "%s %.3f\n", name, $2 / 1000; done = 1 }
		END { exit !done }' ||
		{ echo "$me: $name: convert-floor failed: $(cat "$work"/err)" >&2; return 1; }
}

# run NAME BUILD [NAME=VALUE...]: one recording; prints "NAME us/event"
run() {
	local name=$1 build=$2 pid cpu n
	shift 2
	[ "$what" = convert ] && { convert "$name" "$build" "$@"; return; }
	"${pin_rec[@]}" env "$@" "$build/tools/ehrecord" -q \
		-o "$work"/out.nettrace -e EhBench_L4K1 2>"$work"/err &
	pid=$!
	"${pin_load[@]}" "$a/bench/live-load" -w 20 -s 500 -r "$rate" \
		-d "$secs" -p $pid -W "$warm" >"$work"/load.out
	kill -INT $pid
	wait $pid || { echo "$me: $name: ehrecord failed: $(cat "$work"/err)" >&2; return 1; }
	rm -f "$work"/out.nettrace
	cpu=$(result_field "$work"/load.out "$field")
	n=$(result_field "$work"/load.out steady_written)
	awk -v name="$name" -v c="${cpu:--1}" -v n="${n:-0}" 'BEGIN {
		if (c !~ /^[0-9.]+$/ || n !~ /^[0-9]+$/ || n == 0) exit 1
		printf "%s %.3f\n", name, c * 1e6 / n }' ||
		{ echo "$me: $name: no CPU time from live-load: $(grep '^result ' "$work"/load.out)" >&2; return 1; }
}

if [ "$what" = convert ]; then
	echo "== CPU per sample (convert-floor -o library), $file, $pairs pairs"
else
	echo "== CPU per event ($what: $field, steady), $rate events/s, $pairs pairs"
fi
echo "A: $a"
echo "B: $b${AB_ENV_B:+ with $AB_ENV_B}"
read -r -a envb <<<"${AB_ENV_B:-}"
status=0
: >"$work"/runs
set -o pipefail
for ((i = 0; i < pairs; i++)); do
	for x in $((i % 2)) $((1 - i % 2)); do
		if [ $x = 0 ]; then
			run A "$a" | tee -a "$work"/runs || status=1
		else
			run B "$b" "${envb[@]}" | tee -a "$work"/runs || status=1
		fi
	done
done
awk '
	{ v[$1] = v[$1] " " $2 }
	function median(s,    a, n, i, j, t) {
		n = split(s, a, " ")
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) {
				t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
			}
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	END {
		if (!("A" in v) || !("B" in v)) exit 1
		ma = median(v["A"]); mb = median(v["B"])
		printf "median A %.3f us/event, B %.3f us/event, B/A %.3f\n", ma, mb, mb / ma
	}' "$work"/runs || status=1
if [ "$what" = convert ]; then
	"$a/bench/convert-floor" -r 3 -o read "$file" | awk '
		$1 == "read" { printf "of which reading the file (A): %.3f us/event\n", $2 / 1000; done = 1 }
		END { exit !done }' ||
		{ echo "$me: A: convert-floor -o read failed" >&2; status=1; }
fi
exit $status
