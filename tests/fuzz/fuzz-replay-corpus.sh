#!/bin/bash
# SPDX-License-Identifier: MIT
# fuzz-replay-corpus.sh - make check: every fuzz target on its whole
# in-tree corpus, tests/fuzz/corpus/TARGET/ (the seeds and what the
# libFuzzer campaigns found, minimised: see libfuzzer.sh). Each input is
# run as it is, then FUZZ_CORPUS_MUTATIONS (default 1000) seeded
# single-byte mutations of random ones (see replay.c). It needs nothing
# outside the tree, so it runs everywhere; in a build with
# --enable-sanitizers (as CI builds one) under ASan and UBSan.
#
# No input of a corpus (64 KiB at most) may have a parser ask for a
# gigabyte: under ASan such an allocation ends the run (a record that
# claims a size must not be allocated before it is read).
set -u
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}max_allocation_size_mb=1024:allocator_may_return_null=0"
src=$(cd "$(dirname "$0")" && pwd)
bin=${EH_BUILDDIR:-.}/tests/fuzz
n=0
for dir in "$src"/corpus/fuzz-*; do
	t=$(basename "$dir")
	"$bin/replay-${t#fuzz-}" -c -m "${FUZZ_CORPUS_MUTATIONS:-1000}" "$dir" ||
		{ echo "FAIL: $t on its corpus"; exit 1; }
	n=$((n + 1))
done
[ "$n" -eq 7 ] || { echo "FAIL: $n corpora, 7 expected"; exit 1; }
exit 0
