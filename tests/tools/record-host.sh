#!/bin/bash
# SPDX-License-Identifier: MIT
#
# record-host.sh - ehrecord aimed and bounded, on this machine's own kernel
# with classic tracepoints (user_events: tests/vm/record.sh):
#  - the command lines of -p, --children, -C and --max-size (exit 2 for a
#    bad value, 1 for a process or CPU that does not exist);
#  - -p PID: two busy shells, sched:sched_switch recorded for one: every
#    event is its own, none of its children's (sleep), none of the other;
#    --children adds its children; -p command aims at COMMAND alone;
#  - -p with --off-cpu into nettrace: cswitch events of that process (its
#    coming back is seen without recording other processes' switches)
#    and process, mapping and symbol events of it alone; with
#    --cpu-sampling, samples of it alone;
#  - -p without a command stops when the process exits;
#  - -C: every event on the CPUs given;
#  - the end line counts the events the file holds, both formats; in a
#    perf.data with --cpu-sampling, its CPU samples apart;
#  - on a terminal, the status line counts events as they are recorded,
#    both formats;
#  - --max-size 200K, both formats, and a --circular perf.data: a
#    complete file of at most 200 KiB (ehdecode --strict reads it, so
#    does perf script), said on stderr, its end line counting the events
#    it holds (both formats, and the flight recorder's);
#  - no room for the file (a file size limit; a full tmpfs where one can
#    be mounted), both formats, and ehdecode -e to nettrace: exit 1, the
#    file ended complete with the events that fit (perf script reads the
#    perf.data), kept, the one before as .old; for nettrace, their number
#    said; also with --circular (the snapshot at the end does not fit);
#    with --switch-output, on the full tmpfs, every file complete;
#  - --switch-output: by time around a command that execs /bin/true 200
#    times, files that each read on their own (--strict, perf script)
#    and whose exec events add up to 200; by size, every file within it;
#    --max-files 2 keeps the newest two; a system trace (--cpu-sampling
#    of examples/spin) cut in files names spin, its mapping and its
#    functions in a later file too;
#  - -o - | ehdecode -: a trickle of events (one exec) comes out of
#    ehdecode while ehrecord still records, both formats;
#  - SIGINT while the session starts (strace holds ehrecord's first
#    perf_event_open() for 3 s), and SIGTERM as the output file is made
#    (its fchmod() held), for ehrecord and for ehdecode -e -o FILE: exit
#    0, a complete file, no partial file, and the COMMAND never exec'd;
#    SIGHUP: exit 129, no partial file, the old file as it was.
# Needs root and a tracefs with the sched events; skips (77) otherwise,
# except with CI=true, where that is a failure.
set -u
bin=${EH_BUILDDIR:-.}
rec=$bin/tools/ehrecord
dec=$bin/tools/ehdecode
tmp=$(mktemp -d "${TMPDIR:-/tmp}/record-host.XXXXXX")
busy=()
cleanup() {
	[ ${#busy[@]} = 0 ] || kill "${busy[@]}" 2>/dev/null
	umount "$tmp/full" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
# shellcheck source=tests/common/test-lib.sh
. "$(dirname "$0")/../common/test-lib.sh"

cli "ehrecord -p x" 2 "$rec" -p x -e a:b
cli "ehrecord -p 1,,2" 2 "$rec" -p 1,,2 -e a:b
cli "ehrecord -p 0" 2 "$rec" -p 0 -e a:b
cli "ehrecord -p command without COMMAND" 2 "$rec" -p command -e a:b
cli "ehrecord --children without -p" 2 "$rec" --children -e a:b -- true
cli "ehrecord -C 2-1" 2 "$rec" -C 2-1 -e a:b
cli "ehrecord -C a" 2 "$rec" -C a -e a:b
cli "ehrecord -C 0," 2 "$rec" -C 0, -e a:b
cli "ehrecord --max-size 1K" 2 "$rec" --max-size 1K -e a:b
cli "ehrecord --max-size 1X" 2 "$rec" --max-size 1X -e a:b
cli "ehdecode -p without -e" 2 "$dec" -p 1 x
cli "ehrecord --switch-output 1K" 2 "$rec" --switch-output 1K -e a:b
cli "ehrecord --switch-output 5x" 2 "$rec" --switch-output 5x -e a:b
cli "ehrecord --switch-output 0" 2 "$rec" --switch-output 0 -e a:b
cli "ehrecord --switch-output -o -" 2 "$rec" --switch-output 1 -o - -e a:b
cli "ehrecord --switch-output --max-size" 2 "$rec" --switch-output 1 \
	--max-size 1M -e a:b
cli "ehrecord --max-files without --switch-output" 2 "$rec" --max-files 2 \
	-e a:b
cli "ehrecord --max-files 0" 2 "$rec" --switch-output 1 --max-files 0 -e a:b

[ "$(id -u)" = 0 ] || skip "needs root (perf_event_open on tracepoints of every CPU)"
t=/sys/kernel/tracing
[ -d $t/events ] || mount -t tracefs nodev $t 2>/dev/null ||
	skip "no tracefs, and it cannot be mounted at $t"
[ -r $t/events/sched/sched_switch/id ] ||
	skip "this kernel has no sched:sched_switch tracepoint"

cli "ehrecord -p (no such process)" 1 "$rec" -o "$tmp/x" -p 2147483646 \
	-e sched:sched_switch
grep -q "no process 2147483646" "$tmp/err" || bad "no process: $(cat "$tmp/err")"
cli "ehrecord -C 4095" 1 "$rec" -o "$tmp/x" -C 4095 -e sched:sched_switch
grep -q "no CPU 4095" "$tmp/err" || bad "no CPU: $(cat "$tmp/err")"

# pids FILE: "pid count" of the events in a JSON-lines decoding, by pid.
pids() {
	python3 -c '
import collections, json, sys
c = collections.Counter()
for line in open(sys.argv[1]):
	e = json.loads(line)
	c[e["meta"]["pid"]] += 1
for p, n in sorted(c.items()):
	print(p, n)' "$1"
}

# Two shells that keep switching (each starts a sleep every 10 ms).
for i in 1 2; do
	(while :; do sleep 0.01; done) &
	busy+=($!)
done
a=${busy[0]} b=${busy[1]}
sleep 0.3

# -p: only its own switches; --children: its sleeps' too.
for how in alone children; do
	opt=()
	[ $how = children ] && opt=(--children)
	"$rec" -q -F perf -o "$tmp/p.data" -p "$a" "${opt[@]}" --duration 1 \
		-e sched:sched_switch 2>"$tmp/err" ||
		{ bad "-p $how: exit $?: $(head -n 2 "$tmp/err")"; continue; }
	"$dec" --strict -F jsonl "$tmp/p.data" >"$tmp/p.jsonl" 2>"$tmp/err" ||
		bad "-p $how: ehdecode: $(head -n 2 "$tmp/err")"
	pids "$tmp/p.jsonl" >"$tmp/pids"
	own=$(awk -v p="$a" '$1 == p { print $2 }' "$tmp/pids")
	others=$(awk -v p="$a" '$1 != p { n += $2 } END { print n + 0 }' "$tmp/pids")
	if grep -q "^$b " "$tmp/pids"; then
		bad "-p $how: events of the other process $b: $(tr '\n' ' ' <"$tmp/pids")"
	elif [ "${own:-0}" -lt 10 ]; then
		bad "-p $how: ${own:-0} events of $a (want 10 or more)"
	elif [ $how = alone ] && [ "$others" != 0 ]; then
		bad "-p alone: $others events of other processes: $(tr '\n' ' ' <"$tmp/pids")"
	elif [ $how = children ] && [ "$others" -lt 10 ]; then
		bad "--children: $others events of its children (want 10 or more)"
	else
		ok "-p $how: $own events of $a, $others of its children, none of $b"
	fi
done

# Without -q (and not on a terminal), one line at the end says what was
# written: the file, its events (as many as it holds) and the losses.
for fmt in nettrace perf; do
	"$rec" -F $fmt -o "$tmp/s.$fmt" -p "$a" --duration 1 -e sched:sched_switch \
		2>"$tmp/err" || { bad "summary -F $fmt: exit $?: $(head -n 2 "$tmp/err")"; continue; }
	n=$("$dec" -F jsonl "$tmp/s.$fmt" 2>/dev/null | wc -l)
	if [ "$(wc -l <"$tmp/err")" = 1 ] &&
	   grep -Eq "^ehrecord: wrote $tmp/s.$fmt: $n events, 0 lost, in [0-9.]+ s\$" "$tmp/err"; then
		ok "-F $fmt: $(cat "$tmp/err")"
	else
		bad "-F $fmt: $n events in the file; standard error: $(cat "$tmp/err")"
	fi
done

# ... with CPU sampling too: the CPU samples are in the file, and not in
# the count (a perf.data's is counted as it is written).
"$rec" -F perf -o "$tmp/c.data" --cpu-sampling=500 --duration 1 \
	-e sched:sched_switch 2>"$tmp/err" ||
	bad "--cpu-sampling -F perf: exit $?: $(head -n 2 "$tmp/err")"
"$dec" --strict -F jsonl "$tmp/c.data" >"$tmp/c.jsonl" 2>/dev/null
n=$(grep -c '^{"n":"sched:sched_switch"' "$tmp/c.jsonl")
cpu=$(grep -c '^{"n":"cpu-clock"' "$tmp/c.jsonl")
said=$(sed -n 's/^ehrecord: wrote .*: \([0-9]*\) events and \([0-9]*\) CPU samples, .*/\1 \2/p' \
	"$tmp/err")
if [ "$n" -gt 0 ] && [ "$cpu" -gt 0 ] && [ "$said" = "$n $cpu" ]; then
	ok "--cpu-sampling -F perf: said and in the file: $n events and $cpu CPU samples"
else
	bad "--cpu-sampling -F perf: said '${said:-?}' (events, CPU samples), $n and $cpu in the file: $(head -n 2 "$tmp/err")"
fi

# On a terminal (script(1) makes one), the status line counts the events
# as they are recorded: a nettrace's wait in the rings until the stop at
# this rate, and its line said 0 until then.
if ! script -qec true /dev/null >/dev/null 2>&1; then
	echo "skipped: the status line (script(1) cannot make a terminal here)"
else
	for fmt in nettrace perf; do
		script -qec "$rec -F $fmt -o $tmp/t.$fmt -p $a --duration 1.3 -e sched:sched_switch" \
			/dev/null >"$tmp/tty" 2>&1 ||
			{ bad "status -F $fmt: exit $?: $(tail -c 300 "$tmp/tty")"; continue; }
		# The line drawn last before the stop's (about 1 s in).
		n=$(tr '\r' '\n' <"$tmp/tty" |
		    sed -n 's/^ehrecord: \([0-9.]*\) s, \([0-9]*\) events,.*/\1 \2/p' |
		    tail -n 2 | head -n 1)
		if [ "${n#* }" -gt 0 ] 2>/dev/null && [ "${n% *}" != 1.3 ]; then
			ok "status -F $fmt: ${n#* } events at ${n% *} s"
		else
			bad "status -F $fmt: '$n': $(tr '\r' '\n' <"$tmp/tty" | grep -a ' s, ' | tr '\n' '|')"
		fi
	done
fi

# ehdecode -e takes the aim too.
"$dec" -F jsonl -p "$a" --duration 1 -e sched:sched_switch >"$tmp/d.jsonl" \
	2>"$tmp/err" || bad "ehdecode -e -p: exit $?: $(head -n 2 "$tmp/err")"
pids "$tmp/d.jsonl" >"$tmp/pids"
own=$(awk -v p="$a" '$1 == p { print $2 }' "$tmp/pids")
if [ "${own:-0}" -ge 10 ] && [ "$(wc -l <"$tmp/pids")" = 1 ]; then
	ok "ehdecode -e -p: $own events, all of $a"
else
	bad "ehdecode -e -p: $(tr '\n' ' ' <"$tmp/pids")"
fi

# --children also takes the processes started before the recording: a
# shell whose busy child (a subshell) already runs.
/bin/sh -c '(while :; do sleep 0.01; done) & wait' &
busy+=($!)
par=$!
sleep 0.3
kid=$(pgrep -P "$par" | head -n 1)
"$rec" -q -F perf -o "$tmp/k.data" -p "$par" --children --duration 1 \
	-e sched:sched_switch 2>"$tmp/err" ||
	bad "--children (child started before): exit $?: $(head -n 2 "$tmp/err")"
"$dec" --strict -F jsonl "$tmp/k.data" >"$tmp/k.jsonl" 2>"$tmp/err"
pids "$tmp/k.jsonl" >"$tmp/pids"
n=$(awk -v p="${kid:-none}" '$1 == p { print $2 }' "$tmp/pids")
if [ -n "$kid" ] && [ "${n:-0}" -ge 10 ] && ! grep -q "^$b " "$tmp/pids"; then
	ok "--children: $n events of $kid, started before the recording by $par"
else
	bad "--children: ${n:-0} events of the earlier child ${kid:-?}: $(tr '\n' ' ' <"$tmp/pids")"
fi
kill "$kid" 2>/dev/null

# -p with --off-cpu, into nettrace: cswitch events and system events of
# that process only.
"$rec" -q -o "$tmp/p.nettrace" -p "$a" --off-cpu --duration 1 2>"$tmp/err" ||
	bad "-p --off-cpu: exit $?: $(head -n 2 "$tmp/err")"
"$dec" --strict -F jsonl "$tmp/p.nettrace" >"$tmp/p.jsonl" 2>"$tmp/err" ||
	bad "-p --off-cpu: ehdecode: $(head -n 2 "$tmp/err")"
python3 - "$tmp/p.jsonl" "$a" >"$tmp/why" <<'EOF'
import collections, json, sys
pid = int(sys.argv[2])
c = collections.Counter()
for line in open(sys.argv[1]):
	e = json.loads(line)
	c[(e["n"], e["meta"]["pid"] == pid)] += 1
bad = [k[0] for k in c if not k[1]]
if bad:
	print("events of other processes:", sorted(set(bad)))
elif c[("Universal.Events:cswitch", True)] < 10:
	print("cswitch events:", c[("Universal.Events:cswitch", True)])
elif not c[("Universal.System:ExistingProcess", True)]:
	print("no ExistingProcess of", pid)
else:
	print("ok", c[("Universal.Events:cswitch", True)])
EOF
case $(cat "$tmp/why") in
ok*)	ok "-p --off-cpu (nettrace): $(cut -d' ' -f2 "$tmp/why") cswitch events of $a, nothing of other processes" ;;
*)	bad "-p --off-cpu (nettrace): $(cat "$tmp/why")" ;;
esac

# -p with --cpu-sampling: samples of that process only (a busy loop of
# its own, so that it is on a CPU).
(while :; do :; done) &
busy+=($!)
hot=$!
"$rec" -q -o "$tmp/cpu.nettrace" -p "$hot" --cpu-sampling=500 --duration 1 \
	2>"$tmp/err" || bad "-p --cpu-sampling: exit $?: $(head -n 2 "$tmp/err")"
kill "$hot"
"$dec" --strict -F jsonl "$tmp/cpu.nettrace" >"$tmp/p.jsonl" 2>"$tmp/err"
n=$(grep -c '"n":"Universal.Events:cpu"' "$tmp/p.jsonl")
other=$(grep -vc "\"pid\":$hot[,}]" "$tmp/p.jsonl")
if [ "$n" -ge 50 ] && [ "$other" = 0 ]; then
	ok "-p --cpu-sampling: $n samples of $hot, no event of another process"
else
	bad "-p --cpu-sampling: $n samples of $hot, $other events of others"
fi

# -p command: the command alone (a shell waiting for a sleep), or with
# --children the sleep too.
for how in alone children; do
	opt=()
	[ $how = children ] && opt=(--children)
	"$rec" -q -F perf -o "$tmp/c.data" -p command "${opt[@]}" \
		-e sched:sched_switch -- /bin/sh -c \
		"echo \$\$ >$tmp/cpid; for i in 1 2 3 4 5; do sleep 0.05; done" \
		2>"$tmp/err" ||
		{ bad "-p command $how: exit $?: $(head -n 2 "$tmp/err")"; continue; }
	"$dec" --strict -F jsonl "$tmp/c.data" >"$tmp/c.jsonl" 2>"$tmp/err" ||
		bad "-p command $how: ehdecode: $(head -n 2 "$tmp/err")"
	pids "$tmp/c.jsonl" >"$tmp/pids"
	cpid=$(cat "$tmp/cpid")
	own=$(awk -v p="$cpid" '$1 == p { print $2 }' "$tmp/pids")
	kids=$(awk -v p="$cpid" '$1 != p { n++ } END { print n + 0 }' "$tmp/pids")
	if [ "${own:-0}" -lt 5 ]; then
		bad "-p command $how: ${own:-0} events of the command ($cpid)"
	elif [ $how = alone ] && [ "$kids" != 0 ]; then
		bad "-p command: events of other processes: $(tr '\n' ' ' <"$tmp/pids")"
	elif [ $how = children ] && [ "$kids" -lt 5 ]; then
		bad "-p command --children: $kids children seen (want its 5 sleeps)"
	else
		ok "-p command $how: $own events of the command, $kids other processes"
	fi
done

# -p without a command: recording ends when the process does.
sleep 1 &
stamp s
"$rec" -q -F perf -o "$tmp/e.data" -p $! -e sched:sched_switch 2>"$tmp/err"
rc=$?
ms_since e "$s"
if [ $rc = 0 ] && [ $e -lt 3000 ] &&
   "$dec" --strict -F jsonl "$tmp/e.data" >/dev/null 2>&1; then
	ok "-p PID: stopped $e ms after the start, when the process ended"
else
	bad "-p PID: exit $rc after $e ms: $(head -n 2 "$tmp/err")"
fi

# -C: only those CPUs. A shell pinned to the CPU sleeps and wakes while it
# records, so that it has switches whatever else runs there (one busy
# program alone on a CPU switches nowhere).
last=$(($(nproc) - 1))
for cpus in 0 $last; do
	taskset -c "$cpus" sh -c 'for i in $(seq 500); do sleep 0.01; done' &
	pin=$!
	"$rec" -q -F perf -o "$tmp/cpu.data" -C "$cpus" --duration 0.5 \
		-e sched:sched_switch 2>"$tmp/err" ||
		{ bad "-C $cpus: exit $?: $(head -n 2 "$tmp/err")"; kill $pin; continue; }
	kill $pin 2>/dev/null
	wait $pin 2>/dev/null
	"$dec" --strict -F jsonl "$tmp/cpu.data" >"$tmp/cpu.jsonl" 2>"$tmp/err"
	n=$(grep -c '"cpu":' "$tmp/cpu.jsonl")
	other=$(grep -vc "\"cpu\":$cpus[,}]" "$tmp/cpu.jsonl")
	if [ "$n" -gt 0 ] && [ "$other" = 0 ]; then
		ok "-C $cpus: $n events, all on CPU $cpus"
	else
		bad "-C $cpus: $n events, $other on other CPUs"
	fi
done

# --max-size: a complete file within the bound, whatever the load; also
# a flight recorder's, whose snapshot (written at the end, of 2 MiB rings)
# is the bound's to cut.
for how in nettrace perf circular; do
	fmt=$how more=(--duration 30) f=$tmp/max.$how
	[ $how = circular ] && fmt=perf more=(--circular --buffer-size=2048 --
		sh -c 'for i in $(seq 3000); do /bin/true; done')
	"$rec" -F $fmt -o "$f" --max-size 200K -e sched:sched_switch \
		"${more[@]}" 2>"$tmp/err"
	rc=$?
	size=$(stat -c %s "$f" 2>/dev/null || echo 0)
	# The end line counts what the file holds (a flight recorder's too:
	# what its snapshot wrote, within the bound).
	said=$(sed -n 's/^ehrecord: wrote [^ ]*: \([0-9]*\) events, .*/\1/p' "$tmp/err")
	"$dec" --strict -F jsonl "$f" >"$tmp/max.jsonl" 2>"$tmp/err2"
	drc=$?
	n=$(wc -l <"$tmp/max.jsonl")
	if [ $rc = 0 ] && [ "$size" -le 204800 ] && [ "$size" -gt 102400 ] &&
	   grep -q "reached --max-size" "$tmp/err" &&
	   ! grep -q "no room" "$tmp/err" && [ $drc = 0 ] && [ "$n" -gt 100 ] &&
	   [ "$said" = "$n" ]; then
		ok "-F $fmt ${more[0]} --max-size 200K: $size bytes, $n events${said:+ ($said said)}, bound said"
	else
		bad "-F $fmt ${more[0]} --max-size 200K: exit $rc, $size bytes, ${said:-?} events said, $n in the file (ehdecode exit $drc): $(head -n 3 "$tmp/err") $(head -n 1 "$tmp/err2")"
	fi
done
# No room for the file: a file size limit (ulimit -f 400, SIGXFSZ
# ignored), and a full disk (a tmpfs of 400 KiB, where one can be
# mounted): a complete file of what fit, kept (the one before as .old);
# exit 1; said, with the error. nettrace is cut back to its last window
# written whole, and the events said written are those in it; a perf.data
# to the last record the file took whole, then back further until its
# end fits (a file cut at the bound has no room for it), and perf script
# reads it.
# room HOW FORMAT: record there (HOW: limit or full), check
# The events in FILE of format FMT, each read strictly (nothing on
# standard error when all is well).
events_in() {
	case $1 in
	json)	jq -e '[.[] | length] | add' "$2" ;;
	jsonl)	jq -c . "$2" | wc -l ;;
	chrome)	jq -e '[.traceEvents[] | select(.ph != "M")] | length' "$2" ;;
	csv)	echo $(($(wc -l <"$2") - 1)) ;;	# (the header line)
	text)	wc -l <"$2" ;;
	*)	"$dec" --strict -F jsonl "$2" | wc -l ;;
	esac
}
room() {
	local how=$1 fmt=$2 tool=${3:-ehrecord} d=$tmp rc size said n
	local why="File too large" f

	shift $(($# < 3 ? $# : 3))	# (the rest: more options)

	[ "$how" = full ] && d=$tmp/full why="No space left on device"
	f=$d/room.$fmt
	echo old >"$f"
	( trap '' XFSZ; [ "$how" = limit ] && ulimit -f 400
	  if [ "$tool" = ehdecode ]; then
		set -- "$dec" --stats "$@"
	  else
		set -- "$rec" "$@"
	  fi
	  exec "$@" -F "$fmt" -o "$f" -e sched:sched_switch -- \
		sh -c 'for i in $(seq 3000); do /bin/true; done' ) 2>"$tmp/err"
	rc=$?
	size=$(stat -c %s "$f" 2>/dev/null || echo 0)
	said=$(sed -n -e 's/.*: wrote .*: \([0-9]*\) events,.*/\1/p' \
		-e 's/^ehdecode: \([0-9]*\) events, .*/\1/p' "$tmp/err")
	n=$(events_in "$fmt" "$f" 2>"$tmp/err2")
	[ "$fmt" = perf ] && said=$n	# (it says the events recorded)
	if [ "$fmt" = perf ] && command -v perf >/dev/null &&
	   ! perf script -i "$f" >/dev/null 2>>"$tmp/err2"; then
		n="perf script failed, $n"
	fi
	# (why it stopped is said before what it left out; ehrecord's summary
	# says the file is cut short)
	if [ $rc = 1 ] && [ "$size" -le 409600 ] && [ "$n" -gt 100 ] &&
	   [ "$said" = "$n" ] &&
	   grep -q "no room for the file ($why)" "$tmp/err" &&
	   awk '/no room for the file/ { a = NR } /are not in/ { b = NR }
		END { exit !(a && (!b || a < b)) }' "$tmp/err" &&
	   { [ "$tool" = ehdecode ] ||
	     grep -q "^ehrecord: wrote .* (cut short: no room): " "$tmp/err"; } &&
	   [ ! -s "$tmp/err2" ] && [ "$(cat "$f.old")" = old ]; then
		ok "$tool -F $fmt${*:+ $*}, no room ($how): exit 1, a complete file of $size bytes, $n events"
	else
		bad "$tool -F $fmt${*:+ $*}, no room ($how): exit $rc, $size bytes, $n events read, '$said' said: $(head -n 3 "$tmp/err") $(head -n 1 "$tmp/err2")"
	fi
	rm -f "$f" "$f.old"
}
# --switch-output=200K onto the full tmpfs: the files before the one that
# found no room are whole, it is ended with what fit (nettrace: its Trace
# block alone, if its first window did not); no temporary file is left,
# and (nettrace) the events the summary says are those the files hold.
room_series() {
	local fmt=$1 rc f n total=0 said files bad=

	rm -f "$tmp/full/"*
	"$rec" -F "$fmt" --switch-output=200K -o "$tmp/full/s.$fmt" \
		-e sched:sched_switch -- \
		sh -c 'for i in $(seq 3000); do /bin/true; done' 2>"$tmp/err"
	rc=$?
	files=$(ls "$tmp/full" | wc -l)
	for f in "$tmp/full/"*; do
		case $f in *.part-*) bad="$bad ${f##*/} left"; continue ;; esac
		n=$("$dec" --strict -F jsonl "$f" 2>"$tmp/err2" | wc -l)
		[ -s "$tmp/err2" ] && bad="$bad ${f##*/}: $(head -n 1 "$tmp/err2")"
		if [ "$fmt" = perf ] && command -v perf >/dev/null &&
		   ! perf script -i "$f" >/dev/null 2>&1; then
			bad="$bad ${f##*/}: perf script failed"
		fi
		total=$((total + n))
	done
	said=$(sed -n 's/.*: wrote .*: \([0-9]*\) events,.*/\1/p' "$tmp/err")
	[ "$fmt" = perf ] && said=$total	# (it says the events recorded)
	if [ $rc = 1 ] && [ "$files" -ge 2 ] && [ -z "$bad" ] &&
	   [ "$said" = "$total" ] && grep -q "no room for the file" "$tmp/err" &&
	   grep -q "(cut short: no room)" "$tmp/err"; then
		ok "-F $fmt --switch-output=200K, no room: exit 1, $files complete files, $total events"
	else
		bad "-F $fmt --switch-output=200K, no room: exit $rc, $files files, $total events read, '$said' said;$bad $(head -n 3 "$tmp/err")"
	fi
	rm -f "$tmp/full/"*
}
# (ehdecode -e keeps what fit as ehrecord does: the events are not
# anywhere else)
for fmt in nettrace perf; do
	room limit $fmt
done
# (every format ends complete, with the events that fit; JSON is read by jq)
fmts="nettrace csv text heph"
if command -v jq >/dev/null; then
	fmts="$fmts jsonl json chrome"
else
	echo "note: no jq here: JSON, JSON lines and Chrome JSON not tried"
fi
for fmt in $fmts; do
	room limit $fmt ehdecode
done
# (a flight recorder's snapshot, written at the end, does not fit)
for fmt in nettrace perf; do
	room limit $fmt ehrecord --circular --buffer-size=2048
done
mkdir "$tmp/full"
if mount -t tmpfs -o size=400k tmpfs "$tmp/full" 2>"$tmp/err"; then
	for fmt in nettrace perf; do
		room full $fmt
	done
	for fmt in $fmts; do
		room full $fmt ehdecode
	done
	room full perf ehrecord --circular --buffer-size=2048
	for fmt in nettrace perf; do
		room_series $fmt
	done
	umount "$tmp/full"
else
	echo "note: no tmpfs mounted here ($(head -n 1 "$tmp/err")): the full disk not tried"
fi

if command -v perf >/dev/null; then
	for f in max.perf max.circular; do
		if perf script -i "$tmp/$f" >/dev/null 2>"$tmp/err"; then
			ok "perf script reads the bounded perf.data ($f)"
		else
			bad "perf script ($f): $(head -n 2 "$tmp/err")"
		fi
	done
fi

# -o - | ehdecode -: decoded as it comes, not when the recording ends.
for fmt in nettrace perf; do
	rm -f "$tmp/live.jsonl" "$tmp/live.done"
	{ "$rec" -q -F $fmt -o - -e sched:sched_process_exec -- /bin/sh -c \
		'sleep 0.3; /bin/true; sleep 4' 2>"$tmp/err" |
		"$dec" -F jsonl - >"$tmp/live.jsonl" 2>"$tmp/err2"
	  touch "$tmp/live.done"; } &
	p=$!
	stamp s
	for _ in $(seq 300); do
		grep -q '"filename":"/bin/true"' "$tmp/live.jsonl" 2>/dev/null && break
		nap 0.02
	done
	ms_since e "$s"
	# (the exec comes 0.3 s in, the recording ends 4 s later)
	if grep -q '"filename":"/bin/true"' "$tmp/live.jsonl" &&
	   [ ! -e "$tmp/live.done" ] && [ $e -le 2000 ]; then
		ok "-F $fmt -o - | ehdecode -: the exec decoded $e ms in, while recording"
	else
		bad "-F $fmt -o - | ehdecode -: decoded after $e ms (want 2 s at most, while recording): $(head -n 1 "$tmp/err2")"
	fi
	wait $p
done

# --switch-output by time: the files together hold every event (of the
# command and its children: other tests may run /bin/true meanwhile), and
# the summary line names the last file and counts the events of them all.
loop='for i in $(seq 200); do /bin/true; sleep 0.005; done'
for fmt in nettrace perf; do
	d=$tmp/sw.$fmt
	mkdir -p "$d"
	"$rec" -F $fmt -o "$d/t" --switch-output 0.3 -p command \
		--children -e sched:sched_process_exec -- /bin/sh -c "$loop" \
		2>"$tmp/rec.err" ||
		{ bad "--switch-output 0.3 -F $fmt: exit $?: $(head -n 2 "$tmp/rec.err")"; continue; }
	files=0 total=0 all=0 newest=0 broken=
	for f in "$d"/t "$d"/t.*; do
		[ -e "$f" ] || continue
		files=$((files + 1))
		if ! "$dec" --strict -F jsonl "$f" >"$tmp/sw.jsonl" 2>"$tmp/err"; then
			broken="$broken ${f##*/}"
			continue
		fi
		if [ $fmt = perf ] && command -v perf >/dev/null &&
		   ! perf script -i "$f" >/dev/null 2>&1; then
			broken="$broken ${f##*/}(perf script)"
		fi
		n=$(grep -c '"filename":"/bin/true"' "$tmp/sw.jsonl")
		total=$((total + n))
		all=$((all + $(wc -l <"$tmp/sw.jsonl")))
		# (the newest file has the highest number)
		if [ "$f" != "$d/t" ] && [ "${f##*.}" -gt "$newest" ]; then
			newest=${f##*.}
		fi
	done
	if [ -z "$broken" ] && [ $files -ge 3 ] && [ $total = 200 ]; then
		ok "--switch-output 0.3 -F $fmt: $files files, each read alone, 200 execs of /bin/true in all"
	else
		bad "--switch-output 0.3 -F $fmt: $files files, $total execs (want 200), unreadable:${broken:- none}"
	fi
	if [ "$(wc -l <"$tmp/rec.err")" = 1 ] &&
	   grep -Eq "^ehrecord: wrote $d/t to $d/t.$newest: $all events, 0 lost, in [0-9.]+ s\$" "$tmp/rec.err"; then
		ok "--switch-output -F $fmt: $(cat "$tmp/rec.err")"
	else
		bad "--switch-output -F $fmt: want 'wrote $d/t to $d/t.$newest: $all events'; standard error: $(cat "$tmp/rec.err")"
	fi
done

# A system trace in several files: a later one names the processes again.
# (The file after the one spin began in: a slow start can put its exec in
# any of the first files.)
spin=$bin/examples/spin
if [ -x "$spin" ]; then
	d=$tmp/sys
	mkdir -p "$d"
	"$rec" -q -o "$d/t" --switch-output 0.5 --cpu-sampling --duration 2.1 \
		-- "$spin" 1000000 >/dev/null 2>"$tmp/err"
	born= next=
	for f in "$d/t" "$d/t.1" "$d/t.2" "$d/t.3" "$d/t.4"; do
		[ -e "$f" ] || break
		if [ -n "$born" ]; then
			next=$f
			break
		fi
		"$dec" -F jsonl "$f" >"$tmp/sys.jsonl" 2>/dev/null
		grep -q '"n":"Universal.System:ProcessCreate".*"Name":"spin"' \
			"$tmp/sys.jsonl" && born=$f
	done
	: >"$tmp/err2"
	[ -n "$next" ] &&
		"$dec" --strict -F jsonl "$next" >"$tmp/sys.jsonl" 2>"$tmp/err2"
	if [ -n "$next" ] &&
	   grep -q '"n":"Universal.System:ExistingProcess".*"Name":"spin"' "$tmp/sys.jsonl" &&
	   grep -q '"n":"Universal.System:ProcessMapping".*examples/\(.libs/\)\?spin"' "$tmp/sys.jsonl" &&
	   grep -q '"n":"Universal.System:ProcessSymbol".*"Name":"spin_hot_loop"' "$tmp/sys.jsonl"; then
		ok "--switch-output --cpu-sampling: the file after spin's start (${next##*/}) names spin, its mapping and spin_hot_loop"
	else
		bad "--switch-output --cpu-sampling: $(ls "$d" | tr '\n' ' '), spin begun in '${born##*/}', then '${next##*/}': $(head -n 2 "$tmp/err") $(head -n 1 "$tmp/err2")"
	fi
fi

# --switch-output by size: every file within it; --max-files 2.
for fmt in nettrace perf; do
	d=$tmp/sz.$fmt
	mkdir -p "$d"
	"$rec" -q -F $fmt -o "$d/t" --switch-output 100K --duration 2 \
		-e sched:sched_switch 2>"$tmp/err" ||
		{ bad "--switch-output 100K -F $fmt: exit $?: $(head -n 2 "$tmp/err")"; continue; }
	files=$(ls "$d" | wc -l)
	big=$(find "$d" -type f -size +100k | wc -l)
	broken=
	for f in "$d"/*; do
		"$dec" --strict -F jsonl "$f" >/dev/null 2>&1 || broken="$broken ${f##*/}"
	done
	if [ "$files" -ge 2 ] && [ "$big" = 0 ] && [ -z "$broken" ]; then
		ok "--switch-output 100K -F $fmt: $files files, none over 100 KiB, each complete"
	else
		bad "--switch-output 100K -F $fmt: $files files, $big over 100 KiB, unreadable:${broken:- none}"
	fi
	d=$tmp/mf.$fmt
	mkdir -p "$d"
	"$rec" -q -F $fmt -o "$d/t" --switch-output 0.2 --max-files 2 \
		--duration 1.1 -e sched:sched_switch 2>"$tmp/err" ||
		{ bad "--max-files 2 -F $fmt: exit $?: $(head -n 2 "$tmp/err")"; continue; }
	left=$(cd "$d" && ls | sort -t. -k2n | tr '\n' ' ')
	if [ "$(ls "$d" | wc -l)" = 2 ] && [ ! -e "$d/t" ] && [ ! -e "$d/t.1" ]; then
		ok "--max-files 2 -F $fmt: the newest two are left ($left)"
	else
		bad "--max-files 2 -F $fmt: left $left"
	fi
done
# ---- SIGHUP ends a recording: no file, no partial file, the old one kept ---
echo "KEEP" >"$tmp/hup.data"
"$rec" -q -F perf -o "$tmp/hup.data" -e sched:sched_process_exec 2>"$tmp/hup.err" &
hp=$!
until_ok 5 compgen -G "$tmp/hup.data.part-*" >/dev/null
sleep 0.5
kill -HUP $hp
wait $hp
rc=$?
if [ $rc = 129 ] && [ "$(cat "$tmp/hup.data")" = KEEP ] &&
   ! ls "$tmp"/hup.data.part-* >/dev/null 2>&1; then
	ok "SIGHUP: ehrecord ends (129), the old file as it was, no partial file"
else
	bad "SIGHUP: exit $rc, file '$(head -c 8 "$tmp/hup.data")', partial: $(ls "$tmp"/hup.data.part-* 2>/dev/null)"
fi
# ---- a stop before recording runs ----------------------------------------
# early_stop LABEL SYSCALL SIGNAL TOOL: strace holds TOOL's first SYSCALL
# for 3 s and SIGNAL comes 0.5 s after TOOL has made its output's temporary
# file (by when it must catch SIGINT and SIGTERM: a background job ignores
# SIGINT until then). TOOL is ehrecord (writing perf.data) or ehdecode -e
# (writing JSON lines). Wanted: exit 0, a complete file, no partial file,
# and the command never exec'd (the trace of execve calls says).
early_stop() {
	local sp p rc ran out=$tmp/early.out fmt=jsonl

	[ "$4" = ehrecord ] && fmt=perf
	rm -f "$out"
	# (LeakSanitizer cannot run under ptrace: off here, in an ASan build)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	LD_LIBRARY_PATH=$tmp/direct strace -f -o "$tmp/early.st" \
		-e trace="$2",execve -e inject="$2":delay_exit=3000000:when=1 \
		"$tmp/direct/$4" -F $fmt -o "$out" \
		-e sched:sched_process_exec -- /bin/true 2>"$tmp/early.err" &
	sp=$!
	until_ok 5 compgen -G "$out.part-*" >/dev/null
	p=$(pgrep -P $sp)
	sleep 0.5
	kill -"$3" "$p"
	wait $sp
	rc=$?
	ran=$(grep -c 'execve("/bin/true"' "$tmp/early.st")
	# (JSON lines: complete when every line is an object)
	if [ $rc = 0 ] && [ "$ran" = 0 ] && [ -f "$out" ] &&
	   ! ls "$out".part-* >/dev/null 2>&1 &&
	   if [ $fmt = jsonl ]; then ! grep -qv '^{.*}$' "$out"
	   else "$dec" --strict -F jsonl "$out" >/dev/null 2>"$tmp/dec.err"
	   fi; then
		ok "$4, $1: exit 0, a complete file, no partial file, the command not run"
	else
		bad "$4, $1: exit $rc, command exec'd $ran times, partial: $(ls "$out".part-* 2>/dev/null), file: $(ls -l "$out" 2>&1): $(head -n 2 "$tmp/early.err" "$tmp/dec.err" 2>/dev/null)"
	fi
}
if command -v strace >/dev/null && ! strace -o /dev/null /bin/true 2>/dev/null; then
	echo "note: strace cannot trace here (ptrace refused): the stops before recording runs are not tried"
elif command -v strace >/dev/null; then
	nobody_tools "$tmp/direct" "$rec" "$dec" ||
		bad "cannot copy ehrecord and ehdecode to $tmp/direct"
	for t in ehrecord ehdecode; do
		early_stop "SIGINT while the session starts" perf_event_open INT $t
		early_stop "SIGTERM as the output file is made" fchmod TERM $t
	done
elif [ "${CI:-}" = true ]; then
	bad "no strace (scripts/deps.txt has it)"
else
	echo "note: no strace: the stops before recording runs are not tried"
fi
finish
