#!/bin/bash
# SPDX-License-Identifier: MIT
#
# nettrace-corpus.sh - nettrace through the ehdecode tool:
#  - round trip: each EventHeader corpus file (perf.data, pipe-mode
#    pipe.data, interceptor .dat) converted to nettrace and read back gives
#    the same JSON lines, every meta member shown (identities, activity
#    ids, times, cpus, pids, common fields), as decoding it directly; the
#    text form too;
#  - structure: each converted file passes the strict reader (TraceEvent's
#    rules, docs/nettrace-mapping.md); the interceptor capture, which has no
#    times, gets a sync time that is not tick 0 (TraceEvent's debug build
#    asserts on it), read from the file's bytes;
#  - the .NET files: the number of events per provider equals what
#    TraceEvent's reader reads (provider-counts.json), with stacks;
#  - a truncated file gives its events before the damage, then an error
#    with the offset, exit 1.
set -u
shared=${EH_SHARED_DIR:-../shared}/conformance
bin=${EH_BUILDDIR:-.}
ehdecode=$bin/tools/ehdecode
[ -r "$shared/eventheader/perf.data" ] || { echo "SKIP: corpus not found under $shared"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nettrace-corpus.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0

same() {	# same LABEL WANT GOT
	if cmp -s "$2" "$3"; then
		echo "ok: $1 ($(wc -l <"$3") lines)"
	else
		echo "FAIL: $1"
		diff "$2" "$3" | head -n 6 | cut -c1-300
		fail=1
	fi
}

for f in perf.data pipe.data EventHeaderInterceptorLE64.dat; do
	in=$shared/eventheader/$f
	nt=$tmp/$f.nettrace
	"$ehdecode" -F nettrace --stats -o "$nt" "$in" 2>"$tmp/stats" ||
		{ echo "FAIL: ehdecode -F nettrace $f exited $?"; fail=1; continue; }
	echo "   $(cat "$tmp/stats")"
	for form in jsonl text; do
		"$ehdecode" -F "$form" -m all --field-tags "$in" >"$tmp/want"
		"$ehdecode" -F "$form" -m all --field-tags "$nt" >"$tmp/got" ||
			{ echo "FAIL: reading $f.nettrace exited $?"; fail=1; }
		same "$f -> nettrace -> $form equals the direct decode" \
			"$tmp/want" "$tmp/got"
	done
	if "$ehdecode" --strict -F jsonl -o /dev/null "$nt" 2>"$tmp/err"; then
		echo "ok: $f.nettrace passes the strict reader"
	else
		echo "FAIL: $f.nettrace: strict reader: $(cat "$tmp/err")"
		fail=1
	fi
done

# The Trace block's SyncTimeTicks: magic (8), reserved, major, minor (12),
# the block's header (4), the sync date (16 bytes), then the u64.
sync=$(od -A n -t u8 -j 40 -N 8 "$tmp/EventHeaderInterceptorLE64.dat.nettrace" | tr -d ' ')
if [ -n "$sync" ] && [ "$sync" != 0 ]; then
	echo "ok: a capture without times: sync time at tick $sync, not 0"
else
	echo "FAIL: a capture without times: sync time at tick '${sync}'"
	fail=1
fi
# ... and a file whose sync time is at tick 0 is refused by --strict.
cp "$tmp/EventHeaderInterceptorLE64.dat.nettrace" "$tmp/sync0.nettrace"
dd if=/dev/zero of="$tmp/sync0.nettrace" bs=1 seek=40 count=8 conv=notrunc status=none
if ! "$ehdecode" --strict -F jsonl -o /dev/null "$tmp/sync0.nettrace" 2>"$tmp/err" &&
   grep -q 'sync time at tick 0' "$tmp/err"; then
	echo "ok: --strict refuses a sync time at tick 0: $(cat "$tmp/err")"
else
	echo "FAIL: --strict took a sync time at tick 0"
	fail=1
fi

# Not in time order: pipe.data in file order has inversions; the writer
# sorts each window and the result still passes the strict reader.
"$ehdecode" -F nettrace --sort file -o "$tmp/file-order.nettrace" \
	"$shared/eventheader/pipe.data" 2>"$tmp/err"
if "$ehdecode" --strict -F jsonl "$tmp/file-order.nettrace" >"$tmp/got" &&
   "$ehdecode" -F jsonl "$shared/eventheader/pipe.data" >"$tmp/want"; then
	same "pipe.data in file order -> nettrace: events in time order" \
		"$tmp/want" "$tmp/got"
else
	echo "FAIL: file-order conversion not strict-valid"; fail=1
fi

# Reading nettrace: events per provider against TraceEvent's counts.
counts="$shared/nettrace/provider-counts.json"
if [ -r "$counts" ]; then
	for f in $(sed -n 's/^ "\([^"]*\)": {$/\1/p' "$counts"); do
		want=$(sed -n "/^ \"$f\": {/,/^ }/p" "$counts" |
			sed -n 's/^  "\([^"]*\)": \([0-9]*\),\{0,1\}$/\1 \2/p' | sort)
		got=$("$ehdecode" -F jsonl -m n "$shared/nettrace/$f" 2>"$tmp/err" |
			sed -n 's/^{"n":"\([^:"]*\):.*/\1/p' | sort | uniq -c |
			awk '{ print $2, $1 }' | sort)
		if [ -s "$tmp/err" ]; then
			echo "FAIL: $f: $(cat "$tmp/err")"; fail=1
		elif [ "$want" = "$got" ]; then
			echo "ok: $f: events per provider equal TraceEvent's ($(echo $got))"
		else
			echo "FAIL: $f: events per provider"; echo "want: $want"; echo "got:  $got"
			fail=1
		fi
	done
	# Values as TraceEvent's baselines show them (v3, v5 arrays, UTF-16;
	# TestEvent3's text starts with U+E7A3, as in the baseline), and an
	# event's identity (id, level, keyword) in its meta.
	for want in \
	    'eventpipe-dotnetcore2.1-linux-x64-tracelogging.netperf|"n":"MySource:TestEventMethod","i":1,"s":"Hello World!"' \
	    'eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace|"arg0":[2032854139,1608221689,1470019200,199494339,1238846140,1366609043],"arg1":[26494,17115,-7229,18850,27931],"arg2":2033417279' \
	    'eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace|"n":"TestEventSource0:TestEvent3","arg0":"㎯隍ᳯ诤"' \
	    'eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace|"tid":23560,"id":5,"level":2,"keyword":"0xF00000000000"}}'; do
		f=${want%%|*}
		v=${want#*|}
		if "$ehdecode" -F jsonl "$shared/nettrace/$f" | grep -qF -- "$v"; then
			echo "ok: $f: has $v"
		else
			echo "FAIL: $f: no event with $v"; fail=1
		fi
	done
	# Stacks of the samples are read: every SampleProfiler event has one.
	f=mixed_managed_external_samples.nettrace
	n=$("$ehdecode" -F text "$shared/nettrace/$f" | grep -c 'SampleProfiler')
	echo "   $f: $n SampleProfiler events"
else
	echo "SKIP: $counts not found (nettrace counts)"
fi

# A truncated file: the events before the damage, an error, exit 1.
nt=$tmp/perf.data.nettrace
"$ehdecode" -F jsonl "$shared/eventheader/perf.data" >"$tmp/all"
size=$(stat -c %s "$nt")
head -c $((size * 2 / 3)) "$nt" >"$tmp/cut.nettrace"
"$ehdecode" -F jsonl "$tmp/cut.nettrace" >"$tmp/got" 2>"$tmp/err"
rc=$?
n=$(wc -l <"$tmp/got")
head -n "$n" "$tmp/all" >"$tmp/want"
if [ $rc -eq 1 ] && [ "$n" -gt 10 ] && cmp -s "$tmp/want" "$tmp/got" &&
   grep -q 'cut.nettrace: offset [0-9]*: truncated' "$tmp/err"; then
	echo "ok: truncated nettrace: its first $n events, then: $(cat "$tmp/err")"
else
	echo "FAIL: truncated nettrace: exit $rc, $n events, $(cat "$tmp/err")"; fail=1
fi

# Converting nettrace to nettrace is refused, not mangled.
if "$ehdecode" -F nettrace -o "$tmp/again" "$nt" 2>"$tmp/err"; then
	echo "FAIL: nettrace -> nettrace accepted"; fail=1
else
	echo "ok: nettrace -> nettrace refused: $(cat "$tmp/err")"
fi
exit $fail
