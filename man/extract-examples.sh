#!/bin/sh
# SPDX-License-Identifier: MIT
#
# extract-examples.sh [-d DIR] PAGE.scd... - write out the example programs
# of man page sources
#
# An example is a literal block (```) whose opening line comes right after
# a scdoc comment line "; example: NAME". Its text is written to DIR/NAME
# (default: the current directory) as the page shows it: scdoc 1.11 takes
# a backslash in a literal block as an escape for the character after it,
# so "\\n" in the source is "\n" on the page and in the file. The name of
# each file written is printed on standard output.
#
# Exit status: 0; 1 when a page has no example, a marker is not followed
# by a block, a block is not closed, a name is used twice, a line ends in
# a lone backslash, or a file cannot be written; 2 for a usage error.
set -u

dir=.
if [ "${1:-}" = -d ]; then
	[ $# -ge 2 ] || { echo "usage: $0 [-d DIR] PAGE.scd..." >&2; exit 2; }
	dir=$2
	shift 2
fi
if [ $# = 0 ]; then
	echo "usage: $0 [-d DIR] PAGE.scd..." >&2
	exit 2
fi
mkdir -p "$dir" || exit 1

# One awk over every page, so that a name used on two pages is caught.
awk -v dir="$dir" '
function fail(why) {
	printf "%s:%d: %s\n", FILENAME, FNR, why > "/dev/stderr"
	bad = 1
	exit 1
}
# The end of a page: its last block closed, and an example in it.
function page_end() {
	if (state)
		fail("example " name " is not closed")
	if (!found) {
		printf "%s: no example (\"; example: NAME\" before a ``` block)\n",
			page > "/dev/stderr"
		bad = 1
		exit 1
	}
}
# The text of a literal block line as scdoc shows it.
function unescape(line,   out, i, c) {
	out = ""
	for (i = 1; i <= length(line); i++) {
		c = substr(line, i, 1)
		if (c == "\\") {
			if (i == length(line))
				fail("a lone backslash ends the line (write two)")
			i++
			c = substr(line, i, 1)
		}
		out = out c
	}
	return out
}
FNR == 1 {
	if (NR > 1)
		page_end()
	page = FILENAME
	state = found = 0
}
state == 2 && /^```/ {
	close(file)
	print name
	state = 0
	next
}
state == 2 {
	print unescape($0) > file
	next
}
state == 1 {
	if ($0 !~ /^```/)
		fail("\"; example: " name "\" is not followed by a ``` block")
	if (name in seen)
		fail("example " name " is defined twice (also in " seen[name] ")")
	seen[name] = FILENAME
	file = dir "/" name
	printf "" > file
	found++
	state = 2
	next
}
/^; example: / {
	name = substr($0, length("; example: ") + 1)
	if (name !~ /^[A-Za-z0-9_.-]+$/)
		fail("bad example name \"" name "\"")
	state = 1
	next
}
END {
	if (bad)
		exit 1
	page_end()
}
' "$@"
