#!/bin/bash
# SPDX-License-Identifier: MIT
#
# run-live.sh - the highest event rate that tools/ehrecord records with no
# loss, and its CPU time per event, against perf record on the same
# tracepoint in the same run. "make bench" runs it.
#
# usage: run-live.sh [BUILDDIR]            boots the test VM, runs the rest there
#        run-live.sh --guest BUILDDIR      in the guest (root, user_events)
#   BUILDDIR   the build tree, with bench/live-load, tools/ehrecord and
#              tools/ehdecode built (default: .)
#
# In the guest, bench/live-load writes bench/producer's event (86 bytes,
# 5 fields, tracepoint EhBench_L4K1) at each rate of a ladder for
# LIVE_SECONDS seconds, evenly (what is due every 1 ms, or every tick of
# a jiffies clock), while one recorder records every CPU:
#
#   nettrace     ehrecord -e EhBench_L4K1 (decodes each event, nettrace v6)
#   perf         ehrecord -F perf -e EhBench_L4K1 (copies the records)
#   perf-record  perf record -a -k monotonic -m 256 -e user_events:EhBench_L4K1
#
# All with a 1 MiB ring per CPU: ehrecord's default, and -m 256 pages of 4
# KiB for perf (whose default is 512 KiB, from perf_event_mlock_kb). Each
# is started before the load and stopped with SIGINT 0.2 s after it. The
# rings wake the reader when half full in perf record and -F perf,
# three quarters full in nettrace (its drain copies to memory), and a
# quarter with a latency bound (pipes and ehdecode -e). A holder process
# (live-load -H) keeps the tracepoint registered, as perf record needs it
# to exist. The recorders run one after the other at each rung, so that
# their numbers come from the same minute; the rung "max" writes as fast
# as the producer can, and the last one, "flood", as fast as a producer
# thread per CPU can with nothing pinned (the recorder competes with them
# for the CPUs: every recorder loses, and the share each keeps is what
# counts). With 2 CPUs or more the recorder is pinned
# to CPU 0 and the load to the others (LIVE_PIN=0: not pinned). Before
# the ladder, the producer alone: flat out under perf stat (a counting
# event: enabled, no ring), its own limit here; and bench/copy-bench, the
# rate of the drain thread's copy of ring spans against memcpy's. After
# it, bench/convert-floor on the first -F perf file of the ladder: the
# CPU per event of converting it to nettrace with the library, and of the
# least conversion there can be (what a faster converter can approach).
#
# For each run: events written (live-load's count of writes the kernel
# took); events in the file (ehdecode -F jsonl, for all three formats),
# duplicates left out (events differ in their "count" field); lost as the
# recorder reports it (ehrecord's end line; perf report --stats for perf
# record's file); missing = written - recorded; and the recorder's CPU
# time (user+system): of the whole process (the shell's "times"), and from
# the load's start to 0.2 s after its end (live-load -p reads the
# recorder's CPU-time clock, to the ns), which gives the CPU per event
# while streaming and how busy the recorder was; and the same from
# LIVE_WARM seconds into the load, per event written from then ("steady":
# without what the recorder pays as it warms up, such as memory touched
# for the first time). "whole" per event takes
# off the CPU time of an idle run (same steps, 1 event/s, after a warm-up
# run that fills the page cache with the programs) and keeps the work at
# the end (perf record's build-id pass). A rung passes when nothing is
# missing or reported lost, in every run of it. The tables are
# bench/live-tables.sh's. Beside nettrace / -F perf, per rung: the
# steady CPU per event of nettrace's main thread, where ehrecord converts
# (live-load's rec_steady_main_cpu_s, to the ns from a task-clock perf
# counter on the thread), and of its other threads (the one that empties
# the rings); and what converting may cost if nettrace is to stay within
# 1.2 times -F perf: 1.2 times -F perf's steady CPU per event less
# nettrace's other threads', to set against the converter's and
# convert-floor's numbers.
#
# Environment:
#   EH_TEST_KERNEL     bzImage with CONFIG_USER_EVENTS (default:
#                      ../shared/vm/bzImage beside the source tree)
#   EH_SHARED_DIR      the shared folder (default: ../shared beside the source)
#   LIVE_RATES         the ladder in events/s (default "20000 50000 100000
#                      150000 200000 300000"); rungs over 95% of what
#                      the producer makes alone are left out; then "max"
#                      and "flood", unless LIVE_FLAT is 0
#   LIVE_FLAT          1 (default) or 0: 0 leaves out the flat-out rungs
#                      ("max", "flood"), for medians of several runs at
#                      set rates in less time
#   LIVE_SECONDS       seconds of load per run (default 3)
#   LIVE_WARM          seconds of load before the steady part (default:
#                      half of LIVE_SECONDS)
#   LIVE_THREADS       live-load threads (default 1)
#   LIVE_RECORDERS     a subset of "nettrace perf perf-record"
#   LIVE_REPEATS       runs of each recorder per rung (default 1), one
#                      recorder after the other in turn; the tables after
#                      the first take, of each recorder's runs at a rung,
#                      the one of median steady CPU per event; flat out,
#                      the summary takes the median rate made, a pass
#                      only if every run lost nothing, and the most missed
#   LIVE_PIN           1 (default) or 0, see above
#   LIVE_VM_CPUS       guest CPUs (default 2)
#   LIVE_VM_TIMEOUT    limit for the VM run in seconds (default 900, or
#                      300 times LIVE_SECONDS when that is over 3; times
#                      LIVE_REPEATS)
#
# The guest keeps time by its TSC (run-in-vm.sh -T), so that its CPU
# accounting is to the microsecond, not to the 4 ms tick it has otherwise.
# The VM runs under QEMU (TCG unless hardware KVM is there): absolute
# rates and times are QEMU's, and a busy host shows in them (a vCPU that
# the host does not run stalls the recorder or the producer); compare the
# recorders within one run, and run it more than once. The whole takes 6
# to 9 minutes under TCG on 2 host cores, most of it ehdecode counting.
#
# Exit status: 0; 1 if a run failed (a recorder or ehdecode error, not a
# loss); 77 with no VM kernel, no QEMU, or no user_events in the guest.
set -u -o pipefail

me="run-live"
srcdir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
# shellcheck source=tests/common/test-lib.sh
. "$srcdir/tests/common/test-lib.sh"	# result_field, stamp, secs_since
tracefs=/sys/kernel/tracing
tp=EhBench_L4K1
rates=${LIVE_RATES:-20000 50000 100000 150000 200000 300000}
secs=${LIVE_SECONDS:-3}
warm=${LIVE_WARM:-$(awk -v s="$secs" 'BEGIN { print s / 2 }')}
threads=${LIVE_THREADS:-1}
recorders=${LIVE_RECORDERS:-nettrace perf perf-record}
repeats=${LIVE_REPEATS:-1}
case $repeats in
''|*[!0-9]*|0) echo "$me: LIVE_REPEATS must be a number of runs, not '$repeats'" >&2
	exit 2 ;;
esac
flat=${LIVE_FLAT:-1}
case $flat in
0|1) ;;
*) echo "$me: LIVE_FLAT must be 0 or 1, not '$flat'" >&2
	exit 2 ;;
esac

# ---- host: boot the VM ---------------------------------------------------------
if [ "${1:-}" != --guest ]; then
	build=$(cd "${1:-.}" && pwd -P) || exit 1
	shared=${EH_SHARED_DIR:-$srcdir/../shared}
	kernel=${EH_TEST_KERNEL:-$srcdir/../shared/vm/bzImage}
	runner=$srcdir/tests/vm/run-in-vm.sh
	[ -x "$runner" ] || runner=$shared/vm/run-in-vm.sh
	for f in bench/live-load tools/ehrecord tools/ehdecode; do
		[ -x "$build/$f" ] ||
			{ echo "$me: $build/$f not built (make bench builds it)" >&2; exit 1; }
	done
	if [ ! -x "$runner" ]; then
		echo "SKIP: $me: no VM runner (tests/vm/run-in-vm.sh)"
		exit 77
	fi
	why=$(/bin/bash "$runner" -k "$kernel" --check 2>&1) ||
		{ echo "SKIP: $me: $why"; exit 77; }
	trees=()
	case $build in /tmp/*) trees+=(-r "$build") ;; esac
	case $srcdir in /tmp/*) trees+=(-r "$srcdir") ;; esac
	echo "== live recording in the VM (runner $runner, kernel $kernel)"
	started=$SECONDS
	/bin/bash "$runner" -k "$kernel" "${trees[@]}" -c "${LIVE_VM_CPUS:-2}" -T \
		-t "${LIVE_VM_TIMEOUT:-$(((secs > 3 ? 300 * secs : 900) * repeats))}" \
		-e LIVE_RATES="$rates" \
		-e LIVE_SECONDS="$secs" -e LIVE_WARM="$warm" \
		-e LIVE_THREADS="$threads" \
		-e LIVE_RECORDERS="$recorders" -e LIVE_PIN="${LIVE_PIN:-1}" \
		-e LIVE_REPEATS="$repeats" -e LIVE_FLAT="$flat" -- \
		/bin/bash "$srcdir/bench/run-live.sh" --guest "$build"
	rc=$?
	echo "$me: VM run took $((SECONDS - started)) s, exit status $rc"
	exit $rc
fi

# ---- guest ---------------------------------------------------------------------
build=${2:?usage: run-live.sh --guest BUILDDIR}
load=$build/bench/live-load
work=/tmp/live-bench
status=0

if [ ! -w $tracefs/user_events_data ]; then
	echo "SKIP: $me: no writable $tracefs/user_events_data (CONFIG_USER_EVENTS, root)"
	exit 77
fi

# real_prog PROG: the command, one word a line, that runs PROG itself and
# not libtool's wrapper script (whose shell would be in the CPU time)
real_prog() {
	local lt

	# shellcheck disable=SC2016 # expanded by that shell
	if head -c 2 "$1" | grep -q '^#!' && [ -x "$build/libtool" ] &&
	   lt=$("$build/libtool" --mode=execute /bin/sh -c \
		'printf "%s\n%s" "$0" "${LD_LIBRARY_PATH-}"' "$1"); then
		printf '%s\n' env "LD_LIBRARY_PATH=${lt#*$'\n'}" "${lt%%$'\n'*}"
	else
		printf '%s\n' "$1"
	fi
}
mkdir -p $work && cd $work || exit 1
# (no /dev/fd in the guest for "< <(...)")
real_prog "$build/tools/ehrecord" >prog.txt && mapfile -t rec <prog.txt
real_prog "$build/tools/ehdecode" >prog.txt && mapfile -t dec <prog.txt
floor=()
[ -x "$build/bench/convert-floor" ] &&
	real_prog "$build/bench/convert-floor" >prog.txt && mapfile -t floor <prog.txt

if ! command -v perf >/dev/null; then
	echo "$me: no perf in the guest: perf-record left out"
	recorders=${recorders//perf-record/}
fi
# The producer on CPUs 1.., the recorder on CPU 0: they do not take turns
# on one CPU, whichever the recorder.
ncpu=$(nproc)
pin_load=()
pin_rec=()
if [ "${LIVE_PIN:-1}" = 1 ] && [ "$ncpu" -ge 2 ] && command -v taskset >/dev/null; then
	pin_rec=(taskset -c 0)
	pin_load=(taskset -c "1-$((ncpu - 1))")
fi

# CPU seconds (user + system of the children) from the output of "times"
times_cpu() {
	sed -n 2p "$1" | awk '{
		s = 0
		for (i = 1; i <= 2; i++) {
			split($i, p, "m"); sub("s", "", p[2]); s += p[1] * 60 + p[2]
		}
		printf "%.3f", s }'
}

# The tracepoint stays in tracefs while the holder runs.
"$load" -H >/dev/null &
holder=$!
trap 'kill $holder 2>/dev/null' EXIT
for _ in $(seq 100); do
	[ -d $tracefs/events/user_events/$tp ] && break
	sleep 0.1
done
if [ ! -d $tracefs/events/user_events/$tp ]; then
	echo "$me: $tp did not appear in tracefs" >&2
	exit 1
fi

cs=/sys/devices/system/clocksource/clocksource0/current_clocksource
echo "guest: Linux $(uname -r), $ncpu CPUs, clock source $(cat $cs 2>/dev/null); $secs s per run, $threads load thread(s)${pin_rec:+; recorder on CPU 0, load on CPUs 1-$((ncpu - 1))}"
echo "ehrecord: ${rec[*]: -1}; $(perf --version 2>/dev/null)"
# What the drain thread's copy into the spool costs here (ehd__copy_span)
# against glibc's memcpy, which QEMU's TCG runs a byte at a time.
[ -x "$build/bench/copy-bench" ] && "${pin_rec[@]}" "$build/bench/copy-bench"

# ---- the producer alone ---------------------------------------------------------
alone_rate=0
if command -v perf >/dev/null; then
	perf stat -a -x, -o stat.txt -e user_events:$tp -- "${pin_load[@]}" \
		"$load" -w 30 -s 300 -d "$secs" -t "$threads" >alone.out 2>&1
	alone_rate=$(result_field alone.out rate)
	counted=$(sed -n "s/^\\([0-9]*\\),.*$tp.*/\\1/p" stat.txt)
	echo "producer alone (perf stat, counting only): $(result_field alone.out written) written, ${counted:-?} counted: ${alone_rate:-?}/s, $(result_field alone.out cpu_s) s CPU"
	alone_rate=${alone_rate:-0}
fi

# ---- one run --------------------------------------------------------------------
# run_one RECORDER RATE: a line to "results"; RATE "idle" is 1 event/s,
# "warm" the same for 0.5 s, not counted
run_one() {
	local r=$1 rate=$2 out="$work/$1-$2" cmd file lr t0 tb sub rc drc
	local pid c1 d written recorded dups lost dlost cpu stop took dtook

	case $r in
	nettrace) file=$out.nettrace
		cmd=("${rec[@]}" -q -o "$file" -e "$tp") ;;
	perf) file=$out.data
		cmd=("${rec[@]}" -q -F perf -o "$file" -e "$tp") ;;
	perf-record) file=$out.pdata
		cmd=(perf record -a -k monotonic -m 256 -e "user_events:$tp"
		     -o "$file") ;;
	esac
	local prec=("${pin_rec[@]}") pload=("${pin_load[@]}") t=$threads
	local steady=(-W "$warm")
	lr=$rate d=$secs
	[ "$rate" = max ] && lr=0
	# flood: a load thread per CPU, nothing pinned: the recorder competes
	# with the producers for the CPUs, and every recorder loses events
	[ "$rate" = flood ] && lr=0 t=$ncpu prec=() pload=()
	[ "$rate" = idle ] && lr=1 steady=()
	[ "$rate" = warm ] && lr=1 d=0.5 steady=()
	rm -f "$out".*
	# (times from bash's own clock: a fork can take tenths of a second
	# under TCG)
	stamp tb
	# A subshell whose one child is the recorder: its "times" are the
	# recorder's CPU time, all of it.
	(
		"${prec[@]}" "${cmd[@]}" >"$out.rec" 2>&1 &
		echo $! >"$out.pid"
		wait $!
		echo $? >"$out.rc"
		times >"$out.times"
	) &
	sub=$!
	while [ ! -s "$out.pid" ]; do sleep 0.01; done
	pid=$(cat "$out.pid")
	# The recorder's CPU time from the load's start to 0.2 s after its
	# end, to the ns (live-load -p reads the recorder's CPU-time clock):
	# what recording costs while it streams.
	"${pload[@]}" "$load" -w 20 -s 500 -r "$lr" -d "$d" -t "$t" \
		-p "$pid" "${steady[@]}" >"$out.load" 2>&1 ||
		echo "$me: $r $rate: live-load failed: $(head -n 3 "$out.load")" >&2
	c1=$(result_field "$out.load" rec_cpu_s)
	stamp t0
	kill -INT "$pid"
	wait $sub
	secs_since stop "$t0"
	rc=$(cat "$out.rc")
	# perf record ends by the SIGINT that stopped it
	[ "$r" = perf-record ] && [ "$rc" = 130 ] && rc=0
	if [ "$rc" != 0 ]; then
		echo "$me: $r $rate: recorder exit $rc: $(head -n 3 "$out.rec")" >&2
		status=1
		broken+=" $r"
	fi
	stamp t0
	# Each event's "count" is its own: a second one is a duplicate.
	"${dec[@]}" -F jsonl -m n "$file" 2>"$out.dec" |
		awk -F'"count":' '/"EhBench:Bench"/ {
			split($2, a, ","); if (seen[a[1]]++) d++; else u++
		} END { print u + 0, d + 0 }' >"$out.count"
	drc=${PIPESTATUS[0]}
	read -r recorded dups <"$out.count"
	if [ "$drc" != 0 ] || grep -qv 'events lost' "$out.dec"; then
		echo "$me: $r $rate: ehdecode exit $drc: $(head -n 3 "$out.dec")" >&2
		status=1
	fi
	dlost=$(sed -n 's/.* \([0-9]*\) events lost.*/\1/p' "$out.dec" | head -n 1)
	if [ "$r" = perf-record ]; then
		# perf's own count: its LOST_SAMPLES (ehdecode adds the LOST
		# records of the same losses to them)
		lost=0
		[ -n "$dlost" ] && lost=$(perf report --stats -i "$file" 2>/dev/null |
			awk '/LOST_SAMPLES events:/ && $3 > m { m = $3 } END { print m + 0 }')
	else
		lost=$(sed -n 's/.* \([0-9]*\) events lost.*/\1/p' "$out.rec" | head -n 1)
	fi
	written=$(result_field "$out.load" written)
	cpu=$(times_cpu "$out.times")
	secs_since dtook "$t0"
	secs_since took "$tb"
	# The first -F perf file of the ladder: what converting its events
	# to nettrace costs here at the least, and with the library.
	if [ "$r" = perf ] && [ ! -s floor.txt ] && [ "$rate" != warm ] &&
	   [ "$rate" != idle ] && [ "${#floor[@]}" -gt 0 ]; then
		"${prec[@]}" "${floor[@]}" "$file" >floor.txt 2>&1 ||
			echo "$me: convert-floor: $(head -n 1 floor.txt)" >&2
		sed -i "1i rung $rate, $recorded events:" floor.txt
	fi
	rm -f "$file"
	[ "$rate" = warm ] && return	# page cache filled: the runs compare
	echo "$r $rate ${written:-0} $(result_field "$out.load" rate) $recorded $dups" \
	     "${lost:-0} $cpu $c1 $stop $(result_field "$out.load" cpu_s)" \
	     "$(result_field "$out.load" rec_steady_cpu_s) $(result_field "$out.load" steady_written)" \
	     "$(result_field "$out.load" rec_steady_main_cpu_s)" >>results
	printf '  %-11s %6s: %8s written (%s/s), %8s recorded, %s dup, %s lost; CPU %s s (%s in load); %s s, stop %s s, decode %s s\n' \
	       "$r" "$rate" "${written:-?}" "$(result_field "$out.load" rate)" "$recorded" \
	       "$dups" "${lost:-0}${dlost:+ (ehdecode: $dlost)}" "$cpu" "$c1" \
	       "$took" "$stop" "$dtook"
	grep -i 'lost' "$out.rec" | head -n 2 | sed 's/^/      /'
}

# ---- the ladder ------------------------------------------------------------------
: >results
rm -f floor.txt
broken=
ladder=(warm idle)
for rate in $rates; do
	if awk -v r="$rate" -v m="$alone_rate" 'BEGIN { exit !(m > 0 && r > 0.95 * m) }'; then
		echo "rung $rate/s left out: over 95% of the producer alone (${alone_rate}/s)"
		continue
	fi
	ladder+=("$rate")
done
[ "$flat" = 1 ] && ladder+=(max flood)
for rate in "${ladder[@]}"; do
	n=$repeats
	case $rate in warm|idle) n=1 ;; esac
	for ((k = 1; k <= n; k++)); do
		run=
		[ "$n" -gt 1 ] && run=" run $k of $n"
		echo "rung $rate$run [${SECONDS} s]"
		for r in $recorders; do
			case " $broken " in
			*" $r "*) ;;	# failed before: not again
			*) run_one "$r" "$rate" ;;
			esac
		done
	done
done

# ---- tables ----------------------------------------------------------------------
. "$srcdir/bench/live-tables.sh"
exit $status
