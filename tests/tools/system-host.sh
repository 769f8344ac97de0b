#!/bin/bash
# SPDX-License-Identifier: MIT
#
# system-host.sh - CPU sampling and off-CPU switches on this machine's own
# kernel (cpu-clock and sched_switch need no user_events), to perf.data and
# to nettrace (read back with ehdecode --strict; its ProcessSymbol and
# ProcessMappingMetadata events checked against nm and readelf):
#  - ehrecord -F perf --cpu-sampling=HZ -- examples/spin: most of the
#    "cpu" samples of spin's process have spin_hot_loop, called from
#    spin_work, in their stack (ehdecode --system -m stack), attributed to
#    the spin binary with the offset nm gives the function, as perf script
#    attributes them;
#  - ProcessCreate and ProcessExit of spin's pid, and an executable
#    mapping of the spin binary for it, all present;
#  - symbol tables are read for the files a frame is in and no other
#    mapped file (ehdecode --stats counts them); the summary of a
#    perf.data of CPU samples says 0 events and as many CPU samples as
#    the file holds;
#  - SPEC/stacks gives that spec's events their stacks, and no other's;
#  - nettrace: every named user frame of the trace is the function
#    PerfView's own lookup finds from the mapping's metadata (build id,
#    p_vaddr, p_offset: tests/common/perfview-lookup.py, with nm); spin's
#    exec ends its process and creates it anew, without ehrecord's
#    mappings after it;
#  - tests/tools/thread-spin: the stacks of its main thread end in libc's
#    __libc_start_call_main, those of its other thread in start_thread (98%
#    in libc or itself: what PerfView does not call BROKEN);
#    ehdecode --stats counts the broken ones; built without frame
#    pointers, %rbp at garbage (nofp-spin), the garbage its stacks walk
#    into is cut, so that none ends in an address outside its mappings,
#    and counted;
#  - --off-cpu: "cswitch" samples with a time off the CPU and a stack, one
#    for every wait of a sleeping shell that the kernel's sched_switch
#    records end, in a perf.data and in a nettrace (which keeps those
#    records as events when -e sched:sched_switch asks for them, and only
#    then, as ehdecode -e does); and usage errors.
# Needs root and a tracefs; skips (77) otherwise, except with CI=true.
set -u
bin=${EH_BUILDDIR:-.}
rec=$bin/tools/ehrecord
dec=$bin/tools/ehdecode
spin=$bin/examples/spin
tmp=$(mktemp -d "${TMPDIR:-/tmp}/system-host.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/common/test-lib.sh
. "$(dirname "$0")/../common/test-lib.sh"


"$rec" --cpu-sampling=0 -F perf -o "$tmp/x" >/dev/null 2>&1
[ $? = 2 ] && ok "--cpu-sampling=0: usage error" || bad "--cpu-sampling=0 not refused"
[ "$(id -u)" = 0 ] || skip "needs root (perf_event_open on every CPU)"
t=/sys/kernel/tracing
[ -d $t/events ] || mount -t tracefs nodev $t 2>/dev/null ||
	skip "no tracefs, and it cannot be mounted at $t"

# ---- CPU sampling ------------------------------------------------------------
want=$(nm "$spin" | sed -n 's/^\([0-9a-f]*\) T spin_hot_loop$/\1/p')
# check_spin FILE.jsonl FORM: the spin process in a decoded system trace;
# sets $pid (of spin) and $spin_map (its mapping's Id).
check_spin() {
	local j=$1 form=$2 n hot calls got
	pid=$(sed -n 's/^{"n":"Universal.System:ProcessCreate","NamespaceId":\([0-9]*\),"Name":"[^"]*".*/\1/p' "$j" |
		while read -r p; do
			grep -q "^{\"n\":\"Universal.System:ProcessMapping\".*\"FileName\":\"[^\"]*/examples/spin\".*\"pid\":$p," "$j" &&
				{ echo "$p"; break; }
		done)
	if [ -n "$pid" ]; then
		ok "$form: ProcessCreate of spin (pid $pid) and a mapping of examples/spin for it"
	else
		bad "$form: no ProcessCreate with a mapping of examples/spin"
		pid=none
	fi
	spin_map=$(grep "^{\"n\":\"Universal.System:ProcessMapping\".*\"FileName\":\"[^\"]*/examples/spin\".*\"pid\":$pid," "$j" |
		sed -n 's/.*"Id":\([0-9]*\),.*/\1/p' | head -n 1)
	grep -q "^{\"n\":\"Universal.System:ProcessExit\".*\"pid\":$pid," "$j" &&
		ok "$form: ProcessExit of spin" || bad "$form: no ProcessExit of pid $pid"
	# A fork copies mappings without records: the new process is given
	# its parent's (ehrecord's, until spin's exec), with their ids.
	inh=$(grep "^{\"n\":\"Universal.System:ProcessMapping\".*\"FileName\":\"[^\"]*ehrecord\".*\"pid\":$pid," "$j" |
		sed -n 's/.*"Id":\([0-9]*\),.*/\1/p' | head -n 1)
	if [ -n "$inh" ] && [ "$(grep -c "^{\"n\":\"Universal.System:ProcessMapping\",\"Id\":$inh," "$j")" -ge 2 ]; then
		ok "$form: spin's process has ehrecord's mappings from its fork (mapping $inh, also its parent's)"
	else
		bad "$form: no mapping of ehrecord inherited by pid $pid at its fork"
	fi
	grep "^{\"n\":\"Universal.Events:cpu\".*\"pid\":$pid," "$j" >"$tmp/spin.cpu"
	n=$(wc -l <"$tmp/spin.cpu")
	hot=$(grep -c '"spin+0x[0-9a-f]* spin_hot_loop+0x[0-9a-f]*"' "$tmp/spin.cpu")
	calls=$(grep -c 'spin_hot_loop+0x[0-9a-f]*",.*spin_work+0x' "$tmp/spin.cpu")
	# 400 ms of CPU at 999 Hz: about 400 samples; most in the hot loop.
	if [ "$n" -ge 100 ] && [ $((hot * 10)) -ge $((n * 7)) ] && [ $((calls * 10)) -ge $((n * 7)) ]; then
		ok "$form: CPU samples of spin: $n, $hot in spin_hot_loop, $calls with spin_work as its caller"
	else
		bad "$form: CPU samples of spin: $n, $hot in spin_hot_loop, $calls with spin_work as caller (want >= 100 and 70%)"
		head -n 3 "$tmp/spin.cpu"
	fi
	# The module offset is the function's address as nm gives it.
	got=$(grep -o '"spin+0x[0-9a-f]* spin_hot_loop+0x[0-9a-f]*"' "$tmp/spin.cpu" | head -n 1 |
		sed 's/"spin+0x\([0-9a-f]*\) spin_hot_loop+0x\([0-9a-f]*\)"/\1 \2/')
	if [ -n "$want" ] && [ -n "$got" ] &&
	   [ $((0x${got% *} - 0x${got#* })) = $((0x$want)) ]; then
		ok "$form: module offset - function offset = nm's address of spin_hot_loop (0x$want)"
	else
		bad "$form: offsets '$got' against nm's '$want'"
	fi
}

"$rec" -q -F perf --cpu-sampling=999 -o "$tmp/s.data" -- "$spin" 400 \
	>"$tmp/spin.out" 2>"$tmp/rec.err" || { cat "$tmp/rec.err"; bad "ehrecord --cpu-sampling: exit $?"; }
"$dec" --system -F jsonl -m n,pid,tid,comm,stack "$tmp/s.data" >"$tmp/s.jsonl" 2>"$tmp/dec.err" ||
	bad "ehdecode --system: exit $?: $(head -n 2 "$tmp/dec.err")"
check_spin "$tmp/s.jsonl" perf.data
spin_pid=$pid

# Symbol tables are read for the files a stack hits, no other: spin aimed
# at (-p command) maps its own files and, before its exec, ehrecord's.
"$rec" -F perf --cpu-sampling=999 -p command -o "$tmp/a.data" -- "$spin" 300 \
	>/dev/null 2>"$tmp/rec.err" || bad "ehrecord -p command -- spin: exit $?: $(head -n 2 "$tmp/rec.err")"
# Its summary counts the CPU samples of the file apart from its events
# (none): the kernel does not count them (a cpu-clock's count is time).
n=$("$dec" -F jsonl -m n "$tmp/a.data" 2>/dev/null | grep -c '^{"n":"cpu-clock"')
if [ "$n" -gt 0 ] &&
   grep -Eq "^ehrecord: wrote $tmp/a.data: 0 events and $n CPU samples, 0 lost, in [0-9.]+ s\$" "$tmp/rec.err"; then
	ok "-F perf --cpu-sampling: the summary says its $n CPU samples"
else
	bad "-F perf --cpu-sampling: summary ($n CPU samples in the file): $(tail -n 1 "$tmp/rec.err")"
fi
# Nor does its status line, on a terminal (script(1) makes one).
if script -qec true /dev/null >/dev/null 2>&1; then
	script -qec "$rec -F perf --cpu-sampling=999 -o $tmp/t.data -- $spin 1200" \
		/dev/null >"$tmp/tty" 2>&1 || bad "ehrecord --cpu-sampling on a terminal: exit $?"
	line=$(tr '\r' '\n' <"$tmp/tty" | grep -a '^ehrecord: [0-9.]* s, ' | head -n 1)
	if [[ $line =~ ^ehrecord:\ [0-9.]+\ s,\ 0\ events\ and\ CPU\ samples,\ 0\ lost, ]]; then
		ok "-F perf --cpu-sampling: the status line says CPU samples ($line)"
	else
		bad "-F perf --cpu-sampling: status line '$line'"
	fi
else
	echo "skipped: the status line (script(1) cannot make a terminal here)"
fi
"$dec" --system --stats -F jsonl -m stack "$tmp/a.data" >"$tmp/a.jsonl" 2>"$tmp/a.err"
read -r nsym nread < <(sed -n 's/.*symbol tables read from \([0-9]*\) of the \([0-9]*\) mapped files read$/\1 \2/p' "$tmp/a.err")
# (the modules of the frames: "libc.so.6+0x...", not "[kernel.kallsyms]+")
hit=$(grep -o '"[^"[0][^"]*+0x[0-9a-f]*[ "]' "$tmp/a.jsonl" | sed 's/^"\([^+]*\)+0x.*/\1/' | sort -u | wc -l)
if [ -n "$nsym" ] && [ "$nsym" = "$hit" ] && [ "$nread" -gt "$nsym" ]; then
	ok "symbol tables read from $nsym files, the $hit a frame is in, of the $nread mapped files read"
else
	bad "symbol tables read from '${nsym}' of '${nread}' mapped files; frames in $hit files"
	cat "$tmp/a.err"
fi

# perf script attributes the same frames of spin's process the same way:
# those in spin's .text, by file offset. (perf names a PLT entry
# "NAME@plt", or as the end of _init when it read a debug file, which has
# no PLT code; test-symbols compares PLT names with objdump's.) Other
# processes, such as tests running beside this one, are not compared.
if command -v perf >/dev/null; then
	read -r t0 tsize < <(readelf -SW "$spin" |
		sed -n 's/.* \.text *PROGBITS *[0-9a-f]* \([0-9a-f]*\) \([0-9a-f]*\) .*/\1 \2/p')
	in_text() {
		while read -r a f; do
			a=$((0x${a#spin+0x}))
			[ "$a" -ge $((0x$t0)) ] && [ "$a" -lt $((0x$t0 + 0x$tsize)) ] &&
				echo "$a $f"
		done | sort -u
	}
	perf script -i "$tmp/s.data" --pid "$spin_pid" 2>/dev/null |
		sed -n 's|^[[:space:]]*\([0-9a-f]*\) \([^ ]*+0x[0-9a-f]*\) (.*/examples/spin)$|spin+0x\1 \2|p' |
		in_text >"$tmp/perf.frames"
	grep "\"pid\":$spin_pid," "$tmp/s.jsonl" |
		grep -o '"spin+0x[0-9a-f]* [^"]*+0x[0-9a-f]*"' | tr -d '"' |
		in_text >"$tmp/our.frames"
	if [ -n "$t0" ] && [ -s "$tmp/perf.frames" ] &&
	   cmp -s "$tmp/perf.frames" "$tmp/our.frames"; then
		ok "perf script attributes spin's frames alike ($(wc -l <"$tmp/our.frames") distinct in .text)"
	else
		bad "frames of spin (pid $spin_pid, .text at offset 0x$t0) differ from perf script's"
		diff "$tmp/perf.frames" "$tmp/our.frames" | head -n 6
	fi
fi

# ---- the same in nettrace ----------------------------------------------------
"$rec" -q --cpu-sampling=999 -o "$tmp/s.nettrace" -- "$spin" 400 \
	>"$tmp/spin.out" 2>"$tmp/rec.err" || { cat "$tmp/rec.err"; bad "ehrecord --cpu-sampling (nettrace): exit $?"; }
"$dec" --strict -F jsonl -m n,pid,tid,comm,stack "$tmp/s.nettrace" >"$tmp/n.jsonl" 2>"$tmp/dec.err" &&
	ok "nettrace: read back under TraceEvent's rules (--strict)" ||
	bad "nettrace: ehdecode --strict: exit $?: $(head -n 2 "$tmp/dec.err")"
check_spin "$tmp/n.jsonl" nettrace
# 999 Hz is 1,001,001 ns between samples (the key's length byte is 7).
grep -qa "ExpectedCPUSamplingRate.1001001" "$tmp/s.nettrace" &&
	ok "nettrace: ExpectedCPUSamplingRate 1001001 (ns between samples)" ||
	bad "nettrace: no ExpectedCPUSamplingRate of 1001001"
# PerfView names functions by ProcessSymbol events: spin_hot_loop's, in
# spin's mapping, covering nm's address (once the mapping's offset is added).
sym=$(grep "^{\"n\":\"Universal.System:ProcessSymbol\",\"Id\":[0-9]*,\"MappingId\":${spin_map:-none},.*\"Name\":\"spin_hot_loop\"" "$tmp/n.jsonl" | head -n 1)
map=$(grep "^{\"n\":\"Universal.System:ProcessMapping\",\"Id\":${spin_map:-none}," "$tmp/n.jsonl" | head -n 1)
s0=$(echo "$sym" | sed -n 's/.*"StartAddress":"0x\([0-9A-F]*\)".*/\1/p')
m0=$(echo "$map" | sed -n 's/.*"StartAddress":"0x\([0-9A-F]*\)".*/\1/p')
mo=$(echo "$map" | sed -n 's/.*"FileOffset":"0x\([0-9A-F]*\)".*/\1/p')
if [ -n "$s0" ] && [ -n "$m0" ] && [ -n "$want" ] &&
   [ $((0x$s0 - 0x$m0 + 0x$mo)) = $((0x$want)) ]; then
	ok "nettrace: ProcessSymbol spin_hot_loop in spin's mapping $spin_map, at nm's address"
else
	bad "nettrace: ProcessSymbol of spin_hot_loop: '$sym' in mapping '$map' (nm: $want)"
fi
# Once per mapping, before the first sample that needs it.
nsym=$(grep -c "^{\"n\":\"Universal.System:ProcessSymbol\",\"Id\":[0-9]*,\"MappingId\":${spin_map:-none},.*\"Name\":\"spin_hot_loop\"" "$tmp/n.jsonl")
at_sym=$(grep -n -m 1 "^{\"n\":\"Universal.System:ProcessSymbol\",\"Id\":[0-9]*,\"MappingId\":${spin_map:-none},.*\"Name\":\"spin_hot_loop\"" "$tmp/n.jsonl" | cut -d: -f1)
# (spin's own samples: other tests may run copies of spin meanwhile)
at_use=$(grep -n -m 1 "^{\"n\":\"Universal.Events:cpu\".*\"pid\":$pid,.*spin_hot_loop" "$tmp/n.jsonl" | cut -d: -f1)
if [ "$nsym" = 1 ] && [ -n "$at_sym" ] && [ -n "$at_use" ] && [ "$at_sym" -lt "$at_use" ]; then
	ok "nettrace: spin_hot_loop named once (event $at_sym), before the first sample in it (event $at_use)"
else
	bad "nettrace: spin_hot_loop named $nsym times, at event ${at_sym:-none}, first used at ${at_use:-none}"
fi
# PerfView looks a frame's function up in the file of its build id, at
# address - mapping start + p_vaddr (page-aligned) from the mapping's
# metadata: the same function as the trace's ProcessSymbol, every frame.
if python3 "$(dirname "$0")/../common/perfview-lookup.py" "$tmp/n.jsonl" >"$tmp/lookup.out" 2>&1; then
	ok "nettrace: $(tail -n 1 "$tmp/lookup.out" | sed 's/^perfview-lookup: //') from PerfView's lookup (p_vaddr, p_offset)"
else
	bad "nettrace: PerfView's lookup: $(tr '\n' ' ' <"$tmp/lookup.out" | cut -c1-300)"
fi
# At its exec, spin's process ends and begins anew (spin_exec_anew).
if spin_exec_anew "$tmp/n.jsonl" "$pid" "$tmp/life"; then
	ok "nettrace: spin's exec ends the process (ProcessExit) and creates it anew, with spin's mappings only"
else
	bad "nettrace: spin's exec: $(tr '\n' ';' <"$tmp/life" | cut -c1-300)"
fi
# Its ProcessMappingMetadata carries the binary's build id.
bid=$(readelf -n "$spin" 2>/dev/null | sed -n 's/.*Build ID: \([0-9a-f]*\).*/\1/p')
mid=$(echo "$map" | sed -n 's/.*"MetadataId":\([0-9]*\),.*/\1/p')
if [ -n "$bid" ] && grep -q "^{\"n\":\"Universal.System:ProcessMappingMetadata\",\"Id\":${mid:-none},.*build_id[^0-9a-f]*$bid" "$tmp/n.jsonl"; then
	ok "nettrace: spin's mapping has metadata $mid with its build id $bid"
else
	bad "nettrace: no ProcessMappingMetadata $mid with build id '$bid'"
fi

# ---- where stacks end ----------------------------------------------------------
# A stack in the program's code reaches its thread's start when its
# outermost frame is in libc (glibc's start code has no frame pointers:
# the walk ends there) or the program (PerfView's rule: not glibc's
# dynamic loader): the main thread's in __libc_start_call_main, another thread's in start_thread (or
# __clone3).
# ehdecode --stats says how many stacks did not (PerfView's BROKEN).
tspin=$bin/tests/tools/thread-spin
"$rec" -q --cpu-sampling=999 -o "$tmp/t.nettrace" -- "$tspin" 400 2>"$tmp/rec.err" ||
	bad "ehrecord -- thread-spin: exit $?: $(head -n 2 "$tmp/rec.err")"
"$dec" --strict --stats -F jsonl -m n,pid,tid,comm,stack "$tmp/t.nettrace" \
	>"$tmp/t.jsonl" 2>"$tmp/t.err" || bad "ehdecode --strict (thread-spin): exit $?"
grep '^{"n":"Universal.Events:cpu".*"comm":"thread-spin".*"thread-spin+0x' "$tmp/t.jsonl" |
	sed -n 's/.*"pid":\([0-9]*\),"tid":\([0-9]*\),.*"stack":\[\(.*\)\]}}$/\1 \2 \3/p' |
	awk '{ n = split($0, f, "\",\""); last = f[n]; gsub(/"/, "", last);
	       split(last, w, " "); mod = w[1]; sub(/\+0x.*/, "", mod); fn = w[2]; sub(/\+0x.*/, "", fn);
	       print ($1 == $2 ? "main" : "other"), mod, fn }' >"$tmp/t.ends"
for who in main other; do
	n=$(grep -c "^$who " "$tmp/t.ends")
	case $who in
	main) root=$(grep -c '^main libc\.so\.6 __libc_start_call_main$' "$tmp/t.ends") ;;
	other) root=$(grep -cE '^other libc\.so\.6 (start_thread|__clone3)$' "$tmp/t.ends") ;;
	esac
	whole=$(grep "^$who " "$tmp/t.ends" | grep -cE "^$who (libc\.so\.6|thread-spin) ")
	if [ "$n" -ge 100 ] && [ $((whole * 100)) -ge $((n * 98)) ] && [ $((root * 10)) -ge $((n * 9)) ]; then
		ok "thread-spin, $who thread: $n stacks, $whole end in libc or itself, $root at its thread's start"
	else
		bad "thread-spin, $who thread: $n stacks, $whole end in libc or itself, $root at its thread's start (want >= 100, 98%, 90%)"
		grep "^$who " "$tmp/t.ends" | sort | uniq -c | sort -rn | head -n 4
	fi
done
if grep -qE '^ehdecode: .*: [0-9]+ stacks: [0-9]+ broken \([0-9.]+% of the [0-9]+ outside the idle task\)' "$tmp/t.err"; then
	ok "ehdecode --stats: $(grep -o '[0-9]* stacks: [0-9]* broken ([^)]*)' "$tmp/t.err")"
else
	bad "ehdecode --stats says nothing of stacks: $(head -n 2 "$tmp/t.err")"
fi
# Garbage past the outermost frame is cut and counted: thread-spin built
# without frame pointers and %rbp at a frame of garbage (nofp-spin) walks
# into it in every sample; read with --system, none of its stacks ends in
# an address outside its mappings, and (nearly) every one had a frame cut.
"$rec" -q -F perf --cpu-sampling=999 -o "$tmp/t.data" -- "$bin/tests/tools/nofp-spin" 300 \
	2>"$tmp/rec.err" || bad "ehrecord -F perf -- nofp-spin: exit $?"
"$dec" --system --stats -F jsonl -m comm,stack "$tmp/t.data" >"$tmp/t.jsonl" 2>"$tmp/t.err"
# (samples in its code: one taken at its exec, before its mappings are
# recorded, cannot be told)
n=$(grep '"comm":"nofp-spin".*"nofp-spin+0x' "$tmp/t.jsonl" | grep -c '"stack":')
g=$(grep '"comm":"nofp-spin".*"nofp-spin+0x' "$tmp/t.jsonl" | grep -c '"0x[0-9a-f]*"\]')
cut=$(sed -n 's/.* \([0-9]*\) frames past the outermost cut$/\1/p' "$tmp/t.err")
if [ "$n" -ge 100 ] && [ "$g" = 0 ] && [ "${cut:-0}" -ge $((n * 9 / 10)) ]; then
	ok "nofp-spin: $n stacks, none ending outside its mappings; $cut frames past the outermost cut"
else
	bad "nofp-spin: $n stacks, $g ending outside its mappings, '${cut}' frames cut (want >= 100, 0, >= $((n * 9 / 10)))"
fi
# ---- SPEC/stacks: stacks for that spec alone ---------------------------------
# (The third: the same spec twice, once with stacks, is one with stacks.)
for form in "-e sched:sched_process_exec/stacks" "-e sched:sched_process_exec --stacks" \
	    "-e sched:sched_process_exec -e sched:sched_process_exec/stacks"; do
	# shellcheck disable=SC2086 # the form is two or three words
	"$rec" -q -F perf -o "$tmp/k.data" $form \
		-e sched:sched_process_fork -- /bin/true 2>"$tmp/rec.err" ||
		bad "ehrecord $form: exit $?: $(head -n 2 "$tmp/rec.err")"
	"$dec" -F jsonl -m n,stack "$tmp/k.data" >"$tmp/k.jsonl"
	e=$(grep -c '^{"n":"sched:sched_process_exec",.*"stack":\["0x[0-9a-f]*"' "$tmp/k.jsonl")
	f=$(grep '^{"n":"sched:sched_process_fork"' "$tmp/k.jsonl" | grep -c '"stack"')
	if [ "$e" -ge 1 ] && [ "$f" = 0 ] && grep -q '^{"n":"sched:sched_process_fork"' "$tmp/k.jsonl"; then
		ok "$form: the exec event has its stack, the fork event (without) none"
	else
		bad "$form: $e exec events with a stack, $f fork events with one (want >= 1 and 0)"
	fi
done
# In nettrace, the functions of a tracepoint's stack are named by the
# file's ProcessSymbol events.
"$rec" -q -o "$tmp/k.nettrace" -e sched:sched_process_exec --stacks -- /bin/true 2>"$tmp/rec.err" ||
	bad "ehrecord --stacks to nettrace: exit $?: $(head -n 2 "$tmp/rec.err")"
"$dec" --strict -F jsonl -m n,stack "$tmp/k.nettrace" 2>"$tmp/dec.err" |
	grep -q '^{"n":"sched:sched_process_exec",.*"stack":\["\[kernel.kallsyms\]+0x[0-9a-f]* [a-z_]' &&
	ok "nettrace: the exec event's stack has named kernel frames" ||
	bad "nettrace: the exec event's stack is not named: $(head -n 1 "$tmp/dec.err")"
"$rec" --stacks -e sched:sched_process_exec -o "$tmp/x" >/dev/null 2>&1
[ $? = 2 ] && ok "--stacks before any -e: usage error" || bad "--stacks before any -e accepted"

# ---- off-CPU -------------------------------------------------------------------
# kernel_wakes JSONL: "OUTS WAKES": the shell's switch-outs, and its
# switch-ins after >= 15 ms off the CPU, in the kernel's raw sched_switch
# records decoded with their times (some kernels, this CI's host among
# them, now and then write none for a CPU leaving its idle task: no
# switch-in ends that wait)
kernel_wakes() {
	sed -n 's/^{"n":"sched:sched_switch","prev_comm":"\([^"]*\)","prev_pid":"\([^"]*\)",.*"next_comm":"\([^"]*\)","next_pid":"\([^"]*\)".*"time":"[^T]*T\([0-9]*\):\([0-9]*\):\([0-9.]*\)Z".*/\1 \2 \3 \4 \5 \6 \7/p' "$1" |
		awk '{ t = $5 * 3600 + $6 * 60 + $7 }
		     $1 == "sh" { out[$2] = t; outs++ }
		     $3 == "sh" && ($4 in out) && t - out[$4] >= 0.015 { n++ }
		     END { print outs + 0, n + 0 }'
}
# off_cpu FILE JSONL: FILE decoded (--strict --system, with times) into JSONL
off_cpu() {
	"$dec" --strict --system -F jsonl -m n,time,pid,tid,comm,stack "$1" >"$2" 2>"$tmp/dec.err" ||
		bad "ehdecode --system (off-cpu) $(basename "$1"): exit $?: $(head -n 1 "$tmp/dec.err")"
}
# long_waits JSONL: the shell's cswitch samples of >= 15 ms with a stack
long_waits() {
	grep '^{"n":"Universal.Events:cswitch"' "$1" | grep '"comm":"sh".*"stack":\["' |
		sed -n 's/.*"Value":\([0-9]*\),.*/\1/p' | awk '$1 >= 15000000' | wc -l
}
# exact_waits RAW JSONL LABEL: every wait of the shell that the kernel's
# raw sched_switch records in RAW (JSONL with times) end is one cswitch
# sample with a stack in JSONL; and the five sleeps give five such waits
# where the kernel records them all.
exact_waits() {
	local sw long outs wakes

	sw=$(grep -c '^{"n":"Universal.Events:cswitch","Value":[0-9]*,.*"comm":"sh"' "$2")
	long=$(long_waits "$2")
	read -r outs wakes <<<"$(kernel_wakes "$1")"
	if [ "$outs" -ge 5 ] && [ "$sw" -ge 5 ] && [ "$long" = "$wakes" ]; then
		ok "$3: cswitch samples of the shell: $sw, $long after >= 15 ms off the CPU (its sleeps), of $wakes such waits in the kernel's records"
		[ "$long" -ge 4 ] ||
			echo "note: the kernel recorded $wakes of the shell's 5 wake-ups after its sleeps"
	else
		bad "$3: cswitch samples of the shell: $sw, $long of >= 15 ms with a stack; the kernel's records: $outs switch-outs, $wakes such waits ended"
		grep '^{"n":"Universal.Events:cswitch"' "$2" | head -n 3
	fi
}
# kept_both LABEL JSONL: sched_switch events kept beside the cswitch samples
kept_both() {
	local raw csw

	raw=$(grep -c '^{"n":"sched:sched_switch",' "$2")
	csw=$(grep -c '^{"n":"Universal.Events:cswitch",' "$2")
	[ "$raw" -ge "$csw" ] && [ "$csw" -gt 0 ] &&
		ok "$1: $raw sched_switch events kept beside $csw cswitch samples" ||
		bad "$1: $raw sched_switch events, $csw cswitch samples (want the first >= the second > 0)"
}
# cswitch_only LABEL JSONL: cswitch samples, no sched_switch event
cswitch_only() {
	local raw csw

	raw=$(grep -c '^{"n":"sched:sched_switch",' "$2")
	csw=$(grep -c '^{"n":"Universal.Events:cswitch",' "$2")
	[ "$raw" = 0 ] && [ "$csw" -gt 0 ] &&
		ok "$1: $csw cswitch samples, no sched_switch event" ||
		bad "$1: $raw sched_switch events, $csw cswitch samples (want 0 and > 0)"
}
"$rec" -q -F perf --off-cpu -o "$tmp/o.data" -- sh -c 'for i in 1 2 3 4 5; do sleep 0.02; done' \
	2>"$tmp/rec.err" || { cat "$tmp/rec.err"; bad "ehrecord --off-cpu: exit $?"; }
off_cpu "$tmp/o.data" "$tmp/o.jsonl"
losses "$tmp/rec.err" "$tmp/dec.err"
# (a system trace's sched_switch records are cswitch samples: the raw ones
# from a second decode of the perf.data, without --system)
"$dec" -F jsonl -m n,time "$tmp/o.data" >"$tmp/o.raw.jsonl" 2>/dev/null
exact_waits "$tmp/o.raw.jsonl" "$tmp/o.jsonl" perf.data
cswitch_only "perf.data, --off-cpu alone" "$tmp/o.jsonl"
# With sched:sched_switch asked for as well, its perf.data read with
# --system keeps them, as the nettrace below does (its command line says so).
"$rec" -q -F perf --off-cpu --event=sched:sched_switch -o "$tmp/q.data" \
	-- sh -c 'sleep 0.02' 2>"$tmp/rec.err" ||
	{ cat "$tmp/rec.err"; bad "ehrecord -F perf --off-cpu --event=sched:sched_switch: exit $?"; }
off_cpu "$tmp/q.data" "$tmp/q.jsonl"
kept_both perf.data "$tmp/q.jsonl"
# The same to nettrace, with sched:sched_switch asked for as well: each
# sample is then in the file twice, as itself and as a cswitch, and the
# raw ones, in the same decode, give the kernel's count.
"$rec" -q --off-cpu -e sched:sched_switch -o "$tmp/o.nettrace" \
	-- sh -c 'for i in 1 2 3 4 5; do sleep 0.02; done' 2>"$tmp/rec.err" ||
	{ cat "$tmp/rec.err"; bad "ehrecord --off-cpu -e sched:sched_switch (nettrace): exit $?"; }
off_cpu "$tmp/o.nettrace" "$tmp/o.nt.jsonl"
losses "$tmp/rec.err" "$tmp/dec.err"
kept_both nettrace "$tmp/o.nt.jsonl"
exact_waits "$tmp/o.nt.jsonl" "$tmp/o.nt.jsonl" nettrace
# Without -e sched:sched_switch, --off-cpu gives the cswitch samples only.
"$rec" -q --off-cpu -o "$tmp/p.nettrace" -- sh -c 'sleep 0.02' 2>"$tmp/rec.err" ||
	{ cat "$tmp/rec.err"; bad "ehrecord --off-cpu (nettrace): exit $?"; }
off_cpu "$tmp/p.nettrace" "$tmp/p.nt.jsonl"
cswitch_only "nettrace, --off-cpu alone" "$tmp/p.nt.jsonl"
# Collecting live (ehdecode -e), the same: both, when asked for.
"$dec" --off-cpu -e sched:sched_switch -F jsonl -m n -- sh -c 'sleep 0.02' \
	>"$tmp/l.jsonl" 2>"$tmp/dec.err" ||
	bad "ehdecode --off-cpu -e sched:sched_switch: exit $?: $(head -n 1 "$tmp/dec.err")"
kept_both "ehdecode live" "$tmp/l.jsonl"
finish
