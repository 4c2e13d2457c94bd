"""Corpora for the trainer: the tasks, their training and validation text (`load_corpus`), the
--task-opt checks, and encoding sentence pairs into ids for the model. Besides the built-in tasks, a
task may be your own corpus builder, "module:function" (transformer/data/builders.py)."""
from __future__ import annotations

import argparse
import inspect
import random
from dataclasses import dataclass, field

from transformer.data import builders, genders
from transformer.data import tasks as data
from transformer.train import corpus_pronouns

SYNTHETIC = ("copy", "reverse", "sort", "anaphora")
TRANSLATION = ("multi30k", "classroom", "tsv")
TASKS = SYNTHETIC + TRANSLATION


class UsageError(ValueError):
    """A setting that cannot work; the CLI prints it as one line and exits with status 2."""


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


@dataclass(frozen=True)
class CorpusSpec:
    """Where a run's text comes from: the fields `load_corpus` reads (an argparse Namespace with
    the same names works too)."""

    task: str
    seed: int = 0
    task_opts: dict = field(default_factory=dict)
    data_dir: str | None = None
    tsv: str | None = None
    src_file: str | None = None
    tgt_file: str | None = None
    src_lang: str | None = None
    tgt_lang: str | None = None

    @classmethod
    def from_config(cls, tc) -> "CorpusSpec":
        """From a TrainConfig (fresh or read back from a checkpoint)."""
        ex = tc.extra
        return cls(tc.task, tc.seed, ex.get("task_opts", {}),
                   **{k: ex.get(k) for k in ("data_dir", "tsv", "src_file", "tgt_file",
                                             "src_lang", "tgt_lang")})


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


def load_corpus(args: CorpusSpec | argparse.Namespace) -> Corpus:
    """Training and validation text for the chosen task (the anaphora validation split is the
    held-out one: noun pairs never seen in training)."""
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
        # --task-opt corpus_labels=1: pronoun labels on Multi30k's own captions as well
        corpus_labels = opts.pop("corpus_labels", 0)
        if corpus_labels not in (0, 1):
            raise UsageError(f"--task-opt: corpus_labels must be 0 or 1 (got {corpus_labels!r})")
        m_tr = data.load_multi30k(args.data_dir, "train", "en", "de")
        try:
            p_tr = data.load_task("classroom_pronouns", "train", seed=args.seed, **opts)
        except TypeError as e:
            raise UsageError(f"--task-opt: {str(e).splitlines()[0]} (task classroom)") from None
        tr_s, tr_t, tr_m = _examples(m_tr + p_tr)
        # Multi30k captions whose German pronoun has one antecedent by grammar: supervision
        # targets on natural sentences (transformer/train/corpus_pronouns.py)
        if corpus_labels:
            for m, label in zip(tr_m, multi30k_pronoun_labels(m_tr)):
                m.update(label)
        n_labelled = sum(1 for m in tr_m[:len(m_tr)] if "tgt_pronoun_pos" in m)
        # validation: Multi30k's own (BLEU comparable with multi30k-en-de)
        va_s, va_t, va_m = _examples(data.load_multi30k(args.data_dir, "val", "en", "de"))
        return Corpus(task, "translation", tr_s, tr_t, va_s, va_t, va_m,
                      f"Multi30k en->de from {args.data_dir} ({len(m_tr)} pairs"
                      + (f", {n_labelled} with a pronoun label" if corpus_labels else "")
                      + f") plus {len(p_tr)} generated caption-style pronoun pairs",
                      train_meta=tr_m)
    if builders.is_builder_task(task):
        return _built(args)
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
    raise UsageError(f"--task: must be one of {', '.join(TASKS)} or MODULE:FUNCTION, your own "
                     f"corpus builder (got {task!r})")


def resolve_builder(task: str):
    """The corpus builder TASK names; UsageError with the builder's own message (which launcher
    registers a recipe's name) where this launcher cannot build it."""
    try:
        return builders.resolve(task)
    except builders.BuilderError as e:
        raise UsageError(str(e)) from None


def refuse_unbuildable(task: str) -> None:
    """A task this launcher cannot build (a recipe's, unregistered) is refused before a model is
    loaded: the launcher's name is the message, not a checkpoint's error or a minute's wait."""
    if builders.is_builder_task(task):
        resolve_builder(task)


def _built(args) -> Corpus:
    """A corpus builder's text (transformer/data/builders.py: "module:function", or a name a
    launcher registered, such as recipes.everyday's "everyday"): validation is the builder's first
    validation set, its second is reported beside it as held out."""
    task = args.task
    build = resolve_builder(task)
    try:
        train, val, desc = build(args.data_dir, args.seed, **dict(args.task_opts or {}))
        first, second = builders.validation_sets(val)
    except ValueError as e:
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise UsageError(msg if msg.startswith("--") else f"--task-opt: {msg} (task {task})") \
            from None
    tr_s, tr_t, tr_m = _examples(train)
    va_s, va_t, va_m = _examples(first)
    return Corpus(task, "translation", tr_s, tr_t, va_s, va_t, va_m, desc,
                  heldout=_examples(second) if second is not None else None, train_meta=tr_m)


def multi30k_pronoun_labels(pairs) -> list[dict]:
    """Per Multi30k pair, the pronoun label of transformer/train/corpus_pronouns.py ({} for none),
    with nouns and genders read from these same captions."""
    src, tgt = [p.src for p in pairs], [p.tgt for p in pairs]
    return corpus_pronouns.label_pairs(src, tgt, corpus_pronouns.from_corpus(genders.Corpus(src, tgt)))


def task_options(task: str) -> list[str] | None:
    """The --task-opt keys a synthetic task accepts (its generator's keyword parameters except
    split and seed, which the trainer passes itself); None when it takes any keyword."""

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


def encode_pairs(tokenizer, src: list[str], tgt: list[str], max_len: int, *, eos_id: int,
                 kept: list[int] | None = None):
    """Source = pieces + EOS (as transformer.core.text does for decoding); target = pieces (the batcher
    adds BOS/EOS). MAX_LEN and EOS_ID are the model config's (`cfg.max_len`, `cfg.eos_id`: no
    default, so a caller cannot fall back to ids the model does not use). Pairs too long for the
    model are dropped; returns (src_ids, tgt_ids, dropped)."""
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
