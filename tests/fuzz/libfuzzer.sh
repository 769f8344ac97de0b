#!/bin/bash
# SPDX-License-Identifier: MIT
#
# libfuzzer.sh [SECONDS] - build the fuzz targets with clang's libFuzzer
# (plus ASan and UBSan) and run each for SECONDS (default 60), starting
# from the reference corpus records. Prints the executions run.
set -euo pipefail
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
secs=${1:-60}
out=${FUZZ_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/eh-fuzz.XXXXXX")}
cc=${FUZZ_CC:-clang}
command -v "$cc" >/dev/null || { echo "libfuzzer: $cc not found"; exit 77; }
flags=(-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
	-D_GNU_SOURCE -DEHD_BUILDING_LIB -I"$src/libeventheader/include"
	-I"$src/decode/include" -I"$src/decode")
# The whole library, built into each target with the sanitizers.
lib=("$src"/decode/*.c)
libs=($(pkg-config --cflags --libs libtraceevent libzstd))

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

run() {
	local name=$1 seeds=$2

	"$cc" "${flags[@]}" "$src/tests/fuzz/$name.c" "${lib[@]}" "${libs[@]}" \
		-o "$out/$name"
	mkdir -p "$out/corpus-$name"
	"$out/$name" -max_total_time="$secs" -print_final_stats=1 -rss_limit_mb=4096 \
		"$out/corpus-$name" "$seeds" 2>&1 | tee "$out/$name.log" |
		grep -E 'stat::number_of_executed_units|ERROR|SUMMARY' || true
	grep -q 'stat::number_of_executed_units' "$out/$name.log" ||
		{ echo "libfuzzer: $name did not finish"; tail -n 30 "$out/$name.log"; exit 1; }
	echo "libfuzzer: $name ran $secs s"
}

run fuzz-enumerator "$seeds"
mkdir -p "$out/seeds-perf"
dir=$(dirname "$corpus")
for f in perf.data pipe.data; do
	[ -r "$dir/$f" ] && cp "$dir/$f" "$out/seeds-perf/"
done
run fuzz-perf "$out/seeds-perf"
echo "libfuzzer: outputs in $out"
