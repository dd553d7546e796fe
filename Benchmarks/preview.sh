#!/usr/bin/env bash
# Issue #13: each preview mode at 80x24 and 200x60: render ms/frame, bytes/frame and SSIM of what
# the terminal would show against the source frame, with the chafa CLI on the same frame as the
# anchor (Benchmarks/bench-ui/PreviewBench.swift).
set -euo pipefail
cd "$(dirname "$0")/.."
.build/release/bench-ui --preview Resources/demo/astronaut.png
