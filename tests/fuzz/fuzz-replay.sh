#!/bin/bash
# SPDX-License-Identifier: MIT
# fuzz-replay.sh - make check: the fuzz targets on the corpus records, all
# their prefixes and seeded mutations (see replay.c).
set -u
dir=${EH_SHARED_DIR:-../shared}/conformance/eventheader
bin=${EH_BUILDDIR:-.}/tests/fuzz
[ -r "$dir/EventHeaderInterceptorLE64.dat" ] || { echo "SKIP: $dir not found"; exit 77; }
"$bin/replay-enumerator" -m 10000 "$dir/EventHeaderInterceptorLE64.dat" &&
	"$bin/replay-perf" -w -s 97 -m 3000 "$dir/perf.data" &&
	"$bin/replay-perf" -w -s 97 -m 3000 "$dir/pipe.data"
