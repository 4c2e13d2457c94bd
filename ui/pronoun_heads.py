"""Where the shipped models have their pronoun heads, read from their own cards (history.json
"featured_head" and its "also" list), so that every page that names them says the same thing as
the Attention page's featured-head box, which reads the same record (issue 50, 3: the Train page
said the shipped model's head was in the decoder while the Attention page, on the default model,
showed it in the encoder). Nothing here is written into prose by hand."""
from __future__ import annotations

import functools
import json
import os
from pathlib import Path

from transformer.core.names import Head
from ui import i18n, models, page_kit
from ui.shell import DEFAULT_CHECKPOINT
from ui.strings import train as strings


def default_name() -> str:
    """The shipped model a fresh session opens on (as the sidebar picks it)."""
    return os.environ.get("ATTENTION_LAB_DEFAULT", DEFAULT_CHECKPOINT)


@functools.lru_cache(maxsize=32)
def _card(path: str, stamp: float) -> tuple[str | None, tuple[Head, ...]]:
    """(task, pronoun heads: the featured one first) of the checkpoint at `path`."""
    try:
        history = json.loads((Path(path) / "history.json").read_text(encoding="utf-8"))
        config = json.loads((Path(path) / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None, ()
    task = ((config.get("train") or {}) if isinstance(config, dict) else {}).get("task")
    fh = page_kit.featured_head(history)
    if fh is None:
        return task, ()
    return task, (Head.from_dict(fh), *page_kit.also_heads(fh))


def heads_of(name: str) -> tuple[str | None, tuple[Head, ...]]:
    """The training task and the pronoun heads of the shipped checkpoint `name`."""
    path = models.shipped_dir() / name
    return _card(str(path), models.stamp(path))


def _where(heads, tr) -> str:
    return tr("heads_and").join(tr("head_in", kind=tr(f"kind_{h.kind}"), l=h.layer, h=h.head,
                                   label=h.label) for h in heads)


def text(task: str, lang: str | None = None) -> str:
    """One or two sentences: where the shipped model trained on `task` has its pronoun head(s),
    and where the app's default model has its own; "" when no shipped model has any."""
    tr = i18n.translator(strings) if lang is None else (
        lambda key, **kw: i18n.text(strings, key, lang, **kw))
    out = []
    default = default_name()
    shipped = sorted(c.label for c in models.available() if c.group == "shipped")
    for name in shipped:
        t_task, heads = heads_of(name)
        if t_task == task and heads and name != default:
            out.append(tr("heads_task", name=name, heads=_where(heads, tr)))
    _, heads = heads_of(default) if default in shipped else (None, ())
    if heads:
        out.append(tr("heads_default" if len(heads) > 1 else "heads_default_one", name=default,
                      heads=_where(heads, tr)))
    return " ".join(out)
