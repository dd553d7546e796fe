#!/usr/bin/env bash
# Fairness report (issue #24): does the capture treat every person alike? The release binary
# captures every ground-truth clip of ../shared/media, ../shared/media/people and
# ../shared/media/fairness with default options (`--renderer null --pace fast`), and the people
# are grouped by each attribute of fairness/faces/faces.json (skin-tone group, age band, sex,
# glasses, expression, lighting, head pose, occlusion; people without attributes, the astronaut
# set and people/, form the group "unannotated"). Per group: the share of must-record clips that
# record; the median and worst time from settled (the ground truth's first still-and-valid
# moment) to the recording's start; how often each hint was shown on the frames the ground truth
# labels valid. Then the largest gap between the groups of an attribute for each figure
# (ISO/IEC 19795-10 reports demographic differentials as such between-group differences), the
# pose estimate's bias on the frontal faces, and the issue's goals as "met" / "NOT met".
# BIN=... overrides the binary (default .build/release/selfie-capture). Skipped (exit 0) when
# ../shared/media is absent. Takes about 2 minutes on 2 cores.
set -euo pipefail
caller=$PWD
cd "$(dirname "$0")/.."
. Benchmarks/lib/media-bench.sh
media_bench_setup fairness "$caller"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
python3 Benchmarks/fairness/report.py --bin "$BIN" --media "$media" --work "$tmp"
