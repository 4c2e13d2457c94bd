"""Sentences of the worked examples as data: a :class:`Verdict` is a code and its parameters,
never prose. The wording, English and Chinese, lives with the other UI strings
(``ui/strings/worked.py``, keys ``v_<code>``); :func:`render` fills it in for one language. The
page renders in the reader's language, the CLI in English; ``--json`` carries both renderings.

A parameter that is a dict ``{"en": ..., "zh": ...}`` is the examples file's own text in both
languages (a title, entry labels) and is read in the language rendered.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from ui.strings import worked as _strings  # pure data: one EN and one ZH dict

LANGS = ("en", "zh")


@dataclass(frozen=True)
class Verdict:
    """What the core has to say about a number, as ``code`` (a ``v_<code>`` key of
    ui/strings/worked.py) and its ``params``."""

    code: str
    params: dict = field(default_factory=dict, hash=False)

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "params": self.params}


def _table(lang: str) -> dict[str, str]:
    return _strings.ZH if lang == "zh" else _strings.EN


def word(key: str, lang: str = "en", **params: Any) -> str:
    """One ``v_<key>`` string of ui/strings/worked.py in ``lang`` (English where ZH lacks it)."""
    text = _table(lang).get("v_" + key, _strings.EN["v_" + key])
    return text.format(**params) if params else text


def _in(value: Any, lang: str) -> Any:
    """A bilingual data value ({"en", "zh"}) in ``lang``; anything else as it is."""
    if isinstance(value, dict) and set(value) == set(LANGS):
        return value[lang]
    return value


def _check_disagree(p: dict, lang: str) -> str:
    labels = _in(p.get("labels"), lang)

    def where(ij: Sequence[int]) -> str:
        if labels is not None and len(ij) == 1:
            return labels[ij[0]]
        return "[" + ",".join(map(str, ij)) + "]"
    worst = word("sep", lang).join(word("check_entry", lang, where=where(e["at"]), notes=e["notes"], right=e["right"])
                                   for e in p["worst"])
    return word("check_disagree", lang, n=p["n"], total=p["total"], basis=word("basis_" + p["basis"], lang),
                worst=worst)


_COMPOSED = {"check_disagree": _check_disagree}


def render(verdicts: Verdict | Sequence[Verdict], lang: str = "en") -> str:
    """The sentence(s) in ``lang``: each verdict's string with its parameters filled in."""
    if isinstance(verdicts, Verdict):
        verdicts = [verdicts]
    out = []
    for v in verdicts:
        if v.code in _COMPOSED:
            out.append(_COMPOSED[v.code](v.params, lang))
            continue
        params = {k: _in(x, lang) for k, x in v.params.items()}
        if "basis" in params:
            params["basis"] = word("basis_" + params["basis"], lang)
        out.append(word(v.code, lang, **params))
    return "".join(out)
