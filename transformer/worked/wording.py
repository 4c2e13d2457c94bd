"""What the worked examples have to say, as data: a :class:`Verdict` is a code and its
parameters, an :class:`InputError` an input the core cannot use, as a code and its parameters;
never prose. The sentences are keyed ``v_<code>``: English in ``transformer/worked/english.py``
(which ``ui/strings/worked_examples.py`` takes in), every other language in ui/locales/<code>.json;
``transformer/worked/words.py`` renders a code in one language (the page through ui/worked_text.py
in the reader's, the CLI in English).

A parameter that is a dict ``{"en": ..., "zh": ...}`` is the examples file's own text in both
languages (a title, entry labels), read in the language rendered.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Verdict:
    """What the core has to say about a number, as ``code`` (a ``v_<code>`` key of
    transformer/worked/english.py) and its ``params``."""

    code: str
    params: dict = field(default_factory=dict, hash=False)

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "params": plain(self.params)}


class InputError(ValueError):
    """An input the worked-examples core cannot use, as ``code`` (a ``v_err_<code>`` key of
    transformer/worked/english.py without the ``v_``) and ``params``; ``str()`` is the code and its
    parameters (transformer.worked.words.Words.error_text says it in words)."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(code + "".join(f" {k}={v!r}" for k, v in params.items()))


def plain(x: Any) -> Any:
    """Verdicts (also inside lists, tuples and dicts) as JSON-ready dicts."""
    if isinstance(x, Verdict):
        return x.to_dict()
    if isinstance(x, dict):
        return {k: plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    return x


def sort_key(v: Verdict) -> tuple:
    """A stable order of verdicts by code, then parameters (no words needed)."""
    return v.code, repr(sorted(v.params.items()))
