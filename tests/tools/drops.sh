#!/bin/bash
# SPDX-License-Identifier: MIT
#
# drops.sh - nothing is dropped or cut silently. tests/tools/perf-drops
# writes a perf.data holding one of each thing a reader or a writer cannot
# pass on as it is (see perf-drops.c); ehdecode converts it to every
# format, and for each:
#  - standard error says each count, with its cause: events lost, side-band
#    records lost, a throttle, a format that could not be read, a record
#    malformed (the reader's); data after an event's last field, a field its
#    record does not hold, an activity stop of nothing, a nettrace row that
#    would be too large (the writer's), an event whose declarations are
#    refused (its own line, the event still written);
#  - the output keeps what its format can: nettrace's trace keys
#    (ehd:EventsLost ...), Chrome's otherData, and every event (six);
#  - a nettrace appended to a file (which cannot be rewritten at its
#    start) holds them too when it is small enough to go out at the close.
set -u
bin=${EH_BUILDDIR:-.}
ehdecode=$bin/tools/ehdecode
tmp=$(mktemp -d "${TMPDIR:-/tmp}/drops.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/common/test-lib.sh
. "$(dirname "$0")/../common/test-lib.sh"

command -v python3 >/dev/null || skip "no python3 to read the outputs"
"$bin/tests/tools/perf-drops" >"$tmp/drops.data" ||
	{ bad "perf-drops could not write the test file"; finish; }
data=$tmp/drops.data

# says LABEL REGEX: a line of $tmp/err matches "ehdecode: REGEX"
says() {
	if grep -Eq -- "^ehdecode: $2" "$tmp/err"; then
		ok "$1"
	else
		bad "$1: no /$2/ in:"
		sed 's/^/	/' "$tmp/err"
	fi
}

# The reader's counts, the same whatever the output.
reader_says() {
	says "$1: 3 events lost" "$data: 3 events lost "
	says "$1: 4 side-band records lost" "$data: 4 thread names, mappings or other side-band records were lost"
	says "$1: 1 throttle" "$data: 1 THROTTLE records"
	says "$1: 1 format not read" "$data: 1 tracepoint formats could not be read"
	says "$1: 1 malformed record" "$data: 1 malformed records were skipped"
	says "$1: the refused declaration, with its offset" "$data: offset [0-9]+: tracepoint Drops_L4K1: byte [0-9]+ of its EventHeader data: field 'f': unknown encoding 0"
	says "$1: 1 event with trailing data" "1 EventHeader events had data after their last field"
}

for f in jsonl chrome heph nettrace; do
	"$ehdecode" -F "$f" "$data" >"$tmp/out.$f" 2>"$tmp/err"
	rc=$?
	# 1: the input held a damaged event (still written, said)
	if [ "$rc" = 1 ]; then ok "$f: exit 1 for the damaged event"; else bad "$f: exit $rc"; fi
	reader_says "$f"
	case $f in
	nettrace)
		says "$f: 1 event untyped" "1 events needed more metadata than a nettrace row holds"
		says "$f: the short record said" "$data: offset [0-9]+: tracepoint short_ev: .*payload shorter than its fields"
		;;
	*)
		says "$f: 1 field cut" "1 events had fields their record does not hold"
		;;
	esac
	case $f in
	chrome|heph) says "$f: 1 stop of nothing" "1 activity starts or stops paired with nothing" ;;
	esac
done

# Every event is in each output.
n=$(grep -c '"n":' "$tmp/out.jsonl")
[ "$n" = 6 ] && ok "jsonl: 6 events" || bad "jsonl: $n events, want 6"
"$ehdecode" -F jsonl "$tmp/out.nettrace" >"$tmp/back" 2>"$tmp/err" &&
	n=$(grep -c '"n":' "$tmp/back")
[ "$n" = 6 ] && ok "nettrace: 6 events read back" || bad "nettrace: $n events read back, want 6"
grep -q '"n":"user_events:Drops_L4K1"' "$tmp/back" &&
	ok "nettrace: the refused and untyped events written as their tracepoint's records" ||
	bad "nettrace: no user_events:Drops_L4K1 record"

# The counts in the outputs that have a place for them.
python3 - "$tmp/out.chrome" <<'PY' >"$tmp/py" 2>&1
import json, sys
d = json.load(open(sys.argv[1]))['otherData']
want = {'eventsLost': 3, 'eventsFieldsCut': 1, 'eventsTrailingData': 1,
	'activitiesUnmatched': 1}
bad = ['%s=%s (want %s)' % (k, d.get(k), v) for k, v in want.items()
       if d.get(k) != v]
print('; '.join(bad) or 'ok')
PY
[ "$(cat "$tmp/py")" = ok ] && ok "chrome: otherData counts" ||
	bad "chrome: otherData: $(cat "$tmp/py")"

# trace_keys FILE: the key=value pairs of a nettrace Trace block
trace_keys() {
	python3 - "$1" <<'PY'
import struct, sys
f = open(sys.argv[1], 'rb').read()
h, = struct.unpack_from('<I', f, 20)
assert h >> 24 == 1, 'no Trace block'
b = f[24:24 + (h & 0xffffff)]
o = 16 + 8 + 8 + 4
n, = struct.unpack_from('<I', b, o)
o += 4
def var():
	global o
	v = s = 0
	while True:
		c = b[o]; o += 1; v |= (c & 0x7f) << s; s += 7
		if c < 0x80:
			return v
for i in range(n):
	l = var(); k = b[o:o + l].decode(); o += l
	l = var(); v = b[o:o + l].decode(); o += l
	print('%s=%s' % (k, v))
PY
}

trace_keys "$tmp/out.nettrace" >"$tmp/keys" 2>&1
for kv in ehd:EventsLost=00000000000000000003 \
	  ehd:EventsUntyped=00000000000000000001 \
	  ehd:EventsTrailingData=00000000000000000001 \
	  ehd:EventsNotWritten=00000000000000000000; do
	grep -qx -- "$kv" "$tmp/keys" && ok "nettrace: $kv" ||
		bad "nettrace: no $kv in: $(tr '\n' ' ' <"$tmp/keys")"
done

# Appended to, the file cannot be rewritten at its start: a trace this
# small goes out whole at the close, counts in; standard error says them.
: >"$tmp/append.nettrace"
"$ehdecode" -F nettrace "$data" >>"$tmp/append.nettrace" 2>"$tmp/err"
says "appended nettrace: counts said" "1 events needed more metadata than a nettrace row holds"
trace_keys "$tmp/append.nettrace" >"$tmp/keys" 2>&1
grep -qx 'ehd:EventsLost=00000000000000000003' "$tmp/keys" &&
	ok "appended nettrace: its counts" ||
	bad "appended nettrace: no ehd:EventsLost=...3 in: $(tr '\n' ' ' <"$tmp/keys")"

finish
