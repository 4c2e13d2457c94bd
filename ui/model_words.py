"""Labels fit to the model (issue 50, 3): a model of a symbol task (copy, reverse, sort) reads and
writes symbols, not English and German words, so a section that names the languages ("remove each
English word", "German word to test") uses, for such a model, the variant of each string whose key
ends in `_sym` (where the strings module has one)."""
from __future__ import annotations

from types import ModuleType

from ui import i18n

SYMBOL_TASKS = ("copy", "reverse", "sort")


def is_symbols(train_config: dict | None) -> bool:
    """Whether the checkpoint's training task writes symbols rather than a language."""
    return (train_config or {}).get("task") in SYMBOL_TASKS


def translator(strings: ModuleType, train_config: dict | None, lang: str | None = None):
    """A translator of `strings` (the session's language, or `lang`) that, for a model of a symbol
    task, reads KEY_sym in place of KEY wherever the English table has KEY_sym."""
    base = i18n.translator(strings) if lang is None else (
        lambda key, **kw: i18n.text(strings, key, lang, **kw))
    sym = is_symbols(train_config)

    def t(key: str, **params) -> str:
        if sym and key + "_sym" in strings.EN:
            key += "_sym"
        return base(key, **params)

    return t
