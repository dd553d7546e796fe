#!/usr/bin/env bash
# Speed at camera resolutions, first screen, latency, idle cost (issue #16), from one run:
#  1. pipeline (decode, analysis, guidance, state machine, null renderer, recording) on one core
#     (taskset -c 0), --pace fast, over ../shared/media/long.avi (640x480, 300 frames) and the
#     same clip scaled in this run by ffmpeg to 1280x720 and 1920x1080 (scale to the height, pad
#     to the width: the picture keeps its aspect), each next to `ffmpeg -threads 1 -f null`
#     decoding the same file (the anchor); best of ROUNDS (default 2). Peak RSS (ru_maxrss via
#     /usr/bin/time) of the 1080p run. Goals: >= 120 fps at 720p, >= 90 fps at 1080p, 640x480 no
#     slower than before (issue #16 measured 93–116 fps on this kind of machine), RSS <= 150 MB.
#  2. time to the first screen after exec on a pseudo-terminal (100x30), with a warm model cache
#     and an empty one (SELFIE_CAPTURE_CACHE_DIR): until the loading screen's title is on the
#     terminal, and until the instructions (models ready). Goal <= 100 ms both; median of 3.
#  3. a realtime capture of long.avi from 3.4 s at 1280x720 and 30 fps (ffmpeg fps=30) on the pty,
#     default --preview-fps: CPU share of one core on the capture screen with a face in view (goal
#     <= 25 %; no_face.avi gives the figure while searching, for information) and the result
#     screen, camera-to-screen latency p50/p95 from result.json `previewLatency` (goal p95 <=
#     50 ms; a paced file frame is due after the reader decoded its analysis luma, so that decode,
#     printed beside, would add to a camera's figure); CPU on the instructions and permission
#     screens (goal <= 2 %).
# Skipped (exit 0) without ../shared/media or ffmpeg. A few minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/lib/media-bench.sh
long_clip_bench_setup speed
ROUNDS=${ROUNDS:-2}
swift build -c release --product MediaBench >/dev/null   # decode-gray, for the latency line
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pin=(); command -v taskset >/dev/null && pin=(taskset -c 0)
now() { date +%s.%N; }
py() { python3 -c "$1"; }
goal() { # goal TEXT PYTHON-CONDITION
    if py "import sys; sys.exit(0 if ($2) else 1)"; then echo "goal $1: met"; else echo "goal $1: NOT met"; fi
}

scale() { # scale W H FPS OUT
    local vf="scale=-2:$2,pad=$1:$2:(ow-iw)/2:0"
    [ -n "$3" ] && vf="fps=$3,$vf"
    ffmpeg -nostdin -v error -i "$CLIP" -vf "$vf" -c:v mjpeg -q:v 4 -huffman default -pix_fmt yuvj420p "$4"
}
scale 1280 720 "" "$tmp/720.avi"
scale 1920 1080 "" "$tmp/1080.avi"
# The realtime clip starts at 3.4 s of long.avi (a face in view: getCloser, then valid from 5 s),
# so that the capture screen's CPU is measured with a face to follow and Start, pressed 2.5 s
# in, records within the valid run; no_face.avi at 720p 30 fps gives the search-only figure.
scale_rt() { # scale_rt SRC START OUT
    ffmpeg -nostdin -v error -ss "$2" -i "$1" -vf "fps=30,scale=-2:720,pad=1280:720:(ow-iw)/2:0" -c:v mjpeg -q:v 4 \
        -huffman default -pix_fmt yuvj420p "$3"
}
scale_rt "$CLIP" 3.4 "$tmp/720p30.avi"
scale_rt ../shared/media/no_face.avi 0 "$tmp/720p30-noface.avi"
frames=$(ffprobe -v error -count_packets -select_streams v:0 -show_entries stream=nb_read_packets -of csv=p=0 "$CLIP")

echo "pipeline, one core, --pace fast, --renderer null, $frames frames (long.avi and its scaled copies); best of $ROUNDS:"
echo "  (fps from CPU time, user+sys, of the pinned process: on a shared machine the wall clock also counts other"
echo "   processes' turns on that core; wall-clock fps beside. The anchor is measured the same way.)"
declare -A FPS
for size in 640x480 1280x720 1920x1080; do
    case $size in 640x480) f=$CLIP ;; 1280x720) f=$tmp/720.avi ;; *) f=$tmp/1080.avi ;; esac
    best_cpu=999999; best_wall=999999; best_ff=999999; best_ffwall=999999; rss=0
    for _ in $(seq "$ROUNDS"); do
        rm -rf "$tmp/out"
        # A recording longer than the clip keeps every frame in the pipeline to the end (exit 75).
        /usr/bin/time -f "%e %U %S %M" -o "$tmp/t" "${pin[@]}" "$BIN" --source "$f" --renderer null --pace fast \
            --duration-ms 60000 --output "$tmp/out" >/dev/null 2>&1 || true
        read -r wall u s r < <(tail -1 "$tmp/t")
        /usr/bin/time -f "%e %U %S" -o "$tmp/tf" "${pin[@]}" ffmpeg -nostdin -v error -threads 1 -i "$f" -f null -
        read -r fwall fu fs < <(tail -1 "$tmp/tf")
        best_cpu=$(py "print(min($best_cpu, $u + $s))"); best_wall=$(py "print(min($best_wall, $wall))")
        best_ff=$(py "print(min($best_ff, $fu + $fs))"); best_ffwall=$(py "print(min($best_ffwall, $fwall))")
        [ "$r" -gt "$rss" ] && rss=$r
    done
    FPS[$size]=$(py "print(f'{$frames / $best_cpu:.0f}')")
    printf '  %-9s  ours %4s fps (wall %4.0f)   anchor ffmpeg -f null %4.0f fps (wall %4.0f)   ratio ours/anchor %.3f   peak RSS %.1f MB\n' \
        "$size" "${FPS[$size]}" "$(py "print($frames / $best_wall)")" "$(py "print($frames / max($best_ff, 0.01))")" \
        "$(py "print($frames / $best_ffwall)")" "$(py "print($best_ff / $best_cpu)")" "$(py "print($rss / 1024)")"
    [ "$size" = 1920x1080 ] && RSS1080=$rss
done
goal ">= 120 fps at 1280x720" "${FPS[1280x720]} >= 120"
goal ">= 90 fps at 1920x1080" "${FPS[1920x1080]} >= 90"
goal "640x480 no slower than before (>= 93 fps, the low end issue #16 measured)" "${FPS[640x480]} >= 93"
goal "peak RSS <= 150 MB at 1080p" "$RSS1080 / 1024 <= 150"

echo "first screen on a pty (100x30), ms after fork+exec; median of 3:"
cd "$tmp"
# The anchor: the same binary's `--version` (exec, dynamic linking of its ~160 libraries, the
# Swift runtime, exit), timed the same way.
av=(); for _ in 1 2 3; do av+=("$(python3 -c "
import subprocess, time; t = time.monotonic(); subprocess.run(['$BIN', '--version'], capture_output=True); print(f'{(time.monotonic() - t) * 1000:.1f}')")"); done
anchor_ms=$(printf '%s\n' "${av[@]}" | sort -g | sed -n 2p)
echo "  anchor: $BIN --version, exec to exit: $anchor_ms ms (median of 3)"
mkdir -p "$tmp/cache-warm"
python3 "$root/Benchmarks/speed/pty_run.py" first-screen "$BIN" "$tmp/cache-warm" >/dev/null   # fills the warm cache
for cache in warm empty; do
    fs=(); ins=()
    for _ in 1 2 3; do
        dir="$tmp/cache-warm"
        [ "$cache" = empty ] && { dir="$tmp/cache-empty-$RANDOM"; mkdir -p "$dir"; }
        read -r _ a _ b < <(python3 "$root/Benchmarks/speed/pty_run.py" first-screen "$BIN" "$dir")
        fs+=("$a"); ins+=("$b")
    done
    m1=$(printf '%s\n' "${fs[@]}" | sort -g | sed -n 2p); m2=$(printf '%s\n' "${ins[@]}" | sort -g | sed -n 2p)
    printf '  %-5s cache: loading screen %6.1f ms (ratio to the anchor %.2f)   instructions (models ready) %7.1f ms   runs: %s\n' \
        "$cache" "$m1" "$(py "print($m1 / max($anchor_ms, 0.1))")" "$m2" "${fs[*]}"
    goal "first screen <= 100 ms, $cache cache" "$m1 >= 0 and $m1 <= 100"
done

echo "realtime 1280x720 30 fps MJPEG on the pty (100x30, default --preview-fps):"
# The CPU goal is read with today's half blocks (the renderer issue #16 measured); the default in
# such a terminal, libchafa's symbols (issue #13), is printed beside it.
read -r _ capcpu _ rescpu < <(PREVIEW_MODE=halfblocks python3 "$root/Benchmarks/speed/pty_run.py" capture "$BIN" "$tmp/720p30.avi" "$tmp/run" "$tmp/ev.jsonl" 2)
read -r _ symcpu _ _ < <(PREVIEW_MODE=symbols python3 "$root/Benchmarks/speed/pty_run.py" capture "$BIN" "$tmp/720p30.avi" "$tmp/run-symbols" "$tmp/ev-symbols.jsonl" 2)
read -r _ nofacecpu < <(python3 "$root/Benchmarks/speed/pty_run.py" positioning "$BIN" "$tmp/720p30-noface.avi" 3)
read -r p50 p95 n < <(python3 -c "
import json; d=json.load(open('$tmp/run/result.json'))['previewLatency'] or {}
print(d.get('p50Ms', -1), d.get('p95Ms', -1), d.get('samples', 0))")
read -r _ inscpu _ permcpu < <(python3 "$root/Benchmarks/speed/pty_run.py" waiting "$BIN" 4)
decode=$("$root/.build/release/MediaBench" decode-gray "$tmp/720p30.avi" 2>/dev/null || echo "?")
printf '  camera-to-screen latency: p50 %s ms, p95 %s ms over %s shown frames (+ %s ms for a camera: the reader decodes a paced\n   file frame for analysis before it is due; the preview decode is counted)\n' "$p50" "$p95" "$n" "$decode"
printf '  CPU share of one core: capture screen %s %% with half blocks (%s %% with symbols, the default without graphics; %s %% searching an empty scene),\n   result screen %s %%, instructions %s %%, permission %s %%\n' "$capcpu" "$symcpu" "$nofacecpu" "$rescpu" "$inscpu" "$permcpu"
goal "latency p95 <= 50 ms" "$p95 >= 0 and $p95 <= 50"
goal "CPU on the capture screen <= 25 % (half blocks)" "$capcpu <= 25"
goal "CPU on the waiting screens <= 2 %" "max($inscpu, $permcpu, $rescpu) <= 2"
