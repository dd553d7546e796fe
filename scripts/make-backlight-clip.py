#!/usr/bin/env python3
"""Make a backlit selfie clip from the shared people photos (issue #11: the "face the light" hint).

Uses the pieces of ../shared/media/make-scenarios.py (photo cut-out, placement, sway, sensor
noise, the same MJPEG encoding), so the clip looks like the other shared clips, with two
changes: the background is a bright window (luma about 245, a soft vertical gradient) and the
face layer is dimmed (default to 60 %), as when a person sits with their back to a window.

    python3 scripts/make-backlight-clip.py OUT.avi [--photo cc0_codait_luciano] [--dim 0.6]
        [--seconds 4] [--media ../shared/media]

Writes OUT.avi (640x480, 15 fps, MJPEG q6, like the shared clips) and OUT.json (ground truth in
the shared schema: one face held at the target, label `valid`, expect.records false and
hints_include ["faceTheLight"]). Needs python3 with numpy and Pillow, and ffmpeg. Exits 2 with
a message when a piece is missing (the tests then skip).
"""
import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('out', help='output .avi (the .json goes beside it)')
    ap.add_argument('--photo', default='cc0_codait_luciano', help='a photo of <media>/people/faces/faces.json')
    ap.add_argument('--dim', type=float, default=0.6, help='face layer brightness factor (default 0.6)')
    ap.add_argument('--window', type=float, default=245.0, help='background luma (default 245)')
    ap.add_argument('--seconds', type=float, default=4.0)
    ap.add_argument('--noise', type=float, default=2.5, help='sensor noise sigma (default 2.5, as people/)')
    ap.add_argument('--media', default=os.path.join(here, '..', '..', 'shared', 'media'))
    args = ap.parse_args()

    gen = os.path.join(args.media, 'make-scenarios.py')
    if not os.path.exists(gen):
        sys.exit(print('make-backlight-clip: %s is absent' % gen, file=sys.stderr) or 2)
    if not shutil.which('ffmpeg'):
        sys.exit(print('make-backlight-clip: ffmpeg is absent', file=sys.stderr) or 2)
    try:
        import numpy as np
        from PIL import Image
    except ImportError as e:
        sys.exit(print('make-backlight-clip: %s (apt-get install python3-numpy python3-pil)' % e, file=sys.stderr) or 2)
    spec = importlib.util.spec_from_file_location('make_scenarios', gen)
    ms = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ms)

    faces_dirs = [os.path.join(args.media, 'people', 'faces'), os.path.join(args.media, 'faces')]
    ms.register_photos(faces_dirs)
    if args.photo not in ms.PHOTOS:
        sys.exit(print('make-backlight-clip: unknown photo %s' % args.photo, file=sys.stderr) or 2)
    W, H, FPS = ms.W, ms.H, ms.FPS
    face_rgba, fc, fbox = ms.cutout(args.photo, ms.find_photo(args.photo, faces_dirs))
    # The face layer dimmed (colour only; the mask stays), the window bright.
    r, g, b, a = face_rgba.split()
    rgb = np.asarray(Image.merge('RGB', (r, g, b)), np.float32) * args.dim
    face_rgba = Image.fromarray(np.clip(rgb + 0.5, 0, 255).astype(np.uint8), 'RGB')
    face_rgba.putalpha(a)
    yy = np.mgrid[0:H, 0:W][0].astype(np.float32)
    window = args.window - 10.0 * yy / H
    bg = Image.fromarray(np.clip(np.stack([window] * 3, axis=-1), 0, 255).astype(np.uint8), 'RGB').convert('RGBA')

    n = int(round(args.seconds * FPS))
    rng = np.random.default_rng(sum(map(ord, args.photo + '/backlight')))
    out = args.out
    cmd = ['ffmpeg', '-v', 'error', '-y', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', '%dx%d' % (W, H),
           '-r', str(FPS), '-i', '-', '-c:v', 'mjpeg', '-q:v', '6', '-huffman', 'default',
           '-pix_fmt', 'yuvj420p', '-an', out]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE)
    frames = []
    for i in range(n):
        t = i / FPS
        dx, dy, ds = ms.sway(t, 0.0)
        cx, cy, hpx = W / 2 + dx, H / 2 + dy, 0.5 * H * ds
        wpx = hpx * fbox[0] / fbox[1]
        fr = bg.copy()
        fr.alpha_composite(ms.place(face_rgba, fc, fbox, cx, cy, hpx, 0.0, False))
        arr = np.asarray(fr.convert('RGB'), np.float32)
        if args.noise > 0:
            arr = arr * (1.0 + 0.01 * rng.standard_normal()) + rng.normal(0.0, args.noise, arr.shape)
        proc.stdin.write(np.clip(arr + 0.5, 0, 255).astype(np.uint8).tobytes())
        frames.append(dict(i=i, t=round(t, 4), count=1, label='valid', accept=['valid', 'faceTheLight', 'tooDark'],
                           faces=[dict(x=round(cx - wpx / 2, 2), y=round(cy - hpx / 2, 2), w=round(wpx, 2),
                                       h=round(hpx, 2), roll=0.0, visible=1.0)]))
    proc.stdin.close()
    if proc.wait() != 0:
        sys.exit(print('make-backlight-clip: ffmpeg failed', file=sys.stderr) or 1)
    doc = dict(photo=args.photo, scenario='backlight', fps=FPS, width=W, height=H, frame_count=n,
               duration_s=args.seconds, background='window %.0f' % args.window, face_dim=args.dim,
               noise_sigma=args.noise, generator='scripts/make-backlight-clip.py (pieces of make-scenarios.py)',
               expect=dict(records=False, hints_include=['faceTheLight'], hints_exclude=['multipleFaces'],
                           description='A face held at the target, dimmed to %d %% before a bright window: '
                                       'backlight; the app says "face the light" and does not record.'
                                       % round(100 * args.dim)),
               frames=frames)
    with open(os.path.splitext(out)[0] + '.json', 'w') as fh:
        json.dump(doc, fh, separators=(',', ':'))
        fh.write('\n')
    print('%s: %d frames, %.1f KB' % (out, n, os.path.getsize(out) / 1024.0))


if __name__ == '__main__':
    main()
