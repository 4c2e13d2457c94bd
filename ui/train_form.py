"""The Train page's form, generated from the trainer's settings schema
(transformer.train.settings.form_fields / form_argv), with the page's own defaults on top:

  * 10 step checkpoints kept (besides best and last), whatever the task;
  * for the synthetic tasks, a checkpoint at every evaluation, for "Attention across training".

A field's widget key is `train_p_<name>`, its label and help `l_<name>` / `h_<name>` in
ui/strings/train.py, where <name> is the flag's dest (`d_model`, `heads`, `no_tie`).
"""
from __future__ import annotations

import dataclasses
from typing import Any

from transformer.train.corpus import SYNTHETIC
from transformer.train.settings import FormField, form_argv, form_fields

KEEP_CHECKPOINTS = 10


def trainer_task(task: str) -> str:
    """The trainer's name for a task of the page ("upload" is a TSV corpus)."""
    return "tsv" if task == "upload" else task


def fields(task: str, preset: str) -> list[FormField]:
    """The form's fields for TASK and PRESET, each with the value the form starts with."""
    out = form_fields(trainer_task(task), preset)
    by = {f.name: f.default for f in out}
    over: dict[str, Any] = {"keep_checkpoints": KEEP_CHECKPOINTS}
    if task in SYNTHETIC:
        over["checkpoint_every"] = by["eval_every"]
    return [dataclasses.replace(f, default=over[f.name]) if f.name in over else f for f in out]


def argv(task: str, preset: str, form: list[FormField], values: dict[str, Any],
         data_flags: dict[str, str] | None = None, device: str = "auto") -> list[str]:
    """The trainer's command line (after `--out`) for the form's values."""
    args = ["--task", trainer_task(task), "--preset", preset]
    for k, v in (data_flags or {}).items():
        args += [k, v]
    return args + form_argv(form, values) + ["--device", device]
