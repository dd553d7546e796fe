#!/usr/bin/env bash
# UI benchmark: render + send one capture frame through the curses backend on a pseudo-terminal,
# at 80x24 and 200x60, in 256 colours (xterm-256color) and direct colour (xterm-direct).
# Prints ms per frame, KB written per frame and the ratio to an anchor measured in the same run
# (writing 24 KB to the same pty). Goal at 80x24 direct colour: <= 2 ms and <= 24 KB per frame
# for camera-like frames; the "worst" rows (every cell changes every frame) are for information.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product bench-ui >/dev/null
BIN=.build/release/bench-ui
FRAMES=${FRAMES:-100}
for term in xterm-256color xterm-direct; do
  for size in "80 24" "200 60"; do
    # shellcheck disable=SC2086
    "$BIN" "$term" $size "$FRAMES" camera
  done
  "$BIN" "$term" 80 24 "$FRAMES" worst
done
