#!/bin/bash
# SPDX-License-Identifier: MIT
#
# live-host.sh - ehrecord and ehdecode -e on this machine's own kernel,
# with classic tracepoints (user_events need the test VM: tests/vm/live.sh):
#  - sched:sched_process_fork and sched:sched_process_exec recorded around
#    a child (perf.data and nettrace): the child's fork, its two execs, its
#    pid, and the thread names (-m comm) before and after each exec; perf
#    script reads the perf.data; FILE.old, -g and --clock as perf sees them;
#  - the same live with ehdecode -e ... -- COMMAND;
#  - --duration ends a recording in time with a complete file (both
#    formats, and ehdecode -e), even while COMMAND still runs;
#  - recording to a file does not wake for nothing (a few times in 2 s);
#  - -o - streams both formats into ehdecode --strict -; a reader that
#    goes away stops the recording (said, exit 0);
#  - without permission (uid 65534) or without tracefs (a mount namespace
#    without it): one line saying what is missing, exit 1.
# Needs root and a tracefs with the sched events; skips (77) otherwise,
# except with CI=true, where that is a failure.
set -u
bin=${EH_BUILDDIR:-.}
rec=$bin/tools/ehrecord
dec=$bin/tools/ehdecode
tmp=$(mktemp -d "${TMPDIR:-/tmp}/live-host.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/common/test-lib.sh
. "$(dirname "$0")/../common/test-lib.sh"


# The command lines first (no kernel needed): help, usage errors (exit 2).
cli "ehrecord --help" 0 "$rec" --help
grep -q -- "--circular" "$tmp/out" || bad "--help without --circular"
cli "ehrecord without -e" 2 "$rec"
cli "ehrecord -F bad" 2 "$rec" -F bad -e x
cli "ehrecord --buffer-size 0" 2 "$rec" --buffer-size 0 -e x
cli "ehrecord --clock bad" 2 "$rec" --clock bad -e x
cli "ehrecord -e 'a b'" 1 "$rec" -o "$tmp/x" -e 'a b'
grep -q "bad spec" "$tmp/err" || bad "bad spec: $(cat "$tmp/err")"
cli "ehdecode --filter without -e" 2 "$dec" --filter 'id == 1' x
cli "ehrecord --duration 0" 2 "$rec" --duration 0 -e x
cli "ehrecord --duration -1" 2 "$rec" --duration -1 -e x
cli "ehdecode --duration without -e" 2 "$dec" --duration 1 x
cli "ehdecode --help names -e" 0 "$dec" --help
grep -q -- "--event=SPEC" "$tmp/out" || bad "ehdecode --help without -e"

[ "$(id -u)" = 0 ] || skip "needs root (perf_event_open on tracepoints of every CPU)"
t=/sys/kernel/tracing
[ -d $t/events ] || mount -t tracefs nodev $t 2>/dev/null ||
	skip "no tracefs, and it cannot be mounted at $t"
[ -r $t/events/sched/sched_process_exec/id ] ||
	skip "this kernel has no sched:sched_process_exec tracepoint"


# want LABEL FILE REGEX: FILE has a line matching REGEX.
want() {
	if grep -Eq -- "$3" "$2"; then
		ok "$1"
	else
		bad "$1"
		grep -E '"pid":'"$pid"'[,}]' "$2" | head -n 5
	fi
}

# --duration: stops as a signal does, with a complete file, whatever the
# command does (sleep 30 here); both formats and ehdecode -e.
took() {	# took LABEL LIMIT COMMAND...: exit 0 within LIMIT seconds
	local label=$1 limit=$2 s e rc
	shift 2
	stamp s
	"$@" >"$tmp/dur.out" 2>"$tmp/err"
	rc=$?
	ms_since e "$s"
	if [ $rc = 0 ] && [ $e -le $((limit * 1000)) ]; then
		ok "$label: exit 0 after $e ms"
	else
		bad "$label: exit $rc after $e ms (limit ${limit}s): $(head -n 2 "$tmp/err")"
	fi
}
took "ehrecord --duration 2 -- sleep 30" 3 \
	"$rec" -q --duration 2 -e sched:sched_switch -o "$tmp/dur.nettrace" -- sleep 30
"$dec" --strict -F jsonl "$tmp/dur.nettrace" >"$tmp/dur.jsonl" 2>"$tmp/err" &&
	grep -q '"n":"sched:sched_switch"' "$tmp/dur.jsonl" &&
	ok "--duration: a complete nettrace file with events" ||
	bad "--duration: nettrace file: $(head -n 2 "$tmp/err")"
took "ehrecord -F perf --duration 0.5" 2 \
	"$rec" -q -F perf --duration 0.5 -e sched:sched_switch -o "$tmp/dur.data"
"$dec" --strict -F jsonl "$tmp/dur.data" >/dev/null 2>"$tmp/err" &&
	ok "--duration: a complete perf.data" ||
	bad "--duration: perf.data: $(head -n 2 "$tmp/err")"
took "ehdecode -e --duration 1" 2 "$dec" -F jsonl --duration 1 -e sched:sched_switch
grep -q '"n":"sched:sched_switch"' "$tmp/dur.out" &&
	ok "ehdecode -e --duration: events" || bad "ehdecode -e --duration: no events"

# A file read after the recording: the rings are emptied when half (or
# three quarters) full and the tool does not wake every 100 ms for
# nothing (perf record's way: 2 s of a quiet recording cost about 40
# wake-ups before); what came
# meanwhile is taken at the stop.
wakeups() {	# wakeups PID: the voluntary context switches of its threads
	cat /proc/"$1"/task/*/status 2>/dev/null |
		awk '/^voluntary_ctxt_switches/ { n += $2 } END { print n + 0 }'
}
for fmt in nettrace perf; do
	"$rec" -q -F $fmt -o "$tmp/quiet.$fmt" -e sched:sched_process_exec \
		2>"$tmp/err" &
	rp=$!
	sleep 1
	w0=$(wakeups $rp)
	for _ in 1 2 3; do /bin/true; done
	sleep 2
	w1=$(wakeups $rp)
	kill -INT $rp
	wait $rp
	rc=$?
	n=$("$dec" --strict -F jsonl "$tmp/quiet.$fmt" 2>"$tmp/err2" |
		grep -c '"filename":"/bin/true"')
	if [ $rc = 0 ] && [ $((w1 - w0)) -le 10 ] && [ "$n" -ge 3 ]; then
		ok "-F $fmt to a file: $((w1 - w0)) wake-ups in 2 s, the $n execs taken at the stop"
	else
		bad "-F $fmt to a file: exit $rc, $((w1 - w0)) wake-ups in 2 s (want 10 at most), $n of 3 execs: $(cat "$tmp/err" "$tmp/err2" | head -n 2)"
	fi
done

# -o -: a recording through a pipe, read live; the pipe's reader going
# away stops it, said, exit 0.
for fmt in nettrace perf; do
	"$rec" -q -F $fmt --duration 1 -e sched:sched_switch -o - 2>"$tmp/err" |
		"$dec" --strict -F jsonl - >"$tmp/pipe.jsonl" 2>"$tmp/err2"
	if [ "${PIPESTATUS[0]}${PIPESTATUS[1]}" = 00 ] &&
	   grep -q '"n":"sched:sched_switch"' "$tmp/pipe.jsonl"; then
		ok "-F $fmt -o - | ehdecode --strict -: $(wc -l <"$tmp/pipe.jsonl") events"
	else
		bad "-F $fmt -o - | ehdecode -: $(cat "$tmp/err" "$tmp/err2" | head -n 2)"
	fi
	stamp s
	"$rec" -q -F $fmt --duration 20 -e sched:sched_switch -o - 2>"$tmp/err" |
		head -c 100 >/dev/null
	rc=${PIPESTATUS[0]}
	ms_since e "$s"
	if [ "$rc" = 0 ] && [ $e -lt 5000 ] &&
	   grep -q "closed it (broken pipe): recording stopped" "$tmp/err"; then
		ok "-F $fmt -o - | head: stopped after $e ms, said, exit 0"
	else
		bad "-F $fmt -o - | head: exit $rc after $e ms: $(head -n 2 "$tmp/err")"
	fi
done

# The child: a shell that execs /bin/true; its pid is in $tmp/pid.
child=(/bin/sh -c "echo \$\$ >$tmp/pid; exec /bin/true")

for fmt in perf nettrace; do
	"$rec" -q -F $fmt -o "$tmp/rec.$fmt" -e sched:sched_process_fork \
		-e sched:sched_process_exec -- "${child[@]}" 2>"$tmp/err" ||
		{ bad "ehrecord -F $fmt: exit $?: $(head -n 2 "$tmp/err")"; continue; }
	pid=$(cat "$tmp/pid")
	hex=$(printf '0x%X' "$pid")
	"$dec" -F jsonl -m all "$tmp/rec.$fmt" >"$tmp/out" 2>"$tmp/derr" ||
		bad "ehdecode $fmt: $(head -n 2 "$tmp/derr")"
	want "$fmt: ehrecord forked the child ($pid)" "$tmp/out" \
		'"n":"sched:sched_process_fork".*"child_pid":"'"$hex"'".*"comm":"ehrecord"'
	want "$fmt: the child exec'd the shell, named sh" "$tmp/out" \
		'"n":"sched:sched_process_exec","common_type":[0-9]+,.*"filename":"/bin/sh","pid":"'"$hex"'".*"pid":'"$pid"',"tid":'"$pid"',"comm":"sh","process":"sh"'
	want "$fmt: the shell exec'd /bin/true, then named true" "$tmp/out" \
		'"n":"sched:sched_process_exec","common_type":[0-9]+,.*"filename":"/bin/true","pid":"'"$hex"'".*"pid":'"$pid"',"tid":'"$pid"',"comm":"true","process":"true"'
	[ $fmt = perf ] && command -v perf >/dev/null || continue
	perf script -i "$tmp/rec.perf" >"$tmp/script" 2>/dev/null
	want "perf script: true $pid exec'd /bin/true" "$tmp/script" \
		"^ +true +$pid .*sched:sched_process_exec: filename=/bin/true"
done

# An existing output is kept as FILE.old; -g records call chains and
# --clock the clock (both as perf reads them).
"$rec" -q -F perf -g --clock monotonic_raw -o "$tmp/rec.perf" \
	-e sched:sched_process_exec -- /bin/true 2>"$tmp/err" ||
	bad "ehrecord -g --clock: exit $?: $(head -n 2 "$tmp/err")"
if [ -s "$tmp/rec.perf.old" ] && cmp -s "$tmp/rec.perf.old" "$tmp/rec.perf"; then
	bad "the second recording did not replace the first"
elif [ -s "$tmp/rec.perf.old" ]; then
	ok "an existing output is kept as FILE.old"
else
	bad "no FILE.old after recording over a file"
fi
if command -v perf >/dev/null; then
	perf script -i "$tmp/rec.perf" >"$tmp/script" 2>/dev/null
	want "-g: the exec sample has a call chain" "$tmp/script" \
		'^[[:space:]]+[0-9a-f]{6,} '
	perf report --header-only -i "$tmp/rec.perf" >"$tmp/header" 2>/dev/null
	want "--clock monotonic_raw: perf reads clock 4" "$tmp/header" \
		'clockid: monotonic_raw \(4\)'
fi

# Live, printed as it comes.
"$dec" -F jsonl -m all -e sched:sched_process_exec -- "${child[@]}" \
	>"$tmp/live" 2>"$tmp/err" || bad "ehdecode -e: exit $?: $(head -n 2 "$tmp/err")"
pid=$(cat "$tmp/pid")
want "ehdecode live: the exec of /bin/true" "$tmp/live" \
	'"filename":"/bin/true".*"pid":'"$pid"',"tid":'"$pid"',"comm":"true"'

# No permission, no tracefs: one line, exit 1. (The output's folder is
# one that uid 65534 may write to, and the tools are copies it can run
# wherever the build is: what is missing is tracing.)
chmod 711 "$tmp" && mkdir -m 1777 "$tmp/np"
nobody_tools "$tmp/nobody" "$rec" "$dec" ||
	bad "cannot copy the tools for uid 65534 to $tmp/nobody"
nb="env LD_LIBRARY_PATH=$tmp/nobody $tmp/nobody"
for tool in "$nb/ehrecord -o $tmp/np/np.nettrace" "$nb/ehdecode"; do
	name=${tool#env * }
	name=${name%% *}
	name=${name##*/}
	setpriv --reuid=65534 --regid=65534 --clear-groups $tool \
		-e sched:sched_process_exec >/dev/null 2>"$tmp/err"
	rc=$?
	if [ $rc = 1 ] && [ "$(wc -l <"$tmp/err")" = 1 ]; then
		ok "$name without permission: $(cat "$tmp/err")"
	else
		bad "$name without permission: exit $rc: $(cat "$tmp/err")"
	fi
	unshare -m /bin/sh -c "umount $t 2>/dev/null; umount /sys/kernel/debug 2>/dev/null;
		exec setpriv --reuid=65534 --regid=65534 --clear-groups $tool \
			-e sched:sched_process_exec" >/dev/null 2>"$tmp/err"
	rc=$?
	if [ $rc = 1 ] && grep -q "no tracefs" "$tmp/err" &&
	   [ "$(wc -l <"$tmp/err")" = 1 ]; then
		ok "$name without tracefs: $(cat "$tmp/err")"
	else
		bad "$name without tracefs: exit $rc: $(cat "$tmp/err")"
	fi
done
if [ -z "$(ls -A "$tmp/np")" ]; then
	ok "failed recordings left no file behind"
else
	bad "failed recordings left files: $(ls -A "$tmp/np")"
fi
finish
