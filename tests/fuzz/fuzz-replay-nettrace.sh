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
# single-byte mutations of it (default 3000). A run decodes its whole
# input, so the counts are cut for a seed to about FUZZ_BUDGET MiB of
# input (default 60) for its prefixes and as much for its mutations:
# about 1,900 and 950 for the 65 KB files, 250 and 125 for the 490 KB
# ones, which keeps this near two minutes in a build with
# --enable-sanitizers. FUZZ_BUDGET=100000 runs the full counts.
set -u
shared=${EH_SHARED_DIR:-../shared}/conformance
bin=${EH_BUILDDIR:-.}/tests/fuzz
ehdecode=${EH_BUILDDIR:-.}/tools/ehdecode
budget=$(( ${FUZZ_BUDGET:-60} << 20 ))
[ -r "$shared/eventheader/perf.data" ] && [ -d "$shared/nettrace" ] ||
	{ echo "SKIP: $shared/eventheader or $shared/nettrace not found"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/eh-fuzz-nettrace.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# replay FILE: every prefix of its first 4 KiB, about np prefixes over
# the rest, nm mutations of the whole file.
replay() {
	local f=$1 size np nm step cut

	size=$(stat -c %s "$f")
	np=$(( 2 * budget / size ))
	[ "$np" -le "${FUZZ_PREFIXES:-2000}" ] || np=${FUZZ_PREFIXES:-2000}
	[ "$np" -ge 1 ] || np=1
	nm=$(( budget / size ))
	[ "$nm" -le "${FUZZ_MUTATIONS:-3000}" ] || nm=${FUZZ_MUTATIONS:-3000}
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
	replay "$f" || exit 1
	n=$((n + 1))
done
[ "$n" -eq 7 ] || { echo "FAIL: $n seed files, 7 expected"; exit 1; }

# Inputs that once crashed, hung or took quadratic time (fuzz-nettrace's
# findings): each read whole and with 200 mutations, within 60 s.
src=$(cd "$(dirname "$0")" && pwd)
for f in "$src"/nettrace-regress/*; do
	if ! timeout 60 "$bin/replay-nettrace" -w -m 200 "$f" >/dev/null; then
		echo "FAIL: $(basename "$f") (crash, or over 60 s)"; exit 1
	fi
	echo "ok: regression input $(basename "$f")"
done
