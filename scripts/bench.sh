#!/usr/bin/env bash
# Benchmarks: runs every scripts/bench-*.sh; each prints ratios against an anchor measured in
# the same run. Needs a release build (make bench builds it).
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s nullglob
scripts=(scripts/bench-*.sh)
[ ${#scripts[@]} -gt 0 ] || { echo "bench: no benchmarks yet"; exit 0; }
for s in "${scripts[@]}"; do echo "== $s"; bash "$s"; done
echo "== preview modes (issue #13)"; .build/release/bench-ui --preview Resources/demo/astronaut.png
