#!/bin/bash
# SPDX-License-Identifier: MIT
#
# heph-cli.sh - Heph traces through the ehdecode tool:
#  - the format specification's example trace (its metadata and event
#    packets, written here byte by byte) read as JSON lines is the event
#    the specification describes;
#  - a damaged trace: "ehdecode: FILE: offset N: reason", exit 1;
#  - -F heph to a terminal is refused (exit 2);
#  - each corpus file converted with -F heph and read back gives the same
#    events, in the same order, with the same times, pids and tids; an
#    interceptor capture (no times) says its events were written at 0;
#  - a Heph trace converted again with -F heph is the same bytes;
#  - -F nettrace of a Heph trace is refused with a reason.
set -u
shared=${EH_SHARED_DIR:-../shared}/conformance/eventheader
bin=${EH_BUILDDIR:-.}
ehdecode=$bin/tools/ehdecode
tmp=$(mktemp -d "${TMPDIR:-/tmp}/heph-cli.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/common/test-lib.sh
. "$(dirname "$0")/../common/test-lib.sh"


# The specification's two examples: an epoch packet, then an event.
spec=$tmp/spec.bin.log
heph_example "$spec"
[ "$(stat -c %s "$spec")" -eq 114 ] || bad "the example trace is not 23 + 91 bytes"

want='{"n":"My event","Test":123,"Test2":[123.456,789],"duration_ns":100,"meta":{"time":"2021-01-08T13:48:54.118010100Z","pid":0,"tid":1}}'
got=$("$ehdecode" -F jsonl -m n,time,pid,tid "$spec")
[ "$got" = "$want" ] && ok "the specification's example reads as it says" ||
	bad "the specification's example: $got"
# From standard input (not a file) too.
got=$("$ehdecode" -F jsonl -m n,time,pid,tid - <"$spec")
[ "$got" = "$want" ] && ok "the example from standard input" ||
	bad "the example from standard input: $got"
got=$("$ehdecode" -F text "$spec")
[ "$got" = '2021-01-08T13:48:54.118010100Z 0/1 My event Test=123 Test2=[123.456,789] duration_ns=100' ] &&
	ok "the example as text" || bad "the example as text: $got"

# heph -> heph: the same bytes.
"$ehdecode" -F heph -o "$tmp/again.bin.log" "$spec" &&
	cmp -s "$spec" "$tmp/again.bin.log" && ok "the example written again is the same bytes" ||
	bad "the example written again differs"

# Damaged: a magic that is not one, a size past the end of the file.
cp "$spec" "$tmp/magic.bin.log"
printf '\xc1\xfc\x1f\xb8' | dd of="$tmp/magic.bin.log" bs=1 seek=23 conv=notrunc 2>/dev/null
"$ehdecode" -F jsonl "$tmp/magic.bin.log" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 1 ] && grep -q "^ehdecode: $tmp/magic.bin.log: offset 23: bad magic 0xc1fc1fb8" "$tmp/err" &&
	ok "bad magic: offset and reason, exit 1" || bad "bad magic: exit $rc, $(cat "$tmp/err")"
head -c 100 "$spec" >"$tmp/short.bin.log"
"$ehdecode" -F jsonl "$tmp/short.bin.log" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 1 ] && grep -q "offset 27: event packet of 91 bytes goes past the end of the file (77 bytes left)" "$tmp/err" &&
	ok "size beyond the file: offset and reason, exit 1" || bad "size beyond the file: exit $rc, $(cat "$tmp/err")"

# Binary output to a terminal is refused (script gives the tool one).
if command -v script >/dev/null; then
	script -qc "$ehdecode -F heph $spec; echo rc=\$?" /dev/null >"$tmp/tty" 2>&1
	grep -q "heph is binary: give -o FILE or redirect the output" "$tmp/tty" &&
		grep -q "rc=2" "$tmp/tty" && ok "-F heph to a terminal refused, exit 2" ||
		bad "-F heph to a terminal: $(cat "$tmp/tty")"
fi

"$ehdecode" -F nettrace -o "$tmp/x.nettrace" "$spec" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 1 ] && grep -q "cannot be written as nettrace" "$tmp/err" &&
	ok "-F nettrace of a Heph trace refused" || bad "-F nettrace of a Heph trace: exit $rc"

if [ ! -r "$shared/perf.data" ]; then
	[ "$failed" = 0 ] || finish
	skip "reference corpus not found under $shared (the checks above ran)"
fi

# Name, time, pid and tid of each event, one per line (the capture has
# no context: there, the name only). The values may not be UTF-8.
identity() {
	if [ "$1" = EventHeaderInterceptorLE64.dat ]; then
		LC_ALL=C sed 's/^{"n":"\([^"]*\)".*$/\1/'
	else
		LC_ALL=C sed 's/^{"n":"\([^"]*\)".*\("meta":{[^}]*}\)}$/\1 \2/'
	fi
}

for f in perf.data pipe.data EventHeaderInterceptorLE64.dat; do
	in=$shared/$f
	out=$tmp/$f.bin.log
	"$ehdecode" -F heph -o "$out" "$in" 2>"$tmp/err" ||
		{ bad "ehdecode -F heph $f exited $?: $(cat "$tmp/err")"; continue; }
	"$ehdecode" -F jsonl -m n,time,pid,tid "$in" | identity "$f" >"$tmp/want"
	"$ehdecode" -F jsonl -m n,time,pid,tid "$out" | identity "$f" >"$tmp/got"
	if [ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/got"; then
		ok "$f -> heph -> jsonl: $(wc -l <"$tmp/got") events, same names and context"
	else
		bad "$f -> heph -> jsonl differs"
		diff "$tmp/want" "$tmp/got" | head -n 4 | cut -c1-200
	fi
	"$ehdecode" -F heph -o "$tmp/again" "$out" && cmp -s "$out" "$tmp/again" &&
		ok "$f.bin.log written again is the same bytes" ||
		bad "$f.bin.log written again differs"
done
grep -q "^ehdecode: 374 events had no time and were written at time 0$" "$tmp/err" &&
	ok "events without time counted" || bad "events without time: $(cat "$tmp/err")"
finish
