"""Statements in words ("the notes say X; in fact Y"), written in both languages in the examples
file, with the evidence a computation gives for the "in fact" (computed here, never typed)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from transformer.numeric import softmax
from transformer.worked.checks import _as_list


# --------------------------------------------------------------------------------------------
# Statements in words, with computed evidence


@dataclass
class Evidence:
    """A small table computed to back a statement's "in fact": column keys (the page names
    them in both languages) and rows of numbers."""

    columns: list[str]
    rows: list[list[float]]


@dataclass
class Statement:
    """"The notes say X; in fact Y", with the notes' own words quoted."""

    id: str
    example: str | None
    title_en: str
    title_zh: str
    quote: list[str]
    says_en: str
    says_zh: str
    fact_en: str
    fact_zh: str
    page: str | None = None
    evidence: Evidence | None = None

    def to_dict(self) -> dict[str, Any]:
        ev = None if self.evidence is None else {"columns": self.evidence.columns, "rows": self.evidence.rows}
        return {"id": self.id, "example": self.example, "title_en": self.title_en, "title_zh": self.title_zh,
                "quote": self.quote, "says_en": self.says_en, "says_zh": self.says_zh,
                "fact_en": self.fact_en, "fact_zh": self.fact_zh, "page": self.page, "evidence": ev}


EVIDENCE: dict[str, Callable[[dict], Evidence]] = {}


def evidence(name: str):
    def deco(fn):
        EVIDENCE[name] = fn
        return fn
    return deco


@evidence("pe_wavelengths")
def _pe_wavelengths(args: dict) -> Evidence:
    """Wavelength (in positions) of each listed dimension of the sinusoidal PE: dimensions 2i
    and 2i+1 turn at 1/10000^(2i/d) radians per position, so one period is 2π·10000^(2i/d)
    positions, which grows with the dimension."""
    rows = []
    for d, dims in zip(args["d_model"], args["dims"]):
        for k in dims:
            rows.append([float(d), float(k), 2 * math.pi * 10000.0 ** (2 * (k // 2) / d)])
    return Evidence(["d_model", "dimension", "wavelength"], rows)


@evidence("softmax_saturation")
def _softmax_saturation(args: dict) -> Evidence:
    """Two scores, softmaxed unscaled and divided by √d_k: the first weight p and its gradient
    ∂p/∂s = p(1 − p). Unscaled, p is almost exactly 1 and the gradient almost 0 (it vanishes,
    it does not explode)."""
    s = np.asarray(args["scores"], float)
    rows = []
    for div in (1.0, math.sqrt(args["d_k"])):
        z = s / div
        p = float(softmax(z)[0])
        rows.append([div, float(z[0]), float(z[1]), p, p * (1 - p)])
    return Evidence(["divisor", "score_1", "score_2", "weight_1", "gradient"], rows)


def load_statements(data: dict) -> list[Statement]:
    """The examples file's statements, with their evidence computed."""
    out = []
    for s in data.get("statements", []):
        ev = None
        if s.get("evidence"):
            name = s["evidence"]["compute"]
            if name not in EVIDENCE:
                raise ValueError(f"statement {s['id']!r}: unknown evidence {name!r}")
            ev = EVIDENCE[name](s["evidence"].get("args", {}))
        out.append(Statement(s["id"], s.get("example"), s["title"]["en"], s["title"]["zh"], _as_list(s["quote"]),
                             s["says"]["en"], s["says"]["zh"], s["fact"]["en"], s["fact"]["zh"],
                             s.get("page"), ev))
    return out
