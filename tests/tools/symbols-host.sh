#!/bin/bash
# SPDX-License-Identifier: MIT
#
# symbols-host.sh - where the names of stack frames come from, on this
# machine's kernel (CPU sampling of examples/spin into perf.data, decoded
# by ehdecode --system):
#  - a stripped copy of spin with a .gnu_debuglink to its debug file
#    beside it: spin_hot_loop is named from the debug file; the same with
#    a debug file whose CRC does not match: not named;
#  - a stripped copy without a debug link, its debug file under
#    EHD_DEBUG_DIR/.build-id/NN/REST.debug: named with EHD_DEBUG_DIR set,
#    not named without;
#  - a stripped copy carrying its symbols xz-compressed in .gnu_debugdata
#    (as Fedora ships its libraries): named;
#  - where Debian's libc debug file is installed (libc6-dbg), the frame
#    under main is named __libc_start_call_main, a function libc.so.6's
#    own .dynsym does not have;
#  - tests/tools/mangled-spin's hot loop, symbol _ZN2ns5Class3hotEi (a
#    member function of a C++ class in a namespace), its binary stripped
#    and its debug file in a build-id tree given with --debug-dir, is
#    ns::Class::hot(int) in ehdecode --system and in the ProcessSymbol
#    events of ehrecord's nettrace, and stays _ZN2ns5Class3hotEi with
#    --no-demangle (both tools); without --debug-dir it is not named;
#  - a function whose name (70,005 bytes) does not fit a nettrace
#    payload: its ProcessSymbol carries the most of it that fits, the
#    file reads with --strict, ehrecord says a string was cut;
#  - the build id of a mapping comes from the kernel's MMAP2 record
#    (attr.build_id): the file of a recorded copy of spin replaced by
#    another program before decoding, its mapping keeps spin's build id;
#  - tests/tools/jit-spin's loop, run from anonymous memory and named by
#    /tmp/perf-PID.map, is jit_hot_loop in ehdecode --system's stacks and
#    a ProcessSymbol of its anonymous mapping in ehrecord's nettrace;
#  - a copy of spin run in a new mount and pid namespace (unshare), from a
#    tmpfs mounted there over a folder that holds another program on the
#    host (below): ehrecord's nettrace names spin_hot_loop in it (read through
#    /proc/PID/root), gives the process its pid in its namespace (1) and
#    the namespace's name; after the fact (perf.data, the process gone)
#    the host's other program (spin with another build id and its hot
#    loop named host_hot_loop) names none of its frames.
# Needs root and a tracefs; skips (77) otherwise, except with CI=true.
set -u
bin=${EH_BUILDDIR:-.}
rec=$bin/tools/ehrecord
dec=$bin/tools/ehdecode
spin=$bin/examples/spin
tmp=$(mktemp -d "${TMPDIR:-/tmp}/symbols-host.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/common/test-lib.sh
. "$(dirname "$0")/../common/test-lib.sh"

[ "$(id -u)" = 0 ] || skip "needs root (perf_event_open on every CPU)"
command -v objcopy >/dev/null || skip "no objcopy (binutils)"
t=/sys/kernel/tracing
[ -d $t/events ] || mount -t tracefs nodev $t 2>/dev/null ||
	skip "no tracefs, and it cannot be mounted at $t"

# The debug file of spin, and two stripped copies: one that links to it
# by name (and CRC), one that only has its build id.
cp "$spin" "$tmp/spin"
objcopy --only-keep-debug "$tmp/spin" "$tmp/spin.debug"
objcopy --strip-all --add-gnu-debuglink="$tmp/spin.debug" "$tmp/spin" \
	"$tmp/linked"
objcopy --strip-all "$tmp/spin" "$tmp/bare"
if command -v xz >/dev/null; then
	xz -c "$tmp/spin.debug" >"$tmp/mini.xz"
	objcopy --strip-all --add-section .gnu_debugdata="$tmp/mini.xz" \
		"$tmp/spin" "$tmp/mini"
fi
id=$(readelf -n "$tmp/bare" | sed -n 's/.*Build ID: *\([0-9a-f]*\).*/\1/p')
[ -n "$id" ] || skip "examples/spin has no build id"
mkdir -p "$tmp/dbg/.build-id/${id:0:2}"
cp "$tmp/spin.debug" "$tmp/dbg/.build-id/${id:0:2}/${id:2}.debug"
rm "$tmp/spin"
if nm "$tmp/linked" 2>/dev/null | grep -q spin_hot_loop; then
	bad "the stripped copy still has spin_hot_loop"
fi

# hot FILE [ENV...]: stacks of samples naming spin_hot_loop in FILE, in
# the copy the file is named for (linked.data: "linked"; other tests may
# run examples/spin meanwhile, and sampling sees every process).
hot() {
	local f=$1 module

	module=$(basename "$f" .data)
	shift
	env "$@" "$dec" --system -F jsonl -m stack "$f" 2>"$tmp/dec.err" |
		grep -c "\"$module+0x[0-9a-f]* spin_hot_loop+0x"
}

for copy in linked bare mini; do
	[ -e "$tmp/$copy" ] || continue
	"$rec" -q -F perf --cpu-sampling -o "$tmp/$copy.data" -- \
		"$tmp/$copy" 300 >/dev/null 2>"$tmp/rec.err" ||
		bad "ehrecord -- $copy: exit $?: $(head -n 2 "$tmp/rec.err")"
done

n=$(hot "$tmp/linked.data")
[ "$n" -ge 50 ] && ok ".gnu_debuglink: $n stacks name spin_hot_loop from spin.debug" ||
	bad ".gnu_debuglink: $n stacks name spin_hot_loop (want >= 50): $(head -n 1 "$tmp/dec.err")"
# The other places a debug link is looked for: .debug/ beside the file,
# and the debug folder with the file's own folder.
mkdir -p "$tmp/.debug" "$tmp/dbg2$tmp"
mv "$tmp/spin.debug" "$tmp/.debug/spin.debug"
n=$(hot "$tmp/linked.data")
[ "$n" -ge 50 ] && ok ".gnu_debuglink: $n stacks named from .debug/spin.debug" ||
	bad ".gnu_debuglink: $n stacks named from .debug/ (want >= 50)"
mv "$tmp/.debug/spin.debug" "$tmp/dbg2$tmp/spin.debug"
n=$(hot "$tmp/linked.data" EHD_DEBUG_DIR="$tmp/dbg2")
[ "$n" -ge 50 ] && ok ".gnu_debuglink: $n stacks named from EHD_DEBUG_DIR + its folder" ||
	bad ".gnu_debuglink: $n stacks named from the debug folder (want >= 50)"
mv "$tmp/dbg2$tmp/spin.debug" "$tmp/spin.debug"
printf 'x' >>"$tmp/spin.debug"	# its CRC no longer matches
n=$(hot "$tmp/linked.data")
[ "$n" = 0 ] && ok ".gnu_debuglink: a debug file whose CRC differs is not used" ||
	bad ".gnu_debuglink: $n stacks named from a debug file with another CRC"

n=$(hot "$tmp/bare.data" EHD_DEBUG_DIR="$tmp/dbg")
[ "$n" -ge 50 ] && ok "build id: $n stacks name spin_hot_loop from EHD_DEBUG_DIR/.build-id" ||
	bad "build id: $n stacks name spin_hot_loop (want >= 50): $(head -n 1 "$tmp/dec.err")"
n=$(hot "$tmp/bare.data" EHD_DEBUG_DIR="$tmp/none")
[ "$n" = 0 ] && ok "build id: without the debug file, no name" ||
	bad "build id: $n stacks named without a debug file"

if [ -e "$tmp/mini.data" ]; then
	n=$(hot "$tmp/mini.data" EHD_DEBUG_DIR="$tmp/none")
	[ "$n" -ge 50 ] && ok ".gnu_debugdata: $n stacks name spin_hot_loop" ||
		bad ".gnu_debugdata: $n stacks name spin_hot_loop (want >= 50): $(head -n 1 "$tmp/dec.err")"
elif [ "${CI:-}" = true ]; then
	bad "no xz: the .gnu_debugdata check cannot run"
fi

# libc's debug file, from Debian's libc6-dbg.
libc=$(ldd "$bin/examples/spin" 2>/dev/null | sed -n 's/.*libc\.so\.6 => \([^ ]*\).*/\1/p')
lid=$(readelf -n "$libc" 2>/dev/null | sed -n 's/.*Build ID: *\([0-9a-f]*\).*/\1/p')
if [ -n "$lid" ] && [ -r "/usr/lib/debug/.build-id/${lid:0:2}/${lid:2}.debug" ]; then
	"$rec" -q -F perf --cpu-sampling -o "$tmp/libc.data" -- "$spin" 300 \
		>/dev/null 2>"$tmp/rec.err"
	n=$("$dec" --system -F jsonl -m stack "$tmp/libc.data" |
		grep -c 'libc\.so\.6+0x[0-9a-f]* __libc_start_call_main+')
	if nm -D "$libc" | grep -q ' __libc_start_call_main$'; then
		bad "libc's .dynsym has __libc_start_call_main: the check proves nothing"
	elif [ "$n" -ge 50 ]; then
		ok "libc6-dbg: $n stacks name __libc_start_call_main (not in libc's .dynsym)"
	else
		bad "libc6-dbg: $n stacks name __libc_start_call_main (want >= 50)"
	fi
elif [ "${CI:-}" = true ]; then
	bad "CI has no libc debug file (libc6-dbg) for $libc"
else
	echo "note: no libc debug file (libc6-dbg): that check is left out"
fi

# Demangled names, and raw ones on request: mangled-spin stripped, its
# debug file in a build-id tree given with --debug-dir.
mangled=$tmp/cxx
cp "$bin/tests/tools/mangled-spin" "$tmp/cxx.full"
objcopy --only-keep-debug "$tmp/cxx.full" "$tmp/cxx.debug"
objcopy --strip-all "$tmp/cxx.full" "$mangled"
cid=$(readelf -n "$mangled" | sed -n 's/.*Build ID: *\([0-9a-f]*\).*/\1/p')
mkdir -p "$tmp/cxxdbg/.build-id/${cid:0:2}"
mv "$tmp/cxx.debug" "$tmp/cxxdbg/.build-id/${cid:0:2}/${cid:2}.debug"
nm "$mangled" 2>/dev/null | grep -q _ZN2ns5Class3hotEi &&
	bad "the stripped mangled-spin still has its symbol"
"$rec" -q -F perf --cpu-sampling -o "$tmp/m.data" -- "$mangled" 300 \
	2>"$tmp/rec.err" || bad "ehrecord -- mangled-spin: exit $?: $(head -n 2 "$tmp/rec.err")"
n=$("$dec" --system -F jsonl -m stack "$tmp/m.data" | grep -c 'ns::Class::hot')
[ "$n" = 0 ] && ok "stripped mangled-spin without --debug-dir: not named" ||
	bad "stripped mangled-spin named without its debug file ($n)"
for how in demangled raw; do
	opt=(--debug-dir="$tmp/cxxdbg") want='ns::Class::hot(int)' say=--debug-dir
	[ $how = raw ] && opt+=(--no-demangle) want=_ZN2ns5Class3hotEi say+=" --no-demangle"
	n=$("$dec" --system "${opt[@]}" -F jsonl -m stack "$tmp/m.data" |
		grep -cF " $want+0x")
	[ "$n" -ge 50 ] && ok "ehdecode --system $say: $n stacks name $want" ||
		bad "ehdecode --system $say: $n stacks name $want (want >= 50)"
	"$rec" -q "${opt[@]}" --cpu-sampling -o "$tmp/m.nettrace" -- \
		"$mangled" 300 2>"$tmp/rec.err" ||
		bad "ehrecord $say: exit $?: $(head -n 2 "$tmp/rec.err")"
	if "$dec" --strict -F jsonl "$tmp/m.nettrace" >"$tmp/m.jsonl" \
		2>"$tmp/dec.err" &&
	   grep -F '"Universal.System:ProcessSymbol"' "$tmp/m.jsonl" |
	   grep -qF "\"Name\":\"$want\""; then
		ok "ehrecord $say: ProcessSymbol $want in the nettrace"
	else
		bad "ehrecord $say: no ProcessSymbol $want: $(head -n 1 "$tmp/dec.err")"
	fi
done

# A name longer than a nettrace payload (65,535 bytes): its ProcessSymbol
# carries as much of it as fits, the file stays valid, and the cut is said.
long=spin_$(head -c 70000 /dev/zero | tr '\0' L)
objcopy --redefine-sym "spin_hot_loop=$long" "$spin" "$tmp/long" ||
	bad "objcopy could not rename spin_hot_loop"
"$rec" -q --cpu-sampling -o "$tmp/long.nettrace" -- "$tmp/long" 300 \
	>/dev/null 2>"$tmp/rec.err" ||
	bad "ehrecord -- long: exit $?: $(head -n 2 "$tmp/rec.err" | cut -c1-200)"
"$dec" --strict -F jsonl "$tmp/long.nettrace" >"$tmp/long.jsonl" \
	2>"$tmp/dec.err" || bad "the nettrace of the long name does not read: $(head -n 1 "$tmp/dec.err")"
name=$(grep -F '"Universal.System:ProcessSymbol"' "$tmp/long.jsonl" |
	sed -n 's/.*"Name":"\(spin_L[^"]*\)".*/\1/p' | head -n 1)
# (Id, MappingId, start and end as varuints, the name's length: under 30)
if [ -n "$name" ] && [ ${#name} -lt 65535 ] && [ ${#name} -gt 65505 ] &&
   [ "${long:0:${#name}}" = "$name" ]; then
	ok "a symbol of ${#long} bytes: its ProcessSymbol keeps the first ${#name}"
else
	bad "a symbol of ${#long} bytes: ProcessSymbol name of ${#name} bytes: $(head -n 1 "$tmp/dec.err")"
fi
grep -q "[0-9] strings were cut to 65,535 bytes" "$tmp/rec.err" &&
	ok "ehrecord says the symbol's name was cut" ||
	bad "ehrecord did not say the name was cut: $(head -n 2 "$tmp/rec.err" | cut -c1-200)"

# Build ids from the kernel's MMAP2 records, not from the files later.
cp "$spin" "$tmp/copy"
sid=$(readelf -n "$tmp/copy" | sed -n 's/.*Build ID: *\([0-9a-f]*\).*/\1/p')
"$rec" -q -F perf --cpu-sampling -o "$tmp/copy.data" -- "$tmp/copy" 100 \
	>/dev/null 2>"$tmp/rec.err" || bad "ehrecord -- copy: exit $?"
cp "$bin/tests/tools/mangled-spin" "$tmp/copy"	# another build id
got=$("$dec" --system -F jsonl "$tmp/copy.data" |
	grep '"n":"Universal.System:ProcessMapping".*"FileName":"[^"]*/copy"' |
	sed -n 's/.*"BuildId":"\([0-9a-f]*\)".*/\1/p' | sort -u | tr '\n' ' ')
if [ -n "$sid" ] && [ "$got" = "$sid " ]; then
	ok "MMAP2 build ids: the mapping of the replaced copy keeps $sid"
else
	bad "MMAP2 build ids: the mapping of the copy says '$got', want $sid"
fi

# A JIT's perf map names its code.
jit=$bin/tests/tools/jit-spin
for fmt in perf nettrace; do
	"$rec" -q -F $fmt --cpu-sampling -o "$tmp/jit.$fmt" -- "$jit" 300 \
		>"$tmp/jit.out" 2>"$tmp/rec.err" ||
		bad "ehrecord -F $fmt -- jit-spin: exit $?: $(head -n 2 "$tmp/rec.err")"
	jpid=$(sed -n 's/^jit-spin: pid \([0-9]*\)/\1/p' "$tmp/jit.out")
	if [ $fmt = perf ]; then
		n=$("$dec" --system -F jsonl -m stack "$tmp/jit.perf" |
			grep -c '"stack":\["[^"]* jit_hot_loop+0x')
		[ "$n" -ge 50 ] && ok "perf map: $n stacks start in jit_hot_loop" ||
			bad "perf map: $n stacks start in jit_hot_loop (want >= 50)"
	elif "$dec" --strict -F jsonl "$tmp/jit.nettrace" 2>"$tmp/dec.err" |
	     grep '"Universal.System:ProcessSymbol"' |
	     grep -q '"Name":"jit_hot_loop"'; then
		ok "perf map: a ProcessSymbol jit_hot_loop in the nettrace"
	else
		bad "perf map: no ProcessSymbol jit_hot_loop: $(head -n 1 "$tmp/dec.err")"
	fi
	[ -n "$jpid" ] && rm -f "/tmp/perf-$jpid.map"
done

# A process in a container: its files as it sees them.
if unshare --mount --pid --fork --propagation private true 2>/dev/null; then
	mkdir "$tmp/ct"
	# The host's file there: spin with its hot loop named host_hot_loop
	# and another build id (its bytes changed in place).
	objcopy --redefine-sym spin_hot_loop=host_hot_loop "$spin" "$tmp/ct/app"
	python3 - "$tmp/ct/app" "$id" <<'PY'
import sys
p, bid = sys.argv[1], bytes.fromhex(sys.argv[2])
d = open(p, 'rb').read()
open(p, 'wb').write(d.replace(bid, bytes(b ^ 0xff for b in bid)))
PY
	printf 'mount -t tmpfs tmpfs %s && cp %s %s && exec %s 400\n' \
		"$tmp/ct" "$spin" "$tmp/ct/app" "$tmp/ct/app" >"$tmp/ct.sh"
	for fmt in nettrace perf; do
		"$rec" -q -F $fmt --cpu-sampling -o "$tmp/ct.$fmt" -- \
			unshare --mount --pid --fork --propagation private \
			/bin/sh "$tmp/ct.sh" >/dev/null 2>"$tmp/rec.err" ||
			bad "ehrecord -F $fmt -- unshare ...: exit $?: $(head -n 2 "$tmp/rec.err")"
	done
	"$dec" --strict -F jsonl "$tmp/ct.nettrace" >"$tmp/ct.jsonl" 2>"$tmp/dec.err" ||
		bad "the container's nettrace does not read: $(head -n 1 "$tmp/dec.err")"
	map=$(grep '"n":"Universal.System:ProcessMapping".*"FileName":"[^"]*/ct/app"' "$tmp/ct.jsonl" |
		sed -n 's/.*"Id":\([0-9]*\),.*"pid":\([0-9]*\),.*/\1 \2/p' | head -n 1)
	cpid=${map#* }
	if [ -n "$map" ] &&
	   grep '"n":"Universal.System:ProcessSymbol"' "$tmp/ct.jsonl" |
	   grep -q "\"MappingId\":${map% *},.*\"Name\":\"spin_hot_loop\""; then
		ok "container: spin_hot_loop named in the mapping of $tmp/ct/app (/proc/$cpid/root)"
	else
		bad "container: no ProcessSymbol spin_hot_loop in the mapping of $tmp/ct/app ('$map')"
	fi
	if [ -n "$cpid" ] &&
	   grep -E '"n":"Universal.System:(ExistingProcess|ProcessCreate)"' "$tmp/ct.jsonl" |
	   grep "\"pid\":$cpid," | grep -q '"NamespaceId":1,.*"NamespaceName":"pid:\['; then
		ok "container: process $cpid is NamespaceId 1 in its pid namespace"
	else
		bad "container: process $cpid has no NamespaceId 1 and pid namespace name"
	fi
	n=$("$dec" --system -F jsonl -m stack "$tmp/ct.perf" | grep -c ' host_hot_loop+')
	[ "$n" = 0 ] && ok "container, read after the fact: the host's other file names no frame" ||
		bad "container, read after the fact: $n frames named from the host's other file"
else
	echo "note: no unshare of mount and pid namespaces here: the container check is left out"
fi
finish
