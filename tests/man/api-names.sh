#!/bin/bash
# SPDX-License-Identifier: MIT
#
# api-names.sh - the API man pages name what the headers have:
#  - every function libehdecode exports (decode/libehdecode.map) has its
#    prototype in libehdecode(3), and no other function has one there;
#  - those prototypes are the headers' own: they are compiled after the
#    headers, where any difference is a "conflicting types" error;
#  - every ehd_/EHD_ name in libehdecode(3) is in <ehdecode/*.h>, and every
#    eh_/EH_/TraceLogging name in eventheader(7) is in the producer headers.
# Environment (set by "make check"): CC, EH_SRCDIR.
set -u
LC_ALL=C
export LC_ALL
src=${EH_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
cc=${CC:-cc}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/man-api.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/common/test-lib.sh
. "$(dirname "$0")/../common/test-lib.sh"


page=$src/man/libehdecode.3.scd

# The code blocks of the page that hold prototypes only: C declarations
# of ehd_ functions, no #include, no braces (programs), no "$" (shell).
awk '
/^```/ {
	if (inb && decl && text ~ /ehd_/)
		printf "%s", text
	inb = !inb
	text = ""
	decl = 1
	next
}
inb {
	if ($0 ~ /#include|[{}$]/)
		decl = 0
	text = text $0 "\n"
}
' "$page" >"$tmp/protos.h"

sed -n 's/^[[:space:]]*\(ehd_[a-z0-9_]*\);$/\1/p' "$src/decode/libehdecode.map" |
	sort -u >"$tmp/exported"
grep -oE '\behd_[a-z0-9_]+\(' "$tmp/protos.h" | tr -d '(' | sort -u \
	>"$tmp/documented"
n=$(wc -l <"$tmp/exported")
missing=$(comm -23 "$tmp/exported" "$tmp/documented")
extra=$(comm -13 "$tmp/exported" "$tmp/documented")
if [ "$n" -lt 40 ]; then
	bad "only $n exported functions found in decode/libehdecode.map"
elif [ -z "$missing" ]; then
	ok "libehdecode(3) has the prototype of all $n exported functions"
else
	bad "libehdecode(3) has no prototype of:" $missing
fi
if [ -z "$extra" ]; then
	ok "libehdecode(3) has no prototype of a function not exported"
else
	bad "libehdecode(3) declares functions libehdecode does not export:" $extra
fi

{
	for h in "$src"/decode/include/ehdecode/*.h; do
		echo "#include <ehdecode/${h##*/}>"
	done
	cat "$tmp/protos.h"
} >"$tmp/protos.c"
if $cc -std=gnu11 -Wall -Wextra -Werror -fsyntax-only \
	-I"$src/decode/include" -I"$src/libeventheader/include" \
	"$tmp/protos.c" 2>"$tmp/err"; then
	ok "the prototypes of libehdecode(3) are those of the headers"
else
	bad "the prototypes of libehdecode(3) differ from the headers:"
	head -n 20 "$tmp/err"
fi

# names PAGE REGEX HEADERS...: every name of PAGE that matches REGEX is a
# word of one of the headers
names() {
	local page=$1 regex=$2 name unknown= count=0

	shift 2
	for name in $(grep -v '^;' "$page" | grep -oE "$regex" | sort -u); do
		count=$((count + 1))
		grep -qw -- "$name" "$@" || unknown="$unknown $name"
	done
	if [ "$count" -lt 20 ]; then
		bad "$(basename "$page"): only $count names found"
	elif [ -z "$unknown" ]; then
		ok "$(basename "$page"): the $count names it uses are in the headers"
	else
		bad "$(basename "$page") names what the headers do not have:$unknown"
	fi
}

names "$page" '\b(ehd|EHD)_[A-Za-z0-9_]*[A-Za-z0-9]' \
	"$src"/decode/include/ehdecode/*.h
names "$src/man/eventheader.7.scd" \
	'\b((eh|EH)_[A-Za-z0-9_]*[A-Za-z0-9]|TraceLogging[A-Za-z0-9]+|TRACELOGGING_[A-Z_]+)' \
	"$src"/libeventheader/include/eventheader/*.h

finish
