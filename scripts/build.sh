#!/bin/bash
# build.sh [DIR [configure options...]] - configure and build out of tree in
# DIR (default: build/ in the source tree). Reuses an existing configuration.
set -euo pipefail
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=${1:-$src/build}
shift || true
[ -x "$src/configure" ] || (cd "$src" && autoreconf -fi >/dev/null)
mkdir -p "$dir"
cd "$dir"
[ -f config.status ] || "$src/configure" -q "$@"
make -s -j"$(nproc)"
