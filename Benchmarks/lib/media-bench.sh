# Sourced by the benches that run the release binary over ../shared/media (guidance.sh,
# fairness.sh), from the repository root. media_bench_setup NAME CALLER: sets BIN (default
# .build/release/selfie-capture; a relative BIN is taken from the caller's directory CALLER when
# it exists there, else from the repo root) and media (../shared/media); exits 0 with a "skipped"
# line when the media are absent, 1 when the binary or python3 is missing.
media_bench_setup() {
    local name=$1 caller=$2
    BIN=${BIN:-.build/release/selfie-capture}
    case "$BIN" in /*) ;; *) [ -x "$caller/$BIN" ] && BIN="$caller/$BIN" ;; esac
    media=../shared/media
    if [ ! -d "$media" ]; then echo "bench-$name: $media is absent; skipped"; exit 0; fi
    [ -x "$BIN" ] || { echo "bench-$name: $BIN missing (make bench builds it; or set BIN=...)" >&2; exit 1; }
    command -v python3 >/dev/null || { echo "bench-$name: python3 missing" >&2; exit 1; }
}

# Sourced by the benches that time the release binary on ../shared/media/long.avi (speed.sh,
# kiosk.sh), from the repository root. long_clip_bench_setup NAME: sets root, BIN (default
# .build/release/selfie-capture) and CLIP; exits 0 with a "skipped" line without the clip or
# ffmpeg, 1 when the binary is missing.
long_clip_bench_setup() {
    local name=$1
    root=$PWD
    BIN=${BIN:-$root/.build/release/selfie-capture}
    CLIP=../shared/media/long.avi
    [ -f "$CLIP" ] || { echo "$name: $CLIP absent, skipped"; exit 0; }
    command -v ffmpeg >/dev/null || { echo "$name: ffmpeg missing (make setup), skipped"; exit 0; }
    [ -x "$BIN" ] || { echo "$name: $BIN missing (make bench builds it)" >&2; exit 1; }
}
