#!/usr/bin/env bash
# libFuzzer targets for the localization parsers (run by `make fuzz`).
#   strings     : Fuzz/FuzzStrings.swift    → StringsParser (+ format scanner on every value)
#   stringsdict : Fuzz/FuzzStringsdict.swift → XMLPlist + StringsdictModel + plural formatting
#   bplist      : Fuzz/FuzzBinaryPlist.swift → BinaryPlist (+ .strings table, .stringsdict model)
#   catalog     : Fuzz/FuzzCatalog.swift    → JSONReader + StringCatalog + writers (.xcstrings)
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
build bplist FuzzBinaryPlist.swift
build catalog FuzzCatalog.swift
run strings "$(seed strings '*.strings')"
run stringsdict "$(seed stringsdict '*.stringsdict')"
# Binary seeds: the corpus's bplist files, and the text files converted by Python's plistlib
# (FMT_BINARY writes CoreFoundation's layout) when python3 is there; the 8-byte header is
# stripped since the entry file adds it.
BSEEDS="$WORK/seeds-bplist"; mkdir -p "$BSEEDS"
python3 - "$BSEEDS" Localizations ../shared/corpus/strings <<'PY' || echo "fuzz-l10n: python3 seeds skipped"
import os, plistlib, sys
out, n = sys.argv[1], 0
for root in sys.argv[2:]:
    for d, _, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            if not f.endswith((".strings", ".stringsdict")) or os.path.getsize(p) > 65536:
                continue
            data = open(p, "rb").read()
            try:
                b = data if data.startswith(b"bplist00") else plistlib.dumps(plistlib.loads(data), fmt=plistlib.FMT_BINARY)
            except Exception:
                continue
            open(os.path.join(out, "seed-%d" % n), "wb").write(b[8:]); n += 1
PY
[ -n "$(ls "$BSEEDS")" ] || printf '\xd0\x08\x00\x00\x00\x00\x00\x00\x01\x01\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x09' > "$BSEEDS/seed-0"
run bplist "$BSEEDS"
# Catalog seeds: every *.xcstrings found, plus one covering each variation kind.
CSEEDS="$(seed catalog '*.xcstrings')"
cat > "$CSEEDS/seed-inline" <<'JSON'
{"sourceLanguage":"en","strings":{"a":{"extractionState":"stale","localizations":{"en":{"stringUnit":{"state":"translated","value":"A %@"}},
"fr":{"variations":{"device":{"other":{"variations":{"plural":{"one":{"stringUnit":{"state":"new","value":"%d x"}},"other":{"stringUnit":{"value":"%d xs"}}}}}}}}}},
"b":{"localizations":{"en":{"stringUnit":{"value":"%#@f@ in %#@d@"},"substitutions":{"f":{"argNum":2,"formatSpecifier":"lld","variations":{"plural":{"other":{"stringUnit":{"value":"%arg f \u00e9"}}}}},
"d":{"argNum":1,"formatSpecifier":"d","variations":{"plural":{"one":{"stringUnit":{"value":"%1$@ %arg"}}}}}}}}}},"version":"1.0"}
JSON
run catalog "$CSEEDS"
echo "fuzz-l10n: OK"
