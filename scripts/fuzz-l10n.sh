#!/usr/bin/env bash
# libFuzzer targets for the localization parsers (run by `make fuzz`).
#   strings     : Fuzz/FuzzStrings.swift    → StringsParser (+ format scanner on every value)
#   stringsdict : Fuzz/FuzzStringsdict.swift → XMLPlist + StringsdictModel + plural formatting
# Each is built with `swiftc -sanitize=fuzzer,address` from Sources/Localization/*.swift plus its
# entry file; the CICUPlural shim is compiled by clang and linked with ICU. Seeds: the project's
# Localizations/ and, when present, ../shared/corpus/strings (copied to a temp dir, never into
# the repo). Bounded: FUZZ_RUNS runs (default 1,000,000) and FUZZ_SECONDS (default 900) each.
# Leaks are checked by ASan/LeakSanitizer at exit; a crash, hang (>10 s per input) or leak
# fails the script.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
RUNS=${FUZZ_RUNS:-1000000}
SECONDS_MAX=${FUZZ_SECONDS:-900}
WORK=$(mktemp -d /tmp/fuzz-l10n.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

# A snapshot of the sources, so edits during the run do not disturb the build.
mkdir -p "$WORK/src"
cp Sources/Localization/*.swift Fuzz/*.swift "$WORK/src/"

# The shim as a module Swift can import, and its object file.
mkdir -p "$WORK/include"
cp Sources/CICUPlural/include/CICUPlural.h "$WORK/include/"
printf 'module CICUPlural {\n  header "CICUPlural.h"\n  export *\n}\n' > "$WORK/include/module.modulemap"
clang -O1 -g -fsanitize=address,fuzzer-no-link -I Sources/CICUPlural/include -c Sources/CICUPlural/shim.c -o "$WORK/shim.o"

build() { # name entry-file
    swiftc -O -g -sanitize=fuzzer,address -parse-as-library -module-name "Fuzz$1" \
        -I "$WORK/include" $(ls "$WORK"/src/*.swift | grep -v "/Fuzz") "$WORK/src/$2" "$WORK/shim.o" \
        -licui18n -licuuc -licudata -o "$WORK/fuzz-$1" > "$WORK/build-$1.log" 2>&1 || {
        grep -v "Cannot export local symbol" "$WORK/build-$1.log" | tail -30; echo "fuzz-l10n: build of $1 FAILED"; exit 1; }
}

seed() { # name pattern...
    local dir="$WORK/seeds-$1"; mkdir -p "$dir"
    shift
    local n=0
    for pat in "$@"; do
        while IFS= read -r -d '' f; do cp "$f" "$dir/seed-$n"; n=$((n + 1)); done < <(find Localizations ../shared/corpus/strings -name "$pat" -size -64k -print0 2>/dev/null)
    done
    echo "$dir"
}

run() { # name seeds
    local name=$1 seeds=$2
    echo "fuzz-l10n: $name: $RUNS runs (max ${SECONDS_MAX}s), $(ls "$seeds" | wc -l) seeds"
    mkdir -p "$WORK/corpus-$name"
    ( cd "$WORK" && "./fuzz-$name" -runs="$RUNS" -max_total_time="$SECONDS_MAX" -timeout=10 -max_len=8192 \
        -rss_limit_mb=2048 -print_final_stats=1 "$WORK/corpus-$name" "$seeds" ) > "$WORK/$name.log" 2>&1 || {
        tail -40 "$WORK/$name.log"; echo "fuzz-l10n: $name FAILED"; exit 1; }
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb|Done|DONE" "$WORK/$name.log" | sed "s/^/  $name: /"
    echo "  $name: crashes: 0"
}

build strings FuzzStrings.swift
build stringsdict FuzzStringsdict.swift
run strings "$(seed strings '*.strings')"
run stringsdict "$(seed stringsdict '*.stringsdict')"
echo "fuzz-l10n: OK"
