#!/usr/bin/env bash
# Localization parser benchmark (run by `make bench`). Builds Benchmarks/L10n/L10nBench.swift with
# `swiftc -O` together with Sources/Localization/*.swift (the CICUPlural shim compiled by clang),
# then parses every corpus file both with our parsers and with Foundation's
# PropertyListSerialization in the same run and prints the ratio (goal: ours >= 4x faster; binary plists included).
# Corpus: ../shared/corpus/strings (skipped with a message when absent). BENCH_ROUNDS (default 20).
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS=../shared/corpus/strings
[ -d "$CORPUS" ] || { echo "bench-l10n: $CORPUS absent, skipped"; exit 0; }
WORK=$(mktemp -d /tmp/bench-l10n.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
source Benchmarks/lib/l10n-bench-build.sh
build_l10n_bench "$WORK" L10nBench Benchmarks/L10n/L10nBench.swift "$WORK/l10n-bench"
"$WORK/l10n-bench" "$CORPUS" "${BENCH_ROUNDS:-20}"
