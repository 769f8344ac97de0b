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
	-DEHD_BUILDING_LIB -I"$src/libeventheader/include"
	-I"$src/decode/include" -I"$src/decode")
lib=("$src"/decode/buf.c "$src"/decode/error.c "$src"/decode/enumerator.c
	"$src"/decode/json-values.c "$src"/decode/json-event.c)

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

"$cc" "${flags[@]}" "$src/tests/fuzz/fuzz-enumerator.c" "${lib[@]}" \
	-o "$out/fuzz-enumerator"
mkdir -p "$out/corpus-enumerator"
"$out/fuzz-enumerator" -max_total_time="$secs" -print_final_stats=1 \
	"$out/corpus-enumerator" "$seeds" 2>&1 | tee "$out/enumerator.log" |
	grep -E 'stat::number_of_executed_units|ERROR|SUMMARY' || true
grep -q 'stat::number_of_executed_units' "$out/enumerator.log" ||
	{ echo "libfuzzer: the run did not finish"; tail -n 30 "$out/enumerator.log"; exit 1; }
echo "libfuzzer: fuzz-enumerator ran $secs s ($out)"
