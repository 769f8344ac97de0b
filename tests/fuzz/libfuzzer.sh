#!/bin/bash
# SPDX-License-Identifier: MIT
#
# libfuzzer.sh [SECONDS] - build the fuzz targets with clang's libFuzzer
# (plus ASan and UBSan) and run each for SECONDS (default 60), starting
# from its in-tree corpus (tests/fuzz/corpus/TARGET/) and, when the
# reference corpus is there, from it too (its records for
# fuzz-enumerator, its whole files for fuzz-perf, fuzz-reader and
# fuzz-writers, nettrace files for fuzz-nettrace and fuzz-writers: those
# of conformance/nettrace and the corpus converted by EHDECODE, default
# ./tools/ehdecode; Heph traces for fuzz-heph and fuzz-writers: the
# corpus converted the same way and the format specification's example;
# this build's examples/spin, whole and stripped, for fuzz-symbols).
# Prints the executions run and the coverage reached.
#
# With FUZZ_MERGE=1, what each run found is merged into its in-tree
# corpus, minimised: libFuzzer's -merge=1 of the in-tree corpus and the
# run's into a fresh directory (inputs cut to 64 KiB), which then
# replaces tests/fuzz/corpus/TARGET/. FUZZ_RUNS=N runs N executions
# per target instead of SECONDS, for a campaign (a crash ends that
# target's run, is kept and reported, and the next target runs).
# FUZZ_TARGETS="fuzz-perf fuzz-heph" runs only those targets;
# FUZZ_FLAGS adds libFuzzer options (-max_len=8192) to each run.
set -euo pipefail
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
secs=${1:-60}
out=${FUZZ_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/eh-fuzz.XXXXXX")}
cc=${FUZZ_CC:-clang}
command -v "$cc" >/dev/null || { echo "libfuzzer: $cc not found"; exit 77; }
flags=(-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
	-D_GNU_SOURCE -DEHD_BUILDING_LIB -I"$src/libeventheader/include"
	-I"$src/decode/include" -I"$src/decode" -I"$src/tests/common")
# decode/ wants config.h (PACKAGE_VERSION): the build directory's, where
# make fuzz runs, else a stand-in.
if [ -r config.h ]; then
	flags+=(-include "$PWD/config.h")
else
	flags+=('-DPACKAGE_VERSION="fuzz"')
fi
# The whole library, built into each target with the sanitizers.
mapfile -t lib < <(find "$src/decode" -name '*.c' | sort)
libs=($(pkg-config --cflags --libs libtraceevent libtracefs libzstd libdw libelf liblzma) -liberty)

# Seeds: the corpus records as "name\0event".
seeds=$out/seeds-enumerator
mkdir -p "$seeds"
corpus=${EH_SHARED_DIR:-$src/../shared}/conformance/eventheader/EventHeaderInterceptorLE64.dat
if [ -r "$corpus" ]; then
	python3 - "$corpus" "$seeds" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
off = i = 0
while off + 4 <= len(d):
	n = struct.unpack_from('<I', d, off)[0]
	open('%s/r%03d' % (sys.argv[2], i), 'wb').write(d[off + 4:off + n])
	off += n
	i += 1
PY
fi

# Build and run one target from its in-tree corpus and the directories
# given. A crash or sanitizer report is kept as $out/<target>-crash-*
# (or leak-, oom-, timeout-), reported, and makes the script fail once
# every target has run.
failed=()
run() {
	local name=$1 rc=0 execs cov tree=$src/tests/fuzz/corpus/$1 how
	shift
	case " ${FUZZ_TARGETS:-$name} " in *" $name "*) ;; *) return 0 ;; esac

	"$cc" "${flags[@]}" "$src/tests/fuzz/$name.c" "${lib[@]}" "${libs[@]}" \
		-o "$out/$name"
	mkdir -p "$out/corpus-$name"
	how=(-max_total_time="$secs")
	[ -z "${FUZZ_RUNS:-}" ] || how=(-runs="$FUZZ_RUNS" -timeout=30)
	# (fuzz-symbols has no in-tree corpus: its seeds are built here)
	[ -d "$tree" ] || tree=
	"$out/$name" "${how[@]}" ${FUZZ_FLAGS:-} -print_final_stats=1 -rss_limit_mb=4096 \
		-artifact_prefix="$out/$name-" "$out/corpus-$name" ${tree:+"$tree"} "$@" \
		>"$out/$name.log" 2>&1 || rc=$?
	grep -E 'ERROR|SUMMARY|runtime error' "$out/$name.log" | head -n 5 || true
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$name.log" | tail -n 1)
	[ -n "$execs" ] || execs=$(sed -n 's/^#\([0-9]*\): cov.*/\1/p' "$out/$name.log" | tail -n 1)
	cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$out/$name.log" | tail -n 1)
	if [ "$rc" -ne 0 ] || ls "$out/$name-"* >/dev/null 2>&1; then
		echo "libfuzzer: $name FAILED (exit $rc) after ${execs:-?} executions;" \
			"input: $(ls "$out/$name-"* 2>/dev/null | tr '\n' ' ')log: $out/$name.log"
		failed+=("$name")
		return 0
	fi
	[ -n "$execs" ] ||
		{ echo "libfuzzer: $name did not finish"; tail -n 30 "$out/$name.log"; exit 1; }
	echo "libfuzzer: $name: $execs executions, $cov"
	[ "${FUZZ_MERGE:-0}" = 1 ] && [ -n "$tree" ] || return 0
	rm -rf "$out/merged-$name"
	mkdir "$out/merged-$name"
	"$out/$name" -merge=1 -max_len=65536 -rss_limit_mb=4096 \
		"$out/merged-$name" "$tree" "$out/corpus-$name" \
		>"$out/merge-$name.log" 2>&1 ||
		{ echo "libfuzzer: $name: merge failed, see $out/merge-$name.log"; exit 1; }
	rm -rf "$tree"
	cp -r "$out/merged-$name" "$tree"
	echo "libfuzzer: $name: corpus $(ls "$tree" | wc -l) files, $(du -sb "$tree" | cut -f1) bytes"
}

run fuzz-enumerator "$seeds"
mkdir -p "$out/seeds-perf"
dir=$(dirname "$corpus")
for f in perf.data pipe.data; do
	[ -r "$dir/$f" ] && cp "$dir/$f" "$out/seeds-perf/"
done
run fuzz-perf "$out/seeds-perf"
# The public reader: the three corpus files whole, one of each kind.
mkdir -p "$out/seeds-reader"
for f in EventHeaderInterceptorLE64.dat perf.data pipe.data; do
	[ -r "$dir/$f" ] && cp "$dir/$f" "$out/seeds-reader/"
done
run fuzz-reader "$out/seeds-reader"
# nettrace: the three corpus files converted by ehdecode -F nettrace (v6)
# and the .NET files (v3, v4) cut to their first 64 KiB (two are near
# 500 KB), so that runs stay fast.
mkdir -p "$out/seeds-nettrace"
ehdecode=${EHDECODE:-./tools/ehdecode}
for f in EventHeaderInterceptorLE64.dat perf.data pipe.data; do
	[ -r "$dir/$f" ] && [ -x "$ehdecode" ] &&
		"$ehdecode" -F nettrace -o "$out/seeds-nettrace/$f.nettrace" "$dir/$f"
done
for f in "$dir"/../nettrace/*.nettrace "$dir"/../nettrace/*.netperf; do
	[ -r "$f" ] || continue
	head -c 65536 "$f" >"$out/seeds-nettrace/$(basename "$f")"
done
run fuzz-nettrace "$out/seeds-nettrace"
# Heph: the corpus files converted by ehdecode -F heph, and the format
# specification's example (an epoch and an event packet).
mkdir -p "$out/seeds-heph"
for f in EventHeaderInterceptorLE64.dat perf.data pipe.data; do
	[ -r "$dir/$f" ] && [ -x "$ehdecode" ] &&
		"$ehdecode" -F heph -o "$out/seeds-heph/$f.bin.log" "$dir/$f" 2>/dev/null
done
printf '%b' '\x75\xd1\x1d\x4d\0\0\0\x17\0\x05epoch\x16\x58\x45\xe9\x12\x14\xec\x90' \
	'\xc1\xfc\x1f\xb7\0\0\0\x5b\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\x01' \
	'\0\0\0\0\0\0\0\x64\0\0\0\0\0\0\0\xc8\0\x08My event' \
	'\0\x04Test\x01\0\0\0\0\0\0\0\x7b\0\x05Test2\x83\0\x02' \
	'\x40\x5e\xdd\x2f\x1a\x9f\xbe\x77\x40\x88\xa8\0\0\0\0\0' \
	>"$out/seeds-heph/spec.bin.log"
run fuzz-heph "$out/seeds-heph"
# The tracefs formats: the in-tree corpus only (formats of the corpus's
# tracing data, each with the raw data of a sample).
run fuzz-format
# The writers: the inputs of every reader.
run fuzz-writers "$out/seeds-reader" "$out/seeds-nettrace" "$out/seeds-heph"
# The ELF symbol reader: this build's examples/spin, whole and stripped.
mkdir -p "$out/seeds-symbols"
if [ -r examples/spin ]; then
	cp examples/spin "$out/seeds-symbols/spin"
	objcopy --strip-all examples/spin "$out/seeds-symbols/stripped" 2>/dev/null || true
fi
run fuzz-symbols "$out/seeds-symbols"
echo "libfuzzer: outputs in $out"
[ ${#failed[@]} -eq 0 ] || { echo "libfuzzer: FAILED: ${failed[*]}"; exit 1; }
