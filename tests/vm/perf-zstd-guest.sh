#!/bin/bash
# SPDX-License-Identifier: MIT
#
# perf-zstd-guest.sh BUILDDIR [HELLO_COUNT] - runs as root inside the test
# VM (see perf-zstd.sh): a zstd-compressed perf.data decodes to the same
# events as the uncompressed recording of the same run.
#
# Two "perf record -a" sessions, one with -z (zstd) and one without, record
# the user_events tracepoints of examples/hello and examples/activity at the
# same time. They start with their events disabled and are enabled through
# their --control FIFOs; only after both have acknowledged do the examples
# run (hello -w HELLO_COUNT, then activity), so both see every event. Then:
#
#   - the -z file really is compressed: its header has the "compressed"
#     feature (Zstd) and it holds COMPRESSED records; the other has neither;
#   - tools/ehdecode -F jsonl --sort time decodes each with exit status 0
#     and nothing on standard error (no damage, no lost events);
#   - each decode has exactly the events the examples wrote, counted per
#     event name (hello: 1 Hello + HELLO_COUNT Count; activity: 2 Session,
#     4 Transfer, 2 Progress), and nothing else;
#   - the two decodes are identical line for line after sorting, apart from
#     the time: each perf event takes its own timestamp when the kernel
#     writes the sample into its buffer, so the same event gets a slightly
#     later time in the session served second. Name, fields, cpu, pid, tid,
#     level, keyword, opcode and activity ids must match exactly; the times
#     of each pair must be within MAX_DT seconds.
set -u

build=${1:?usage: perf-zstd-guest.sh BUILDDIR [HELLO_COUNT]}
hello_n=${2:-2000}
t=/sys/kernel/tracing
# Loose on purpose: under TCG the two timestamps of an event are some
# microseconds apart, now and then milliseconds (up to 4 ms measured).
MAX_DT=0.1

fail() {
	echo "FAIL: $*"
	exit 1
}
# show FILE...: the files, indented, for a failure message.
show() {
	local f

	for f in "$@"; do
		echo "--- $f"
		sed 's/^/  /' "$f" 2>/dev/null | head -n 40
	done
}

[ -w "$t/user_events_data" ] || fail "no user_events in the guest kernel ($t/user_events_data)"
work=$(mktemp -d /tmp/perf-zstd.XXXXXX) || fail "mktemp failed"
cd "$work" || fail "cannot cd to $work"

# perf looks tracepoints up by name when it starts, so they must exist
# before the examples run: create them through dynamic_events with the
# fields every EventHeader tracepoint has (EH_COMMAND_TYPES in
# eventheader.h). The examples' registrations have the same fields and get
# the same tracepoints. Names: "<provider>_L<level>K<keyword>".
fields="u8 eventheader_flags; u8 version; u16 id; u16 tag; u8 opcode; u8 level"
tps=(EhExample_Hello_L4K1 EhExample_Activity_L4K0 EhExample_Activity_L5K0)
events=
for tp in "${tps[@]}"; do
	echo "u:$tp $fields" >>"$t/dynamic_events" ||
		fail "cannot create user_events:$tp through $t/dynamic_events"
	events+=${events:+,}user_events:$tp
done

# ---- two recordings, enabled before the examples run ---------------------
# start_perf NAME [OPTION...]: perf record into NAME.data, events disabled
# until "enable" arrives on NAME.ctl; it acknowledges on NAME.ack. The FIFOs
# are opened read-write here so that neither side blocks in open().
start_perf() {
	local name=$1

	shift
	mkfifo "$name.ctl" "$name.ack" || fail "mkfifo failed"
	perf record -a -m 1M "$@" -D -1 --control "fifo:$name.ctl,$name.ack" \
		-e "$events" -o "$name.data" >"$name.out" 2>&1 &
}
start_perf z -z
pid_z=$!
exec 3<>z.ctl 4<>z.ack
start_perf u
pid_u=$!
exec 5<>u.ctl 6<>u.ack

# enable NAME PID CTLFD ACKFD: enable, wait (up to 60 s, while perf runs)
# for the acknowledgement. A read that times out keeps what it had read so
# far ("ac" when the second ends inside "ack\n"): collect the pieces, so
# that the line's end alone, read next, is not taken for a wrong answer.
enable() {
	local ack='' line i

	echo enable >&"$3"
	for ((i = 0; i < 60; i++)); do
		line=
		read -r -t 1 -u "$4" line && { ack+=$line; break; }
		ack+=$line
		kill -0 "$2" 2>/dev/null || break
	done
	if [ "$ack" != ack ]; then
		kill -INT "$2" 2>/dev/null
		wait "$2"
		echo "perf record for $1.data: exit status $?, output:"
		show "$1.out"
		if [ "$1" = z ]; then
			echo "perf's zstd support: $(perf version --build-options | grep -i zstd)"
			fail "perf record -z did not start recording (no zstd support in this perf?)"
		fi
		fail "perf record for $1.data did not start recording"
	fi
}
enable z "$pid_z" 3 4
enable u "$pid_u" 5 6
echo "guest: Linux $(uname -r), $(nproc) CPUs; two perf sessions recording $events"

# ---- the examples --------------------------------------------------------
"$build/examples/hello" -w "$hello_n" >hello.out 2>&1 ||
	{ show hello.out; fail "examples/hello failed"; }
"$build/examples/activity" >activity.out 2>&1 ||
	{ show activity.out; fail "examples/activity failed"; }
cat hello.out activity.out

# perf record ends on SIGINT by raising it again after writing its file:
# exit status 130 is its normal end here.
# stopped NAME PID: wait for the perf record of NAME.data to end.
stopped() {
	local rc

	wait "$2"
	rc=$?
	if [ "$rc" != 0 ] && [ "$rc" != 130 ]; then
		show "$1.out"
		fail "perf record for $1.data ended with exit status $rc"
	fi
}
kill -INT "$pid_z" "$pid_u"
stopped z "$pid_z"
stopped u "$pid_u"
exec 3>&- 4<&- 5>&- 6<&-
grep -h 'perf record: Captured' z.out u.out

# ---- is the -z file compressed? ------------------------------------------
# "perf report --header-only" shows the COMPRESSED feature ("# compressed :
# Zstd, level = 1, ratio = 18"); "perf report -D" counts the records of the
# data section by type, PERF_RECORD_COMPRESSED among them.
perf report --header-only -i z.data >z.header 2>&1
perf report --header-only -i u.data >u.header 2>&1
if ! grep -q '^# compressed : Zstd' z.header; then
	show z.out z.header
	echo "perf's zstd support: $(perf version --build-options | grep -i zstd)"
	fail "z.data (perf record -z) has no zstd compressed feature in its header: this perf cannot compress?"
fi
grep -q '^# compressed' u.header && { show u.header; fail "u.data (no -z) says it is compressed"; }
comp_records() {
	perf report -D -i "$1" 2>/dev/null |
		sed -n 's/^ *COMPRESSED events: *\([0-9][0-9]*\).*/\1/p'
}
nz=$(comp_records z.data)
nu=$(comp_records u.data)
[ "${nz:-0}" -gt 0 ] || fail "z.data has no PERF_RECORD_COMPRESSED records (perf report -D)"
[ "${nu:-0}" = 0 ] || fail "u.data (no -z) has $nu PERF_RECORD_COMPRESSED records"
size_z=$(stat -c %s z.data)
size_u=$(stat -c %s u.data)
echo "guest: z.data $size_z bytes, $nz COMPRESSED records ($(grep '^# compressed' z.header | sed 's/^# //')); u.data $size_u bytes"

# ---- decode --------------------------------------------------------------
for f in z u; do
	"$build/tools/ehdecode" -F jsonl --sort time "$f.data" >"$f.jsonl" 2>"$f.err"
	rc=$?
	[ "$rc" = 0 ] || { show "$f.err"; fail "ehdecode $f.data: exit status $rc"; }
	[ -s "$f.err" ] && { show "$f.err"; fail "ehdecode $f.data wrote to standard error (damage or lost events)"; }
done

# count FILE EVENT: lines of FILE whose event name is EVENT.
count() { grep -c "^{\"n\":\"$2\"[,}]" "$1"; }
expect=("EhExample_Hello:Hello 1" "EhExample_Hello:Count $hello_n"
	"EhExample_Activity:Session 2" "EhExample_Activity:Transfer 4"
	"EhExample_Activity:Progress 2")
total=0
for e in "${expect[@]}"; do
	total=$((total + ${e##* }))
done
for f in z u; do
	for e in "${expect[@]}"; do
		n=$(count "$f.jsonl" "${e% *}")
		[ "$n" = "${e##* }" ] ||
			fail "$f.data: $n ${e% *} events decoded, the examples wrote ${e##* }"
	done
	n=$(wc -l <"$f.jsonl")
	[ "$n" = "$total" ] ||
		{ grep -v '^{"n":"EhExample_' "$f.jsonl" | head -n 5; fail "$f.data: $n events decoded, the examples wrote $total"; }
done

# ---- compare -------------------------------------------------------------
# Each line without its time, sorted (the activity ids and hello's "i" make
# every line unique); then the times of each pair side by side.
for f in z u; do
	sed -E 's/"meta":\{"time":[0-9.]+,/"meta":{/' "$f.jsonl" | sort >"$f.notime"
	sed -E 's/^(.*)"meta":\{"time":([0-9.]+),(.*)$/\1"meta":{\3\t\2/' "$f.jsonl" |
		sort -t "$(printf '\t')" -k1,1 >"$f.keyed"
done
if ! cmp -s z.notime u.notime; then
	echo "first differences (< z.data, > u.data; sorted, without the time):"
	diff z.notime u.notime | head -n 12
	fail "the compressed and the uncompressed recording decode to different events"
fi
for f in z u; do
	n=$(grep -c '"meta":{"time":' "$f.jsonl")
	[ "$n" = "$total" ] || fail "$f.data: only $n of $total events have a time"
done
maxdt=$(paste z.keyed u.keyed | awk -F '\t' '
	$1 != $3 { bad = 1 }
	{ d = $2 - $4; if (d < 0) d = -d; if (d > m) m = d }
	END { if (bad) print "key"; else printf "%.9f\n", m }')
[ "$maxdt" != key ] || fail "the events do not pair up by content"
awk -v d="$maxdt" -v m="$MAX_DT" 'BEGIN { exit !(d <= m) }' ||
	fail "an event's time differs by $maxdt s between the recordings (more than $MAX_DT s)"

echo "perf-zstd: $total events in both recordings (EhExample_Hello $((hello_n + 1)), EhExample_Activity 8), identical apart from the time (largest difference $maxdt s)"
