"""Training throughput: transformer.core.model.Transformer vs torch.nn.Transformer of the same shape,
on the same token-budget batches, side by side in one process (alternating rounds, so a noisy
neighbour on a shared CPU slows both alike).

    python bench/train_throughput.py --preset tiny --threads 2
    python bench/train_throughput.py --preset small --steps 20 --rounds 3 --json
    python bench/train_throughput.py --preset small --device cuda --batch-tokens 8192   # bf16 autocast

Both models: embeddings * sqrt(d) + sinusoidal PE, post-LN layers, ReLU FFN, tied generator,
label-smoothed cross-entropy ignoring pad, fused Adam(0.9, 0.98, 1e-9), gradient clipping, the
same dropout. tokens/s counts real (non-pad) source + target tokens, as the trainer does.
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import torch
import torch.nn as nn

from transformer.train.batching import collate, plan_batches
from transformer.core.config import preset
from transformer.core.model import Transformer, sinusoidal_table
from transformer.train.loop import label_smoothed_loss, make_optimizer
from transformer.core.config import TrainConfig


class TorchReference(nn.Module):
    """nn.Transformer with the same embeddings, PE and tied generator."""

    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.emb = nn.Embedding(cfg.vocab_size, cfg.d_model, padding_idx=cfg.pad_id)
        self.register_buffer("pe", sinusoidal_table(cfg.max_len, cfg.d_model), persistent=False)
        self.drop = nn.Dropout(cfg.dropout)
        self.core = nn.Transformer(cfg.d_model, cfg.n_heads, cfg.n_encoder_layers,
                                   cfg.n_decoder_layers, cfg.d_ff, cfg.dropout, batch_first=True)
        self.gen = nn.Linear(cfg.d_model, cfg.vocab_size, bias=False)
        self.gen.weight = self.emb.weight
        self.scale = math.sqrt(cfg.d_model)

    def forward(self, src, tgt_in):
        s = self.drop(self.emb(src) * self.scale + self.pe[: src.size(1)])
        t = self.drop(self.emb(tgt_in) * self.scale + self.pe[: tgt_in.size(1)])
        causal = nn.Transformer.generate_square_subsequent_mask(tgt_in.size(1), device=s.device,
                                                            dtype=s.dtype)
        src_pad, tgt_pad = src == self.cfg.pad_id, tgt_in == self.cfg.pad_id
        h = self.core(s, t, tgt_mask=causal, src_key_padding_mask=src_pad,
                      tgt_key_padding_mask=tgt_pad, memory_key_padding_mask=src_pad,
                      tgt_is_causal=True)
        return self.gen(h)


def make_batches(cfg, n_sentences: int, batch_tokens: int, seed: int = 0):
    """Random sentences with Multi30k-like lengths (source 8-20, target 8-24 pieces)."""
    g = torch.Generator().manual_seed(seed)
    src_len = torch.randint(8, 21, (n_sentences,), generator=g).tolist()
    tgt_len = [max(4, s + int(d)) for s, d in zip(src_len, torch.randint(-3, 5, (n_sentences,),
                                                                         generator=g))]
    src = [torch.randint(4, cfg.vocab_size, (n,), generator=g).tolist() + [cfg.eos_id] for n in src_len]
    tgt = [torch.randint(4, cfg.vocab_size, (n,), generator=g).tolist() for n in tgt_len]
    plan = plan_batches([len(s) for s in src], [len(t) for t in tgt], batch_tokens, seed=seed)
    return [collate(src, tgt, idx, pad_id=0, bos_id=1, eos_id=2) for idx in plan]


CLOCK = time.perf_counter


def torch_loss(logits, target, pad_id, smoothing):
    v = logits.size(-1)
    return torch.nn.functional.cross_entropy(logits.reshape(-1, v), target.reshape(-1),
                                             ignore_index=pad_id, label_smoothing=smoothing)


def time_steps(model, opt, batches, steps: int, clip: float, smoothing: float,
               loss_fn=label_smoothed_loss, device: str = "cpu") -> float:
    """tokens/s over `steps` optimizer steps (one host sync at the end). With --clock cpu the
    time is this process's CPU time: on a shared machine with --threads 1 that is the compute
    the step needed, whatever the neighbours do."""
    model.train()
    tokens = 0
    t0 = CLOCK()
    last = None
    for i in range(steps):
        b = batches[i % len(batches)]
        # the forward pass under bf16 autocast on CUDA and the loss outside it, as the trainer
        # (transformer.train.loop) does; autocast is off on the CPU
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=device == "cuda"):
            logits = model(b.src, b.tgt_in)  # (B,T,V)
        loss = loss_fn(logits, b.tgt_out, 0, smoothing)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        opt.step()
        tokens += b.tokens
        last = loss
    float(last.detach())  # one host sync: on CUDA the queued kernels finish before the clock stops
    return tokens / (CLOCK() - t0)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--preset", default="tiny", choices=["tiny", "small", "base"])
    p.add_argument("--vocab", type=int, default=8000)
    p.add_argument("--batch-tokens", type=int, default=2560, help="~64 x (20 + 20)")
    p.add_argument("--dropout", type=float, default=None, help="default: the preset's")
    p.add_argument("--steps", type=int, default=30, help="steps per timed round")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--clock", choices=["wall", "cpu"], default="wall",
                   help="cpu: process CPU time (use with --threads 1 on a shared machine)")
    p.add_argument("--ref-loss", choices=["same", "torch"], default="same",
                   help="same: both use the trainer's loss (compares the models); torch: the "
                        "reference uses F.cross_entropy(label_smoothing=) (compares training steps)")
    p.add_argument("--device", choices=["cpu", "cuda"], default="cpu",
                   help="cuda: both models and batches on the GPU, bf16 autocast as in training")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if args.device == "cuda" and not torch.cuda.is_available():
        p.error("--device cuda: no CUDA device is visible to PyTorch")
    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    import warnings

    warnings.filterwarnings("ignore", message="Support for mismatched key_padding_mask")
    torch.set_num_threads(args.threads)
    over = {} if args.dropout is None else {"dropout": args.dropout}
    cfg = preset(args.preset, vocab_size=args.vocab, max_len=256, **over)
    batches = [b.to(args.device) for b in make_batches(cfg, 4000, args.batch_tokens)]
    tc = TrainConfig(label_smoothing=0.1, grad_clip=1.0)
    torch.manual_seed(0)
    ours = Transformer(cfg).to(args.device)
    ref = TorchReference(cfg).to(args.device)
    models = {"attention_lab": ours, "torch.nn.Transformer": ref}
    opts = {k: make_optimizer(m, tc, args.device) for k, m in models.items()}
    losses = {"attention_lab": label_smoothed_loss,
              "torch.nn.Transformer": torch_loss if args.ref_loss == "torch" else label_smoothed_loss}
    for k, m in models.items():  # warm up kernels and allocator
        time_steps(m, opts[k], batches, 3, 1.0, 0.1, losses[k], args.device)
    results = {k: [] for k in models}
    for _ in range(args.rounds):
        for k, m in models.items():
            results[k].append(time_steps(m, opts[k], batches, args.steps, 1.0, 0.1, losses[k],
                                         args.device))
    summary = {
        "preset": args.preset, "device": args.device,
        "gpu": torch.cuda.get_device_name(0) if args.device == "cuda" else None,
        "shape": {k: getattr(cfg, k) for k in (
            "d_model", "n_heads", "n_encoder_layers", "n_decoder_layers", "d_ff", "vocab_size",
            "dropout", "attn_dropout")},
        "batch_tokens": args.batch_tokens, "threads": args.threads, "clock": args.clock, "ref_loss": args.ref_loss, "steps": args.steps,
        "rounds": args.rounds, "fused_adam": bool(opts["attention_lab"].defaults.get("fused")),
        "tokens_per_s": {k: round(statistics.median(v)) for k, v in results.items()},
        "all_rounds": {k: [round(x) for x in v] for k, v in results.items()},
        "params": {k: sum(p.numel() for p in m.parameters()) for k, m in models.items()},
    }
    ratio = summary["tokens_per_s"]["attention_lab"] / summary["tokens_per_s"]["torch.nn.Transformer"]
    summary["ratio"] = round(ratio, 3)
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"preset {args.preset} {summary['shape']}, batch {args.batch_tokens} tokens, "
              f"{args.threads} threads, {args.clock} clock, reference loss {args.ref_loss}, fused Adam {summary['fused_adam']}")
        for k, v in summary["tokens_per_s"].items():
            print(f"  {k:22s} {v:8,d} tokens/s  (rounds {summary['all_rounds'][k]}, "
                  f"{summary['params'][k]:,} params)")
        print(f"  ratio ours/torch: {ratio:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
