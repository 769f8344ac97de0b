#!/bin/bash
# SPDX-License-Identifier: MIT
#
# options.sh - the man pages of the tools list exactly the options the
# tools have, so that the two cannot drift apart:
#  - every option line of "TOOL --help" (short and long names and the
#    argument, e.g. "-e, --event=SPEC", "--cpu-sampling[=HZ]") is an option
#    term of man/TOOL.1.scd (a line starting with "*-"), and the other way
#    round;
#  - every long option written anywhere in man/TOOL.1.scd (prose and
#    examples) is an option of ehdecode or ehrecord, so an example with a
#    misspelt or removed option fails too;
#  - each option of --help is accepted by the tool: "TOOL OPTION --help"
#    does not fail as a usage error;
#  - the library's tables of ehrecord's options (for reading a perf.data's
#    command line) have exactly the options of ehrecord --help.
# Environment (set by "make check"): EH_BUILDDIR, EH_SRCDIR.
set -u
LC_ALL=C
export LC_ALL
bin=${EH_BUILDDIR:-.}
src=${EH_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/man-options.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/common/test-lib.sh
. "$(dirname "$0")/../common/test-lib.sh"


# The option terms of a --help text: "  -x, --long=ARG   text" and
# "      --long   text", up to the two spaces before the description.
help_terms() {
	grep -E '^  (-[A-Za-z0-9], )?--[a-z]|^      --[a-z]' "$1" |
		sed -e 's/^ *//' -e 's/  .*//' | sort -u
}

# The option terms of a page: lines starting with "*-" and followed by an
# indented description, without the scdoc markup (*bold*, _underline_).
page_terms() {
	awk 'term != "" && /^\t/ { print term } { term = "" } /^\*-/ { term = $0 }' "$1" |
		sed -e 's/[*_]//g' -e 's/[[:space:]]*$//' | sort -u
}

# Long option names (--name) of a list of terms.
long_names() { grep -oE -- '--[a-z][a-z0-9-]*' "$1" | sort -u; }

for tool in ehdecode ehrecord; do
	exe=$bin/tools/$tool
	page=$src/man/$tool.1.scd
	if ! "$exe" --help >"$tmp/$tool.help" 2>"$tmp/err"; then
		bad "$tool --help failed: $(head -n 1 "$tmp/err")"
		continue
	fi
	help_terms "$tmp/$tool.help" >"$tmp/$tool.help-terms"
	page_terms "$page" >"$tmp/$tool.page-terms"
	long_names "$tmp/$tool.help-terms" >"$tmp/$tool.longs"
	n=$(wc -l <"$tmp/$tool.help-terms")
	if [ "$n" -lt 10 ]; then
		bad "$tool: only $n options found in --help"
		continue
	fi
	missing=$(comm -23 "$tmp/$tool.help-terms" "$tmp/$tool.page-terms")
	extra=$(comm -13 "$tmp/$tool.help-terms" "$tmp/$tool.page-terms")
	if [ -z "$missing" ]; then
		ok "$tool.1 has all $n options of $tool --help"
	else
		bad "$tool.1 lacks these options of --help:" $missing
	fi
	if [ -z "$extra" ]; then
		ok "$tool.1 has no option that $tool --help lacks"
	else
		bad "$tool.1 lists options that $tool --help does not have:" $extra
	fi
	# Each option is known to getopt as --help shows it: no complaint
	# about an unknown option or its argument (the value given may still
	# be refused).
	unknown=
	while read -r term; do
		opt=${term##*, }
		opt=${opt%%[=[]*}
		case $term in
		*\[=*) ;;			# optional argument
		*=*) opt="$opt=x" ;;	# required: give one
		esac
		"$exe" "$opt" --help >/dev/null 2>"$tmp/err"
		grep -Eq "unrecognized option|invalid option|requires an argument|doesn't allow an argument" \
			"$tmp/err" && unknown="$unknown $opt"
	done <"$tmp/$tool.help-terms"
	if [ -z "$unknown" ]; then
		ok "$tool accepts each option of its --help"
	else
		bad "$tool does not take these options of its --help:$unknown"
	fi
done

# Long options named anywhere in the tool pages belong to one of the tools.
cat "$tmp"/*.longs 2>/dev/null | sort -u >"$tmp/all.longs"
for tool in ehdecode ehrecord; do
	page=$src/man/$tool.1.scd
	[ -s "$tmp/all.longs" ] || break
	grep -v '^;' "$page" | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u \
		>"$tmp/$tool.named"
	unknown=$(comm -23 "$tmp/$tool.named" "$tmp/all.longs")
	if [ -z "$unknown" ]; then
		ok "$tool.1 names no option that neither tool has"
	else
		bad "$tool.1 names options that neither tool has:" $unknown
	fi
done

# libehdecode reads a perf.data's command line as getopt reads ehrecord's
# (ehd__cmdline_asks_switch()): its tables of ehrecord's options are
# those of --help, each taking an argument or not as there.
lib=$src/decode/live/session.c
if [ -s "$tmp/ehrecord.help-terms" ]; then
	sed -E 's/^(-[A-Za-z0-9], )?--([a-z0-9-]+)(=?).*/\2 \3/' \
		"$tmp/ehrecord.help-terms" |
		sed -e 's/ =$/ true/' -e 's/ $/ false/' | sort >"$tmp/help-args"
	sed -n '/cmdline_longs\[\] = {/,/^};/p' "$lib" |
		grep -oE '\{ "[a-z0-9-]+", (true|false) \}' |
		sed -E 's/\{ "([^"]+)", ([a-z]+) \}/\1 \2/' | sort >"$tmp/lib-args"
	diff=$(diff "$tmp/help-args" "$tmp/lib-args" | grep '^[<>]' | tr '\n' ' ')
	if [ -n "$(cat "$tmp/lib-args")" ] && [ -z "$diff" ]; then
		ok "session.c's cmdline_longs are ehrecord's $(wc -l <"$tmp/lib-args") long options"
	else
		bad "session.c's cmdline_longs differ from ehrecord --help (< help, > table): $diff"
	fi
	want=$(sed -nE 's/^-([A-Za-z0-9]), --[a-z0-9-]+=.*/\1/p' \
		"$tmp/ehrecord.help-terms" | sort | tr -d '\n')
	got=$(sed -n 's/^static const char cmdline_short_args\[\] = "\(.*\)";/\1/p' \
		"$lib" | fold -w1 | sort | tr -d '\n')
	if [ -n "$want" ] && [ "$want" = "$got" ]; then
		ok "session.c's cmdline_short_args are ehrecord's: $got"
	else
		bad "session.c's cmdline_short_args '$got', ehrecord --help's '$want'"
	fi
fi

finish
