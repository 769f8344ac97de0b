#!/bin/bash
# SPDX-License-Identifier: MIT
#
# run-formats.sh - what each output format costs an event, in instructions
# counted by callgrind: a count that does not move with the machine's load,
# so that a change to a writer (or to the reader they share) is measured to
# the instruction in one run. "make bench" runs it.
#
# usage: run-formats.sh [EHDECODE [GEN_PERF]]
#   EHDECODE   the built tool (default: tools/ehdecode)
#   GEN_PERF   the built generator (default: bench/gen-perf)
#
# bench/gen-perf writes perf.data files of N and 2N samples made from the
# conformance corpus's perf.data, of two mixes:
#   corpus  its samples in turn: sched_switch and EventHeader events of
#           every kind the reference tests, from a machine of many CPUs;
#   one     its TestProviderC:CScalars3 event (a struct of a string and a
#           char array) alone, over and over: most recordings are of a few
#           kinds of event, which take the reader's shortest path.
# For each format and mix, EHDECODE -F FORMAT -o FILE (a regular file, as
# ehrecord writes: Chrome and Heph then keep what a cut for want of room
# needs) runs under callgrind on both sizes; the cost of an event is the
# difference of the two counts over N, which leaves out what a run costs
# whatever its length (loading, the file's headers, the ending). Each line
# gives it, and its ratio to the cheapest format of the mix.
#
# Environment:
#   EH_SHARED_DIR      the shared folder (default: ../shared beside the source)
#   LIBTOOL            the build's libtool ("make bench" passes it), so that
#                      a libtool wrapper of EHDECODE is not what gets counted
#   BENCH_FORMATS_N    N (default 20000)
#
# Exit status: 0; 1 if a run failed (or the "one" mix is not that event);
# 77 if the corpus file or valgrind is not there.
set -u -o pipefail

me='run-formats'
srcdir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
# shellcheck source=tests/common/test-lib.sh
. "$srcdir/tests/common/test-lib.sh"	# bench_*, real_program
tool=${1:-tools/ehdecode}
gen=${2:-bench/gen-perf}
n=${BENCH_FORMATS_N:-20000}

bench_corpus
if ! command -v valgrind >/dev/null; then
	echo "SKIP: $me: no valgrind (apt-get install valgrind)"
	exit 77
fi
bench_built "$tool" "$gen"
case $n in '' | *[!0-9]* | 0) echo "$me: BENCH_FORMATS_N: not a count: $n" >&2; exit 1 ;; esac
real_program	# tool, run
# (callgrind would count libtool's wrapper, a shell)
head -c 2 "$tool" | grep -q '^#!' && exit 1
bench_tmp formats
# the index of the "one" mix's sample among the corpus's, in file order
one=$("${run[@]}" "$tool" -F jsonl --sort file "$corpus" 2>/dev/null |
	grep -n -m 1 '"n":"TestProviderC:CScalars3"' | cut -d: -f1)
[ -n "$one" ] || { echo "$me: no TestProviderC:CScalars3 in $corpus" >&2; exit 1; }
for k in 1 2; do
	if ! "$gen" -c "$((k * n))" "$corpus" "$out/corpus.$k.data" >/dev/null ||
	   ! "$gen" -c -s "$((one - 1))" "$((k * n))" "$corpus" \
		"$out/one.$k.data" >/dev/null; then
		echo "$me: gen-perf $((k * n)) failed" >&2
		exit 1
	fi
done
# (the index counts what ehdecode gives out: it must be gen-perf's too)
if [ "$("${run[@]}" "$tool" -F jsonl "$out/one.1.data" 2>/dev/null |
	grep -c '^{"n":"TestProviderC:CScalars3"')" != "$n" ]; then
	echo "$me: gen-perf -s $((one - 1)) did not repeat TestProviderC:CScalars3" >&2
	exit 1
fi

# count FORMAT MIX K: the instructions of one conversion of K*N samples
count() {
	local log=$out/cg.log
	"${run[@]}" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		"$tool" -F "$1" -o "$out/out" "$out/$2.$3.data" 2>"$log" ||
		{ echo "$me: ehdecode -F $1 failed: $(grep -v '^==' "$log" | head -n 2)" >&2; return 1; }
	sed -n 's/^==[0-9]*== Collected : \([0-9]*\).*/\1/p' "$log"
}

echo "== instructions per event, ehdecode -F FORMAT -o FILE, $n and $((2 * n)) samples (callgrind)"
status=0
for mix in corpus one; do
	: >"$out/results.$mix"
	for fmt in jsonl json text csv nettrace chrome heph; do
		if ! a=$(count "$fmt" "$mix" 1) || ! b=$(count "$fmt" "$mix" 2) ||
		   [ -z "$a" ] || [ -z "$b" ]; then
			status=1
			echo "$fmt -" >>"$out/results.$mix"
			continue
		fi
		echo "$fmt $(((b - a) / n))" >>"$out/results.$mix"
	done
done
printf '  %-9s %12s %8s %12s %8s\n' '' corpus '' one ''
printf '  %-9s %12s %8s %12s %8s\n' format instr/event ratio instr/event ratio
paste -d ' ' "$out/results.corpus" "$out/results.one" | awk '
	function r(c, m) { return c == "-" ? "-" : sprintf("%.2f", c / m) }
	{
		f[NR] = $1; a[NR] = $2; b[NR] = $4
		if ($2 != "-" && (!ma || $2 + 0 < ma)) ma = $2 + 0
		if ($4 != "-" && (!mb || $4 + 0 < mb)) mb = $4 + 0
	}
	END {
		for (i = 1; i <= NR; i++)
			printf "  %-9s %12s %8s %12s %8s\n", f[i], a[i], r(a[i], ma),
				b[i], r(b[i], mb)
	}'
exit $status
