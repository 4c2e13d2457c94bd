"""`python -m transformer.train`: settings, data, model, Trainer with the run-directory writer and
a progress printer attached, signals and the STOP file."""
from __future__ import annotations

import dataclasses
import os
import random
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from tqdm import tqdm

from transformer.ops import runs
from transformer.probing import interchange, supervise
from transformer.core.config import ModelConfig, TrainConfig, resolve_device
from transformer.core.checkpoint import CheckpointError, load_checkpoint, load_trainer_state, read_config
from transformer.core.config import preset as make_preset
from transformer.core.model import Transformer
from transformer.core.tokenizer import Tokenizer
from transformer.data import builders
from transformer.data.tasks import CorpusError
from transformer.probing import knowledge
from transformer.core.names import attention_kind
from transformer.train.corpus import CorpusSpec, UsageError, encode_pairs, load_corpus, refuse_unbuildable
from transformer.train import distill
from transformer.train.freeze import freeze_except, masked_parts, parse_prefixes
from transformer.train.evaluation import Evaluator
from transformer.train.loop import Trainer
from transformer.train.rundir import RunWriter, recover_checkpoints
from transformer.train.settings import (build_parser, resolve_settings, settings_record,
                                        write_settings)


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


@dataclass
class Start:
    """What a run starts from: its resolved training settings and, when it resumes a run or
    fine-tunes a checkpoint (--init), that checkpoint's tokenizer and model."""

    tc: TrainConfig
    tokenizer: Any = None
    model: Transformer | None = None
    resume_state: dict | None = None


@dataclass
class Encoded:
    """The corpus as ids the model can take (pairs too long for it dropped)."""

    train_src: list
    train_tgt: list
    kept: list[int]  # corpus index of each training pair kept
    dropped: int
    val_src: list = field(default_factory=list)
    val_tgt: list = field(default_factory=list)
    val_keep: list[int] = field(default_factory=list)


def run(argv: list[str] | None = None, callbacks: dict[str, list[Callable]] | None = None,
        prog: str = "python -m transformer.train") -> str:
    """The CLI without the exit: returns the final state. `callbacks` (event -> functions) are
    attached to the Trainer after the built-in ones (tests use them); `prog` names the launcher."""
    args = build_parser(prog).parse_args(argv)
    rank, world, local_rank = _dist_env()
    run_dir = Path(args.out)
    repair(run_dir, args.resume, rank)
    start = resumed(args, run_dir) if args.resume else fresh(args, run_dir)
    tc = start.tc
    device = choose_device(args.threads, tc.device, world, local_rank)
    if rank == 0:
        open_run_dir(run_dir, start, device, world)
    try:
        if world > 1:
            dist.init_process_group("nccl" if device.startswith("cuda") else "gloo")
        seed_everything(tc.seed)
        if start.model is not None:  # a bad --train-only / --distill-from is told before the corpus loads
            teacher = fine_tune_parts(start.model, start.tokenizer, tc, rank, device)
        corpus = load_corpus(CorpusSpec.from_config(tc))
        tokenizer, model = start.tokenizer, start.model
        if model is None:
            tokenizer, model = new_model(corpus, tc, run_dir, rank)
            teacher = fine_tune_parts(model, tokenizer, tc, rank, device)
        data = encode_train(corpus, tokenizer, model.cfg)
        supervision = supervision_for(tc, corpus, tokenizer, model.cfg, data.kept)
        swapping = interchange_for(tc, corpus, tokenizer, model.cfg, data)
        encode_val(data, corpus, tokenizer, model.cfg)
        trainer = make_trainer(model, tc, corpus, tokenizer, data, supervision, device, args,
                               rank, world, local_rank, swapping, teacher)
        if start.resume_state is not None:
            restore(trainer, start.resume_state, args, run_dir, rank)
        if rank == 0:
            write_settings(run_dir, settings_record(model.cfg, tc, sys.argv[1:] if argv is None
                                                    else list(argv), args))
        attach(trainer, run_dir, rank, tokenizer, tc, corpus, data, callbacks)
        state = train_until_stopped(trainer)
        if world > 1:  # every rank done (rank 0 writes the last checkpoint) before the group
            dist.barrier()  # is destroyed: a rank tearing gloo down early aborted once in CI
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
            if dist.is_initialized():
                dist.destroy_process_group()
        if args.slots_root:
            runs.release_slot(args.slots_root)


# ============================================================================== the steps of run()
def repair(run_dir: Path, resume: bool, rank: int) -> None:
    """A kill may have left the checkpoints half swapped: rank 0 repairs before anyone looks;
    on --resume the other ranks wait for it (torchrun starts the ranks together)."""
    last = run_dir / "checkpoints" / "last"
    if rank == 0:
        for line in recover_checkpoints(run_dir, restore_last=resume):
            print(f"recovered: {line}", file=sys.stderr, flush=True)
    elif resume:
        deadline = time.time() + 60
        while not (last / "config.json").exists() and time.time() < deadline:
            time.sleep(0.5)


def resumed(args, run_dir: Path) -> Start:
    """--resume: the run's own settings and model from its `last` checkpoint; --steps, --epochs
    and --device may change."""
    last = run_dir / "checkpoints" / "last"
    if not (last / "config.json").exists():
        raise UsageError(f"--resume: no checkpoint at {last} (nothing to resume)")
    try:
        refuse_unbuildable(read_config(last)[1].get("task", ""))
    except CheckpointError:
        pass  # load_checkpoint below says what is wrong with it
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
        tc = dataclasses.replace(tc, **changes)
    return Start(tc, ck.tokenizer, ck.model, load_trainer_state(last))


def fresh(args, run_dir: Path) -> Start:
    """A new run: settings from the flags; with --init, the checkpoint to fine-tune."""
    _, tc = resolve_settings(args)
    if runs.checkpoints(run_dir):
        raise UsageError(f"--out: {run_dir} already holds a run; pass --resume to continue "
                         "it or choose another directory")
    refuse_unbuildable(tc.task)
    if not args.init:
        return Start(tc)
    # fine-tuning: the weights, vocabulary and model settings of an existing checkpoint
    try:
        init = load_checkpoint(args.init)
    except CheckpointError as e:
        raise UsageError(f"--init: {e}") from None
    tc.extra["init"] = str(args.init)
    return Start(tc, init.tokenizer, init.model)


def choose_device(threads: int | None, name: str, world: int, local_rank: int) -> str:
    threads = threads if threads is not None else default_threads()
    if threads < 1:
        raise UsageError(f"--threads: must be at least 1 (got {threads})")
    torch.set_num_threads(threads)
    device = resolve_device(name)
    if world > 1 and device.startswith("cuda"):
        device = f"cuda:{local_rank}"
        torch.cuda.set_device(local_rank)
    return device


def open_run_dir(run_dir: Path, start: Start, device: str, world: int) -> None:
    """Rank 0: create the folder, clear a stale STOP, and say "starting" in status.json."""
    run_dir.mkdir(parents=True, exist_ok=True)
    runs.clear_stop(run_dir)
    if start.resume_state is None:  # a fresh start: records of a run killed before its first
        runs.truncate_metrics(run_dir, 0)  # checkpoint would mix with this one's
    runs.write_status(run_dir, state="starting",
                      step=start.resume_state["step"] if start.resume_state else 0,
                      total_steps=None, tokens_per_s=None, eta_s=None, last_error=None,
                      pid=os.getpid(), started_at=time.time(), task=start.tc.task, device=device,
                      world_size=world, message="loading data")


def seed_everything(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed % (2 ** 32))
    torch.manual_seed(seed)


def tokenizer_symbols(task: str) -> tuple[str, ...]:
    """Pieces the tokenizer must keep whole: what a corpus builder asks for (its ``keep_whole``;
    the everyday mix: English contractions, "didn't" is one word to a reader and should be one
    piece)."""
    try:
        return builders.keep_whole(task)
    except builders.BuilderError as e:
        raise UsageError(str(e)) from None


def new_model(corpus, tc: TrainConfig, run_dir: Path, rank: int):
    """A tokenizer trained on the corpus (every rank trains the same one: deterministic, one
    thread; rank 0 saves it) and a fresh model of the resolved shape."""
    tokenizer = Tokenizer.train(corpus.train_src + corpus.train_tgt,
                                vocab_size=tc.extra["vocab_size"],
                                user_defined_symbols=tokenizer_symbols(tc.task))
    if rank == 0:
        tokenizer.save(run_dir / "tokenizer.model")
    over = dict(tc.extra["model"])
    name = over.pop("preset")
    return tokenizer, Transformer(make_preset(name, vocab_size=tokenizer.vocab_size, **over))


def encode_train(corpus, tokenizer, cfg: ModelConfig) -> Encoded:
    kept: list[int] = []
    tr_s, tr_t, dropped = encode_pairs(tokenizer, corpus.train_src, corpus.train_tgt, cfg.max_len,
                                       eos_id=cfg.eos_id, kept=kept)
    return Encoded(tr_s, tr_t, kept, dropped)


def supervision_for(tc: TrainConfig, corpus, tokenizer, cfg: ModelConfig, kept: list[int]):
    """[(HeadTarget, per-pair targets), ...] for --supervise-head (one entry per named head), or
    None."""
    spec = tc.extra.get("supervise")
    if not spec:
        return None
    heads = supervise.HeadTarget.parse_many(spec["head"], spec["weight"])
    if not corpus.train_meta:
        raise UsageError(f"--supervise-head: task {corpus.task} gives no pronoun positions")
    out = []
    for head in heads:
        where = attention_kind(head.kind, cfg)
        if head.layer >= where.n_layers or head.head >= cfg.n_heads:
            raise UsageError(f"--supervise-head: {head.cli} is not in this model "
                             f"({where.n_layers} {where.stack} layers, {cfg.n_heads} heads)")
        per_pair = supervise.targets_for(head, tokenizer, [corpus.train_src[i] for i in kept],
                                         [corpus.train_tgt[i] for i in kept],
                                         [corpus.train_meta[i] for i in kept],
                                         tc.extra.get("supervise_source_span") or "phrase")
        if not any(per_pair):
            raise UsageError(f"--supervise-head: no training pair of task {corpus.task} "
                             "has a pronoun and an antecedent")
        out.append((head, per_pair))
    return out


def interchange_for(tc: TrainConfig, corpus, tokenizer, cfg: ModelConfig, data: "Encoded"):
    """((InterchangeHead, ...), minimal pairs) for --interchange-head, or None."""
    spec = tc.extra.get("interchange")
    if not spec:
        return None
    heads = interchange.InterchangeHead.parse_many(spec["head"], spec["weight"], spec["pairs"])
    for head in heads:
        n = cfg.n_encoder_layers if head.kind == "encoder_self" else cfg.n_decoder_layers
        if head.layer >= n or head.head >= cfg.n_heads:
            raise UsageError(f"--interchange-head: {head.cli} is not in this model "
                             f"({cfg.n_encoder_layers} encoder and {cfg.n_decoder_layers} decoder "
                             f"layers, {cfg.n_heads} heads)")
    kept = data.kept
    metas = corpus.train_meta or []
    pairs = interchange.find_pairs(tokenizer, [corpus.train_src[i] for i in kept],
                                   [corpus.train_tgt[i] for i in kept],
                                   [metas[i] if i < len(metas) else {} for i in kept],
                                   data.train_tgt)
    if not pairs:
        raise UsageError(f"--interchange-head: task {corpus.task} has no minimal pairs whose "
                         "German pronouns differ (the textbook generator makes them)")
    return heads, pairs


def encode_val(data: Encoded, corpus, tokenizer, cfg: ModelConfig) -> None:
    if not data.train_src:
        raise UsageError("training data: every pair is empty or longer than max_len")
    for i, (s, t) in enumerate(zip(tokenizer.encode_batch(corpus.val_src),
                                   tokenizer.encode_batch(corpus.val_tgt))):
        if s and len(s) + 1 <= cfg.max_len and len(t) + 1 <= cfg.max_len:
            data.val_src.append(s + [cfg.eos_id])
            data.val_tgt.append(t)
            data.val_keep.append(i)


def fine_tune_parts(model: Transformer, tokenizer, tc: TrainConfig, rank: int, device: str):
    """--train-only and --distill-from, as soon as the model and its vocabulary exist: freezes
    the model's other parameters, returns the teacher (or None)."""
    train_only(model, tc, rank)
    return teacher_for(tc, tokenizer, device)


def teacher_for(tc: TrainConfig, tokenizer, device: str):
    """(frozen teacher model on the device, weight) for --distill-from, or None. The teacher must
    read and write the same pieces as the model trained, or its distributions mean nothing."""
    spec = tc.extra.get("distill")
    if not spec or not spec.get("checkpoint"):
        return None
    try:
        ck = load_checkpoint(spec["checkpoint"])
    except CheckpointError as e:
        raise UsageError(f"--distill-from: {e}") from None
    if ck.tokenizer.to_bytes() != tokenizer.to_bytes():
        raise UsageError(f"--distill-from: {spec['checkpoint']} has another vocabulary than the "
                         "model trained; distillation needs the same one (fine-tune with --init "
                         "from it, or from a checkpoint with its tokenizer)")
    return distill.frozen(ck.model).to(device), float(spec["weight"])


def train_only(model: Transformer, tc: TrainConfig, rank: int) -> None:
    """--train-only: freeze every parameter outside the named parts (before the optimizer is
    made, which takes only the trainable ones); say how many train."""
    spec = tc.extra.get("train_only")
    if not spec:
        return
    try:
        parts = parse_prefixes(spec)
        if masked_parts(parts) and tc.weight_decay > 0:
            raise ValueError("--train-only: a head's query and key rows (KIND:LAYER:HEAD:qk) "
                             "and feed-forward units (ffn:N+) train through a gradient mask, "
                             f"which weight decay would get around (--weight-decay "
                             f"{tc.weight_decay}); use 0")
        trainable, total = freeze_except(model, parts)
    except ValueError as e:
        raise UsageError(str(e)) from None
    if rank == 0:
        print(f"--train-only: {trainable:,} of {total:,} parameters train", flush=True)


def make_trainer(model: Transformer, tc: TrainConfig, corpus, tokenizer, data: Encoded,
                 supervision, device: str, args, rank: int, world: int,
                 local_rank: int, swapping=None, teacher=None) -> Trainer:
    model.to(device)
    model.train()
    torch.manual_seed(tc.seed + rank)  # dropout streams differ between ranks
    ddp_model = None
    if world > 1:
        ddp_model = DDP(model, device_ids=[local_rank] if device.startswith("cuda") else None)
    cfg = model.cfg
    n_sent = tc.extra.get("eval_sentences") or (500 if corpus.kind == "synthetic" else 200)
    evaluator = (Evaluator(corpus, tokenizer, data.val_src, data.val_tgt, data.val_keep,
                           batch_tokens=tc.batch_tokens, max_sentences=n_sent,
                           ids=(cfg.pad_id, cfg.bos_id, cfg.eos_id))
                 if rank == 0 and data.val_src else None)
    return Trainer(model, tc, data.train_src, data.train_tgt, device=device, evaluator=evaluator,
                   log_every=args.log_every, rank=rank, world_size=world, ddp_model=ddp_model,
                   supervision=supervision, interchange=swapping, teacher=teacher)


def restore(trainer: Trainer, state: dict, args, run_dir: Path, rank: int) -> None:
    """Continue where the checkpoint left off: optimizer, batcher, RNG, step, history; the
    metrics written after that step are dropped."""
    trainer.load_state_dict(state)
    if args.steps is None and args.epochs is None:
        trainer.total_steps = int(state.get("total_steps", trainer.total_steps))
    if rank == 0:
        runs.truncate_metrics(run_dir, trainer.step)
        trainer.history = dict(load_checkpoint(run_dir / "checkpoints" / "last").history
                               or trainer.history)


def attach(trainer: Trainer, run_dir: Path, rank: int, tokenizer, tc: TrainConfig, corpus,
           data: Encoded, callbacks: dict[str, list[Callable]] | None) -> None:
    """The STOP file on every rank; on rank 0 the knowledge summary, the run-directory writer and
    the progress printer; then the caller's callbacks."""
    if rank == 0 and "knowledge" not in trainer.history:
        # what the model will know: its domain, the words it sees, its vocabulary's coverage
        trainer.history["knowledge"] = knowledge.build(tokenizer, corpus.train_src, corpus.task,
                                                       examples=corpus.val_src[:50], max_examples=6)
    trainer.start_step = trainer.step
    stop_file = run_dir / runs.STOP
    trainer.add_callback("on_step", lambda t: t.request_stop("STOP file") if stop_file.exists()
                         else None)
    if rank == 0:
        RunWriter(run_dir, tokenizer, tc.to_dict(), corpus.description).attach(trainer)
        Progress().attach(trainer)
        model = trainer.model
        runs.write_status(run_dir, message=(
            f"{len(data.train_src)} training pairs ({data.dropped} too long dropped), "
            f"{len(data.val_src)} validation, vocab {model.cfg.vocab_size}, "
            f"{model.num_parameters():,} parameters"))
    for ev, fns in (callbacks or {}).items():
        for fn in fns:
            trainer.add_callback(ev, fn)


def train_until_stopped(trainer: Trainer) -> str:
    """trainer.run(), with SIGINT and SIGTERM turned into a stop request (a checkpoint, then exit)."""
    def on_signal(signum, frame):
        trainer.request_stop(f"signal {signal.Signals(signum).name}")

    old_int = signal.signal(signal.SIGINT, on_signal)
    old_term = signal.signal(signal.SIGTERM, on_signal)
    try:
        return trainer.run()
    finally:
        signal.signal(signal.SIGINT, old_int)
        signal.signal(signal.SIGTERM, old_term)


def main(argv: list[str] | None = None, prog: str = "python -m transformer.train") -> int:
    try:
        state = run(argv, prog=prog)
    except (UsageError, CheckpointError, ValueError, CorpusError) as e:
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
