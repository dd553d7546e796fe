#!/usr/bin/env bash
# The one entry point of the benchmarks (`make bench`, which builds the release binary first).
# Every benchmark lives in this folder (DESIGN.md "Benchmarks"): NAME.sh prints its figures as
# ratios against an anchor measured in the same run, and "goal ...: met" / "NOT met" lines.
#   bash Benchmarks/run.sh            every benchmark, in the order below
#   bash Benchmarks/run.sh speed ui   only those (names without .sh; `make bench BENCH="speed ui"`)
set -euo pipefail
cd "$(dirname "$0")/.."
# One line per benchmark, in the order they run.
all=(
    speed            # issue #16 (and #7's 640x480 pipeline): 480p/720p/1080p pipeline next to ffmpeg -f null, first screen, latency, CPU, peak RSS
    face             # issue #5/#11: analysis and quality-vector CPU time per frame
    guidance         # issue #10/#11: detection, IoU, jitter, hints on the ground-truth clips
    fairness         # issue #24: record rate, time to record and hints per group of people (skin, age, sex, glasses, expression, light)
    media            # decode and paced recording
    mp4              # --video-format mp4 size, encode time, paced recording
    ui               # curses render + write per frame on a pty
    kiosk            # issue #28: capture-screen CPU per preview mode (face, empty scene) against ffmpeg decoding, symbols against the chafa CLI, first screen against --version, libraries loaded, peak RSS
    preview          # issue #13: every --preview-mode at 80x24 and 200x60: ms, bytes and SSIM per frame, chafa CLI as the anchor
    terminal-bytes   # bytes/s of the capture screen per --colors / --preview-fps
    l10n             # string-file parsers against Foundation
    l10n-nesting     # nested plural validation
)
names=("$@")
[ ${#names[@]} -gt 0 ] || names=("${all[@]}")
for n in "${names[@]}"; do
    f=Benchmarks/$n.sh
    [ -f "$f" ] || { echo "bench: no benchmark '$n' (have: ${all[*]})" >&2; exit 64; }
    echo "== $n ($f)"
    bash "$f"
done
