#!/usr/bin/env bash
# Localization parser benchmark (run by `make bench`). Builds Bench/L10nBench.swift with
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
mkdir -p "$WORK/include"
cp Sources/CICUPlural/include/CICUPlural.h "$WORK/include/"
printf 'module CICUPlural {\n  header "CICUPlural.h"\n  export *\n}\n' > "$WORK/include/module.modulemap"
clang -O2 -I Sources/CICUPlural/include -c Sources/CICUPlural/shim.c -o "$WORK/shim.o"
swiftc -O -parse-as-library -module-name L10nBench -I "$WORK/include" \
    Sources/Localization/*.swift Bench/L10nBench.swift "$WORK/shim.o" \
    -licui18n -licuuc -licudata -o "$WORK/l10n-bench"
"$WORK/l10n-bench" "$CORPUS" "${BENCH_ROUNDS:-20}"
