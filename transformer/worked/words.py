"""The worked examples' codes in words. The core says what it found as
:class:`~transformer.worked.wording.Verdict` codes with parameters and raises
:class:`~transformer.worked.wording.InputError` codes; :class:`Words` puts them into sentences,
each code's ``v_<code>`` string looked up by key and language through the lookup it is given.

:data:`WORDS` is the command line's (``python -m transformer.worked``), no UI imported: English
from the core's own table (transformer/worked/english.py); another language, which only ``--json``
asks for (its ``*_zh`` fields), from that language's translation file, read as data
(ui/locales/<code>.json, section "worked_examples": the same file and keys the app reads). The app
binds the same renderer to its translator (ui/worked_text.py: ui.i18n.text over
ui/strings/worked_examples.py, whose EN dict takes in this table), so the page says the codes in the
reader's language.

A parameter that is a dict ``{"en": ..., "zh": ...}`` is the examples file's own text in both
languages (a title, entry labels) and is read in the language rendered.
"""
from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any, Callable, Sequence

from transformer.worked import english
from transformer.worked.wording import InputError, Verdict

# lookup(key, lang, **params) -> the sentence of ``key`` ("v_<code>") in ``lang``, params filled in
Lookup = Callable[..., str]


def _pick(value: Any, lang: str) -> Any:
    """A bilingual data value in ``lang`` (English where that language is missing or empty)."""
    if isinstance(value, dict) and "en" in value:
        return value.get(lang) or value["en"]
    return value


# the app's translation files (data; ui/i18n.py reads the same ones): {module: {key: sentence}}
LOCALES = Path(__file__).resolve().parents[2] / "ui" / "locales"
SECTION = "worked_examples"  # the strings module whose EN dict holds english.EN


@functools.cache
def _translated(lang: str) -> dict[str, str]:
    return json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8")).get(SECTION, {})


def table_text(key: str, lang: str = "en", /, **params: Any) -> str:
    """``key`` in ``lang`` with ``params`` filled in, as ui.i18n.text renders it: English from
    english.EN, another language from its translation file (English where that lacks the key); a
    key left out (english.SKIP) renders as ""."""
    if key in english.SKIP:
        return ""
    out = (lang != "en" and _translated(lang).get(key)) or english.EN[key]
    return out.format(**params) if params else out


class Words:
    """The worked examples' codes as sentences, each ``v_<code>`` string from ``lookup``."""

    def __init__(self, lookup: Lookup) -> None:
        self.lookup = lookup

    def word(self, key: str, lang: str = "en", **params: Any) -> str:
        """One ``v_<key>`` string in ``lang``."""
        return self.lookup("v_" + key, lang, **params)

    def error_text(self, e: Exception, lang: str = "en") -> str:
        """An error shown to the reader: an :class:`InputError` in ``lang`` (the input named "mask"
        named in that language too), anything else as raised."""
        if not isinstance(e, InputError):
            return str(e)
        params = {k: (self.word("err_name_mask", lang) if k == "n" and v == "mask" else v)
                  for k, v in e.params.items()}
        return self.word(e.code, lang, **params)

    def short_name(self, name: str, lang: str = "en") -> str:
        """A step name as prose: "head1.QK_T" -> "head 1 Q·Kᵀ" (in Chinese its word for head); "addnorm.std" -> "row stds"."""
        parts = name.split(".")
        head = parts[0] if parts[0].startswith("head") else None
        base = parts[1] if head else (parts[1] if parts[0] == "addnorm" and len(parts) > 1 else parts[0])
        key = "addnorm_output" if parts[0] == "addnorm" and base == "output" else base
        text = self.word("short_" + key, lang) if "v_short_" + key in english.EN else base
        return self.word("short_head", lang, n=head[4:], word=text) if head else text

    def origin_text(self, origin: str | None, lang: str = "en") -> str:
        """A step's ``origin`` (step names joined by ", ") in words."""
        if not origin:
            return ""
        return self.word("sep_names", lang).join(self.short_name(n.strip(), lang) for n in origin.split(","))

    def _entries(self, code: str, entries: Sequence[dict], lang: str, labels: Any = None) -> str:
        def where(ij: Sequence[int]) -> str:
            if labels is not None and len(ij) == 1:
                return labels[ij[0]]
            return ",".join(map(str, ij)) if code == "step_entry" else "[" + ",".join(map(str, ij)) + "]"
        return self.word("sep", lang).join(
            self.word(code, lang, at=where(e["at"]), where=where(e["at"]), notes=e["notes"], right=e["right"])
            for e in entries)

    def _param(self, key: str, value: Any, lang: str) -> Any:
        if isinstance(value, Verdict):
            return self.render(value, lang)
        if isinstance(value, list) and value and all(isinstance(v, Verdict) for v in value):
            return self.word("sep", lang).join(self.render(v, lang) for v in value)
        if key == "steps":
            return self.origin_text(", ".join(value), lang)
        if key == "basis":
            return self.word("basis_" + value, lang)
        return _pick(value, lang)

    def render(self, verdicts: Verdict | Sequence[Verdict] | None, lang: str = "en") -> str:
        """The sentence(s) in ``lang``: each verdict's string with its parameters filled in."""
        if verdicts is None:
            return ""
        if isinstance(verdicts, Verdict):
            verdicts = [verdicts]
        out = []
        for v in verdicts:
            p = v.params
            if v.code == "raw":  # a name with no label of its own
                out.append(str(_pick(p["text"], lang)))
                continue
            params = {k: self._param(k, x, lang) for k, x in p.items() if k not in ("worst", "parts")}
            if "worst" in p:
                entry = "check_entry" if v.code == "check_disagree" else "step_entry"
                labels = None if p.get("labels") is None else [self.render(x, lang) for x in p["labels"]]
                params["worst"] = self._entries(entry, p["worst"], lang, labels)
            if "parts" in p:
                params["parts"] = self.word("sep", lang).join(
                    self.word("partial_part", lang, label=self.render(lab, lang), k=k, n=p["n"])
                    for lab, k in p["parts"])
            out.append(self.word(v.code, lang, **params))
        return "".join(out)

    def note_text(self, note: Sequence[Verdict], verdict: Sequence[Verdict], lang: str = "en") -> str:
        """A step's note (how it is computed) and its verdict, joined as one text."""
        a, b = self.render(note, lang), self.render(verdict, lang)
        return self.word("join", lang, a=a, b=b) if a and b else a or b

    def step_text(self, step: Any, lang: str = "en") -> str:
        """A step's note and verdict in ``lang`` (as the page and the CLI show them)."""
        return self.note_text(step.note, step.verdict_note, lang)

    def entry_labels(self, check: Any, lang: str = "en") -> list[str] | None:
        """A check's entry labels in ``lang`` (None: the entries go by their index)."""
        return None if check.labels is None else [self.render(v, lang) for v in check.labels]

    def input_label(self, key: str, lang: str = "en") -> str:
        """How an example's input is named on the page (never the examples file's key)."""
        return self.word("input_" + key, lang) if "v_input_" + key in english.EN else key

    def fixed_input_text(self, key: str, spec: str, lang: str = "en") -> str:
        """An input the examples file gives as text ("identity(3)", "X") in words."""
        m = re.fullmatch(r"\s*identity\((\d+)\)\s*", spec)
        what = self.word("input_identity", lang, n=m.group(1)) if m else self.input_label(spec, lang)
        return f"{self.input_label(key, lang)} = {what}"


WORDS = Words(table_text)  # the command line's words
