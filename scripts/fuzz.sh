#!/usr/bin/env bash
# libFuzzer targets: runs every scripts/fuzz-*.sh, each bounded in runs and time and printing
# runs, coverage and crashes per target. Every script runs even when an earlier one fails; the
# exit status is non-zero when any failed (a crash, hang, leak or build failure).
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s nullglob
scripts=(scripts/fuzz-*.sh)
[ ${#scripts[@]} -gt 0 ] || { echo "fuzz: no fuzz targets yet"; exit 0; }
failed=()
for s in "${scripts[@]}"; do echo "== $s"; bash "$s" || failed+=("$s"); done
if [ ${#failed[@]} -gt 0 ]; then echo "fuzz: FAILED: ${failed[*]}"; exit 1; fi
echo "fuzz: all targets passed"
