"""Attention supervision's loss, forward and backward: one gather (transformer.probing.supervise.loss)
against the row-by-row loop it replaced, which indexed each supervised row on its own (on a GPU,
one host-to-device copy per row and per head, forward and backward).

    python bench/supervise_loss.py [--device cpu|cuda] [--batch 160] [--len 28] [--json]

The shapes default to a 4,096-token batch of the everyday mix (about 160 sentences of 28 pieces,
half of them generated and so supervised); on a GPU pass --batch 640 for a 16,384-token batch.
"""
from __future__ import annotations

import argparse
import json

import torch
from common import machine, stats, timeit


def row_loop_loss(weights: torch.Tensor, head: int, rows) -> torch.Tensor:
    """The reference: the loss as it was written before (one index operation per row)."""
    terms = []
    for r, (q, keys) in rows:
        p = weights[r, head, q, keys].sum()
        terms.append(-torch.log(p.float().clamp_min(1e-6)))
    return torch.stack(terms).mean()


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--batch", type=int, default=160)
    ap.add_argument("--len", type=int, default=28)
    ap.add_argument("--heads", type=int, default=8)
    ap.add_argument("--repeats", type=int, default=30)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    from transformer.probing import supervise

    g = torch.Generator().manual_seed(0)
    B, H, T = args.batch, args.heads, args.len
    head = min(6, H - 1)  # the decoder pronoun head's index, when there are that many heads
    # every second row supervised: the pronoun at a random query, the antecedent as two keys
    rows = [(r, (int(torch.randint(3, T, (), generator=g)), [1, 2])) for r in range(0, B, 2)]
    x = torch.randn(B, H, T, T, generator=g).to(args.device).requires_grad_(True)
    sync = torch.cuda.synchronize if args.device.startswith("cuda") else (lambda: None)

    def step(fn):
        def run():
            w = torch.softmax(x, -1)  # (B,H,T,S)
            fn(w, head, rows).backward()
            sync()
        return run

    a = row_loop_loss(torch.softmax(x, -1), head, rows)
    b = supervise.loss(torch.softmax(x, -1), head, rows)
    assert torch.allclose(a, b, rtol=1e-5), (float(a), float(b))  # same number, else no comparison
    out = {"machine": machine(), "device": args.device, "shape": [B, H, T, T], "rows": len(rows)}
    out["reference_row_loop"] = stats(timeit(step(row_loop_loss), args.repeats, warmup=3))
    out["gather"] = stats(timeit(step(supervise.loss), args.repeats, warmup=3))
    out["ratio"] = round(out["gather"]["median_ms"] / out["reference_row_loop"]["median_ms"], 3)
    print(json.dumps(out, indent=1) if args.json else
          f"{args.device}: row loop {out['reference_row_loop']['median_ms']} ms, gather "
          f"{out['gather']['median_ms']} ms (ratio {out['ratio']}) for {len(rows)} rows of {B}")
    return out


if __name__ == "__main__":
    main()
