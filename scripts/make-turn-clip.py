#!/usr/bin/env python3
"""Makes a head-turn test clip (issue #25) from a face photo: the photo, as a flat card, turned
in perspective about its vertical axis (left/right) or its horizontal axis (up), out to a peak
angle, held, and back, as an MJPEG AVI. Python standard library + ffmpeg only.

    make-turn-clip.py PHOTO OUT.avi --steps left:30,right:30,up:20 [--fps 30] [--size 640x480]

Each frame is the photo (cropped around --box) scaled to --card of the frame's height,
warped by ffmpeg's `perspective` filter to where the card's corners project when it turns by the
frame's angle about its centre, seen by a pinhole camera with a focal length of one frame width
(HeadPose.focalPerWidth) at a distance where the card is as tall as it appears. A flat card has
no depth: the nose does not move ahead of the eyes as on a real head, so the landmarks only see
the foreshortening and the perspective of a plane. The clip's per-frame angles are written to
OUT.json ({"fps", "frames": [{"index", "yaw", "pitch"}]}), yaw positive when the card turns to
the raw frame's right (the person's left), pitch positive when its top goes back (chin up).
"""
import argparse, array, json, math, os, subprocess, sys, tempfile


def corners(w, h, cw, ch, yaw, pitch, f):
    """Destination corners (x0,y0 top-left, x1,y1 top-right, x2,y2 bottom-left, x3,y3 bottom-right)
    of a cw×ch card centred in a w×h frame, turned by yaw/pitch (degrees) about its centre."""
    d = f  # the card, ch px tall unturned, at the focal distance: it appears at its own size
    ya, pa = math.radians(yaw), math.radians(pitch)
    out = []
    for (sx, sy) in [(-1, -1), (1, -1), (-1, 1), (1, 1)]:
        X, Y, Z = sx * cw / 2, sy * ch / 2, 0.0
        # yaw about the vertical axis: positive moves the card's right edge away from the camera,
        # so its centre line (the nose) points to the raw frame's right.
        X, Z = X * math.cos(ya), X * math.sin(ya)
        # pitch about the horizontal axis: positive tilts the top away (chin up).
        Y, Z = Y * math.cos(pa), Z - Y * math.sin(pa)
        out.append((w / 2 + f * X / (d + Z), h / 2 + f * Y / (d + Z)))
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("photo"); p.add_argument("out")
    p.add_argument("--steps", default="left:30,right:30,up:20")
    p.add_argument("--fps", type=int, default=30)
    p.add_argument("--size", default="640x480")
    p.add_argument("--rise", type=int, default=12, help="frames to the peak")
    p.add_argument("--hold", type=int, default=9, help="frames held at the peak (9 at 30 fps = 300 ms)")
    p.add_argument("--rest", type=int, default=15, help="still frames after each turn")
    p.add_argument("--lead", type=int, default=75, help="still frames before the first turn (positioning, the still recording)")
    p.add_argument("--box", help="the face box in the photo, x,y,w,h (people/faces/faces.json): the card is the box grown by --margin")
    p.add_argument("--margin", type=float, default=1.8)
    p.add_argument("--card", type=float, default=0.8, help="the card's height as a fraction of the frame's")
    p.add_argument("--depth", action="store_true",
                   help="turn the face as a head (an ellipsoid with a nose, ffmpeg's remap) instead of a flat card")
    a = p.parse_args()
    w, h = (int(v) for v in a.size.split("x"))
    # Probe the photo's size.
    pw, ph = (int(v) for v in subprocess.check_output(
        ["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height",
         "-of", "csv=p=0:s=x", a.photo]).decode().strip().split("x"))
    crop = ""
    if a.box:
        bx, by, bw, bh = (float(v) for v in a.box.split(","))
        side = max(bw, bh) * a.margin
        cx, cy = bx + bw / 2, by + bh / 2
        x0c, y0c = max(0, int(cx - side / 2)), max(0, int(cy - side / 2))
        sw, sh = int(min(side, pw - x0c)), int(min(side, ph - y0c))
        crop = f"crop={sw}:{sh}:{x0c}:{y0c},"
        pw, ph = sw, sh
    ch = round(a.card * h) // 2 * 2
    cw = round(ch * pw / ph) // 2 * 2
    angles = [(0.0, 0.0)] * a.lead
    for step in a.steps.split(","):
        name, peak = step.split(":")
        peak = float(peak)
        ramp = [peak * i / a.rise for i in range(1, a.rise + 1)]
        seq = ramp + [peak] * a.hold + ramp[::-1][1:] + [0.0]
        for v in seq:
            angles.append({"left": (v, 0.0), "right": (-v, 0.0), "up": (0.0, v)}[name])
        angles += [(0.0, 0.0)] * a.rest
    f = float(w)
    if a.depth:
        return head_clip(a, w, h, cw, ch, crop, angles)
    with tempfile.TemporaryDirectory() as tmp:
        made = {}   # one ffmpeg run per distinct angle; the sequence reuses them
        x0, y0 = (w - cw) // 2, (h - ch) // 2
        src = [(x0, y0), (x0 + cw, y0), (x0, y0 + ch), (x0 + cw, y0 + ch)]
        for i, (yaw, pitch) in enumerate(angles):
            key = (round(yaw, 3), round(pitch, 3))
            if key not in made:
                c = corners(w, h, cw, ch, yaw, pitch, f)
                # The card's corners go from src to c; perspective (sense=destination) takes where
                # the frame's own corners go, through the same homography.
                H = homography(src, c)
                fc = [apply(H, x, y) for (x, y) in [(0, 0), (w, 0), (0, h), (w, h)]]
                expr = ":".join(f"x{k}={fc[k][0]:.3f}:y{k}={fc[k][1]:.3f}" for k in range(4))
                vf = (f"{crop}scale={cw}:{ch},pad={w}:{h}:{x0}:{y0}:color=0x6a7a6a,"
                      f"perspective={expr}:sense=destination:interpolation=cubic")
                name = os.path.join(tmp, f"a{len(made):04d}.jpg")
                subprocess.check_call(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", a.photo, "-vf", vf,
                                       "-frames:v", "1", "-q:v", "3", name])
                made[key] = name
            os.link(made[key], os.path.join(tmp, f"f{i:04d}.jpg"))
        subprocess.check_call(["ffmpeg", "-nostdin", "-v", "error", "-y", "-framerate", str(a.fps),
                               "-i", os.path.join(tmp, "f%04d.jpg"), "-c:v", "mjpeg", "-q:v", "3",
                               "-pix_fmt", "yuvj420p", a.out])
    with open(os.path.splitext(a.out)[0] + ".json", "w") as fh:
        json.dump({"fps": a.fps, "frames": [{"index": i, "yaw": y, "pitch": p_} for i, (y, p_) in enumerate(angles)]}, fh)


def head_clip(a, w, h, cw, ch, crop, angles):
    """The photo's face as the front of a head turning about its centre: an ellipsoid (half-axes
    0.5 and 0.68 of the face box's width across and down, 0.5 deep) with a nose (a bump 0.12 of
    the width high); weak perspective. Each frame is the still frame resampled by ffmpeg's
    remap filter: for every output pixel the source pixel the turned surface shows there, found
    by three fixed-point steps of x = (x' - z(x, y)·sin θ) / cos θ (and the same in y for
    pitch). What the turn hides or reveals at the edges is not drawn (the ears stay)."""
    with tempfile.TemporaryDirectory() as tmp:
        base = os.path.join(tmp, "base.png")
        x0, y0 = (w - cw) // 2, (h - ch) // 2
        subprocess.check_call(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", a.photo, "-vf",
                               f"{crop}scale={cw}:{ch},pad={w}:{h}:{x0}:{y0}:color=0x6a7a6a", "-frames:v", "1", base])
        # The face box in the frame: the card is the box grown by --margin about its centre.
        W = ch / a.margin
        cx, cy = w / 2, h / 2
        ax, ay, D, nose = 0.5 * W, 0.68 * W, 0.5 * W, 0.12 * W
        ncx, ncy, ns = cx, cy + 0.05 * W, 0.09 * W

        def z(X, Y):
            r = 1 - (X / ax) ** 2 - (Y / ay) ** 2
            if r <= 0:
                return 0.0
            return D * math.sqrt(r) + nose * math.exp(-((X + cx - ncx) ** 2 + (Y + cy - ncy) ** 2) / (2 * ns * ns))

        made = {}
        x_lo, x_hi = int(cx - ax * 1.6), int(cx + ax * 1.6)
        y_lo, y_hi = int(cy - ay * 1.4), int(cy + ay * 1.4)
        for i, (yaw, pitch) in enumerate(angles):
            key = (round(yaw, 3), round(pitch, 3))
            if key not in made:
                ty, tp = math.radians(yaw), math.radians(pitch)
                xm = array.array("H", [0]) * (w * h)
                ym = array.array("H", [0]) * (w * h)
                for v in range(h):
                    for u in range(w):
                        xm[v * w + u] = u; ym[v * w + u] = v
                for v in range(max(0, y_lo), min(h, y_hi)):
                    for u in range(max(0, x_lo), min(w, x_hi)):
                        Xp, Yp = u - cx, v - cy
                        X, Y = Xp, Yp
                        for _ in range(3):
                            zz = z(X, Y)
                            X = (Xp - zz * math.sin(ty)) / math.cos(ty)
                            Y = (Yp + zz * math.sin(tp)) / math.cos(tp)
                        xs, ys = int(round(X + cx)), int(round(Y + cy))
                        xm[v * w + u] = min(max(xs, 0), w - 1)
                        ym[v * w + u] = min(max(ys, 0), h - 1)
                for m, name in ((xm, "x.pgm"), (ym, "y.pgm")):
                    if sys.byteorder == "little":
                        m.byteswap()
                    with open(os.path.join(tmp, name), "wb") as fh:
                        fh.write(f"P5\n{w} {h}\n65535\n".encode()); fh.write(m.tobytes())
                out = os.path.join(tmp, f"a{len(made):04d}.jpg")
                subprocess.check_call(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", base, "-i", os.path.join(tmp, "x.pgm"),
                                       "-i", os.path.join(tmp, "y.pgm"), "-lavfi", "[0:v]format=rgb24[i];[i][1:v][2:v]remap",
                                       "-frames:v", "1", "-q:v", "3", out])
                made[key] = out
            os.link(made[key], os.path.join(tmp, f"f{i:04d}.jpg"))
        subprocess.check_call(["ffmpeg", "-nostdin", "-v", "error", "-y", "-framerate", str(a.fps),
                               "-i", os.path.join(tmp, "f%04d.jpg"), "-c:v", "mjpeg", "-q:v", "3",
                               "-pix_fmt", "yuvj420p", a.out])
    with open(os.path.splitext(a.out)[0] + ".json", "w") as fh:
        json.dump({"fps": a.fps, "model": "head", "frames": [{"index": i, "yaw": y, "pitch": p_} for i, (y, p_) in enumerate(angles)]}, fh)


def homography(src, dst):
    """3×3 H with dst ~ H·src for 4 point pairs (direct linear solve, h33 = 1)."""
    A, b = [], []
    for (x, y), (u, v) in zip(src, dst):
        A.append([x, y, 1, 0, 0, 0, -u * x, -u * y]); b.append(u)
        A.append([0, 0, 0, x, y, 1, -v * x, -v * y]); b.append(v)
    n = 8
    M = [row + [bb] for row, bb in zip(A, b)]
    for i in range(n):
        piv = max(range(i, n), key=lambda r: abs(M[r][i]))
        M[i], M[piv] = M[piv], M[i]
        for r in range(n):
            if r != i:
                fct = M[r][i] / M[i][i]
                M[r] = [a_ - fct * c_ for a_, c_ in zip(M[r], M[i])]
    hv = [M[i][n] / M[i][i] for i in range(n)]
    return [hv[0:3], hv[3:6], hv[6:8] + [1.0]]


def apply(H, x, y):
    d = H[2][0] * x + H[2][1] * y + H[2][2]
    return ((H[0][0] * x + H[0][1] * y + H[0][2]) / d, (H[1][0] * x + H[1][1] * y + H[1][2]) / d)


if __name__ == "__main__":
    sys.exit(main())
