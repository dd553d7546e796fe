#!/usr/bin/env bash
# libFuzzer target for the `--keys` script parser (run by `make fuzz`):
#   keyscript : Fuzz/Keys/keyscript.swift → KeyScript.parse (inline and @FILE), KeyScriptPlayer
# KeyScript.swift needs CaptureFlow's `Key` and `EventName`; CaptureFlow is pure Swift, so its
# files and a copy of KeyScript.swift without `import CaptureFlow` are built as one module with
# `swiftc -sanitize=fuzzer,address`. Seeds: the scripts of README.md and the tests, plus edge
# cases. Bounded: FUZZ_RUNS runs (default 1,000,000) or FUZZ_SECONDS (default 120), whichever
# comes first; 10 s per input (a hang fails). Prints runs, coverage and crashes; exits non-zero
# on a crash, hang, leak or failed check (the entry's preconditions).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${FUZZ_RUNS:-1000000}
SECONDS_MAX=${FUZZ_SECONDS:-120}
OUT=.build/fuzz-keys
rm -rf "$OUT/src" "$OUT/seeds"
mkdir -p "$OUT/src" "$OUT/seeds" "$OUT/corpus"
cp Sources/CaptureFlow/*.swift "$OUT/src/"
grep -v '^import CaptureFlow$' Sources/SelfieCaptureApp/KeyScript.swift > "$OUT/src/KeyScript.swift"

# (ld.gold warns "Cannot export local symbol __asan_*" by the hundred: harmless, kept in the log.)
if ! swiftc -O -g -sanitize=fuzzer,address -parse-as-library -module-name FuzzKeys \
        "$OUT"/src/*.swift Fuzz/Keys/keyscript.swift -o "$OUT/fuzz-keyscript" > "$OUT/build.txt" 2>&1; then
    grep -v "Cannot export local symbol" "$OUT/build.txt" | tail -30
    echo "fuzz-keys: cannot build the keyscript target"; exit 1
fi

n=0
seed() { printf '%s' "$1" > "$OUT/seeds/seed-$n"; n=$((n + 1)); }
seed 'enter; enter; wait-for cameraReady; s'
seed $'wait-for instructionsShown; enter; wait-for cameraPermissionShown; enter;\nwait-for cameraReady; s'
seed $'# comment\nenter\n  wait 500ms ; wait 1.5s; wait 2 s\nwait-for faceCaptureFailed # retry\nspace; esc; backspace; ctrl-c; q'
seed 'enter; enter; wait-for cameraReady; s; wait-for faceCaptureFailed; enter'
seed $'wait 86400000ms;wait 86400s;wait 86400.0001s;wait -1ms;wait 1e3ms;wait nan s'
seed $'wait-for cameraRedy; entr; ;;; \r\n\t; wait; wait-for; é; 😀; ab'
seed $'return;escape;ENTER;Space;\xff\xfe;#;x # y; z'

rm -f "$OUT"/crash-* "$OUT"/timeout-* "$OUT"/leak-* "$OUT"/oom-*
echo "fuzz-keys: keyscript: $RUNS runs (max ${SECONDS_MAX}s), $n seeds"
status=0
"$OUT/fuzz-keyscript" "$OUT/corpus" "$OUT/seeds" -runs="$RUNS" -max_total_time="$SECONDS_MAX" -timeout=10 \
    -max_len=4096 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$OUT/" > "$OUT/log.txt" 2>&1 || status=$?
runs=$( (grep -E "^stat::number_of_executed_units" "$OUT/log.txt" || true) | awk '{print $2}' | tail -1)
[ -n "$runs" ] || runs=$( (grep -oE "^#[0-9]+" "$OUT/log.txt" || true) | tail -1 | tr -d '#')   # a crash prints no final stats
cov=$( (grep -oE "cov: [0-9]+" "$OUT/log.txt" || true) | tail -1 | awk '{print $2}')
crashes=$(ls "$OUT" | grep -cE '^(crash|timeout|leak|oom)-' || true)
echo "  keyscript: runs ${runs:-?}, coverage ${cov:-?} edges, crashes $crashes"
if [ "$status" -ne 0 ] || [ "$crashes" -ne 0 ]; then
    tail -30 "$OUT/log.txt"
    echo "fuzz-keys: keyscript FAILED (exit $status); see $OUT/log.txt and $OUT/crash-*"
    exit 1
fi
echo "fuzz-keys: OK"
