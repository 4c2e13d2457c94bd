"""One settings schema for training: every flag of `python -m transformer.train` is a `Setting`
that names its group, help text, the config field it sets (`model.d_model`, `train.steps`,
`extra.vocab_size`, `extra.supervise.head`) and how a given value is checked; the command line
(`build_parser`), the resolution of flags into a TrainConfig (`resolve_settings`), a run's
`settings.json` (`settings_record`), the Train page's form (`form_fields`, `form_argv`) and any
command line written by a program (`argv_for`: the class server's student runs) are all
generated from `SCHEMA`.

A value comes from, in order: the flag, the task's measured default (TASK_DEFAULTS), the
config dataclass's own default (ModelConfig, TrainConfig). A setting of a config field takes
the field's type (int, float) unless it names its own.

A new training setting: one `Setting` here (and, when it is a ModelConfig or TrainConfig field
rather than an extra, that field in transformer/core/config.py), the code that reads it
(`tc.extra["name"]` or `tc.name`), and, when the Train page offers it, its label and help in
ui/strings/train.py (`l_<name>`, `h_<name>`).
"""
from __future__ import annotations

import argparse
import dataclasses
import platform
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, get_type_hints

import torch

from transformer import __version__
from transformer.core.config import PRESETS, ModelConfig, TrainConfig
from transformer.core.config import preset as make_preset
from transformer.data import builders
from transformer.ops import runs
from transformer.probing import interchange, supervise
from transformer.train import freeze
from transformer.train.corpus import SYNTHETIC, TASKS, UsageError, check_task_opts
from transformer.train.rundir import KEEP_STEP_CHECKPOINTS

# Per-task defaults: what trains that task well on a 2-core CPU (anaphora: measured, see issue 3).
# Anything given on the command line wins.
_LETTER_TASK = dict(preset="tiny", vocab_size=64, steps=800, batch_tokens=2048, warmup=400,
                    lr_scale=0.5, eval_every=200, checkpoint_every=100, dropout=0.0,
                    keep_checkpoints=0)  # copy / reverse: a few minutes on a CPU
_TRANSLATION_TASK = dict(preset="small", vocab_size=8000, epochs=20.0, batch_tokens=4096,
                         warmup=4000, lr_scale=1.0, eval_every=1000, checkpoint_every=2000)
TASK_DEFAULTS: dict[str, dict[str, Any]] = {
    "copy": dict(_LETTER_TASK),
    "reverse": dict(_LETTER_TASK),
    "sort": {**_LETTER_TASK, "steps": 1200, "eval_every": 300, "checkpoint_every": 150},
    # Peak lr = 0.5 * 64^-0.5 * 400^-0.5 = 3.1e-3 for the tiny preset. anaphora with these
    # settings (measured on the shared 2-core CPU, --threads 1): held-out pronoun accuracy 0.98 at
    # step 900 (~90 s of training), 1.00 at step 1200 (~110 s).
    "anaphora": {**_LETTER_TASK, "vocab_size": 1000, "steps": 1200, "eval_every": 300,
                 "checkpoint_every": 150, "dropout": 0.1},
    "multi30k": dict(_TRANSLATION_TASK),
    # classroom: Multi30k plus generated caption-style pronoun pairs (transformer/data/classroom.py);
    # usually fine-tuned from multi30k-en-de with --init (see checkpoints/classroom-en-de).
    "classroom": dict(_TRANSLATION_TASK),
    "tsv": dict(_TRANSLATION_TASK),
}
# a corpus builder's task ("module:function", or a name a launcher registered, such as the shipped
# default's "everyday": recipes/everyday) trains with the translation defaults
BUILDER_DEFAULTS: dict[str, Any] = dict(_TRANSLATION_TASK)



class TaskChoices(tuple):
    """--task's choices: the built-in tasks (what --help and a bad value's error list) and any
    corpus builder, MODULE:FUNCTION or a name a launcher registered (transformer/data/builders.py)."""

    def __contains__(self, value) -> bool:
        return tuple.__contains__(self, value) or builders.is_builder_task(value)


# ============================================================================== the schema
DATA, MODEL, TRAINING, RUN = None, "model (a preset, then any field overridden)", "training", \
    "run directory"  # argparse group titles (None: the parser's own "options" group)


@dataclass(frozen=True)
class Setting:
    """One flag. `field` is what it sets: "model.NAME" (a ModelConfig field), "train.NAME" (a
    TrainConfig field), "extra.NAME" (TrainConfig.extra), "extra.GROUP.NAME" (one entry of the
    dict TrainConfig.extra[GROUP], recorded only when the group's first setting is given) or ""
    (how to run, not stored). A `switch` (store_true) sets its field(s) to `value`. `check`,
    called with the parsed flags when this one is given, raises ValueError for a value that
    cannot work (the message follows the flag's name)."""

    flag: str
    group: str | None = DATA
    help: str | None = None
    type: type | None = None
    choices: tuple | None = None
    default: Any = None  # the flag's own default; None means "not given": the task's, then the config's
    field: str | tuple[str, ...] = ""
    switch: bool = False
    value: Any = True  # what a switch sets its field to
    metavar: str | None = None
    repeat: bool = False  # action="append"
    required: bool = False
    check: Callable[[argparse.Namespace], Any] | None = None

    def __post_init__(self) -> None:
        if self.type is None and not self.switch and self.fields:
            object.__setattr__(self, "type", _field_type(self.fields[0]))

    @property
    def dest(self) -> str:
        return self.flag[2:].replace("-", "_")

    @property
    def fields(self) -> tuple[str, ...]:
        return (self.field,) if isinstance(self.field, str) and self.field else tuple(self.field)


_FIELD_TYPES = {"model": get_type_hints(ModelConfig), "train": get_type_hints(TrainConfig)}


def _field_type(field: str) -> type | None:
    """int or float for a ModelConfig / TrainConfig field of that type; None otherwise (a flag
    without a type: a string)."""
    where, _, name = field.partition(".")
    t = _FIELD_TYPES.get(where, {}).get(name)
    return t if t in (int, float) else None


def _plain(group: str, fields: str) -> tuple[Setting, ...]:
    """Settings whose flag is their config field's name (`train.lr_scale`: --lr-scale)."""
    return tuple(Setting("--" + f.split(".", 1)[1].replace("_", "-"), group, field=f)
                 for f in fields.split())


def _supervised_heads(args: argparse.Namespace) -> None:
    supervise.HeadTarget.parse_many(args.supervise_head, args.supervise_weight)


def _source_span(args: argparse.Namespace) -> None:
    if args.supervise_head is None or not any(
            h.kind == "encoder_self"
            for h in supervise.HeadTarget.parse_many(args.supervise_head, args.supervise_weight)):
        raise ValueError("names what a supervised encoder_self head looks at: give "
                         "--supervise-head with an encoder_self head too")


def _interchange_head(args: argparse.Namespace) -> None:
    interchange.InterchangeHead.parse_many(args.interchange_head, args.interchange_weight,
                                           args.interchange_pairs)


def _distill_weight(args: argparse.Namespace) -> None:
    w = args.distill_weight
    if not (w >= 0 and w != float("inf")):
        raise ValueError(f"--distill-weight must be a finite number of at least 0 (got {w})")


S = Setting
SCHEMA: tuple[Setting, ...] = (
    S("--task", choices=TaskChoices(TASKS), field="train.task",
      help="what to learn (default copy; on --resume: the run's), or MODULE:FUNCTION: your own "
           "corpus builder (transformer/data/builders.py)"),
    S("--data-dir", field="extra.data_dir", help="Multi30k folder (train.en, train.de, val.en, ...)"),
    S("--src-lang", default="en", field="extra.src_lang"),
    S("--tgt-lang", default="de", field="extra.tgt_lang"),
    S("--tsv", field="extra.tsv", help="a TSV corpus: source<TAB>target per line"),
    S("--src-file", field="extra.src_file"),
    S("--tgt-file", field="extra.tgt_file"),
    S("--task-opt", repeat=True, default=[], metavar="KEY=VALUE", field="extra.task_opts",
      help="a task option: a synthetic task's, passed to transformer.data.tasks.load_task (e.g. "
           "max_len=12), or a corpus builder's keyword"),
    S("--preset", MODEL, choices=tuple(sorted(PRESETS)), field="extra.model.preset"),
    S("--d-model", MODEL, field="model.d_model"),
    S("--heads", MODEL, field="model.n_heads"),
    S("--layers", MODEL, field=("model.n_encoder_layers", "model.n_decoder_layers"),
      help="encoder and decoder layers"),
    S("--enc-layers", MODEL, field="model.n_encoder_layers"),
    S("--dec-layers", MODEL, field="model.n_decoder_layers"),
    *_plain(MODEL, "model.d_ff model.dropout"),
    S("--attn-dropout", MODEL, field="model.attn_dropout",
      help="dropout on attention weights (default 0: keeps the fused CPU kernel)"),
    *_plain(MODEL, "model.max_len"),
    S("--norm-first", MODEL, switch=True, field="model.norm_first", value=True, help="pre-LN"),
    S("--learned-pe", MODEL, switch=True, field="model.positional", value="learned"),
    S("--no-tie", MODEL, switch=True, field="model.tie_embeddings", value=False,
      help="separate embeddings"),
    S("--vocab-size", MODEL, type=int, field="extra.vocab_size",
      help="SentencePiece vocabulary (a soft limit)"),
    *_plain(TRAINING, "train.steps train.epochs train.batch_tokens train.warmup train.lr_scale "
                      "train.label_smoothing train.grad_clip train.weight_decay train.eval_every"),
    S("--eval-sentences", TRAINING, type=int, field="extra.eval_sentences",
      help="validation sentences decoded per evaluation (default 500 synthetic, 200 translation)"),
    S("--supervise-head", TRAINING, metavar="KIND:LAYER:HEAD[,...]", field="extra.supervise.head",
      check=_supervised_heads, help="attention supervision: an extra loss teaching this head (decoder_self or "
           "encoder_self; several separated by commas) to attend from a pronoun to its "
           "antecedent, on training pairs that say where both are (anaphora, classroom); see "
           "transformer/probing/supervise.py"),
    S("--supervise-weight", TRAINING, type=float, default=1.0, field="extra.supervise.weight",
      help="weight of that loss (default 1.0)"),
    S("--supervise-source-span", TRAINING, choices=supervise.SPANS,
      field="extra.supervise_source_span", check=_source_span,
      help="what an encoder_self head is taught to look at: the antecedent's noun phrase "
           "('phrase', the default: 'the dog') or its noun alone ('noun': 'dog'; an English "
           "article carries no gender)"),
    S("--interchange-head", TRAINING, metavar="KIND:LAYER:HEAD[,...]",
      field="extra.interchange.head", check=_interchange_head,
      help="interchange-intervention training: swap this head's output (encoder_self: at 'it'; "
           "decoder_self: where the German pronoun is written; several separated by commas, "
           "each in its own pass) between the two sentences of a generated minimal pair and ask "
           "for the partner's German pronoun, so that the pronoun's choice runs through the "
           "head (switching it off then changes the pronoun); see "
           "transformer/probing/interchange.py"),
    S("--interchange-weight", TRAINING, type=float, default=1.0,
      field="extra.interchange.weight", help="weight of that loss (default 1.0)"),
    S("--interchange-pairs", TRAINING, type=int, default=16, field="extra.interchange.pairs",
      help="minimal pairs swapped per step (default 16)"),
    S("--distill-from", TRAINING, metavar="CHECKPOINT", field="extra.distill.checkpoint",
      check=_distill_weight,
      help="add a KL loss to this checkpoint's next-piece distributions (same vocabulary), so a "
           "fine-tune keeps its translations elsewhere; see transformer/train/distill.py"),
    S("--distill-weight", TRAINING, type=float, default=1.0, field="extra.distill.weight",
      help="weight of that loss (default 1.0)"),
    S("--train-only", TRAINING, metavar="PREFIX[,...]", field="extra.train_only",
      check=lambda a: a.train_only is None or freeze.parse_prefixes(a.train_only),
      help="fine-tune only the parameters under these names (e.g. encoder.layers.2,"
           "decoder.layers.2.cross_attn), or one head's query and key rows (KIND:LAYER:HEAD:qk, "
           "e.g. encoder_self:2:0:qk), or the feed-forward units from N on (ffn:N+, after "
           "recipes.surgery.grow); the rest keep the starting weights exactly; see "
           "transformer/train/freeze.py"),
    *_plain(TRAINING, "train.checkpoint_every"),
    S("--keep-checkpoints", TRAINING, type=int, field="extra.keep_checkpoints",
      help="step checkpoints kept besides best and last (0 = all; default: all for the synthetic "
           "tasks, whose checkpoints are small, 3 for translation)"),
    S("--log-every", TRAINING, type=int, default=10),
    S("--device", TRAINING, field="train.device", help="auto, cpu or cuda"),
    *_plain(TRAINING, "train.seed"),
    S("--threads", TRAINING, type=int, help="CPU threads (default: all cores; the app passes 1)"),
    S("--out", RUN, required=True, help="run directory (created)"),
    S("--resume", RUN, switch=True, value=True, default=False,
      help="continue the run in --out from its last checkpoint"),
    S("--init", RUN, metavar="CHECKPOINT", field="extra.init",
      help="start from this checkpoint's weights, vocabulary and model settings (fine-tuning; "
           "the model flags are ignored)"),
    S("--slots-root", RUN, help=argparse.SUPPRESS),  # launcher's lock folder, freed on exit
)
del S
BY_FLAG: dict[str, Setting] = {s.flag: s for s in SCHEMA}
# Where a setting's fallback lives when neither the flag nor the task gives one.
_FALLBACK = {"extra.vocab_size": ModelConfig().vocab_size,
             "extra.keep_checkpoints": KEEP_STEP_CHECKPOINTS, "extra.model.preset": "tiny"}


def config_default(name: str) -> Any:
    """The dataclass default of a "train.NAME" or "model.NAME" field (or the fallback of an extra)."""
    if name in _FALLBACK:
        return _FALLBACK[name]
    where, _, attr = name.partition(".")
    cls = {"train": TrainConfig, "model": ModelConfig}.get(where)
    if cls is None:
        return None
    f = {f.name: f for f in dataclasses.fields(cls)}[attr]
    return f.default


def build_parser(prog: str = "python -m transformer.train") -> argparse.ArgumentParser:
    """The command line, generated from SCHEMA (``prog``: the launcher's name, which a recipe's
    launcher passes so that its usage and errors name the command the user typed)."""
    p = argparse.ArgumentParser(prog=prog,
                                description="Train an encoder-decoder Transformer.")
    groups: dict[str | None, Any] = {DATA: p}
    for s in SCHEMA:
        if s.group not in groups:
            groups[s.group] = p.add_argument_group(s.group)
        kw: dict[str, Any] = {"default": s.default}
        if s.switch:
            kw["action"] = "store_true"
        elif s.repeat:
            kw["action"] = "append"
        for k in ("type", "choices", "metavar", "help"):
            if getattr(s, k) is not None:
                kw[k] = getattr(s, k)
        if s.required:
            kw["required"] = True
        groups[s.group].add_argument(s.flag, **kw)
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


def _given(args: argparse.Namespace, s: Setting) -> bool:
    v = getattr(args, s.dest, None)
    return bool(v) if s.switch else v is not None


def _extra_groups() -> dict[str, list[Setting]]:
    """GROUP -> its settings, for the "extra.GROUP.NAME" fields (the model's are apart)."""
    out: dict[str, list[Setting]] = {}
    for s in SCHEMA:
        parts = s.fields[0].split(".") if s.fields else []
        if len(parts) == 3 and parts[0] == "extra" and parts[1] != "model":
            out.setdefault(parts[1], []).append(s)
    return out


def resolve_settings(args: argparse.Namespace) -> tuple[dict, TrainConfig]:
    """(model overrides incl. preset name, TrainConfig) from flags, task defaults, then the
    configs' defaults. Raises ValueError (from the dataclasses, naming the field) for impossible
    values."""
    task = args.task or "copy"
    d = TASK_DEFAULTS.get(task, BUILDER_DEFAULTS)

    def pick(s: Setting) -> Any:
        name = s.fields[0].rsplit(".", 1)[1]
        if _given(args, s):
            return getattr(args, s.dest)
        return d.get(name, config_default(s.fields[0]))

    # the model: a preset, then each field a flag or the task gives (the preset has the rest)
    model: dict[str, Any] = {"preset": pick(BY_FLAG["--preset"])}
    for s in SCHEMA:
        if s.fields and s.fields[0].startswith("model."):
            value = (s.value if s.switch else getattr(args, s.dest)) if _given(args, s) \
                else d.get(s.dest)
            for f in (s.fields if value is not None else ()):
                model[f.split(".", 1)[1]] = value

    # training: each train.* field from its flag, the task, the dataclass; epochs only when
    # --steps is not given (--steps alone means "this many steps", whatever the task's epochs)
    train = {s.fields[0].split(".", 1)[1]: pick(s) for s in SCHEMA
             if s.fields and s.fields[0].startswith("train.")}
    train["task"] = task
    train["device"] = args.device or "auto"
    if args.epochs is None:
        train["epochs"] = 0.0 if args.steps is not None else d.get("epochs", 0.0)
    train["epochs"] = float(train["epochs"])
    extra = {s.fields[0].split(".", 1)[1]: getattr(args, s.dest) for s in SCHEMA
             if s.fields and s.fields[0].startswith("extra.") and s.fields[0].count(".") == 1}
    extra.pop("init", None)  # set by the run when the checkpoint loads
    for only_given in ("train_only", "supervise_source_span"):  # recorded only when asked for
        if extra.get(only_given) is None:
            extra.pop(only_given, None)
    for name in ("vocab_size", "keep_checkpoints"):
        extra[name] = pick(BY_FLAG["--" + name.replace("_", "-")])
    extra["task_opts"] = _parse_task_opts(args.task_opt)
    extra["model"] = model
    for group, members in _extra_groups().items():  # supervise: {"head": ..., "weight": ...}
        if _given(args, members[0]):
            extra[group] = {m.fields[0].rsplit(".", 1)[1]: getattr(args, m.dest) for m in members}
    tc = TrainConfig(**train, extra=extra)
    if task in SYNTHETIC:
        check_task_opts(task, tc.extra["task_opts"])
    if not isinstance(tc.extra["vocab_size"], int) or tc.extra["vocab_size"] < 5:
        raise ValueError(f"vocab_size: must be an integer of at least 5 (got {tc.extra['vocab_size']!r})")
    # Check the model shape now (vocab comes later from the tokenizer; 8000 is a stand-in).
    shape = {k: v for k, v in model.items() if k != "preset"}
    make_preset(model["preset"], vocab_size=max(8000, tc.extra["vocab_size"]), **shape)
    for s in SCHEMA:
        if s.check is not None and _given(args, s):
            try:
                s.check(args)
            except ValueError as e:
                raise UsageError(f"{s.flag}: {e}") from None
    return model, tc


# ============================================================================== settings.json
SETTINGS_FILE = "settings.json"


def settings_record(model_cfg: ModelConfig, tc: TrainConfig, argv: list[str],
                    args: argparse.Namespace | None = None) -> dict:
    """What a run was started with, resolved: the model and training configs, the command line,
    the flags as parsed, and the versions that ran it."""

    return {"model": model_cfg.to_dict(), "train": tc.to_dict(), "argv": [str(a) for a in argv],
            "flags": {k: v for k, v in sorted(vars(args).items())} if args is not None else {},
            "versions": {"attention_lab": __version__, "python": platform.python_version(),
                         "torch": torch.__version__}}


def write_settings(run_dir, record: dict) -> None:
    runs.write_json_atomic(Path(run_dir) / SETTINGS_FILE, record)


def read_settings(run_dir) -> tuple[ModelConfig, TrainConfig, dict] | None:
    """(ModelConfig, TrainConfig, the whole record) from RUN_DIR/settings.json; None when the run
    has none (older runs, or one that has not built its model yet). ValueError when the file is
    there but not a valid record."""
    rec = runs.read_json(Path(run_dir) / SETTINGS_FILE, None)
    if rec is None:
        return None
    if not isinstance(rec, dict) or not isinstance(rec.get("model"), dict):
        raise ValueError(f"{SETTINGS_FILE}: not a settings record")
    return ModelConfig.from_dict(rec["model"]), TrainConfig.from_dict(rec["train"]), rec


# ============================================================================== the Train page's form
@dataclass(frozen=True)
class FormField:
    """One input of the Train page's form: `name` is the flag's dest, `kind` int, float or bool
    (a switch: True means the flag is given), `default` what the trainer would use."""

    name: str
    kind: str
    flag: str
    group: str  # "model" or "train"
    default: Any
    help: str | None


# chosen elsewhere on the page (preset, device), or not offered there
NOT_IN_FORM = ("--preset", "--layers", "--supervise-head", "--supervise-weight",
               "--supervise-source-span",
               "--interchange-head", "--interchange-weight", "--interchange-pairs", "--train-only",
               "--distill-from", "--distill-weight", "--device", "--threads")


def form_fields(task: str, preset: str | None = None) -> list[FormField]:
    """The model and training settings a form offers, in the CLI's order, each with the value the
    trainer would use for TASK (and PRESET, else the task's) when the flag is left out."""
    argv = ["--out", "-", "--task", task] + (["--preset", preset] if preset else [])
    args = build_parser().parse_args(argv)
    model, tc = resolve_settings(args)
    cfg = make_preset(model["preset"], **{k: v for k, v in model.items() if k != "preset"})
    known = {"train": tc.to_dict(), "extra": {**tc.extra, "eval_sentences": tc.extra[
        "eval_sentences"] or (500 if task in SYNTHETIC else 200)}, "model": cfg.to_dict()}
    out = []
    for s in SCHEMA:
        if s.group not in (MODEL, TRAINING) or s.flag in NOT_IN_FORM:
            continue
        where, _, name = s.fields[0].partition(".") if s.fields else ("", "", "")
        if s.switch:
            kind, default = "bool", known[where][name] == s.value
        else:
            kind = s.type.__name__
            default = known[where][name] if where else getattr(args, s.dest)
        out.append(FormField(s.dest, kind, s.flag, "model" if s.group == MODEL else "train",
                             default, s.help))
    return out


def form_argv(fields: list[FormField], values: dict[str, Any]) -> list[str]:
    """The flags for a form's values (a switch is given when its value is True)."""
    return [a for f in fields for a in _flag_args(BY_FLAG[f.flag], values.get(f.name, f.default))]


# ============================================================================== command lines
def _flag_args(s: Setting, value: Any) -> list[str]:
    if s.switch:
        return [s.flag] if value else []
    if s.repeat:
        return [a for v in value for a in (s.flag, str(v))]
    return [s.flag, str(value)]


def argv_for(values: dict[str, Any]) -> list[str]:
    """The trainer's flags for `values` (flag dest -> value: {"task": "copy", "steps": 50}), in
    the schema's order; a switch is given when its value is true. KeyError for a name that is
    no setting."""
    unknown = sorted(set(values) - {s.dest for s in SCHEMA})
    if unknown:
        raise KeyError(f"not a training setting: {', '.join(unknown)}")
    return [a for s in SCHEMA if s.dest in values for a in _flag_args(s, values[s.dest])]
