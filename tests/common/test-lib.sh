# SPDX-License-Identifier: MIT
# test-lib.sh - what the shell tests share; sourced, never run:
#
#	. "$(dirname "$0")/../common/test-lib.sh"
#	ok "what held"; bad "what did not"
#	[ -r "$file" ] || skip "no $file"
#	finish		# the counts; status 0 only if nothing failed
#
# skip exits 77 (automake's SKIP), except with CI=true, where a test that
# cannot run is a failure. With TEST_TIMES=1 set before, each line ends
# with the seconds since the start (the VM tests).

passed=0
failed=0

test_when() { [ "${TEST_TIMES:-}" = 1 ] && echo " [${SECONDS}s]"; }
ok() { echo "ok: $*$(test_when)"; passed=$((passed + 1)); }
bad() { echo "FAIL: $*$(test_when)"; failed=$((failed + 1)); }
# losses FILE...: the lines of a recorder's or decoder's messages that
# report lost events, shown (not counted), so that a check failing on
# missing events says why.
losses() { grep -h ' lost' "$@" 2>/dev/null | sed 's/^/note: /'; }

# result_field FILE KEY: the value of KEY=... on the last "result" line
# of FILE (what live-load, bench/producer and the guests print); nothing
# when there is no such line or no FILE. Shared with the bench scripts.
result_field() {
	sed -n "s/^result .*\\b$2=\\([^ ]*\\).*/\\1/p" "$1" 2>/dev/null | tail -n 1
}

# real_program: when $tool is a libtool wrapper script (a shell in front
# of the program, in its time and, exec keeping the high-water mark, in
# its peak RSS), $tool becomes the program itself and run=(env
# LD_LIBRARY_PATH=...) what runs it as libtool would, by $LIBTOOL; run=()
# otherwise. Without LIBTOOL the wrapper stays, and says so. For the
# benches ($me names the script).
real_program() {
	local lt
	run=()
	head -c 2 "$tool" | grep -q '^#!' || return 0
	if [ -z "${LIBTOOL:-}" ]; then
		echo "$me: $tool is a script (libtool wrapper?): set LIBTOOL to measure the program itself"
		return 0
	fi
	# shellcheck disable=SC2086,SC2016 # LIBTOOL may be "/bin/bash ./libtool"
	lt=$($LIBTOOL --mode=execute /bin/sh -c \
		'printf "%s\n%s" "$0" "${LD_LIBRARY_PATH-}"' "$tool") ||
		{ echo "$me: $LIBTOOL --mode=execute failed" >&2; exit 1; }
	tool=${lt%%$'\n'*}
	run=(env "LD_LIBRARY_PATH=${lt#*$'\n'}")
}

# What the benches that read the conformance corpus begin with ($me names
# the script, $srcdir is the source tree):
#   bench_corpus       $corpus = the shared folder's perf.data; without
#                      it, SKIP and exit 77 (a bench, not a test: CI=true
#                      does not make it a failure)
#   bench_built P...   each program P is built, or exit 1
#   bench_tmp NAME     $out = a new folder, removed at exit (the trap)
#   bench_time         have_time=1 when /usr/bin/time is there (for peak
#                      RSS), else empty, and said
bench_corpus() {
	corpus=${EH_SHARED_DIR:-$srcdir/../shared}/conformance/eventheader/perf.data
	[ -f "$corpus" ] && return 0
	echo "SKIP: $me: no $corpus (set EH_SHARED_DIR to the shared folder)"
	exit 77
}
bench_built() {
	local p
	for p in "$@"; do
		[ -x "$p" ] || { echo "$me: $p not built (make bench builds it)" >&2; exit 1; }
	done
}
bench_tmp() {
	out=$(mktemp -d "${TMPDIR:-/tmp}/eh-bench-$1.XXXXXX") || exit 1
	# shellcheck disable=SC2064 # $out is fixed from here on
	trap "rm -rf '$out'" EXIT
}
bench_time() {
	have_time=1
	[ -x /usr/bin/time ] && return 0
	have_time=
	echo "$me: no /usr/bin/time (apt-get install time): no peak RSS"
}

# heph_example FILE: the Heph specification's example trace, an epoch
# packet (23 bytes) and an event packet (91), written to FILE.
heph_example() {
	printf '\x75\xd1\x1d\x4d\x00\x00\x00\x17\x00\x05epoch\x16\x58\x45\xe9\x12\x14\xec\x90' >"$1"
	printf '\xc1\xfc\x1f\xb7\x00\x00\x00\x5b\x00\x00\x00\x00\x00\x00\x00\x00' >>"$1"
	printf '\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x64' >>"$1"
	printf '\x00\x00\x00\x00\x00\x00\x00\xc8\x00\x08My event' >>"$1"
	printf '\x00\x04Test\x01\x00\x00\x00\x00\x00\x00\x00\x7b' >>"$1"
	printf '\x00\x05Test2\x83\x00\x02\x40\x5e\xdd\x2f\x1a\x9f\xbe\x77' >>"$1"
	printf '\x40\x88\xa8\x00\x00\x00\x00\x00' >>"$1"
}

# cli LABEL WANT_EXIT COMMAND...: run it (stdout to $tmp/out, stderr to
# $tmp/err), check its exit status.
cli() {
	local label=$1 want=$2 rc
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc = "$want" ]; then
		ok "$label (exit $rc)"
	else
		bad "$label: exit $rc, want $want: $(head -n 2 "$tmp/err")"
	fi
}
skip() {
	if [ "${CI:-}" = true ]; then
		echo "FAIL: CI must run this, but: $*"
		exit 1
	fi
	echo "SKIP: $*"
	exit 77
}

finish() {
	echo "$(basename "$0" .sh): $passed passed, $failed failed"
	[ "$failed" = 0 ]
	exit
}

# Times read without a fork: under TCG a fork of date(1) or sleep(1) can
# take a good part of a second, and would count in what is timed.
#   stamp VAR        VAR = now, in µs (bash's $EPOCHREALTIME)
#   ms_since VAR T   VAR = ms from stamp T to now
#   secs_since VAR T VAR = seconds from stamp T to now, to the ms ("0.304")
#   nap SECS         a pause: a read that times out on a FIFO no one
#                    writes (made and opened on the first call)
stamp() { printf -v "$1" '%s' "${EPOCHREALTIME/./}"; }
ms_since() { printf -v "$1" '%d' $(( (${EPOCHREALTIME/./} - $2) / 1000 )); }
secs_since() {
	local _us=$(( ${EPOCHREALTIME/./} - $2 ))
	printf -v "$1" '%d.%03d' $((_us / 1000000)) $((_us % 1000000 / 1000))
}
nap_fd=
nap() {
	local fifo
	if [ -z "$nap_fd" ]; then
		fifo=$(mktemp -u "${TMPDIR:-/tmp}/nap.XXXXXX") &&
			mkfifo "$fifo" && exec {nap_fd}<>"$fifo" &&
			rm -f "$fifo" || return 1
	fi
	read -r -t "$1" -u "$nap_fd"
	return 0
}

# until_ok SECONDS COMMAND...: run COMMAND until it succeeds, for at most
# SECONDS (TCG is slow: a run of ehrecord takes a while), every 0.1 s
until_ok() {
	local end=$((SECONDS + $1))

	shift
	while :; do
		"$@" && return 0
		[ $SECONDS -lt $end ] || return 1
		nap 0.1
	done
}

# ended PID: PID has exited (gone, or a zombie not yet waited for)
ended() { ! grep -q '^[0-9]* (.*) [^Z]' /proc/"$1"/stat 2>/dev/null; }

# catching PID: true once PID handles SIGINT (its SigCgt has bit 1), false
# if it ends or 4 s pass first: a background job starts with SIGINT
# ignored, and so it stays until a tool sets its handler (ehrecord's:
# before it makes its output file)
catching() {
	local mask
	for _ in $(seq 1 200); do
		mask=$(sed -n 's/^SigCgt:\t*//p' /proc/"$1"/status 2>/dev/null)
		[ -n "$mask" ] || return 1
		[ $(((16#$mask >> 1) & 1)) = 1 ] && return 0
		nap 0.02
	done
	return 1
}

# nobody_tools DIR TOOL...: copies of built programs that uid 65534 can
# run, whatever folder the build is in (a clone under /root is out of its
# reach): each program itself, not libtool's wrapper script, and the
# shared library beside them, all in DIR (made, readable by all). Run one
# as: env LD_LIBRARY_PATH=DIR DIR/NAME.
nobody_tools() {
	local dir=$1 t lib

	shift
	mkdir -p "$dir" && chmod 755 "$dir" || return 1
	for t in "$@"; do
		# libtool's wrapper starts with "#!"; the program is in .libs
		if head -c 2 "$t" | grep -q '^#!'; then
			t=$(dirname "$t")/.libs/$(basename "$t")
		fi
		cp "$t" "$dir/" || return 1
	done
	lib=$(dirname "$(dirname "$t")")
	[ "$(basename "$lib")" = tools ] && lib=$(dirname "$lib")
	cp -P "$lib"/decode/.libs/libehdecode.so* "$dir/" 2>/dev/null
	chmod -R a+rX "$dir"
}

# spin_exec_anew JSONL PID LIFE: whether, in a decoded system trace, spin's
# process PID ends as ehrecord's copy at its exec and begins anew — a
# ProcessExit, then ProcessCreate "spin", and after it spin's mappings and
# none of ehrecord's (PerfView keeps a process's modules until it ends).
# LIFE gets the process's system events, one "KIND [NAME|FILE]" a line.
spin_exec_anew() {
	local after

	grep "^{\"n\":\"Universal.System:[A-Za-z]*\".*\"pid\":$2," "$1" |
		sed -n 's/^{"n":"Universal.System:\([A-Za-z]*\)".*"FileName":"\([^"]*\)".*/\1 \2/p
			s/^{"n":"Universal.System:\(Process[A-Za-z]*\)","NamespaceId":[0-9]*,"Name":"\([^"]*\)".*/\1 \2/p
			s/^{"n":"Universal.System:\(ProcessExit\)".*/\1/p' >"$3"
	after=$(sed -n '/^ProcessCreate spin$/,$p' "$3")
	grep -B1 '^ProcessCreate spin$' "$3" | head -n 1 | grep -q '^ProcessExit$' &&
		echo "$after" | grep -q '^ProcessMapping .*/examples/spin$' &&
		! echo "$after" | grep -q '^ProcessMapping .*ehrecord$'
}
