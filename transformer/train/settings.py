"""Settings: per-task defaults, the command line, and resolving flags into a TrainConfig."""
from __future__ import annotations

import argparse
from typing import Any

from ..config import PRESETS, TrainConfig
from .corpus import SYNTHETIC, TASKS, UsageError, check_task_opts
from .rundir import KEEP_STEP_CHECKPOINTS

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
    from ..config import preset as make_preset

    make_preset(preset, vocab_size=max(8000, tc.extra["vocab_size"]), **shape)
    return model, tc
