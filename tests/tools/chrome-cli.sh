#!/bin/bash
# SPDX-License-Identifier: MIT
#
# chrome-cli.sh - ehdecode -F chrome on the reference corpus, read back
# with jq:
#  - --help names the format; -o FILE writes one JSON document;
#  - one trace event per decoded event (-F jsonl gives the count), and
#    every "ts" is written MICROSECONDS.NNN and equals the event's time
#    less the first one's, to the nanosecond (from -F jsonl's meta.time);
#  - several inputs make one document; a stop without a start and events
#    without a time are counted on standard error; -m none leaves "meta"
#    out of "args".
set -u
dir=${EH_SHARED_DIR:-../shared}/conformance/eventheader
bin=${EH_BUILDDIR:-.}
ehdecode=$bin/tools/ehdecode
# shellcheck source=tests/common/test-lib.sh
. "$(dirname "$0")/../common/test-lib.sh"
command -v jq >/dev/null || skip "jq not found (apt-get install jq)"
[ -r "$dir/perf.data" ] || skip "reference corpus not found under $dir"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/chrome-cli.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# same LABEL WANT GOT
same() {
	if [ "$2" = "$3" ]; then ok "$1 ($3)"; else bad "$1: got '$3', want '$2'"; fi
}

"$ehdecode" --help | grep -q '^ *chrome ' && ok "--help names chrome" ||
	bad "--help does not name chrome"

"$ehdecode" -F chrome -o "$tmp/perf.json" "$dir/perf.data" 2>"$tmp/err"
same "ehdecode -F chrome -o perf.json: exit" 0 $?
grep -q 'activity starts or stops paired with nothing' "$tmp/err" &&
	ok "the corpus's stops without a start are counted" ||
	bad "no count of unmatched stops on standard error"
jq -e . "$tmp/perf.json" >/dev/null && ok "perf.json is JSON" ||
	bad "perf.json is not JSON"

"$ehdecode" -F jsonl -m time "$dir/perf.data" >"$tmp/perf.jsonl"
events=$(wc -l <"$tmp/perf.jsonl")
same "trace events = decoded events" "$events" \
	"$(jq '[.traceEvents[] | select(.ph != "M")] | length' "$tmp/perf.json")"
same "every event is an instant (no activities in the corpus)" "$events" \
	"$(jq '[.traceEvents[] | select(.ph == "i" and .s == "t")] | length' "$tmp/perf.json")"
same "process and thread names given" 13 \
	"$(jq '[.traceEvents[] | select(.ph == "M")] | length' "$tmp/perf.json")"
same "perf (pid 2002) named" '"perf"' \
	"$(jq -c '.traceEvents[] | select(.ph == "M" and .name == "process_name" and .pid == 2002) | .args.name' "$tmp/perf.json")"

# The ts text of each trace event (one a line, written after "ph"), in ns.
str='"\([^"\\]\|\\.\)*"'
LC_ALL=C sed -n "s/^{\"name\":$str,\"cat\":$str,\"ph\":\"[BEi]\",\"ts\":\([^,]*\),.*/\3/p" \
	"$tmp/perf.json" >"$tmp/ts.txt"
same "ts written as MICROSECONDS.NNN" 0 \
	"$(grep -cvE '^-?[0-9]+\.[0-9]{3}$' "$tmp/ts.txt")"
while read -r t; do
	sign=
	case $t in -*) sign=-; t=${t#-} ;; esac
	echo "$sign$((10#${t/./}))"
done <"$tmp/ts.txt" >"$tmp/ts.ns"
# The times of -F jsonl, in ns from the first (exact in jq's doubles).
jq -r '.meta.time | [(.[0:19] + "Z" | fromdateiso8601), (.[20:29] | tonumber)]
	| @tsv' "$tmp/perf.jsonl" |
	awk -F'\t' 'NR == 1 { s0 = $1; n0 = $2 }
		{ printf "%.0f\n", ($1 - s0) * 1000000000 + ($2 - n0) }' >"$tmp/want.ns"
if cmp -s "$tmp/ts.ns" "$tmp/want.ns"; then
	ok "every ts is the event's time, exact to the ns ($events events)"
else
	bad "ts differ from the events' times:"
	diff "$tmp/want.ns" "$tmp/ts.ns" | head -n 5
fi

"$ehdecode" -F chrome -m none "$dir/perf.data" "$dir/pipe.data" \
	"$dir/EventHeaderInterceptorLE64.dat" >"$tmp/all.json" 2>"$tmp/err"
same "three inputs: exit" 0 $?
want=$(( events + $("$ehdecode" -F jsonl "$dir/pipe.data" | wc -l) +
	$("$ehdecode" -F jsonl "$dir/EventHeaderInterceptorLE64.dat" | wc -l) ))
same "three inputs: one document, every event" "$want" \
	"$(jq '[.traceEvents[] | select(.ph != "M")] | length' "$tmp/all.json")"
same "-m none: no meta in args" 0 \
	"$(jq '[.traceEvents[] | .args.meta // empty] | length' "$tmp/all.json")"
grep -q '374 events without a time' "$tmp/err" &&
	ok "the capture's events without a time are counted" ||
	bad "no count of events without a time on standard error"
same "otherData counts them" 374 "$(jq .otherData.eventsUntimed "$tmp/all.json")"

finish
