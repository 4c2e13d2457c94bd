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
        return {"code": self.code, "params": plain(self.params)}


class InputError(ValueError):
    """An input the worked-examples core cannot use, as ``code`` (a ``v_err_<code>`` key of
    ui/strings/worked.py without the ``v_``) and ``params``; ``str()`` is the English message."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(word(code, "en", **params))

    def text(self, lang: str = "en") -> str:
        """The message in ``lang``; the input named "mask" is named in that language too."""
        params = {k: (word("err_name_mask", lang) if k == "n" and v == "mask" else v)
                  for k, v in self.params.items()}
        return word(self.code, lang, **params)


def error_text(e: Exception, lang: str = "en") -> str:
    """An error shown to the reader: an :class:`InputError` in ``lang``, anything else as raised."""
    return e.text(lang) if isinstance(e, InputError) else str(e)


def plain(x: Any) -> Any:
    """Verdicts (also inside lists, tuples and dicts) as JSON-ready dicts."""
    if isinstance(x, Verdict):
        return x.to_dict()
    if isinstance(x, dict):
        return {k: plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    return x


def _table(lang: str) -> dict[str, str]:
    return _strings.ZH if lang == "zh" else _strings.EN


def word(key: str, lang: str = "en", **params: Any) -> str:
    """One ``v_<key>`` string of ui/strings/worked.py in ``lang`` (English where ZH lacks it);
    empty for a piece that ``lang`` leaves out (``V_SKIP``)."""
    if key in _strings.V_SKIP.get(lang, ()):
        return ""
    text = _table(lang).get("v_" + key, _strings.EN["v_" + key])
    return text.format(**params) if params else text


def _in(value: Any, lang: str) -> Any:
    """A bilingual data value ({"en", "zh"}) in ``lang``; anything else as it is."""
    if isinstance(value, dict) and set(value) == set(LANGS):
        return value[lang]
    return value


def short_name(name: str, lang: str = "en") -> str:
    """A step name as prose: "head1.QK_T" -> "head 1 Q·Kᵀ" / "头 1 的 Q·Kᵀ"; "addnorm.std" -> "row stds"."""
    parts = name.split(".")
    head = parts[0] if parts[0].startswith("head") else None
    base = parts[1] if head else (parts[1] if parts[0] == "addnorm" and len(parts) > 1 else parts[0])
    key = "addnorm_output" if parts[0] == "addnorm" and base == "output" else base
    text = word("short_" + key, lang) if "v_short_" + key in _strings.EN else base
    return word("short_head", lang, n=head[4:], word=text) if head else text


def origin_text(origin: str | None, lang: str = "en") -> str:
    """A step's ``origin`` (step names joined by ", ") in words."""
    if not origin:
        return ""
    return word("sep_names", lang).join(short_name(n.strip(), lang) for n in origin.split(","))


def _entries(code: str, entries: Sequence[dict], lang: str, labels: Any = None) -> str:
    def where(ij: Sequence[int]) -> str:
        if labels is not None and len(ij) == 1:
            return labels[ij[0]]
        return ",".join(map(str, ij)) if code == "step_entry" else "[" + ",".join(map(str, ij)) + "]"
    return word("sep", lang).join(word(code, lang, at=where(e["at"]), where=where(e["at"]), notes=e["notes"],
                                       right=e["right"]) for e in entries)


def _param(key: str, value: Any, lang: str) -> Any:
    if isinstance(value, Verdict):
        return render(value, lang)
    if isinstance(value, list) and value and all(isinstance(v, Verdict) for v in value):
        return word("sep", lang).join(render(v, lang) for v in value)
    if key == "steps":
        return origin_text(", ".join(value), lang)
    if key == "basis":
        return word("basis_" + value, lang)
    return _in(value, lang)


def render(verdicts: Verdict | Sequence[Verdict], lang: str = "en") -> str:
    """The sentence(s) in ``lang``: each verdict's string with its parameters filled in."""
    if isinstance(verdicts, Verdict):
        verdicts = [verdicts]
    out = []
    for v in verdicts:
        p = v.params
        if v.code == "raw":  # a name with no label of its own
            out.append(str(_in(p["text"], lang)))
            continue
        params = {k: _param(k, x, lang) for k, x in p.items() if k not in ("worst", "parts")}
        if "worst" in p:
            entry = "check_entry" if v.code == "check_disagree" else "step_entry"
            labels = None if p.get("labels") is None else [render(x, lang) for x in p["labels"]]
            params["worst"] = _entries(entry, p["worst"], lang, labels)
        if "parts" in p:
            params["parts"] = word("sep", lang).join(word("partial_part", lang, label=render(lab, lang), k=k, n=p["n"])
                                                     for lab, k in p["parts"])
        out.append(word(v.code, lang, **params))
    return "".join(out)


def note_text(note: Sequence[Verdict], verdict: Sequence[Verdict], lang: str = "en") -> str:
    """A step's note (how it is computed) and its verdict, joined as one text."""
    a, b = render(note, lang), render(verdict, lang)
    return word("join", lang, a=a, b=b) if a and b else a or b
