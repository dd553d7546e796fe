#!/usr/bin/env bash
# Benchmarks: each prints ratios against an anchor measured in the same run (see README).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "bench: no benchmarks yet (they land with the localization, media, analysis and UI issues)"
