#!/bin/bash
# SPDX-License-Identifier: MIT
# fuzz-replay.sh - make check: the fuzz targets on the corpus records, all
# their prefixes and seeded mutations (see replay.c).
set -u
corpus=${EH_SHARED_DIR:-../shared}/conformance/eventheader/EventHeaderInterceptorLE64.dat
[ -r "$corpus" ] || { echo "SKIP: $corpus not found"; exit 77; }
exec "${EH_BUILDDIR:-.}/tests/fuzz/replay-enumerator" -m 10000 "$corpus"
