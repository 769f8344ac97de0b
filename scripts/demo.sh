#!/bin/bash
# demo.sh - install what is needed, build, and show an instrumented program's
# events going through the kernel's user_events.
#
# The host kernel is used when it has user_events; otherwise (most
# distribution kernels today) the demo boots the test VM, a Linux 6.12 with
# CONFIG_USER_EVENTS under QEMU, and runs there.
set -euo pipefail
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$src/scripts/install-deps.sh"
echo "demo: building in $src/build"
"$src/scripts/build.sh" "$src/build"

guest=$src/scripts/demo-guest.sh
if [ -e /sys/kernel/tracing/user_events_data ] && [ "$(id -u)" = 0 ]; then
	echo "demo: this kernel has user_events: running here"
	exec "$guest" "$src/build"
fi
kernel=$(sed -n 's/^EH_TEST_KERNEL = //p' "$src/build/Makefile")
if [ -z "$kernel" ]; then
	echo "demo: this kernel has no user_events and no test kernel was found;" >&2
	echo "demo: build one with tests/vm/build-kernel.sh, then" >&2
	echo "demo: ./configure --with-test-kernel=PATH (see README)" >&2
	exit 1
fi
echo "demo: this kernel ($(uname -r)) has no user_events (CONFIG_USER_EVENTS):"
echo "demo: running inside the test VM (Linux 6.12 under QEMU, $kernel)"
exec "$src/tests/vm/run-in-vm.sh" -k "$kernel" -t 120 -- "$guest" "$src/build"
