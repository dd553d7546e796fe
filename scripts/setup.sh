#!/usr/bin/env bash
# Installs what selfie-capture needs on Debian 12 (idempotent) and places the demo face photo.
# Run as root, or with sudo available.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  libncurses-dev ncurses-term          # ncursesw (wide API) + xterm-direct terminfo
  libv4l-dev                           # libv4l2 + linux/videodev2.h
  libturbojpeg0-dev                    # libjpeg-turbo TurboJPEG 2.1 API
  libdlib-dev libdlib-data libblas-dev liblapack-dev   # dlib HOG detector + 68-point model
  libicu-dev                           # CLDR plural rules
  libavcodec-dev libavformat-dev libavutil-dev libswscale-dev   # --video-format mp4 (H.264 via libx264, MP4)
  libssl-dev                           # OpenSSL libcrypto: SHA-256 of the evidence manifest
  zlib1g-dev                           # zlib: kitty pictures compressed with o=z over a stream (issue #27)
  openssh-client                       # --sign-key / verify --allowed-signers: ssh-keygen -Y sign|verify (issue #25)
  ffmpeg tmux                          # test oracles: ffprobe/ffmpeg, a real terminal
  unicode-data                         # width table source and test oracle (EastAsianWidth, emoji-data, LineBreakTest)
  man-db zsh                           # make install's test: man -l renders the page, zsh -n the completion
  python3-numpy python3-pil            # scripts/make-backlight-clip.py (a test clip from shared/media/people)
  python3-pyte                         # issue #27 test oracle: ../shared/tools/term_contrast.py renders a byte stream in xterm's palette
  pkg-config
  libchafa-dev libglib2.0-dev chafa    # terminal pictures (preview modes; the chafa CLI is the bench anchor)
  libsixel-bin xvfb xterm imagemagick  # preview tests: sixel2png, xterm -ti vt340 under Xvfb, screenshots
  kitty                                # preview test: kitty graphics detected by the probe and shown, under Xvfb (Mesa llvmpipe)
  time bc                              # make bench: peak RSS and ratios
  espeak-ng sox                        # --speak (issue #17); its test measures espeak-ng's WAV with soxi
  x11-apps fonts-dejavu-core           # issue #17 test: --theme auto in xterm under Xvfb, xwd screenshot
  xfonts-base                          # issue #27 screenshot tests: xterm's default font (fixed 6x13, ISO 10646); without it xterm falls back to the server's Latin-1 font and every block and pictogram is blank
)

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "setup: not root and no sudo: run 'make setup' as root" >&2; exit 1; fi
fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Demo face: skimage's astronaut.png (NASA portrait of Eileen Collins, public domain), taken from
# Debian's python3-skimage package without installing it.
DEMO=Resources/demo/astronaut.png
SHA=88431cd9653ccd539741b555fb0a46b61558b301d4110412b5bc28b5e3ea6cb5
if [ ! -f "$DEMO" ] || ! echo "$SHA  $DEMO" | sha256sum -c --quiet - 2>/dev/null; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  ( cd "$tmp" && apt-get download python3-skimage >/dev/null 2>&1 ) || {
    $SUDO apt-get update -qq && ( cd "$tmp" && apt-get download python3-skimage >/dev/null 2>&1 ); }
  dpkg-deb -x "$tmp"/python3-skimage_*.deb "$tmp/x"
  mkdir -p "$(dirname "$DEMO")"
  cp "$tmp/x/usr/lib/python3/dist-packages/skimage/data/astronaut.png" "$DEMO"
  echo "$SHA  $DEMO" | sha256sum -c --quiet -
  echo "setup: placed $DEMO"
fi
