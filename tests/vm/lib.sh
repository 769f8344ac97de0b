# shellcheck shell=bash
# SPDX-License-Identifier: MIT
#
# lib.sh - sourced by the VM test wrappers (tests/vm/*.sh in TESTS).
#
# Sets vm_srcdir (tests/vm of the source tree) and vm_bindir (tests/vm of
# the build tree) from EH_SRCDIR/EH_BUILDDIR, which make check exports, and
# provides:
#
#	vm_require             exit 77 (SKIP) with one line saying why when no
#	                       VM can run here: no test kernel or no QEMU. With
#	                       CI=true that is a failure (exit 1) instead: CI
#	                       must run these tests.
#	vm_run [OPTIONS] -- COMMAND...
#	                       run-in-vm.sh with the source and build trees
#	                       visible (read-only) in the guest, also when
#	                       they are under /tmp, which the guest replaces.
#	vm_need DIR FILE...    exit 99 (ERROR) unless each DIR/FILE is an
#	                       executable (make check builds them)
#	vm_guest [-e NAME]... SECONDS SCRIPT [ARG]...
#	                       boot once and run "bash SCRIPT ARG..." there,
#	                       for at most SECONDS, with each variable NAME
#	                       that is set here set there too; say how long
#	                       it took and exit with its status

vm_srcdir=${EH_SRCDIR:+$EH_SRCDIR/tests/vm}
vm_srcdir=${vm_srcdir:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)}
vm_bindir=${EH_BUILDDIR:-$PWD}/tests/vm

vm_require() {
	local why

	why=$(/bin/bash "$vm_srcdir/run-in-vm.sh" --check 2>&1) && return 0
	if [ "${CI:-}" = true ]; then
		echo "FAIL: the VM tests must run in CI, but: $why"
		exit 1
	fi
	echo "SKIP: $why"
	exit 77
}

vm_run() {
	local trees=(-r "$vm_bindir")

	[ -n "${EH_SRCDIR:-}" ] && trees+=(-r "$EH_SRCDIR")
	[ -n "${EH_BUILDDIR:-}" ] && trees+=(-r "$EH_BUILDDIR")
	/bin/bash "$vm_srcdir/run-in-vm.sh" "${trees[@]}" "$@"
}

vm_need() {
	local dir=$1 f

	shift
	for f in "$@"; do
		[ -x "$dir/$f" ] ||
			{ echo "ERROR: $dir/$f is missing (make check builds it)"; exit 99; }
	done
}

vm_guest() {
	local envs=() limit started=$SECONDS rc

	while [ "${1:-}" = -e ]; do
		envs+=(-e "$2")
		shift 2
	done
	limit=$1
	shift
	vm_run "${envs[@]}" -t "$limit" -- /bin/bash "$@"
	rc=$?
	echo "$(basename "$0"): VM run took $((SECONDS - started)) s, exit status $rc"
	exit $rc
}
