#!/bin/bash
# SPDX-License-Identifier: MIT
#
# live-tables.sh - bench/run-live.sh's tables, from its results
#
#	bench/live-tables.sh DIR
#
# DIR holds "results", one line a run (as run-live.sh writes them in the
# guest):
#	recorder rate written made/s recorded dups lost cpu cpu_in_load
#	stop load_cpu steady_cpu steady_written steady_main_cpu
# and, when bench/convert-floor ran, its output in "floor.txt". Prints the
# tables run-live.sh ends with: every run, the summary of the run of
# median steady CPU per event of each recorder at each rung (written to
# DIR/results.median), nettrace against -F perf, ehrecord against perf
# record, and the events captured. run-live.sh sources this file; run
# alone (tests/tools/bench-tables.sh), it takes what the runs were from
# the environment: LIVE_SECONDS (default 3), LIVE_WARM (half of it),
# LIVE_THREADS (1), LIVE_RECORDERS ("nettrace perf perf-record"),
# LIVE_REPEATS (1) and LIVE_ALONE_RATE (the producer alone, events/s; 0).
#
# Exit status (alone): 0, or 1 when DIR has no results.

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -u -o pipefail
	cd "${1:?usage: live-tables.sh DIR}" || exit 1
	[ -s results ] || { echo "live-tables: no results in $1" >&2; exit 1; }
	secs=${LIVE_SECONDS:-3}
	warm=${LIVE_WARM:-$(awk -v s="$secs" 'BEGIN { print s / 2 }')}
	threads=${LIVE_THREADS:-1}
	recorders=${LIVE_RECORDERS:-nettrace perf perf-record}
	repeats=${LIVE_REPEATS:-1}
	alone_rate=${LIVE_ALONE_RATE:-0}
fi

# Of each recorder's runs at a rung, the one of median steady CPU per
# event (CPU per event streamed where there is no steady part), for the
# tables after the first; in the order the rungs came.
awk '
	{
		k = $1 " " $2
		if (!(k in n))
			key[++m] = k
		row[k, ++n[k]] = $0
		v[k, n[k]] = $13 > 0 ? $12 / $13 : $5 > 0 ? $9 / $5 : 0
	}
	END {
		for (a = 1; a <= m; a++) {
			k = key[a]
			for (i = 1; i <= n[k]; i++)
				o[i] = i
			for (i = 2; i <= n[k]; i++)
				for (j = i; j > 1 && v[k, o[j]] < v[k, o[j - 1]]; j--) {
					t = o[j]; o[j] = o[j - 1]; o[j - 1] = t
				}
			print row[k, o[int((n[k] + 1) / 2)]]
		}
	}' results >results.median

# ---- tables ----------------------------------------------------------------------
# results: recorder rate written made/s recorded dups lost cpu cpu_in_load
# stop load_cpu steady_cpu steady_written steady_main_cpu
echo
echo "== runs: $secs s of load each"
awk -v secs="$secs" '
	$2 == "idle" { idle[$1] = $8 }
	{ rows[++n] = $0 }
	END {
		printf "%-11s %6s %7s %8s %8s %3s %7s %7s %6s %6s %5s %6s %6s %6s %5s %5s %s\n",
		       "recorder", "target", "made/s", "written", "recorded",
		       "dup", "lost", "missing", "CPU s", "load s", "busy",
		       "stream", "steady", "whole", "stop", "prod", "verdict"
		for (i = 1; i <= n; i++) {
			split(rows[i], f, " ")
			miss = f[3] - f[5]
			if (miss < 0)
				v = "EXTRA"
			else if (miss > 0 || f[7] > 0)
				v = "LOSS"
			else if (f[2] != "max" && f[2] != "flood" && f[2] != "idle" &&
				 f[4] < 0.95 * f[2])
				v = "ok (producer slow)"
			else
				v = "ok"
			busy = f[9] * 100 / (secs + 0.2)
			if (f[2] == "idle") {
				printf "%-11s %6s %7d %8d %8d %3d %7d %7d %6.2f %6.2f %4.0f%% %6s %6s %6s %5.2f %5s %s\n",
				       f[1], f[2], f[4], f[3], f[5], f[6], f[7],
				       miss, f[8], f[9], busy, "-", "-", "-", f[10],
				       "-", v
				continue
			}
			stream = f[5] ? f[9] * 1e6 / f[5] : 0
			steady = f[13] > 0 ? f[12] * 1e6 / f[13] : 0
			whole = f[5] ? (f[8] - idle[f[1]]) * 1e6 / f[5] : 0
			load = f[3] ? f[11] * 1e6 / f[3] : 0
			printf "%-11s %6s %7d %8d %8d %3d %7d %7d %6.2f %6.2f %4.0f%% %6.2f %6.2f %6.2f %5.2f %5.2f %s\n",
			       f[1], f[2], f[4], f[3], f[5], f[6], f[7], miss,
			       f[8], f[9], busy, stream, steady, whole, f[10],
			       load, v
		}
	}' results
cat <<ENDOFNOTE
made/s: the rate live-load achieved; missing: written but not in the file;
dup: in the file twice (not counted in "recorded"); CPU s: recorder user+
system time, whole process; load s: the part from the load's start to the
stop signal ($secs s + 0.2 s), busy: that over the time; stream: load s per
event recorded (us); steady: the same from $warm s into the load, per event
written from then (us); whole: CPU s less the idle run's, per event (us: with
what the recorder does at the end); stop: seconds from SIGINT to exit;
prod: live-load's own CPU per event written (us)
ENDOFNOTE

if [ -s floor.txt ]; then
	echo
	echo "== converting a -F perf file to nettrace (bench/convert-floor, CPU per event)"
	cat floor.txt
	echo "touch: each record copied once; floor: the least conversion (no"
	echo "ordering, tables or blocks); general: every event made an ehd_event;"
	echo "library: what ehrecord runs (ehd_reader_pass()); read: the file's"
	echo "read() alone, which general and library pay and a live converter not"
fi

# convert-floor's floor, library and read, ns per event (empty without it)
floor_ns=$(awk '$1 == "floor" { print $2 }' floor.txt 2>/dev/null)
lib_ns=$(awk '$1 == "library" { print $2 }' floor.txt 2>/dev/null)
read_ns=$(awk '$1 == "read" { print $2 }' floor.txt 2>/dev/null)

echo
echo "== summary: 1 MiB ring per CPU, $secs s runs, $threads load thread(s)"
[ "$repeats" -gt 1 ] &&
	echo "   (here and below: of each recorder's $repeats runs at a rung, the one of median steady CPU per event;" &&
	echo "   a rung passed only if every run there lost nothing; flat out, the median rate made and the most missed)"
awk -v order="$recorders" -v secs="$secs" -v floor="$floor_ns" -v rd="$read_ns" \
    -v lib="$lib_ns" '
	# Every run: one that lost is not made up for by the others (a rung
	# is passed only if none lost); flat out, a run whose producer was
	# slow is not the rate made.
	FNR == NR {
		if ($2 != "idle" && !($3 == $5 && $7 == 0))
			runfail[$1, $2] = 1
		if ($2 != "max")
			next
		r = $1
		made[r, ++nmade[r]] = $4
		if (!(r in maxmiss) || $3 - $5 > maxmiss[r])
			maxmiss[r] = $3 - $5
		next
	}
	$2 == "idle" { idle[$1] = $8; next }
	{
		r = $1
		ok = !((r, $2) in runfail)	# (this run among them)
		stream = $5 ? $9 * 1e6 / $5 : 0
		busy = $9 * 100 / (secs + 0.2)
		if ($2 == "flood")
			next
		if ($2 == "max") {
			maxbusy[r] = busy
			next
		}
		st[r, $2] = stream
		sd[r, $2] = $13 > 0 ? $12 * 1e6 / $13 : 0
		# the part of it on the main thread (-1: not measured)
		sm[r, $2] = $13 > 0 && $14 >= 0 ? $14 * 1e6 / $13 : -1
		wh[r, $2] = $5 ? ($8 - idle[r]) * 1e6 / $5 : 0
		cl[r, $2] = $9
		cw[r, $2] = $8 - idle[r]
		ev[r, $2] = $5
		good[r, $2] = ok
		if (!(($2 + 0) in seenrate)) {
			seenrate[$2 + 0] = 1
			list[++m] = $2 + 0
		}
		if (!ok && !(r in firstloss))
			firstloss[r] = $2
		if (ok && !(r in firstloss) && $4 >= 0.95 * $2) {
			best[r] = $2; beststream[r] = stream; bestbusy[r] = busy
		}
	}
	END {
		nr = split(order, rec, " ")
		for (i = 1; i <= nr; i++) {
			r = rec[i]
			if (!nmade[r])
				continue
			for (a = 1; a <= nmade[r]; a++)
				for (b = a + 1; b <= nmade[r]; b++)
					if (made[r, b] < made[r, a]) {
						t = made[r, a]; made[r, a] = made[r, b]
						made[r, b] = t
					}
			maxrate[r] = made[r, int((nmade[r] + 1) / 2)]
			maxok[r] = !((r, "max") in runfail)
		}
		for (a = 1; a <= m; a++)
			for (b = a + 1; b <= m; b++)
				if (list[b] < list[a]) {
					t = list[a]; list[a] = list[b]; list[b] = t
				}
		# pooled over the rungs that every recorder passed
		for (a = 1; a <= m; a++) {
			all = 1
			for (i = 1; i <= nr; i++)
				if (!good[rec[i], list[a]])
					all = 0
			if (!all)
				continue
			npool++
			for (i = 1; i <= nr; i++) {
				r = rec[i]
				pl[r] += cl[r, list[a]]
				pw[r] += cw[r, list[a]]
				pe[r] += ev[r, list[a]]
			}
		}
		printf "%-11s %13s %6s %5s %8s %10s %8s %5s %7s %7s\n", "recorder",
		       "no loss up to", "stream", "busy", "loss at", "max made/s",
		       "max miss", "busy", "pooled", "(whole)"
		for (i = 1; i <= nr; i++) {
			r = rec[i]
			z = r in best ? best[r] : "-"
			if (maxok[r] && !(r in firstloss))
				z = ">=" int(maxrate[r])
			printf "%-11s %13s %6.2f %4.0f%% %8s %10d %8d %4.0f%% %7.2f %7.2f\n",
			       r, z, beststream[r], bestbusy[r],
			       r in firstloss ? firstloss[r] : "-", maxrate[r],
			       maxmiss[r], maxbusy[r],
			       pe[r] ? pl[r] * 1e6 / pe[r] : 0,
			       pe[r] ? pw[r] * 1e6 / pe[r] : 0
		}
		printf "no loss up to: the highest rung passed with every rung below it, at 95%%\n"
		printf "of its rate or more, with the recorder CPU per event (us) and busy there;\n"
		printf "loss at: the first rung with an event missing; max: flat out; pooled:\n"
		printf "CPU per event while streaming (and whole, less the idle run) over the\n"
		printf "%d rungs that all recorders passed\n", npool
		if ((("nettrace", list[1]) in st) && (("perf", list[1]) in st)) {
			printf "\nnettrace / -F perf, CPU per event, same run (stream, steady); nettrace\n"
			printf "steady by thread, and what converting may cost at 1.2x (us):\n"
			printf "%-8s %8s %8s %9s %8s %8s\n", "rung", "stream", "steady",
			       "converter", "others", "budget"
			for (a = 1; a <= m; a++) {
				k = list[a]
				x = st["nettrace", k]; y = st["perf", k]
				v1 = x > 0 && y > 0 ? sprintf("%.2fx", x / y) : "-"
				x = sd["nettrace", k]; y = sd["perf", k]
				v3 = x > 0 && y > 0 ? sprintf("%.2fx", x / y) : "-"
				c = sm["nettrace", k]
				v4 = v5 = v6 = "-"
				if (c >= 0 && x > 0) {
					v4 = sprintf("%.2f", c)
					v5 = sprintf("%.2f", x - c)
					if (y > 0)
						v6 = sprintf("%.2f", 1.2 * y - (x - c))
				}
				printf "%-8s %8s %8s %9s %8s %8s\n", k, v1, v3, v4, v5, v6
			}
			printf "converter: nettrace main thread; others: its other threads;\n"
			printf "budget: 1.2 x -F perf steady less others, what the converter may\n"
			printf "cost for nettrace to stay within 1.2x"
			if (floor != "" && lib != "")
				printf ";\nconverting a file costs %.2f us here (convert-floor library, its\nreading included%s), the least conversion %.2f us (floor)", lib / 1000, rd == "" ? "" : sprintf(": %.2f", rd / 1000), floor / 1000
			printf "\n"
		}
		if (!("perf-record" in maxrate) || nr < 2)
			exit
		printf "\nrecorder CPU per event, ehrecord / perf record, same run (stream, steady, whole):\n"
		printf "%-8s", "rung"
		for (i = 1; i <= nr; i++)
			if (rec[i] != "perf-record")
				printf " %28s", "ehrecord " rec[i]
		printf "\n"
		list[++m] = "pooled"
		for (a = 1; a <= m; a++) {
			k = list[a]
			printf "%-8s", k
			for (i = 1; i <= nr; i++) {
				r = rec[i]
				if (r == "perf-record")
					continue
				if (k == "pooled") {
					x = pl[r]; y = pl["perf-record"]
					v1 = x > 0 && y > 0 ? (x / pe[r]) / (y / pe["perf-record"]) : 0
					x = pw[r]; y = pw["perf-record"]
					v2 = x > 0 && y > 0 ? (x / pe[r]) / (y / pe["perf-record"]) : 0
					v3 = "-"
				} else {
					x = st[r, k]; y = st["perf-record", k]
					v1 = x > 0 && y > 0 ? x / y : 0
					x = wh[r, k]; y = wh["perf-record", k]
					v2 = x > 0 && y > 0 ? x / y : 0
					x = sd[r, k]; y = sd["perf-record", k]
					v3 = x > 0 && y > 0 ? sprintf("%.2fx", x / y) : "-"
				}
				printf "   %7.2fx %8s %7.2fx", v1, v3, v2
			}
			printf "\n"
		}
	}' results results.median
echo
echo "== events captured (recorded / written), every rung; flood: a load thread"
echo "   per CPU and nothing pinned, where every recorder loses"
awk -v order="$recorders" '
	# Every run: those that missed events, and the least captured.
	FNR == NR {
		if ($2 == "idle")
			next
		runs[$1, $2]++
		c = $3 ? $5 * 100 / $3 : 0
		if ($3 != $5 || $7 > 0) {
			lossy[$1, $2]++
			if (!(($1, $2) in worst) || c < worst[$1, $2]) {
				worst[$1, $2] = c
				wn[$1, $2] = $5
				ww[$1, $2] = $3
			}
		}
		next
	}
	$2 != "idle" {
		if (!($2 in seen)) { seen[$2] = 1; rung[++m] = $2 }
		cap[$1, $2] = $3 ? $5 * 100 / $3 : 0
		n[$1, $2] = $5
		w[$1, $2] = $3
	}
	END {
		nr = split(order, rec, " ")
		printf "%-8s", "rung"
		for (i = 1; i <= nr; i++)
			printf " %24s", rec[i]
		printf "\n"
		for (a = 1; a <= m; a++) {
			printf "%-8s", rung[a]
			for (i = 1; i <= nr; i++)
				printf " %8d/%-8d %5.1f%%", n[rec[i], rung[a]],
				       w[rec[i], rung[a]], cap[rec[i], rung[a]]
			printf "\n"
		}
		# (the table shows one run a rung: the others that missed)
		for (a = 1; a <= m; a++)
			for (i = 1; i <= nr; i++) {
				k = rec[i] SUBSEP rung[a]
				if (!(k in lossy))
					continue
				printf "%s at %s: %d of %d runs missed events, at worst %d/%d (%.2f%%)\n",
				       rec[i], rung[a], lossy[k], runs[k], wn[k],
				       ww[k], worst[k]
			}
	}' results results.median
echo "(producer alone: ${alone_rate}/s. VM numbers are QEMU's: compare within a run)"
