"""Inspection cost: a 32-token sentence through the translation model with the full trace of all
three attentions, against the same forward pass without a trace; and how both grow with length.
`compact_mb` is what the app keeps of a trace since issue 48 (the attention weights and the logits:
transformer.probing.inspect.compact), `layer_mb` the largest one layer's intermediates the Step
page records when it asks (transformer.probing.inspect.in_group).

    python bench/inspect_bench.py [--json]
"""
from __future__ import annotations

import argparse
import json

import torch

from common import SENTENCE_32, stats, timeit, translation_checkpoint
from transformer.probing.inspect import compact, group_of


def trace_bytes(tr: dict) -> int:
    return sum(t.numel() * t.element_size() for t in tr.values())


def measure(model, src, tgt, repeats: int) -> dict:
    from transformer.core.trace import record

    def plain():
        with torch.inference_mode():
            model(src, tgt)

    def traced():
        with torch.inference_mode(), record():
            model(src, tgt)

    # interleave the two so a noisy neighbour slows both alike
    a, b = [], []
    for _ in range(3):
        a += timeit(plain, repeats // 3, warmup=2)
        b += timeit(traced, repeats // 3, warmup=2)
    with torch.inference_mode(), record() as tr:
        model(src, tgt)
    with torch.inference_mode(), record(names=compact) as small:
        model(src, tgt)
    layer = max(trace_bytes({k: v for k, v in tr.items() if group_of(k) == g})
                for g in {group_of(k) for k in tr})
    sa, sb = stats(a), stats(b)
    return {"plain": sa, "traced": sb, "ratio": round(sb["median_ms"] / sa["median_ms"], 3),
            "trace_mb": round(trace_bytes(tr) / 2 ** 20, 2),
            "compact_mb": round(trace_bytes(small) / 2 ** 20, 2),
            "layer_mb": round(layer / 2 ** 20, 2)}


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--repeats", type=int, default=30)
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    model, tok, which = translation_checkpoint()
    ids = tok.encode(SENTENCE_32)
    ids = (ids * 4)[:31] + [model.cfg.eos_id]  # exactly 32 source tokens
    src = torch.tensor([ids])
    tgt = torch.tensor([[model.cfg.bos_id] + ids[:31]])  # 32 target positions
    out = {"model": which, "threads": args.threads, "len32": measure(model, src, tgt, args.repeats)}
    scaling = {}
    for n in (8, 32, 64, 128, 256):
        s = torch.tensor([(ids * 16)[: n - 1] + [model.cfg.eos_id]])
        t = torch.tensor([[model.cfg.bos_id] + (ids * 16)[: n - 1]])
        scaling[n] = measure(model, s, t, 9 if n >= 128 else 15)
    out["scaling"] = scaling
    if args.json:
        print(json.dumps(out))
    else:
        print(json.dumps(out, indent=1))
    return out


if __name__ == "__main__":
    main()
