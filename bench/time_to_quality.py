"""Time to quality on this CPU.

anaphora: the tiny preset from scratch, `python -m transformer.train --task anaphora`, evaluated
every 100 steps; the wall time (from launch, tokenizer training included) at which the held-out
pronoun accuracy first reaches the goal.
multi30k: validation BLEU against wall time, read from a run directory's metrics.jsonl (the run
that produced the shipped checkpoint; training it here takes hours, so it is not re-run).

    python bench/time_to_quality.py [--goal 0.95] [--json]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT


def anaphora(goal: float, threads: int, limit_s: float) -> dict:
    out_dir = Path(tempfile.mkdtemp(prefix="ttq-"))
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "transformer.train", "--task", "anaphora",
                             "--eval-every", "100", "--threads", str(threads), "--out",
                             str(out_dir / "run")], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    seen, curve, reached = 0, [], None
    try:
        while proc.poll() is None and time.perf_counter() - t0 < limit_s:
            time.sleep(1)
            p = out_dir / "run" / "metrics.jsonl"
            if not p.exists():
                continue
            lines = p.read_text().splitlines()
            for line in lines[seen:]:
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError:
                    break
                seen += 1
                if rec.get("type") == "eval" and "heldout_pronoun_acc" in rec:
                    el = round(time.perf_counter() - t0, 1)
                    curve.append((rec["step"], el, rec["heldout_pronoun_acc"]))
                    if reached is None and rec["heldout_pronoun_acc"] >= goal:
                        reached = {"step": rec["step"], "wall_s": el,
                                   "heldout_pronoun_acc": rec["heldout_pronoun_acc"]}
            if reached:
                break
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    return {"goal": goal, "threads": threads, "reached": reached, "curve": curve}


def multi30k_curve(run_dir: Path) -> dict:
    p = run_dir / "metrics.jsonl"
    if not p.is_file():
        return {"skipped": f"no {p.relative_to(ROOT)}"}
    recs = [json.loads(x) for x in p.read_text().splitlines() if x.strip()]
    start = min(r["time"] for r in recs if "time" in r)
    pts = [(r["step"], round((r["time"] - start) / 60, 1), round(r["bleu"], 2))
           for r in recs if r.get("type") == "eval" and "bleu" in r]
    return {"run": str(run_dir.relative_to(ROOT)), "points_step_minutes_bleu": pts}


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser()
    ap.add_argument("--goal", type=float, default=0.95)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--limit-s", type=float, default=600)
    ap.add_argument("--run", default=str(ROOT / "runs" / "multi30k-small"))
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    out = {"anaphora": anaphora(args.goal, args.threads, args.limit_s),
           "multi30k": multi30k_curve(Path(args.run))}
    print(json.dumps(out) if args.json else json.dumps(out, indent=1))
    return out


if __name__ == "__main__":
    main()
