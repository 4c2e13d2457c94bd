"""What the notes print outside an example's step-by-step matrices, recomputed; and what they say
in words, set against what is true.

:mod:`transformer.worked` checks the matrices of attention step by step. The notes also print
numbers that are not a step of that chain: hand-worked exponentials and their sum, the
denominators of a positional-encoding formula, a softmax written out term by term, the row
means of a LayerNorm output, the probabilities of a vocabulary softmax. Each such claim is
stored in the examples file *as the notes print it* (the text, e.g. ``"9.00 \\times 10^6"``), and
a *recipe* here recomputes it. A check is either

* ``exact``: the right number for the notes' statement (``e^{16.2658}`` is what it is, whatever
  the notes' earlier slips), or
* ``notes``: recomputed from the notes' *own* printed numbers (their Q·Kᵀ divided by their √6),
  so a disagreement is a slip of that very step, not an inherited one.

Agreement uses the rule of :mod:`transformer.worked`: half a unit in the last place the notes
print, read from the printed text itself (``"2300.00"`` is good to ±0.005; ``"9.00 \\times
10^6"`` to ±5000), plus the exact effect of the rounding of any printed number the recipe took
as input. An expression such as ``"\\sqrt{10000}"`` is exact (tolerance 0).

Statements ("the notes say X; in fact Y", :mod:`transformer.worked.statements`) are words, written
in both languages in the examples file; where a computation backs the "in fact", an *evidence*
recipe computes it there so that the page shows computed numbers, never typed ones.

Pure numpy, no Streamlit, no torch; :mod:`transformer.worked` calls :func:`run_checks`.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable

import numpy as np

from transformer.core.numeric import softmax
from transformer.worked.wording import Verdict

_TINY = 1e-9  # float noise allowance, relative to max(1, |value|)


# --------------------------------------------------------------------------------------------
# Printed numbers


_SCI = re.compile(r"^(-?\d+(?:\.\d+)?)\s*(?:\\times|×|x)\s*10\^\{?(-?\d+)\}?$")
_PLAIN = re.compile(r"^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$")
_SQRT = re.compile(r"^(?:\\sqrt\{(\d+(?:\.\d+)?)\}|√(\d+(?:\.\d+)?))$")


def parse_printed(text: Any) -> tuple[float, float]:
    """A number as the notes print it -> (value, half a unit in its last printed place).

    Accepts ``"2300.00"``, ``"-0.7568"``, ``"6.7e-08"``, ``"9.00 \\times 10^6"`` (LaTeX or ×),
    ``"\\sqrt{10000}"`` / ``"√10000"`` (an exact expression: tolerance 0) and ``"-inf"``.
    Numbers given as JSON numbers are read from their shortest text. ValueError otherwise."""
    if isinstance(text, bool):
        raise ValueError(f"not a printed number: {text!r}")
    if isinstance(text, (int, float)):
        text = repr(float(text)) if isinstance(text, float) else str(text)
    s = str(text).strip().replace("−", "-")
    if s in ("-inf", "-\\infty", "-∞"):
        return -math.inf, 0.0
    m = _SQRT.match(s)
    if m:
        return math.sqrt(float(m.group(1) or m.group(2))), 0.0
    m = _SCI.match(s)
    if m:
        mant, exp = m.group(1), int(m.group(2))
        return float(mant) * 10.0 ** exp, 0.5 * 10.0 ** (exp - _decimals(mant))
    if _PLAIN.match(s):
        mant, _, exp = s.lower().partition("e")
        e = int(exp) if exp else 0
        return float(s), 0.5 * 10.0 ** (e - _decimals(mant))
    raise ValueError(f"not a printed number: {text!r}")


def _decimals(mantissa: str) -> int:
    return len(mantissa.split(".")[1]) if "." in mantissa else 0


def printed_array(texts: Any) -> tuple[np.ndarray, np.ndarray]:
    """A printed list or table -> (values, per-entry tolerances), same shape."""
    arr = np.asarray(texts, dtype=object)
    vals = np.empty(arr.shape)
    tols = np.empty(arr.shape)
    for idx in np.ndindex(arr.shape):
        vals[idx], tols[idx] = parse_printed(arr[idx])
    return vals, tols


def _close(a: np.ndarray, b: np.ndarray, tol: np.ndarray) -> np.ndarray:
    a, b = np.broadcast_arrays(np.asarray(a, float), np.asarray(b, float))
    with np.errstate(invalid="ignore"):
        diff = np.abs(a - b)
    ok = diff <= tol + _TINY * np.maximum(1.0, np.abs(np.where(np.isfinite(a), a, 0)))
    same_inf = np.isinf(a) & np.isinf(b) & (np.sign(a) == np.sign(b))
    return np.where(np.isinf(a) | np.isinf(b), same_inf, ok & np.isfinite(diff))


# --------------------------------------------------------------------------------------------
# Checks


@dataclass
class Check:
    """One printed claim (a number, a list or a table) recomputed.

    ``value`` is the right number, ``claimed`` the notes' number (parsed from ``printed``, or
    derived from the notes' printed numbers when the claim is a property of them, e.g. a row
    mean), ``tolerance`` the allowed difference per entry. ``verdict``: ``agrees``, ``slip``
    (wrong here) or ``inherited`` (right arithmetic on the notes' own earlier wrong numbers;
    ``origin`` is the id of the check where the error began)."""

    id: str
    title: dict  # {"en", "zh"}: the examples file's own (data)
    quote: list[str]
    basis: str
    value: np.ndarray
    claimed: np.ndarray
    tolerance: np.ndarray
    printed: np.ndarray | None = None
    labels: list[Verdict] | None = None  # one per entry (codes, or the examples file's own words)
    agrees: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    verdict: str = "agrees"
    origin: str | None = None
    from_notes: np.ndarray | None = None
    explanation: dict = field(default_factory=dict)  # {"en", "zh"} (data)
    note: tuple[Verdict, ...] = ()  # codes with parameters (transformer.worked.wording)
    axes: str | None = None  # a table's axes: "tokens" (rows and columns), "rows" (rows only) or None

    @property
    def n_disagree(self) -> int:
        return int((~self.agrees).sum())

    def to_dict(self, render: Callable[..., str]) -> dict[str, Any]:
        """Strict-JSON-ready dict (non-finite numbers as strings); the codes also in words,
        ``render(verdicts, lang)`` (a :class:`~transformer.worked.words.Words`' render)."""
        def labels(lang):
            return None if self.labels is None else [render(v, lang) for v in self.labels]

        def js(a):
            if a is None:
                return None
            return [js(v) for v in a] if isinstance(a, (list, np.ndarray)) and np.ndim(a) else _num(a)
        return {"id": self.id, "title_en": self.title["en"], "title_zh": self.title["zh"], "quote": self.quote,
                "basis": self.basis, "value": js(np.asarray(self.value)), "claimed": js(np.asarray(self.claimed)),
                "tolerance": js(np.asarray(self.tolerance)),
                "printed": None if self.printed is None else np.asarray(self.printed).tolist(),
                "agrees": self.agrees.tolist(), "verdict": self.verdict, "origin": self.origin,
                "labels_en": labels("en"), "labels_zh": labels("zh"),
                "explanation_en": self.explanation.get("en", ""), "explanation_zh": self.explanation.get("zh", ""),
                "note_en": render(self.note, "en"), "note_zh": render(self.note, "zh"),
                "note": [v.to_dict() for v in self.note]}


def _num(v: Any) -> Any:
    v = float(v)
    if math.isfinite(v):
        return v
    return "nan" if math.isnan(v) else ("-inf" if v < 0 else "inf")


@dataclass
class Context:
    """What a recipe may read: the notes' printed claims of the example (key -> (numbers,
    half-unit tolerances)) and the checks computed before it (id -> Check)."""

    claims: dict[str, tuple[np.ndarray, np.ndarray]]
    checks: dict[str, Check] = field(default_factory=dict)

    def table(self, spec: Any) -> tuple[np.ndarray, np.ndarray]:
        """A printed table: literal texts, {"claim": key} or {"check": id} (its printed numbers)."""
        if isinstance(spec, dict) and "claim" in spec:
            if spec["claim"] not in self.claims:
                raise ValueError(f"unknown claim {spec['claim']!r}")
            return self.claims[spec["claim"]]
        if isinstance(spec, dict) and "check" in spec:
            c = self.check(spec["check"])
            return c.claimed, c.tolerance
        return printed_array(spec)

    def check(self, cid: str) -> Check:
        if cid not in self.checks:
            raise ValueError(f"check {cid!r} must come before the checks that use it")
        return self.checks[cid]


# A recipe: (args, printed values, printed tolerances, context) -> dict with "value" and, where
# the claim is not the printed text itself, "claimed"/"tolerance"; optional "basis", "labels"
# (English, Chinese), "from_notes" (+ "from_notes_slack", "origin") for the inherited test.
Recipe = Callable[[dict, np.ndarray | None, np.ndarray | None, Context], dict]
RECIPES: dict[str, Recipe] = {}


def recipe(name: str):
    def deco(fn: Recipe) -> Recipe:
        RECIPES[name] = fn
        return fn
    return deco


@recipe("exp")
def _exp(args, pv, pt, ctx):
    """e^x for each x the notes exponentiate, x exactly as they print it."""
    x, _ = printed_array(args["x"])
    labels = [f"e^{t}" for t in args["x"]]
    return {"value": np.exp(x), "basis": "exact", "labels": labels}


@recipe("sum")
def _sum(args, pv, pt, ctx):
    """The sum of the terms of an earlier check: exactly, and from the notes' own printed terms."""
    terms = ctx.check(args["terms"]["check"])
    return {"value": np.array([terms.value.sum()]), "basis": "exact", "labels": ["Σ"],
            "from_notes": np.array([terms.claimed.sum()]), "from_notes_slack": np.array([terms.tolerance.sum()]),
            "origin": terms.id}


@recipe("power")
def _power(args, pv, pt, ctx):
    """base^(a/b) for each exponent, with the exponent as a fraction (1/4 is a fourth root)."""
    base, _ = parse_printed(args["base"])
    exps = [Fraction(e) for e in args["exponent"]]
    labels = [f"{args['base']}^({e})" for e in args["exponent"]]
    return {"value": np.array([base ** float(e) for e in exps]), "basis": "exact", "labels": labels}


@recipe("divide")
def _divide(args, pv, pt, ctx):
    """A printed table divided by √n, from the notes' own table (their rounding allowed for).
    With ``rounds`` (an earlier check of the same quotient printed more precisely), the printed
    table is also compared with that one: where it follows from it, a wrong entry is inherited."""
    num, num_tol = ctx.table(args["numerator"])
    div = math.sqrt(parse_printed(args["sqrt_of"])[0])
    out = {"value": num / div, "basis": "notes", "input_slack": num_tol / div}
    if "rounds" in args:
        src = ctx.check(args["rounds"]["check"])
        out.update(from_notes=src.claimed, from_notes_slack=src.tolerance, origin=src.id)
    return out


@recipe("products")
def _products(args, pv, pt, ctx):
    """a × b for each pair of printed factors (the factors exactly as printed)."""
    a, _ = printed_array(args["a"])
    b, _ = printed_array(args["b"])
    labels = [f"{x} × {y}" for x, y in zip(args["a"], args["b"])]
    return {"value": a * b, "basis": "exact", "labels": labels}


@recipe("implied_dimension")
def _implied_dimension(args, pv, pt, ctx):
    """The d the notes actually divided by: (their Q·Kᵀ / their scaled scores)², averaged."""
    num, _ = ctx.table(args["scores"])
    scaled, _ = ctx.table(args["scaled"])
    d = float(np.mean((num / scaled) ** 2))
    return {"value": np.full(np.shape(pv), d), "basis": "notes"}


@recipe("softmax_as_written")
def _softmax_as_written(args, pv, pt, ctx):
    """The first softmax weight of a row, against the notes' written formula evaluated as written.

    The tolerance is how far the weight can move when each printed score moves by half a unit."""
    row, row_tol = printed_array(args["row"])
    written, _ = printed_array(args["written"])

    def first(r):
        return softmax(r)[0]
    slack = sum(abs(first(row + h * np.eye(len(row))[i]) - first(row - h * np.eye(len(row))[i])) / 2
                for i, h in enumerate(row_tol))
    as_written = math.exp(written[0] - written.max()) / np.exp(written - written.max()).sum()
    return {"value": np.array([first(row)]), "claimed": np.array([as_written]),
            "tolerance": np.array([slack]), "basis": "notes"}


@recipe("layer_norm_rows")
def _layer_norm_rows(args, pv, pt, ctx):
    """A LayerNorm output has mean 0 and (population) std 1 in every row: the printed rows'
    means and stds against that. Rounding each printed entry by at most h moves a row's mean and
    its population std by at most h; eps moves the std by at most eps."""
    m, tol = ctx.table(args["matrix"])
    eps = parse_printed(args.get("eps", "0"))[0]
    n = m.shape[0]
    h = float(tol.max())
    labels = [Verdict("entry_row_mean", {"row": i}) for i in range(n)] + \
        [Verdict("entry_row_std", {"row": i}) for i in range(n)]
    return {"value": np.r_[np.zeros(n), np.ones(n)], "claimed": np.r_[m.mean(axis=1), m.std(axis=1)],
            "tolerance": np.r_[np.full(n, h), np.full(n, h + eps)], "basis": "notes", "labels": labels}


@recipe("normalize_entry")
def _normalize_entry(args, pv, pt, ctx):
    """(value − mean)/(std + eps) with the printed numbers: the notes' one worked Add & Norm entry.
    The slack is how far the fraction moves when each printed input moves by half a unit."""
    (v, hv), (m, hm), (s, hs), (e, _) = (parse_printed(args[k]) for k in ("value", "mean", "std", "eps"))
    f = (v - m) / (s + e)
    slack = (hv + hm) / (s + e - hs) + abs(f) * hs / (s + e - hs)
    return {"value": np.array([f]), "basis": "notes", "input_slack": np.array([slack]),
            "labels": [Verdict("entry_normalized")]}


@recipe("add_row")
def _add_row(args, pv, pt, ctx):
    """A printed table plus a printed bias row (added to every row)."""
    t, t_tol = ctx.table(args["table"])
    b, b_tol = ctx.table(args["bias"])
    return {"value": t + b, "basis": "notes", "input_slack": t_tol + b_tol}


@recipe("relu")
def _relu(args, pv, pt, ctx):
    """max(0, x) of a printed table."""
    x, x_tol = ctx.table(args["x"])
    return {"value": np.maximum(0.0, x), "basis": "notes", "input_slack": x_tol}


@recipe("softmax_ratios")
def _softmax_ratios(args, pv, pt, ctx):
    """Softmax over a vocabulary the notes print only in part: the denominator is unknown, but
    for any two words p_a / p_b = e^(z_a − z_b). For each pair, the notes' probabilities' ratio
    against e^(z_a − z_b); the tolerance is the sum of the half-widths of both ranges that the
    printed rounding allows."""
    words = list(args["words"])
    z, z_tol = printed_array(args["logits"])
    p, p_tol = printed_array(args["probs"])
    value, claimed, tol, labels = [], [], [], []
    for a in range(len(words)):
        for b in range(a + 1, len(words)):
            r = math.exp(z[a] - z[b])
            h = z_tol[a] + z_tol[b]
            r_half = (math.exp(z[a] - z[b] + h) - math.exp(z[a] - z[b] - h)) / 2
            lo = (p[a] - p_tol[a]) / (p[b] + p_tol[b])
            hi = (p[a] + p_tol[a]) / (p[b] - p_tol[b]) if p[b] > p_tol[b] else math.inf
            value.append(r)
            claimed.append(p[a] / p[b])
            tol.append(r_half + (hi - lo) / 2)
            labels.append(f"p({words[a]}) / p({words[b]})")
    return {"value": np.array(value), "claimed": np.array(claimed), "tolerance": np.array(tol),
            "basis": "notes", "labels": labels}


def run_checks(ex: dict, claims: dict[str, tuple[np.ndarray, np.ndarray]]) -> list[Check]:
    """Every check of one example, in file order (a check may use the ones before it)."""
    ctx = Context(claims)
    out = []
    for spec in ex.get("checks", []):
        c = _run_one(spec, ctx)
        ctx.checks[c.id] = c
        out.append(c)
    return out


def _run_one(spec: dict, ctx: Context) -> Check:
    name = spec.get("compute")
    if name not in RECIPES:
        raise ValueError(f"check {spec.get('id')!r}: unknown recipe {name!r}")
    printed = spec.get("printed")
    pv, pt = printed_array(printed) if printed is not None else (None, None)
    r = RECIPES[name](spec.get("args", {}), pv, pt, ctx)
    value = np.asarray(r["value"], dtype=np.float64)
    if "claimed" in r:
        claimed, tol = np.asarray(r["claimed"], float), np.asarray(r["tolerance"], float)
    else:
        if pv is None:
            raise ValueError(f"check {spec['id']!r} needs the printed numbers")
        claimed, tol = pv, pt + r.get("input_slack", 0.0)
    if claimed.shape != value.shape:
        raise ValueError(f"check {spec['id']!r}: {claimed.shape} printed but {value.shape} computed")
    labels = r.get("labels")
    if labels is not None:
        labels = [x if isinstance(x, Verdict) else Verdict("raw", {"text": x}) for x in labels]
    lab = spec.get("entry_labels")
    if lab:
        labels = [Verdict("raw", {"text": {"en": e, "zh": z}}) for e, z in zip(lab["en"], lab["zh"])]
    c = Check(spec["id"], dict(spec["title"]), _as_list(spec.get("quote", [])),
              r.get("basis", "exact"), value, claimed, tol,
              None if printed is None else np.asarray(printed, dtype=object), labels,
              explanation=dict(spec.get("explanation", {})), axes=spec.get("axes"))
    c.agrees = _close(value, claimed, tol)
    c.from_notes = r.get("from_notes")
    if c.agrees.all():
        c.verdict = "agrees"
    elif c.from_notes is not None and _close(c.from_notes, claimed, tol + r.get("from_notes_slack", 0.0)).all() \
            and ctx.check(r["origin"]).verdict != "agrees":
        c.verdict, c.origin = "inherited", ctx.check(r["origin"]).origin or r["origin"]
    else:
        c.verdict = "slip"
    c.note = _notes(c, ctx)
    return c


def _as_list(q: Any) -> list[str]:
    return [q] if isinstance(q, str) else list(q)


def fmt(x: float) -> str:
    """Six significant figures; infinities spelled out."""
    if math.isinf(x):
        return "−inf" if x < 0 else "inf"
    return f"{x:.6g}"


def _notes(c: Check, ctx: Context) -> tuple[Verdict, ...]:
    """The verdict as codes (rendered by transformer/worked/words.py): how many entries disagree,
    the worst ones, and where an inherited error came from."""
    n, total = c.n_disagree, c.agrees.size
    if n == 0:
        return (Verdict("check_agrees", {"total": total, "basis": c.basis}),)
    bad = np.argwhere(~np.atleast_1d(c.agrees))
    diff = np.abs(np.atleast_1d(c.value) - np.atleast_1d(c.claimed))
    worst = sorted(map(tuple, bad), key=lambda ij: -np.nan_to_num(diff[ij], nan=np.inf))[:3]
    val, cl = np.atleast_1d(c.value), np.atleast_1d(c.claimed)
    out = [Verdict("check_disagree", {"n": n, "total": total, "basis": c.basis, "labels": c.labels,
                                      "worst": [{"at": [int(i) for i in ij], "notes": fmt(cl[ij]),
                                                 "right": fmt(val[ij])} for ij in worst]})]
    if c.verdict == "inherited":
        src = ctx.check(c.origin)
        out.append(Verdict("check_inherited", {"title": dict(src.title)}))
    return tuple(out)
