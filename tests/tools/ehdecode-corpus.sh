#!/bin/bash
# SPDX-License-Identifier: MIT
#
# ehdecode-corpus.sh - the ehdecode tool on the reference corpus:
#  - "-F jsonl --sort file" gives, line for line, the events of the
#    reference decoder's JSON (the .dat rendered with field tags; its
#    expected file has spaces, which are taken out to compare);
#  - "-F json --sort file --field-tags" on the .dat is the reference's
#    document, braces and all;
#  - pipe.data read from a pipe on standard input decodes as from the file;
#  - "--sort time" (the default) gives the same events as file order, and
#    "-F text" one line per event.
set -u
dir=${EH_SHARED_DIR:-../shared}/conformance/eventheader
bin=${EH_BUILDDIR:-.}
ehdecode=$bin/tools/ehdecode
compact=$bin/tests/tools/json-compact
[ -r "$dir/perf.data.linux.json" ] || { echo "SKIP: reference corpus not found under $dir"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ehdecode-corpus.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0

# The events of a reference .linux.json file, one per line, as written.
expected_events() {
	sed -n '3,$p' "$1" | sed 's/^ //; s/ ]$//; s/,$//'
}

same() {	# same LABEL WANT GOT
	if cmp -s "$2" "$3"; then
		echo "ok: $1 ($(wc -l <"$3") lines)"
	else
		echo "FAIL: $1"
		diff "$2" "$3" | head -n 6 | cut -c1-300
		fail=1
	fi
}

for f in perf.data pipe.data; do
	expected_events "$dir/$f.linux.json" >"$tmp/$f.want"
	"$ehdecode" -F jsonl --sort file "$dir/$f" >"$tmp/$f.got" ||
		{ echo "FAIL: ehdecode $f exited $?"; fail=1; }
	same "$f: jsonl equals the reference's events" "$tmp/$f.want" "$tmp/$f.got"
done

f=EventHeaderInterceptorLE64.dat
expected_events "$dir/$f.linux.json" | "$compact" >"$tmp/dat.want"
"$ehdecode" -F jsonl --field-tags --sort file "$dir/$f" >"$tmp/dat.got" ||
	{ echo "FAIL: ehdecode $f exited $?"; fail=1; }
same "$f: jsonl equals the reference's events" "$tmp/dat.want" "$tmp/dat.got"

# The whole document: BOM, {, the reference's member, }.
{ printf '\357\273\277{'; tail -c +4 "$dir/$f.linux.json" | head -c -1; printf '\n}\n'; } >"$tmp/doc.want"
(cd "$dir" && "$ehdecode" -F json --field-tags --sort file "$f") >"$tmp/doc.got"
same "$f: json document equals the reference's" "$tmp/doc.want" "$tmp/doc.got"

# Pipe mode from a pipe on standard input.
cat "$dir/pipe.data" | "$ehdecode" -F jsonl --sort file - >"$tmp/stdin.got"
same "pipe.data from standard input" "$tmp/pipe.data.want" "$tmp/stdin.got"

# Time order holds the same events, in time order (the files are not:
# their events come per CPU).
inversions() {
	grep -o '"time":"[^"]*"' "$1" | awk '$0 < prev { n++ } { prev = $0 } END { print n + 0 }'
}
for f in perf.data pipe.data; do
	"$ehdecode" -F jsonl "$dir/$f" >"$tmp/$f.time"
	sort "$tmp/$f.time" >"$tmp/$f.time.sorted"
	sort "$tmp/$f.want" >"$tmp/$f.sorted"
	same "$f: --sort time has the same events" "$tmp/$f.sorted" "$tmp/$f.time.sorted"
	a=$(inversions "$tmp/$f.want")
	b=$(inversions "$tmp/$f.time")
	if [ "$a" -gt 0 ] && [ "$b" -eq 0 ]; then
		echo "ok: $f: --sort time is in time order (file order has $a inversions)"
	else
		echo "FAIL: $f: $b time inversions with --sort time, $a in file order"
		fail=1
	fi
done

# Text: one line per event.
n=$("$ehdecode" -F text "$dir/perf.data" | wc -l)
if [ "$n" -eq "$(wc -l <"$tmp/perf.data.want")" ]; then
	echo "ok: text has one line per event ($n)"
else
	echo "FAIL: text has $n lines"
	fail=1
fi
exit $fail
