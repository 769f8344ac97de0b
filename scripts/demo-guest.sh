#!/bin/bash
# demo-guest.sh BUILDDIR - the demo proper, as root on a kernel with
# user_events: record the providers example with ehrecord to nettrace and
# decode it; then record the hello example with perf and decode that with
# ehdecode, as text and as JSON; then a system trace: examples/spin sampled
# at 1000 Hz with its own events' stacks, to nettrace, and where it spent
# its time.
#
# perf needs the tracepoint to exist when it starts, before hello registers
# it, so it is made first through tracefs' dynamic_events with the fields
# of every EventHeader tracepoint (what a pre-registration does); hello's
# own registration then shares it.
set -euo pipefail
build=$1
t=/sys/kernel/tracing
tp=EhExample_Hello_L4K1
dir=$(mktemp -d "${TMPDIR:-/tmp}/eh-demo.XXXXXX")
trap 'echo "!u:$tp" >>"$t/dynamic_events" 2>/dev/null || true; rm -rf "$dir"' EXIT

echo "demo: ehrecord -e EhExample_Alpha -e EhExample_Beta -- examples/providers -w 2"
"$build/tools/ehrecord" -q -o "$dir/trace.nettrace" -e EhExample_Alpha \
	-e EhExample_Beta -- "$build/examples/providers" -w 2 | sed 's/^/  /'
echo "demo: ehdecode -F text trace.nettrace"
"$build/tools/ehdecode" -F text "$dir/trace.nettrace" | sed 's/^/  /'
n=$("$build/tools/ehdecode" -F jsonl "$dir/trace.nettrace" | grep -c '"n":"EhExample_' || true)
echo "demo: $n events in the nettrace file (expected 8)"
[ "$n" = 8 ]

echo "u:$tp u8 eventheader_flags; u8 version; u16 id; u16 tag; u8 opcode; u8 level" \
	>>"$t/dynamic_events"
echo "demo: perf record -k monotonic -e user_events:$tp -- examples/hello 3"
perf record -q -k monotonic -e "user_events:$tp" -o "$dir/perf.data" -- "$build/examples/hello" 3
echo "demo: ehdecode -F text perf.data"
"$build/tools/ehdecode" -F text "$dir/perf.data" | sed 's/^/  /'
echo "demo: ehdecode -F jsonl --meta all perf.data (the first event)"
"$build/tools/ehdecode" -F jsonl --meta all "$dir/perf.data" | head -n 1 | sed 's/^/  /'
n=$("$build/tools/ehdecode" -F jsonl "$dir/perf.data" | grep -c '"n":"EhExample_Hello:' || true)
echo "demo: $n events decoded (expected 4)"
[ "$n" = 4 ]

echo "demo: ehrecord --cpu-sampling -e EhExample_Spin_L4K1 --stacks -- examples/spin 300"
"$build/tools/ehrecord" -q --cpu-sampling -e EhExample_Spin_L4K1 --stacks \
	-o "$dir/spin.nettrace" -- "$build/examples/spin" 300 | sed 's/^/  /'
"$build/tools/ehdecode" -F jsonl -m n,comm,stack "$dir/spin.nettrace" >"$dir/spin.jsonl"
echo "demo: spin's CPU samples by their three innermost functions (ehdecode -m stack)"
# shellcheck disable=SC2016 # awk's own $i
grep '^{"n":"Universal.Events:cpu".*"comm":"spin"' "$dir/spin.jsonl" |
	sed -n 's/.*"stack":\["\([^]]*\)"\].*/\1/p' |
	awk -F '","' '{ s = ""; for (i = 1; i <= 3 && i <= NF; i++) {
		f = $i; sub(/^[^ ]* /, "", f); sub(/\+0x[0-9a-f]*$/, "", f)
		s = s (i > 1 ? " <- " : "") f } print s }' |
	sort | uniq -c | sort -rn | head -n 3 | sed 's/^/  /'
echo "demo: its first Round event, with the stack it was written from"
grep -m 1 '^{"n":"EhExample_Spin:Round"' "$dir/spin.jsonl" | sed 's/^/  /'
n=$(grep -c '^{"n":"Universal.Events:cpu".*"comm":"spin".*spin_hot_loop' "$dir/spin.jsonl" || true)
echo "demo: $n CPU samples of spin in spin_hot_loop (expected some)"
[ "$n" -gt 0 ]
