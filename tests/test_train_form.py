"""The Train page's form (ui/train_form.py) is generated from the trainer's settings schema; the
command line it builds from its untouched defaults resolves to the same configs as the
hand-written form it replaced (frozen below, as it was at 6c2b7dc)."""
from __future__ import annotations

import pytest

from transformer.core.config import PRESETS, ModelConfig, TrainConfig
from transformer.train.corpus import SYNTHETIC
from transformer.train.settings import TASK_DEFAULTS, build_parser, resolve_settings
from transformer.core.config import preset as make_preset
from ui import i18n
from ui import train_form
from ui.strings import train as strings

OLD_FIELDS = [
    ("d_model", "int", "--d-model", "model"), ("n_heads", "int", "--heads", "model"),
    ("enc_layers", "int", "--enc-layers", "model"), ("dec_layers", "int", "--dec-layers", "model"),
    ("d_ff", "int", "--d-ff", "model"), ("dropout", "float", "--dropout", "model"),
    ("attn_dropout", "float", "--attn-dropout", "model"), ("max_len", "int", "--max-len", "model"),
    ("norm_first", "bool", "--norm-first", "model"), ("learned_pe", "bool", "--learned-pe", "model"),
    ("tie", "bool", "--no-tie", "model"), ("vocab_size", "int", "--vocab-size", "model"),
    ("steps", "int", "--steps", "train"), ("epochs", "float", "--epochs", "train"),
    ("batch_tokens", "int", "--batch-tokens", "train"), ("warmup", "int", "--warmup", "train"),
    ("lr_scale", "float", "--lr-scale", "train"),
    ("label_smoothing", "float", "--label-smoothing", "train"),
    ("grad_clip", "float", "--grad-clip", "train"),
    ("weight_decay", "float", "--weight-decay", "train"),
    ("eval_every", "int", "--eval-every", "train"),
    ("eval_sentences", "int", "--eval-sentences", "train"),
    ("checkpoint_every", "int", "--checkpoint-every", "train"),
    ("keep_checkpoints", "int", "--keep-checkpoints", "train"),
    ("log_every", "int", "--log-every", "train"), ("seed", "int", "--seed", "train"),
]


def old_defaults(task: str, preset: str) -> dict:
    td = TASK_DEFAULTS["tsv" if task == "upload" else task]
    shape = {**ModelConfig().to_dict(), **PRESETS[preset]}
    tc = TrainConfig()
    return {
        "d_model": shape["d_model"], "n_heads": shape["n_heads"],
        "enc_layers": shape["n_encoder_layers"], "dec_layers": shape["n_decoder_layers"],
        "d_ff": shape["d_ff"], "dropout": float(td.get("dropout", shape["dropout"])),
        "attn_dropout": float(shape["attn_dropout"]), "max_len": shape["max_len"],
        "norm_first": shape["norm_first"], "learned_pe": shape["positional"] == "learned",
        "tie": shape["tie_embeddings"], "vocab_size": td.get("vocab_size", 8000),
        "steps": td.get("steps", tc.steps), "epochs": float(td.get("epochs", 0.0)),
        "batch_tokens": td.get("batch_tokens", tc.batch_tokens),
        "warmup": td.get("warmup", tc.warmup), "lr_scale": float(td.get("lr_scale", tc.lr_scale)),
        "label_smoothing": tc.label_smoothing, "grad_clip": tc.grad_clip,
        "weight_decay": tc.weight_decay, "eval_every": td.get("eval_every", tc.eval_every),
        "eval_sentences": 500 if task in SYNTHETIC else 200,
        "checkpoint_every": (td.get("eval_every", tc.eval_every) if task in SYNTHETIC
                             else td.get("checkpoint_every", tc.checkpoint_every)),
        "keep_checkpoints": 10, "log_every": 10, "seed": tc.seed,
    }


def old_argv(task: str, preset: str, data_flags: dict, device: str) -> list[str]:
    p = old_defaults(task, preset)
    args = ["--task", "tsv" if task == "upload" else task, "--preset", preset]
    for k, v in data_flags.items():
        args += [k, v]
    for name, kind, flag, _ in OLD_FIELDS:
        v = p[name]
        if kind == "bool":
            if name == "tie":
                if not v:
                    args.append(flag)
            elif v:
                args.append(flag)
        else:
            args += [flag, str(v)]
    return args + ["--device", device]


def resolved(argv: list[str]):
    model, tc = resolve_settings(build_parser().parse_args(["--out", "x", *argv]))
    cfg = make_preset(model["preset"], vocab_size=tc.extra["vocab_size"],
                      **{k: v for k, v in model.items() if k != "preset"})
    return cfg, tc


TASKS = [*SYNTHETIC, "multi30k", "upload"]


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("task", TASKS)
def test_default_form_resolves_as_before(task, preset):
    data = {"--data-dir": "/d", "--src-lang": "en", "--tgt-lang": "de"} if task == "multi30k" \
        else {}
    form = train_form.fields(task, preset)
    new = train_form.argv(task, preset, form, {f.name: f.default for f in form}, data, "cpu")
    assert resolved(new) == resolved(old_argv(task, preset, data, "cpu"))


@pytest.mark.parametrize("task", TASKS)
def test_page_defaults_on_top_of_the_trainers(task):
    by = {f.name: f for f in train_form.fields(task, "tiny")}
    assert by["keep_checkpoints"].default == 10
    want = TASK_DEFAULTS[train_form.trainer_task(task)]
    assert by["checkpoint_every"].default == (want["eval_every"] if task in SYNTHETIC
                                              else want["checkpoint_every"])
    for f in by.values():  # a number input needs a value of its own kind
        assert isinstance(f.default, {"int": int, "float": float, "bool": bool}[f.kind]), f


def test_changed_values_reach_the_command_line():
    form = train_form.fields("copy", "tiny")
    args = train_form.argv("copy", "tiny", form, {"heads": 2, "no_tie": True, "seed": 7})
    assert args[args.index("--heads") + 1] == "2" and "--no-tie" in args
    assert args[args.index("--seed") + 1] == "7" and args[-2:] == ["--device", "auto"]
    cfg, _ = resolved(args)
    assert cfg.n_heads == 2 and cfg.tie_embeddings is False


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_field_has_a_label_and_help(lang):
    table = i18n.sentences(strings, lang)
    for f in train_form.fields("multi30k", "small"):
        assert table.get(f"l_{f.name}") and table.get(f"h_{f.name}"), f.name
