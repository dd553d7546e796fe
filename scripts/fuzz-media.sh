#!/usr/bin/env bash
# libFuzzer targets for the media container readers (AVI, raw MJPEG stream, y4m) and for one
# MJPEG frame through JPEGFrameDecoder and libjpeg-turbo (jpegframe). The container parsers are
# pure Swift over [UInt8] (Sources/Media/Containers, no C), so each target is those files plus a
# Fuzz/Media entry, built with `swiftc -sanitize=fuzzer,address`; jpegframe adds the JPEG files of
# Sources/Media and the CTurboJPEG shim. Bounded: FUZZ_SECONDS per target (default 30) or a
# million runs, 5 s per input (hang = failure), 2 GB RSS. Seeds are made with ffmpeg when
# present (tiny testsrc clips) plus hand-made edge cases.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET="${FUZZ_SECONDS:-30}"
OUT=.build/fuzz-media
mkdir -p "$OUT"
SRC=(Sources/Media/Containers/ByteStream.swift Sources/Media/Containers/AVIParser.swift
     Sources/Media/Containers/MJPEGStreamParser.swift Sources/Media/Containers/Y4MParser.swift
     Sources/Media/Containers/JPEGHuffman.swift)

seed() { # target dir
    local t=$1 d="$OUT/corpus-$1"
    rm -rf "$d"; mkdir -p "$d"
    if command -v ffmpeg >/dev/null; then
        case $t in
            avi)   ffmpeg -v error -f lavfi -i testsrc=size=32x24:rate=5 -frames:v 3 -c:v mjpeg -y "$d/seed.avi" ;;
            mjpeg) ffmpeg -v error -f lavfi -i testsrc=size=32x24:rate=5 -frames:v 3 -c:v mjpeg -f mjpeg -y "$d/seed.mjpeg" ;;
            y4m)   for c in yuv420p yuv422p yuv444p gray; do
                       ffmpeg -v error -f lavfi -i testsrc=size=8x6:rate=5 -frames:v 2 -pix_fmt $c -strict -1 -f yuv4mpegpipe -y "$d/seed-$c.y4m"
                   done ;;
        esac
    fi
    case $t in
        avi)   printf 'RIFF\x20\x00\x00\x00AVI LIST\x04\x00\x00\x00movi' > "$d/min" ;;
        mjpeg) printf '\xff\xd8\xff\xe0\x00\x02\xff\xda\x00\x02\xff\xff\x00\xff\xd9junk\xff\xd8\xff' > "$d/min" ;;
        y4m)   printf 'YUV4MPEG2 W2 H2 F1:1 Cmono\nFRAME\nabcd' > "$d/min" ;;
        jpegframe) printf '\xff\xd8\xff\xd8\xff\xe0\x00\x02\xff\xda\x00\x02\x00\xff\xd9' > "$d/min" ;;
    esac
    if [ "$t" = jpegframe ] && command -v ffmpeg >/dev/null; then
        ffmpeg -v error -f lavfi -i testsrc=size=32x24:rate=5 -frames:v 1 -c:v mjpeg -f image2 -y "$d/seed.jpg"
        ffmpeg -v error -f lavfi -i testsrc=size=17x9:rate=5 -frames:v 1 -c:v mjpeg -pix_fmt yuvj444p -f image2 -y "$d/seed444.jpg"
    fi
}

# The JPEG-frame target: Swift files that decode one frame, plus the C shim and libturbojpeg.
JPEG_SRC=(Sources/Media/JPEGFrames.swift Sources/Media/JPEG.swift Sources/Media/Image.swift Sources/Media/Frame.swift
          Sources/Media/Convert.swift Sources/Media/AnalysisScale.swift Sources/Media/Containers/MJPEGStreamParser.swift Sources/Media/Containers/JPEGHuffman.swift)
mkdir -p "$OUT/cturbojpeg"
printf 'module CTurboJPEG { header "%s" link "turbojpeg" export * }\n' "$PWD/Sources/CTurboJPEG/include/CTurboJPEG.h" \
    > "$OUT/cturbojpeg/module.modulemap"

status=0
for t in avi mjpeg y4m jpegframe; do
    echo "-- fuzz-media: $t (${SECONDS_PER_TARGET}s or 1000000 runs)"
    if [ "$t" = jpegframe ]; then
        clang -c -O1 -fsanitize=address -I Sources/CTurboJPEG/include Sources/CTurboJPEG/shim.c -o "$OUT/cturbojpeg/shim.o"
        files=("${JPEG_SRC[@]}" -I "$OUT/cturbojpeg" "$OUT/cturbojpeg/shim.o" -lturbojpeg)
    else
        files=("${SRC[@]}")
    fi
    # (ld.gold warns "Cannot export local symbol __asan_*" by the hundred: harmless, kept in the log.)
    if ! swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name FuzzMedia \
            "${files[@]}" "Fuzz/Media/$t.swift" -o "$OUT/fuzz-$t" > "$OUT/build-$t.txt" 2>&1; then
        grep -v "Cannot export local symbol" "$OUT/build-$t.txt" | tail -30
        echo "fuzz-media: cannot build the $t target"; exit 1
    fi
    seed "$t"
    mkdir -p "$OUT/work-$t"
    if ! "$OUT/fuzz-$t" "$OUT/work-$t" "$OUT/corpus-$t" -max_total_time="$SECONDS_PER_TARGET" -runs=1000000 -timeout=5 \
            -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 -artifact_prefix="$OUT/crash-$t-" 2> "$OUT/log-$t.txt"; then
        echo "fuzz-media: $t FAILED; see $OUT/log-$t.txt and $OUT/crash-$t-*"
        tail -30 "$OUT/log-$t.txt"
        status=1
    else
        grep -E "stat::number_of_executed_units|stat::peak_rss_mb|cov:" "$OUT/log-$t.txt" | tail -3
        echo "  $t: crashes: 0"
    fi
done
exit $status
