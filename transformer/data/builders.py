"""Your own corpus builder: a training task given as ``module:function``.

    python -m transformer.train --task mypackage.mycorpus:build --data-dir DIR \\
        --task-opt size=20000 --out runs/mine

The function is imported when the run starts (importlib; the module must be importable: on
PYTHONPATH or beside the current directory) and called as

    function(data_dir, seed, **task_opts) -> (train, val, description)

* ``data_dir``: --data-dir (None when not given); ``seed``: --seed; ``task_opts``: the --task-opt
  values (integers where they parse as one);
* ``train``: the training pairs, a list of transformer.data.example.Example (``src``, ``tgt``,
  ``meta``: a pair's pronoun positions there feed --supervise-head);
* ``val``: validation sets by name, {name: [Example, ...]}: the trainer validates on the first and
  reports the second, if there is one, as held out;
* ``description``: one line naming the sources (the run's card shows it).

A ``ValueError`` it raises is a usage error: the trainer prints it as one line (after
"--task-opt: " unless the message names its own flag, "--data-dir: ...") and exits with status 2.
The function may carry ``keep_whole``, a tuple of pieces the trainer's tokenizer keeps whole
(SentencePiece user-defined symbols, e.g. "▁didn't").

A launcher may also give a builder a short name (``register``): recipes/everyday/train.py registers
"everyday", the mix that built the shipped default, and then calls the trainer, so a run of that
name resumes through the same launcher. The library itself never imports recipes/.
"""
from __future__ import annotations

import importlib
import re
from typing import Callable

Builder = Callable[..., tuple]
_REGISTERED: dict[str, Builder] = {}
# names of the shipped checkpoints' tasks whose builders live beside the library (recipes/), and the
# launcher that registers each: named in the error a plain `python -m transformer.train` gives
LAUNCHERS = {"everyday": "python -m recipes.everyday.train"}
_SPEC = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")


class BuilderError(ValueError):
    """A task that names no corpus builder that can be imported."""


def register(name: str, fn: Builder) -> None:
    """Give builder FN the task name NAME (for this process)."""
    if not callable(fn):
        raise TypeError(f"register({name!r}): not a function: {fn!r}")
    _REGISTERED[name] = fn


def is_builder_task(task: str | None) -> bool:
    """Whether TASK names a corpus builder: a registered name, "module:function", or one of the
    LAUNCHERS' names (which resolve only once their launcher has registered them)."""
    return bool(task) and (task in _REGISTERED or task in LAUNCHERS or ":" in task)


def resolve(task: str) -> Builder:
    """The builder TASK names; BuilderError saying why when it does not resolve."""
    if task in _REGISTERED:
        return _REGISTERED[task]
    if task in LAUNCHERS:
        raise BuilderError(f"--task: {task} is built by a recipe beside the library; run "
                           f"{LAUNCHERS[task]} with the same flags (it registers the task)")
    if not _SPEC.match(task):
        raise BuilderError(f"--task: {task!r} is not MODULE:FUNCTION (your own corpus builder, "
                           f"e.g. mypackage.corpus:build)")
    module, _, name = task.partition(":")
    try:
        mod = importlib.import_module(module)
    except ImportError as e:
        raise BuilderError(f"--task: cannot import {module} for {task} ({e}); is it on "
                           f"PYTHONPATH?") from None
    fn = getattr(mod, name, None)
    if not callable(fn):
        raise BuilderError(f"--task: {module} has no function {name} (for {task})")
    return fn


def keep_whole(task: str) -> tuple[str, ...]:
    """The pieces TASK's builder asks the tokenizer to keep whole (``keep_whole``), else ()."""
    if not is_builder_task(task):
        return ()
    return tuple(getattr(resolve(task), "keep_whole", ()))


def validation_sets(val: dict) -> tuple[list, list | None]:
    """(the set the trainer validates on, the held-out one reported beside it or None) of a
    builder's VAL."""
    sets = list(val.values())
    if not sets:
        raise BuilderError("the corpus builder returned no validation set")
    return sets[0], (sets[1] if len(sets) > 1 else None)
