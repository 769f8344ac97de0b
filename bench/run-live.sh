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
# tracepoint EhBench_L4K1) at each rate of a ladder for LIVE_SECONDS
# seconds, evenly (what is due every 1 ms), while one recorder records
# every CPU:
#
#   nettrace     ehrecord -e EhBench_L4K1 (decodes each event, nettrace v6)
#   perf         ehrecord -F perf -e EhBench_L4K1 (copies the records)
#   perf-record  perf record -a -k monotonic -m 256 -e user_events:EhBench_L4K1
#
# All with a 1 MiB ring per CPU (ehrecord's default; -m 256 pages of 4 KiB
# for perf, whose own default is 512 KiB for root), started before the
# load and stopped with SIGINT after it. A holder process (live-load -H)
# keeps the tracepoint registered, as perf record needs it to exist. The
# rungs run the recorders one after the other, so their numbers are from
# the same minute; the last rung ("max") writes as fast as the producer
# can. Before the ladder, the producer alone: flat out under perf stat (a
# counting event: enabled, no ring), its own limit here.
#
# For each run: events written (live-load's count of writes the kernel
# took), events in the file (ehdecode -F jsonl, for all three files),
# events lost (the kernel's LOST records as ehdecode and ehrecord count
# them; nettrace: ehrecord's count), "missing" = written - recorded - lost
# (should be 0), and the recorder's CPU time (user+system, all of the
# process from start to exit, by the shell's "times"). CPU per event is
# that over the events recorded; "marginal" first takes off the CPU of an
# idle run (same steps, 1 event/s), i.e. start-up, polling and shut-down.
# A rung is sustained when nothing is lost or missing and live-load made
# at least 95% of the rate.
#
# Environment:
#   EH_TEST_KERNEL     bzImage with CONFIG_USER_EVENTS (default:
#                      ../shared/vm/bzImage beside the source tree)
#   EH_SHARED_DIR      the shared folder (default: ../shared beside the source)
#   LIVE_RATES         the ladder in events/s (default "20000 50000 100000
#                      200000 400000 800000"); rungs over 95% of what the
#                      producer makes alone are left out; "max" always runs
#   LIVE_SECONDS       seconds of load per run (default 3)
#   LIVE_THREADS       live-load threads (default 1: the guest has 2 CPUs,
#                      one for the producer and one for the recorder)
#   LIVE_RECORDERS     a subset of "nettrace perf perf-record"
#   LIVE_VM_CPUS       guest CPUs (default 2)
#   LIVE_VM_TIMEOUT    limit for the VM run in seconds (default 900)
#
# The VM runs under QEMU (TCG unless hardware KVM is there): absolute
# rates and times are QEMU's; compare the recorders within one run.
#
# Exit status: 0; 1 if a run failed (a recorder or ehdecode error, not a
# loss); 77 with no VM kernel, no QEMU, or no user_events in the guest.
set -u -o pipefail

me=run-live
srcdir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
tracefs=/sys/kernel/tracing
tp=EhBench_L4K1
rates=${LIVE_RATES:-20000 50000 100000 200000 400000 800000}
secs=${LIVE_SECONDS:-3}
threads=${LIVE_THREADS:-1}
recorders=${LIVE_RECORDERS:-nettrace perf perf-record}

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
	if [ ! -f "$kernel" ]; then
		echo "SKIP: $me: no test kernel ($kernel): set EH_TEST_KERNEL to a bzImage with CONFIG_USER_EVENTS"
		exit 77
	elif [ ! -x "$runner" ]; then
		echo "SKIP: $me: no VM runner (tests/vm/run-in-vm.sh)"
		exit 77
	elif ! command -v qemu-system-x86_64 >/dev/null; then
		echo "SKIP: $me: qemu-system-x86_64 not installed"
		exit 77
	fi
	trees=()
	case $build in /tmp/*) trees+=(-r "$build") ;; esac
	case $srcdir in /tmp/*) trees+=(-r "$srcdir") ;; esac
	echo "== live recording in the VM (runner $runner, kernel $kernel)"
	started=$SECONDS
	/bin/bash "$runner" -k "$kernel" "${trees[@]}" -c "${LIVE_VM_CPUS:-2}" \
		-t "${LIVE_VM_TIMEOUT:-900}" -e LIVE_RATES="$rates" \
		-e LIVE_SECONDS="$secs" -e LIVE_THREADS="$threads" \
		-e LIVE_RECORDERS="$recorders" -- \
		/bin/bash "$srcdir/bench/run-live.sh" --guest "$build"
	rc=$?
	echo "$me: VM run took $((SECONDS - started)) s, exit status $rc"
	exit $rc
fi

# ---- guest ---------------------------------------------------------------------
build=${2:?usage: run-live.sh --guest BUILDDIR}
load=$build/bench/live-load
dec=$build/tools/ehdecode
rec=("$build/tools/ehrecord")
work=/tmp/live-bench
status=0

if [ ! -w $tracefs/user_events_data ]; then
	echo "SKIP: $me: no writable $tracefs/user_events_data (CONFIG_USER_EVENTS, root)"
	exit 77
fi
# The recorder as itself, not behind libtool's wrapper script (whose shell
# would be in its CPU time).
if head -c 2 "${rec[0]}" | grep -q '^#!' && [ -x "$build/libtool" ]; then
	# shellcheck disable=SC2016 # expanded by that shell
	lt=$("$build/libtool" --mode=execute /bin/sh -c \
		'printf "%s\n%s" "$0" "${LD_LIBRARY_PATH-}"' "${rec[0]}") &&
		rec=(env "LD_LIBRARY_PATH=${lt#*$'\n'}" "${lt%%$'\n'*}")
fi
if ! command -v perf >/dev/null; then
	echo "$me: no perf in the guest: perf-record left out"
	recorders=${recorders//perf-record/}
fi
mkdir -p $work && cd $work || exit 1

# get FILE KEY: the value of KEY=... on the file's "result" line
get() {
	sed -n "s/^result .*\\b$2=\\([^ ]*\\).*/\\1/p" "$1" 2>/dev/null | tail -n 1
}

# CPU seconds (user + system of children) from the output of "times"
times_cpu() {
	sed -n 2p "$1" | awk '{
		s = 0
		for (i = 1; i <= 2; i++) {
			split($i, p, "m"); sub("s", "", p[2]); s += p[1] * 60 + p[2]
		}
		printf "%.3f", s }'
}

now() { date +%s.%N; }

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

echo "guest: $(uname -r), $(nproc) CPUs; $secs s per run, $threads load thread(s)"
echo "recorders: ${rec[*]##*/}; $(perf --version 2>/dev/null)"

# ---- the producer alone ---------------------------------------------------------
alone_rate=0
if command -v perf >/dev/null; then
	perf stat -a -x, -o stat.txt -e user_events:$tp -- \
		"$load" -w 30 -s 300 -d "$secs" -t "$threads" >alone.out 2>&1
	alone_rate=$(get alone.out rate)
	counted=$(sed -n "s/^\\([0-9]*\\),.*$tp.*/\\1/p" stat.txt)
	echo "producer alone (perf stat counting): $(get alone.out written) written, ${counted:-?} counted, ${alone_rate:-?}/s, $(get alone.out cpu_s) s CPU"
	alone_rate=${alone_rate:-0}
fi

# ---- one run --------------------------------------------------------------------
# run_one RECORDER RATE: one line to results (RATE "idle" is 1 event/s)
run_one() {
	local r=$1 rate=$2 out="$work/$1-$2" cmd file lr t0 t1 pid sub
	local written achieved recorded lost dlost rlost cpu rc tb td

	case $r in
	nettrace) file=$out.nettrace
		cmd=("${rec[@]}" -q -o "$file" -e $tp) ;;
	perf) file=$out.data
		cmd=("${rec[@]}" -q -F perf -o "$file" -e $tp) ;;
	perf-record) file=$out.pdata
		cmd=(perf record -a -k monotonic -m 256 -e user_events:$tp
		     -o "$file") ;;
	esac
	lr=$rate
	[ "$rate" = max ] && lr=0
	[ "$rate" = idle ] && lr=1
	rm -f "$out".*
	# A subshell whose one child is the recorder: its "times" are the
	# recorder's CPU time, whole.
	(
		"${cmd[@]}" >"$out.rec" 2>&1 &
		echo $! >"$out.pid"
		wait $!
		echo $? >"$out.rc"
		times >"$out.times"
	) &
	sub=$!
	tb=$(now)
	"$load" -w 60 -s 500 -r "$lr" -d "$secs" -t "$threads" >"$out.load" 2>&1 ||
		echo "$me: $r $rate: live-load failed: $(head -n 3 "$out.load")" >&2
	sleep 0.2
	pid=$(cat "$out.pid")
	t0=$(now)
	kill -INT "$pid"
	wait $sub
	t1=$(now)
	rc=$(cat "$out.rc")
	# perf record ends with the SIGINT it was stopped with
	[ "$r" = perf-record ] && [ "$rc" = 130 ] && rc=0
	if [ "$rc" != 0 ]; then
		echo "$me: $r $rate: recorder exit $rc: $(head -n 3 "$out.rec")" >&2
		status=1
	fi
	recorded=$("$dec" -F jsonl -m n "$file" 2>"$out.dec" |
		   grep -c '"EhBench:Bench"')
	if grep -qv 'events lost' "$out.dec"; then
		echo "$me: $r $rate: ehdecode: $(head -n 3 "$out.dec")" >&2
		status=1
	fi
	dlost=$(sed -n 's/.* \([0-9]*\) events lost.*/\1/p' "$out.dec" | head -n 1)
	rlost=$(sed -n 's/.* \([0-9]*\) events lost.*/\1/p' "$out.rec" | head -n 1)
	lost=${dlost:-0}
	[ "${rlost:-0}" -gt "$lost" ] && lost=$rlost
	td=$(now)
	written=$(get "$out.load" written)
	achieved=$(get "$out.load" rate)
	cpu=$(times_cpu "$out.times")
	echo "$r $rate ${written:-0} ${achieved:-0} $recorded $lost $cpu" \
	     "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')" \
	     "$(get "$out.load" cpu_s)" >>results
	printf '  %-12s %7s: %9s written (%s/s), %9s recorded, %7s lost, recorder %6s s CPU [%s s, decoding %s s]\n' \
	       "$r" "$rate" "${written:-?}" "${achieved:-?}" "$recorded" "$lost" "$cpu" \
	       "$(awk -v a="$tb" -v b="$td" 'BEGIN { printf "%.1f", b - a }')" \
	       "$(awk -v a="$t1" -v b="$td" 'BEGIN { printf "%.1f", b - a }')"
	# perf's own word on losses, if any
	grep -i 'lost' "$out.rec" | head -n 2 | sed 's/^/                 /'
	rm -f "$file"
}

# ---- the ladder ------------------------------------------------------------------
: >results
ladder=(idle)
for rate in $rates; do
	if awk -v r="$rate" -v m="$alone_rate" 'BEGIN { exit !(m > 0 && r > 0.95 * m) }'; then
		echo "rung $rate/s left out: over 95% of the producer alone (${alone_rate}/s)"
		continue
	fi
	ladder+=("$rate")
done
ladder+=(max)
for rate in "${ladder[@]}"; do
	echo "rung $rate [${SECONDS}s]"
	for r in $recorders; do
		run_one "$r" "$rate"
	done
done

# ---- tables ----------------------------------------------------------------------
echo
echo "== runs ($secs s each; CPU = recorder user+system, whole process)"
awk -v secs="$secs" '
	{ r = $1; rate = $2 }
	rate == "idle" { idle[r] = $7 }
	{ rows[++n] = $0 }
	END {
		printf "%-12s %7s %9s %9s %9s %7s %7s %8s %8s %8s %6s %7s\n",
		       "recorder", "target", "written/s", "written", "recorded",
		       "lost", "missing", "CPU s", "us/event", "marginal",
		       "stop s", "verdict"
		for (i = 1; i <= n; i++) {
			split(rows[i], f, " ")
			miss = f[3] - f[5] - f[6]
			ok = f[6] == 0 && miss == 0
			if (f[2] != "max" && f[2] != "idle" && f[4] < 0.95 * f[2])
				v = ok ? "slow-producer" : "LOSS"
			else
				v = ok ? "ok" : "LOSS"
			per = f[5] ? f[7] * 1e6 / f[5] : 0
			marg = f[5] > 100 ? (f[7] - idle[f[1]]) * 1e6 / f[5] : 0
			printf "%-12s %7s %9d %9d %9d %7d %7d %8.3f %8.2f %8.2f %6s %7s\n",
			       f[1], f[2], f[4], f[3], f[5], f[6], miss, f[7],
			       per, marg, f[8], v
		}
	}' results | tee table

echo
echo "== summary: highest sustained rate with no loss (1 MiB ring per CPU)"
awk -v order="$recorders" '
	{ rows[++n] = $0 }
	$2 == "idle" { idle[$1] = $7 }
	END {
		nr = split(order, rec, " ")
		for (i = 1; i <= n; i++) {
			split(rows[i], f, " ")
			r = f[1]
			if (f[2] == "idle")
				continue
			ok = f[6] == 0 && f[3] - f[5] - f[6] == 0
			if (f[2] == "max") {
				maxrate[r] = f[4]; maxok[r] = ok
				maxcpu[r] = f[5] ? (f[7] - idle[r]) * 1e6 / f[5] : 0
				maxlost[r] = f[6]
				continue
			}
			if (!ok)
				failed[r] = 1
			if (ok && !failed[r] && f[4] >= 0.95 * f[2]) {
				best[r] = f[2]
				bestcpu[r] = (f[7] - idle[r]) * 1e6 / f[5]
			}
			key = r SUBSEP f[2]
			cpu[key] = f[5] ? (f[7] - idle[r]) * 1e6 / f[5] : 0
			rates[f[2]] = 1
		}
		printf "%-12s %14s %16s %12s %14s %12s\n", "recorder",
		       "zero-loss to", "marginal us/ev", "max: made/s",
		       "max: lost", "us/ev at max"
		for (i = 1; i <= nr; i++) {
			r = rec[i]
			z = r in best ? best[r] : "none"
			if (maxok[r])
				z = ">=" int(maxrate[r])
			printf "%-12s %14s %16.2f %12d %14d %12.2f\n", r, z,
			       bestcpu[r], maxrate[r], maxlost[r], maxcpu[r]
		}
		if (!("perf-record" in maxrate))
			exit
		printf "\nratios to perf record, marginal CPU per event, by rung:\n"
		printf "%-10s", "rung"
		for (i = 1; i <= nr; i++)
			if (rec[i] != "perf-record")
				printf " %12s", rec[i]
		printf "\n"
		m = 0
		for (k in rates)
			list[++m] = k + 0
		for (a = 1; a <= m; a++)
			for (b = a + 1; b <= m; b++)
				if (list[b] < list[a]) {
					t = list[a]; list[a] = list[b]; list[b] = t
				}
		list[++m] = "max"
		for (a = 1; a <= m; a++) {
			printf "%-10s", list[a]
			if (list[a] == "max")
				base = maxcpu["perf-record"]
			else
				base = cpu["perf-record" SUBSEP list[a]]
			for (i = 1; i <= nr; i++) {
				r = rec[i]
				if (r == "perf-record")
					continue
				if (list[a] == "max")
					v = maxcpu[r]
				else
					v = cpu[r SUBSEP list[a]]
				if (base > 0)
					printf " %11.2fx", v / base
				else
					printf " %12s", "-"
			}
			printf "\n"
		}
	}' results
echo "(producer alone: ${alone_rate}/s; VM numbers are QEMU's: compare within the run)"
exit $status
