#!/bin/bash
# SPDX-License-Identifier: MIT
# plt-a64.sh DIR - AArch64 files with PLTs, linked by the AArch64 binutils
# (Debian's binutils-aarch64-linux-gnu) into DIR, in each of the linker's
# PLT entry layouts: 16 bytes (adrp, ldr, add, br), and 24 with a "bti c"
# first (-z force-bti, in a program), an "autia1716" before the br (-z
# pac-plt), or both; in shared objects, position-dependent programs and a
# PIE. Their calls go to four functions of libx.so (puts, strlen, malloc,
# free), and malloc's address is loaded from a GOT slot that is no PLT
# entry's as well. Prints a line "FILE
# ENTRY_SIZE" for each file made. Exit status 77 without the binutils.
set -eu
a64=aarch64-linux-gnu-
dir=${1:?usage: plt-a64.sh DIR}
command -v ${a64}ld >/dev/null || { echo "no ${a64}ld (binutils-aarch64-linux-gnu)" >&2; exit 77; }
cd "$dir"
cat >lib.s <<'END'
	.text
	.globl puts, strlen, malloc, free
	.type puts, %function
puts:	ret
	.type strlen, %function
strlen:	ret
	.type malloc, %function
malloc:	ret
	.type free, %function
free:	ret
END
cat >calls.s <<'END'
	.text
	.globl _start
	.type _start, %function
_start:
	bl puts
	bl strlen
	bl malloc
	adrp x0, :got:malloc
	ldr x0, [x0, #:got_lo12:malloc]
	b free
	.size _start, .-_start
END
${a64}as -o lib.o lib.s
${a64}as -o calls.o calls.s
${a64}ld -shared -soname libx.so -o libx.so lib.o
while read -r name size flags; do
	# (-z force-bti warns: the code has no BTI note)
	# shellcheck disable=SC2086 # the flags are words
	${a64}ld $flags -o "$name" calls.o libx.so 2>/dev/null
	echo "$name $size"
done <<'END'
plain.so 16 -shared
pac.so 24 -shared -z pac-plt
plain 16
bti 24 -z force-bti
bti-pac 24 -z force-bti -z pac-plt
pie-pac 24 -pie -z pac-plt
END
