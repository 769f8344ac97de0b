#!/bin/bash
# SPDX-License-Identifier: MIT
#
# live-guest.sh BUILDDIR - runs inside the test VM (see live.sh): ehrecord
# and ehdecode collecting user_events live, checked against what the same
# example writes through the interceptor (tests/vm/providers-intercept):
#  - exact tracepoints, registered by ehrecord before the program starts:
#    every event, content equal (nettrace and perf.data, perf script too);
#  - provider specs find tracepoints registered after the start (and perf
#    script reads the perf.data of such a recording);
#  - --filter is applied by the kernel;
#  - --circular keeps the newest events, and says only how many (both
#    formats);
#  - a tiny buffer with a stopped recorder: events decoded + events
#    reported lost = events written (and so for perf record's files);
#    converted to nettrace, most of its events go without being decoded
#    (ehdecode --stats says how many);
#  - perf record on the same run gives the events ehdecode printed live;
#  - SIGINT at random moments (20 runs) stops it and leaves a valid file;
#  - without permission or without tracefs: one clear line, exit 1.
# Exit status 0 only if every check passed.
set -u

build=${1:?usage: live-guest.sh BUILDDIR}
rec=$build/tools/ehrecord
dec=$build/tools/ehdecode
ex=$build/examples/providers
tps=(-e EhExample_Alpha_L4K1 -e EhExample_Alpha_L5K2 -e EhExample_Beta_L3K1
     -e EhExample_Beta_L2K10)
t=/tmp/live
mkdir -p $t && cd $t || exit 1
TEST_TIMES=1
# shellcheck source=tests/common/test-lib.sh
. "$(dirname "$0")/../common/test-lib.sh"


# The content of a recording, without times, CPUs and ids of processes.
content() { "$dec" -F jsonl -m n,id,version,level,keyword,opcode "$1"; }

same() {	# same LABEL WANT GOT [RECORDING]
	if cmp -s "$2" "$3"; then
		ok "$1 ($(wc -l <"$3") events)"
	else
		bad "$1"
		diff "$2" "$3" | head -n 6
		# When, where and by whom, to tell a clock from an ordering.
		[ $# -lt 4 ] || "$dec" -F jsonl -m n,time,cpu,tid "$4" | head -n 40
	fi
}

# The program waits until all its tracepoints are enabled, then ends.
armed() { "$ex" -w 0 >/dev/null; }

# The program whose events are compared in order runs on one CPU: the
# guest keeps time in 4 ms jiffies, so its events share a time, and
# events of different CPUs with the same time come in the order their
# rings are read, not the order they were written in (a program moved
# to another CPU after its first event had that event last).

echo "guest: Linux $(uname -r), $(nproc) CPUs"
EH_INTERCEPTOR_FILE=$t/want.dat "$build/tests/vm/providers-intercept" 5 >/dev/null
content $t/want.dat >want
[ "$(wc -l <want)" = 20 ] || bad "the interceptor wrote $(wc -l <want) events, not 20"

# 1. exact tracepoints, registered first: nothing missed; the end line
# alone (the tracepoint samples the conversion read are the kernel's count)
"$rec" -o t1.nettrace "${tps[@]}" -- taskset -c 0 "$ex" 5 >/dev/null 2>err1 ||
	bad "ehrecord exact: exit $?: $(head -n 2 err1)"
content t1.nettrace >got1
same "exact tracepoints, registered before the program (nettrace)" want got1 \
	t1.nettrace
[ "$(wc -l <err1)" = 1 ] &&
	grep -Eq '^ehrecord: wrote t1.nettrace: 20 events, 0 lost, in [0-9.]+ s$' err1 &&
	ok "its end line alone: $(cat err1)" ||
	bad "its end line: $(tr '\n' '|' <err1)"
"$dec" --strict -F jsonl t1.nettrace >/dev/null 2>err1s &&
	ok "the nettrace file is strict-valid" || bad "strict: $(head -n 2 err1s)"

# 2. providers: tracepoints that appear later
"$rec" -q -o t2.nettrace -e EhExample_Alpha -e EhExample_Beta -- taskset -c 0 "$ex" -w 5 \
	>/dev/null 2>err2 || bad "ehrecord providers: exit $?: $(head -n 2 err2)"
content t2.nettrace >got2
same "provider specs pick up tracepoints registered later" want got2 t2.nettrace

# 3. perf.data, read by ehdecode and by perf script
"$rec" -q -F perf -o t3.data "${tps[@]}" -- taskset -c 0 "$ex" 5 >/dev/null 2>err3 ||
	bad "ehrecord -F perf: exit $?: $(head -n 2 err3)"
content t3.data >got3
same "perf.data output" want got3 t3.data
n=$(perf script -i t3.data 2>/dev/null | grep -c 'user_events:EhExample_')
[ "$n" = 20 ] && ok "perf script reads it: 20 samples" ||
	bad "perf script shows $n samples, not 20"

# ... also with tracepoints found during the recording (perf's reader needs
# them in the header: ehrecord rewrites the file in normal mode at the end)
"$rec" -q -F perf -o t3b.data -e EhExample_Alpha -e EhExample_Beta -- taskset -c 0 "$ex" -w 5 \
	>/dev/null 2>err3b || bad "ehrecord -F perf (providers): exit $?: $(head -n 2 err3b)"
content t3b.data >got3b
same "perf.data output, provider specs" want got3b t3b.data
n=$(perf script -i t3b.data 2>/dev/null | grep -c 'user_events:EhExample_')
[ "$n" = 20 ] && ok "perf script reads it: 20 samples" ||
	bad "perf script shows $n samples of tracepoints found late, not 20"

# 4. the kernel filter
"$rec" -q -o t4.nettrace --filter 'id == 7' "${tps[@]}" -- taskset -c 0 "$ex" 5 \
	>/dev/null 2>err4 || bad "ehrecord --filter: exit $?: $(head -n 2 err4)"
content t4.nettrace >got4
grep '"n":"EhExample_Beta:Tick"' want >want4
same "--filter 'id == 7' keeps only Beta:Tick" want4 got4
"$rec" -q -o t4b.nettrace --filter 'id === 7' "${tps[@]}" -- true 2>err4b
rc=$?
[ $rc = 1 ] && grep -q "filter" err4b && [ "$(wc -l <err4b)" = 1 ] &&
	ok "a bad filter: one line, exit 1: $(cat err4b)" ||
	bad "a bad filter: exit $rc: $(cat err4b)"

# 5. circular: the newest events stay; the end line counts them, and the
# older ones overwritten in the rings are neither lost nor the kernel's
# over-count (the kernel counted them all, the snapshot holds fewer); a
# perf.data's count is what the snapshot wrote, as a nettrace's is what
# was converted
# circular FORMAT FILE: that check, FILE recorded in FORMAT
circular() {
	local fmt=$1 f=$2 n last

	"$rec" --circular --buffer-size 8 -F "$fmt" -o "$f" \
		-e EhExample_Alpha_L5K2 -- "$ex" 3000 >/dev/null 2>err5 ||
		bad "ehrecord -F $fmt --circular: exit $?"
	"$dec" --strict -F jsonl "$f" | sed -n 's/.*"i":\([0-9]*\).*/\1/p' >got5
	n=$(wc -l <got5)
	last=$(sort -n got5 | tail -n 1)
	if [ "$n" -gt 10 ] && [ "$n" -lt 3000 ] && [ "$last" = 2999 ] &&
	   [ "$(wc -l <err5)" = 1 ] &&
	   grep -Eq "^ehrecord: wrote $f: $n events, 0 lost, in [0-9.]+ s\$" err5; then
		ok "circular $fmt: $n of 3000 events kept, the newest (i=$last) among them, and said alone: $(cat err5)"
	else
		bad "circular $fmt: $n events kept, newest i=$last; said: $(tr '\n' '|' <err5)"
	fi
}
circular nettrace t5.nettrace
circular perf t5.data

# 6. losses are counted: a stopped recorder with an 8 KiB ring. perf.data
# output begins once the session has started (all CPUs enabled).
rm -f t6.data
"$rec" -q -F perf --buffer-size 8 -o t6.data "${tps[@]}" 2>err6 &
pid=$!
until_ok 10 test -s t6.data
kill -STOP $pid
"$ex" 2000 >/dev/null
kill -CONT $pid
kill -INT $pid
wait $pid || bad "ehrecord after SIGSTOP: exit $?"
got=$("$dec" -F jsonl t6.data 2>err6d | wc -l)
lost=$(sed -n 's/.*: \([0-9]*\) events lost.*/\1/p' err6)
dlost=$(sed -n 's/.*: \([0-9]*\) events lost.*/\1/p' err6d)
if [ -n "$lost" ] && [ "$lost" -gt 0 ] && [ $((got + lost)) = 8000 ] &&
   [ "$dlost" = "$lost" ]; then
	ok "losses counted: $got decoded + $lost lost = 8000 written, and ehdecode counts the same ($(cat err6))"
else
	bad "losses: $got decoded, lost '${lost}', ehdecode '${dlost}' (want a sum of 8000): $(cat err6 err6d)"
fi

# ... and to nettrace, most of those events go the short way: written from
# their records, as their tracepoint's event before them (ehd_reader_pass())
"$dec" --stats -F nettrace -o t6.nettrace t6.data 2>err6n
short=$(sed -n 's/.*: \([0-9]*\) of its [0-9]* events written from their records.*/\1/p' err6n)
if [ -n "$short" ] && [ "$short" -ge $((got / 2)) ]; then
	ok "ehdecode -F nettrace: $short of $got events written without being decoded"
else
	bad "ehdecode -F nettrace: '${short}' of $got events written without being decoded (want half or more): $(head -n 3 err6n)"
fi

# 6b. ... and in perf record's files, which report the same losses twice:
# in LOST records as they happen and in LOST_SAMPLES totals at the end.
# perf enables its events after the -D delay, then says so. It needs the
# tracepoints to exist: they are created through dynamic_events, with the
# fields of every EventHeader tracepoint (EH_COMMAND_TYPES); the kernel
# removes them when they are no longer used.
rm -f t6p.data
tps6=(EhExample_Alpha_L4K1 EhExample_Alpha_L5K2 EhExample_Beta_L3K1 EhExample_Beta_L2K10)
for tp in "${tps6[@]}"; do
	echo "u:$tp u8 eventheader_flags; u8 version; u16 id; u16 tag; u8 opcode; u8 level" \
		>>/sys/kernel/tracing/dynamic_events
done
perf record -D 300 -m 2 -a -o t6p.data \
	-e user_events:EhExample_Alpha_L4K1,user_events:EhExample_Alpha_L5K2 \
	-e user_events:EhExample_Beta_L3K1,user_events:EhExample_Beta_L2K10 \
	>/dev/null 2>err6p &
pid=$!
until_ok 30 grep -q 'Events enabled' err6p
kill -STOP $pid
"$ex" 2000 >/dev/null
kill -CONT $pid
kill -INT $pid
wait $pid
got=$("$dec" -F jsonl t6p.data 2>err6d | wc -l)
dlost=$(sed -n 's/.*: \([0-9]*\) events lost.*/\1/p' err6d)
if [ -n "$dlost" ] && [ "$dlost" -gt 0 ] && [ $((got + dlost)) = 8000 ]; then
	ok "perf record's losses counted once: $got decoded + $dlost lost = 8000 written ($(cat err6d))"
else
	bad "perf record's losses: $got decoded, ehdecode says lost '${dlost}' (want a sum of 8000): $(cat err6p err6d)"
fi

# 7. perf record on the same run sees what ehdecode printed live
"$dec" -F jsonl -m n,cpu,pid,tid,id,level,keyword "${tps[@]}" >live.jsonl \
	2>err7 &
pid=$!
armed
sleep 1	# the other CPUs' events are enabled just after the first
perf record -q -k monotonic -a -o /tmp/live/p.data \
	-e user_events:EhExample_Alpha_L4K1,user_events:EhExample_Alpha_L5K2 \
	-e user_events:EhExample_Beta_L3K1,user_events:EhExample_Beta_L2K10 \
	-- taskset -c 0 "$ex" 5 >/dev/null 2>err7p || bad "perf record: exit $?: $(head -n 2 err7p)"
kill -INT $pid
wait $pid || bad "ehdecode live: exit $?: $(head -n 2 err7)"
"$dec" -F jsonl -m n,cpu,pid,tid,id,level,keyword p.data >perf.jsonl
same "ehdecode live equals ehdecode of perf record's perf.data" perf.jsonl live.jsonl

# 8. SIGINT at a random moment of a recording, from the moment ehrecord
# handles it (its session starting, the command starting, recording), is
# obeyed within 20 s (the example would write for minutes) and leaves a
# valid file (20 runs; the programs themselves, not libtool's wrappers,
# which take a second or two to start them under TCG; the same copies
# serve uid 65534 in 9.)
nobody_tools /tmp/nobody "$rec" "$dec" ||
	bad "cannot copy the tools to /tmp/nobody"
nb="env LD_LIBRARY_PATH=/tmp/nobody /tmp/nobody"
good=0
for k in $(seq 1 20); do
	fmt=nettrace
	[ $((k % 2)) = 0 ] && fmt=perf
	$nb/ehrecord -q -F $fmt -o s$k -e EhExample_Beta_L2K10 -- "$ex" 100000000 \
		>/dev/null 2>errs &
	pid=$!
	catching $pid
	sleep "0.$((RANDOM % 4))$((RANDOM % 10))"
	kill -INT $pid
	if ! until_ok 20 ended $pid; then
		echo "run $k ($fmt): still running 20 s after SIGINT"
		kill -KILL $pid
		wait $pid
		pkill -KILL -f "$ex 100000000"	# its command, left behind
	elif wait $pid && $nb/ehdecode --strict -F jsonl -m n s$k >s.jsonl 2>errd; then
		good=$((good + 1))
	else
		echo "run $k ($fmt): $(head -n 2 errs errd)"
	fi
done
[ $good = 20 ] && ok "SIGINT at random moments: 20 of 20 stopped, files valid" ||
	bad "SIGINT at random moments: $good of 20 stopped with a valid file"

# 9. no permission, no tracefs: one line, exit 1 (the tools copied in 8.
# where uid 65534 can run them, wherever the build is)
for tool in "$nb/ehrecord -o /tmp/np.nettrace" "$nb/ehdecode"; do
	name=${tool#env * }
	name=${name%% *}
	setpriv --reuid=65534 --regid=65534 --clear-groups $tool \
		-e EhExample_Alpha_L4K1 >/dev/null 2>errp
	rc=$?
	if [ $rc = 1 ] && [ "$(wc -l <errp)" = 1 ]; then
		ok "no permission ($name): $(cat errp)"
	else
		bad "no permission ($name): exit $rc: $(cat errp)"
	fi
	unshare -m /bin/sh -c "umount /sys/kernel/tracing 2>/dev/null;
		umount /sys/kernel/debug 2>/dev/null;
		exec setpriv --reuid=65534 --regid=65534 --clear-groups $tool \
			-e EhExample_Alpha_L4K1" >/dev/null 2>errn
	rc=$?
	if [ $rc = 1 ] && grep -q "no tracefs" errn && [ "$(wc -l <errn)" = 1 ]; then
		ok "no tracefs ($name): $(cat errn)"
	else
		bad "no tracefs ($name): exit $rc: $(cat errn)"
	fi
done

finish
