#!/bin/bash
# SPDX-License-Identifier: MIT
#
# stop-guest.sh BUILDDIR [SANITIZED] - runs inside the test VM (see
# stop.sh): ehrecord
# stopped at random moments while its rings fill, STOP_RUNS times (default
# 12) per format, nettrace and perf.data:
#   ehrecord -F FORMAT -g -e sched:sched_switch -e EhBench_L4K1
# with bench/live-load writing EhBench_L4K1 flat out and
# tests/vm/vm-switches making context switches (each a sched_switch
# event with its stacks) all along. At a random moment (0.2 to 1.4 s
# into the load) the producer is stopped (it prints the events it wrote)
# and ehrecord gets SIGINT at once, while the switches go on. Every other
# run has rings of 64 KiB per CPU, which overflow: losses are then counted
# too. Each run:
#  - ehrecord exits 0 within 2 s of the signal (with SANITIZED 1, a build
#    under ASan+UBSan, whose conversion is several times slower, within
#    20 s: there the test checks correctness, not speed);
#  - it stops recording at once, and converts what it has after: the last
#    context switch in its file is less than 0.25 s (SANITIZED: 1 s) after
#    the signal, while vm-switches goes on switching;
#  - its file reads completely with ehdecode --strict;
#  - EhBench events decoded + those ehrecord reports lost (its per-
#    tracepoint line) = events the producer wrote: nothing else writes
#    that tracepoint, and the producer stopped before the signal, so every
#    write it counted was made while the tracepoint was recorded.
# Then STOP_NOBARRIER_RUNS more (default 2) per format, unless SANITIZED,
# with membarrier() refused (tests/vm/nobarrier-preload.c, as a seccomp
# profile would; this kernel has no seccomp): the stop then pauses instead
# (settle_writers()), the same checks hold, and ehrecord must have asked
# for the barrier and then paused. Once per format, before the runs, a
# second SIGINT 50 ms after the first: the conversion of what was
# recorded before the stop ends there, and the file is still complete
# (exit 0, --strict reads it). The stop latencies are printed (min,
# median, max per format).
# Exit status 0 only if every check passed.
set -u

build=${1:?usage: stop-guest.sh BUILDDIR [SANITIZED]}
limit=2 disable_limit=0.25
[ "${2:-0}" = 1 ] && limit=20 disable_limit=1
rec=$build/tools/ehrecord
dec=$build/tools/ehdecode
load=$build/bench/live-load
switches=$build/tests/vm/vm-switches
nobarrier=$build/tests/vm/libnobarrier.so
runs=${STOP_RUNS:-12}
nobarrier_runs=${STOP_NOBARRIER_RUNS:-2}
# (ASan wants its runtime first of the libraries: no preload there)
[ "${2:-0}" = 1 ] && nobarrier_runs=0
t=/tmp/stop
mkdir -p $t && cd $t || exit 1
TEST_TIMES=1
# shellcheck source=tests/common/test-lib.sh
. "$(dirname "$0")/../common/test-lib.sh"

echo "guest: Linux $(uname -r), $(nproc) CPUs, $runs runs per format, a stop within $limit s"

# load_start FILE: the producer, flat out until SIGINT, in the background
# ($! is its pid); back once it writes (the recorder has enabled its
# tracepoint)
load_start() {
	"$load" -r 0 -d 60 -w 20 -s 200 >"$1" 2>&1 &
	while kill -0 $! 2>/dev/null && ! grep -q '^live-load: start' "$1"; do
		nap 0.05
	done
}

# one_run FORMAT N [nobarrier]: a line "ok"/"FAIL" and the latency in
# lat.FORMAT; with "nobarrier", membarrier() refused to ehrecord
one_run() {
	local fmt=$1 n=$2 out=$t/run.$1.$2 rpid spid lpid delay written rc
	local t0 lat decoded late drc lost what ring=() env=() refused=

	rm -f "$out".*
	[ $((n % 2)) = 0 ] && ring=(--buffer-size 64)
	if [ "${3:-}" = nobarrier ]; then
		env=(env LD_PRELOAD="$nobarrier" NOBARRIER_LOG="$out.mb")
		refused=", membarrier refused"
	fi
	"${env[@]}" "$rec" -q -F "$fmt" -o "$out.trace" "${ring[@]}" -g \
		-e sched:sched_switch -e EhBench_L4K1 2>"$out.err" &
	rpid=$!
	"$switches" 0 >"$out.sw" 2>&1 &
	spid=$!
	load_start "$out.load"
	lpid=$!
	delay=$(awk -v r="$RANDOM" 'BEGIN { printf "%.2f", 0.2 + 1.2 * r / 32767 }')
	nap "$delay"
	kill -INT $lpid
	wait $lpid
	written=$(result_field "$out.load" written)
	# (timed without a fork: test-lib.sh's stamp)
	stamp t0
	kill -INT $rpid
	wait $rpid
	rc=$?
	secs_since lat "$t0"
	kill $spid 2>/dev/null
	wait $spid
	echo "$lat" >>"$t/lat.$fmt"
	what="$fmt run $n (${ring[*]:-1 MiB rings}$refused, stopped $delay s into the load, $written written)"
	if [ "$rc" != 0 ]; then
		bad "$what: ehrecord exit $rc: $(head -n 3 "$out.err")"
		return
	fi
	if [ -n "$refused" ] && ! grep -q '^membarrier refused$' "$out.mb"; then
		bad "$what: ehrecord's stop asked for no membarrier()"
		return
	fi
	if [ -n "$refused" ] &&
	   ! grep -A1 '^membarrier refused$' "$out.mb" | grep -q '^paused [1-9]'; then
		bad "$what: ehrecord's stop did not pause after membarrier() was refused"
		return
	fi
	if ! awk -v l="$lat" -v m="$limit" 'BEGIN { exit !(l < m) }'; then
		bad "$what: ehrecord took $lat s to stop"
		return
	fi
	# EhBench events, and how long after the signal the last context
	# switch was recorded (UTC times, as seconds of the day).
	"$dec" --strict -F jsonl -m n,time "$out.trace" 2>"$out.dec" |
		awk -v t0="$t0" -F'"time":"' '
		/"EhBench:Bench"/ { n++ }
		/"sched:sched_switch"/ {
			split($2, a, "T"); split(a[2], h, ":")
			s = h[1] * 3600 + h[2] * 60 + h[3]
			if (s > last) last = s
		}
		END {
			if (!last) {
				printf "%d none\n", n
				exit
			}
			d = last - (t0 / 1e6) % 86400
			if (d < -43200)
				d += 86400	# past midnight
			printf "%d %.3f\n", n, d
		}' >"$out.count"
	drc=${PIPESTATUS[0]}
	read -r decoded late <"$out.count"
	# Losses are said (events, and side-band records with small rings);
	# anything else is not expected.
	if [ "$drc" != 0 ] ||
	   grep -v -e 'events lost' -e 'side-band records were lost' "$out.dec" |
	   grep -q .; then
		bad "$what: ehdecode --strict: $(head -n 3 "$out.dec")"
		return
	fi
	lost=$(sed -n 's/^ehrecord: user_events:EhBench_L4K1: \([0-9]*\) lost.*/\1/p' \
		"$out.err")
	lost=${lost:-0}
	if [ "$((decoded + lost))" != "$written" ]; then
		bad "$what: $decoded decoded + $lost lost != $written written"
		return
	fi
	if [ "$late" = none ]; then
		bad "$what: no context switch in the file"
		return
	fi
	if ! awk -v l="$late" -v m="$disable_limit" 'BEGIN { exit !(l < m) }'; then
		bad "$what: events recorded until $late s after the signal"
		return
	fi
	ok "$what: stopped in $lat s, recording $late s after the signal; $decoded decoded + $lost lost"
	rm -f "$out.trace"
}

# twice FORMAT: SIGINT twice, 50 ms apart, under load
twice() {
	local fmt=$1 out=$t/twice.$1 rpid lpid rc

	rm -f "$out".*
	"$rec" -q -F "$fmt" -o "$out.trace" -g -e sched:sched_switch \
		-e EhBench_L4K1 2>"$out.err" &
	rpid=$!
	load_start "$out.load"
	lpid=$!
	nap 1
	kill -INT $rpid
	nap 0.05
	# (it may have ended already: that is not what is checked)
	kill -INT $rpid 2>/dev/null
	wait $rpid
	rc=$?
	kill -INT $lpid
	wait $lpid
	if [ "$rc" != 0 ]; then
		bad "$fmt: two signals: ehrecord exit $rc: $(head -n 3 "$out.err")"
	elif ! "$dec" --strict -F jsonl "$out.trace" >/dev/null 2>"$out.dec" &&
	     grep -v 'events lost' "$out.dec" | grep -q .; then
		bad "$fmt: two signals: ehdecode --strict: $(head -n 3 "$out.dec")"
	else
		ok "$fmt: two signals: a complete file$(grep -o ': [0-9.]* MiB recorded before the stop were not converted' "$out.err")"
	fi
}

for fmt in nettrace perf; do
	twice "$fmt"
	: >"$t/lat.$fmt"
	for n in $(seq "$runs"); do
		one_run "$fmt" "$n"
	done
	for n in $(seq $((runs + 1)) $((runs + nobarrier_runs))); do
		one_run "$fmt" "$n" nobarrier
	done
	sort -n "$t/lat.$fmt" | awk -v f="$fmt" '
		{ v[NR] = $1 }
		END { printf "%s: stop latency min %s s, median %s s, max %s s\n",
		      f, v[1], v[int((NR + 1) / 2)], v[NR] }'
done
finish
