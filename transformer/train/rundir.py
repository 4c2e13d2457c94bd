"""The run directory: rank 0's RunWriter (status.json, metrics.jsonl, checkpoints with their
README card) and the repair of checkpoints a kill left half swapped."""
from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path

from transformer.core.checkpoint import STATE_TENSORS, save_checkpoint
from transformer.ops import cards, disk_budget, runs
from transformer.train.loop import Trainer

KEEP_STEP_CHECKPOINTS = 3


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
        if t.last_eval.get("best") and self._room(t, 1, with_state=False):
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
        (transformer.ops.cards), or nothing before the first evaluation."""
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
        path = save_checkpoint(self.ckpt_dir / name, t.model, self.tokenizer,
                               train_config=self.train_config, history=t.history,
                               card=self._card(t),
                               trainer_state=t.state_dict() if with_state else None)
        t.last_checkpoint = path
        return path

    def _estimate(self, t: Trainer, with_state: bool = True) -> int:
        """Bytes one more checkpoint takes (issue 48, 5: a weights-only `best` is no measure of a
        step-N/last copy, which also holds the optimizer's state): the largest copy of the same
        kind already written, else the weights (and, with state, the optimizer's two moments),
        the tokenizer and the history; plus room for the history's growth."""
        kinds = [p for p in self.ckpt_dir.iterdir() if p.is_dir() and not p.name.startswith(".")
                 and (p / STATE_TENSORS).is_file() == with_state] \
            if self.ckpt_dir.is_dir() else []
        sizes = [disk_budget.dir_size(p) for p in kinds]
        weights = sum(p.numel() * p.element_size() for p in t.model.parameters())
        tok = self.tokenizer
        try:
            tok_bytes = (sum(len(b) for b in tok.files().values()) if hasattr(tok, "files")
                         else len(tok.to_bytes())) if tok is not None else 0
        except Exception:  # noqa: BLE001 - an unknown tokenizer: its size is not counted here
            tok_bytes = 0
        try:
            hist = len(json.dumps(t.history, default=str))
        except (TypeError, ValueError):
            hist = 0
        fresh = (3 if with_state else 1) * weights + tok_bytes + hist + (1 << 16)
        return max(sizes) + hist // 8 + (1 << 14) if sizes else fresh

    def _room(self, t: Trainer, copies: int, with_state: bool = True) -> bool:
        """Whether `copies` more checkpoints fit this run's disk share (a student run on a server
        with a disk budget: transformer.ops.disk_budget.may_write); if not, the run stops without
        writing them (issue 22, B2)."""
        if disk_budget.RUN_MAX_ENV not in os.environ:  # not a student run: nothing to check
            return True
        why = disk_budget.may_write(self.run_dir, copies * self._estimate(t, with_state))
        if why is None:
            return True
        t.request_stop(why)
        return False

    def _over_share(self, t: Trainer, extra: Path | None = None) -> None:
        """After a write: a student run past its share (an estimate fell short) removes `extra`
        (a copy of what `last` holds, so nothing is lost) and stops."""
        if disk_budget.RUN_MAX_ENV not in os.environ:
            return
        why = disk_budget.may_write(self.run_dir, 0)
        if why is None:
            return
        if extra is not None and extra.is_dir():
            shutil.rmtree(extra, ignore_errors=True)
            why = disk_budget.may_write(self.run_dir, 0)
        if why is not None:
            t.request_stop(why)

    def on_checkpoint(self, t: Trainer) -> None:
        if t.error:  # never save weights that produced a non-finite loss
            return
        if not self._room(t, 2):  # step-N and last
            return
        self.status(t, "saving")
        name = f"step-{t.step:06d}"
        self.save(t, name)
        self.save(t, "last")
        steps = sorted(p for p in self.ckpt_dir.glob("step-*") if p.is_dir())
        keep = int(self.train_config.get("extra", {}).get("keep_checkpoints",
                                                           KEEP_STEP_CHECKPOINTS))
        for old in (steps[:-keep] if keep > 0 else []):
            shutil.rmtree(old, ignore_errors=True)
        self._over_share(t, extra=self.ckpt_dir / name)
        runs.append_metrics(self.run_dir, {"type": "checkpoint", "step": t.step, "name": name,
                                           "time": time.time()})
        self.status(t, "running")

    def on_end(self, t: Trainer) -> None:
        self.status(t, t.final_state, last_error=t.error,
                    message=t.error or t.stop_reason or "done")


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
        shutil.copy2(src, dst)


def recover_checkpoints(run_dir: Path, restore_last: bool = False) -> list[str]:
    """Repair RUN_DIR/checkpoints after a kill, before anything looks at it (rank 0 only):

    1. a checkpoint moved aside by a swap (`.NAME.old-*`) whose replacement never arrived is moved
       back to NAME (the newest such copy when there are several);
    2. leftover temporary and moved-aside folders (`.*.tmp-*`, `.*.old-*`) are removed: they pile
       up after every kill, and a folder with nothing but them is not a run;
    3. with `restore_last` (--resume), a missing `last` is rebuilt (hard links) from the newest
       step-* checkpoint that has trainer state.

    Independent of transformer.core.checkpoint's own recovery. Returns one line per repair."""
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
