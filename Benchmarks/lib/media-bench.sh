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
