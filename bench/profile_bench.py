"""Where the time goes: torch.profiler over (a) one traced inspection of a 32- and a 256-token
sentence through the translation model and (b) training steps of the small preset, grouped by
operator, the top few by self CPU time.

    python bench/profile_bench.py [--json]
"""
from __future__ import annotations

import argparse
import json

import torch
from torch.profiler import ProfilerActivity, profile

from common import SENTENCE_32, translation_checkpoint


def top_ops(prof, n: int = 8) -> list[dict]:
    """The operators with the most self CPU time, with their share of the total."""
    rows = [e for e in prof.key_averages() if e.self_cpu_time_total > 0]
    total = sum(e.self_cpu_time_total for e in rows) or 1
    rows.sort(key=lambda e: -e.self_cpu_time_total)
    return [{"op": e.key, "self_ms": round(e.self_cpu_time_total / 1000, 2),
             "share": round(e.self_cpu_time_total / total, 3), "calls": e.count}
            for e in rows[:n]] + [{"op": "(total)", "self_ms": round(total / 1000, 2),
                                   "share": 1.0, "calls": 0}]


def profile_inspect(model, tok, n: int) -> list[dict]:
    from transformer.core.trace import record

    ids = tok.encode(SENTENCE_32)
    src = torch.tensor([(ids * 16)[: n - 1] + [model.cfg.eos_id]])  # (1, n)
    tgt = torch.tensor([[model.cfg.bos_id] + (ids * 16)[: n - 1]])  # (1, n)
    with torch.inference_mode(), record():
        model(src, tgt)  # warm-up
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        for _ in range(5):
            with torch.inference_mode(), record():
                model(src, tgt)
    return top_ops(prof)


def profile_train(steps: int = 4) -> list[dict]:
    from train_throughput import make_batches  # the benchmark's own batches
    from transformer.core.config import TrainConfig, preset
    from transformer.core.model import Transformer
    from transformer.train.loop import label_smoothed_loss, make_optimizer

    cfg = preset("small", vocab_size=8000)
    torch.manual_seed(0)
    model = Transformer(cfg).train()
    opt = make_optimizer(model, TrainConfig(), "cpu")
    batches = make_batches(cfg, 600, 4096)

    def step(b):
        loss = label_smoothed_loss(model(b.src, b.tgt_in), b.tgt_out, cfg.pad_id, 0.1)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()

    step(batches[0])
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        for b in batches[1:1 + steps]:
            step(b)
    return top_ops(prof)


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    model, tok, which = translation_checkpoint()
    out = {"model": which, "threads": args.threads,
           "inspect_32": profile_inspect(model, tok, 32),
           "inspect_256": profile_inspect(model, tok, 256)}
    torch.set_num_threads(2)
    out["train_small"] = profile_train()
    print(json.dumps(out) if args.json else json.dumps(out, indent=1))
    return out


if __name__ == "__main__":
    main()
