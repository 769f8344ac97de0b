#!/bin/bash
# SPDX-License-Identifier: MIT
#
# system-guest.sh BUILDDIR - runs inside the test VM (see system.sh): a
# system trace of examples/spin recorded to nettrace by ehrecord on a
# kernel with user_events, read back with ehdecode --strict (TraceEvent's
# reader rules, docs/nettrace-mapping.md: header and block order, no empty
# event block, metadata, thread, stack and label references defined
# before use and never redefined, sequence numbers, sorted capture-thread
# switches, EndOfStream):
#  - CPU samples: most of spin's stacks have spin_hot_loop, called from
#    spin_work;
#  - ProcessCreate, the mapping of the spin binary, the samples and
#    ProcessExit of spin's pid come in that order; the ProcessSymbol of
#    spin_hot_loop lies inside that mapping, and the samples' frames of
#    spin are attributed to it;
#  - spin's exec: a ProcessExit, then ProcessCreate "spin" and only
#    spin's mappings after it;
#  - 98% of spin's stacks end in libc or spin (reach their
#    thread's start: PerfView does not call them BROKEN); the idle task's
#    samples have no stack, process 0 is named swapper; ehdecode --stats
#    says the broken share; every named user frame of spin is the function
#    PerfView's lookup finds from the mapping's metadata;
#  - the "Round" user_events spin writes, recorded with /stacks, have the
#    user stack of a frame-pointer build: writev called from spin_work,
#    from main; their kernel frames are named (ProcessSymbol events);
#  - --off-cpu: cswitch samples of a sleeping shell, with stacks.
# Exit status 0 only if every check passed.
set -u

build=${1:?usage: system-guest.sh BUILDDIR}
rec=$build/tools/ehrecord
dec=$build/tools/ehdecode
spin=$build/examples/spin
t=/tmp/system
mkdir -p $t && cd $t || exit 1
TEST_TIMES=1
# shellcheck source=tests/common/test-lib.sh
. "$(dirname "$0")/../common/test-lib.sh"


# The first line number of a match in FILE, or 0.
line_of() { grep -n -m 1 "$1" "$2" | cut -d: -f1 | grep . || echo 0; }

echo "guest: Linux $(uname -r), $(nproc) CPUs"

# 1. CPU sampling and the Round events, in one nettrace file
"$rec" -q --cpu-sampling=999 -e EhExample_Spin_L4K1/stacks -o s.nettrace \
	-- "$spin" 800 >spin.out 2>rec.err ||
	bad "ehrecord --cpu-sampling: exit $?: $(head -n 2 rec.err)"
losses rec.err
if "$dec" --strict -F jsonl -m n,pid,tid,comm,stack s.nettrace >s.jsonl 2>dec.err; then
	ok "the file keeps TraceEvent's reader rules (ehdecode --strict, $(wc -l <s.jsonl) events)"
else
	bad "ehdecode --strict: $(head -n 2 dec.err)"
fi
pid=$(sed -n 's/^{"n":"Universal.System:ProcessCreate".*"pid":\([0-9]*\),.*/\1/p' s.jsonl |
	while read -r p; do
		grep -q "^{\"n\":\"Universal.System:ProcessMapping\".*\"FileName\":\"[^\"]*/examples/spin\".*\"pid\":$p," s.jsonl &&
			{ echo "$p"; break; }
	done)
pid=${pid:-none}

# Its samples in spin's code (before its exec it runs ehrecord's code;
# an ASan build starts with the sanitizer's set-up).
grep "^{\"n\":\"Universal.Events:cpu\".*\"pid\":$pid,.*\"comm\":\"spin\".*\"spin+0x" s.jsonl >cpu.jsonl
n=$(wc -l <cpu.jsonl)
hot=$(grep -c '"spin+0x[0-9a-f]* spin_hot_loop+0x[0-9a-f]*","spin+0x[0-9a-f]* spin_work+0x' cpu.jsonl)
if [ "$n" -ge 100 ] && [ $((hot * 10)) -ge $((n * 7)) ]; then
	ok "CPU samples of spin (pid $pid): $n, $hot in spin_hot_loop called from spin_work"
else
	bad "CPU samples of spin (pid $pid): $n, $hot in spin_hot_loop from spin_work (want >= 100 and 70%)"
	head -n 2 cpu.jsonl
fi

# Processes and mappings: present, in order, and agreeing with each other.
map=$(grep "^{\"n\":\"Universal.System:ProcessMapping\".*\"FileName\":\"[^\"]*/examples/spin\".*\"pid\":$pid," s.jsonl |
	head -n 1)
map_id=$(echo "$map" | sed -n 's/.*"Id":\([0-9]*\),.*/\1/p')
create=$(line_of "^{\"n\":\"Universal.System:ProcessCreate\".*\"pid\":$pid," s.jsonl)
mapped=$(line_of "^{\"n\":\"Universal.System:ProcessMapping\",\"Id\":${map_id:-x}," s.jsonl)
# The samples in spin's code: after the mapping (before its exec the new
# process runs ehrecord's code), before the exit (the kernel's own teardown
# after it still counts as the process).
first=$(line_of "^{\"n\":\"Universal.Events:cpu\".*\"pid\":$pid,.*\"spin+0x" s.jsonl)
last=$(grep -n "^{\"n\":\"Universal.Events:cpu\".*\"pid\":$pid,.*\"spin+0x" s.jsonl | tail -n 1 | cut -d: -f1)
# (the last ProcessExit: its exec ends ehrecord's copy with one first)
exit_at=$(grep -n "^{\"n\":\"Universal.System:ProcessExit\".*\"pid\":$pid," s.jsonl |
	tail -n 1 | cut -d: -f1)
exit_at=${exit_at:-0}
if [ "$create" -gt 0 ] && [ "$mapped" -gt "$create" ] && [ "$first" -gt "$mapped" ] &&
   [ "${last:-0}" -lt "$exit_at" ]; then
	ok "ProcessCreate, mapping $map_id of spin, $n samples, ProcessExit: in that order"
else
	bad "order of ProcessCreate ($create), mapping ($mapped), samples ($first-${last:-}), ProcessExit ($exit_at)"
fi
sym=$(grep "^{\"n\":\"Universal.System:ProcessSymbol\",\"Id\":[0-9]*,\"MappingId\":${map_id:-x},.*\"Name\":\"spin_hot_loop\"" s.jsonl |
	head -n 1)
hex() { echo "$1" | sed -n "s/.*\"$2\":\"0x\([0-9A-F]*\)\".*/\1/p"; }
s0=$(hex "$sym" StartAddress)
s1=$(hex "$sym" EndAddress)
m0=$(hex "$map" StartAddress)
m1=$(hex "$map" EndAddress)
if [ -n "$s0" ] && [ -n "$m0" ] && [ $((0x$m0 <= 0x$s0)) = 1 ] &&
   [ $((0x$s0 < 0x$s1)) = 1 ] && [ $((0x$s1 <= 0x$m1)) = 1 ]; then
	ok "ProcessSymbol spin_hot_loop (0x$s0-0x$s1) lies in spin's mapping (0x$m0-0x$m1)"
else
	bad "ProcessSymbol spin_hot_loop '$sym' against mapping '$map'"
fi

# At its exec, spin's process ends and begins anew (spin_exec_anew).
if spin_exec_anew s.jsonl "$pid" life.txt; then
	ok "spin's exec ends the process and creates it anew, with spin's mappings only"
else
	bad "spin's exec: $(tr '\n' ';' <life.txt | cut -c1-300)"
fi

# Where the stacks end (PerfView's BROKEN unless in libc or the program
# itself): at most 2% of the samples in spin's code elsewhere (its exec
# and loading are the kernel's and the loader's); the idle task's
# samples written without a stack; ehdecode --stats gives the share.
sed -n 's/.*"stack":\[\(.*\)\]}}$/\1/p' cpu.jsonl |
	awk '{ n = split($0, f, "\",\""); last = f[n]; gsub(/"/, "", last);
	       split(last, w, " "); sub(/\+0x.*/, "", w[1]); print w[1] }' >ends.txt
n=$(wc -l <ends.txt)
whole=$(grep -cE '^(libc\.so\.6|spin)$' ends.txt)
if [ "$n" -ge 100 ] && [ $((whole * 100)) -ge $((n * 98)) ]; then
	ok "samples in spin's code: $whole of $n stacks end in libc or spin (<= 2% broken)"
else
	bad "samples in spin's code: $whole of $n stacks end in libc or spin (want >= 98%)"
	sort ends.txt | uniq -c | sort -rn | head -n 4
fi
idle=$(grep -c '^{"n":"Universal.Events:cpu".*"pid":0,' s.jsonl)
idle_st=$(grep '^{"n":"Universal.Events:cpu".*"pid":0,' s.jsonl | grep -c '"stack":\["')
if [ "$idle" -ge 1 ] && [ "$idle_st" = 0 ]; then
	ok "the idle task: $idle samples, none with a stack"
else
	bad "the idle task: $idle samples, $idle_st with a stack (want >= 1 and 0)"
fi
grep -q '^{"n":"Universal.System:ExistingProcess","NamespaceId":0,"Name":"swapper",' s.jsonl &&
	ok "the idle task is named swapper (ExistingProcess of process 0)" ||
	bad "no ExistingProcess naming process 0"
if python3 "$(dirname "$0")/../common/perfview-lookup.py" s.jsonl spin >lookup.out 2>&1; then
	ok "PerfView's lookup by build id and p_vaddr: $(tail -n 1 lookup.out | sed 's/^perfview-lookup: //')"
else
	bad "PerfView's lookup: $(tr '\n' ' ' <lookup.out | cut -c1-300)"
fi
"$dec" --stats -F jsonl -o /dev/null s.nettrace 2>stats.err
grep -qE 's.nettrace: [0-9]+ stacks: [0-9]+ broken \(' stats.err &&
	ok "ehdecode --stats: $(grep -o '[0-9]* stacks: [0-9]* broken ([^)]*)' stats.err)" ||
	bad "ehdecode --stats says nothing of stacks: $(head -n 2 stats.err)"

# 2. the Round events: user stacks through the user_events write
grep '^{"n":"EhExample_Spin:Round"' s.jsonl >round.jsonl
rounds=$(wc -l <round.jsonl)
# (main may be all in main.cold: it calls the cold registration.)
fp=$(grep -c '"libc[^"]* writev+0x[0-9a-f]*","spin+0x[0-9a-f]* spin_work+0x[0-9a-f]*","spin+0x[0-9a-f]* main[.a-z]*+0x' round.jsonl)
said=$(sed -n 's/^spin: \([0-9]*\) rounds$/\1/p' spin.out)
# Their kernel frames are named by the file's ProcessSymbol events.
named=$(grep -c '"stack":\["\[kernel.kallsyms\]+0x[0-9a-f]* [a-z_]' round.jsonl)
[ "$rounds" -ge 1 ] && [ "$named" = "$rounds" ] &&
	ok "Round events: the innermost kernel frame of each named ($(grep -o -m 1 '"stack":\["[^"]*"' round.jsonl | cut -d' ' -f2))" ||
	bad "Round events: $named of $rounds with a named innermost kernel frame"

if nm "$spin" 2>/dev/null | grep -q __asan_init; then
	# ASan's writev() interceptor keeps no frame pointer: the chain ends.
	[ "$rounds" -ge 1 ] && [ "$rounds" = "${said:-x}" ] &&
		ok "Round events: $rounds of $said (stacks not checked: ASan's writev interceptor has no frame pointer)" ||
		bad "Round events: $rounds of ${said:-?} written"
elif [ "$rounds" -ge 1 ] && [ "$rounds" = "${said:-x}" ] && [ "$fp" = "$rounds" ]; then
	ok "Round events: $rounds of $said, each with writev from spin_work from main in its stack"
else
	bad "Round events: $rounds of ${said:-?} written, $fp with spin_work from main"
	head -n 1 round.jsonl
fi

# 3. off the CPU
"$rec" -q --off-cpu -o o.nettrace -- sh -c 'for i in 1 2 3 4 5; do sleep 0.02; done' \
	2>rec.err || bad "ehrecord --off-cpu: exit $?: $(head -n 2 rec.err)"
losses rec.err
long=$("$dec" --strict -F jsonl -m n,comm,stack o.nettrace 2>dec.err |
	grep '^{"n":"Universal.Events:cswitch".*"comm":"sh".*"stack":\["' |
	sed -n 's/.*"Value":\([0-9]*\),.*/\1/p' | awk '$1 >= 15000000' | wc -l)
[ "$long" -ge 4 ] && ok "--off-cpu: $long cswitch samples of the shell after >= 15 ms, with stacks" ||
	bad "--off-cpu: $long cswitch samples of the shell of >= 15 ms (want >= 4): $(head -n 1 dec.err)"

finish
