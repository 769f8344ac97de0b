#!/bin/bash
# SPDX-License-Identifier: MIT
#
# ehdecode-cli.sh - the ehdecode command line and its errors:
#  - --help and --version print to standard output and exit 0; a usage
#    error prints one line and a hint to standard error and exits 2;
#  - a file that cannot be opened, or that is not a trace: one line
#    "ehdecode: FILE: ..." and exit 1;
#  - a damaged (truncated) pipe-mode file: every event before the damage
#    is written, then "ehdecode: FILE: offset N: reason", exit 1;
#  - a damaged event inside a good file: still written (as raw bytes),
#    one line naming its offset and reason, the other events all written,
#    exit 1;
#  - -o FILE, --meta, -F text;
#  - standard output to a file that finds no room ends, complete, after
#    the events that fit;
#  - outputs never destroy data: a missing input (a typo) changes no
#    output file and prints nothing to standard output; a run that fails
#    half-way (a truncated input) or is killed leaves an existing output
#    as it was and no partial file; a good run replaces it whole.
set -u
dir=${EH_SHARED_DIR:-../shared}/conformance/eventheader
bin=${EH_BUILDDIR:-.}
ehdecode=$bin/tools/ehdecode
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ehdecode-cli.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/common/test-lib.sh
. "$(dirname "$0")/../common/test-lib.sh"

check() {	# check LABEL WANT_EXIT COMMAND...: runs it, output in $tmp/out|err
	local label=$1 want=$2 rc

	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		bad "$label: exit $rc, want $want"
		head -n 3 "$tmp/err"
		return 1
	fi
	ok "$label (exit $rc)"
}

expect() {	# expect LABEL FILE EXTENDED-REGEX
	if grep -Eq -- "$3" "$2"; then
		ok "$1"
	else
		bad "$1: no /$3/ in:"
		head -n 3 "$2" | cut -c1-200
	fi
}

check "--help" 0 "$ehdecode" --help
expect "--help says how to use it" "$tmp/out" '^Usage: ehdecode \[OPTION\]\.\.\. FILE'
expect "--help explains the exit status" "$tmp/out" '^Exit status'
check "-V" 0 "$ehdecode" -V
expect "-V prints the version" "$tmp/out" '^ehdecode \(eventheader\) [0-9]'
check "no file" 2 "$ehdecode"
expect "usage error hint" "$tmp/err" "^Try 'ehdecode --help'"
check "unknown option" 2 "$ehdecode" --bogus x
check "unknown format" 2 "$ehdecode" -F xml x
expect "unknown format named" "$tmp/err" '^ehdecode: unknown format .*: xml$'
check "unknown meta" 2 "$ehdecode" --meta time,bogus x
check "unknown sort" 2 "$ehdecode" --sort size x
check "missing file" 1 "$ehdecode" "$tmp/none.data"
expect "missing file named" "$tmp/err" "^ehdecode: $tmp/none.data: No such file or directory$"
printf 'hello, world\n' >"$tmp/text.txt"
check "not a trace" 1 "$ehdecode" "$tmp/text.txt"
expect "not a trace said" "$tmp/err" "^ehdecode: $tmp/text.txt: offset 0: unknown input kind"
: >"$tmp/empty"
check "empty file" 1 "$ehdecode" "$tmp/empty"
expect "empty file said" "$tmp/err" "^ehdecode: $tmp/empty: offset 0: empty input"

# What the output cannot show is said: lost events, samples of no event.
"$bin/tests/tools/perf-lost" >"$tmp/lost.data" ||
	bad "perf-lost could not write the test file"
check "lost events" 0 "$ehdecode" -F jsonl "$tmp/lost.data"
expect "lost events counted" "$tmp/err" "^ehdecode: $tmp/lost.data: 7 events lost \\(from 2 LOST and LOST_SAMPLES records\\)$"
expect "unknown ids counted" "$tmp/err" "^ehdecode: $tmp/lost.data: 1 samples of an unknown event id \\(written as raw\\)$"
[ "$(wc -l <"$tmp/out")" -eq 2 ] && ok "both samples written" ||
	bad "$(wc -l <"$tmp/out") samples written, want 2"

if [ ! -r "$dir/pipe.data" ]; then
	[ "$failed" = 0 ] || finish
	skip "reference corpus not found under $dir (the checks above passed)"
fi

# Truncated pipe-mode data: the events before the damage, then the error.
"$ehdecode" -F jsonl --sort file "$dir/pipe.data" >"$tmp/full"
head -c 120004 "$dir/pipe.data" >"$tmp/cut.data"
check "truncated pipe.data" 1 "$ehdecode" -F jsonl --sort file "$tmp/cut.data"
expect "truncation: offset and reason" "$tmp/err" "^ehdecode: $tmp/cut.data: offset [0-9]+: .*truncated"
n=$(wc -l <"$tmp/out")
if [ "$n" -gt 100 ] && head -n "$n" "$tmp/full" | cmp -s - "$tmp/out"; then
	ok "the $n events before the damage are written"
else
	bad "truncated file gave $n events, not a prefix of the full decode"
fi
# The same from standard input: same events, same message.
check "truncated pipe.data on stdin" 1 "$ehdecode" -F jsonl --sort file - <"$tmp/cut.data"
expect "stdin truncation said" "$tmp/err" "^ehdecode: -: offset [0-9]+: .*truncated"
[ "$(wc -l <"$tmp/out")" -eq "$n" ] && ok "stdin gives the same events" ||
	bad "stdin gave $(wc -l <"$tmp/out") events, file $n"

# A damaged event in a good capture: written raw, reported, the rest kept.
f=$dir/EventHeaderInterceptorLE64.dat
{
	head -c 4 "$f"
	tail -c +5 "$f" | head -c "$(($(tail -c +5 "$f" | head -c 300 | tr '\0' '\n' | head -n 1 | wc -c)))"
	printf '\377'
	tail -c +"$((5 + $(tail -c +5 "$f" | head -c 300 | tr '\0' '\n' | head -n 1 | wc -c) + 1))" "$f"
} >"$tmp/bad.dat"
check "damaged event" 1 "$ehdecode" -F jsonl "$tmp/bad.dat"
expect "damaged event: offset and reason" "$tmp/err" "^ehdecode: $tmp/bad.dat: offset 0: tracepoint .*: byte 0 of its EventHeader data: unknown header flags 0xFF$"
expect "damaged event written raw" "$tmp/out" '^\{"n":"[^"]*","raw":"ff '
[ "$(wc -l <"$tmp/out")" -eq 374 ] && ok "all 374 events written" ||
	bad "$(wc -l <"$tmp/out") events written, want 374"

# A failed output: one line naming it, exit 1.
if [ -w /dev/full ]; then
	check "output to a full device" 1 "$ehdecode" -F jsonl -o /dev/full "$dir/perf.data" "$dir/pipe.data"
	expect "full device said" "$tmp/err" '^ehdecode: /dev/full: No space left on device$'
	[ "$(wc -l <"$tmp/err")" -eq 1 ] && ok "said once" ||
		bad "$(wc -l <"$tmp/err") lines on stderr"
fi

# A typo or a bad input destroys nothing: outputs are made once every
# input is open, written under another name and renamed when complete.
for fmt in json jsonl nettrace chrome heph; do
	printf 'KEEP %s\n' "$fmt" >"$tmp/keep.$fmt"
	check "-F $fmt, a missing input" 1 "$ehdecode" -F "$fmt" -o "$tmp/keep.$fmt" \
		"$dir/pipe.data" "$tmp/typo.data"
	if [ "$(cat "$tmp/keep.$fmt")" = "KEEP $fmt" ]; then
		ok "-F $fmt: the existing output is untouched"
	else
		bad "-F $fmt: a missing input changed the output"
	fi
	check "-F $fmt, an input cut half-way" 1 "$ehdecode" -F "$fmt" \
		-o "$tmp/keep.$fmt" "$tmp/cut.data"
	if [ "$(cat "$tmp/keep.$fmt")" = "KEEP $fmt" ]; then
		ok "-F $fmt: a run failed half-way left the output as it was"
	else
		bad "-F $fmt: a failed run changed the output"
	fi
	check "-F $fmt, standard output, a missing input" 1 "$ehdecode" \
		-F "$fmt" "$tmp/typo.data" "$dir/pipe.data"
	if [ ! -s "$tmp/out" ]; then
		ok "-F $fmt: nothing on standard output before the inputs are known"
	else
		bad "-F $fmt: $(wc -c <"$tmp/out") bytes written before the missing input was found"
	fi
done
# A run ended by a signal leaves no partial file either: ehdecode, its
# output begun, waits on a pipe that does not end, and is killed (SIGTERM:
# a background job ignores SIGINT).
echo "KEEP sig" >"$tmp/keep.sig"
mkfifo "$tmp/fifo"
"$ehdecode" -F jsonl -o "$tmp/keep.sig" - <"$tmp/fifo" 2>"$tmp/sig.err" &
dp=$!
exec 7>"$tmp/fifo"
cat "$dir/pipe.data" >&7
until_ok 5 compgen -G "$tmp/keep.sig.part-*" >/dev/null ||
	bad "no partial file in 5 s: the run to be killed has not begun its output"
kill -TERM $dp
wait $dp
rc=$?
exec 7>&-
if [ $rc = 143 ] && [ "$(cat "$tmp/keep.sig")" = "KEEP sig" ] &&
   ! ls "$tmp"/keep.sig.part-* >/dev/null 2>&1; then
	ok "killed half-way: the output as it was, no partial file"
else
	bad "killed half-way: exit $rc, output '$(head -c 20 "$tmp/keep.sig")', partial files: $(ls "$tmp"/keep.sig.part-* 2>/dev/null)"
fi
if ls "$tmp"/keep.*.part-* >/dev/null 2>&1; then
	bad "partial files left: $(ls "$tmp"/keep.*.part-*)"
else
	ok "no partial file left behind"
fi
check "a good run replaces the output" 0 "$ehdecode" -F jsonl -o "$tmp/keep.jsonl" \
	"$dir/pipe.data"
[ "$(wc -l <"$tmp/keep.jsonl")" -eq "$(wc -l <"$tmp/full")" ] &&
	ok "replaced whole" || bad "not replaced"
# Through a symbolic link the file it names is replaced; what is no
# regular file is written in place.
ln -s keep.jsonl "$tmp/link.jsonl"
check "-o a symbolic link" 0 "$ehdecode" -F jsonl -o "$tmp/link.jsonl" "$f"
[ -L "$tmp/link.jsonl" ] && [ "$(wc -l <"$tmp/keep.jsonl")" -eq 374 ] &&
	ok "the link stays, the file it names is replaced" ||
	bad "-o through a link"
check "-o /dev/null" 0 "$ehdecode" -F jsonl -o /dev/null "$f"
[ -c /dev/null ] && ok "/dev/null is still a device" ||
	bad "/dev/null was replaced"

# Standard output to a file that finds no room (ulimit -f 100, SIGXFSZ
# ignored; the limit falls in the first of two inputs): it ends, complete,
# after the events that fit, exit 1, one line that says how many. Before,
# it stopped mid-event.
both=("$dir/perf.data" "$dir/pipe.data")
"$ehdecode" -F jsonl "${both[@]}" >"$tmp/both.jsonl"
for fmt in jsonl json chrome nettrace; do
	lim=100
	[ $fmt = nettrace ] && lim=50	# (all of it takes 91 KiB)
	( trap '' XFSZ; ulimit -f $lim; exec "$ehdecode" -F $fmt "${both[@]}" ) \
		>"$tmp/room.$fmt" 2>"$tmp/err"
	rc=$?
	n=$(sed -n 's/^ehdecode: standard output: no room (.*): it ends, complete, after the first \([0-9]*\) events$/\1/p' "$tmp/err")
	case $fmt in
	jsonl)	got=$(jq -c . "$tmp/room.$fmt" | wc -l)
		head -n "${n:-0}" "$tmp/both.jsonl" | cmp -s - "$tmp/room.$fmt" ||
			got="not the first $n lines" ;;
	json)	got=$(jq '[.[] | length] | add' "$tmp/room.$fmt") ;;
	chrome)	got=$(jq '[.traceEvents[] | select(.ph != "M")] | length' \
			"$tmp/room.$fmt") ;;
	nettrace)	# (one window holds them all: a trace of none)
		got=$("$ehdecode" --strict -F jsonl "$tmp/room.$fmt" | wc -l) ;;
	esac
	if [ "$rc" = 1 ] && [ -n "$n" ] && [ "$got" = "$n" ] &&
	   { [ "$n" -gt 0 ] || [ $fmt = nettrace ]; }; then
		ok "-F $fmt to standard output, no room: $n events, complete"
	else
		bad "-F $fmt to standard output, no room: exit $rc, said '$n', read '$got': $(head -n 2 "$tmp/err")"
	fi
done

# -o, --meta, text.
check "-o FILE" 0 "$ehdecode" -F jsonl -o "$tmp/o.jsonl" "$dir/pipe.data"
[ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/o.jsonl")" -eq "$(wc -l <"$tmp/full")" ] &&
	ok "-o wrote the events there" || bad "-o"
check "--meta provider,event,level" 0 "$ehdecode" -F jsonl --meta provider,event,level "$f"
expect "--meta shows what was asked" "$tmp/out" '"meta":\{"provider":"TestProviderC","event":"[^"]*","level":5\}'
if grep -q '^{"n":\|"meta":{"time"' "$tmp/out"; then
	bad "--meta showed what was not asked"
fi
check "--meta common" 0 "$ehdecode" -F jsonl --meta default,common "$dir/perf.data"
expect "--meta common adds common fields" "$tmp/out" '"common_pid":'
check "-F text" 0 "$ehdecode" -F text "$f"
expect "text line" "$tmp/out" '^- TestProviderC:Default V8=200 V16=60000 .* \| level=5$'
expect "text: structs, arrays of structs" "$tmp/out" '^- TestProviderC:Packed five=5 Struct1=\{NChar8="hjkl"\} StructArray=\[\{Struct2=\{K="A" NChar16="68 00 6a 00 6b 00 6c 00"\}\},\{Struct2=\{K="B" '
check "-F text --field-tags" 0 "$ehdecode" -F text --field-tags "$f"
expect "text: field tags" "$tmp/out" '^- TestProviderC:CScalars3 Struct20;tag=0xBEEF=\{hi;tag=0x12="hi" ch10;tag=0x10=\["H","o","w"\]\} \| level=4 keyword=0x85 id=1000 version=11 opcode=3 tag=0x1234$'
finish
