#!/bin/bash
# SPDX-License-Identifier: MIT
#
# utf8-outputs.sh - every output that promises UTF-8 is well-formed UTF-8,
# for each of the corpus files (perf.data and pipe.data hold deliberately
# ill-formed strings: UTF-32 values past U+10FFFF, which the reference
# renders as 6- and 7-byte sequences):
#  - Chrome JSON: Python's strict UTF-8 decoder and its json module take
#    it; the U+FFFD written instead are counted on standard error and in
#    otherData.utf8Replaced;
#  - CSV: the same decoder, and Python's csv module in strict mode reads
#    it: a header of six cells, rows of six and name,value pairs;
#  - JSON, JSON lines and text with --utf8=strict: the same (a JSON
#    document may start with a byte order mark);
#  - Heph and nettrace: ehdecode --strict reads them back, which refuses
#    any string that is not well-formed UTF-8;
#  - by default JSON stays the reference's, byte for byte
#    (ehdecode-corpus.sh compares it with the reference's own output):
#    here, that it still holds the ill-formed bytes.
set -u
shared=${EH_SHARED_DIR:-../shared}/conformance/eventheader
bin=${EH_BUILDDIR:-.}
ehdecode=$bin/tools/ehdecode
tmp=$(mktemp -d "${TMPDIR:-/tmp}/utf8-outputs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/common/test-lib.sh
. "$(dirname "$0")/../common/test-lib.sh"

[ -r "$shared/perf.data" ] || skip "corpus not found under $shared"
command -v python3 >/dev/null || skip "no python3 for the strict UTF-8 check"

# strict_utf8 KIND FILE: Python decodes FILE as UTF-8 (strictly) and, for
# json and jsonl, parses it
strict_utf8() {
	python3 - "$1" "$2" <<'PY'
import json, sys
kind, path = sys.argv[1], sys.argv[2]
data = open(path, 'rb').read()
try:
	text = data.decode('utf-8-sig' if kind == 'json' else 'utf-8')
except UnicodeDecodeError as e:
	print('byte %d: %s' % (e.start, e.reason))
	sys.exit(1)
try:
	if kind in ('json', 'chrome'):
		json.loads(text)
	elif kind == 'csv':
		import csv, io
		rows = list(csv.reader(io.StringIO(text, newline=''), strict=True))
		bad = [i for i, r in enumerate(rows) if len(r) < 6 or len(r) % 2]
		if rows[0] != ['time', 'cpu', 'pid', 'tid', 'provider', 'event'] or bad:
			raise ValueError('row %d: not 6 cells and name,value pairs' % bad[0])
	elif kind == 'jsonl':
		for line in text.splitlines():
			json.loads(line)
except ValueError as e:
	print('not JSON: %s' % e)
	sys.exit(1)
PY
}

for f in perf.data pipe.data EventHeaderInterceptorLE64.dat; do
	in=$shared/$f
	for form in chrome csv json jsonl text; do
		opt=(--utf8=strict)
		[ "$form" = chrome ] || [ "$form" = csv ] && opt=()
		out=$tmp/$f.$form
		if ! "$ehdecode" -F "$form" "${opt[@]}" -o "$out" "$in" 2>"$tmp/err"; then
			bad "$f -F $form: exit $?: $(head -n 2 "$tmp/err")"
			continue
		fi
		if why=$(strict_utf8 "$form" "$out"); then
			ok "$f -F $form ${opt[*]}: well-formed UTF-8$(sed -n 's/^ehdecode: \([0-9]*\) ill-formed UTF-8.*/ (\1 U+FFFD written, said)/p' "$tmp/err")"
		else
			bad "$f -F $form ${opt[*]}: $why"
		fi
	done
	for form in heph nettrace; do
		out=$tmp/$f.$form
		if ! "$ehdecode" -F "$form" -o "$out" "$in" 2>"$tmp/err"; then
			bad "$f -F $form: exit $?: $(head -n 2 "$tmp/err")"
			continue
		fi
		if "$ehdecode" --strict -F jsonl -o /dev/null "$out" 2>"$tmp/err2"; then
			ok "$f -F $form: every string well-formed UTF-8 (strict reader)"
		else
			bad "$f -F $form: $(head -n 1 "$tmp/err2")"
		fi
	done
done

# The count is said, and is that of the ill-formed parts: perf.data has
# two such strings of 7 and 6 bytes, each in two events.
"$ehdecode" -F chrome -o "$tmp/c.json" "$shared/perf.data" 2>"$tmp/err"
if grep -q '^ehdecode: 26 ill-formed UTF-8 sequences were written as U+FFFD$' "$tmp/err"; then
	ok "perf.data -F chrome: 26 U+FFFD, said on standard error"
else
	bad "perf.data -F chrome: count not said as expected: $(cat "$tmp/err")"
fi
n=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["otherData"].get("utf8Replaced"))' "$tmp/c.json")
[ "$n" = 26 ] && ok "perf.data -F chrome: otherData.utf8Replaced is 26" ||
	bad "perf.data -F chrome: otherData.utf8Replaced is '$n', not 26"
# By default JSON is the reference's: the ill-formed bytes are there.
"$ehdecode" -F jsonl -o "$tmp/ref.jsonl" "$shared/perf.data"
if strict_utf8 text "$tmp/ref.jsonl" >/dev/null; then
	bad "default JSON lines: no ill-formed bytes (the reference's output has them)"
else
	ok "default JSON lines: as the reference writes them (ill-formed, on purpose)"
fi
finish
