"""The training settings schema (transformer/train/settings.py): the command line generated from it
is the hand-written parser it replaced, flag for flag; resolution gives the same configs; a run's
settings.json reads back to the configs it trained with; bad values fail with the same messages.

The reference parser and resolver below are the pre-schema code, frozen (issue 13 item 3)."""
from __future__ import annotations

import argparse
import json
from typing import Any

import pytest

from transformer.core.config import PRESETS, ModelConfig, TrainConfig
from transformer.train.corpus import UsageError
from transformer.train.settings import build_parser, resolve_settings
from transformer.train.cli import main, run
from transformer.train import settings as S
from transformer.core import config
from transformer.train.corpus import SYNTHETIC, TASKS, check_task_opts
from transformer.train.rundir import KEEP_STEP_CHECKPOINTS
from transformer.train.settings import TASK_DEFAULTS, _parse_task_opts


# ------------------------------------------------------------------ the code the schema replaced
def old_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m transformer.train",
                                description="Train an encoder-decoder Transformer.")
    a = p.add_argument
    # since issue 51: a task may also be MODULE:FUNCTION, your own corpus builder
    a("--task", choices=TASKS, default=None, help="what to learn (default copy; on --resume: the run's), "
      "or MODULE:FUNCTION: your own corpus builder (transformer/data/builders.py)")
    a("--data-dir", help="Multi30k folder (train.en, train.de, val.en, ...)")
    a("--src-lang", default="en")
    a("--tgt-lang", default="de")
    a("--tsv", help="a TSV corpus: source<TAB>target per line")
    a("--src-file")
    a("--tgt-file")
    a("--task-opt", action="append", default=[], metavar="KEY=VALUE",
      help="a task option: a synthetic task's, passed to transformer.data.tasks.load_task (e.g. "
           "max_len=12), or a corpus builder's keyword")
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
    # changed after the schema landed (issue 12): encoder_self heads and several heads at once
    t.add_argument("--supervise-head", metavar="KIND:LAYER:HEAD[,...]",
                   help="attention supervision: an extra loss teaching this head (decoder_self or "
                        "encoder_self; several separated by commas) to attend from a pronoun to "
                        "its antecedent, on training pairs that say where both are (anaphora, "
                        "classroom); see transformer/probing/supervise.py")
    t.add_argument("--supervise-weight", type=float, default=1.0,
                   help="weight of that loss (default 1.0)")
    # added 2026-11-27 (issue 20): what an encoder head is taught to look at
    t.add_argument("--supervise-source-span", choices=("phrase", "noun"),
                   help="what an encoder_self head is taught to look at: the antecedent's noun "
                        "phrase ('phrase', the default: 'the dog') or its noun alone ('noun': "
                        "'dog'; an English article carries no gender)")
    # added 2026-11-26 (issue 20): interchange-intervention training
    t.add_argument("--interchange-head", metavar="KIND:LAYER:HEAD[,...]",
                   help="interchange-intervention training: swap this head's output "
                        "(encoder_self: at 'it'; decoder_self: where the German pronoun is "
                        "written; several separated by commas, each in its own pass) between the "
                        "two sentences of a generated minimal pair and ask for the partner's "
                        "German pronoun, so that the pronoun's choice runs through the head "
                        "(switching it off then changes the pronoun); see "
                        "transformer/probing/interchange.py")
    t.add_argument("--interchange-weight", type=float, default=1.0,
                   help="weight of that loss (default 1.0)")
    t.add_argument("--interchange-pairs", type=int, default=16,
                   help="minimal pairs swapped per step (default 16)")
    # added after the schema landed (issue 20): distillation, and fine-tune only some parameters
    t.add_argument("--distill-from", metavar="CHECKPOINT",
                   help="add a KL loss to this checkpoint's next-piece distributions (same "
                        "vocabulary), so a fine-tune keeps its translations elsewhere; see "
                        "transformer/train/distill.py")
    t.add_argument("--distill-weight", type=float, default=1.0,
                   help="weight of that loss (default 1.0)")
    t.add_argument("--train-only", metavar="PREFIX[,...]",
                   help="fine-tune only the parameters under these names (e.g. encoder.layers.2,"
                        "decoder.layers.2.cross_attn), or one head's query and key rows "
                        "(KIND:LAYER:HEAD:qk, e.g. encoder_self:2:0:qk), or the feed-forward "
                        "units from N on (ffn:N+, after recipes.surgery.grow); the rest keep the "
                        "starting weights exactly; see transformer/train/freeze.py")
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



def old_resolve(args: argparse.Namespace) -> tuple[dict, TrainConfig]:
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
    from transformer.core.config import preset as make_preset

    make_preset(preset, vocab_size=max(8000, tc.extra["vocab_size"]), **shape)
    return model, tc



def _actions(p: argparse.ArgumentParser) -> list[dict]:
    return [dict(dest=a.dest, flags=a.option_strings, default=a.default, type=a.type,
                 choices=list(a.choices) if a.choices else None, help=a.help, metavar=a.metavar,
                 required=a.required, nargs=a.nargs, const=a.const, cls=type(a).__name__)
            for a in p._actions]


def test_every_flag_is_generated_as_before():
    new, old = _actions(build_parser()), _actions(old_parser())
    assert [a["flags"] for a in new] == [a["flags"] for a in old]
    for a, b in zip(new, old):
        assert a == b, a["flags"]
    assert build_parser().format_help() == old_parser().format_help()
    groups = lambda p: [(g.title, [a.dest for a in g._group_actions]) for g in p._action_groups]
    assert groups(build_parser()) == groups(old_parser())


def test_schema_fields_name_real_config_fields():
    model = {f for f in ModelConfig.__dataclass_fields__}
    train = {f for f in TrainConfig.__dataclass_fields__}
    for s in S.SCHEMA:
        for f in s.fields:
            where, _, name = f.partition(".")
            assert where in ("model", "train", "extra"), (s.flag, f)
            if where == "model":
                assert name in model, (s.flag, f)
            if where == "train":
                assert name in train, (s.flag, f)
    assert len({s.flag for s in S.SCHEMA}) == len(S.SCHEMA)


ARGVS = [
    [], ["--task", "anaphora"], ["--task", "multi30k"], ["--task", "tsv", "--steps", "50"],
    ["--task", "sort", "--epochs", "2"], ["--task", "classroom", "--steps", "5", "--epochs", "1.5"],
    ["--preset", "small", "--d-model", "32", "--heads", "2", "--layers", "3", "--dec-layers", "1"],
    ["--enc-layers", "2", "--d-ff", "64", "--dropout", "0.2", "--attn-dropout", "0.1",
     "--max-len", "64", "--norm-first", "--learned-pe", "--no-tie", "--vocab-size", "100"],
    ["--batch-tokens", "512", "--warmup", "10", "--lr-scale", "2", "--label-smoothing", "0",
     "--grad-clip", "0", "--weight-decay", "0.01", "--eval-every", "7", "--eval-sentences", "9",
     "--checkpoint-every", "3", "--keep-checkpoints", "2", "--device", "cpu", "--seed", "5"],
    ["--task", "copy", "--task-opt", "n=20", "--task-opt", "max-len=4", "--src-lang", "de",
     "--tgt-lang", "en", "--data-dir", "d", "--tsv", "t", "--src-file", "s", "--tgt-file", "t2"],
    ["--task", "anaphora", "--dropout", "0"], ["--device", ""],
]


@pytest.mark.parametrize("argv", ARGVS, ids=lambda a: " ".join(a) or "defaults")
def test_resolution_is_unchanged(argv):
    args = build_parser().parse_args(["--out", "x", *argv])
    model, tc = resolve_settings(args)
    old_model, old_tc = old_resolve(old_parser().parse_args(["--out", "x", *argv]))
    assert model == old_model
    assert tc == old_tc


BAD = [["--steps", "0"], ["--task-opt", "foo"], ["--task-opt", "foo=1"],
       ["--d-model", "30", "--heads", "4"], ["--vocab-size", "3"], ["--lr-scale", "-1"],
       ["--device", "tpu"], ["--epochs", "-1"], ["--dropout", "1.5"], ["--keep-checkpoints", "x"],
       ["--task", "nope"], ["--preset", "huge"], ["--steps", "1.5"]]


@pytest.mark.parametrize("argv", BAD, ids=lambda a: " ".join(a))
def test_bad_values_fail_as_before(argv, capsys):
    def outcome(parser, resolve):
        try:
            resolve(parser().parse_args(["--out", "x", *argv]))
        except SystemExit as e:
            return ("exit", e.code, capsys.readouterr().err)
        except (UsageError, ValueError) as e:
            return (type(e).__name__, str(e))
        return ("ok",)

    new, old = outcome(build_parser, resolve_settings), outcome(old_parser, old_resolve)
    assert new == old and new != ("ok",)


def test_cli_errors_are_one_line_exit_2(tmp_path, capsys):
    assert main(["--out", str(tmp_path / "r"), "--steps", "0"]) == 2
    assert capsys.readouterr().err == "error: steps: must be an integer of at least 1 (got 0)\n"
    with pytest.raises(SystemExit) as e:
        main(["--out", str(tmp_path / "r"), "--steps", "x"])
    assert e.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "python -m transformer.train: error: argument --steps: invalid int value: 'x'")


def test_settings_json_round_trip(tmp_path):
    import torch

    threads = torch.get_num_threads()
    argv = ["--out", str(tmp_path / "r"), "--task", "copy", "--task-opt", "n=60", "--d-model",
            "16", "--heads", "2", "--layers", "1", "--d-ff", "32", "--steps", "2", "--threads", "1",
            "--eval-every", "2", "--eval-sentences", "2"]
    try:
        assert run(argv) == "finished"
    finally:
        torch.set_num_threads(threads)
    from transformer.core.checkpoint import load_checkpoint

    model_cfg, tc, rec = S.read_settings(tmp_path / "r")
    ck = load_checkpoint(tmp_path / "r" / "checkpoints" / "last")
    assert model_cfg == ck.model_config
    assert tc == TrainConfig.from_dict(ck.train_config)
    assert rec["argv"] == argv
    assert rec["flags"]["steps"] == 2 and rec["flags"]["resume"] is False
    assert set(rec["versions"]) == {"attention_lab", "python", "torch"}
    json.dumps(rec)  # plain JSON
    assert S.read_settings(tmp_path / "nothing") is None


@pytest.mark.parametrize("task", ["copy", "anaphora", "multi30k"])
def test_form_fields_give_the_trainers_defaults(task):
    """The form's defaults are what the trainer uses when no flag is given: the flags a form with
    untouched defaults produces resolve to the same configs as no flags at all."""
    fields = S.form_fields(task)
    flags = [f.flag for f in fields]
    assert "--d-model" in flags and "--no-tie" in flags and "--seed" in flags
    assert not set(flags) & set(S.NOT_IN_FORM)
    by = {f.name: f for f in fields}
    assert by["d_model"].default == PRESETS[TASK_DEFAULTS[task]["preset"]]["d_model"]
    assert by["steps"].default == TASK_DEFAULTS[task].get("steps", TrainConfig().steps)
    assert by["no_tie"].kind == "bool" and by["no_tie"].default is False
    plain = build_parser().parse_args(["--out", "x", "--task", task])
    filled = build_parser().parse_args(["--out", "x", "--task", task, *S.form_argv(fields, {})])
    model, tc = resolve_settings(filled)
    model0, tc0 = resolve_settings(plain)
    shape = lambda m: config.preset(m["preset"], **{k: v for k, v in m.items() if k != "preset"})
    assert shape(model) == shape(model0)
    same = lambda t: {**t.to_dict(), "extra": {k: v for k, v in t.extra.items()
                                               if k not in ("model", "eval_sentences")}}
    assert same(tc) == same(tc0)


def test_form_argv_gives_switches_only_when_on():
    fields = S.form_fields("copy", "tiny")
    argv = S.form_argv(fields, {"no_tie": True, "norm_first": False, "d_model": 32})
    assert "--no-tie" in argv and "--norm-first" not in argv
    assert argv[argv.index("--d-model") + 1] == "32"


def test_supervision_is_resolved_and_checked_by_the_schema():
    _, tc = resolve_settings(build_parser().parse_args(
        ["--out", "-", "--task", "anaphora", "--supervise-head", "decoder_self:1:2"]))
    assert tc.extra["supervise"] == {"head": "decoder_self:1:2", "weight": 1.0}
    assert list(tc.extra)[-1] == "supervise"  # after the model, as the trainer recorded it
    _, tc = resolve_settings(build_parser().parse_args(["--out", "-", "--supervise-weight", "2"]))
    assert "supervise" not in tc.extra  # a weight alone supervises nothing
    for bad in (["--supervise-head", "cross:0:0"],
                ["--supervise-head", "decoder_self:0:0", "--supervise-weight", "-1"]):
        with pytest.raises(UsageError, match="^--supervise-head: "):
            resolve_settings(build_parser().parse_args(["--out", "-", *bad]))


def test_argv_for_writes_flags_the_parser_reads_back():
    values = {"task": "copy", "preset": "tiny", "steps": 50, "norm_first": True, "no_tie": False,
              "task_opt": ["n=3", "max_len=4"], "device": "auto"}
    argv = S.argv_for(values)
    assert argv == ["--task", "copy", "--task-opt", "n=3", "--task-opt", "max_len=4",
                    "--preset", "tiny", "--norm-first", "--steps", "50", "--device", "auto"]
    args = build_parser().parse_args(["--out", "-", *argv])
    assert (args.task, args.steps, args.norm_first, args.no_tie) == ("copy", 50, True, None)
    with pytest.raises(KeyError, match="not a training setting: stepz"):
        S.argv_for({"stepz": 1})


def test_a_config_fields_flag_takes_the_fields_type():
    assert S.BY_FLAG["--lr-scale"].type is float and S.BY_FLAG["--warmup"].type is int
    assert S.BY_FLAG["--task"].type is None and S.BY_FLAG["--device"].type is None
