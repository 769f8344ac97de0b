#!/bin/bash
# SPDX-License-Identifier: MIT
#
# run-in-vm.sh - run one command as root in a throw-away QEMU guest whose
# kernel has CONFIG_USER_EVENTS.
#
# The guest sees the host's / read-only over 9p, so programs built on the
# host run there unchanged. /tmp, /run and /dev/shm are empty tmpfs; tracefs
# is mounted at /sys/kernel/tracing. The command's stdout and stderr come
# out on this script's stdout; its stdin is /dev/null; its exit status is
# this script's.
#
# usage: run-in-vm.sh [options] [--] COMMAND [ARG...]
#        run-in-vm.sh [-k FILE] --check
#
#   -k FILE    kernel image (default: $EH_TEST_KERNEL)
#   -w DIR     mount host DIR read-write at the same path (repeatable)
#   -r DIR     make host DIR visible read-only at the same path; only needed
#              under /tmp, which the guest replaces (repeatable; the working
#              directory and this script's folder are added by themselves)
#   -C DIR     working directory of the command (default: current one)
#   -e VAR[=VALUE]  pass an environment variable (repeatable; PATH is)
#   -t SECS    limit for the whole run (default 300)
#   -m SIZE    guest memory (default 1G)    -c N  guest CPUs (default 2)
#   -a ACCEL   auto (default), tcg or kvm. auto takes KVM only when the
#              kvm_intel or kvm_amd module is loaded: some hosts offer a
#              software /dev/kvm that is far slower than TCG.
#   -v         print the guest kernel's log afterwards
#   -T         a fine clock in the guest: its TSC (the host's, under TCG)
#              at the host's TSC rate, where the host says it is constant;
#              otherwise (and by default) the guest keeps time in 4 ms
#              jiffies, and so does its accounting of CPU time
#   --check    exit 0 if a VM can be started here, else print why, exit 1
#
# A qemu that crashes before the command starts, a guest with a CPU that
# does not wake from a sleep, or a guest that has not started the command
# $EH_VM_START_LIMIT seconds (default 180, at most half the time limit)
# after qemu did (a boot that hung), is started again (twice at most).
#
# Exit status: the command's; 124 if the time limit was hit; 125 if the VM
# could not be started or ended without running the command (the end of
# the kernel log is printed then).
set -u -o pipefail

me="run-in-vm"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
kernel=${EH_TEST_KERNEL:-}
limit=300
start_limit=${EH_VM_START_LIMIT:-180}
mem=1G
cpus=2
accel=auto
verbose=no
fine_clock=no
check_only=no
workdir=$PWD
rw_dirs=()
ro_dirs=()
env_vars=()

# usage [STATUS]: print the comment above; exit STATUS (default 125).
usage() {
	sed -n '4,/^set -u/{/^set -u/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}" >&2
	exit "${1:-125}"
}
fail() {
	echo "$me: $*" >&2
	exit 125
}
need_arg() { [ "$1" -ge 2 ] || usage; }

while [ $# -gt 0 ]; do
	case $1 in
	-k) need_arg $#; kernel=$2; shift 2 ;;
	-w) need_arg $#; rw_dirs+=("$2"); shift 2 ;;
	-r) need_arg $#; ro_dirs+=("$2"); shift 2 ;;
	-C) need_arg $#; workdir=$2; shift 2 ;;
	-e) need_arg $#; env_vars+=("$2"); shift 2 ;;
	-t) need_arg $#; limit=$2; shift 2 ;;
	-m) need_arg $#; mem=$2; shift 2 ;;
	-c) need_arg $#; cpus=$2; shift 2 ;;
	-a) need_arg $#; accel=$2; shift 2 ;;
	-v) verbose=yes; shift ;;
	-T) fine_clock=yes; shift ;;
	--check) check_only=yes; shift ;;
	-h | --help) usage 0 ;;
	--) shift; break ;;
	-*) echo "$me: unknown option $1" >&2; usage ;;
	*) break ;;
	esac
done

# ---- can a VM run here? ------------------------------------------------------------
# Sets $qemu, or $why and returns 1.
preflight() {
	why=
	qemu=$(command -v qemu-system-x86_64) || {
		why="qemu-system-x86_64 not found (apt-get install qemu-system-x86)"
		return 1
	}
	if [ -z "$kernel" ]; then
		why="no test kernel: configure --with-test-kernel=PATH or set EH_TEST_KERNEL (tests/vm/build-kernel.sh builds one)"
		return 1
	fi
	if [ ! -f "$kernel" ]; then
		why="test kernel $kernel does not exist"
		return 1
	fi
	# An x86 boot image has the "HdrS" magic at offset 0x202.
	if [ "$(dd if="$kernel" bs=1 skip=514 count=4 status=none 2>/dev/null)" != HdrS ]; then
		why="test kernel $kernel is not an x86 bzImage"
		return 1
	fi
	command -v timeout >/dev/null || { why="timeout(1) not found"; return 1; }
	return 0
}
if ! preflight; then
	[ "$check_only" = yes ] && { echo "$why"; exit 1; }
	fail "$why"
fi
[ "$check_only" = yes ] && exit 0

[ $# -gt 0 ] || { echo "$me: no command given" >&2; usage; }
[[ $limit =~ ^[1-9][0-9]*$ ]] || fail "-t wants a number of seconds, not '$limit'"
[[ $cpus =~ ^[1-9][0-9]*$ ]] || fail "-c wants a number of CPUs, not '$cpus'"
[[ $start_limit =~ ^[0-9]+$ ]] ||
	fail "EH_VM_START_LIMIT wants seconds, not '$start_limit'"
# A hung boot is found before the time limit ends it, so that it is
# tried again: at half the limit at the latest.
[ "$start_limit" -le $((limit / 2)) ] || start_limit=$((limit / 2))

# Host paths must survive being written into shell snippets and 9p options.
real_dir() {
	local d

	d=$(cd "$1" 2>/dev/null && pwd -P) || fail "no such directory: $1"
	case $d in *[!A-Za-z0-9_./+@%=-]*) fail "unsupported characters in path $d" ;; esac
	echo "$d"
}
workdir=$(real_dir "$workdir") || exit 125
case $here in *[!A-Za-z0-9_./+@%=-]*) fail "unsupported characters in path $here" ;; esac

case $accel in
auto)
	if [ -r /dev/kvm ] && [ -w /dev/kvm ] &&
		{ [ -d /sys/module/kvm_intel ] || [ -d /sys/module/kvm_amd ]; }; then
		accel_opts=(-accel kvm -accel tcg)
	else
		accel_opts=(-accel tcg)
	fi
	;;
kvm) accel_opts=(-accel kvm) ;;
tcg) accel_opts=(-accel tcg) ;;
*) fail "-a wants auto, tcg or kvm" ;;
esac

# ---- the control folder, shared with the guest as 9p tag "ehctl" -------------
#   mounts   lines "ro PATH" (host folder under /tmp to bind read-only) and
#            "rw TAG PATH" (9p share to mount read-write)
#   cmd      the bash script to run
#   rc       written by the guest: the command's exit status
ctl=$(mktemp -d "${TMPDIR:-/tmp}/eh-vm.XXXXXX") || fail "mktemp failed"
qemu_pid=
reader_pid=
# Only this shell cleans up. A child forked for a background command has
# these traps until it runs the command: one signalled in between (the
# boot watchdog once did, see stop_boot()) ran this and removed $ctl
# under the next boot. (A "case": bash 5.2 took [ "$BASHPID" = "$$" ]
# for true in such a child.)
finish() {
	case $BASHPID in
	"$$")
		[ -n "$qemu_pid" ] && stop_boot
		[ -n "$reader_pid" ] && kill "$reader_pid" 2>/dev/null
		rm -rf "$ctl"
		;;
	esac
}
trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

share_opts=()
: >"$ctl/mounts"
for d in "$workdir" "$here" "${ro_dirs[@]}"; do
	d=$(real_dir "$d") || exit 125
	case $d in /tmp/*) echo "ro $d" >>"$ctl/mounts" ;; esac
done
n=0
for d in "${rw_dirs[@]}"; do
	d=$(real_dir "$d") || exit 125
	share_opts+=(-virtfs "local,path=$d,mount_tag=ehrw$n,security_model=none,multidevs=remap")
	echo "rw ehrw$n $d" >>"$ctl/mounts"
	n=$((n + 1))
done

{
	echo '#!/bin/bash'
	printf 'export PATH=%q\n' "$PATH"
	echo 'export HOME=/root LANG=C.UTF-8 TERM=dumb EH_VM_GUEST=1'
	for v in "${env_vars[@]}"; do
		if [[ $v == *=* ]]; then
			printf 'export %q=%q\n' "${v%%=*}" "${v#*=}"
		elif [ -n "${!v+set}" ]; then
			printf 'export %q=%q\n' "$v" "${!v}"
		fi
	done
	printf 'cd %q || exit 125\n' "$workdir"
	printf 'exec'
	printf ' %q' "$@"
	printf '\n'
} >"$ctl/cmd"

# ---- boot -----------------------------------------------------------------------
p9="trans=virtio,version=9p2000.L,msize=512000"
cmdline="console=ttyS0 panic=-1 root=ehroot rootfstype=9p rootflags=$p9,cache=loose ro"
if [ "$verbose" = yes ]; then cmdline+=" loglevel=7"; else cmdline+=" loglevel=4"; fi
# -T: the minimal kernel cannot calibrate the TSC (no HPET or PM timer);
# given the host's rate, it takes it as its clock.
if [ "$fine_clock" = yes ] && grep -qw constant_tsc /proc/cpuinfo &&
   grep -qw nonstop_tsc /proc/cpuinfo; then
	khz=$(awk -F: '/^cpu MHz/ { printf "%d", $2 * 1000; exit }' /proc/cpuinfo)
	[ -n "$khz" ] && [ "$khz" -gt 0 ] &&
		cmdline+=" tsc_early_khz=$khz tsc=reliable clocksource=tsc"
fi
# Arguments after "--" go to init: /bin/sh runs the script, which then
# needs no execute permission.
cmdline+=" init=/bin/sh -- $here/guest-init.sh"

# The command's output leaves the guest through a virtio-serial port (much
# faster under TCG than a serial console) into a FIFO that cat copies to our
# stdout. qemu's "pipe" chardev reads NAME.in and writes NAME.out.
mkfifo "$ctl/out.in" "$ctl/out.out" || fail "mkfifo failed"

# stop_boot: stop qemu, and timeout(1) that runs it: their process group
# (timeout's own), so that qemu goes too if timeout ends before it could
# pass the signal on (it can, when signalled just as it starts qemu).
stop_boot() {
	kill -TERM -- "-$qemu_pid" 2>/dev/null || kill "$qemu_pid" 2>/dev/null
}

# boot: run qemu once; sets qemu_rc, and boot_hung when the guest had not
# started the command after $start_limit seconds (qemu is stopped then).
boot() {
	local waited=0 tries=0

	boot_hung=no
	rm -f "$ctl/console.log" "$ctl/qemu.log" "$ctl/started" "$ctl/rc"
	cat "$ctl/out.out" &
	reader_pid=$!

	# The kernel has no ACPI: it finds CPUs in the BIOS's MP table, which
	# lists one per socket, hence one core per socket.
	timeout -k 5 "$limit" "$qemu" -nodefaults -no-user-config -display none \
		-no-reboot -machine pc "${accel_opts[@]}" -cpu max \
		-smp "$cpus,sockets=$cpus,cores=1,threads=1" -m "$mem" \
		-kernel "$kernel" -append "$cmdline" \
		-serial "file:$ctl/console.log" \
		-device virtio-serial-pci \
		-chardev "pipe,id=ehout,path=$ctl/out" \
		-device virtserialport,chardev=ehout,name=eh.out \
		-virtfs "local,path=/,mount_tag=ehroot,security_model=none,readonly=on,multidevs=remap" \
		-virtfs "local,path=$ctl,mount_tag=ehctl,security_model=none" \
		"${share_opts[@]}" </dev/null >"$ctl/qemu.log" 2>&1 &
	qemu_pid=$!
	# A boot has been seen to hang, printing nothing, once in many runs
	# on a loaded CI machine: waited for here, a second at a time. (Not
	# before the first second: timeout(1) is then running qemu.)
	while sleep 1 && ! [ -e "$ctl/started" ] &&
	      kill -0 "$qemu_pid" 2>/dev/null; do
		waited=$((waited + 1))
		if [ "$waited" -gt "$start_limit" ]; then
			boot_hung=yes
			stop_boot
			break
		fi
	done
	wait "$qemu_pid"
	qemu_rc=$?
	qemu_pid=

	# With qemu gone the FIFO has no writer and cat ends. If qemu never
	# opened it, cat waits in open(), or has yet to come to it (qemu
	# stopped at once): opening and closing it read-write (which does
	# not block) lets cat go on to end of file; done again while cat
	# lives, for up to 5 s, then cat is stopped.
	while kill -0 "$reader_pid" 2>/dev/null && [ "$tries" -lt 50 ]; do
		exec 9<>"$ctl/out.out"
		exec 9>&-
		sleep 0.1
		tries=$((tries + 1))
	done
	kill "$reader_pid" 2>/dev/null
	wait "$reader_pid"
	reader_pid=
}

# qemu itself has been seen to crash (SIGSEGV) while the guest boots, once
# in many runs on a loaded CI machine, and a guest CPU to come up with its
# timer dead (guest-init.sh checks each, and says so in "unwell"). Either,
# before the command has started, is retried twice; a crash after it is the
# command's failure.
for attempt in 1 2 3; do
	why=
	rm -f "$ctl/unwell"
	boot
	if [ -s "$ctl/unwell" ] && ! [ -e "$ctl/started" ]; then
		why="the guest was unwell before the command started ($(cat "$ctl/unwell"))"
	elif [ "$boot_hung" = yes ]; then
		why="the guest had not started the command ${start_limit} s after qemu did"
	elif [ "$qemu_rc" -gt 128 ] && [ "$qemu_rc" -ne 137 ] &&
	     ! [ -e "$ctl/started" ]; then
		why="qemu ended by signal $((qemu_rc - 128)) before the command started"
	else
		break
	fi
	[ "$attempt" -lt 3 ] &&
		echo "$me: $why; booting again" >&2
done

show_logs() {
	echo "--- qemu (exit status $qemu_rc) ---" >&2
	tail -n 20 "$ctl/qemu.log" >&2 2>/dev/null
	echo "--- guest kernel log, end ---" >&2
	tail -n 40 "$ctl/console.log" >&2 2>/dev/null
}
if [ "$verbose" = yes ]; then
	echo "--- guest kernel log ---" >&2
	cat "$ctl/console.log" >&2
fi
case $qemu_rc in
124 | 137)
	if [ -e "$ctl/started" ]; then
		echo "$me: time limit of ${limit}s reached (the command had started)" >&2
	else
		echo "$me: time limit of ${limit}s reached before the command started" >&2
	fi
	show_logs
	exit 124
	;;
esac
if ! [ -s "$ctl/rc" ]; then
	echo "$me: the guest did not run the command${why:+: $why}" >&2
	show_logs
	exit 125
fi
exit "$(cat "$ctl/rc")"
