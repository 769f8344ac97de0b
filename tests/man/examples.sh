#!/bin/bash
# SPDX-License-Identifier: MIT
#
# examples.sh - the example programs of the man pages build and work:
#  - man/extract-examples.sh cuts them out of every page that marks some
#    ("; example: NAME.c"); eventheader(7) and libehdecode(3) must have
#    theirs (producer.c, producer-dynamic.c, read-events.c, live-jsonl.c);
#  - the examples of eventheader(7) compile against libeventheader's
#    headers alone, with the project's warnings and -Werror, once with the
#    kernel backend and once with the interceptor;
#  - the examples of libehdecode(3) compile with -Werror and link through
#    libtool against decode/libehdecode.la, as a user of the library would;
#  - they run: producer exits 0 without user_events; with the interceptor
#    it and producer-dynamic write their events, which read-events prints
#    as the page says; live-jsonl on a tracepoint that does not exist
#    says why and exits 1;
#  - the page shows what is compiled: when the built page and groff are
#    there, each line of each example is in the page as groff renders it.
# A failure to compile any example fails the test.
# Environment (set by "make check"): CC, LIBTOOL, EH_TEST_CFLAGS,
# EH_TEST_LDFLAGS, EH_SRCDIR, EH_BUILDDIR.
set -u
LC_ALL=C
export LC_ALL
src=${EH_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
bin=${EH_BUILDDIR:-.}
cc=${CC:-cc}
libtool=${LIBTOOL:-$bin/libtool}
cflags=${EH_TEST_CFLAGS:-}
ldflags=${EH_TEST_LDFLAGS:-}
warn="-Wall -Wextra -Wshadow -Wformat=2 -Wmissing-prototypes -Wstrict-prototypes -Werror"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/man-examples.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/common/test-lib.sh
. "$(dirname "$0")/../common/test-lib.sh"


# --- cut out the examples ---------------------------------------------------------

pages=
for page in "$src"/man/*.scd; do
	grep -q '^; example: ' "$page" && pages="$pages $page"
done
# shellcheck disable=SC2086
if ! sh "$src/man/extract-examples.sh" -d "$tmp" $pages >"$tmp/list" 2>"$tmp/err"; then
	bad "extract-examples.sh: $(cat "$tmp/err")"
	finish
fi
for want in producer.c producer-dynamic.c read-events.c live-jsonl.c; do
	grep -qx "$want" "$tmp/list" && ok "$want is in the pages" ||
		bad "no example $want in the pages"
done

# The extractor refuses what would compile the wrong code or none.
bad_page() {	# bad_page LABEL WANT_REASON PAGE_TEXT...
	local label=$1 want=$2 i=0

	shift 2
	mkdir -p "$tmp/bad"
	for text in "$@"; do
		i=$((i + 1))
		printf '%b' "$text" >"$tmp/bad/p$i.scd"
	done
	if sh "$src/man/extract-examples.sh" -d "$tmp/bad" "$tmp"/bad/p*.scd \
		>/dev/null 2>"$tmp/bad.err"; then
		bad "extract-examples.sh took $label"
	elif grep -q "$want" "$tmp/bad.err"; then
		ok "extract-examples.sh refuses $label"
	else
		bad "extract-examples.sh on $label: $(cat "$tmp/bad.err")"
	fi
	rm -rf "$tmp/bad"
}
bad_page "a name on two pages" "defined twice" \
	'; example: a.c\n```\nint a;\n```\n' '; example: a.c\n```\nint b;\n```\n'
bad_page "a block not closed" "not closed" '; example: a.c\n```\nint a;\n'
bad_page "a marker without a block" "not followed" '; example: a.c\ntext\n'
bad_page "a page without an example" "no example" 'text\n'

# Which page each example came from decides how it is built.
page_of() {
	local p

	for p in $pages; do
		grep -qx "; example: $1" "$p" && { basename "$p" .scd; return; }
	done
}

# --- build them --------------------------------------------------------------------

built=
while read -r file; do
	name=${file%.c}
	case $(page_of "$file") in
	eventheader.7)
		# shellcheck disable=SC2086
		if $cc $cflags $warn -I"$src/libeventheader/include" $ldflags \
			-o "$tmp/$name" "$tmp/$file" 2>"$tmp/err" &&
		   $cc $cflags $warn -DEH_INTERCEPTOR \
			-I"$src/libeventheader/include" $ldflags \
			-o "$tmp/$name-intercept" "$tmp/$file" 2>>"$tmp/err"; then
			ok "$file (eventheader(7)) compiles with -Werror"
			built="$built $name"
		else
			bad "$file (eventheader(7)) does not compile:"
			head -n 20 "$tmp/err"
		fi
		;;
	libehdecode.3)
		# shellcheck disable=SC2086
		if $cc $cflags $warn -I"$src/decode/include" \
			-I"$src/libeventheader/include" -c -o "$tmp/$name.o" \
			"$tmp/$file" 2>"$tmp/err" &&
		   $libtool --silent --mode=link --tag=CC $cc $cflags $ldflags \
			-o "$tmp/$name" "$tmp/$name.o" \
			"$bin/decode/libehdecode.la" >>"$tmp/err" 2>&1; then
			ok "$file (libehdecode(3)) compiles with -Werror and links"
			built="$built $name"
		else
			bad "$file (libehdecode(3)) does not build:"
			head -n 20 "$tmp/err"
		fi
		;;
	*)
		bad "$file: no rule to build the examples of its page"
		;;
	esac
done <"$tmp/list"

# --- run them ----------------------------------------------------------------------

has() { case " $built " in *" $1 "*) return 0 ;; esac; return 1; }

if has producer; then
	(cd "$tmp" && ./producer /etc/hostname) >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" = 0 ] && ok "producer runs (exit 0)" ||
		bad "producer: exit $rc: $(head -n 1 "$tmp/err")"
fi
if has producer && has producer-dynamic && has read-events; then
	(cd "$tmp" && rm -f i.dat &&
	 EH_INTERCEPTOR_FILE=i.dat ./producer-intercept /etc/hostname \
		/nonexistent-file &&
	 EH_INTERCEPTOR_FILE=i.dat ./producer-dynamic-intercept \
		MyCompany_Dynamic) >/dev/null 2>"$tmp/err" ||
		bad "the producers with the interceptor failed: $(head -n 1 "$tmp/err")"
	if (cd "$tmp" && ./read-events i.dat) >"$tmp/out" 2>"$tmp/err"; then
		ok "read-events reads what the producers wrote"
	else
		bad "read-events: $(head -n 1 "$tmp/err")"
	fi
	cat >"$tmp/want" <<-'EOF'
	^MyCompany_MyApp:Started files=2 pid=[0-9]+$
	^MyCompany_MyApp:Check path="/etc/hostname"$
	^MyCompany_MyApp:Check result=0$
	^MyCompany_MyApp:Check path="/nonexistent-file"$
	^MyCompany_MyApp:Check result=2$
	^MyCompany_Dynamic:Started files=1 program="\./producer-dynamic-intercept"$
	EOF
	if [ "$(wc -l <"$tmp/out")" = 6 ] &&
	   paste -d '\n' "$tmp/want" "$tmp/out" |
		awk 'NR % 2 { re = $0; next } $0 !~ re { exit 1 }'; then
		ok "read-events prints the six events as expected"
	else
		bad "read-events printed:"
		cat "$tmp/out"
	fi
	(cd "$tmp" && ./read-events /dev/null) >/dev/null 2>"$tmp/err"
	rc=$?
	[ "$rc" = 1 ] && grep -q '^/dev/null: offset 0: ' "$tmp/err" &&
		ok "read-events on a file that is no trace: one line, exit 1" ||
		bad "read-events /dev/null: exit $rc: $(head -n 1 "$tmp/err")"
fi
if has live-jsonl; then
	(cd "$tmp" && timeout 60 ./live-jsonl nosuch_system:nosuch_event) \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" = 1 ] && grep -q '^live-jsonl: .' "$tmp/err" &&
		ok "live-jsonl on a missing tracepoint says why, exit 1" ||
		bad "live-jsonl nosuch_system:nosuch_event: exit $rc: $(head -n 1 "$tmp/err")"
fi

# --- the page shows what was compiled -------------------------------------------------

squeeze() { tr -s ' \t' '  ' | sed -e 's/^ //' -e 's/ $//' | grep -v '^$'; }

if ! command -v groff >/dev/null; then
	echo "skip: groff is not installed: pages not compared with the examples"
else
	for p in $pages; do
		man=$(basename "$p" .scd)
		page=$bin/man/$man
		[ -f "$page" ] || page=$src/man/$man
		if [ ! -f "$page" ]; then
			echo "skip: $man is not built: not compared with its examples"
			continue
		fi
		groff -man -Tascii -P-cbou -rLL=200n "$page" 2>/dev/null |
			squeeze >"$tmp/$man.txt"
		for file in $(cat "$tmp/list"); do
			[ "$(page_of "$file")" = "$man" ] || continue
			if squeeze <"$tmp/$file" | grep -vxFf "$tmp/$man.txt" \
				>"$tmp/missing"; then
				bad "$man does not show these lines of $file as compiled:"
				head -n 5 "$tmp/missing"
			else
				ok "$man shows $file as it is compiled"
			fi
		done
	done
fi

finish
