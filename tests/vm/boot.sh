#!/bin/bash
# SPDX-License-Identifier: MIT
#
# boot.sh - run-in-vm.sh itself: the command's exit status comes back out
# of the guest, and a boot that has not started the command in time
# (EH_VM_START_LIMIT seconds; 0 here, so that no boot can be that quick)
# is started again twice, then given up with status 125 and the reason,
# also when the time limit is shorter (at half of it); a qemu stopped at
# once leaves the next boot its folder, and nothing running;
# a limit that is not a number is refused.
# Skips (77) without a kernel or QEMU, except in CI.
set -u -o pipefail

# shellcheck source=tests/vm/lib.sh
. "${EH_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/vm/lib.sh"
# shellcheck source=tests/common/test-lib.sh
. "$vm_srcdir/../common/test-lib.sh"
vm_require

# (the guest's output is on stdout; the runner's notices, such as a boot
# tried again after qemu crashed, on stderr)
err=$(mktemp "${TMPDIR:-/tmp}/boot-err.XXXXXX") || exit 99
out=$(vm_run -t 120 -- /bin/bash -c 'echo in the guest; exit 7' 2>"$err")
rc=$?
if [ "$rc" != 7 ] || [ "$out" != "in the guest" ]; then
	bad "a command's exit 7: status $rc, output '$out', notices '$(head -n 5 "$err")'"
else
	ok "the command's output and exit status 7 came back"
fi
rm -f "$err"

out=$(EH_VM_START_LIMIT=0 vm_run -t 120 -- /bin/true 2>&1)
rc=$?
again=$(grep -c "had not started the command 0 s after qemu did; booting again" <<<"$out")
if [ "$rc" != 125 ] || [ "$again" != 2 ] ||
   ! grep -q "did not run the command: the guest had not started" <<<"$out"; then
	bad "a boot that never starts the command: status $rc, $again retries: $(head -n 5 <<<"$out")"
else
	ok "a boot that never started the command: booted 3 times, then status 125"
fi
# A qemu stopped at once, three times (one that never boots: a script
# that sleeps, named as qemu): the harness boots again each time, its
# folder stays for the next boot, and nothing is left running.
fake=$(mktemp -d "${TMPDIR:-/tmp}/boot-test.XXXXXX") || exit 99
trap 'pkill -f "^$fake/" 2>/dev/null; rm -rf "$fake"' EXIT
printf '#!/bin/bash\nexec -a "$0" sleep 60\n' >"$fake/qemu-system-x86_64"
chmod +x "$fake/qemu-system-x86_64"
out=$(PATH=$fake:$PATH EH_VM_START_LIMIT=0 vm_run -t 120 -- /bin/true 2>&1)
rc=$?
again=$(grep -c "booting again" <<<"$out")
left=$(pgrep -f "^$fake/" | wc -l)
if [ "$rc" != 125 ] || [ "$again" != 2 ] || [ "$left" != 0 ] ||
   grep -q "No such file" <<<"$out"; then
	bad "a qemu stopped at once: status $rc, $again retries, $left left running: $(head -n 5 <<<"$out")"
else
	ok "a qemu stopped at once, three times: status 125, its folder kept, none left"
fi
# A time limit shorter than the start limit: a hung boot (the fake qemu)
# is still found, at half the time limit, and booted again.
out=$(PATH=$fake:$PATH EH_VM_START_LIMIT= vm_run -t 6 -- /bin/true 2>&1)
rc=$?
again=$(grep -c "had not started the command 3 s after qemu did; booting again" <<<"$out")
if [ "$rc" != 125 ] || [ "$again" != 2 ]; then
	bad "a hung boot under -t 6: status $rc, $again retries: $(head -n 5 <<<"$out")"
else
	ok "a hung boot under -t 6: found after 3 s, booted 3 times, then status 125"
fi
out=$(EH_VM_START_LIMIT=soon vm_run -t 120 -- /bin/true 2>&1)
rc=$?
if [ "$rc" != 125 ] || ! grep -q "EH_VM_START_LIMIT wants seconds, not 'soon'" <<<"$out"; then
	bad "EH_VM_START_LIMIT=soon: status $rc: $out"
else
	ok "EH_VM_START_LIMIT=soon refused (status 125)"
fi
finish
