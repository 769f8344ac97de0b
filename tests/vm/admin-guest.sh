#!/bin/bash
# SPDX-License-Identifier: MIT
#
# admin-guest.sh BUILDDIR - runs inside the test VM (see admin.sh):
# ehrecord --check, --list, --register and --unregister on user_events:
#  - --check as root: every line ok, exit 0 (examples/spin: frame
#    pointers); as uid 65534: tracefs and perf fail, exit 1;
#  - --list: nothing at first; the four tracepoints of examples/providers
#    while it runs, decoded (provider, level, keyword), in the table and
#    as JSON; "by ftrace", "by perf" and both as consumers come; a group;
#  - --register, then perf record -e user_events:..., then the program:
#    every event is in perf.data, the first one too (and perf record
#    cannot even start on those tracepoints without them registered);
#  - --persist: the tracepoint outlives ehrecord; --wait holds it too;
#    --unregister removes it, refuses one in use (EBUSY) and one that does
#    not exist; --persist on a tracepoint a program registered first says
#    that the kernel does not make it persistent;
#  - the kernel's rules for uid 65534 with write access to
#    user_events_data: --register works, --persist is refused (EPERM:
#    CAP_PERFMON), and so is --unregister of a persistent tracepoint;
#    with CAP_PERFMON both work.
# Exit status 0 only if every check passed.
set -u

build=${1:?usage: admin-guest.sh BUILDDIR}
rec=$build/tools/ehrecord
dec=$build/tools/ehdecode
ex=$build/examples/providers
T=/sys/kernel/tracing
t=/tmp/admin
mkdir -p $t && cd $t || exit 1
TEST_TIMES=1
# shellcheck source=tests/common/test-lib.sh
. "$(dirname "$0")/../common/test-lib.sh"

# stop PID SIG [SECONDS]: send SIG, wait for PID (SECONDS, default 20, at
# most: then SIGKILL, and a failure); its exit status.
stop() {
	kill -"$2" "$1"
	until_ok "${3:-20}" ended "$1" ||
		{ bad "pid $1 did not end at SIG$2"; kill -KILL "$1"; }
	wait "$1"
}

# The ENABLED column of TRACEPOINT in --list.
enabled() {
	"$rec" --list "$1" 2>/dev/null |
		awk -v tp="user_events:$1" '$1 == tp { sub(/.*  /, ""); print }'
}
enabled_is() { [ "$(enabled "$1")" = "$2" ]; }

# The four tracepoints of examples/providers
tps=(EhExample_Alpha_L4K1 EhExample_Alpha_L5K2 EhExample_Beta_L3K1
     EhExample_Beta_L2K10)

echo "guest: Linux $(uname -r), $(nproc) CPUs"

# 1. --check as root: everything ok
"$rec" --check -- "$build/examples/spin" >check 2>err
rc=$?
if [ $rc = 0 ] && ! grep -q '^FAIL' check &&
   grep -q '^ok   user_events: in this kernel' check &&
   grep -q '^ok   user_events_data: ' check &&
   grep -q '^ok   frame pointers: ' check; then
	ok "--check as root: exit 0, user_events there, frame pointers in examples/spin"
else
	bad "--check as root: exit $rc: $(cat check err)"
fi

# 2. --list: none yet
"$rec" --list >out 2>err
rc=$?
[ $rc = 0 ] && [ ! -s out ] && grep -q "no user_events tracepoint exists now" err &&
	ok "--list with none: exit 0, '$(cat err)'" ||
	bad "--list with none: exit $rc: $(cat out err)"

# 3. --list while examples/providers runs (stopped once its tracepoints
# are there: it keeps them registered)
"$ex" -w 1 >/dev/null 2>&1 &
expid=$!
has4() { [ "$("$rec" --list 'EhExample_*' 2>/dev/null | grep -c '^user_events:')" = 4 ]; }
until_ok 10 has4 || bad "examples/providers' tracepoints did not appear"
kill -STOP $expid
"$rec" --list 'EhExample_*' >list 2>err
cat list
want='^user_events:EhExample_Alpha_L4K1 +EhExample_Alpha +4 info +0x1 +- +no$'
grep -Eq "$want" list && grep -Eq '^user_events:EhExample_Beta_L2K10 +EhExample_Beta +2 error +0x10 +- +no$' list &&
	ok "--list decodes provider, level and keyword" ||
	bad "--list: $(cat list err)"
"$rec" --list -F jsonl EhExample_Beta >jsonl 2>err
cat >jsonl.want <<'EOF'
{"tracepoint":"user_events:EhExample_Beta_L2K10","system":"user_events","name":"EhExample_Beta_L2K10","eventheader":true,"provider":"EhExample_Beta","level":2,"keyword":"0x10","group":"","options":"","enabled":false,"consumers":[]}
{"tracepoint":"user_events:EhExample_Beta_L3K1","system":"user_events","name":"EhExample_Beta_L3K1","eventheader":true,"provider":"EhExample_Beta","level":3,"keyword":"0x1","group":"","options":"","enabled":false,"consumers":[]}
EOF
cmp -s jsonl.want jsonl && ok "--list -F jsonl: EhExample_Beta's two tracepoints" ||
	bad "--list -F jsonl: $(cat jsonl err)"
[ "$("$rec" --list EhExample_Alpha_L5K2 | grep -c '^user_events:')" = 1 ] &&
	ok "--list with a full name: that one" || bad "--list EhExample_Alpha_L5K2"
# consumers: ftrace, perf, both
echo 1 >$T/events/user_events/EhExample_Beta_L3K1/enable
until_ok 5 enabled_is EhExample_Beta_L3K1 "by ftrace" &&
	ok "--list: enabled by ftrace" ||
	bad "--list: ftrace: '$(enabled EhExample_Beta_L3K1)'"
"$rec" -q -o $t/r.nettrace -e EhExample_Beta_L3K1 -e EhExample_Alpha_L4K1 \
	2>rerr &
rpid=$!
until_ok 30 enabled_is EhExample_Alpha_L4K1 "by perf" &&
	ok "--list: enabled by perf (ehrecord)" ||
	bad "--list: perf: '$(enabled EhExample_Alpha_L4K1)'"
until_ok 10 enabled_is EhExample_Beta_L3K1 "by ftrace, perf" &&
	ok "--list: enabled by ftrace, perf" ||
	bad "--list: both: '$(enabled EhExample_Beta_L3K1)'"
stop $rpid INT || bad "ehrecord: exit $?: $(cat rerr)"
echo 0 >$T/events/user_events/EhExample_Beta_L3K1/enable
kill -KILL $expid
wait $expid 2>/dev/null

# 4. --register, perf record, then the program: the first event is there
perf record -q -a -o $t/none.data -e user_events:EhExample_Alpha_L4K1 \
	-- true >/dev/null 2>perr && bad "perf record started on a tracepoint that does not exist" ||
	ok "without registration, perf record cannot start: $(grep -m 1 -i event perr)"
"$rec" --register "${tps[@]}" >reg.out 2>reg.err &
regpid=$!
lines_are() { [ "$(wc -l <"$1")" = "$2" ]; }
until_ok 10 lines_are reg.out 4 ||
	bad "--register printed $(wc -l <reg.out) names: $(cat reg.err)"
printf 'user_events:%s\n' "${tps[@]}" >reg.want
cmp -s reg.want reg.out && ok "--register prints the perf names" ||
	bad "--register printed: $(cat reg.out)"
[ "$("$rec" --list 'EhExample_*' | grep -c '^user_events:EhExample_.* no$')" = 4 ] &&
	ok "--list shows them, registered by ehrecord alone" ||
	bad "--list after --register: $("$rec" --list 2>&1)"
events=$(printf 'user_events:%s,' "${tps[@]}")
perf record -D 100 -a -o $t/p.data -e "${events%,}" >/dev/null 2>perf.err &
ppid=$!
until_ok 60 grep -q 'Events enabled' perf.err ||
	bad "perf record did not enable its events: $(cat perf.err)"
"$ex" 5 >/dev/null
stop $ppid INT 120
"$dec" -F jsonl -m n p.data >p.jsonl 2>derr || bad "ehdecode p.data: $(cat derr)"
n=$(wc -l <p.jsonl)
if [ "$n" = 20 ] && grep -q '"n":"EhExample_Alpha:Start","i":0,' p.jsonl; then
	ok "perf record after --register: all 20 events, the program's first ($(grep -m 1 '"i":0,' p.jsonl)) too"
else
	bad "perf record after --register: $n events: $(head -n 3 p.jsonl)"
fi
stop $regpid TERM
rc=$?
[ $rc = 0 ] && ok "--register ends at SIGTERM, exit 0" ||
	bad "--register: exit $rc: $(cat reg.err)"
gone() { ! "$rec" --list "$1" 2>/dev/null | grep -q "^user_events:$1 "; }
until_ok 5 gone EhExample_Alpha_L4K1 &&
	ok "without --persist the tracepoints go with ehrecord" ||
	bad "after --register ended: $("$rec" --list 2>&1)"

# 5. --persist, --wait, --unregister
"$rec" --register --persist EhAdmin_Keep_L4K1 user_events:EhAdmin_Keep_L5K0Gmygroup \
	>out 2>err
rc=$?
[ $rc = 0 ] && [ "$(cat out)" = "$(printf 'user_events:EhAdmin_Keep_L4K1\nuser_events:EhAdmin_Keep_L5K0Gmygroup')" ] &&
	ok "--register --persist: exit 0 at once" ||
	bad "--register --persist: exit $rc: $(cat out err)"
"$rec" --list EhAdmin_Keep >list 2>err
grep -Eq '^user_events:EhAdmin_Keep_L5K0Gmygroup +EhAdmin_Keep +5 verbose +0x0 +mygroup +no$' list &&
	grep -q '^user_events:EhAdmin_Keep_L4K1 ' list &&
	ok "persistent tracepoints outlive ehrecord; the group is decoded" ||
	bad "--list after --persist: $(cat list err)"
"$rec" --unregister EhAdmin_Keep_L4K1 user_events:EhAdmin_Keep_L5K0Gmygroup >out 2>err
rc=$?
[ $rc = 0 ] && gone EhAdmin_Keep_L4K1 && gone EhAdmin_Keep_L5K0Gmygroup &&
	ok "--unregister removes them" || bad "--unregister: exit $rc: $(cat out err)"
"$rec" --unregister EhAdmin_Keep_L4K1 >out 2>err
rc=$?
[ $rc = 1 ] && grep -q "there is no such tracepoint" err &&
	ok "--unregister of none: exit 1: $(cat err)" ||
	bad "--unregister of none: exit $rc: $(cat err)"
rm -f out	# until_ok below waits for this run's output
"$rec" --register --persist --wait EhAdmin_Wait_L4K1 >out 2>err &
pid=$!
until_ok 10 test -s out || bad "--persist --wait printed nothing"
sleep 0.5
kill -0 $pid 2>/dev/null && ok "--persist --wait holds on" ||
	bad "--persist --wait ended by itself: $(cat err)"
stop $pid INT || bad "--persist --wait: exit $?: $(cat err)"
gone EhAdmin_Wait_L4K1 && bad "--persist --wait: the tracepoint went at the end" ||
	ok "--persist --wait: the tracepoint stays after the signal"
# in use: a program (here ehrecord without --persist) has it registered
rm -f out	# until_ok below waits for this run's output
"$rec" --register EhAdmin_Wait_L4K1 >out 2>err &
pid=$!
until_ok 10 test -s out
"$rec" --unregister EhAdmin_Wait_L4K1 >out2 2>err2
rc=$?
[ $rc = 1 ] && grep -q "it is in use" err2 &&
	ok "--unregister of one in use: exit 1: $(cat err2)" ||
	bad "--unregister in use: exit $rc: $(cat err2); the holder said: $(cat err)"
stop $pid INT
"$rec" --unregister EhAdmin_Wait_L4K1 || bad "--unregister after its user ended"
# --persist on one a program registered first: not made persistent
rm -f out	# until_ok below waits for this run's output
"$rec" --register EhAdmin_First_L4K1 >out 2>err &
pid=$!
until_ok 10 test -s out
"$rec" --register --persist EhAdmin_First_L4K1 >out2 2>err2
rc=$?
[ $rc = 0 ] && grep -q "existed already" err2 &&
	ok "--persist on an existing tracepoint says so: $(cat err2)" ||
	bad "--persist on an existing one: exit $rc: $(cat err2)"
stop $pid INT
until_ok 5 gone EhAdmin_First_L4K1 &&
	ok "... and indeed it went with its first registration" ||
	bad "EhAdmin_First_L4K1 stayed: the kernel made it persistent after all"

# 6. uid 65534 with write access to user_events_data
nobody_tools /tmp/nobody "$rec" || bad "cannot copy ehrecord for uid 65534"
nb=(env LD_LIBRARY_PATH=/tmp/nobody /tmp/nobody/ehrecord)
# (not a function: a background job's signals must reach ehrecord itself)
as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
"${as_nobody[@]}" "${nb[@]}" --check >check 2>err
rc=$?
[ $rc = 1 ] && grep -q '^FAIL tracefs: .*cannot read it' check &&
	grep -q '^FAIL perf: no CAP_PERFMON' check &&
	ok "--check as uid 65534: exit 1, tracefs and perf fail" ||
	bad "--check as uid 65534: exit $rc: $(cat check err)"
modes=$(stat -c %a $T $T/user_events_data $T/user_events_status | tr '\n' ' ')
chmod o+rx $T && chmod o+rw $T/user_events_data && chmod o+r $T/user_events_status
"${as_nobody[@]}" "${nb[@]}" --register --persist EhAdmin_Nobody_L4K1 >out 2>err
rc=$?
[ $rc = 1 ] && grep -q "Operation not permitted (persistent registration needs CAP_PERFMON" err &&
	ok "--persist without CAP_PERFMON: refused: $(cat err)" ||
	bad "--persist as uid 65534: exit $rc: $(cat out err)"
gone EhAdmin_Nobody_L4K1 || bad "a refused --persist left EhAdmin_Nobody_L4K1"
rm -f out	# until_ok below waits for this run's output
"${as_nobody[@]}" "${nb[@]}" --register EhAdmin_Nobody_L4K1 >out 2>err &
pid=$!
until_ok 10 test -s out && ok "--register without --persist works for uid 65534" ||
	bad "--register as uid 65534: $(cat err)"
stop $pid INT
"$rec" --register --persist EhAdmin_Root_L4K1 >/dev/null
"${as_nobody[@]}" "${nb[@]}" --unregister EhAdmin_Root_L4K1 >out 2>err
rc=$?
[ $rc = 1 ] && grep -q "needs CAP_PERFMON" err &&
	ok "--unregister of a persistent one without CAP_PERFMON: refused: $(cat err)" ||
	bad "--unregister as uid 65534: exit $rc: $(cat err)"
"${as_nobody[@]}" --inh-caps=+perfmon --ambient-caps=+perfmon "${nb[@]}" \
	--register --persist EhAdmin_Perfmon_L4K1 >out 2>err &&
	"${as_nobody[@]}" --inh-caps=+perfmon --ambient-caps=+perfmon "${nb[@]}" \
		--unregister EhAdmin_Perfmon_L4K1 EhAdmin_Root_L4K1 >>out 2>>err &&
	ok "with CAP_PERFMON, uid 65534 may --persist and --unregister" ||
	bad "uid 65534 with CAP_PERFMON: $(cat out err)"
read -r m1 m2 m3 <<<"$modes"
chmod "$m1" $T && chmod "$m2" $T/user_events_data && chmod "$m3" $T/user_events_status

finish
