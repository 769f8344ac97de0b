#!/bin/bash
# SPDX-License-Identifier: MIT
# fuzz-replay.sh - make check: the fuzz targets on the corpus records, all
# their prefixes and seeded mutations (see replay.c).
#
# replay-reader (the public reader and writer) takes each whole corpus
# file as one input: its prefixes at every -s bytes and -m single-byte
# mutations (10000 in all). The steps keep this script near a minute in a
# build with --enable-sanitizers.
set -u
dir=${EH_SHARED_DIR:-../shared}/conformance/eventheader
bin=${EH_BUILDDIR:-.}/tests/fuzz
[ -r "$dir/EventHeaderInterceptorLE64.dat" ] || { echo "SKIP: $dir not found"; exit 77; }
"$bin/replay-enumerator" -m 10000 "$dir/EventHeaderInterceptorLE64.dat" &&
	"$bin/replay-perf" -w -s 97 -m 3000 "$dir/perf.data" &&
	"$bin/replay-perf" -w -s 97 -m 3000 "$dir/pipe.data" &&
	"$bin/replay-reader" -w -s 11 -m 4000 "$dir/EventHeaderInterceptorLE64.dat" &&
	"$bin/replay-reader" -w -s 13 -m 3000 "$dir/perf.data" &&
	"$bin/replay-reader" -w -s 41 -m 3000 "$dir/pipe.data" || exit 1

# Inputs that once failed (fuzz-perf's findings), each whole and with 200
# mutations.
src=$(cd "$(dirname "$0")" && pwd)
for f in "$src"/perf-regress/*; do
	"$bin/replay-perf" -w -m 200 "$f" >/dev/null ||
		{ echo "FAIL: regression input $(basename "$f")"; exit 1; }
	echo "ok: regression input $(basename "$f")"
done
