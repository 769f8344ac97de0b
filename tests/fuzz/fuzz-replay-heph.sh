#!/bin/bash
# SPDX-License-Identifier: MIT
# fuzz-replay-heph.sh - make check: fuzz-heph (the Heph reader, the
# writers, and the Heph writer's output read back) on Heph traces, their
# prefixes and seeded single-byte mutations (see replay.c).
#
# Seeds: the format specification's example trace (an epoch packet and
# an event packet, written here), every prefix and 3000 mutations; and,
# when the reference corpus is there, its three files converted by
# ehdecode -F heph, prefixes every 397 bytes and 300 mutations each
# (about a minute in a build with --enable-sanitizers).
set -u
shared=${EH_SHARED_DIR:-../shared}/conformance/eventheader
bin=${EH_BUILDDIR:-.}/tests/fuzz
ehdecode=${EH_BUILDDIR:-.}/tools/ehdecode
tmp=$(mktemp -d "${TMPDIR:-/tmp}/eh-fuzz-heph.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

spec=$tmp/spec.bin.log
printf '\x75\xd1\x1d\x4d\x00\x00\x00\x17\x00\x05epoch\x16\x58\x45\xe9\x12\x14\xec\x90' >"$spec"
printf '\xc1\xfc\x1f\xb7\x00\x00\x00\x5b\x00\x00\x00\x00\x00\x00\x00\x00' >>"$spec"
printf '\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x64' >>"$spec"
printf '\x00\x00\x00\x00\x00\x00\x00\xc8\x00\x08My event' >>"$spec"
printf '\x00\x04Test\x01\x00\x00\x00\x00\x00\x00\x00\x7b' >>"$spec"
printf '\x00\x05Test2\x83\x00\x02\x40\x5e\xdd\x2f\x1a\x9f\xbe\x77' >>"$spec"
printf '\x40\x88\xa8\x00\x00\x00\x00\x00' >>"$spec"
"$bin/replay-heph" -w -s 1 -m 3000 "$spec" || exit 1

[ -r "$shared/perf.data" ] || { echo "SKIP: corpus not found under $shared (the example passed)"; exit 77; }
for f in EventHeaderInterceptorLE64.dat perf.data pipe.data; do
	"$ehdecode" -F heph -o "$tmp/$f.bin.log" "$shared/$f" 2>/dev/null ||
		{ echo "FAIL: ehdecode -F heph $f"; exit 1; }
	"$bin/replay-heph" -w -s 397 -m 300 "$tmp/$f.bin.log" || exit 1
done
