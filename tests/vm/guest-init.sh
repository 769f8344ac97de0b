#!/bin/sh
# SPDX-License-Identifier: MIT
#
# guest-init.sh - process 1 of the test guest (run-in-vm.sh boots the
# kernel with init=/bin/sh and this script as its argument).
#
# The root file system is the host's /, read-only. This script mounts the
# kernel file systems, gives the guest its own /tmp, /run and /dev/shm,
# mounts the control share "ehctl" and the read-write shares listed in its
# "mounts" file, runs its "cmd" script with output to the virtio port
# "eh.out", stores the exit status in "rc" and ends the VM.
#
# busybox-static, when installed, does the mounting: starting a static
# binary is several times cheaper under TCG than util-linux's mount.
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export PATH

if [ -x /bin/busybox ]; then
	bb=/bin/busybox
else
	bb=
fi
p9=trans=virtio,version=9p2000.L,msize=512000

# With qemu -no-reboot, rebooting ends the VM. If that is not possible,
# ending process 1 panics the kernel, and panic=-1 reboots it at once.
halt_vm() {
	[ -n "$bb" ] && $bb reboot -f
	exit 1
}
die() {
	echo "guest-init: $*" >/dev/console
	halt_vm
}
is_mounted() {
	while read -r _dev mnt _rest; do
		[ "$mnt" = "$1" ] && return 0
	done </proc/mounts
	return 1
}

$bb mount -t proc proc /proc || die "cannot mount /proc"
$bb mount -t sysfs sysfs /sys || die "cannot mount /sys"
is_mounted /dev || $bb mount -t devtmpfs devtmpfs /dev || die "cannot mount /dev"
$bb mount -t tracefs tracefs /sys/kernel/tracing || die "cannot mount tracefs"
$bb mkdir -p /dev/pts /dev/shm
$bb mount -t devpts -o gid=5,mode=620,ptmxmode=666 devpts /dev/pts
$bb mount -t tmpfs -o mode=1777 tmpfs /dev/shm
$bb mount -t tmpfs -o mode=755 tmpfs /run || die "cannot mount /run"

$bb mkdir -p /run/eh/ctl /run/eh/host-tmp
$bb mount -t 9p -o "$p9" ehctl /run/eh/ctl || die "cannot mount the control share"

# A private /tmp; host folders under /tmp that the command needs come back
# read-only through a bind mount of the host's /tmp taken beforehand.
$bb mount --bind /tmp /run/eh/host-tmp || die "cannot bind the host's /tmp"
$bb mount -t tmpfs -o mode=1777 tmpfs /tmp || die "cannot mount /tmp"
while read -r kind a b; do
	case $kind in
	ro)
		$bb mkdir -p "$a" &&
			$bb mount --bind "/run/eh/host-tmp/${a#/tmp/}" "$a" &&
			$bb mount -o remount,bind,ro "$a" ||
			die "cannot make $a visible"
		;;
	rw)
		[ -d "$b" ] || $bb mkdir -p "$b"
		$bb mount -t 9p -o "$p9" "$a" "$b" || die "cannot mount $b"
		;;
	esac
done </run/eh/ctl/mounts

out=
for f in /sys/class/virtio-ports/*/name; do
	read -r name <"$f" 2>/dev/null || continue
	if [ "$name" = eh.out ]; then
		out=${f%/name}
		out=/dev/${out##*/}
	fi
done
[ -c "$out" ] || die "no virtio port eh.out (kernel without CONFIG_VIRTIO_CONSOLE?)"

# Under TCG on a loaded host, a guest CPU has been seen to come up with
# its timer dead: a task that sleeps there never wakes, and the test hangs
# until its time limit. Each CPU must wake one short sleep (timed from CPU
# 0); one that does not is said in "unwell", and the host boots again.
for c in /sys/devices/system/cpu/cpu[0-9]*; do
	c=${c##*cpu}
	taskset -c 0 timeout -s KILL 30 taskset -c "$c" sleep 0.01 && continue
	echo "CPU $c did not wake from a sleep" >/run/eh/ctl/unwell
	halt_vm
done

# "started" tells the host that a crash from here on is not a boot failure
# it may retry.
: >/run/eh/ctl/started
/bin/bash /run/eh/ctl/cmd </dev/null >"$out" 2>&1
echo $? >/run/eh/ctl/rc
halt_vm
