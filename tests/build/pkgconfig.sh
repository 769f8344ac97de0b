#!/bin/bash
# SPDX-License-Identifier: MIT
#
# pkgconfig.sh - the installed libehdecode.pc and eventheader.pc are all a
# user of the library needs:
#  - this build's library, its headers and both .pc files are installed
#    (make install-... DESTDIR=, the targets of "make install" that hold
#    them) into a scratch root;
#  - a program that includes every <ehdecode/*.h> of the source tree (a
#    header left out of the install fails here) and calls ehd_reader_new()
#    and ehd_reader_free() compiles and links with -Werror and nothing but
#    `pkg-config --cflags --libs libehdecode` of that root
#    (PKG_CONFIG_SYSROOT_DIR, the root's pkgconfig folder first), and runs
#    on the installed library (LD_LIBRARY_PATH);
#  - a producer program (every <eventheader/*.h>) compiles with
#    `pkg-config --cflags eventheader` alone;
#  - every library the installed libehdecode.so is linked with (readelf
#    -d, NEEDED) is in libehdecode.pc: a -lNAME of Libs or Libs.private,
#    or of a module of Requires.private (as pkg-config gives its --libs);
#    only the C library, the dynamic loader and compiler runtimes (libgcc_s,
#    the sanitizers') need not be; a Requires.private module that is not
#    installed fails too.
# Skips (77; fails with CI=true) without pkg-config or readelf.
# Environment (set by "make check"): CC, EH_SRCDIR, EH_BUILDDIR,
# EH_TEST_CFLAGS, EH_TEST_LDFLAGS (the configured CFLAGS and LDFLAGS: a
# sanitized library needs them in the program too).
set -u
LC_ALL=C
export LC_ALL
src=${EH_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
bin=${EH_BUILDDIR:-.}
cc=${CC:-cc}
cflags=${EH_TEST_CFLAGS:-}
ldflags=${EH_TEST_LDFLAGS:-}
warn="-Wall -Wextra -Werror"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pkgconfig.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/common/test-lib.sh
. "$(dirname "$0")/../common/test-lib.sh"

pkgconfig=${PKG_CONFIG:-pkg-config}
command -v "$pkgconfig" >/dev/null 2>&1 || skip "no $pkgconfig"
command -v readelf >/dev/null 2>&1 || skip "no readelf (binutils)"

# --- install into a scratch root --------------------------------------------------

root=$tmp/root
# A make of its own: not the jobserver nor the variables of "make check".
if env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "${MAKE:-make}" -s -C "$bin" \
	install-libLTLIBRARIES install-ehincludeHEADERS \
	install-ehdincludeHEADERS install-pkgconfigDATA DESTDIR="$root" \
	>"$tmp/install.log" 2>&1; then
	ok "library, headers and .pc files installed under DESTDIR"
else
	bad "make install-... DESTDIR=$root failed:"
	tail -n 20 "$tmp/install.log"
	finish
fi
pc=$(find "$root" -name libehdecode.pc | head -n 1)
so=$(find "$root" -name 'libehdecode.so.*' -type f | head -n 1)
if [ -z "$pc" ] || [ -z "$so" ] || [ ! -f "$(dirname "$pc")/eventheader.pc" ]; then
	bad "not installed: libehdecode.pc, eventheader.pc beside it, libehdecode.so.*"
	finish
fi
pcdir=$(dirname "$pc")
libdir=$(dirname "$so")

# The installed .pc files first, then the system's for Requires.private.
ipc() { PKG_CONFIG_SYSROOT_DIR=$root PKG_CONFIG_PATH=$pcdir "$pkgconfig" "$@"; }

# --- a user of the library --------------------------------------------------------

{
	for h in "$src"/decode/include/ehdecode/*.h; do
		echo "#include <ehdecode/${h##*/}>"
	done
	cat <<'EOF'
#include <stdio.h>

int main(void)
{
	struct ehd_reader *r = ehd_reader_new(0);

	if (!r) {
		perror("ehd_reader_new");
		return 1;
	}
	ehd_reader_free(r);
	puts("reader made and freed");
	return 0;
}
EOF
} >"$tmp/user.c"
if flags=$(ipc --cflags --libs libehdecode 2>"$tmp/err"); then
	ok "pkg-config --cflags --libs libehdecode: $flags"
else
	bad "pkg-config --cflags --libs libehdecode: $(cat "$tmp/err")"
	finish
fi
# shellcheck disable=SC2086
if $cc $cflags $warn -o "$tmp/user" "$tmp/user.c" $ldflags $flags 2>"$tmp/err"; then
	ok "a program of every <ehdecode/*.h> builds with those flags alone"
	out=$(LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
		"$tmp/user" 2>&1)
	rc=$?
	if [ $rc = 0 ] && [ "$out" = "reader made and freed" ]; then
		ok "it runs on the installed library"
	else
		bad "it exits $rc on the installed library: $out"
	fi
else
	bad "a program of every <ehdecode/*.h> does not build with them:"
	head -n 20 "$tmp/err"
fi

# --- a producer ------------------------------------------------------------------

{
	for h in "$src"/libeventheader/include/eventheader/*.h; do
		echo "#include <eventheader/${h##*/}>"
	done
	echo 'int main(void) { return 0; }'
} >"$tmp/producer.c"
# shellcheck disable=SC2086
if flags=$(ipc --cflags eventheader 2>"$tmp/err") &&
   $cc $cflags $warn -o "$tmp/producer" "$tmp/producer.c" $ldflags $flags \
	2>>"$tmp/err"; then
	ok "a program of every <eventheader/*.h> builds with pkg-config --cflags eventheader"
else
	bad "the producer's program does not build with eventheader.pc:"
	head -n 20 "$tmp/err"
fi

# --- NEEDED against the .pc -----------------------------------------------------

# -lNAME of the .pc's own Libs and Libs.private, and of each module of
# Requires.private (with the system's .pc files).
listed=" "
for l in $(sed -n 's/^Libs\(\.private\)\{0,1\}:[[:space:]]*//p' "$pc"); do
	case $l in
	-l*) listed="$listed${l#-l} " ;;
	-pthread) listed="${listed}pthread " ;;
	esac
done
mods=$(sed -n 's/^Requires\.private:[[:space:]]*//p' "$pc" |
	tr ',' ' ' | tr ' ' '\n' | grep -E '^[A-Za-z_][A-Za-z0-9_.+-]*$')
for m in $mods; do
	if ! libs=$("$pkgconfig" --libs-only-l "$m" 2>"$tmp/err"); then
		bad "Requires.private module $m: $(head -n 1 "$tmp/err")"
		continue
	fi
	for l in $libs; do
		listed="$listed${l#-l} "
	done
done

needed=$(readelf -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
[ -n "$needed" ] || bad "readelf -d $so: no NEEDED entry"
for soname in $needed; do
	name=${soname#lib}
	name=${name%%.so*}
	case $name in
	c | ld-linux* | gcc_s | asan | ubsan | lsan | tsan) continue ;;
	esac
	case $listed in
	*" $name "*) ok "$soname: -l$name is in libehdecode.pc" ;;
	*) bad "libehdecode.so needs $soname, which libehdecode.pc does not list (Requires.private or Libs.private)" ;;
	esac
done
finish
