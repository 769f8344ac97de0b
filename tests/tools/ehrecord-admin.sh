#!/bin/bash
# SPDX-License-Identifier: MIT
#
# ehrecord-admin.sh - ehrecord --check, --list, --register and
# --unregister on this machine's kernel (user_events on a kernel that has
# them: tests/vm/admin.sh):
#  - the command lines: what goes with what, bad SPECs (exit 2);
#  - --check: a line per requirement, each "STATE what: detail", exit 1
#    exactly when a line is FAIL; without user_events in the kernel the
#    user_events line fails and says so; -F jsonl says the same as JSON;
#    as root in a mount namespace of its own, tracefs unmounted is said
#    (and left unmounted), and tracefs mounted elsewhere is found there;
#    -- COMMAND: frame pointers found in examples/spin (built with them),
#    not in a program built without, and a missing program fails;
#  - without user_events: --list says in one line that user_events is
#    absent (exit 1), --list=all lists classic tracepoints all the same,
#    --register and --unregister say so too (exit 1).
# Parts that need a kernel without user_events, or root, are left out
# (said) where they do not hold.
set -u
bin=${EH_BUILDDIR:-.}
rec=$bin/tools/ehrecord
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ehrecord-admin.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/common/test-lib.sh
. "$(dirname "$0")/../common/test-lib.sh"



# has LABEL FILE REGEX: FILE has a line matching REGEX (extended).
has() {
	if grep -Eq -- "$3" "$2"; then
		ok "$1"
	else
		bad "$1: no line matches '$3' in: $(head -c 600 "$2")"
	fi
}

# Usage errors: exit 2, one line saying what and one pointing to --help.
usage() {	# usage LABEL ARG...
	local label=$1
	shift
	cli "usage error: $label" 2 "$rec" "$@"
	[ "$(wc -l <"$tmp/err")" = 2 ] && grep -q -- "--help" "$tmp/err" ||
		bad "usage error $label: not two lines: $(cat "$tmp/err")"
}
usage "--register without SPEC" --register
usage "--register Provider (no level)" --register MyProvider
usage "--register sched:sched_switch" --register sched:sched_switch
usage "--register with leading zeros" --register P_L04K1
grep -q "P_L4K1" "$tmp/err" || bad "no hint of the right name: $(cat "$tmp/err")"
usage "--register with uppercase hex" --register P_L4KFF
usage "--register P_L4K1/stacks" --register P_L4K1/stacks
usage "--unregister without SPEC" --unregister
usage "--unregister sched:x" --unregister sched:sched_switch
usage "--persist without --register" --persist -e P_L4K1
usage "--wait without --register" --wait --list
usage "--list with -e" --list -e P_L4K1
usage "--list with -o" --list -o x
usage "--list=bad" --list=bad
usage "--list with two patterns" --list a b
usage "--list and --check" --list --check
usage "-F jsonl when recording" -F jsonl -e P_L4K1
usage "-F perf with --list" -F perf --list
usage "-F jsonl with --register" -F jsonl --register P_L4K1
cli "--help names the new options" 0 "$rec" --help
for o in "--list[=all]" --check --register --persist --wait --unregister; do
	grep -qF -- "      $o  " "$tmp/out" || bad "--help has no $o line"
done

# --check: its lines
t=/sys/kernel/tracing
"$rec" --check >"$tmp/check" 2>"$tmp/err"
rc=$?
[ -s "$tmp/err" ] && bad "--check wrote on stderr: $(cat "$tmp/err")"
if grep -Evq '^(ok  |FAIL|warn|skip) [a-z_ ]+: ' "$tmp/check"; then
	bad "--check: a line not 'STATE what: detail': $(grep -Ev '^(ok  |FAIL|warn|skip) [a-z_ ]+: ' "$tmp/check")"
else
	ok "--check: $(wc -l <"$tmp/check") lines, each 'STATE what: detail'"
fi
names=$(sed -E 's/^[a-zA-Z]+ +([a-z_ ]+):.*/\1/' "$tmp/check" | tr '\n' ,)
[ "$names" = "kernel,tracefs,user_events,user_events_data,perf,kernel symbols," ] &&
	ok "--check: kernel, tracefs, user_events, user_events_data, perf, kernel symbols" ||
	bad "--check: the requirements are '$names'"
if grep -q '^FAIL' "$tmp/check"; then want=1; else want=0; fi
[ $rc = $want ] && ok "--check: exit $rc, as its FAIL lines say" ||
	bad "--check: exit $rc, but FAIL lines say $want"
grep '^FAIL' "$tmp/check" | grep -v '; fix: ' &&
	bad "--check: a FAIL line without its fix"
has "--check: the kernel's version" "$tmp/check" "^(ok  |FAIL) kernel: Linux $(uname -r | sed 's/[.+]/\\&/g') "

# --check finds tracefs where it is mounted, and mounts nothing: in a mount
# namespace of its own, without tracefs, then with it somewhere else
if [ "$(id -u)" = 0 ] && unshare -m --propagation private true 2>/dev/null; then
	unshare -m --propagation private /bin/sh -c "
		umount $t 2>/dev/null; umount /sys/kernel/debug 2>/dev/null
		\"\$1\" --check >\"\$2/check.none\"
		grep -q ' tracefs ' /proc/self/mounts && echo mounted >\"\$2/check.none\"
		mkdir -p \"\$2/tfs\" && mount -t tracefs nodev \"\$2/tfs\" &&
		\"\$1\" --check >\"\$2/check.moved\"" sh "$rec" "$tmp"
	has "--check without tracefs (root): says it is not mounted, mounts none" \
		"$tmp/check.none" '^warn tracefs: not mounted; ehrecord run as root mounts it'
	has "--check with tracefs mounted elsewhere: finds it there" \
		"$tmp/check.moved" "^ok   tracefs: mounted at $tmp/tfs, readable"
else
	echo "note: not root, or no unshare of the mount namespace: --check without tracefs not checked"
fi

# The kernel without user_events (this host, most CI hosts).
no_ue=no
if [ -d $t/events ] && [ ! -e $t/user_events_data ]; then
	no_ue=yes
elif [ -r /proc/config.gz ] && gzip -dc /proc/config.gz 2>/dev/null |
	grep -q '^# CONFIG_USER_EVENTS is not set'; then
	no_ue=yes
fi
if [ $no_ue = yes ]; then
	[ $rc = 1 ] && ok "--check without user_events: exit 1" ||
		bad "--check without user_events: exit $rc"
	has "--check without user_events: it fails, and says so" "$tmp/check" \
		'^FAIL user_events: not in this kernel.*; fix: a kernel built with CONFIG_USER_EVENTS=y'
	"$rec" --check -F jsonl >"$tmp/check.jsonl" 2>"$tmp/err"
	rc=$?
	python3 - "$tmp/check.jsonl" "$tmp/check" <<'EOF' && ok "--check -F jsonl: the same lines as JSON (exit $rc)" || bad "--check -F jsonl (exit $rc)"
import json, sys
got = [json.loads(line) for line in open(sys.argv[1])]
text = open(sys.argv[2]).read().splitlines()
assert len(got) == len(text), (len(got), len(text))
for j, t in zip(got, text):
    assert t.startswith("%-4s %s: %s" % (j["state"], j["check"], j["detail"])), (j, t)
    assert ("fix" in j) == ("; fix: " in t), (j, t)
ue = [j for j in got if j["check"] == "user_events"][0]
assert ue["state"] == "FAIL" and ue["detail"].startswith("not in this kernel"), ue
EOF
	[ $rc = 1 ] || bad "--check -F jsonl: exit $rc, not 1"

	# --list: says that user_events is absent, exit 1
	cli "--list without user_events" 1 "$rec" --list
	[ "$(wc -l <"$tmp/err")" = 1 ] && [ ! -s "$tmp/out" ] &&
		grep -q "user_events: not in this kernel" "$tmp/err" &&
		ok "--list: one line: $(cat "$tmp/err")" ||
		bad "--list: $(cat "$tmp/err" "$tmp/out")"
	cli "--register without user_events" 1 "$rec" --register P_L4K1
	grep -q "user_events: not in this kernel" "$tmp/err" ||
		bad "--register: $(cat "$tmp/err")"
	cli "--unregister without user_events" 1 "$rec" --unregister P_L4K1
	grep -q "user_events: not in this kernel" "$tmp/err" ||
		bad "--unregister: $(cat "$tmp/err")"
	if [ -r $t/events/sched/sched_switch/id ]; then
		cli "--list=all without user_events" 0 "$rec" --list=all 'sched:sched_sw*'
		has "--list=all: sched:sched_switch, undecoded" "$tmp/out" \
			'^sched:sched_switch +- +- +- +- +-$'
		has "--list=all: the header" "$tmp/out" \
			'^TRACEPOINT +PROVIDER +LEVEL +KEYWORD +GROUP +ENABLED$'
		grep -q "user_events: not in this kernel.*classic tracepoints only" "$tmp/err" &&
			ok "--list=all says user_events is absent" ||
			bad "--list=all: $(cat "$tmp/err")"
		cli "--list=all -F jsonl" 0 "$rec" --list=all -F jsonl sched:sched_switch
		python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert rows == [{"tracepoint": "sched:sched_switch", "system": "sched",
                 "name": "sched_switch", "eventheader": False}], rows
' "$tmp/out" && ok "--list=all -F jsonl: sched:sched_switch as JSON" ||
			bad "--list=all -F jsonl: $(cat "$tmp/out")"
		cli "--list=all, a pattern that matches nothing" 0 "$rec" --list=all 'nosuch:*'
		grep -q "no tracepoint matches nosuch:\*" "$tmp/err" ||
			bad "nothing matched, but: $(cat "$tmp/err")"
	else
		echo "tracefs cannot be read here: --list=all not checked"
	fi
else
	echo "this kernel has user_events: the checks of a kernel without them are left out"
fi

# --check -- COMMAND: frame pointers
spin=$bin/examples/spin
prov=$bin/examples/providers
cli "--check -- examples/spin" $want "$rec" --check -- "$spin" 1
has "examples/spin has frame pointers" "$tmp/out" \
	"^ok   frame pointers: [0-9]+ of the [0-9]+ functions of $spin "
cli "--check -- examples/providers" $want "$rec" --check -- "$prov" 3
if grep -Eq -- '^(EH_)?CFLAGS = .*-fno-omit-frame-pointer' "$bin/Makefile" 2>/dev/null; then
	echo "built with -fno-omit-frame-pointer: examples/providers not checked"
else
	has "examples/providers has none" "$tmp/out" \
		"^warn frame pointers: only [0-9] of the [0-9]+ functions of $prov .*; fix: build it with -fno-omit-frame-pointer"
fi
cli "--check -- a missing program" 1 "$rec" --check -- "$tmp/nosuch"
has "a missing program fails" "$tmp/out" "^FAIL command: $tmp/nosuch: No such file"
printf '#!/bin/sh\nexit 0\n' >"$tmp/script.sh" && chmod +x "$tmp/script.sh"
cli "--check -- a script" $want "$rec" --check -- "$tmp/script.sh"
has "a script is not checked" "$tmp/out" "^warn frame pointers: .* is not an ELF program"

finish
