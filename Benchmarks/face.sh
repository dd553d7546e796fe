#!/usr/bin/env bash
# Face analysis speed (issue #5): median CPU time (the thread's CPU clock, so that other load on
# a shared machine does not count) per 640x480 frame of ../shared/media/long.avi on one
# core (taskset -c 0), for
#   ours      `selfie-capture analyze` (release): tracking ROI, ~320-px search with full-resolution
#             fallback, 68 landmarks, head pose, light/sharpness/eyes, the quality vector — the
#             time of FaceAnalyzer.analyze per frame, JPEG decoding excluded;
#   quality   the ISO/IEC 29794-5 quality vector alone (issue #11: QualityMeasures.vector, timed
#             inside each analyze call), with its ratio to `ours` (goal: <= 1 ms per frame);
#   dlib      dlib's HOG detector on the full frame (C++ at -O3, detection only);
#   opencv    OpenCV's LBP frontal cascade, one thread (python3-opencv + opencv-data, installed here
#             on demand with apt-get; detection only).
# Prints each median and the ratios ours/anchor (lower is better). Goal: ours <= 5 ms.
set -euo pipefail
cd "$(dirname "$0")/.."
clip=../shared/media/long.avi
W=640 H=480
if [ ! -f "$clip" ]; then echo "bench-face: $clip is absent; skipped"; exit 0; fi
command -v ffmpeg >/dev/null || { echo "bench-face: ffmpeg is absent; skipped"; exit 0; }
pin=(); command -v taskset >/dev/null && pin=(taskset -c 0)
work=.build/bench-face; mkdir -p "$work"
bin=.build/release/selfie-capture
[ -x "$bin" ] || swift build -c release --product selfie-capture >/dev/null

ffmpeg -v error -i "$clip" -f rawvideo -pix_fmt gray - > "$work/long.gray"

# ours: three runs (this kind of machine varies by ±30 % from run to run), the median of their
# medians. The first run also fills the model cache.
runs=(); qruns=()
for r in 1 2 3; do
    "${pin[@]}" "$bin" analyze --source "$clip" --analysis-log /dev/null 2> "$work/ours.txt"
    m=$(sed -n 's/.*analysis CPU time per frame: median \([0-9.]*\) ms.*/\1/p' "$work/ours.txt")
    q=$(sed -n 's/.*quality vector per frame: median \([0-9.]*\) ms.*/\1/p' "$work/ours.txt")
    [ -n "$m" ] && [ -n "$q" ] || { cat "$work/ours.txt"; echo "bench-face: no timing from analyze"; exit 1; }
    runs+=("$m"); qruns+=("$q")
done
ours=$(printf '%s\n' "${runs[@]}" | sort -g | sed -n 2p)
quality=$(printf '%s\n' "${qruns[@]}" | sort -g | sed -n 2p)

# dlib full frame
src=Benchmarks/face/dlib_hog_fullframe.cpp
if [ ! -x "$work/dlib_hog_fullframe" ] || [ "$src" -nt "$work/dlib_hog_fullframe" ]; then
    g++ -O3 -std=c++14 -o "$work/dlib_hog_fullframe" "$src" $(pkg-config --cflags --libs dlib-1) -lblas -llapack
fi
read -r dlib dlib_n dlib_faces < <("${pin[@]}" "$work/dlib_hog_fullframe" $W $H < "$work/long.gray")

# OpenCV LBP (Debian's python3-opencv lives in the system python, not in a pyenv/venv one)
opencv=""
py=/usr/bin/python3; [ -x "$py" ] || py=python3
if ! "$py" -c 'import cv2' 2>/dev/null || ! ls /usr/share/opencv4/lbpcascades/*.xml >/dev/null 2>&1; then
    echo "bench-face: installing python3-opencv opencv-data (apt-get) for the LBP anchor"
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3-opencv opencv-data >/dev/null 2>&1 \
        || echo "bench-face: could not install them (not root?); OpenCV anchor skipped"
fi
cascade=/usr/share/opencv4/lbpcascades/lbpcascade_frontalface_improved.xml
[ -f "$cascade" ] || cascade=/usr/share/opencv4/lbpcascades/lbpcascade_frontalface.xml
if "$py" -c 'import cv2' 2>/dev/null && [ -f "$cascade" ]; then
    read -r opencv cv_n cv_faces < <("${pin[@]}" "$py" Benchmarks/face/opencv_lbp.py $W $H "$cascade" < "$work/long.gray")
fi

ratio() { python3 -c "print(f'{$1/$2:.2f}')"; }
echo "frames: long.avi, ${dlib_n} frames of ${W}x${H}, one core"
echo "ours   (analyze: detect+landmarks+pose+quality)  median ${ours} ms/frame CPU   $(sed -n 's/^analyze: \([0-9]*\) frames.*/\1 frames/p' "$work/ours.txt"); runs: ${runs[*]}"
echo "dlib   (HOG, full frame, detection only)         median ${dlib} ms/frame CPU   ${dlib_faces} detections"
[ -n "$opencv" ] && echo "opencv (LBP $(basename "$cascade"), 1 thread)  median ${opencv} ms/frame CPU   ${cv_faces} detections"
echo "quality vector (QualityMeasures, inside ours)  median ${quality} ms/frame CPU   runs: ${qruns[*]}"
echo "ratio ours/dlib-full-frame: $(ratio "$ours" "$dlib")"
echo "ratio quality/ours:         $(ratio "$quality" "$ours")"
[ -n "$opencv" ] && echo "ratio ours/opencv-lbp:      $(ratio "$ours" "$opencv")"
python3 -c "import sys; sys.exit(0 if $ours <= 5 else 1)" && echo "goal median <= 5 ms: met" || echo "goal median <= 5 ms: NOT met"
python3 -c "import sys; sys.exit(0 if $quality <= 1 else 1)" && echo "goal quality vector <= 1 ms: met" || echo "goal quality vector <= 1 ms: NOT met"
