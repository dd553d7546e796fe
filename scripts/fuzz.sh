#!/usr/bin/env bash
# libFuzzer targets: runs every scripts/fuzz-*.sh, each bounded in runs and time.
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s nullglob
scripts=(scripts/fuzz-*.sh)
[ ${#scripts[@]} -gt 0 ] || { echo "fuzz: no fuzz targets yet"; exit 0; }
for s in "${scripts[@]}"; do echo "== $s"; bash "$s"; done
