"""Which search the pages write with (transformer.core.decode.BEST_*): beam 5 under each length
penalty alpha and coverage penalty beta of a small grid, scored by chrF on the held-out sets no
generator wrote (the lesson set, the seed notes' sentences, Ding's 1,000 held-out pairs: the sets
the choice is made on) and on the scorecard's three hand-written everyday sets (a check on sets not
used for the choice). About 8 minutes on 2 threads of a 2-core CPU.

    python bench/decoding_grid.py [--checkpoint checkpoints/everyday-en-de]
        [--ding-dir ../shared/data/ding] [--grid 0.2:0,0.6:0,1.0:0,0.6:0.4,1.0:0.4] [--threads 2]
"""
from __future__ import annotations

import argparse
import json

import torch

from common import ROOT
from transformer.core.checkpoint import load_checkpoint
from transformer.data import tasks as data
from transformer.probing.evaluate import evaluate
from transformer.probing.heldout import heldout_scores
from transformer.probing.scorecard import EVERYDAY, FRESH_EVERYDAY, THIRD_EVERYDAY

CHOOSE_ON = ("lesson", "seeds", "ding")
CHECK_ON = {"own everyday": EVERYDAY, "fresh everyday": FRESH_EVERYDAY,
            "third everyday": THIRD_EVERYDAY}


def parse_grid(text: str) -> list[tuple[float, float]]:
    """"0.6:0,1.0:0.4" -> [(0.6, 0.0), (1.0, 0.4)]: (alpha, coverage beta) pairs."""
    out = []
    for item in text.split(","):
        a, _, b = item.partition(":")
        out.append((float(a), float(b or 0)))
    return out


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser()
    ap.add_argument("--checkpoint", default=str(ROOT / "checkpoints" / "everyday-en-de"))
    ap.add_argument("--ding-dir", default=None)
    ap.add_argument("--grid", default="0.2:0,0.6:0,1.0:0,0.6:0.4,1.0:0.4")
    ap.add_argument("--beam", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    ck = load_checkpoint(args.checkpoint)
    checks = {name: data.load_tsv(path) for name, path in CHECK_ON.items()}
    rows = []
    for alpha, beta in parse_grid(args.grid):
        rec = heldout_scores(ck, args.checkpoint, CHOOSE_ON, args.ding_dir, beam=args.beam,
                             alpha=alpha, coverage=beta)
        row = {"alpha": alpha, "coverage": beta, "greedy": {s: rec[s]["chrf"] for s in CHOOSE_ON},
               "beam": {s: rec[s]["chrf_beam"] for s in CHOOSE_ON}, "check": {}}
        with torch.inference_mode():
            for name, exs in checks.items():
                r = evaluate(ck.model.eval(), ck.tokenizer, [e.src for e in exs],
                             [e.tgt for e in exs], beam=args.beam, alpha=alpha, coverage=beta)
                row["check"][name] = r["chrf"]
        rows.append(row)
        print(json.dumps(row), flush=True)
    best = [r for r in rows if all(r["beam"][s] >= max(o["beam"][s] for o in rows)
                                   for s in CHOOSE_ON)]
    out = {"checkpoint": args.checkpoint, "beam": args.beam, "rows": rows,
           "best_on_every_set": [(r["alpha"], r["coverage"]) for r in best]}
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
