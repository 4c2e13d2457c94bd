"""`python -m transformer.train`: settings, data, model, Trainer with the run-directory writer and
a progress printer attached, signals and the STOP file."""
from __future__ import annotations

import os
import random
import signal
import sys
import time
from pathlib import Path
from typing import Callable

import numpy as np
import torch

from .. import runs, supervise
from ..config import TrainConfig, resolve_device
from ..model import Transformer
from .corpus import UsageError, encode_pairs, load_corpus
from .evaluation import Evaluator
from .loop import Trainer
from .rundir import RunWriter, recover_checkpoints
from .settings import build_parser, resolve_settings


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
        from ..checkpoint import load_checkpoint, load_trainer_state

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
            from ..checkpoint import CheckpointError, load_checkpoint

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
            from ..tokenizer import Tokenizer

            tok_path = run_dir / "tokenizer.model"
            # Every rank trains the same tokenizer (deterministic, one thread); rank 0 saves it.
            tokenizer = Tokenizer.train(corpus.train_src + corpus.train_tgt,
                                        vocab_size=tc.extra["vocab_size"])
            if rank == 0:
                tokenizer.save(tok_path)
            over = dict(tc.extra["model"])
            name = over.pop("preset")
            from ..config import preset as make_preset

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
                from ..checkpoint import load_checkpoint as _lc

                trainer.history = dict(_lc(last).history or trainer.history)
        if rank == 0 and "knowledge" not in trainer.history:
            from .. import knowledge

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
    from ..checkpoint import CheckpointError

    try:
        from ..data import CorpusError

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
