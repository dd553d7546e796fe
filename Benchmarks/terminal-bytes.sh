#!/usr/bin/env bash
# Terminal bytes per second (issue #19, README "Over SSH"): the capture screen at 100x30 in a
# pseudo-terminal recorded by script(1), previewing ../shared/media/approach.avi played in a loop
# at its 15 fps (a face that keeps moving; the demo source when the clip is absent), for the default (--preview-fps 15, the terminal's
# colours), --preview-fps 5 and --colors 16|256|truecolor. Each setting runs twice, holding the
# live preview SHORT and LONG seconds; (bytes of the long run - bytes of the short run) /
# (LONG - SHORT) leaves out the start and end screens. Ratios are against the default, measured
# in the same run (the anchor). TERM=xterm-256color; truecolor opens xterm-direct.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.build/release/selfie-capture}
[ -x "$BIN" ] || BIN=.build/debug/selfie-capture
SHORT=${SHORT:-3}
LONG=${LONG:-13}
SOURCE=${SOURCE:-../shared/media/approach.avi}
if [ -f "$SOURCE" ]; then SRC="--source $SOURCE --loop"; else SRC="--source demo"; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bytes() {  # $1 seconds of preview, rest: options
  local secs=$1; shift
  local ts="$tmp/ts"
  rm -rf "$tmp/out"
  TERM=xterm-256color COLORTERM= script -q -e -c "stty cols 100 rows 30; '$BIN' $SRC --no-instructions --camera-consent \
    --output '$tmp/out' --keys 'wait-for cameraReady; wait ${secs}s; q' $*" "$ts" >/dev/null 2>&1 </dev/null || true
  stat -c %s "$ts"
}
anchor=""
printf '%-26s %12s %8s\n' setting "bytes/s" ratio
for setting in "" "--preview-fps 5" "--colors 16" "--colors 256" "--colors truecolor"; do
  # shellcheck disable=SC2086
  a=$(bytes "$SHORT" $setting); b=$(bytes "$LONG" $setting)
  rate=$(( (b - a) / (LONG - SHORT) ))
  [ -n "$anchor" ] || anchor=$rate
  printf '%-26s %12d %8s\n' "${setting:-default (15 fps)}" "$rate" "$(awk -v r="$rate" -v a="$anchor" 'BEGIN { printf "%.2f", r / a }')"
done
