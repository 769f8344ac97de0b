#!/bin/bash
# SPDX-License-Identifier: MIT
#
# build-kernel.sh - build the VM tests' kernel (x86-64 bzImage with
# CONFIG_USER_EVENTS) from Debian's linux-source-6.12 package.
#
# For machines without a test kernel. Only Debian packages are used: the
# build tools are installed with apt-get (as root), and the kernel source
# comes from the linux-source-6.12 package of bookworm-backports (trixie if
# that fails), fetched with a private apt state so that the system's apt
# sources stay as they are. The configuration is allnoconfig plus
# user-events.config (next to this script); every "=y" line of it is checked
# in the result.
#
# usage: tests/vm/build-kernel.sh [--force] [--print-key]
#	--force       rebuild even when a kernel for this fragment is cached
#	--print-key   print the cache key of the current fragment and exit
#
# The bzImage path is the only line printed on stdout; progress goes to
# stderr. Use it with
#	./configure --with-test-kernel="$(tests/vm/build-kernel.sh)"
# or EH_TEST_KERNEL=... for a single make check.
#
# Environment:
#	EH_KERNEL_CACHE   cache folder (default: ~/.cache/eventheader-vm)
#	EH_KERNEL_SOURCE  a linux-source-6.12.tar.xz to use instead of
#	                  downloading one
#	EH_KERNEL_JOBS    parallel make jobs (default: CPUs + 1)
#
# Building takes about 3 minutes on 2 cores; the source needs ~1.5 GB.
set -euo pipefail

me="build-kernel"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fragment=$here/user-events.config
cache=${EH_KERNEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/eventheader-vm}
jobs=${EH_KERNEL_JOBS:-$(($(nproc) + 1))}
force=no

say() { printf '%s: %s\n' "$me" "$*" >&2; }
fail() {
	printf '%s: error: %s\n' "$me" "$*" >&2
	exit 1
}

# The cache key covers what decides the result: the fragment and this
# script.
cache_key() { cat "$fragment" "${BASH_SOURCE[0]}" | sha256sum | cut -c1-16; }

for arg; do
	case $arg in
	--force) force=yes ;;
	--print-key) cache_key; exit 0 ;;
	-h | --help) sed -n '4,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	*) fail "unknown argument '$arg' (see --help)" ;;
	esac
done
[ -r "$fragment" ] || fail "missing $fragment"

key=$(cache_key)
result=$cache/kernel-$key
if [ "$force" = no ] && [ -s "$result/bzImage" ]; then
	say "up to date: $(cat "$result/release" 2>/dev/null || echo "$result")"
	echo "$result/bzImage"
	exit 0
fi

# ---- build tools --------------------------------------------------------------
need_packages() {
	local p missing=()

	for p in "$@"; do
		dpkg-query -W -f '${Status}\n' "$p" 2>/dev/null |
			grep -q ' installed$' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	[ "$(id -u)" = 0 ] ||
		fail "please install (as root): apt-get install ${missing[*]}"
	say "apt-get install ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -q --no-install-recommends "${missing[@]}" >&2 ||
		{ apt-get update -q >&2 &&
			apt-get install -y -q --no-install-recommends "${missing[@]}" >&2; } ||
		fail "apt-get install failed"
}
need_packages gcc make bc bison flex libelf-dev libssl-dev xz-utils cpio \
	perl dpkg-dev debian-archive-keyring

mkdir -p "$cache/source"

# ---- kernel source --------------------------------------------------------------
# A private apt configuration that knows only bookworm-backports and trixie,
# on the mirror the system already uses for bookworm.
fetch_source() {
	local apt=$cache/apt mirror keyring rel deb
	local -a opt

	mirror=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 2>/dev/null |
		awk '$2 == "bookworm" || $2 == "trixie" { print $1; exit }')
	[ -n "$mirror" ] ||
		fail "cannot tell the Debian mirror: no bookworm or trixie source in apt's configuration (set EH_KERNEL_SOURCE instead)"
	keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	rm -rf "$apt"
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/get"
	{
		echo "deb [signed-by=$keyring] $mirror bookworm-backports main"
		echo "deb [signed-by=$keyring] $mirror trixie main"
	} >"$apt/sources.list"
	opt=(-o "Dir::Etc::SourceList=$apt/sources.list"
		-o "Dir::Etc::SourceParts=/dev/null"
		-o "Dir::State::Lists=$apt/lists"
		-o "Dir::Cache=$apt/cache"
		-o "Dir::State::status=/dev/null")
	# apt's download sandbox user cannot write into a root-owned cache.
	[ "$(id -u)" = 0 ] && opt+=(-o APT::Sandbox::User=root)
	say "reading the package lists of bookworm-backports and trixie"
	apt-get "${opt[@]}" update -q >&2 || fail "apt-get update (private state) failed"
	for rel in bookworm-backports trixie; do
		if (cd "$apt/get" && apt-get "${opt[@]}" download -q "linux-source-6.12/$rel" >&2); then
			deb=$(ls "$apt/get"/linux-source-6.12_*.deb)
			say "downloaded $(basename "$deb")"
			dpkg-deb --fsys-tarfile "$deb" |
				tar -xO --wildcards '*/linux-source-6.12.tar.xz' >"$1.part"
			mv "$1.part" "$1"
			basename "$deb" .deb >"$1.version"
			rm -rf "$apt"
			return 0
		fi
	done
	fail "linux-source-6.12 is in neither bookworm-backports nor trixie"
}

tarball=${EH_KERNEL_SOURCE:-$cache/source/linux-source-6.12.tar.xz}
if [ ! -s "$tarball" ]; then
	[ -z "${EH_KERNEL_SOURCE:-}" ] || fail "EH_KERNEL_SOURCE: no file $tarball"
	fetch_source "$tarball"
fi
src_version=$(cat "$tarball.version" 2>/dev/null || basename "$tarball")

tree=$cache/source/tree
if [ "$(cat "$tree/.eh-source" 2>/dev/null)" != "$src_version" ]; then
	say "unpacking $src_version"
	rm -rf "$tree" "$cache"/build-*
	mkdir -p "$tree"
	tar -xf "$tarball" -C "$tree" --strip-components=1
	echo "$src_version" >"$tree/.eh-source"
fi

# ---- configure and build -----------------------------------------------------------
build=$cache/build-$key
mkdir -p "$build"
kmake() { make -C "$tree" O="$build" ARCH=x86_64 "$@"; }

say "configuring: allnoconfig + $(basename "$fragment")"
kmake -s KCONFIG_ALLCONFIG="$fragment" allnoconfig >&2
mismatch=0
while read -r want; do
	if ! grep -qxF "$want" "$build/.config"; then
		got=$(grep -E "^(# )?${want%%=*}[= ]" "$build/.config" || true)
		say "not applied: $want (final config: ${got:-not set})"
		mismatch=1
	fi
done < <(grep -E '^CONFIG_[A-Za-z0-9_]+=y$' "$fragment")
[ $mismatch = 0 ] || fail "the fragment does not apply cleanly to $src_version"

say "building bzImage with $jobs jobs (a few minutes)"
started=$SECONDS
if ! kmake -j"$jobs" bzImage >"$build/make.log" 2>&1; then
	tail -n 30 "$build/make.log" >&2
	fail "kernel build failed; full log: $build/make.log"
fi

mkdir -p "$result"
cp "$build/.config" "$result/config"
echo "$src_version $(kmake -s kernelrelease)" >"$result/release"
cp "$build/arch/x86/boot/bzImage" "$result/bzImage.part"
mv "$result/bzImage.part" "$result/bzImage"
say "built $(cat "$result/release") in $((SECONDS - started)) s"
echo "$result/bzImage"
