"""Statements in words ("the notes say X; in fact Y"), written in both languages in the examples
file, with the evidence a computation gives for the "in fact" (computed here, never typed).

Each statement has a verdict, as a step and a check have: ``slip`` (the notes' words are wrong;
every statement shipped today) or ``agrees``. A statement tied to an example (``example``) is part
of that example's result (``python -m transformer.worked ID --json`` lists it under
``statements`` and counts it in the summary); one about the notes in general (``example`` null)
is listed by ``python -m transformer.worked --statements``. ``where`` says in words where in the
notes the words are, ``page`` which page of the app shows the subject."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from transformer.core.numeric import softmax
from transformer.worked.checks import _as_list


# --------------------------------------------------------------------------------------------
# Statements in words, with computed evidence


@dataclass
class Evidence:
    """A small table computed to back a statement's "in fact": column keys (the page names
    them in both languages) and rows of numbers."""

    columns: list[str]
    rows: list[list[float]]


STATEMENT_VERDICTS = ("slip", "agrees")


@dataclass
class Statement:
    """"The notes say X; in fact Y", with the notes' own words quoted, and its verdict."""

    id: str
    example: str | None
    title: dict  # each of title, says, fact, where: {"en", "zh"}, the examples file's own (data)
    quote: list[str]
    says: dict
    fact: dict
    page: str | None = None
    evidence: Evidence | None = None
    verdict: str = "slip"
    where: dict = field(default_factory=dict)

    @property
    def agrees(self) -> bool:
        return self.verdict == "agrees"

    def to_dict(self) -> dict[str, Any]:
        ev = None if self.evidence is None else {"columns": self.evidence.columns, "rows": self.evidence.rows}
        return {"id": self.id, "example": self.example, "verdict": self.verdict,
                "title_en": self.title["en"], "title_zh": self.title["zh"],
                "where_en": self.where.get("en", ""), "where_zh": self.where.get("zh", ""), "quote": self.quote,
                "says_en": self.says["en"], "says_zh": self.says["zh"],
                "fact_en": self.fact["en"], "fact_zh": self.fact["zh"], "page": self.page, "evidence": ev}


def statements_summary(found: list[Statement]) -> dict[str, int]:
    """How many statements there are, and how many the notes get right / wrong."""
    bad = sum(1 for s in found if not s.agrees)
    return {"statements": len(found), "statements_agree": len(found) - bad, "statements_disagree": bad}


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


@evidence("pe_parity")
def _pe_parity(args: dict) -> Evidence:
    """PE(pos, dim) for a few positions and dimensions, beside sin and cos of the dimension's
    angle pos/10000^(2i/d): the value is the sine in every even dimension and the cosine in every
    odd one, at even and odd positions alike."""
    d = int(args["d_model"])
    rows = []
    for pos in args["positions"]:
        for k in args["dims"]:
            angle = pos / 10000.0 ** (2 * (k // 2) / d)
            pe = math.sin(angle) if k % 2 == 0 else math.cos(angle)
            rows.append([float(pos), float(k), pe, math.sin(angle), math.cos(angle)])
    return Evidence(["position", "dimension", "pe", "sin", "cos"], rows)


@evidence("layer_costs")
def _layer_costs(args: dict) -> Evidence:
    """Multiplications of one layer over n positions of width d, in millions: self-attention
    n²·d (every pair of positions, one d-long dot product), recurrent n·d² (a d × d matrix times a
    d-vector at each position), convolution k·n·d² (k such products); and the notes' d·n and k·d·n."""
    d, k = int(args["d"]), int(args["k"])
    rows = [[float(n), float(d)] + [c / 1e6 for c in (n * n * d, n * d * d, k * n * d * d, d * n, k * d * n)]
            for n in args["n"]]
    return Evidence(["n", "d", "self_attention", "recurrent", "convolution", "notes_recurrent",
                     "notes_convolution"], rows)


@evidence("label_smoothing_floor")
def _label_smoothing_floor(args: dict) -> Evidence:
    """The prediction that minimises the label-smoothed loss is the smoothed target itself: the
    right token gets 1 − ε + ε/V (ε spread over the whole vocabulary), so that model's
    perplexity on the right tokens is 1/(1 − ε + ε/V); with ε = 0 it is 1."""
    v = float(args["vocab"])
    rows = []
    for eps in args["eps"]:
        p = 1 - eps + eps / v
        rows.append([float(eps), v, p, 1 / p])
    return Evidence(["epsilon", "vocabulary", "p_right", "perplexity"], rows)


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
        verdict = s.get("verdict", "slip")
        if verdict not in STATEMENT_VERDICTS:
            raise ValueError(f"statement {s['id']!r}: verdict must be one of {STATEMENT_VERDICTS}, got {verdict!r}")
        out.append(Statement(s["id"], s.get("example"), dict(s["title"]), _as_list(s["quote"]),
                             dict(s["says"]), dict(s["fact"]), s.get("page"), ev, verdict,
                             dict(s.get("where", {}))))
    return out
