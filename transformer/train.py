"""Training: the recipe of the paper, a run directory the app can poll, and `python -m transformer.train`.

    python -m transformer.train --task anaphora --out runs/ana          # tiny model, ~2 min on a CPU
    python -m transformer.train --task multi30k --data-dir ../shared/data/multi30k --preset small \
        --device auto --out runs/m30k
    python -m transformer.train --out runs/ana --resume                 # continue after STOP/Ctrl-C/kill
    torchrun --nproc_per_node=2 -m transformer.train --task copy --out runs/ddp   # data parallel

The Trainer knows nothing about terminals or files: it reports through callbacks (minGPT style).
The CLI attaches a progress printer and the run-directory writer (metrics.jsonl, status.json,
checkpoints), and checks the STOP file.

Recipe: Adam(0.9, 0.98, 1e-9) (fused kernel where the build supports it), the warmup schedule
(transformer.schedule) set by hand each step, label-smoothed cross-entropy that ignores padding,
gradient clipping, token-budget batches of similar length (transformer.batching), bf16 autocast on
CUDA. The loop never synchronises with the device except on logging steps.
"""
from __future__ import annotations

import argparse
import contextlib
import math
import os
import random
import signal
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

# OpenMP threads that spin-wait between parallel regions collapse when another process holds a
# core (measured here: 564 vs 5,280 tokens/s for 2 threads beside a busy neighbour). Sleeping
# waits cost little when the machine is idle. Only effective before torch loads its OpenMP.
if "torch" not in sys.modules:
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np
import torch
import torch.nn.functional as F

from . import cards, runs, supervise
from .batching import Batch, TokenBatcher, collate, fixed_batches
from .config import PRESETS, ModelConfig, TrainConfig, resolve_device
from .model import Transformer
from .schedule import noam_lr

SYNTHETIC = ("copy", "reverse", "sort", "anaphora")
TRANSLATION = ("multi30k", "classroom", "tsv")
TASKS = SYNTHETIC + TRANSLATION

# Per-task defaults: what trains that task well on a 2-core CPU (anaphora: measured, see issue 3).
# Anything given on the command line wins.
TASK_DEFAULTS: dict[str, dict[str, Any]] = {
    # Peak lr = 0.5 * 64^-0.5 * 400^-0.5 = 3.1e-3 for the tiny preset. anaphora with these
    # settings (measured on the shared 2-core CPU, --threads 1): held-out pronoun accuracy 0.98 at
    # step 900 (~90 s of training), 1.00 at step 1200 (~110 s).
    "copy": dict(preset="tiny", vocab_size=64, steps=800, batch_tokens=2048, warmup=400,
                 lr_scale=0.5, eval_every=200, checkpoint_every=100, dropout=0.0,
                 keep_checkpoints=0),
    "reverse": dict(preset="tiny", vocab_size=64, steps=800, batch_tokens=2048, warmup=400,
                    lr_scale=0.5, eval_every=200, checkpoint_every=100, dropout=0.0,
                    keep_checkpoints=0),
    "sort": dict(preset="tiny", vocab_size=64, steps=1200, batch_tokens=2048, warmup=400,
                 lr_scale=0.5, eval_every=300, checkpoint_every=150, dropout=0.0,
                 keep_checkpoints=0),
    "anaphora": dict(preset="tiny", vocab_size=1000, steps=1200, batch_tokens=2048, warmup=400,
                     lr_scale=0.5, eval_every=300, checkpoint_every=150, dropout=0.1,
                     keep_checkpoints=0),
    "multi30k": dict(preset="small", vocab_size=8000, epochs=20.0, batch_tokens=4096,
                     warmup=4000, lr_scale=1.0, eval_every=1000, checkpoint_every=2000),
    # classroom: Multi30k plus generated caption-style pronoun pairs (transformer/classroom.py);
    # usually fine-tuned from multi30k-en-de with --init (see checkpoints/classroom-en-de).
    "classroom": dict(preset="small", vocab_size=8000, epochs=20.0, batch_tokens=4096,
                      warmup=4000, lr_scale=1.0, eval_every=1000, checkpoint_every=2000),
    "tsv": dict(preset="small", vocab_size=8000, epochs=20.0, batch_tokens=4096, warmup=4000,
                lr_scale=1.0, eval_every=1000, checkpoint_every=2000),
}
KEEP_STEP_CHECKPOINTS = 3


class UsageError(ValueError):
    """A setting that cannot work; the CLI prints it as one line and exits with status 2."""


# ============================================================================== corpora
@dataclass
class Corpus:
    task: str
    kind: str  # "synthetic" or "translation"
    train_src: list[str]
    train_tgt: list[str]
    val_src: list[str]
    val_tgt: list[str]
    val_meta: list[dict] = field(default_factory=list)
    description: str = ""
    heldout: tuple | None = None  # (src, tgt, meta) of a second, held-out split (anaphora test)
    train_meta: list[dict] | None = None  # per training pair (pronoun positions, for supervision)


def _examples(exs) -> tuple[list[str], list[str], list[dict]]:
    return ([e.src for e in exs], [e.tgt for e in exs],
            [dict(getattr(e, "meta", None) or {}) for e in exs])


def _split_off_val(src: list[str], tgt: list[str], seed: int, n_val: int | None = None):
    n = len(src)
    n_val = n_val if n_val is not None else min(1000, max(1, n // 20))
    if n < 2:
        raise UsageError(f"corpus: need at least 2 sentence pairs (got {n})")
    order = list(range(n))
    random.Random(seed).shuffle(order)
    val, tr = sorted(order[:n_val]), sorted(order[n_val:])
    return ([src[i] for i in tr], [tgt[i] for i in tr], [src[i] for i in val], [tgt[i] for i in val])


def load_corpus(args: argparse.Namespace) -> Corpus:
    """Training and validation text for the chosen task (the anaphora validation split is the
    held-out one: noun pairs never seen in training)."""
    from . import data

    task = args.task
    if task in SYNTHETIC:
        opts = dict(args.task_opts or {})
        check_task_opts(task, opts)

        def load(split: str):
            try:
                return data.load_task(task, split, seed=args.seed, **opts)
            except TypeError as e:  # a value of the wrong kind, or an option the check missed
                raise UsageError(f"--task-opt: {str(e).splitlines()[0] if str(e) else 'invalid'} "
                                 f"(task {task})") from None

        train, val = load("train"), load(data_val_split(task))
        tr_s, tr_t, tr_m = _examples(train)
        va_s, va_t, va_m = _examples(val)
        corpus = Corpus(task, "synthetic", tr_s, tr_t, va_s, va_t, va_m, f"synthetic task {task}",
                        train_meta=tr_m)
        if task == "anaphora":
            corpus.heldout = _examples(load("test"))
        return corpus
    if task == "classroom":
        if not args.data_dir:
            raise UsageError("--data-dir: required for --task classroom (the Multi30k folder "
                             "with train.en, train.de, val.en, ...)")
        opts = dict(args.task_opts or {})
        m_tr = data.load_multi30k(args.data_dir, "train", "en", "de")
        try:
            p_tr = data.load_task("classroom_pronouns", "train", seed=args.seed, **opts)
        except TypeError as e:
            raise UsageError(f"--task-opt: {str(e).splitlines()[0]} (task classroom)") from None
        tr_s, tr_t, tr_m = _examples(m_tr + p_tr)
        # validation: Multi30k's own (BLEU comparable with multi30k-en-de)
        va_s, va_t, va_m = _examples(data.load_multi30k(args.data_dir, "val", "en", "de"))
        return Corpus(task, "translation", tr_s, tr_t, va_s, va_t, va_m,
                      f"Multi30k en->de from {args.data_dir} ({len(m_tr)} pairs) plus "
                      f"{len(p_tr)} generated caption-style pronoun pairs", train_meta=tr_m)
    if task == "multi30k":
        if not args.data_dir:
            raise UsageError("--data-dir: required for --task multi30k (the folder with "
                             "train.en, train.de, val.en, ...)")
        tr_s, tr_t, _ = _examples(data.load_multi30k(args.data_dir, "train", args.src_lang,
                                                     args.tgt_lang))
        va_s, va_t, va_m = _examples(data.load_multi30k(args.data_dir, "val", args.src_lang,
                                                        args.tgt_lang))
        return Corpus(task, "translation", tr_s, tr_t, va_s, va_t, va_m,
                      f"Multi30k {args.src_lang}->{args.tgt_lang} from {args.data_dir}")
    if task == "tsv":
        if args.tsv:
            exs = data.load_tsv(args.tsv)
            where = args.tsv
        elif args.src_file and args.tgt_file:
            exs = data.load_parallel(args.src_file, args.tgt_file)
            where = f"{args.src_file} + {args.tgt_file}"
        else:
            raise UsageError("--tsv FILE or --src-file FILE --tgt-file FILE: required for --task tsv")
        s, t, _ = _examples(exs)
        tr_s, tr_t, va_s, va_t = _split_off_val(s, t, args.seed)
        return Corpus(task, "translation", tr_s, tr_t, va_s, va_t, [{} for _ in va_s],
                      f"parallel corpus {where}")
    raise UsageError(f"--task: must be one of {', '.join(TASKS)} (got {task!r})")


def task_options(task: str) -> list[str] | None:
    """The --task-opt keys a synthetic task accepts (its generator's keyword parameters except
    split and seed, which the trainer passes itself); None when it takes any keyword."""
    import inspect

    from . import data

    fn = data.TASKS.get(task)
    if fn is None:
        return []
    params = inspect.signature(fn).parameters.values()
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        return None
    return [p.name for p in params if p.name not in ("split", "seed")
            and p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)]


def check_task_opts(task: str, opts: dict) -> None:
    """UsageError naming the first --task-opt key the task does not take."""
    allowed = task_options(task)
    if allowed is None:
        return
    for key in opts:
        if key not in allowed:
            raise UsageError(f"--task-opt: unknown option {key!r} for task {task} (options: "
                             f"{', '.join(allowed) or 'none'})")


def data_val_split(task: str) -> str:
    """Validation split of a synthetic task (anaphora's val pairs are, like test, never trained on;
    its test split, "heldout", is reported beside it)."""
    return "val"


def encode_pairs(tokenizer, src: list[str], tgt: list[str], max_len: int, eos_id: int = 2,
                 kept: list[int] | None = None):
    """Source = pieces + EOS (as transformer.text does for decoding); target = pieces (the batcher
    adds BOS/EOS). Pairs too long for the model are dropped; returns (src_ids, tgt_ids, dropped)."""
    eos = eos_id
    s_ids = tokenizer.encode_batch(src)
    t_ids = tokenizer.encode_batch(tgt)
    out_s, out_t, dropped = [], [], 0
    for i, (s, t) in enumerate(zip(s_ids, t_ids)):
        if len(s) + 1 > max_len or len(t) + 1 > max_len or not s:
            dropped += 1
            continue
        out_s.append(s + [eos])
        out_t.append(t)
        if kept is not None:  # the caller's per-pair lists stay aligned with the kept pairs
            kept.append(i)
    return out_s, out_t, dropped


# ============================================================================== the trainer
def make_optimizer(model: torch.nn.Module, cfg: TrainConfig, device: str) -> torch.optim.Optimizer:
    """Adam(0.9, 0.98, 1e-9) of the paper; the fused kernel when this build has it for the device
    (torch >= 2.4 has it on the CPU too), else the foreach one."""
    params = [p for p in model.parameters() if p.requires_grad]
    kw = dict(lr=1e-3, betas=(0.9, 0.98), eps=1e-9, weight_decay=cfg.weight_decay)
    Opt = torch.optim.AdamW if cfg.weight_decay > 0 else torch.optim.Adam
    try:
        opt = Opt(params, fused=True, **kw)
        # A build can accept the flag yet lack the kernel: take one zero-gradient step on a copy.
        probe = torch.zeros(2, device=device, requires_grad=True)
        popt = Opt([probe], fused=True, **kw)
        probe.grad = torch.zeros_like(probe)
        popt.step()
        return opt
    except (RuntimeError, TypeError, NotImplementedError):
        return Opt(params, foreach=True, **kw)


class _SmoothedCE(torch.autograd.Function):
    """Label-smoothed cross-entropy, mean over non-pad rows, in fewer passes over the (N,V)
    logits than F.cross_entropy(label_smoothing=...): forward keeps only logsumexp, the target
    logit and the row mean; backward writes softmax - (1-eps) onehot - eps/V once. Same value and
    gradient as F.cross_entropy (a test holds them equal)."""

    @staticmethod
    def forward(ctx, logits, target, pad_id: int, eps: float):
        keep = target != pad_id  # (N,)
        n = keep.sum().clamp(min=1)
        lse = torch.logsumexp(logits, dim=-1)  # (N,V) -> (N,)
        tgt = logits.gather(1, target[:, None])[:, 0]  # (N,)
        loss = (1.0 - eps) * (lse - tgt) + eps * (lse - logits.mean(-1))
        ctx.save_for_backward(logits, target, lse, keep, n)
        ctx.eps = eps
        return (loss * keep).sum() / n

    @staticmethod
    def backward(ctx, grad):
        logits, target, lse, keep, n = ctx.saved_tensors
        eps, v = ctx.eps, logits.size(-1)
        scale = (keep.to(logits.dtype) * (grad / n))[:, None]  # (N,1): 0 on pad rows
        g = torch.exp(logits - lse[:, None])  # softmax (N,V)
        g.sub_(eps / v)
        g.scatter_add_(1, target[:, None], torch.full_like(lse[:, None], -(1.0 - eps)))
        g.mul_(scale)
        return g, None, None, None


def label_smoothed_loss(logits: torch.Tensor, target: torch.Tensor, pad_id: int,
                        smoothing: float) -> torch.Tensor:
    """Mean cross-entropy over non-pad target tokens, with label smoothing.
    logits (B,T,V), target (B,T) -> scalar."""
    v = logits.size(-1)
    return _SmoothedCE.apply(logits.reshape(-1, v).float(), target.reshape(-1), pad_id,
                             float(smoothing))  # (B*T,V), (B*T,)


@dataclass
class StepRecord:
    step: int
    loss: float
    lr: float
    tokens_per_s: float
    elapsed_s: float
    epoch: int


class Trainer:
    """Trains `model` on pre-encoded pairs. Events (callbacks get the trainer):

    on_start, on_step (every step; `trainer.last_loss` is a device tensor, read it only if
    needed), on_log (every `log_every` steps: `trainer.last_log` is a StepRecord), on_eval
    (`trainer.last_eval` dict), on_checkpoint (`trainer.last_checkpoint`), on_end.
    A callback stops the run with `trainer.request_stop(reason)`.
    """

    def __init__(self, model: Transformer, cfg: TrainConfig, train_src: list[list[int]],
                 train_tgt: list[list[int]], *, device: str = "cpu", total_steps: int | None = None,
                 evaluator: Callable[["Trainer"], dict] | None = None, log_every: int = 10,
                 rank: int = 0, world_size: int = 1, ddp_model: torch.nn.Module | None = None,
                 supervision: tuple | None = None):
        self.model, self.cfg, self.device = model, cfg, device
        # (supervise.HeadTarget, per-pair targets aligned with train_src) or None
        self.supervision = supervision
        self.train_src, self.train_tgt = train_src, train_tgt
        self.rank, self.world_size = rank, world_size
        self.net = ddp_model if ddp_model is not None else model  # what the forward pass calls
        self.mcfg: ModelConfig = model.cfg
        self.batcher = TokenBatcher([len(s) for s in train_src], [len(t) for t in train_tgt],
                                    cfg.batch_tokens, seed=cfg.seed, rank=rank,
                                    world_size=world_size)
        if total_steps is None:
            total_steps = (math.ceil(cfg.epochs * self.batcher.batches_per_epoch())
                           if cfg.epochs > 0 else cfg.steps)
        self.total_steps = max(1, int(total_steps))
        self.optimizer = make_optimizer(model, cfg, device)
        self.evaluator = evaluator
        self.log_every = max(1, int(log_every))
        self.step = 0
        self.best_score: float | None = None
        self.history: dict[str, list] = {"train": [], "eval": []}
        self.callbacks: dict[str, list[Callable]] = defaultdict(list)
        self.last_loss: torch.Tensor | None = None
        self.last_log: StepRecord | None = None
        self.last_eval: dict | None = None
        self.last_checkpoint: Path | None = None
        self.stop_reason: str | None = None
        self.error: str | None = None
        self.is_cuda = str(device).startswith("cuda")
        self.started = time.time()
        self._stop_flag = False

    # -- callbacks ------------------------------------------------------------------------
    def add_callback(self, event: str, fn: Callable[["Trainer"], None]) -> None:
        self.callbacks[event].append(fn)

    def trigger(self, event: str) -> None:
        for fn in self.callbacks.get(event, []):
            fn(self)

    def request_stop(self, reason: str = "stop requested") -> None:
        self._stop_flag = True
        self.stop_reason = self.stop_reason or reason

    # -- state (for resume) ---------------------------------------------------------------
    def state_dict(self) -> dict:
        opt = self.optimizer.state_dict()
        np_state = np.random.get_state()
        state = {
            "step": self.step,
            "total_steps": self.total_steps,
            "batcher": self.batcher.state_dict(),
            "best_score": self.best_score,
            # Optimizer state keyed "p<index>" (string keys survive any serialisation).
            "optimizer": {"state": {f"p{k}": v for k, v in opt["state"].items()},
                          "param_groups": opt["param_groups"]},
            "rng": {
                "torch": torch.get_rng_state(),
                "python": random.getstate(),
                "numpy": {"name": np_state[0], "keys": torch.from_numpy(np_state[1].astype(np.int64)),
                          "pos": int(np_state[2]), "has_gauss": int(np_state[3]),
                          "cached_gaussian": float(np_state[4])},
            },
        }
        if self.is_cuda:
            state["rng"]["cuda"] = torch.cuda.get_rng_state()
        return state

    def load_state_dict(self, state: dict) -> None:
        self.step = int(state["step"])
        self.batcher.load_state_dict(state["batcher"])
        self.best_score = state.get("best_score")
        opt = state["optimizer"]
        groups = []
        for g in opt["param_groups"]:
            g = dict(g)
            if "betas" in g:
                g["betas"] = tuple(g["betas"])
            groups.append(g)
        self.optimizer.load_state_dict({
            "state": {int(k[1:]): v for k, v in opt["state"].items()},
            "param_groups": groups})
        rng = state["rng"]
        torch.set_rng_state(rng["torch"].to(torch.uint8))
        py = rng["python"]
        random.setstate((py[0], tuple(py[1]), py[2]))
        npr = rng["numpy"]
        np.random.set_state((npr["name"], npr["keys"].numpy().astype(np.uint32), npr["pos"],
                             npr["has_gauss"], npr["cached_gaussian"]))
        if self.is_cuda and "cuda" in rng:
            torch.cuda.set_rng_state(rng["cuda"].to(torch.uint8))

    # -- one step -------------------------------------------------------------------------
    def next_batch(self) -> Batch:
        idx = next(self.batcher)
        return collate(self.train_src, self.train_tgt, idx, pad_id=self.mcfg.pad_id,
                       bos_id=self.mcfg.bos_id, eos_id=self.mcfg.eos_id, pin=self.is_cuda)

    def lr_at(self, step: int) -> float:
        return noam_lr(step, self.mcfg.d_model, self.cfg.warmup, self.cfg.lr_scale)

    def train_step(self, batch: Batch) -> torch.Tensor:
        """One optimizer step; returns the loss as a device tensor (no host sync)."""
        self.model.train()
        b = batch.to(self.device, non_blocking=True)
        lr = self.lr_at(self.step + 1)
        for g in self.optimizer.param_groups:
            g["lr"] = lr
        rows, head = [], None
        if self.supervision is not None:
            head, per_pair = self.supervision
            rows = [(r, per_pair[i]) for r, i in enumerate(batch.indices) if per_pair[i]]
        ctx = supervise.capture({head.path}) if rows else contextlib.nullcontext({})
        with ctx as captured, torch.autocast("cuda", dtype=torch.bfloat16, enabled=self.is_cuda):
            logits = self.net(b.src, b.tgt_in)  # (B,T,V)
        loss = label_smoothed_loss(logits, b.tgt_out, self.mcfg.pad_id, self.cfg.label_smoothing)
        total = loss
        if rows and captured.get(head.path) is not None:
            total = loss + head.weight * supervise.loss(captured[head.path], head.head, rows)
        self.optimizer.zero_grad(set_to_none=True)
        total.backward()
        if self.cfg.grad_clip > 0:
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.cfg.grad_clip)
        self.optimizer.step()
        self.step += 1
        return loss.detach()

    def _sync_stop(self) -> bool:
        """All ranks agree to stop when any one wants to (STOP seen at different moments)."""
        if self.world_size == 1:
            return self._stop_flag
        import torch.distributed as dist

        flag = torch.tensor([1.0 if self._stop_flag else 0.0],
                            device=self.device if self.is_cuda else "cpu")
        dist.all_reduce(flag, op=dist.ReduceOp.MAX)
        if flag.item() > 0:
            self._stop_flag = True
            self.stop_reason = self.stop_reason or "stop requested on another rank"
        return self._stop_flag

    # -- the loop -------------------------------------------------------------------------
    def run(self) -> str:
        """Train until total_steps, a stop request or a non-finite loss. Returns the final state:
        "finished", "stopped" or "failed"."""
        self.trigger("on_start")
        loss_sum = torch.zeros((), device=self.device)
        tokens, t_log, steps_in_log = 0, time.perf_counter(), 0
        state = "finished"
        while self.step < self.total_steps:
            if self._sync_stop():
                state = "stopped"
                break
            batch = self.next_batch()
            loss = self.train_step(batch)
            self.last_loss = loss
            loss_sum += loss
            tokens += batch.tokens
            steps_in_log += 1
            self.trigger("on_step")
            last = self.step >= self.total_steps
            if self.step % self.log_every == 0 or last or self._stop_flag:
                mean_loss = (loss_sum / steps_in_log).item()  # the one host sync per log
                now = time.perf_counter()
                rec = StepRecord(self.step, mean_loss, self.lr_at(self.step),
                                 tokens * self.world_size / max(now - t_log, 1e-9),
                                 time.time() - self.started, self.batcher.epoch)
                loss_sum.zero_()
                tokens, t_log, steps_in_log = 0, now, 0
                if not math.isfinite(mean_loss):
                    self.error = (f"loss became {mean_loss} at step {self.step}; stopped. The last "
                                  "good checkpoint is kept; try a lower --lr-scale or more --warmup")
                    state = "failed"
                    break
                self.last_log = rec
                self.history["train"].append([rec.step, rec.loss, rec.lr, rec.tokens_per_s])
                self.trigger("on_log")
            paused = time.perf_counter()
            if self.evaluator is not None and (self.step % self.cfg.eval_every == 0 or last):
                self.evaluate()
            if self.step % self.cfg.checkpoint_every == 0 or last:
                if not self.weights_finite():
                    state = "failed"
                    break
                self.trigger("on_checkpoint")
            t_log += time.perf_counter() - paused  # tokens/s counts training time only
        else:
            state = "finished"
        if state != "failed" and self._stop_flag and self.step < self.total_steps:
            state = "stopped"
        if state == "stopped":
            if self.weights_finite():
                self.trigger("on_checkpoint")
            else:
                state = "failed"
        self.final_state = state
        self.trigger("on_end")
        return state

    def weights_finite(self) -> bool:
        """Checked before every checkpoint (one host sync), so a saved checkpoint is always usable."""
        flags = [torch.isfinite(p).all() for p in self.model.parameters()]
        if bool(torch.stack(flags).all()):
            return True
        self.error = self.error or (f"weights became NaN or infinite by step {self.step}; stopped. "
                                    "The last good checkpoint is kept; try a lower --lr-scale or "
                                    "more --warmup")
        return False

    def evaluate(self) -> dict:
        if self.evaluator is None:
            return {}
        self.trigger("on_eval_start")
        result = self.evaluator(self)
        result = {"step": self.step, **result}
        score = result.get("score")
        result["best"] = False
        if score is not None and (self.best_score is None or score > self.best_score):
            self.best_score = score
            result["best"] = True
        self.last_eval = result
        self.history["eval"].append({k: v for k, v in result.items() if k != "samples"})
        self.trigger("on_eval")
        return result


# ============================================================================== evaluation
@torch.no_grad()
def val_loss_acc(model: Transformer, batches: list[Batch], device: str, smoothing: float
                 ) -> tuple[float, float]:
    """Mean token loss (with the training smoothing) and token accuracy over padded batches."""
    model.eval()
    cfg = model.cfg
    tot_loss = torch.zeros((), dtype=torch.float64, device=device)
    correct = torch.zeros((), dtype=torch.long, device=device)
    n = 0
    is_cuda = str(device).startswith("cuda")
    for b in batches:
        b = b.to(device)
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=is_cuda):
            logits = model(b.src, b.tgt_in)
        v = logits.size(-1)
        keep = b.tgt_out != cfg.pad_id
        loss = F.cross_entropy(logits.reshape(-1, v).float(), b.tgt_out.reshape(-1),
                               ignore_index=cfg.pad_id, label_smoothing=smoothing,
                               reduction="sum")
        tot_loss += loss
        correct += ((logits.argmax(-1) == b.tgt_out) & keep).sum()
        n += b.tgt_tokens
    model.train()
    return float(tot_loss) / max(n, 1), float(correct) / max(n, 1)


def pronoun_correct(hyp: str, ref: str, meta: dict) -> bool | None:
    """The trainer's pronoun metric is the head finder's (transformer.heads.pronoun_hit): the
    reference's German pronoun at the pronoun's word position (meta "tgt_pronoun_pos"); None
    when the reference has no pronoun (not scored), so both places count the same way."""
    from .heads import pronoun_hit

    pos = meta.get("tgt_pronoun_pos")
    return pronoun_hit(hyp, ref, pos if isinstance(pos, int) else None)


def _share(hits) -> float:
    """Share of True among the scored (not None) items; 0.0 when none is scored."""
    scored = [h for h in hits if h is not None]
    return sum(scored) / len(scored) if scored else 0.0


class Evaluator:
    """Validation for the trainer: loss and token accuracy on (up to) `max_batches` batches, then
    greedy decoding of up to `max_sentences` sentences for the task's own score: BLEU (sacreBLEU)
    for translation, exact match for copy/reverse/sort, pronoun accuracy for anaphora. The score
    that picks the best checkpoint is that metric (val loss breaks nothing: it is reported too)."""

    def __init__(self, corpus: Corpus, tokenizer, val_src_ids, val_tgt_ids, keep_idx, *,
                 batch_tokens: int, max_sentences: int, n_samples: int = 3, max_batches: int = 50,
                 ids: tuple[int, int, int] = (0, 1, 2)):
        self.corpus, self.tokenizer = corpus, tokenizer
        self.src_ids, self.tgt_ids = val_src_ids, val_tgt_ids
        self.keep_idx = keep_idx  # val example index of each encoded pair
        pad, bos, eos = ids  # the model config's pad, bos and eos ids
        self.batches = fixed_batches(val_src_ids, val_tgt_ids, batch_tokens, pad_id=pad,
                                     bos_id=bos, eos_id=eos)[:max_batches]
        self.max_sentences = max_sentences
        self.n_samples = n_samples

    def __call__(self, trainer: Trainer) -> dict:
        model, device = trainer.model, trainer.device
        loss, acc = val_loss_acc(model, self.batches, device, trainer.cfg.label_smoothing)
        out: dict[str, Any] = {"val_loss": loss, "val_acc": acc}
        n = min(self.max_sentences, len(self.src_ids))
        if n == 0:
            out["score"] = -loss
            return out
        hyps_ids = decode_many(model, self.src_ids[:n], device)
        hyps = [self.tokenizer.decode(h) for h in hyps_ids]
        refs = [self.corpus.val_tgt[self.keep_idx[i]] for i in range(n)]
        srcs = [self.corpus.val_src[self.keep_idx[i]] for i in range(n)]
        task = self.corpus.task
        if self.corpus.kind == "translation":
            import sacrebleu

            out["bleu"] = sacrebleu.corpus_bleu(hyps, [refs]).score
            out["score"] = out["bleu"]
        else:
            exact = sum(h == list(self.tgt_ids[i]) for i, h in enumerate(hyps_ids)) / n
            out["exact_match"] = exact
            out["score"] = exact
            if task == "anaphora":
                metas = [self.corpus.val_meta[self.keep_idx[i]] for i in range(n)]
                out["pronoun_acc"] = _share(pronoun_correct(h, r, m)
                                            for h, r, m in zip(hyps, refs, metas))
                out["score"] = out["pronoun_acc"]
        if self.corpus.heldout is not None:
            h_src, h_tgt, h_meta = self.corpus.heldout
            h_src, h_tgt, h_meta = (x[: self.max_sentences] for x in (h_src, h_tgt, h_meta))
            ids = [s + [model.cfg.eos_id] for s in self.tokenizer.encode_batch(h_src)]
            h_hyps = [self.tokenizer.decode(h) for h in decode_many(model, ids, device)]
            out["heldout_pronoun_acc"] = _share(pronoun_correct(h, r, m) for h, r, m
                                                in zip(h_hyps, h_tgt, h_meta))
            out["heldout_exact_match"] = sum(h == r for h, r in zip(h_hyps, h_tgt)) / max(len(h_src), 1)
        out["n_decoded"] = n
        out["samples"] = [{"src": s, "ref": r, "hyp": h}
                          for s, r, h in list(zip(srcs, refs, hyps))[: self.n_samples]]
        return out


def decode_many(model: Transformer, src_ids: list[list[int]], device: str,
                batch_size: int = 128) -> list[list[int]]:
    """Greedy decoding of many sources, in batches of similar length; returns ids in input order."""
    from .decode import greedy_batch

    was_training = model.training
    model.eval()
    order = sorted(range(len(src_ids)), key=lambda i: len(src_ids[i]))
    res: dict[int, list[int]] = {}
    with torch.no_grad(), torch.autocast("cuda", dtype=torch.bfloat16,
                                         enabled=str(device).startswith("cuda")):
        for b in range(0, len(order), batch_size):
            chunk = order[b:b + batch_size]
            for i, h in zip(chunk, greedy_batch(model, [src_ids[i] for i in chunk])):
                res[i] = h
    model.train(was_training)
    return [res[i] for i in range(len(src_ids))]


# ============================================================================== run directory
class RunWriter:
    """Rank 0's callbacks: status.json, metrics.jsonl, checkpoints (step-N, best, last)."""

    def __init__(self, run_dir: Path, tokenizer, train_config: dict, card_info: str,
                 status_every_s: float = 1.0):
        self.run_dir = Path(run_dir)
        self.ckpt_dir = self.run_dir / "checkpoints"
        self.tokenizer = tokenizer
        self.train_config = train_config
        self.card_info = card_info
        self.status_every_s = status_every_s
        self._last_status = 0.0
        self._tps: float | None = None

    def attach(self, t: Trainer) -> None:
        for ev in ("on_start", "on_log", "on_eval_start", "on_eval", "on_checkpoint", "on_end"):
            t.add_callback(ev, getattr(self, ev))

    def status(self, t: Trainer, state: str, force: bool = True, **extra) -> None:
        now = time.time()
        if not force and now - self._last_status < self.status_every_s:
            return
        self._last_status = now
        eta = None
        if self._tps and t.last_log is not None and t.step > 0:
            per_step = max(t.last_log.elapsed_s, 1e-9) / max(t.step - getattr(t, "start_step", 0), 1)
            eta = per_step * (t.total_steps - t.step)
        runs.write_status(self.run_dir, state=state, step=t.step, total_steps=t.total_steps,
                          tokens_per_s=self._tps, eta_s=eta, pid=os.getpid(), **extra)

    def on_start(self, t: Trainer) -> None:
        self.status(t, "running", last_error=None)

    def on_log(self, t: Trainer) -> None:
        r = t.last_log
        self._tps = r.tokens_per_s
        runs.append_metrics(self.run_dir, {"type": "train", "step": r.step, "loss": r.loss,
                                           "lr": r.lr, "tokens_per_s": r.tokens_per_s,
                                           "epoch": r.epoch, "time": time.time()})
        self.status(t, "running", force=False)

    def on_eval_start(self, t: Trainer) -> None:
        self.status(t, "evaluating")

    def on_eval(self, t: Trainer) -> None:
        runs.append_metrics(self.run_dir, {"type": "eval", **t.last_eval, "time": time.time()})
        if t.last_eval.get("best"):
            self.save(t, "best", with_state=False)
        self.status(t, "running")

    def _card(self, t: Trainer) -> str:
        cfg = t.model.cfg
        ev = t.last_eval or {}
        scores = ", ".join(f"{k}={v:.4g}" for k, v in ev.items()
                           if isinstance(v, float) and k != "score")
        return (f"# Attention Lab checkpoint\n\n- Data: {self.card_info}\n"
                f"- Model: d_model={cfg.d_model}, heads={cfg.n_heads}, layers="
                f"{cfg.n_encoder_layers}+{cfg.n_decoder_layers}, d_ff={cfg.d_ff}, "
                f"vocab={cfg.vocab_size}, {t.model.num_parameters():,} parameters\n"
                f"- Trained: {t.step} steps of {t.total_steps}, batch {t.cfg.batch_tokens} tokens, "
                f"warmup {t.cfg.warmup}, lr scale {t.cfg.lr_scale}, label smoothing "
                f"{t.cfg.label_smoothing}, seed {t.cfg.seed}\n"
                f"- Latest validation (step {ev.get('step', '-')}): {scores or 'none yet'}\n\n"
                f"{self._card_example(t)}"
                f"Trained with `python -m transformer.train`; see config.json for every setting.\n")

    def _card_example(self, t: Trainer) -> str:
        """A validation sentence and this checkpoint's own greedy output for it
        (transformer.cards), or nothing before the first evaluation."""
        samples = (t.last_eval or {}).get("samples") or []
        if not samples:
            return ""
        src = samples[0]["src"]
        try:
            out = cards.model_output(t.model, self.tokenizer, src)
        except ValueError:  # a sentence the tokenizer cannot take (TextError): no example
            return ""
        return f"Example (greedy decoding by this checkpoint):\n\n{cards.example_line(src, out)}\n\n"

    def save(self, t: Trainer, name: str, with_state: bool = True) -> Path:
        from .checkpoint import save_checkpoint

        path = save_checkpoint(self.ckpt_dir / name, t.model, self.tokenizer,
                               train_config=self.train_config, history=t.history,
                               card=self._card(t),
                               trainer_state=t.state_dict() if with_state else None)
        t.last_checkpoint = path
        return path

    def on_checkpoint(self, t: Trainer) -> None:
        if t.error:  # never save weights that produced a non-finite loss
            return
        self.status(t, "saving")
        name = f"step-{t.step:06d}"
        self.save(t, name)
        self.save(t, "last")
        steps = sorted(p for p in self.ckpt_dir.glob("step-*") if p.is_dir())
        keep = int(self.train_config.get("extra", {}).get("keep_checkpoints",
                                                           KEEP_STEP_CHECKPOINTS))
        for old in (steps[:-keep] if keep > 0 else []):
            import shutil

            shutil.rmtree(old, ignore_errors=True)
        runs.append_metrics(self.run_dir, {"type": "checkpoint", "step": t.step, "name": name,
                                           "time": time.time()})
        self.status(t, "running")

    def on_end(self, t: Trainer) -> None:
        self.status(t, t.final_state, last_error=t.error,
                    message=t.error or t.stop_reason or "done")


class Progress:
    """Terminal progress: a tqdm bar on a TTY, one plain line per log step otherwise."""

    def __init__(self, stream=None):
        self.stream = stream or sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.bar = None

    def attach(self, t: Trainer) -> None:
        t.add_callback("on_start", self.on_start)
        t.add_callback("on_log", self.on_log)
        t.add_callback("on_eval", self.on_eval)
        t.add_callback("on_end", self.on_end)

    def on_start(self, t: Trainer) -> None:
        if self.tty:
            from tqdm import tqdm

            self.bar = tqdm(total=t.total_steps, initial=t.step, file=self.stream,
                            dynamic_ncols=True, unit="step")
        self._shown = t.step

    def _say(self, line: str) -> None:
        if self.bar is not None:
            self.bar.write(line, file=self.stream)
        else:
            print(line, file=self.stream, flush=True)

    def on_log(self, t: Trainer) -> None:
        r = t.last_log
        if self.bar is not None:
            self.bar.update(r.step - self._shown)
            self._shown = r.step
            self.bar.set_postfix(loss=f"{r.loss:.3f}", tok_s=f"{r.tokens_per_s:,.0f}")
        else:
            self._say(f"step {r.step}/{t.total_steps} loss {r.loss:.4f} lr {r.lr:.2e} "
                      f"{r.tokens_per_s:,.0f} tok/s {r.elapsed_s:.0f}s")

    def on_eval(self, t: Trainer) -> None:
        e = t.last_eval
        parts = [f"{k} {v:.4f}" for k, v in e.items() if isinstance(v, float) and k != "score"]
        self._say(f"eval step {e['step']}: " + ", ".join(parts) + (" (best)" if e.get("best") else ""))
        for s in e.get("samples", [])[:2]:
            self._say(f"  {s['src']!r} -> {s['hyp']!r} (ref {s['ref']!r})")

    def on_end(self, t: Trainer) -> None:
        if self.bar is not None:
            self.bar.close()
        msg = t.error or t.stop_reason or ""
        self._say(f"{t.final_state} at step {t.step}/{t.total_steps}"
                  + (f": {msg}" if msg else "") + (f"; checkpoints in {t.last_checkpoint.parent}"
                                                   if t.last_checkpoint else ""))


# ============================================================================== CLI
def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m transformer.train",
                                description="Train an encoder-decoder Transformer.")
    a = p.add_argument
    a("--task", choices=TASKS, default=None, help="what to learn (default copy; on --resume: the run's)")
    a("--data-dir", help="Multi30k folder (train.en, train.de, val.en, ...)")
    a("--src-lang", default="en")
    a("--tgt-lang", default="de")
    a("--tsv", help="a TSV corpus: source<TAB>target per line")
    a("--src-file")
    a("--tgt-file")
    a("--task-opt", action="append", default=[], metavar="KEY=VALUE",
      help="synthetic task option passed to transformer.data.load_task (e.g. max_len=12)")
    g = p.add_argument_group("model (a preset, then any field overridden)")
    g.add_argument("--preset", choices=sorted(PRESETS))
    g.add_argument("--d-model", type=int)
    g.add_argument("--heads", type=int)
    g.add_argument("--layers", type=int, help="encoder and decoder layers")
    g.add_argument("--enc-layers", type=int)
    g.add_argument("--dec-layers", type=int)
    g.add_argument("--d-ff", type=int)
    g.add_argument("--dropout", type=float)
    g.add_argument("--attn-dropout", type=float, help="dropout on attention weights (default 0: "
                   "keeps the fused CPU kernel)")
    g.add_argument("--max-len", type=int)
    g.add_argument("--norm-first", action="store_true", default=None, help="pre-LN")
    g.add_argument("--learned-pe", action="store_true", default=None)
    g.add_argument("--no-tie", action="store_true", default=None, help="separate embeddings")
    g.add_argument("--vocab-size", type=int, help="SentencePiece vocabulary (a soft limit)")
    t = p.add_argument_group("training")
    t.add_argument("--steps", type=int)
    t.add_argument("--epochs", type=float)
    t.add_argument("--batch-tokens", type=int)
    t.add_argument("--warmup", type=int)
    t.add_argument("--lr-scale", type=float)
    t.add_argument("--label-smoothing", type=float)
    t.add_argument("--grad-clip", type=float)
    t.add_argument("--weight-decay", type=float)
    t.add_argument("--eval-every", type=int)
    t.add_argument("--eval-sentences", type=int, default=None,
                   help="validation sentences decoded per evaluation (default 500 synthetic, 200 "
                        "translation)")
    t.add_argument("--supervise-head", metavar="decoder_self:LAYER:HEAD",
                   help="attention supervision: an extra loss teaching this head to attend from "
                        "a pronoun to its antecedent, on training pairs that say where both are "
                        "(anaphora, classroom); see transformer/supervise.py")
    t.add_argument("--supervise-weight", type=float, default=1.0,
                   help="weight of that loss (default 1.0)")
    t.add_argument("--checkpoint-every", type=int)
    t.add_argument("--keep-checkpoints", type=int, default=None,
                   help="step checkpoints kept besides best and last (0 = all; default: all for "
                        "the synthetic tasks, whose checkpoints are small, 3 for translation)")
    t.add_argument("--log-every", type=int, default=10)
    t.add_argument("--device", default=None, help="auto, cpu or cuda")
    t.add_argument("--seed", type=int)
    t.add_argument("--threads", type=int, default=None,
                   help="CPU threads (default: all cores; the app passes 1)")
    r = p.add_argument_group("run directory")
    r.add_argument("--out", required=True, help="run directory (created)")
    r.add_argument("--resume", action="store_true", help="continue the run in --out from its last checkpoint")
    r.add_argument("--init", metavar="CHECKPOINT",
                   help="start from this checkpoint's weights, vocabulary and model settings "
                        "(fine-tuning; the model flags are ignored)")
    r.add_argument("--slots-root", help=argparse.SUPPRESS)  # launcher's lock folder, freed on exit
    return p


def _parse_task_opts(items: list[str]) -> dict:
    out = {}
    for it in items:
        if "=" not in it:
            raise UsageError(f"--task-opt: expected KEY=VALUE (got {it!r})")
        k, v = it.split("=", 1)
        for conv in (int, float):
            try:
                v = conv(v)
                break
            except ValueError:
                continue
        out[k.strip().replace("-", "_")] = v
    return out


def resolve_settings(args: argparse.Namespace) -> tuple[dict, TrainConfig]:
    """(model overrides incl. preset name, TrainConfig) from flags, task defaults, then globals.
    Raises ValueError (from the dataclasses, naming the field) for impossible values."""
    task = args.task or "copy"
    d = TASK_DEFAULTS[task]
    pick = lambda name, default=None: (getattr(args, name) if getattr(args, name, None) is not None
                                       else d.get(name, default))
    preset = pick("preset", "tiny")
    model: dict[str, Any] = {"preset": preset}
    for flag, fieldname in (("d_model", "d_model"), ("heads", "n_heads"), ("d_ff", "d_ff"),
                            ("attn_dropout", "attn_dropout"), ("max_len", "max_len")):
        if getattr(args, flag) is not None:
            model[fieldname] = getattr(args, flag)
    dropout = pick("dropout")
    if dropout is not None:
        model["dropout"] = dropout
    if args.layers is not None:
        model["n_encoder_layers"] = model["n_decoder_layers"] = args.layers
    if args.enc_layers is not None:
        model["n_encoder_layers"] = args.enc_layers
    if args.dec_layers is not None:
        model["n_decoder_layers"] = args.dec_layers
    if args.norm_first:
        model["norm_first"] = True
    if args.learned_pe:
        model["positional"] = "learned"
    if args.no_tie:
        model["tie_embeddings"] = False
    epochs = args.epochs if args.epochs is not None else (0.0 if args.steps is not None
                                                          else d.get("epochs", 0.0))
    tc = TrainConfig(
        task=task,
        steps=pick("steps", 1000),
        epochs=float(epochs),
        batch_tokens=pick("batch_tokens", 4096),
        lr_scale=pick("lr_scale", 1.0),
        warmup=pick("warmup", 4000),
        label_smoothing=pick("label_smoothing", 0.1),
        grad_clip=pick("grad_clip", 1.0),
        weight_decay=pick("weight_decay", 0.0),
        eval_every=pick("eval_every", 200),
        checkpoint_every=pick("checkpoint_every", 500),
        seed=pick("seed", 0),
        device=args.device or "auto",
        extra={"vocab_size": pick("vocab_size", 8000), "src_lang": args.src_lang,
               "tgt_lang": args.tgt_lang, "data_dir": args.data_dir, "tsv": args.tsv,
               "src_file": args.src_file, "tgt_file": args.tgt_file,
               "task_opts": _parse_task_opts(args.task_opt), "model": model,
               "eval_sentences": args.eval_sentences,
               "keep_checkpoints": pick("keep_checkpoints", KEEP_STEP_CHECKPOINTS)},
    )
    if task in SYNTHETIC:
        check_task_opts(task, tc.extra["task_opts"])
    if not isinstance(tc.extra["vocab_size"], int) or tc.extra["vocab_size"] < 5:
        raise ValueError(f"vocab_size: must be an integer of at least 5 (got {tc.extra['vocab_size']!r})")
    # Check the model shape now (vocab comes later from the tokenizer; 8000 is a stand-in).
    shape = {k: v for k, v in model.items() if k != "preset"}
    from .config import preset as make_preset

    make_preset(preset, vocab_size=max(8000, tc.extra["vocab_size"]), **shape)
    return model, tc


def _step_number(name: str) -> int:
    try:
        return int(name.split("-", 1)[1])
    except (IndexError, ValueError):
        return -1


def _link_or_copy(src: str, dst: str) -> None:
    """Hard link (checkpoint files are never changed in place: a save writes a new folder), else
    a copy (a file system without hard links)."""
    try:
        os.link(src, dst)
    except OSError:
        import shutil

        shutil.copy2(src, dst)


def recover_checkpoints(run_dir: Path, restore_last: bool = False) -> list[str]:
    """Repair RUN_DIR/checkpoints after a kill, before anything looks at it (rank 0 only):

    1. a checkpoint moved aside by a swap (`.NAME.old-*`) whose replacement never arrived is moved
       back to NAME (the newest such copy when there are several);
    2. leftover temporary and moved-aside folders (`.*.tmp-*`, `.*.old-*`) are removed: they pile
       up after every kill, and a folder with nothing but them is not a run;
    3. with `restore_last` (--resume), a missing `last` is rebuilt (hard links) from the newest
       step-* checkpoint that has trainer state.

    Independent of transformer.checkpoint's own recovery. Returns one line per repair."""
    import re
    import shutil

    ck = Path(run_dir) / "checkpoints"
    if not ck.is_dir() or ck.is_symlink():
        return []
    done: list[str] = []
    complete = lambda p: p.is_dir() and not p.is_symlink() and (p / "config.json").is_file()
    aside: dict[str, list[Path]] = {}
    for p in ck.iterdir():
        m = re.fullmatch(r"\.(.+)\.old-[^/]*", p.name)
        if m and not m.group(1).startswith(".") and complete(p):
            aside.setdefault(m.group(1), []).append(p)
    for name, cands in aside.items():
        target = ck / name
        if target.exists() or target.is_symlink():
            continue
        newest = max(cands, key=lambda p: p.stat().st_mtime)
        os.replace(newest, target)
        done.append(f"checkpoint {name} restored from {newest.name}")
    for p in list(ck.iterdir()):
        if p.name.startswith(".") and (".tmp-" in p.name or ".old-" in p.name):
            if p.is_dir() and not p.is_symlink():
                shutil.rmtree(p, ignore_errors=True)
            else:
                try:
                    p.unlink()
                except FileNotFoundError:
                    pass
            done.append(f"removed leftover {p.name}")
    last = ck / "last"
    if restore_last and not (last / "config.json").is_file():
        steps = [p for p in ck.iterdir() if p.name.startswith("step-") and complete(p)
                 and (p / "trainer_state.json").is_file() and _step_number(p.name) >= 0]
        if steps:
            src = max(steps, key=lambda p: _step_number(p.name))
            if last.is_symlink() or last.is_file():
                last.unlink()
            elif last.exists():
                shutil.rmtree(last)  # an incomplete `last` (no config.json) is no checkpoint
            tmp = ck / f".last.tmp-recover-{os.getpid()}"
            shutil.rmtree(tmp, ignore_errors=True)
            try:
                shutil.copytree(src, tmp, copy_function=_link_or_copy)
                os.replace(tmp, last)
            except BaseException:
                shutil.rmtree(tmp, ignore_errors=True)
                raise
            done.append(f"checkpoint last rebuilt from {src.name}")
    return done


def _dist_env() -> tuple[int, int, int]:
    rank = int(os.environ.get("RANK", "0"))
    world = int(os.environ.get("WORLD_SIZE", "1"))
    local = int(os.environ.get("LOCAL_RANK", "0"))
    return rank, world, local


def default_threads() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def run(argv: list[str] | None = None, callbacks: dict[str, list[Callable]] | None = None) -> str:
    """The CLI without the exit: returns the final state. `callbacks` (event -> functions) are
    attached to the Trainer after the built-in ones (tests use them)."""
    args = build_parser().parse_args(argv)
    rank, world, local_rank = _dist_env()
    run_dir = Path(args.out)
    last = run_dir / "checkpoints" / "last"

    # -- a kill may have left the checkpoints half swapped: repair before looking ----------
    if rank == 0:
        for line in recover_checkpoints(run_dir, restore_last=args.resume):
            print(f"recovered: {line}", file=sys.stderr, flush=True)
    elif args.resume:  # rank 0 repairs; wait for it (torchrun starts the ranks together)
        deadline = time.time() + 60
        while not (last / "config.json").exists() and time.time() < deadline:
            time.sleep(0.5)

    # -- settings: fresh, or from the run being resumed ------------------------------------
    resume_state = None
    if args.resume:
        from .checkpoint import load_checkpoint, load_trainer_state

        if not (last / "config.json").exists():
            raise UsageError(f"--resume: no checkpoint at {last} (nothing to resume)")
        ck = load_checkpoint(last)
        tc = TrainConfig.from_dict(ck.train_config)
        changes = {}
        if args.steps is not None:
            changes.update(steps=args.steps, epochs=0.0)
        if args.epochs is not None:
            changes["epochs"] = args.epochs
        if args.device is not None:
            changes["device"] = args.device
        if changes:
            import dataclasses

            tc = dataclasses.replace(tc, **changes)
        resume_state = load_trainer_state(last)
        model_cfg = ck.model_config
        ex = tc.extra
        args.task = tc.task
        for k in ("data_dir", "tsv", "src_file", "tgt_file", "src_lang", "tgt_lang"):
            setattr(args, k, ex.get(k))
        args.task_opts = ex.get("task_opts", {})
        args.seed = tc.seed
        tokenizer = ck.tokenizer
        model = ck.model
    else:
        model_over, tc = resolve_settings(args)
        args.task = tc.task
        args.seed = tc.seed
        args.task_opts = tc.extra["task_opts"]
        if runs.checkpoints(run_dir):
            raise UsageError(f"--out: {run_dir} already holds a run; pass --resume to continue "
                             "it or choose another directory")
        tokenizer = model = model_cfg = None
        if args.supervise_head:
            try:
                supervise.HeadTarget.parse(args.supervise_head, args.supervise_weight)
            except ValueError as e:
                raise UsageError(f"--supervise-head: {e}") from None
            tc.extra["supervise"] = {"head": args.supervise_head, "weight": args.supervise_weight}
        if args.init:
            # fine-tuning: the weights, vocabulary and model settings of an existing checkpoint
            from .checkpoint import CheckpointError, load_checkpoint

            try:
                init = load_checkpoint(args.init)
            except CheckpointError as e:
                raise UsageError(f"--init: {e}") from None
            tokenizer, model, model_cfg = init.tokenizer, init.model, init.model_config
            tc.extra["init"] = str(args.init)

    threads = args.threads if args.threads is not None else default_threads()
    if threads < 1:
        raise UsageError(f"--threads: must be at least 1 (got {threads})")
    torch.set_num_threads(threads)
    device = resolve_device(tc.device)
    if world > 1 and device.startswith("cuda"):
        device = f"cuda:{local_rank}"
        torch.cuda.set_device(local_rank)

    if rank == 0:
        run_dir.mkdir(parents=True, exist_ok=True)
        runs.clear_stop(run_dir)
        if resume_state is None:  # a fresh start: records of a run killed before its first
            runs.truncate_metrics(run_dir, 0)  # checkpoint would mix with this one's
        runs.write_status(run_dir, state="starting", step=resume_state["step"] if resume_state else 0,
                          total_steps=None, tokens_per_s=None, eta_s=None, last_error=None,
                          pid=os.getpid(), started_at=time.time(), task=tc.task, device=device,
                          world_size=world, message="loading data")
    writer = None
    try:
        if world > 1:
            import torch.distributed as dist

            dist.init_process_group("nccl" if device.startswith("cuda") else "gloo")

        # -- data, tokenizer, model ------------------------------------------------------
        random.seed(tc.seed)
        np.random.seed(tc.seed % (2 ** 32))
        torch.manual_seed(tc.seed)
        corpus = load_corpus(args)
        if tokenizer is None:
            from .tokenizer import Tokenizer

            tok_path = run_dir / "tokenizer.model"
            # Every rank trains the same tokenizer (deterministic, one thread); rank 0 saves it.
            tokenizer = Tokenizer.train(corpus.train_src + corpus.train_tgt,
                                        vocab_size=tc.extra["vocab_size"])
            if rank == 0:
                tokenizer.save(tok_path)
            over = dict(tc.extra["model"])
            name = over.pop("preset")
            from .config import preset as make_preset

            model_cfg = make_preset(name, vocab_size=tokenizer.vocab_size, **over)
            model = Transformer(model_cfg)
        max_len = model_cfg.max_len
        kept: list[int] = []
        tr_s, tr_t, dropped = encode_pairs(tokenizer, corpus.train_src, corpus.train_tgt, max_len,
                                             eos_id=model_cfg.eos_id, kept=kept)
        supervision = None
        if tc.extra.get("supervise"):
            spec = tc.extra["supervise"]
            head = supervise.HeadTarget.parse(spec["head"], spec["weight"])
            if head.layer >= model_cfg.n_decoder_layers or head.head >= model_cfg.n_heads:
                raise UsageError(f"--supervise-head: {spec['head']} is not in this model "
                                 f"({model_cfg.n_decoder_layers} decoder layers, "
                                 f"{model_cfg.n_heads} heads)")
            if not corpus.train_meta:
                raise UsageError(f"--supervise-head: task {corpus.task} gives no pronoun positions")
            per_pair = supervise.targets(tokenizer, [corpus.train_tgt[i] for i in kept],
                                         [corpus.train_meta[i] for i in kept])
            if not any(per_pair):
                raise UsageError(f"--supervise-head: no training pair of task {corpus.task} "
                                 "has a pronoun and an antecedent")
            supervision = (head, per_pair)
        if not tr_s:
            raise UsageError("training data: every pair is empty or longer than max_len")
        va_s, va_t, keep = [], [], []
        for i, (s, t) in enumerate(zip(tokenizer.encode_batch(corpus.val_src),
                                       tokenizer.encode_batch(corpus.val_tgt))):
            if s and len(s) + 1 <= max_len and len(t) + 1 <= max_len:
                va_s.append(s + [model_cfg.eos_id])
                va_t.append(t)
                keep.append(i)
        model.to(device)
        model.train()
        torch.manual_seed(tc.seed + rank)  # dropout streams differ between ranks

        ddp_model = None
        if world > 1:
            from torch.nn.parallel import DistributedDataParallel as DDP

            ddp_model = DDP(model, device_ids=[local_rank] if device.startswith("cuda") else None)
        n_sent = tc.extra.get("eval_sentences") or (500 if corpus.kind == "synthetic" else 200)
        evaluator = (Evaluator(corpus, tokenizer, va_s, va_t, keep, batch_tokens=tc.batch_tokens,
                               max_sentences=n_sent,
                               ids=(model_cfg.pad_id, model_cfg.bos_id, model_cfg.eos_id))
                     if rank == 0 and va_s else None)
        trainer = Trainer(model, tc, tr_s, tr_t, device=device, evaluator=evaluator,
                          log_every=args.log_every, rank=rank, world_size=world,
                          ddp_model=ddp_model, supervision=supervision)
        if resume_state is not None:
            trainer.load_state_dict(resume_state)
            if args.steps is None and args.epochs is None:
                trainer.total_steps = int(resume_state.get("total_steps", trainer.total_steps))
            if rank == 0:
                runs.truncate_metrics(run_dir, trainer.step)
                from .checkpoint import load_checkpoint as _lc

                trainer.history = dict(_lc(last).history or trainer.history)
        if rank == 0 and "knowledge" not in trainer.history:
            from . import knowledge

            # what the model will know: its domain, the words it sees, its vocabulary's coverage
            trainer.history["knowledge"] = knowledge.build(tokenizer, corpus.train_src, corpus.task,
                                                           examples=corpus.val_src[:6])
        trainer.start_step = trainer.step

        # -- callbacks ---------------------------------------------------------------------
        stop_file = run_dir / runs.STOP
        trainer.add_callback("on_step", lambda t: t.request_stop("STOP file") if stop_file.exists()
                             else None)
        if rank == 0:
            writer = RunWriter(run_dir, tokenizer, tc.to_dict(), corpus.description)
            writer.attach(trainer)
            Progress().attach(trainer)
            runs.write_status(run_dir, message=(
                f"{len(tr_s)} training pairs ({dropped} too long dropped), {len(va_s)} validation, "
                f"vocab {model_cfg.vocab_size}, {model.num_parameters():,} parameters"))
        for ev, fns in (callbacks or {}).items():
            for fn in fns:
                trainer.add_callback(ev, fn)

        def on_signal(signum, frame):
            trainer.request_stop(f"signal {signal.Signals(signum).name}")

        old_int = signal.signal(signal.SIGINT, on_signal)
        old_term = signal.signal(signal.SIGTERM, on_signal)
        try:
            state = trainer.run()
        finally:
            signal.signal(signal.SIGINT, old_int)
            signal.signal(signal.SIGTERM, old_term)
        if rank == 0:
            runs.clear_stop(run_dir)
        return state
    except Exception as e:
        if rank == 0 and run_dir.exists():
            msg = f"{type(e).__name__}: {e}".splitlines()[0]
            try:
                runs.write_status(run_dir, state="failed", last_error=msg, message=msg)
            except OSError:  # the disk that failed the run may fail this too: report the cause
                pass
        raise
    finally:
        if world > 1:
            import torch.distributed as dist

            if dist.is_initialized():
                dist.destroy_process_group()
        if args.slots_root:
            runs.release_slot(args.slots_root)


def main(argv: list[str] | None = None) -> int:
    from .checkpoint import CheckpointError

    try:
        from .data import CorpusError

        data_error: tuple = (CorpusError,)
        state = run(argv)
    except (UsageError, CheckpointError, ValueError) + data_error as e:  # type: ignore[operator]
        print(f"error: {str(e).splitlines()[0] if str(e) else type(e).__name__}", file=sys.stderr)
        return 2
    except OSError as e:  # a full disk, a read-only or vanished run directory: one line, exit 2
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
        print(f"error: {msg}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return {"finished": 0, "stopped": 0}.get(state, 1)


if __name__ == "__main__":
    sys.exit(main())
