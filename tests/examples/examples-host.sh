#!/bin/bash
# SPDX-License-Identifier: MIT
#
# examples-host.sh - the programs of examples/ do what their comments and
# the README say, so that they cannot rot unnoticed:
#  - each example as built by "make" runs on this host: exit 0 and its one
#    line on standard output; where user_events cannot be used (no
#    CONFIG_USER_EVENTS, no permission) one line on standard error says
#    so, and no event is written; usage errors exit 2;
#  - the same sources built with the interceptor backend write their
#    events to a file, which ehdecode reads back: the number of events,
#    the tracepoints they go to (those the README's ehrecord commands
#    name), their names, levels, keywords, activity ids and some values;
#  - examples/all-fields.c uses every field macro of eh-provider.h.
# Environment (set by "make check"): EH_BUILDDIR, EH_SRCDIR.
set -u
bin=${EH_BUILDDIR:-.}
src=${EH_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
ex=$bin/examples
ehdecode=$bin/tools/ehdecode
tmp=$(mktemp -d "${TMPDIR:-/tmp}/examples-host.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/common/test-lib.sh
. "$(dirname "$0")/../common/test-lib.sh"


# run LABEL WANT_EXIT COMMAND...: output in $tmp/out and $tmp/err
run() {
	local label=$1 want=$2 rc

	shift 2
	(cd "$tmp" && "$@") >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	if [ "$rc" = "$want" ]; then
		ok "$label: exit $rc"
		return 0
	fi
	bad "$label: exit $rc, want $want"
	head -n 3 "$tmp/err"
	return 1
}

# same LABEL FILE WANT: FILE holds exactly the text WANT
same() {
	if [ "$(cat "$2")" = "$3" ]; then
		ok "$1"
	else
		bad "$1: got '$(head -c 300 "$2")', want '$3'"
	fi
}

# like LABEL FILE EXTENDED-REGEX: every line of FILE matches (and FILE
# has at least one line)
like() {
	if [ -s "$2" ] && ! grep -Evq -- "$3" "$2"; then
		ok "$1"
	else
		bad "$1: '$(head -c 300 "$2")' is not /$3/"
	fi
}

# tracing NAME: standard error is empty (tracing available) or the one
# line that says it is not; sets $traced to yes or no
tracing() {
	if [ ! -s "$tmp/err" ]; then
		traced=yes
		ok "$1: no message (user_events usable here)"
	else
		traced=no
		like "$1: says tracing is unavailable" "$tmp/err" \
			"^$1: tracing unavailable \(.+\); running anyway\$"
	fi
}

for p in hello activity providers spin all-fields dynamic; do
	if [ ! -x "$ex/$p" ]; then
		echo "examples-host: $ex/$p is not built" >&2
		exit 99
	fi
done

# --- as built, on this host -------------------------------------------------

run "hello" 0 "$ex/hello" &&
	{ same "hello: its line" "$tmp/out" "hello: wrote 2 event(s)"; tracing hello; }
run "hello 3" 0 "$ex/hello" 3 &&
	same "hello 3: its line" "$tmp/out" "hello: wrote 4 event(s)"

run "activity" 0 "$ex/activity" &&
	{ same "activity: its line" "$tmp/out" \
		"activity: one session with two transfers written"
	  tracing activity; }

run "providers 2" 0 "$ex/providers" 2 &&
	{ same "providers: its line" "$tmp/out" "providers: wrote 8 events"
	  tracing providers; }

run "spin 20" 0 "$ex/spin" 20 &&
	like "spin: its line" "$tmp/out" '^spin: [0-9]+ rounds$'
run "spin 0 (usage)" 2 "$ex/spin" 0 &&
	like "spin: usage" "$tmp/err" '^usage: spin \[MILLISECONDS\]$'

if run "all-fields" 0 "$ex/all-fields"; then
	tracing all-fields
	if [ "$traced" = no ]; then
		same "all-fields: nothing written" "$tmp/out" \
			"all-fields: 0 of 5 events written"
	else
		like "all-fields: its line" "$tmp/out" \
			'^all-fields: [0-5] of 5 events written$'
	fi
fi

if run "dynamic" 0 "$ex/dynamic" Login user=alice tries=3; then
	tracing dynamic
	if [ "$traced" = no ]; then
		same "dynamic: nothing written" "$tmp/out" \
			"dynamic: 0 of 2 events written"
	else
		like "dynamic: its line" "$tmp/out" \
			'^dynamic: [0-2] of 2 events written$'
	fi
fi
run "dynamic, bad provider name" 2 "$ex/dynamic" -p "bad name" &&
	same "dynamic: bad name said" "$tmp/err" \
		"dynamic: bad provider name or group: bad name"
run "dynamic, bad group" 2 "$ex/dynamic" -g Upper &&
	same "dynamic: bad group said" "$tmp/err" \
		"dynamic: bad provider name or group: EhExample_Dynamic Upper"
run "dynamic, field without =" 2 "$ex/dynamic" Ev novalue &&
	like "dynamic: usage" "$tmp/err" '^usage: dynamic '

# --- with the interceptor: the events themselves --------------------------------

# The tracepoints of the events of FILE, sorted, on one line: made from
# each event's provider, level, keyword and options, as the README's
# recording commands name them.
tracepoints() {
	"$ehdecode" -F jsonl -m provider,level,keyword,options "$1" |
		sed -e 's/.*"meta":{\(.*\)}}$/\1/' | awk -F, '
		{
			p = ""; l = 0; k = "0"; o = ""
			for (i = 1; i <= NF; i++) {
				split($i, kv, ":")
				key = kv[1]; val = kv[2]
				gsub(/"/, "", key); gsub(/"/, "", val)
				if (key == "provider") p = val
				else if (key == "level") l = val + 0
				else if (key == "keyword") k = tolower(substr(val, 3))
				else if (key == "options") o = val
			}
			printf "%s_L%xK%s%s\n", p, l, k, o
		}' | sort -u | tr '\n' ' ' | sed -e 's/ $//'
}

# intercept LABEL WANT_EVENTS META TRACEPOINTS PROGRAM [ARG]...: runs
# PROGRAM with the interceptor file $tmp/i.dat, decodes it to $tmp/events
# (JSON lines with META), checks the number of events and that they went
# to TRACEPOINTS (sorted, separated by spaces).
intercept() {
	local label=$1 want=$2 meta=$3 tps=$4 n got

	shift 4
	rm -f "$tmp/i.dat"
	run "$label (interceptor)" 0 env EH_INTERCEPTOR_FILE="$tmp/i.dat" "$@" ||
		return 1
	if ! "$ehdecode" -F jsonl -m "$meta" "$tmp/i.dat" >"$tmp/events" \
		2>"$tmp/err"; then
		bad "$label: ehdecode failed: $(head -n 2 "$tmp/err")"
		return 1
	fi
	n=$(wc -l <"$tmp/events")
	if [ "$n" = "$want" ]; then
		ok "$label: $n events decoded"
	else
		bad "$label: $n events decoded, want $want"
		return 1
	fi
	got=$(tracepoints "$tmp/i.dat")
	if [ "$got" = "$tps" ]; then
		ok "$label: tracepoints $got"
	else
		bad "$label: tracepoints '$got', want '$tps'"
	fi
}

# names: the "n" of each event, in order, on one line
names() { sed -e 's/^{"n":"\([^"]*\)".*/\1/' "$tmp/events" | tr '\n' ' '; }

# has LABEL EXTENDED-REGEX: some event matches
has() {
	if grep -Eq -- "$2" "$tmp/events"; then
		ok "$1"
	else
		bad "$1: no event matches /$2/"
	fi
}

if intercept "hello 3" 4 n,level,keyword EhExample_Hello_L4K1 \
	"$bin/tests/examples/hello-intercept" 3; then
	[ "$(names)" = "EhExample_Hello:Hello EhExample_Hello:Count EhExample_Hello:Count EhExample_Hello:Count " ] &&
		ok "hello: Hello, then Count 3 times" || bad "hello: events $(names)"
	like "hello: all at level 4, keyword 0x1" "$tmp/events" \
		'"meta":\{"level":4,"keyword":"0x1"\}\}$'
	has "hello: the greeting" '"greeting":"hello, world"'
fi

if intercept "activity" 8 n,opcode,activity,relatedActivity \
	"EhExample_Activity_L4K0 EhExample_Activity_L5K0" \
	"$bin/tests/examples/activity-intercept"; then
	[ "$(names)" = "EhExample_Activity:Session EhExample_Activity:Transfer EhExample_Activity:Progress EhExample_Activity:Transfer EhExample_Activity:Transfer EhExample_Activity:Progress EhExample_Activity:Transfer EhExample_Activity:Session " ] &&
		ok "activity: Session, two transfers, Session" ||
		bad "activity: events $(names)"
	like "activity: every event has an activity id" "$tmp/events" '"activity":"'
	[ "$(grep -c '"relatedActivity":"' "$tmp/events")" = 2 ] &&
		ok "activity: both transfers name the session as their parent" ||
		bad "activity: $(grep -c '"relatedActivity":"' "$tmp/events") events with a related activity, want 2"
	[ "$(grep -c '"opcode":1' "$tmp/events")" = 3 ] &&
	[ "$(grep -c '"opcode":2' "$tmp/events")" = 3 ] &&
		ok "activity: three starts, three stops" ||
		bad "activity: starts and stops do not match"
fi

if intercept "providers 2" 8 n,level,keyword \
	"EhExample_Alpha_L4K1 EhExample_Alpha_L5K2 EhExample_Beta_L2K10 EhExample_Beta_L3K1" \
	"$bin/tests/vm/providers-intercept" 2; then
	has "providers: Beta:Fail at level 2, keyword 0x10" \
		'^\{"n":"EhExample_Beta:Fail".*"meta":\{"level":2,"keyword":"0x10"\}\}$'
fi

if intercept "all-fields" 5 n,level,keyword EhExample_AllFields_L4K1 \
	"$bin/tests/examples/all-fields-intercept"; then
	[ "$(names)" = "EhExample_AllFields:Scalars EhExample_AllFields:Strings EhExample_AllFields:Arrays EhExample_AllFields:FixedArrays EhExample_AllFields:Structs " ] &&
		ok "all-fields: its five events" || bad "all-fields: events $(names)"
	like "all-fields: all at level 4, keyword 0x1" "$tmp/events" \
		'"meta":\{"level":4,"keyword":"0x1"\}\}$'
	has "all-fields: scalars" '"port":80,.*"ipv4":"127\.0\.0\.1","ipv6":"::1"'
	has "all-fields: strings" '"latin1":"café","utf8":"café","utf16":"hi"'
	has "all-fields: arrays" '"float32":\[0\.5,-1\.25\]'
	has "all-fields: structs" '"points":\[\{"x":0,"y":0\},\{"x":3,"y":4\},\{"x":-1,"y":2\}\],"packed":"0x1234"'
fi

if intercept "dynamic" 2 n,level,keyword \
	"EhExample_Dynamic_L4K1 EhExample_Dynamic_L5K2" \
	"$bin/tests/examples/dynamic-intercept" Login user=alice tries=3 \
	ratio=0.5; then
	has "dynamic: the event named on the command line" \
		'^\{"n":"EhExample_Dynamic:Login","user":"alice","tries":3,"ratio":0\.5,"meta":\{"level":4,"keyword":"0x1"\}\}$'
	has "dynamic: the summary" \
		'^\{"n":"EhExample_Dynamic:Summary","args":\{"count":3,"lengths":\[5,1,3\]\},"meta":\{"level":5,"keyword":"0x2"\}\}$'
fi
if intercept "dynamic -p -g" 2 n,options \
	"My_Provider_L4K1Ggrp My_Provider_L5K2Ggrp" \
	"$bin/tests/examples/dynamic-intercept" -p My_Provider -g grp; then
	has "dynamic: provider and group from the command line" \
		'^\{"n":"My_Provider:Args","meta":\{"options":"Ggrp"\}\}$'
fi

# --- every field macro in all-fields.c ------------------------------------------

# The public field macros: the variadic EH_ macros of eh-provider.h and
# EH_PACKED_DATA, less EH_VALUE (C++ only).
macros=$(sed -n -e 's/^#define \(EH_[A-Z0-9][A-Z0-9_]*\)(\.\.\.).*/\1/p' \
	"$src/libeventheader/include/eventheader/eh-provider.h" | grep -vx EH_VALUE)
macros="$macros EH_PACKED_DATA"
missing=
count=0
for m in $macros; do
	count=$((count + 1))
	grep -q "\\b$m(" "$src/examples/all-fields.c" || missing="$missing $m"
done
if [ "$count" -lt 100 ]; then
	bad "only $count field macros found in eh-provider.h"
elif [ -n "$missing" ]; then
	bad "examples/all-fields.c does not use:$missing"
else
	ok "examples/all-fields.c uses all $count field macros of eh-provider.h"
fi

finish
