#!/usr/bin/env bash
# Media benchmarks (run by `make bench` after a release build):
#  1. decode every frame of a 640x480 and a 1280x720 MJPEG AVI as AVIFileSource reads it
#     (libjpeg-turbo: every frame entropy-decoded, its luma at the analysis scale, 1/2 at 720p:
#     issue #16) vs `ffmpeg -threads 1 -f null` (full YUV) on the same file in the same run → ratio.
#  2. a paced (realtime) 1280x720 30 fps recording for 10 s: frames decoded and stored as is;
#     dropped frames reported (goal 0).
# The 640x480 clip is ../shared/media/long.avi (300 frames); the 720p one is made from it with
# ffmpeg (or from testsrc when ../shared is absent). Needs ffmpeg; skips with a message if absent.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v ffmpeg >/dev/null || { echo "bench-media: ffmpeg absent, skipped"; exit 0; }
swift build -c release --product MediaBench >/dev/null
BIN=.build/release/MediaBench
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

source Benchmarks/lib/bench-clips.sh
bench_clips "$TMP"

secs() { python3 -c "import sys; print(f'{float(sys.argv[1]):.3f}')" "$1"; }
time_ffmpeg() { # median of 3
    local best=()
    for _ in 1 2 3; do
        local t0 t1
        t0=$(date +%s.%N); ffmpeg -v error -threads 1 -i "$1" -f null - ; t1=$(date +%s.%N)
        best+=("$(python3 -c "print($t1-$t0)")")
    done
    printf '%s\n' "${best[@]}" | sort -n | sed -n 2p
}
time_ours() { # median of 3
    local best=()
    for _ in 1 2 3; do best+=("$("$BIN" decode "$1" | awk '{print $6}')"); done
    printf '%s\n' "${best[@]}" | sort -n | sed -n 2p
}

for f in "$SRC480" "$SRC720"; do
    n=$(ffprobe -v error -count_packets -select_streams v:0 -show_entries stream=nb_read_packets,width,height -of csv=p=0 "$f")
    ours=$(time_ours "$f"); theirs=$(time_ffmpeg "$f")
    ratio=$(python3 -c "print(f'{$ours/$theirs:.2f}')")
    echo "decode $(basename "$f") [$n]: ours $(secs "$ours") s, ffmpeg -f null $(secs "$theirs") s, ratio ours/ffmpeg $ratio"
done

echo "paced 1280x720 30 fps recording, 10 s (goal: 0 dropped):"
"$BIN" record "$SRC720" "$TMP/rec.avi" 10
ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames,r_frame_rate -of csv=p=0 "$TMP/rec.avi" | sed 's/^/  ffprobe (rate,frames): /'
