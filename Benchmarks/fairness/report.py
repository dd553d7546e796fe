#!/usr/bin/env python3
"""Fairness report for Benchmarks/fairness.sh (issue #24). Python 3 standard library only.

Exit status: 0 when the report was produced (goals met or not); 1 when something broke (a crash,
an unexpected exit code, an unreadable log)."""
import argparse
import collections
import glob
import json
import os
import statistics
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "guidance"))
from report import Broken, capture_timing, read_jsonl, run, still_valid_runs  # noqa: E402

ATTRIBUTES = ("skin_group", "age_band", "sex", "glasses", "expression", "lighting", "head_pose", "occlusion")
COUNTDOWN_S, PATIENCE_S, SLACK_S = 1.0, 3.0, 0.5   # --time-before-capture 1 s, the 3 s patience, the 0.5 s
NEVER = ("two_faces", "no_face", "dark")


def attributes(media):
    """photo name -> attributes, from every faces.json that carries them."""
    out = {}
    for path in glob.glob(os.path.join(media, "**", "faces.json"), recursive=True):
        try:
            for p in json.load(open(path)):
                if isinstance(p, dict) and isinstance(p.get("attributes"), dict):
                    out[p["name"]] = p["attributes"]
        except (OSError, ValueError) as e:
            raise Broken(f"{path}: {e}")
    return out


def capture(args, clip):
    name = os.path.relpath(clip, args.media)[:-4]
    work = os.path.join(args.work, name.replace("/", "__"))
    os.makedirs(work, exist_ok=True)
    ev, log = os.path.join(work, "events.jsonl"), os.path.join(work, "analysis.jsonl")
    code = run([args.bin, "--source", clip, "--renderer", "null", "--pace", "fast", "--output", os.path.join(work, "out"),
                "--events", ev, "--analysis-log", log], f"capture {name}", ok_codes=(0, 75))
    gt = json.load(open(clip[:-4] + ".json"))
    events, cap_log = read_jsonl(ev, f"{name} events"), read_jsonl(log, f"{name} analysis log")
    rec_starts, _, _ = capture_timing(events, cap_log, name)
    runs = still_valid_runs(gt)
    settled = runs[0][0] if runs else None
    delay = None
    if code == 0 and rec_starts and settled is not None:
        before = [r for r in runs if r[0] <= rec_starts[-1] + 1e-3]
        delay = rec_starts[-1] - (before[-1][0] if before else settled)
    # Hints shown on the frames the ground truth labels valid (the capture's debounced hint).
    labels = {round(f["t"] * 1000): f["label"] for f in gt["frames"]}
    shown = collections.Counter()
    valid_frames = 0
    for r in cap_log:
        if labels.get(r.get("t_ms")) == "valid" or labels.get(r.get("t_ms", 0) + 1) == "valid" or labels.get(r.get("t_ms", 0) - 1) == "valid":
            valid_frames += 1
            shown[r.get("hint")] += 1
    frontal = [(f["faces"][0].get("yaw"), f["faces"][0].get("pitch"), f["faces"][0].get("roll")) for f in cap_log
               if len(f.get("faces", [])) == 1]
    accepted = [e for e in events if e.get("event") == "qualityAccepted"]
    return dict(name=name, photo=gt.get("photo"), records=code == 0, expect=gt["expect"]["records"], delay=delay,
                shown=shown, valid_frames=valid_frames, poses=frontal, intrinsic_roll=gt.get("photo_face", {}).get("intrinsic_roll_deg", 0),
                accepted=accepted[0]["shortfalls"] if accepted else [])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--media", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    try:
        attrs = attributes(args.media)
        clips = sorted(glob.glob(os.path.join(args.media, "*.avi")) + glob.glob(os.path.join(args.media, "people", "*.avi"))
                       + glob.glob(os.path.join(args.media, "fairness", "*.avi")))
        clips = [c for c in clips if os.path.exists(c[:-4] + ".json")]
        with ThreadPoolExecutor(2) as ex:
            rows = list(ex.map(lambda c: capture(args, c), clips))
    except Broken as e:
        print(f"bench-fairness: {e}", file=sys.stderr)
        return 1

    print(f"{'clip':44} {'rec':>4} {'expect':>6} {'settled->rec':>13}  accepted shortfalls")
    for r in rows:
        d = "-" if r["delay"] is None else f"{r['delay']:.2f} s"
        acc = ", ".join(f"{s['measure']} {s['value']:g} (limit {s['limit']:g}, shown {s['shownMs']} ms)" for s in r["accepted"])
        print(f"{r['name']:44} {('yes' if r['records'] else 'no'):>4} {('yes' if r['expect'] else 'no'):>6} {d:>13}  {acc}")

    must = [r for r in rows if r["expect"]]
    limit = COUNTDOWN_S + PATIENCE_S + SLACK_S
    print()
    print("Per group (must-record clips; time from settled to the recording's start; hints shown on valid frames):")
    gaps = {}
    for attr in ATTRIBUTES:
        groups = collections.defaultdict(list)
        for r in must:
            groups[str(attrs.get(r["photo"], {}).get(attr, "unannotated"))].append(r)
        print(f"  {attr}:")
        rates, medians, worsts, hint_share = {}, {}, {}, {}
        for g, rs in sorted(groups.items()):
            rate = sum(r["records"] for r in rs) / len(rs)
            delays = [r["delay"] for r in rs if r["delay"] is not None]
            med = statistics.median(delays) if delays else None
            worst = max(delays) if delays else None
            frames = sum(r["valid_frames"] for r in rs)
            shown = collections.Counter()
            for r in rs:
                shown.update(r["shown"])
            hints = {h: n / frames for h, n in shown.items() if h != "holdStill" and frames}
            rates[g], medians[g], worsts[g] = rate, med, worst
            hint_share[g] = sum(hints.values())
            hs = ", ".join(f"{h} {v:.1%}" for h, v in sorted(hints.items(), key=lambda kv: -kv[1])) or "none"
            print(f"    {g:14} n={len(rs):2}  records {rate:6.1%}  median {('-' if med is None else f'{med:.2f} s'):>7}"
                  f"  worst {('-' if worst is None else f'{worst:.2f} s'):>7}  hints on valid frames: {hs}")
        def gap(d):
            v = [x for x in d.values() if x is not None]
            return max(v) - min(v) if len(v) > 1 else 0.0
        gaps[attr] = (gap(rates), gap(medians), gap(worsts), gap(hint_share))
        print(f"    largest gap: records {gaps[attr][0]:.1%}, median {gaps[attr][1]:.2f} s, worst {gaps[attr][2]:.2f} s, "
              f"hints on valid frames {gaps[attr][3]:.1%}")

    # The pose estimate on faces that look at the camera: fairness people marked frontal (their
    # photo's own roll subtracted from roll), per person the median over the clip.
    print()
    print("Pose estimate on frontal faces (median per person; roll less the photo's own tilt):")
    biases = []
    for r in rows:
        if not r["name"].startswith("fairness/") or attrs.get(r["photo"], {}).get("head_pose") != "frontal" or not r["poses"]:
            continue
        y = statistics.median(p[0] for p in r["poses"] if p[0] is not None)
        p = statistics.median(p[1] for p in r["poses"] if p[1] is not None)
        ro = statistics.median(p[2] for p in r["poses"] if p[2] is not None) - (r["intrinsic_roll"] or 0)
        biases.append((y, p, ro))
    if biases:
        for i, label in enumerate(("yaw", "pitch", "roll")):
            vals = [b[i] for b in biases]
            print(f"  {label:5}: mean {statistics.mean(vals):+.1f}°, mean |·| {statistics.mean(abs(v) for v in vals):.1f}°, "
                  f"range {min(vals):+.1f}° … {max(vals):+.1f}° over {len(vals)} people")

    print()
    def goal(text, ok, detail=""):
        print(f"goal {text}: {'met' if ok else 'NOT met'}{(' (' + detail + ')') if detail else ''}")
    missed = [r["name"] for r in must if not r["records"]]
    goal("every must-record clip records with default options", not missed, ", ".join(missed) or f"{len(must)} of {len(must)}")
    wrong = [r["name"] for r in rows if os.path.basename(r["name"]) in NEVER and r["records"]]
    goal("two_faces, no_face and dark never record", not wrong, ", ".join(wrong))
    late = [f"{r['name']} {r['delay']:.2f} s" for r in must if r["delay"] is not None and r["delay"] > limit + 1e-3]
    goal(f"recording within countdown + patience + 0.5 s ({limit:.1f} s) of settling, every person", not late, ", ".join(late))
    worst_gap = max((g[0] for g in gaps.values()), default=0)
    goal("no group's record rate below any other's", worst_gap == 0, f"largest gap {worst_gap:.1%}")
    print("goal pose within 3° of the truth on the projected model for |angle| <= 30°: tested by "
          "Tests/FaceAnalysisTests/HeadPoseTests.swift (PerspectivePoseTests)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
