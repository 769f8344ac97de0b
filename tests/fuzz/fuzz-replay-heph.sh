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
# shellcheck source=tests/common/test-lib.sh
. "$(dirname "$0")/../common/test-lib.sh"	# heph_example
shared=${EH_SHARED_DIR:-../shared}/conformance/eventheader
bin=${EH_BUILDDIR:-.}/tests/fuzz
ehdecode=${EH_BUILDDIR:-.}/tools/ehdecode
tmp=$(mktemp -d "${TMPDIR:-/tmp}/eh-fuzz-heph.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

spec=$tmp/spec.bin.log
heph_example "$spec"
"$bin/replay-heph" -w -s 1 -m 3000 "$spec" || exit 1

[ -r "$shared/perf.data" ] || { echo "SKIP: corpus not found under $shared (the example passed)"; exit 77; }
for f in EventHeaderInterceptorLE64.dat perf.data pipe.data; do
	"$ehdecode" -F heph -o "$tmp/$f.bin.log" "$shared/$f" 2>/dev/null ||
		{ echo "FAIL: ehdecode -F heph $f"; exit 1; }
	"$bin/replay-heph" -w -s 397 -m 300 "$tmp/$f.bin.log" || exit 1
done
