#!/usr/bin/env bash
# Nested plural validation benchmark (run by `make bench`; issue #14 "nested plural checks cost
# linear time"). Builds Benchmarks/L10n/NestedPluralBench.swift with `swiftc -O` together with
# Sources/Localization/*.swift (the CICUPlural shim compiled by clang) and prints, for generated
# 8- and 10-level .stringsdict files, the time to validate and its ratio to parsing the same file
# (ours and Foundation's PropertyListSerialization, the anchor). Goal: 10 levels < 50 ms.
# BENCH_ROUNDS (default 200). Needs no corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=$(mktemp -d /tmp/bench-l10n-nesting.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
source Benchmarks/lib/l10n-bench-build.sh
build_l10n_bench "$WORK" NestedPluralBench Benchmarks/L10n/NestedPluralBench.swift "$WORK/nested-bench"
"$WORK/nested-bench" "${BENCH_ROUNDS:-200}"
