# Sourced by the media benches (bench-media.sh, bench-mp4.sh): the two MJPEG clips they measure.
# bench_clips DIR sets SRC480 (../shared/media/long.avi, or a 300-frame 640x480 15 fps testsrc2
# clip made in DIR when it is absent) and SRC720 (SRC480 scaled to 1280x720 at 30 fps, in DIR).
bench_clips() {
    SRC480=../shared/media/long.avi
    if [ ! -f "$SRC480" ]; then
        SRC480="$1/480.avi"
        ffmpeg -v error -f lavfi -i testsrc2=size=640x480:rate=15 -frames:v 300 -c:v mjpeg -q:v 6 -huffman default -pix_fmt yuvj420p "$SRC480"
    fi
    SRC720="$1/720.avi"
    ffmpeg -v error -i "$SRC480" -vf scale=1280:720 -r 30 -c:v mjpeg -q:v 5 -huffman default -pix_fmt yuvj420p "$SRC720"
}
