#!/bin/bash
# SPDX-License-Identifier: MIT
# fuzz-replay-symbols.sh - make check: fuzz-symbols (the ELF reader that
# names stack addresses) on ELF files built here, their prefixes and
# seeded single-byte mutations (see replay.c): examples/spin as built
# (.symtab, a lazy PLT), stripped (.dynsym), stripped with its symbols
# xz-compressed in .gnu_debugdata, its debug file alone (no code),
# tests/decode/plt-ibt (an IBT PLT) where it is built, and two of
# tests/decode/plt-a64.sh's AArch64 files (24-byte PLT entries, with an
# autia1716 and with a bti c) where it can link them. Prefixes every
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
a64=${EH_SRCDIR:-$(dirname "$0")/../..}/tests/decode/plt-a64.sh
mkdir "$tmp/a64" || exit 1
if "$a64" "$tmp/a64" >/dev/null; then
	seeds+=("$tmp/a64/pac.so" "$tmp/a64/bti")
else
	echo "no AArch64 binutils: no AArch64 PLT seeds"
fi
for f in "${seeds[@]}"; do
	"$bin/tests/fuzz/replay-symbols" -w -s 509 -m 1000 "$f" ||
		{ echo "FAIL: fuzz-symbols on $(basename "$f")"; exit 1; }
done
echo "fuzz-symbols: ${#seeds[@]} files, their prefixes and mutations"
