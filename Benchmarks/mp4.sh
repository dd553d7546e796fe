#!/usr/bin/env bash
# MP4 (--video-format mp4) benchmarks (run by `make bench` after a release build):
#  1. size: the same 1 s headless capture of ../shared/media/approach.avi (640x480, 15 fps) as
#     AVI and as MP4 with the release binary → MP4/AVI size ratio (goal <= 0.25);
#  2. encode time per frame at 640x480 and 1280x720: H.264 (MP4Writer, libx264 CRF 23
#     veryfast, finalize included) next to the anchor, JPEG q90 of the same RGB frames (what the
#     AVI writer does for frames without a source JPEG), measured in the same run → ratio;
#  3. a paced (realtime) 1280x720 30 fps MP4 recording for 10 s: frames decoded as the app does
#     and encoded; dropped frames reported (goal 0) and counted again by ffprobe.
# Needs ffmpeg/ffprobe (test oracles and the 720p clip); skips with a message if absent.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v ffmpeg >/dev/null || { echo "bench-mp4: ffmpeg absent, skipped"; exit 0; }
swift build -c release --product MediaBench >/dev/null
BENCH=.build/release/MediaBench
APP=.build/release/selfie-capture
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

source Benchmarks/lib/bench-clips.sh
bench_clips "$TMP"

if [ -f ../shared/media/approach.avi ] && [ -x "$APP" ]; then
    for f in avi mp4; do
        "$APP" --source ../shared/media/approach.avi --renderer null --pace fast --video-format "$f" --output "$TMP/run-$f" 2>/dev/null
    done
    a=$(stat -c %s "$TMP/run-avi/video.avi"); m=$(stat -c %s "$TMP/run-mp4/video.mp4")
    n=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$TMP/run-mp4/video.mp4")
    printf 'size, 1 s 640x480 capture (%s frames): mp4 %d B, avi %d B, ratio mp4/avi %.3f (goal <= 0.25)\n' "$n" "$m" "$a" "$(echo "$m / $a" | bc -l)"
else
    echo "size: ../shared/media/approach.avi or the release binary absent, skipped"
fi

for f in "$SRC480" "$SRC720"; do
    size=$(ffprobe -v error -select_streams v:0 -show_entries stream=width,height -of csv=s=x:p=0 "$f")
    read -r _ jpeg _ mp4 _ jb _ mb _ n < <("$BENCH" encode "$f" 150)
    printf 'encode %s, %d frames: h264 %.2f ms/frame, anchor jpeg q90 %.2f ms/frame, ratio h264/jpeg %.2f; bytes h264/jpeg %.3f\n' \
        "$size" "$n" "$mp4" "$jpeg" "$(echo "$mp4 / $jpeg" | bc -l)" "$(echo "$mb / $jb" | bc -l)"
done

echo "paced 1280x720 30 fps MP4 recording, 10 s (goal: 0 dropped):"
"$BENCH" record "$SRC720" "$TMP/rec.mp4" 10 | sed 's/^/  /'
ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=codec_name,r_frame_rate,nb_read_frames -of csv=p=0 "$TMP/rec.mp4" | sed 's/^/  ffprobe (codec,rate,frames): /'
