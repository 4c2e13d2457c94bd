"""The training loop: Adam of the paper, label-smoothed cross-entropy, and the Trainer, which knows
nothing about terminals or files and reports through callbacks (minGPT style)."""
from __future__ import annotations

import contextlib
import math
import random
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np
import torch
import torch.distributed as dist

from transformer.probing import interchange, supervise
from transformer.core import trace
from transformer.train import distill
from transformer.train.batching import Batch, TokenBatcher, collate
from transformer.core.config import ModelConfig, TrainConfig
from transformer.core.model import Transformer
from transformer.train.schedule import noam_lr


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
                 supervision: tuple | None = None, interchange: tuple | None = None,
                 teacher: tuple[torch.nn.Module, float] | None = None):
        self.model, self.cfg, self.device = model, cfg, device
        # (frozen model, weight) for --distill-from, or None
        self.teacher = teacher
        # [(supervise.HeadTarget, per-pair targets aligned with train_src), ...] or None
        self.supervision = supervision
        # ((interchange.InterchangeHead, ...), [interchange.SwapPair, ...]) or None
        self.interchange = interchange
        # interchange loss and success rate since the last log, on the device (read once a log)
        self._swap_sums = torch.zeros(2, device=device)
        self._swap_n = 0
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
        # one entry per supervised head: (head, [(batch row, (query, keys)), ...])
        supervised = [(head, [(r, per_pair[i]) for r, i in enumerate(batch.indices) if per_pair[i]])
                      for head, per_pair in (self.supervision or [])]
        supervised = [(h, rows) for h, rows in supervised if rows]
        ctx = (trace.capture({h.path for h, _ in supervised}) if supervised
               else contextlib.nullcontext({}))
        with ctx as captured, torch.autocast("cuda", dtype=torch.bfloat16, enabled=self.is_cuda):
            logits = self.net(b.src, b.tgt_in)  # (B,T,V)
        loss = label_smoothed_loss(logits, b.tgt_out, self.mcfg.pad_id, self.cfg.label_smoothing)
        total = loss
        if self.teacher is not None:
            teacher, weight = self.teacher
            with torch.no_grad(), torch.autocast("cuda", dtype=torch.bfloat16,
                                                 enabled=self.is_cuda):
                t_logits = teacher(b.src, b.tgt_in)  # (B,T,V)
            total = total + weight * distill.distill_loss(logits, t_logits, b.tgt_out,
                                                          self.mcfg.pad_id)
        for head, rows in supervised:
            if captured.get(head.path) is not None:
                total = total + head.weight * supervise.loss(captured[head.path], head.head, rows)
        if self.interchange is not None:
            total = total + self._interchange_loss()
        self.optimizer.zero_grad(set_to_none=True)
        total.backward()
        if self.cfg.grad_clip > 0:
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.cfg.grad_clip)
        self.optimizer.step()
        self.step += 1
        return loss.detach()

    def _interchange_loss(self) -> torch.Tensor:
        """The interchange-intervention loss on this step's minimal pairs (weighted), one small
        forward pass per swapped head; the running mean of the loss and of the success rate
        (over the heads) go to history["interchange"]."""
        heads, pairs = self.interchange
        total = torch.zeros((), device=self.device)
        for head in heads:
            chosen = interchange.sample(pairs, head.pairs, self.cfg.seed + self.rank, self.step)
            idx, swaps, pos, want = interchange.batch_rows(chosen, head.kind)
            ib = collate(self.train_src, self.train_tgt, idx, pad_id=self.mcfg.pad_id,
                         bos_id=self.mcfg.bos_id, eos_id=self.mcfg.eos_id).to(self.device)
            with torch.autocast("cuda", dtype=torch.bfloat16, enabled=self.is_cuda):
                il, ok = interchange.loss(self.net, head, ib.src, ib.tgt_in, swaps, pos, want)
            self._swap_sums += torch.stack([il.detach().float(), ok.float()]) / len(heads)
            total = total + head.weight * il
        self._swap_n += 1
        return total

    def _log_interchange(self, step: int) -> None:
        if self.interchange is None or not self._swap_n:
            return
        mean = (self._swap_sums / self._swap_n).tolist()
        self.history.setdefault("interchange", []).append([step, mean[0], mean[1]])
        self._swap_sums.zero_()
        self._swap_n = 0

    def _sync_stop(self) -> bool:
        """All ranks agree to stop when any one wants to (STOP seen at different moments)."""
        if self.world_size == 1:
            return self._stop_flag
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
                self._log_interchange(rec.step)
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
