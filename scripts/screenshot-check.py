#!/usr/bin/env python3
"""Test oracle for issue #27's screenshot tests (Tests/EndToEndTests/TerminalScreenshotTests):
measures a screenshot of the capture screen while recording, as a person sees it, on its pixels.

Usage: screenshot-check.py SHOT.ppm|png --cols N --rows N [--whole [--cell WxH]] [--oval AX,AY]
                           [--frame W,H] [--crop OUT.ppm]
Prints one JSON object:
  cell     the terminal's text area: x, y (origin) and w, h (cell size in pixels), from the
           window's bounding box (pixels unlike the X root window's, taken at the screen's
           bottom-right corner; --whole: the image is the text area, e.g. ansi2png's output)
  status   row 0: band (its most common colour), ink, ratio (WCAG 2.1), cells (cells of the
           row whose most common colour is the band: all of them when nothing covers the line)
  preview  x, y, w, h in pixels: the cell columns from the left and rows from row 1 where
           less than 60 % of the pixels are the text panel's background, trimmed to pixels
  texts    per text row of the panel right of the preview (the bar's row left out): row, bg,
           ink (of the colours covering >= 6 pixels, the one contrasting most with the row's
           most common colour: a glyph's full pixels, not its anti-aliased edge; colours that
           fill whole cells in a tenth of the panel or anywhere in the row are backgrounds,
           never ink), ratio
  bar      fill (a run of solid cells of one colour unlike the panel's, followed by 4 cells
           alike that are not solid: the track's shade glyph), track (their mean colour),
           ratio; null when none
  oval     the outline colour (most common within +-4 % of the drawn ellipse, the top 30 deg
           where the mark sits left out), for each 5 deg: outermost outline pixel, then the mean
           colour of a 5x5 patch 3 px further out (the adjacent colour, WCAG 2.1 SC 1.4.11):
           found (share of angles with outline), median and p10 ratio
  mark     at the oval's top (within 3 cells across, 1.5 down): a colour forming a box (at least
           0.6 of a cell's width of consecutive columns holding half a cell's height of it; an
           outline's stroke is thinner) with >= 5 pixels of ink at >= 3:1 inside it; its centre's
           offset from the top in cells (dx_cells, dy_cells)
The ellipse is the standard oval of a WxH frame (--frame, default 640,480) shown with fill,
centred in the preview, semi-axes --oval (fractions of the shown frame's width and height).
"""
import argparse, json, sys
import numpy as np
from PIL import Image


def lin(v):
    s = v / 255.0
    return np.where(s <= 0.03928, s / 12.92, ((s + 0.055) / 1.055) ** 2.4)


def lum(c):
    c = np.asarray(c, dtype=float)
    l = lin(c)
    return float(0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2])


def ratio(a, b):
    la, lb = lum(a), lum(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def key(a):
    """Colours as one int per pixel."""
    a = a.astype(np.int64)
    return (a[..., 0] << 16) | (a[..., 1] << 8) | a[..., 2]


def rgb(k):
    return (int(k) >> 16 & 255, int(k) >> 8 & 255, int(k) & 255)


def hexs(c):
    return '#%02x%02x%02x' % tuple(int(round(v)) for v in c)


def counts(region):
    ks, ns = np.unique(key(region).ravel(), return_counts=True)
    order = np.argsort(-ns)
    return [(int(ks[i]), int(ns[i])) for i in order]


def ink_contrast(region, min_px=6, exclude=()):
    cs = counts(region)
    if not cs:
        return None
    bg = cs[0][0]
    inks = [k for k, n in cs[1:] if n >= min_px and k not in exclude]
    if not inks:
        return None
    ink = max(inks, key=lambda k: ratio(rgb(k), rgb(bg)))
    return {'bg': hexs(rgb(bg)), 'ink': hexs(rgb(ink)), 'ratio': round(ratio(rgb(ink), rgb(bg)), 2)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('shot')
    ap.add_argument('--cols', type=int, required=True)
    ap.add_argument('--rows', type=int, required=True)
    ap.add_argument('--whole', action='store_true')
    ap.add_argument('--cell', help='WxH: the cell size with --whole (ansi2png --cell)')
    ap.add_argument('--oval', default='0.1828125,0.325')
    ap.add_argument('--frame', default='640,480')
    ap.add_argument('--crop')
    a = ap.parse_args()
    img = np.asarray(Image.open(a.shot).convert('RGB')).astype(np.int64)
    H, W, _ = img.shape
    out = {}
    if a.whole:
        bx, by, bw, bh = 0, 0, W, H
    else:
        root = img[H - 1, W - 1]
        m = np.any(img != root, axis=2)
        ys, xs = np.nonzero(m)
        bx, by = int(xs.min()), int(ys.min())
        bw, bh = int(xs.max()) - bx + 1, int(ys.max()) - by + 1
    cw, ch = bw // a.cols, bh // a.rows
    if a.cell:
        cw, ch = (int(v) for v in a.cell.split('x'))
    x0, y0 = bx + (bw - a.cols * cw) // 2, by + (bh - a.rows * ch) // 2
    out['cell'] = {'x': x0, 'y': y0, 'w': cw, 'h': ch}

    def cells(r0, r1, c0, c1):
        return img[y0 + r0 * ch:y0 + r1 * ch, x0 + c0 * cw:x0 + c1 * cw]

    # Status line (row 0).
    row0 = cells(0, 1, 0, a.cols)
    band = counts(row0)[0][0]
    covered = sum(1 for c in range(a.cols) if counts(cells(0, 1, c, c + 1))[0][0] == band)
    st = ink_contrast(row0) or {'ratio': 0}
    st['cells'] = covered
    out['status'] = st

    # The text panel's background and the preview.
    panel = counts(cells(1, a.rows - 1, a.cols * 3 // 4, a.cols))[0][0]
    pk = key(img)

    def frac(r0, r1, c0, c1):
        return float(np.mean(pk[y0 + r0 * ch:y0 + r1 * ch, x0 + c0 * cw:x0 + c1 * cw] == panel))
    pc = 0
    while pc < a.cols and frac(1, a.rows - 1, pc, pc + 1) < 0.6:
        pc += 1
    rows = [r for r in range(1, a.rows) if pc > 0 and frac(r, r + 1, 0, pc) < 0.6]
    if pc < 4 or not rows:
        out['preview'] = None
        print(json.dumps(out))
        return
    r0, r1 = rows[0], rows[-1] + 1
    px0, px1, py0, py1 = x0, x0 + pc * cw, y0 + r0 * ch, y0 + r1 * ch
    sub = pk[py0:py1, px0:px1]
    blank = (sub == panel) | (sub == 0)
    colsOn = np.nonzero(~np.all(blank, axis=0))[0]
    rowsOn = np.nonzero(~np.all(blank, axis=1))[0]
    px0, px1 = px0 + int(colsOn[0]), px0 + int(colsOn[-1]) + 1
    py0, py1 = py0 + int(rowsOn[0]), py0 + int(rowsOn[-1]) + 1
    out['preview'] = {'x': px0, 'y': py0, 'w': px1 - px0, 'h': py1 - py0}
    if a.crop:
        Image.fromarray(img[py0:py1, px0:px1].astype(np.uint8)).save(a.crop, format='PPM')

    # Progress bar: solid cells unlike the panel, right of the preview.
    first = pc + 1
    bar = None
    def cellpx(r, c):
        return pk[y0 + r * ch:y0 + (r + 1) * ch, x0 + c * cw:x0 + (c + 1) * cw]
    # Background colours: those filling whole cells in at least a tenth of the panel (a theme's
    # painted background and, in a tmux dump, the default one of cells tmux keeps blank).
    solid = {}
    for r in range(1, a.rows):
        for c in range(first, a.cols):
            cell = cellpx(r, c)
            if np.all(cell == cell[0, 0]):
                solid[int(cell[0, 0])] = solid.get(int(cell[0, 0]), 0) + 1
    backgrounds = {k for k, n in solid.items() if n >= 0.1 * (a.rows - 1) * (a.cols - first)} | {panel}
    for r in range(1, a.rows - 1):
        # The fill: a run of solid cells of one colour (not the panel's), followed by the track:
        # four cells alike (a shade glyph repeated) that differ from the fill.
        c = first
        while c < a.cols - 5 and bar is None:
            cell = cellpx(r, c)
            if not (np.all(cell == cell[0, 0]) and int(cell[0, 0]) not in backgrounds):
                c += 1
                continue
            k = int(cell[0, 0])
            end = c
            while end < a.cols and np.all(cellpx(r, end) == k):
                end += 1
            after = [cellpx(r, t) for t in range(end, min(a.cols, end + 4))]
            if len(after) == 4 and all(np.array_equal(after[0], t) for t in after[1:]) and not np.all(after[0] == after[0][0, 0]):
                fill = rgb(k)
                track = cells(r, r + 1, end, end + 4).reshape(-1, 3).mean(axis=0)
                bar = {'row': r, 'cells': end - c, 'fill': hexs(fill), 'track': hexs(track),
                       'ratio': round(ratio(fill, track), 2)}
            c = end
        if bar:
            break
    out['bar'] = bar

    # Texts of the panel.
    texts = []
    for r in range(1, a.rows):
        if bar and r == bar['row']:
            continue
        filled = {int(cellpx(r, c)[0, 0]) for c in range(first, a.cols) if np.all(cellpx(r, c) == cellpx(r, c)[0, 0])}
        c = ink_contrast(cells(r, r + 1, first, a.cols), exclude=backgrounds | filled)
        if c:
            c['row'] = r
            texts.append(c)
    out['texts'] = texts

    # The oval, in the preview's pixels.
    fw, fh = (int(v) for v in a.frame.split(','))
    ax_rel, ay_rel = (float(v) for v in a.oval.split(','))
    bw2, bh2 = px1 - px0, py1 - py0
    s = max(bw2 / fw, bh2 / fh)
    cx, cy = px0 + bw2 / 2.0, py0 + bh2 / 2.0
    ax, ay = ax_rel * fw * s, ay_rel * fh * s

    def at(x, y):
        x, y = int(round(x)), int(round(y))
        if px0 <= x < px1 and py0 <= y < py1:
            return img[y, x]
        return None
    angles = [t for t in range(0, 360, 5) if not (240 <= t <= 300)]   # 270 = the top (y down)
    ring = []
    for t in angles:
        th = np.radians(t)
        for k in np.linspace(-0.04, 0.04, 17):
            p = at(cx + (1 + k) * ax * np.cos(th), cy + (1 + k) * ay * np.sin(th))
            if p is not None:
                ring.append(p)
    oc = counts(np.array(ring).reshape(-1, 1, 3))[0][0]
    outline = rgb(oc)
    found, ratios, inner = 0, [], []
    for t in angles:
        th = np.radians(t)
        dx, dy = np.cos(th), np.sin(th)
        last = None
        for k in np.linspace(-0.08, 0.08, 65):
            p = at(cx + (1 + k) * ax * dx, cy + (1 + k) * ay * dy)
            if p is not None and key(p) == oc:
                last = k
        if last is None:
            continue
        found += 1
        ex, ey = cx + (1 + last) * ax * dx, cy + (1 + last) * ay * dy
        n = np.hypot(dx * ay, dy * ax)   # outward normal of the ellipse, roughly
        nx, ny = dx * ay / n, dy * ax / n
        qx, qy = int(round(ex + 5 * nx)), int(round(ey + 5 * ny))
        patch = img[max(py0, qy - 2):min(py1, qy + 3), max(px0, qx - 2):min(px1, qx + 3)].reshape(-1, 3)
        if len(patch):
            ratios.append(ratio(outline, patch.mean(axis=0)))
    ratios.sort()
    out['oval'] = {'outline': hexs(outline), 'angles': len(angles), 'found': found,
                   'median': round(float(np.median(ratios)), 2) if ratios else 0,
                   'p10': round(float(ratios[len(ratios) // 10]), 2) if ratios else 0,
                   'centre': [round(cx, 1), round(cy, 1)], 'axes': [round(ax, 1), round(ay, 1)]}

    # The mark on the oval's top.
    tx, ty = cx, cy - ay
    wx0, wx1 = int(max(px0, tx - 1.5 * cw * 2)), int(min(px1, tx + 1.5 * cw * 2))
    wy0, wy1 = int(max(py0, ty - 1.5 * ch)), int(min(py1, ty + 1.5 * ch))
    win = img[wy0:wy1, wx0:wx1]
    mark = None
    for k, n in counts(win)[:6]:
        if n < 40:
            continue
        mk = key(win) == k
        # A box, not the outline's stroke: consecutive columns holding at least half a cell
        # height of the colour each, over at least 0.6 of a cell's width.
        dense = mk.sum(axis=0) >= max(6, 0.5 * ch)
        best, run, end = 0, 0, 0
        for i, d in enumerate(dense):
            run = run + 1 if d else 0
            if run > best:
                best, end = run, i + 1
        if best < max(6, 0.6 * cw):
            continue
        c0, c1 = end - best, end
        rows_in = np.nonzero(mk[:, c0:c1].sum(axis=1) >= 0.5 * best)[0]
        by0, by1 = int(rows_in.min()), int(rows_in.max()) + 1
        c = rgb(k)
        inside = win[by0:by1, c0:c1].reshape(-1, 3)
        inkpx = sum(1 for p in inside if key(p) != k and ratio(p, c) >= 3)
        if inkpx >= 5:
            mark = {'colour': hexs(c), 'box': [int(wx0 + c0), int(wy0 + by0), int(best), int(by1 - by0)], 'ink': inkpx,
                    'dx_cells': round(((wx0 + (c0 + c1) / 2.0) - tx) / cw, 2), 'dy_cells': round(((wy0 + (by0 + by1) / 2.0) - ty) / ch, 2)}
            break
    out['mark'] = mark
    print(json.dumps(out))


if __name__ == '__main__':
    main()
