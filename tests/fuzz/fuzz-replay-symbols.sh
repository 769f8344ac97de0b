#!/bin/bash
# SPDX-License-Identifier: MIT
# fuzz-replay-symbols.sh - make check: fuzz-symbols (the ELF reader that
# names stack addresses) on ELF files built here, their prefixes and
# seeded single-byte mutations (see replay.c): examples/spin as built
# (.symtab, a lazy PLT), stripped (.dynsym), stripped with its symbols
# xz-compressed in .gnu_debugdata, its debug file alone (no code), and
# tests/decode/plt-ibt (an IBT PLT) where it is built. Prefixes every
# 509 bytes and 1000 mutations each, about 40 s in a build with
# --enable-sanitizers.
set -u
bin=${EH_BUILDDIR:-.}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/eh-fuzz-symbols.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

command -v objcopy >/dev/null || { echo "SKIP: no objcopy (binutils)"; exit 77; }
cp "$bin/examples/spin" "$tmp/spin" || exit 1
objcopy --only-keep-debug "$tmp/spin" "$tmp/spin.debug" &&
	objcopy --strip-all "$tmp/spin" "$tmp/stripped" || exit 1
seeds=("$tmp/spin" "$tmp/stripped" "$tmp/spin.debug")
if command -v xz >/dev/null; then
	xz -c "$tmp/spin.debug" >"$tmp/mini.xz" &&
		objcopy --strip-all --add-section .gnu_debugdata="$tmp/mini.xz" \
			"$tmp/spin" "$tmp/mini" || exit 1
	seeds+=("$tmp/mini")
else
	echo "no xz: no .gnu_debugdata seed"
fi
[ -x "$bin/tests/decode/plt-ibt" ] && seeds+=("$bin/tests/decode/plt-ibt")
for f in "${seeds[@]}"; do
	"$bin/tests/fuzz/replay-symbols" -w -s 509 -m 1000 "$f" ||
		{ echo "FAIL: fuzz-symbols on $(basename "$f")"; exit 1; }
done
echo "fuzz-symbols: ${#seeds[@]} files, their prefixes and mutations"
