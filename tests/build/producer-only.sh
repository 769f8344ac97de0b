#!/bin/bash
# SPDX-License-Identifier: MIT
#
# producer-only.sh - the header-only producer builds and installs with
# nothing but a C compiler:
#  - in a scratch build folder, with pkg-config seeing an empty folder
#    (PKG_CONFIG_LIBDIR, PKG_CONFIG_PATH: none of libtraceevent,
#    libtracefs, libzstd, libdw, libbpf, cmocka is found) and no C++
#    compiler (CXX=no), "configure --disable-decoder" succeeds and its
#    summary says the decoder and the unit tests are left out;
#  - "make" builds (the examples), "make install DESTDIR=" installs every
#    producer header and eventheader.pc, and nothing of the decoder (no
#    libehdecode, ehdecode, ehrecord, <ehdecode/*.h>, libehdecode.pc);
#  - a program of every installed <eventheader/*.h> compiles with the
#    flags of the installed eventheader.pc;
#  - without --disable-decoder, the same configure stops with an error
#    that names the missing library and its Debian package.
# Skips (77; fails with CI=true) where a second build of the source tree
# cannot be configured: no configure script, or a build in the source
# folder itself (configure refuses another then).
# Environment (set by "make check"): CC, EH_SRCDIR, EH_BUILDDIR.
set -u
LC_ALL=C
export LC_ALL
src=${EH_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
src=$(cd "$src" && pwd)
cc=${CC:-cc}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/producer-only.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/common/test-lib.sh
. "$(dirname "$0")/../common/test-lib.sh"

[ -x "$src/configure" ] || skip "no $src/configure (autoreconf -fi)"
[ -f "$src/config.status" ] &&
	skip "$src is configured in place: a second build folder cannot be"
command -v "${PKG_CONFIG:-pkg-config}" >/dev/null 2>&1 ||
	skip "no pkg-config (to read the installed eventheader.pc)"

mkdir "$tmp/empty" "$tmp/b" "$tmp/full" "$tmp/root"
# No dependency to be found, no C++ compiler, and a make of its own (not
# the jobserver nor the variables of "make check").
export PKG_CONFIG_LIBDIR=$tmp/empty PKG_CONFIG_PATH=$tmp/empty CXX=no
unset MAKEFLAGS MFLAGS MAKELEVEL PKG_CONFIG_SYSROOT_DIR
make=${MAKE:-make}
# A cache shared by the two configure runs: the second is quicker.
cache=$tmp/config.cache

# --- configure --disable-decoder ------------------------------------------------

if (cd "$tmp/b" && "$src/configure" --cache-file="$cache" \
	--disable-decoder --prefix=/usr CC="$cc") >"$tmp/configure.log" 2>&1; then
	ok "configure --disable-decoder with no dependency found"
else
	bad "configure --disable-decoder failed:"
	tail -n 15 "$tmp/configure.log"
	finish
fi
grep -q 'decoder: *no' "$tmp/configure.log" &&
	ok "its summary says: $(grep -o 'decoder: *no.*' "$tmp/configure.log")" ||
	bad "its summary does not say the decoder is left out"
grep -q 'cmocka not found: make check will not build the unit tests' \
	"$tmp/configure.log" &&
	ok "configure warns that the unit tests will not be built" ||
	bad "configure does not warn about cmocka"
if grep -Eq 'checking for (libtraceevent|libtracefs|libzstd|libdw|libbpf)' \
	"$tmp/configure.log"; then
	bad "configure --disable-decoder looks for the decoder's libraries"
else
	ok "configure --disable-decoder does not look for the decoder's libraries"
fi

# --- make, make install ---------------------------------------------------------

if $make -C "$tmp/b" -s >"$tmp/make.log" 2>&1; then
	ok "make"
else
	bad "make failed:"
	tail -n 20 "$tmp/make.log"
	finish
fi
if $make -C "$tmp/b" -s install DESTDIR="$tmp/root" >"$tmp/install.log" 2>&1; then
	ok "make install DESTDIR="
else
	bad "make install DESTDIR= failed:"
	tail -n 20 "$tmp/install.log"
	finish
fi
missing=
for h in "$src"/libeventheader/include/eventheader/*.h; do
	[ -f "$tmp/root/usr/include/eventheader/${h##*/}" ] ||
		missing="$missing ${h##*/}"
done
[ -z "$missing" ] && ok "every producer header is installed" ||
	bad "producer headers not installed:$missing"
pcdir=$(dirname "$(find "$tmp/root" -name eventheader.pc | head -n 1)")
[ -f "$pcdir/eventheader.pc" ] && ok "eventheader.pc is installed" ||
	bad "eventheader.pc is not installed"
decoder=$(cd "$tmp/root" && find . \( -name 'libehdecode*' -o -name ehdecode \
	-o -name ehrecord -o -name 'ehdecode.*' -o -name 'ehrecord.*' \) -print |
	tr '\n' ' ')
[ -z "$decoder" ] && ok "nothing of the decoder is installed" ||
	bad "installed with --disable-decoder: $decoder"

{
	for h in "$src"/libeventheader/include/eventheader/*.h; do
		echo "#include <eventheader/${h##*/}>"
	done
	echo 'int main(void) { return 0; }'
} >"$tmp/producer.c"
# shellcheck disable=SC2086
if flags=$(PKG_CONFIG_LIBDIR=$pcdir PKG_CONFIG_PATH='' \
	PKG_CONFIG_SYSROOT_DIR=$tmp/root "${PKG_CONFIG:-pkg-config}" \
	--cflags eventheader 2>"$tmp/err") &&
   $cc -Wall -Wextra -Werror $flags -o "$tmp/producer" "$tmp/producer.c" \
	2>>"$tmp/err"; then
	ok "a program of every installed <eventheader/*.h> builds with eventheader.pc ($flags)"
else
	bad "a producer program does not build with the installed eventheader.pc:"
	head -n 20 "$tmp/err"
fi

# --- without --disable-decoder: a clear error -----------------------------------

if (cd "$tmp/full" && "$src/configure" --cache-file="$cache" \
	--prefix=/usr CC="$cc") >"$tmp/full.log" 2>&1; then
	bad "configure with the decoder succeeded with no library found"
elif grep -q 'error: .*apt-get install lib.*-dev' "$tmp/full.log"; then
	ok "configure with the decoder says: $(grep -o 'error: .*' "$tmp/full.log" | head -n 1)"
else
	bad "configure with the decoder fails without naming the package:"
	tail -n 5 "$tmp/full.log"
fi
finish
