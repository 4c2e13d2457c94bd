"""The worked examples' codes in words. The core (transformer/worked) says what it found as
:class:`~transformer.worked.wording.Verdict` codes with parameters and raises
:class:`~transformer.worked.wording.InputError` codes; this module puts them into sentences, each
code through ui.i18n.text with its string in ui/strings/worked_examples.py (keys ``v_<code>``). The page
renders in the reader's language, the CLI (`python -m transformer.worked`) in English.

A parameter that is a dict ``{"en": ..., "zh": ...}`` is the examples file's own text in both
languages (a title, entry labels) and is read in the language rendered. No streamlit here: the
CLI imports it.
"""
from __future__ import annotations

from typing import Any, Sequence

from transformer.worked.wording import InputError, Verdict
from ui import i18n
from ui.strings import worked_examples as strings


def word(key: str, lang: str = "en", **params: Any) -> str:
    """One ``v_<key>`` string of ui/strings/worked_examples.py in ``lang``."""
    return i18n.text(strings, "v_" + key, lang, **params)


def error_text(e: Exception, lang: str = "en") -> str:
    """An error shown to the reader: an :class:`InputError` in ``lang`` (the input named "mask"
    named in that language too), anything else as raised."""
    if not isinstance(e, InputError):
        return str(e)
    params = {k: (word("err_name_mask", lang) if k == "n" and v == "mask" else v) for k, v in e.params.items()}
    return word(e.code, lang, **params)


def short_name(name: str, lang: str = "en") -> str:
    """A step name as prose: "head1.QK_T" -> "head 1 Q·Kᵀ" (头 1 in Chinese); "addnorm.std" -> "row stds"."""
    parts = name.split(".")
    head = parts[0] if parts[0].startswith("head") else None
    base = parts[1] if head else (parts[1] if parts[0] == "addnorm" and len(parts) > 1 else parts[0])
    key = "addnorm_output" if parts[0] == "addnorm" and base == "output" else base
    text = word("short_" + key, lang) if "v_short_" + key in strings.EN else base
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
    return i18n.pick(value, lang)


def render(verdicts: Verdict | Sequence[Verdict] | None, lang: str = "en") -> str:
    """The sentence(s) in ``lang``: each verdict's string with its parameters filled in."""
    if verdicts is None:
        return ""
    if isinstance(verdicts, Verdict):
        verdicts = [verdicts]
    out = []
    for v in verdicts:
        p = v.params
        if v.code == "raw":  # a name with no label of its own
            out.append(str(i18n.pick(p["text"], lang)))
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


def step_text(step: Any, lang: str = "en") -> str:
    """A step's note and verdict in ``lang`` (as the page and the CLI show them)."""
    return note_text(step.note, step.verdict_note, lang)


def entry_labels(check: Any, lang: str = "en") -> list[str] | None:
    """A check's entry labels in ``lang`` (None: the entries go by their index)."""
    return None if check.labels is None else [render(v, lang) for v in check.labels]


def input_label(key: str, lang: str = "en") -> str:
    """How an example's input is named on the page (never the examples file's key)."""
    return word("input_" + key, lang) if "v_input_" + key in strings.EN else key


def fixed_input_text(key: str, spec: str, lang: str = "en") -> str:
    """An input the examples file gives as text ("identity(3)", "X") in words."""
    import re

    m = re.fullmatch(r"\s*identity\((\d+)\)\s*", spec)
    what = word("input_identity", lang, n=m.group(1)) if m else input_label(spec, lang)
    return f"{input_label(key, lang)} = {what}"
