#!/bin/bash
# SPDX-License-Identifier: MIT
# fuzz-replay-nettrace.sh - make check: fuzz-nettrace (the nettrace reader
# and the writers) on nettrace files, their prefixes and seeded mutations
# (see replay.c).
#
# Seeds: the three EventHeader corpus files converted by ehdecode -F
# nettrace (v6), and the .NET files of conformance/nettrace (v3, v4).
# For each seed: every prefix of its first 4 KiB; about FUZZ_PREFIXES
# prefixes spread over the whole file (default 2000); FUZZ_MUTATIONS
# single-byte mutations of it (default 1500). A run decodes its whole
# input, so files over 100 KB get FUZZ_PREFIXES_LARGE (300) and
# FUZZ_MUTATIONS_LARGE (150), and their first 64 KiB (a truncated file)
# is a seed of its own with the default counts. The defaults keep this
# near two minutes in a build with --enable-sanitizers.
set -u
shared=${EH_SHARED_DIR:-../shared}/conformance
bin=${EH_BUILDDIR:-.}/tests/fuzz
ehdecode=${EH_BUILDDIR:-.}/tools/ehdecode
np=${FUZZ_PREFIXES:-2000}
nm=${FUZZ_MUTATIONS:-1500}
np_large=${FUZZ_PREFIXES_LARGE:-300}
nm_large=${FUZZ_MUTATIONS_LARGE:-150}
[ -r "$shared/eventheader/perf.data" ] && [ -d "$shared/nettrace" ] ||
	{ echo "SKIP: $shared/eventheader or $shared/nettrace not found"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/eh-fuzz-nettrace.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# replay FILE PREFIXES MUTATIONS: every prefix of the first 4 KiB, about
# PREFIXES prefixes over the rest, MUTATIONS mutations of the whole file.
replay() {
	local f=$1 np=$2 nm=$3 size step cut

	size=$(stat -c %s "$f")
	cut=$tmp/$(basename "$f").4k
	head -c 4096 "$f" >"$cut"
	"$bin/replay-nettrace" -w -s 1 -m 0 "$cut" || return 1
	if [ "$size" -gt 4096 ]; then
		# replay.c steps by 1 past the last multiple of the step: cut
		# the file there, so that no run of prefixes ends it.
		step=$(( (size + np - 1) / np ))
		cut=$tmp/$(basename "$f").$step
		head -c $(( size / step * step )) "$f" >"$cut"
		"$bin/replay-nettrace" -w -s "$step" -m 0 "$cut" || return 1
	fi
	# A step of the whole size: only the empty and the whole input.
	"$bin/replay-nettrace" -w -s "$size" -m "$nm" "$f"
}

for f in perf.data pipe.data EventHeaderInterceptorLE64.dat; do
	"$ehdecode" -F nettrace -o "$tmp/$f.nettrace" "$shared/eventheader/$f" ||
		{ echo "FAIL: ehdecode -F nettrace $f"; exit 1; }
done
n=0
for f in "$tmp"/*.nettrace "$shared"/nettrace/*.nettrace \
	 "$shared"/nettrace/*.netperf; do
	if [ "$(stat -c %s "$f")" -le 100000 ]; then
		replay "$f" "$np" "$nm" || exit 1
	else
		head -c 65536 "$f" >"$tmp/$(basename "$f").64k"
		replay "$tmp/$(basename "$f").64k" "$np" "$nm" &&
			replay "$f" "$np_large" "$nm_large" || exit 1
	fi
	n=$((n + 1))
done
[ "$n" -eq 7 ] || { echo "FAIL: $n seed files, 7 expected"; exit 1; }
