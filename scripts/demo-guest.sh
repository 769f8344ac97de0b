#!/bin/bash
# demo-guest.sh BUILDDIR - the demo proper, as root on a kernel with
# user_events: start the hello example (it registers its tracepoint and
# waits), enable the tracepoint in tracefs, and print what the kernel
# recorded.
set -euo pipefail
build=$1
t=/sys/kernel/tracing
tp=EhExample_Hello_L4K1

echo 0 >"$t/trace"
"$build/examples/hello" -w 3 &
pid=$!
for _ in $(seq 100); do
	[ -d "$t/events/user_events/$tp" ] && break
	sleep 0.05
done
echo "demo: hello (pid $pid) registered user_events:$tp:"
sed 's/^/  /' "$t/events/user_events/$tp/format"
echo 1 >"$t/events/user_events/$tp/enable"
wait "$pid"
# Read before disabling: once disabled, the kernel deletes the event (its
# program has exited) and the records can no longer be shown by name.
echo "demo: what the kernel recorded (tracefs shows the EventHeader header"
echo "demo: fields; the event name and payload follow them in each record):"
grep "$tp" "$t/trace" | sed 's/^ */  /' || true
n=$(grep -c "$tp" "$t/trace" || true)
echo 0 >"$t/events/user_events/$tp/enable" 2>/dev/null || true
echo "demo: $n events recorded (expected 4)"
[ "$n" = 4 ]
