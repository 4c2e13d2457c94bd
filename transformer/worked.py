"""Worked examples: every step of scaled dot-product attention, checked against the notes.

The study notes under ``shared/seeds/`` work attention out by hand and print the numbers they
got. This module recomputes every step from the same inputs, in float64 numpy (no torch: the
point is to show plain matrix arithmetic a student can redo on paper), and says, entry by
entry, whether the notes' number agrees *within the notes' own rounding*.

Agreement rule (documented because a page shows its verdicts to students):

* The notes print a number to some decimals; the true value rounded to those decimals should
  give the printed number, so a claim agrees if ``|claim - value| <= half a unit in the last
  printed place``.  JSON drops trailing zeros (the notes' ``20.50`` is stored as ``20.5``), so in
  a fixed-point table every entry is read with as many decimals as the most precise entry of
  that table; a table written with e-notation (torch printouts, significant figures) is read
  entry by entry.
* Propagated rounding: when the notes computed a step from numbers they had already printed
  rounded (e.g. QK^T from Q and K printed to 2 decimals), and those earlier numbers agree, the
  tolerance also admits the exact effect of that rounding: ``|f(notes' rounded inputs) -
  f(exact inputs)|`` per entry. No fixed relative fudge: a real slip is still flagged. Where an
  earlier claim is partly wrong, the slack is computed from a "repaired" input (the notes'
  entries where they agree, the true ones where they do not), so an entry that uses only right
  inputs (QK^T[0,0] from row 0 of Q and K) keeps their rounding and one that uses a wrong input
  gets none; the step also reports whether the notes' arithmetic is right *given their wrong
  input* ("inherited") or is a new slip.
* A table the notes print with mixed decimals (``0.61 & 0.16 & 0.675``) is marked in its
  example's ``printed_per_entry`` list and read entry by entry.
* Hypotheses ("consistent with"): for a wrong claim, alternatives are computed (another
  divisor, 0 instead of -inf, opposite triangle, weights taken from the notes, ...). An
  alternative *matches* when it agrees within the same tolerance, and *roughly matches* when
  it is within 0.5 % (the notes often round intermediate steps silently).

Public API: :func:`list_examples`, :func:`load_examples`, :func:`run_example`,
:func:`attention_steps` (free mode), :func:`positional_encoding`, :func:`add_norm_steps`,
:class:`Step`, :class:`WorkedResult`. CLI: ``python -m transformer.worked --list`` and
``python -m transformer.worked ID [--json]``; in JSON, -inf is written as the string
``"-inf"`` (likewise ``"inf"``/``"nan"``) so the output is strict JSON.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from transformer import worked_checks
from transformer.numeric import shifted_exp as _shifted_exp
from transformer.numeric import softmax  # noqa: F401 (worked.softmax is public)
from transformer.worked_checks import Check, Statement

EXAMPLES_PATH = Path(__file__).with_name("worked_examples.json")
ROUGH_REL = 0.005  # "roughly matches" threshold for hypotheses (0.5 %)
_TINY = 1e-9  # float noise allowance, relative to max(1, |value|)

# name -> (English label, Chinese label); per-head names use the part after "headN."
LABELS: dict[str, tuple[str, str]] = {
    "scores": ("Given scores q·k", "给定的分数 q·k"),
    "E": ("Word embeddings (one row per token)", "词嵌入（每行一个词）"),
    "PE": ("Positional encoding (one row per position)", "位置编码（每行一个位置）"),
    "X": ("Input X (one row per token)", "输入 X（每行一个词）"),
    "Q": ("Queries Q", "查询 Q"),
    "K": ("Keys K", "键 K"),
    "V": ("Values V", "值 V"),
    "QK_T": ("Raw scores Q·Kᵀ", "注意力分数 Q·Kᵀ"),
    "scaled": ("Scaled scores Q·Kᵀ/√d_k", "缩放后的分数 Q·Kᵀ/√d_k"),
    "mask": ("Mask (1 = may attend, 0 = masked)", "掩码（1 = 可以关注，0 = 被遮挡）"),
    "masked": ("Masked scores (−inf where masked)", "加掩码后的分数（被遮挡处为 −∞）"),
    "exp": ("exp(score − row max)", "exp(分数 − 行最大值)"),
    "weights": ("Attention weights = softmax", "注意力权重 = softmax"),
    "output": ("Output = weights·V", "输出 = 权重·V"),
    "concat": ("Concatenated head outputs", "各头输出拼接"),
    "W_O": ("Multi-head output = concat·W_O", "多头输出 = 拼接·W_O"),
    "residual": ("Residual sum x + sublayer(x)", "残差相加 x + 子层(x)"),
    "mean": ("Row mean", "行均值"),
    "std": ("Row std (population, ÷n, as LayerNorm uses)", "行标准差（总体标准差，除以 n，与 LayerNorm 一致）"),
    "norm": ("LayerNorm output (x − mean)/√(var + eps)", "LayerNorm 输出 (x − 均值)/√(方差 + eps)"),
}

# English label -> Chinese label of every alternative and hypothesis (they are matched by their
# English text, so the Chinese page looks them up here). Filled by _L where a label is made.
_ZH: dict[str, str] = {}


def _L(en: str, zh: str) -> str:
    """Register the Chinese text of an English label and return the English (the key)."""
    _ZH[en] = zh
    return en


def label_zh(en: str) -> str:
    """The Chinese text of an alternative's or hypothesis's English label."""
    return _ZH.get(en, en)


# Short names of steps, for prose ("the error comes from ..."): (English, Chinese).
_SHORT = {"E": ("embeddings", "词嵌入"), "PE": ("positional encoding", "位置编码"), "X": ("X", "X"),
          "Q": ("Q", "Q"), "K": ("K", "K"), "V": ("V", "V"), "QK_T": ("Q·Kᵀ", "Q·Kᵀ"),
          "scaled": ("scaled scores", "缩放后的分数"), "masked": ("masked scores", "加掩码后的分数"),
          "exp": ("exp", "exp"), "weights": ("weights", "权重"), "output": ("output", "输出"),
          "concat": ("concatenation", "拼接结果"), "W_O": ("output projection", "输出投影"),
          "residual": ("sum", "相加结果"), "mean": ("row means", "行均值"),
          "std": ("row stds", "行标准差"), "x": ("x", "x"), "sublayer": ("sublayer output", "子层输出")}


def short_name(name: str, zh: bool = False) -> str:
    """A step name as prose: "head1.QK_T" -> "head 1 Q·Kᵀ" / "头 1 的 Q·Kᵀ"; "addnorm.std" -> "row stds"."""
    parts = name.split(".")
    head = parts[0] if parts[0].startswith("head") else None
    base = parts[1] if head else (parts[1] if parts[0] == "addnorm" and len(parts) > 1 else parts[0])
    if parts[0] == "addnorm" and base == "output":
        word = ("Add & Norm output", "相加与归一化的输出")
    else:
        word = _SHORT.get(base, (base, base))
    if head:
        n = head[4:]
        return f"头 {n} 的{word[1]}" if zh else f"head {n} {word[0]}"
    return word[1] if zh else word[0]


# --------------------------------------------------------------------------------------------
# Data classes


@dataclass
class Step:
    """One computed step. ``value`` is always the paper-correct number.

    ``claimed``/``agrees``/``tolerance`` are set when the notes print this step (same shape as
    ``value``). ``alternatives`` holds other conventions and hypotheses (label -> array) and
    ``matches`` the labels whose numbers agree with the claim. ``verdict`` is one of
    ``computed`` (no claim), ``agrees``, ``slip`` (wrong at this step), ``inherited`` (this
    step's arithmetic is right given the notes' own wrong earlier numbers), ``assumed`` (the
    notes say they made the numbers up). ``origin`` names the step where a wrong value began.
    """

    name: str
    label_en: str
    label_zh: str
    value: np.ndarray
    claimed: np.ndarray | None = None
    agrees: np.ndarray | None = None
    tolerance: np.ndarray | None = None
    note: str = ""
    note_zh: str = ""
    verdict: str = "computed"
    origin: str | None = None
    source: str | None = None
    alternatives: dict[str, np.ndarray] = field(default_factory=dict)
    matches: list[str] = field(default_factory=list)
    rough_matches: list[str] = field(default_factory=list)
    printed_per_entry: bool = False  # the notes print this table with mixed decimals
    partial: dict[str, int] = field(default_factory=dict)  # hypothesis -> wrong entries it explains
    explanation_en: str = ""
    explanation_zh: str = ""
    source_en: str = ""  # which of the notes' printings this claim is, in words (never a key)
    source_zh: str = ""
    printed_tol: np.ndarray | None = None  # rounding read from the printed text, when stored as text

    def rounding(self) -> np.ndarray:
        """Half a unit in the last place the notes print, per entry of the claim."""
        if self.printed_tol is not None:
            return self.printed_tol
        return rounding_tolerance(self.claimed, per_entry=self.printed_per_entry)

    @property
    def n_disagree(self) -> int:
        """Number of claimed entries outside the tolerance (0 when nothing is claimed)."""
        return 0 if self.agrees is None else int((~self.agrees).sum())

    def to_dict(self) -> dict[str, Any]:
        """Strict-JSON-ready dict (non-finite numbers become strings, see module docstring)."""
        return {
            "name": self.name,
            "label_en": self.label_en,
            "label_zh": self.label_zh,
            "value": _jsonable(self.value),
            "claimed": None if self.claimed is None else _jsonable(self.claimed),
            "agrees": None if self.agrees is None else self.agrees.tolist(),
            "tolerance": None if self.tolerance is None else _jsonable(self.tolerance),
            "verdict": self.verdict,
            "origin": self.origin,
            "source": self.source,
            "matches": list(self.matches),
            "rough_matches": list(self.rough_matches),
            "partial": dict(self.partial),
            "note": self.note,
            "note_zh": self.note_zh,
            "explanation_en": self.explanation_en,
            "explanation_zh": self.explanation_zh,
            "source_en": self.source_en,
            "source_zh": self.source_zh,
        }


@dataclass
class WorkedResult:
    """All steps of one worked example, in order, and the checks of the other numbers the notes
    print with it (:mod:`transformer.worked_checks`). ``where_*`` says in words where in the notes
    the example is; ``passage`` is the notes' own text of it (Chinese, verbatim) and ``gloss_en``
    an English gloss of that text."""

    id: str
    title_en: str
    title_zh: str
    tokens: list[str]
    steps: list[Step]
    source: str = ""
    unmatched_claims: list[str] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    where_en: str = ""
    where_zh: str = ""
    passage: list[str] = field(default_factory=list)
    gloss_en: str = ""

    def step(self, name: str) -> Step:
        """The step called ``name`` (KeyError if absent)."""
        for s in self.steps:
            if s.name == name:
                return s
        raise KeyError(name)

    def summary(self) -> dict[str, int]:
        """Counts of checked steps and entries that agree / disagree with the notes."""
        checked = [s for s in self.steps if s.agrees is not None]
        bad = [s for s in checked if s.n_disagree]
        entries = sum(int(s.agrees.size) for s in checked)
        wrong = sum(s.n_disagree for s in checked)
        c_entries = sum(int(c.agrees.size) for c in self.checks)
        c_wrong = sum(c.n_disagree for c in self.checks)
        return {
            "steps": len(self.steps),
            "claimed_steps": len(checked),
            "agree": len(checked) - len(bad),
            "disagree": len(bad),
            "entries_checked": entries,
            "entries_agree": entries - wrong,
            "entries_disagree": wrong,
            "checks": len(self.checks),
            "checks_agree": sum(1 for c in self.checks if c.verdict == "agrees"),
            "checks_disagree": sum(1 for c in self.checks if c.verdict != "agrees"),
            "check_entries": c_entries,
            "check_entries_disagree": c_wrong,
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title_en": self.title_en,
            "title_zh": self.title_zh,
            "tokens": list(self.tokens),
            "source": self.source,
            "where_en": self.where_en,
            "where_zh": self.where_zh,
            "steps": [s.to_dict() for s in self.steps],
            "checks": [c.to_dict() for c in self.checks],
            "summary": self.summary(),
        }


# --------------------------------------------------------------------------------------------
# Validation and small numeric helpers


def _matrix(x: Any, name: str, ndim: int | tuple[int, ...] = 2, allow_inf: bool = False) -> np.ndarray:
    """Convert to float64 and check rank and finiteness; ValueError with a one-line message."""
    try:
        a = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a rectangular table of numbers") from None
    ndims = (ndim,) if isinstance(ndim, int) else ndim
    if a.ndim not in ndims:
        want = " or ".join(f"{d}-D" for d in ndims)
        raise ValueError(f"{name} must be {want}, got shape {a.shape}")
    if a.size == 0:
        raise ValueError(f"{name} is empty")
    bad = np.isnan(a) if allow_inf else ~np.isfinite(a)
    if bad.any():
        raise ValueError(f"{name} contains non-finite numbers (NaN or inf)")
    return a


def _check_dk(d_k: Any) -> int | None:
    if d_k is None:
        return None
    if isinstance(d_k, bool) or not isinstance(d_k, (int, np.integer, float)) or not math.isfinite(d_k):
        raise ValueError(f"d_k must be a positive integer, got {d_k!r}")
    if d_k <= 0 or int(d_k) != d_k:
        raise ValueError(f"d_k must be a positive integer, got {d_k!r}")
    return int(d_k)


def _fmt(x: float) -> str:
    if np.isneginf(x):
        return "-inf"
    if np.isposinf(x):
        return "inf"
    return f"{x:.6g}"


def _jsonable(a: np.ndarray) -> Any:
    """Nested lists; non-finite floats as the strings "-inf", "inf", "nan" (strict JSON)."""
    arr = np.asarray(a)
    if arr.dtype == bool:
        return arr.tolist()

    def conv(v: Any) -> Any:
        if isinstance(v, list):
            return [conv(u) for u in v]
        if isinstance(v, float) and not math.isfinite(v):
            return "nan" if math.isnan(v) else ("-inf" if v < 0 else "inf")
        return v

    return conv(arr.astype(np.float64).tolist())


# --------------------------------------------------------------------------------------------
# The tolerance rule


def printed_decimals(x: float) -> int:
    """Decimals of the shortest text of ``x`` (0.445 -> 3, 6.7e-08 -> 9, 17 -> 0)."""
    if not math.isfinite(x):
        return 0
    exp = Decimal(repr(float(x))).normalize().as_tuple().exponent
    return max(0, -int(exp))


def rounding_tolerance(claimed: Sequence | np.ndarray, per_entry: bool = False) -> np.ndarray:
    """Half a unit in the last printed place, per entry (see the module docstring).
    ``per_entry``: the notes print this table with mixed decimals (an example's
    ``printed_per_entry`` list says so), so each entry is read as written."""
    flat = np.asarray(claimed, dtype=np.float64).ravel()
    decs = np.array([printed_decimals(v) for v in flat])
    scientific = any("e" in repr(float(v)) for v in flat if math.isfinite(v) and v != 0)
    if not scientific and not per_entry and decs.size:
        decs[:] = decs.max()
    return (0.5 * 10.0 ** (-decs)).reshape(np.shape(claimed))


def _close(a: np.ndarray, b: np.ndarray, tol: np.ndarray) -> np.ndarray:
    """Entry-wise agreement with infinities compared exactly."""
    a, b = np.broadcast_arrays(np.asarray(a, float), np.asarray(b, float))
    both_inf = np.isinf(a) & np.isinf(b) & (np.sign(a) == np.sign(b))
    with np.errstate(invalid="ignore"):
        diff = np.abs(a - b)
    ok = diff <= tol + _TINY * np.maximum(1.0, np.abs(np.where(np.isfinite(a), a, 0)))
    return np.where(np.isinf(a) | np.isinf(b), both_inf, ok & np.isfinite(diff))


def _rough(a: np.ndarray, b: np.ndarray, tol: np.ndarray) -> np.ndarray:
    """Agreement within the tolerance or within ROUGH_REL relative."""
    a = np.asarray(a, float)
    rel = ROUGH_REL * np.abs(np.where(np.isfinite(a), a, 0))
    return _close(a, b, np.maximum(tol, rel))


# --------------------------------------------------------------------------------------------
# The chain: steps plus how each was computed, so the notes' own numbers can be pushed through


Hypothesis = tuple[str, Callable[[Callable[[str], np.ndarray]], np.ndarray | None]]


@dataclass
class _Node:
    fn: Callable[..., np.ndarray] | None
    inputs: tuple[str, ...]
    hypotheses: list[Hypothesis]
    # convention label -> (fn, inputs) used instead of (fn, inputs) under that convention
    conventions: dict[str, tuple[Callable[..., np.ndarray], tuple[str, ...]]] = field(default_factory=dict)


class _Chain:
    """Ordered steps plus, per step, the function that made it from earlier steps.

    Keeping the function lets the checker recompute a step from the notes' *claimed* inputs,
    which is how "the error started earlier" is told apart from "new slip here".
    """

    def __init__(self) -> None:
        self.steps: list[Step] = []
        self.nodes: dict[str, _Node] = {}
        self.by_name: dict[str, Step] = {}

    def add(self, name: str, value: np.ndarray, fn: Callable[..., np.ndarray] | None = None,
            inputs: Sequence[str] = (), note: str = "", note_zh: str = "",
            hypotheses: Sequence[Hypothesis] = (), alternatives: dict[str, np.ndarray] | None = None,
            label: tuple[str, str] | None = None, conventions: dict | None = None,
            after: str | None = None) -> np.ndarray:
        en, zh = label or LABELS.get(name.split(".")[-1], (name, name))
        if "." in name and name.startswith("head"):
            head = name.split(".")[0]
            en, zh = f"{head}: {en}", f"{head.replace('head', '头')}：{zh}"
        step = Step(name, en, zh, np.asarray(value), note=note, note_zh=note_zh,
                    alternatives=dict(alternatives or {}))
        if after is None:
            self.steps.append(step)
        else:  # keep a check step next to the step it checks
            idx = max(i for i, s in enumerate(self.steps) if s.name == after or s.name.startswith(after + "."))
            self.steps.insert(idx + 1, step)
        self.by_name[name] = step
        self.nodes[name] = _Node(fn, tuple(inputs), list(hypotheses), dict(conventions or {}))
        return step.value

    def get(self, name: str) -> Step:
        return self.by_name[name]

    def notes_value(self, name: str, computed: bool = False) -> np.ndarray:
        """The notes' number for a step when they print all of it, else the computed one."""
        s = self.by_name[name]
        if not computed and s.claimed is not None and s.claimed.shape == s.value.shape:
            return s.claimed
        return s.value

    def notes_chain(self, convention: str | None = None) -> dict[str, np.ndarray]:
        """Every step recomputed forward from the notes' own numbers (optionally under one of
        the notes' conventions): a claimed step takes the notes' value, an unclaimed one is
        computed from its inputs' notes-chain values. This is what the notes *would* have got
        had they done each later step right."""
        vals: dict[str, np.ndarray] = {}
        for step in self.steps:
            node = self.nodes[step.name]
            fn, ins = node.conventions.get(convention, (node.fn, node.inputs))
            if step.claimed is not None and step.claimed.shape == step.value.shape:
                vals[step.name] = step.claimed
            elif fn is None or not ins:
                vals[step.name] = step.value
            else:
                try:
                    with np.errstate(all="ignore"):
                        vals[step.name] = np.asarray(fn(*(vals[i] for i in ins)), dtype=np.float64)
                except (ValueError, KeyError):
                    vals[step.name] = step.value
        return vals

    def convention_labels(self) -> list[str]:
        return sorted({c for n in self.nodes.values() for c in n.conventions})


# --------------------------------------------------------------------------------------------
# Building blocks


def positional_encoding(positions: int | Sequence[float], d_model: int) -> np.ndarray:
    """Sinusoidal PE of the paper: PE[pos, 2i] = sin(pos/10000^(2i/d)), PE[pos, 2i+1] = cos(same).

    ``positions`` is a count n (positions 0..n-1) or a list of positions. Note the exponent uses
    the *pair* index i, so dimensions 2i and 2i+1 share one frequency.
    """
    try:
        d = _check_dk(d_model)
    except ValueError:
        d = None
    if d is None:
        raise ValueError(f"d_model must be a positive integer, got {d_model!r}")
    if isinstance(positions, (int, np.integer)) and not isinstance(positions, bool):
        if positions <= 0:
            raise ValueError(f"number of positions must be positive, got {positions}")
        pos = np.arange(positions, dtype=np.float64)
    else:
        pos = _matrix(positions, "positions", ndim=(0, 1)).reshape(-1)
    return _pe(pos, d, pair_index=True)


_DIM_INDEX = _L("exponent 2i/d with i = dimension index instead of pair index",
                "指数 2i/d 中的 i 用了维度序号，而不是成对的序号")


def _pe(pos: np.ndarray, d: int, pair_index: bool = True, all_sin: bool = False) -> np.ndarray:
    """PE table; ``pair_index=False`` reproduces the common slip of using the dimension index."""
    i = np.arange(d)
    expo = (2 * (i // 2) if pair_index else 2 * i) / d
    angle = pos[:, None] / 10000.0 ** expo[None, :]
    if all_sin:
        return np.sin(angle)
    return np.where(i % 2 == 0, np.sin(angle), np.cos(angle))


def _parse_mask(mask: Any, t: int, s: int) -> np.ndarray | None:
    """Return a bool keep-matrix (True = may attend) or None for no mask.

    Accepts None/"none", "causal..." (keeps j <= i), a bool matrix, or an additive matrix of
    0 (keep) and -inf (masked). 0/1 integers are refused: 0 means "keep" additively but
    "masked" as a flag, and that ambiguity is exactly the notes' mistake.
    """
    if mask is None:
        return None
    if isinstance(mask, str):
        m = mask.strip().lower()
        if m in ("", "none", "no"):
            return None
        if m.startswith("causal"):
            return np.tril(np.ones((t, s), dtype=bool))
        raise ValueError(f"unknown mask {mask!r}: use 'causal', 'none' or a matrix")
    arr = np.asarray(mask)
    if arr.shape != (t, s):
        raise ValueError(f"mask must have shape ({t}, {s}) (queries x keys), got {arr.shape}")
    if arr.dtype == bool:
        return arr.copy()
    try:
        num = arr.astype(np.float64)
    except (TypeError, ValueError):
        raise ValueError("mask must hold booleans or the numbers 0 and -inf") from None
    if not np.all((num == 0) | np.isneginf(num)):
        raise ValueError("a numeric mask may only hold 0 (keep) and -inf (masked); use True/False otherwise")
    return num == 0


def _split_heads(a: np.ndarray, heads: int, name: str) -> list[np.ndarray]:
    """Split columns into ``heads`` equal blocks (the paper's layout of W_Q, W_K, W_V)."""
    if a.shape[-1] % heads:
        raise ValueError(f"{name} has {a.shape[-1]} columns, not divisible by heads={heads}")
    return np.split(a, heads, axis=-1)


def _projections(W: Any, name: str, d_model: int, heads: int) -> list[np.ndarray]:
    """Per-head projection matrices from one matrix (its columns split into ``heads`` equal
    blocks, the paper's layout), one matrix per head (a 3-D stack), or None.

    None is the d_model × d_model identity, split like any other single matrix: head h then
    takes the h-th block of X's columns. That is what the model does with an identity
    projection, and it keeps the heads different, so the free mode shows what splitting into
    heads means; every head getting all of X (the notes' two-head example) is asked for
    explicitly, with one identity per head."""
    if W is None:
        if d_model % heads:
            raise ValueError(f"{name} is blank, so it is the {d_model}×{d_model} identity, whose {d_model} columns "
                             f"cannot be split into {heads} equal blocks: type {name}, or choose a number of heads "
                             f"that divides {d_model}")
        return _split_heads(np.eye(d_model), heads, name)
    w = _matrix(W, name, ndim=(2, 3))
    if w.ndim == 3:
        if w.shape[0] != heads:
            raise ValueError(f"{name} gives {w.shape[0]} per-head matrices but heads={heads}")
        mats = list(w)
    else:
        mats = _split_heads(w, heads, name)
    for m in mats:
        if m.shape[0] != d_model:
            raise ValueError(f"{name} must have {d_model} rows (the width of X), got {m.shape[0]}")
    return mats


def _core(Q: np.ndarray, K: np.ndarray, V: np.ndarray, divisor: float,
          keep: np.ndarray | None) -> dict[str, np.ndarray]:
    """The plain attention arithmetic: returns every intermediate by name."""
    out: dict[str, np.ndarray] = {"QK_T": Q @ K.T}
    out["scaled"] = out["QK_T"] / divisor
    out["masked"] = out["scaled"] if keep is None else np.where(keep, out["scaled"], -np.inf)
    out["exp"] = _shifted_exp(out["masked"])
    out["weights"] = softmax(out["masked"])
    out["output"] = out["weights"] @ V
    return out


@dataclass
class _Convention:
    """An alternative way the notes computed attention (another divisor, another V)."""

    label: str
    divisor: float | None = None  # None: same as the paper
    v_from: str | None = None  # "Q": the notes used Q where V belongs


def attention_steps(Q: Any = None, K: Any = None, V: Any = None, X: Any = None, W_Q: Any = None,
                    W_K: Any = None, W_V: Any = None, W_O: Any = None, heads: int = 1,
                    d_k: int | None = None, mask: Any = None, tokens: Sequence[str] | None = None) -> list[Step]:
    """Every step of (multi-head) scaled dot-product attention, for the free mode.

    Give either Q, K, V directly (their columns split into ``heads`` equal blocks) or X with
    optional W_Q, W_K, W_V. A projection is one matrix (its columns split into ``heads`` blocks,
    as in the paper) or a list of one matrix per head; an omitted one is the identity, split
    the same way, so head h sees the h-th block of X's columns. ``d_k`` defaults to each
    head's key width and must match it.
    ``mask``: None, "causal", a bool matrix (True = may attend) or a 0/-inf matrix.
    """
    chain = _Chain()
    _build_attention(chain, Q=Q, K=K, V=V, X=X, W_Q=W_Q, W_K=W_K, W_V=W_V, W_O=W_O, heads=heads,
                     d_k=d_k, mask=mask, tokens=tokens)
    _verify(chain)
    return chain.steps


def _build_attention(chain: _Chain, *, Q=None, K=None, V=None, X=None, W_Q=None, W_K=None, W_V=None,
                     W_O=None, heads=1, d_k=None, mask=None, tokens=None, x_step: str | None = None,
                     conventions: Sequence[_Convention] = ()) -> None:
    """Add the attention steps to ``chain`` (validating every input first)."""
    if isinstance(heads, bool) or not isinstance(heads, (int, np.integer)) or heads < 1:
        raise ValueError(f"heads must be a positive integer, got {heads!r}")
    d_k = _check_dk(d_k)
    qs, ks, vs, x_name = _inputs_per_head(chain, Q, K, V, X, W_Q, W_K, W_V, heads, x_step)
    t, s = qs[0].shape[0], ks[0].shape[0]
    if tokens is not None and len(tokens) not in (t, s):
        raise ValueError(f"{len(tokens)} tokens given but there are {t} queries and {s} keys")
    for q, k, v in zip(qs, ks, vs):
        if q.shape[1] != k.shape[1]:
            raise ValueError(f"Q and K must have the same number of columns, got {q.shape[1]} and {k.shape[1]}")
        if k.shape[0] != v.shape[0]:
            raise ValueError(f"K and V must have the same number of rows (keys), got {k.shape[0]} and {v.shape[0]}")
    width = qs[0].shape[1]
    if d_k is not None and d_k != width:
        raise ValueError(f"d_k={d_k} but each head's queries have {width} columns")
    keep = _parse_mask(mask, t, s)
    outs = []
    for h in range(heads):
        prefix = f"head{h + 1}." if heads > 1 else ""
        outs.append(_head_steps(chain, prefix, qs[h], ks[h], vs[h], keep, x_name, conventions))
    if heads > 1:
        _concat_steps(chain, outs, W_O)
    elif W_O is not None:
        _w_o_step(chain, "output", outs[0], W_O)


def _inputs_per_head(chain, Q, K, V, X, W_Q, W_K, W_V, heads, x_step):
    """Q, K, V per head, adding the X/Q/K/V steps; returns (qs, ks, vs, name of X step)."""
    if X is not None or x_step is not None:
        if any(m is not None for m in (Q, K, V)):
            raise ValueError("give either X (with projections) or Q, K, V, not both")
        if x_step is None:
            x = _matrix(X, "X")
            chain.add("X", x)
            x_step = "X"
        x = chain.get(x_step).value
        w = {n: _projections(W, n, x.shape[1], heads) for n, W in (("W_Q", W_Q), ("W_K", W_K), ("W_V", W_V))}
        per: dict[str, list[np.ndarray]] = {"Q": [], "K": [], "V": []}
        blank = {"W_Q": W_Q is None, "W_K": W_K is None, "W_V": W_V is None}
        for h in range(heads):
            for letter, wn in (("Q", "W_Q"), ("K", "W_K"), ("V", "W_V")):
                wm = w[wn][h]
                name = f"head{h + 1}.{letter}" if heads > 1 else letter
                note, note_zh = f"{letter} = X·{wn}", f"{letter} = X·{wn}"
                if blank[wn] and heads > 1:
                    a, b = h * wm.shape[1] + 1, (h + 1) * wm.shape[1]
                    note += f" ({wn} blank: the identity, so this head takes columns {a}–{b} of X)"
                    note_zh += f"（{wn} 留空即单位矩阵，所以这个头取 X 的第 {a}–{b} 列）"
                elif np.array_equal(wm, np.eye(*wm.shape)):
                    note += f" ({wn} is the identity, so {letter} = X)"
                    note_zh += f"（{wn} 是单位矩阵，所以 {letter} = X）"
                per[letter].append(chain.add(name, x @ wm, fn=lambda xx, wm=wm: xx @ wm, inputs=(x_step,),
                                             note=note, note_zh=note_zh))
        return per["Q"], per["K"], per["V"], x_step
    if any(m is None for m in (Q, K, V)):
        raise ValueError("give X, or all three of Q, K and V")
    if any(m is not None for m in (W_Q, W_K, W_V)):
        raise ValueError("W_Q/W_K/W_V need X; with Q, K, V given directly leave them out")
    mats = {n: _matrix(m, n) for n, m in (("Q", Q), ("K", K), ("V", V))}
    per = {n: _split_heads(m, heads, n) if heads > 1 else [m] for n, m in mats.items()}
    for h in range(heads):
        for n, blocks in per.items():
            chain.add(f"head{h + 1}.{n}" if heads > 1 else n, blocks[h], note=f"{n} as given",
                      note_zh=f"给定的 {n}")
    return per["Q"], per["K"], per["V"], None


def _head_steps(chain: _Chain, p: str, q, k, v, keep, x_name, conventions) -> np.ndarray:
    """Steps of one head: QK_T, scaled, [mask, masked], exp, weights, output."""
    d = q.shape[1]
    div = math.sqrt(d)
    core = _core(q, k, v, div, keep)
    alt = {c.label: _core(q, k, q if c.v_from == "Q" else v, c.divisor or div, keep) for c in conventions}

    def alts(key):
        return {label: c[key] for label, c in alt.items()}

    chain.add(p + "QK_T", core["QK_T"], fn=lambda a, b: a @ b.T, inputs=(p + "Q", p + "K"),
              hypotheses=_qk_hypotheses(p, core["QK_T"].shape), alternatives=alts("QK_T"))
    conv_scale = {c.label: (lambda a, dv=c.divisor or div: a / dv, (p + "QK_T",)) for c in conventions}
    conv_out = {c.label: (lambda w, vv: w @ vv, (p + "weights", p + "Q")) for c in conventions if c.v_from == "Q"}
    chain.add(p + "scaled", core["scaled"], fn=lambda a: a / div, inputs=(p + "QK_T",),
              note=f"divided by √d_k = √{d} = {div:.6g} (d_k = columns of each head's K)",
              note_zh=f"除以 √d_k = √{d} = {div:.6g}（d_k = 每个头的 K 的列数）",
              hypotheses=_scale_hypotheses(p, d, x_name, chain), alternatives=alts("scaled"), conventions=conv_scale)
    score = p + "scaled"
    if keep is not None:
        chain.add(p + "mask", keep, note="1 = may attend; a causal mask keeps j ≤ i (no looking ahead)",
                  note_zh="1 = 可以关注；因果掩码只保留 j ≤ i（不能看后面的词）")
        chain.add(p + "masked", core["masked"], fn=lambda a, m: np.where(m, a, -np.inf),
                  inputs=(p + "scaled", p + "mask"), note="masked entries are −inf, so softmax gives them weight 0",
                  note_zh="被遮挡的位置为 −∞，softmax 给它们的权重为 0",
                  hypotheses=_mask_hypotheses(p, keep), alternatives=alts("masked"))
        score = p + "masked"
    chain.add(p + "exp", core["exp"], fn=_shifted_exp, inputs=(score,),
              note="exp after subtracting each row's max (same softmax, no overflow); exp(−inf) = 0",
              note_zh="先减去每行最大值再取 exp（softmax 结果不变，且不会溢出）；exp(−∞) = 0",
              alternatives=alts("exp"))
    chain.add(p + "weights", core["weights"], fn=softmax, inputs=(score,),
              note="each row sums to 1; a fully masked row gives zeros, never NaN",
              note_zh="每行之和为 1；整行都被遮挡时结果全为 0，而不是无效值", alternatives=alts("weights"))
    chain.add(p + "output", core["output"], fn=lambda w, vv: w @ vv, inputs=(p + "weights", p + "V"),
              hypotheses=[(_L("Q used in place of V", "用 Q 代替了 V"),
                           lambda get, p=p: get(p + "weights") @ get(p + "Q"))]
              if q.shape == v.shape else [], alternatives=alts("output"), conventions=conv_out)
    return core["output"]


def _qk_hypotheses(p: str, shape: tuple[int, ...]) -> list[Hypothesis]:
    """Wrong scores seen in notes: writing Kᵀ or Q itself instead of the product."""
    def take(name, transpose):
        def f(get):
            a = get(p + name)
            a = a.T if transpose else a
            return a if a.shape == shape else None
        return f
    return [(_L("Kᵀ written instead of Q·Kᵀ (the product was skipped)", "写成了 Kᵀ 而不是 Q·Kᵀ（没有做乘法）"),
             take("K", True)),
            (_L("Q written instead of Q·Kᵀ (the input copied, no product)", "写成了 Q 而不是 Q·Kᵀ（照抄输入，没有做乘法）"),
             take("Q", False))]


def _scale_hypotheses(p: str, d: int, x_name: str | None, chain: _Chain) -> list[Hypothesis]:
    """Other divisors: √d_model (embedding size), d_k without the root, no scaling."""
    hyps: list[Hypothesis] = []
    if x_name is not None:
        dm = chain.get(x_name).value.shape[1]
        if dm != d:
            hyps.append((_L(f"divided by √{dm} (the embedding size d_model) instead of √{d}",
                            f"除以 √{dm}（嵌入维度 d_model），而不是 √{d}"),
                         lambda get: get(p + "QK_T") / math.sqrt(dm)))
    hyps.append((_L(f"divided by {d} (d_k without the square root)", f"除以 {d}（d_k 没有开方）"),
                 lambda get: get(p + "QK_T") / d))
    hyps.append((_L("not scaled at all", "完全没有缩放"), lambda get: get(p + "QK_T")))
    return hyps


def _mask_hypotheses(p: str, keep: np.ndarray) -> list[Hypothesis]:
    """Masking slips: 0 instead of −inf, the opposite triangle, masking the wrong matrix."""
    opposite = keep.T if keep.shape[0] == keep.shape[1] else ~keep
    bases = [(("scaled scores", "缩放后的分数"), p + "scaled", True),
             (("unscaled scores Q·Kᵀ", "未缩放的分数 Q·Kᵀ"), p + "QK_T", True),
             (("the notes' own (wrong) scores", "笔记自己的（错误的）分数"), p + "QK_T", False),
             (("the input Q (not the scores)", "输入 Q（而不是分数）"), p + "Q", True)]
    hyps: list[Hypothesis] = []
    for base_label, base, computed in bases:
        for fill, fill_label in ((0.0, ("masked with 0 instead of −inf", "被遮挡处写 0 而不是 −∞")),
                                 (-np.inf, ("masked with −inf", "被遮挡处为 −∞"))):
            for tri, tri_label in ((keep, ("correct triangle", "三角正确")),
                                   (opposite, ("opposite triangle (hides the past, shows the future)",
                                               "三角相反（遮住过去，露出未来）"))):
                if base == p + "scaled" and fill == -np.inf and tri is keep:
                    continue  # that is the correct value itself

                def f(get, base=base, fill=fill, tri=tri, computed=computed):
                    a = get(base, computed=computed)
                    if not computed and a is get(base, computed=True):
                        return None  # the notes print no scores of their own here
                    return np.where(tri, a, fill) if a.shape == tri.shape else None
                hyps.append((_L(f"{base_label[0]}, {fill_label[0]}, {tri_label[0]}",
                                f"{base_label[1]}，{fill_label[1]}，{tri_label[1]}"), f))
    return hyps


def _concat_steps(chain: _Chain, outs: list[np.ndarray], W_O: Any) -> None:
    names = tuple(f"head{h + 1}.output" for h in range(len(outs)))
    cat = np.concatenate(outs, axis=1)
    chain.add("concat", cat, fn=lambda *o: np.concatenate(o, axis=1), inputs=names,
              note=f"{len(outs)} heads side by side: {cat.shape[1]} columns",
              note_zh=f"{len(outs)} 个头并排拼接：共 {cat.shape[1]} 列")
    if W_O is not None:
        _w_o_step(chain, "concat", cat, W_O)


def _w_o_step(chain: _Chain, src: str, x: np.ndarray, W_O: Any) -> None:
    w = _matrix(W_O, "W_O")
    if w.shape[0] != x.shape[1]:
        raise ValueError(f"W_O must have {x.shape[1]} rows (width of the concatenated heads), got {w.shape[0]}")
    chain.add("W_O", x @ w, fn=lambda a: a @ w, inputs=(src,), note="final linear map of multi-head attention",
              note_zh="多头注意力最后的线性变换")


def add_norm_steps(x: Any, sublayer_out: Any, eps: float = 1e-5) -> list[Step]:
    """Add & Norm: residual sum, row mean, row std (population, ÷n, as LayerNorm), output.

    The output is LayerNorm's (x − mean)/√(var + eps) without gain and bias (γ = 1, β = 0).
    Many notes write (x − mean)/(std + eps) instead; that is kept as an alternative (the
    difference is tiny for small eps, but it is not what torch.nn.LayerNorm computes).
    """
    chain = _Chain()
    _build_add_norm(chain, x, sublayer_out, eps)
    _verify(chain)
    return chain.steps


def _build_add_norm(chain: _Chain, x: Any, sub: Any, eps: float, prefix: str = "") -> None:
    xa, sa = _matrix(x, "x"), _matrix(sub, "sublayer_out")
    if xa.shape != sa.shape:
        raise ValueError(f"x and sublayer_out must have the same shape, got {xa.shape} and {sa.shape}")
    if isinstance(eps, bool) or not isinstance(eps, (int, float)) or not math.isfinite(eps) or eps < 0:
        raise ValueError(f"eps must be a finite number >= 0, got {eps!r}")
    if eps == 0 and np.any((xa + sa).std(axis=1) == 0):
        raise ValueError("a row is constant and eps is 0: LayerNorm would divide by zero")
    p = prefix
    chain.add(p + "x", xa, label=("Input x (residual branch)", "输入 x（残差支路）"))
    chain.add(p + "sublayer", sa, label=("Sublayer output", "子层输出"))
    r = chain.add(p + "residual", xa + sa, fn=np.add, inputs=(p + "x", p + "sublayer"))
    mean = chain.add(p + "mean", r.mean(axis=1), fn=lambda a: a.mean(axis=1), inputs=(p + "residual",))
    std = chain.add(p + "std", r.std(axis=1), fn=lambda a: a.std(axis=1), inputs=(p + "residual",),
                    note="population std (divide by n), as LayerNorm uses; not the sample std (n − 1)",
                    note_zh="总体标准差（除以 n），与 LayerNorm 一致；不是样本标准差（除以 n − 1）",
                    hypotheses=[(_L("sample std (divides by n − 1)", "样本标准差（除以 n − 1）"),
                                 lambda get: get(p + "residual").std(axis=1, ddof=1))])
    chain.add(p + "output", (r - mean[:, None]) / np.sqrt(std[:, None] ** 2 + eps),
              fn=lambda a, m, s: (a - m[:, None]) / np.sqrt(s[:, None] ** 2 + eps),
              inputs=(p + "residual", p + "mean", p + "std"), label=LABELS["norm"],
              note=f"(x − mean)/√(var + eps), eps = {eps:g}, gain 1 and bias 0",
              note_zh=f"(x − 均值)/√(方差 + eps)，eps = {eps:g}，增益为 1，偏置为 0",
              alternatives={_L("notes' formula (x − mean)/(std + eps)", "笔记的公式 (x − 均值)/(标准差 + eps)"):
                            (r - mean[:, None]) / (std[:, None] + eps)},
              hypotheses=[(_L("(x − mean)/(std + eps) with the notes' own mean and std",
                              "用笔记自己的均值和标准差算 (x − 均值)/(标准差 + eps)"),
                           lambda get: (get(p + "residual") - get(p + "mean")[:, None])
                           / (get(p + "std")[:, None] + eps))])


# --------------------------------------------------------------------------------------------
# Checking claims


def _claim_numbers(claimed: Any, source: str) -> tuple[np.ndarray, np.ndarray | None]:
    """A claim as numbers, and its rounding when the notes' printed text is stored (strings such
    as "12.0260", "1.0000e+00" or "-\\infty"); None: read the rounding from the numbers."""
    if any(isinstance(v, str) for v in np.asarray(claimed, dtype=object).ravel()):
        try:
            vals, tol = worked_checks.printed_array(claimed)
        except ValueError as e:
            raise ValueError(f"claim {source!r}: {e}") from None
        return _matrix(vals, f"claim {source!r}", ndim=(1, 2), allow_inf=True), tol
    return _matrix(claimed, f"claim {source!r}", ndim=(1, 2), allow_inf=True), None


def _source_label(ex: dict, key: str) -> tuple[str, str]:
    """Which printing of the notes a claim is, in words (the examples file's claim_labels)."""
    lab = ex.get("claim_labels", {}).get(key)
    if lab:
        return lab["en"], lab["zh"]
    if key.startswith("hand"):
        return "the notes' hand computation", "笔记手算"
    if key.startswith("torch"):
        return "the notes' PyTorch printout", "笔记中的 PyTorch 输出"
    return "as printed in the notes", "笔记中的数"


def _attach_claim(chain: _Chain, name: str, claimed: Any, source: str, row: int | None = None,
                  source_label: tuple[str, str] = ("as printed in the notes", "笔记中的数")) -> None:
    """Put the notes' number on a step; a row claim or a second claim gets its own check step."""
    main = chain.get(name)
    c, printed_tol = _claim_numbers(claimed, source)
    if row is None and main.claimed is None:
        if c.shape != main.value.shape:
            raise ValueError(f"claim {source!r} has shape {c.shape} but step {name} has {main.value.shape}")
        main.claimed, main.source, main.printed_tol = c, source, printed_tol
        main.source_en, main.source_zh = source_label
        return
    node = chain.nodes[name]
    value = main.value if row is None else main.value[row]
    if c.shape != value.shape:
        raise ValueError(f"claim {source!r} has shape {c.shape} but {name}[{row}] has {value.shape}")
    tag = source.split("_")[0]
    # Inputs: the same source's check step for an input when there is one (the notes' chain).
    ins = tuple(f"{i}.row{row}.{tag}" if f"{i}.row{row}.{tag}" in chain.by_name else i for i in node.inputs)

    def fn(*args, _f=node.fn, _shape=value.shape, _row=row):
        out = np.asarray(_f(*args))
        return out if out.shape == _shape else out[_row]
    new = f"{name}.row{row}.{tag}" if row is not None else f"{name}.{tag}"
    en, zh = main.label_en, main.label_zh
    src_en, src_zh = source_label
    label = (f"{en} — row {row}, {src_en}", f"{zh}——第 {row} 行，{src_zh}") if row is not None else \
        (f"{en} — {src_en}", f"{zh}——{src_zh}")
    chain.add(new, value, fn=fn if node.fn else None, inputs=ins, after=name, label=label,
              note=main.note, note_zh=main.note_zh)
    step = chain.get(new)
    step.claimed, step.source, step.printed_tol = c, source, printed_tol
    step.source_en, step.source_zh = source_label


def _verify(chain: _Chain) -> None:
    """Give every claimed step its tolerance, agreement, verdict, matches and note, in order."""
    notes = chain.notes_chain()
    conv = {label: chain.notes_chain(label) for label in chain.convention_labels()}
    # The "repaired" chain: the notes' printed numbers where they agree, the true ones where they
    # do not. A step computed from it differs from the true value only by the notes' rounding of
    # the entries they got right, so that difference is the slack an entry is allowed, even when
    # other entries of the same input are wrong (QK^T[0,0] needs only row 0 of Q and K).
    repaired: dict[str, np.ndarray] = {}
    for step in chain.steps:
        node = chain.nodes[step.name]
        if step.claimed is None:
            derived = _from_notes(node, repaired, step.value.shape)
            repaired[step.name] = step.value if derived is None else derived
            continue
        tol = step.rounding()
        from_notes = _from_notes(node, notes, step.value.shape)
        upstream = _claimed_upstream(chain, step.name)
        from_repaired = _from_notes(node, repaired, step.value.shape)
        if from_repaired is not None and upstream and any(s.n_disagree < s.claimed.size
                                                           for s in upstream):
            with np.errstate(invalid="ignore"):
                slack = np.nan_to_num(np.abs(from_repaired - step.value), nan=0.0, posinf=0.0)
            tol = tol + slack  # exact effect of the notes' printed rounding of earlier steps
        step.tolerance = tol
        step.agrees = _close(step.value, step.claimed, tol)
        _hypotheses(chain, step, node, from_notes, upstream, conv, tol)
        _explain(step, from_notes, upstream)
        if step.claimed.shape == step.value.shape:
            repaired[step.name] = np.where(step.agrees, step.claimed, step.value)
        else:
            repaired[step.name] = step.value


def _claimed_upstream(chain: _Chain, name: str) -> list[Step]:
    """The nearest claimed steps feeding ``name`` (searching through unclaimed steps)."""
    found: list[Step] = []
    stack, seen = list(chain.nodes[name].inputs), set()
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        s = chain.get(n)
        if s.claimed is not None and s.claimed.shape == s.value.shape:
            found.append(s)
        else:
            stack.extend(chain.nodes[n].inputs)
    return sorted(found, key=chain.steps.index)


def _from_notes(node: _Node, notes: dict[str, np.ndarray], shape: tuple[int, ...]) -> np.ndarray | None:
    """This step computed (correctly) from the notes' own numbers for everything before it."""
    if node.fn is None or not node.inputs:
        return None
    try:
        with np.errstate(all="ignore"):
            v = np.asarray(node.fn(*(notes[i] for i in node.inputs)), dtype=np.float64)
    except (ValueError, KeyError):
        return None
    return v if v.shape == shape else None


def _hypotheses(chain, step, node, from_notes, upstream, conv, tol) -> None:
    """Evaluate alternatives and record which ones agree with the claim (exactly or roughly)."""
    if from_notes is not None and upstream and not _same(from_notes, step.value):
        names = [s.name for s in upstream]
        label = _L("recomputed from the notes' own " + ", ".join(short_name(n) for n in names),
                   "用笔记自己的" + "、".join(short_name(n, zh=True) for n in names) + "重新计算")
        step.alternatives[label] = from_notes
    for label, values in conv.items():
        v = _from_notes(_Node(*node.conventions.get(label, (node.fn, node.inputs)), []), values, step.value.shape)
        known = [step.value, from_notes, step.alternatives.get(label)]
        if v is not None and upstream and not any(k is not None and _same(v, k) for k in known):
            step.alternatives[_L(f"{label}, from the notes' own numbers", f"{label_zh(label)}，用笔记自己的数")] = v
    for label, f in node.hypotheses:
        with np.errstate(all="ignore"):
            v = f(chain.notes_value)
        if v is not None and np.shape(v) == step.value.shape:
            step.alternatives[label] = np.asarray(v, dtype=np.float64)
    bad = ~step.agrees
    strict_tol = step.rounding()
    for label, v in step.alternatives.items():
        if v.shape != step.claimed.shape:
            continue
        ok = _close(v, step.claimed, strict_tol)
        if ok.all():
            step.matches.append(label)
        elif _rough(v, step.claimed, strict_tol).all():
            step.rough_matches.append(label)
        elif bad.any() and ok[bad].any():
            step.partial[label] = int(ok[bad].sum())


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and bool(np.allclose(a, b, rtol=1e-12, atol=1e-12, equal_nan=True))


def _explain(step: Step, from_notes, upstream) -> None:
    """Verdict, origin and a plain-language note (English and Chinese) for a claimed step."""
    n, total = step.n_disagree, step.agrees.size
    if n == 0:
        step.verdict = "agrees"
        step.note = _join(step.note, f"notes agree within their rounding ({total} entries, "
                                     "±half a unit in the last printed place)")
        step.note_zh = _join_zh(step.note_zh, f"笔记数值在其舍入误差内正确（共 {total} 个数）")
        return
    wrong_up = [s for s in upstream if s.n_disagree]
    bad = ~step.agrees
    follows = from_notes is not None and _close(from_notes, step.claimed, step.rounding())[bad].all()
    if "assumed" in (step.source or ""):
        step.verdict, step.origin = "assumed", step.name
    elif follows and wrong_up:
        step.verdict = "inherited"
        step.origin = ", ".join(dict.fromkeys(s.origin or s.name for s in wrong_up))
    else:
        step.verdict, step.origin = "slip", step.name
    step.note = _join(step.note, _note_en(step, n, total, from_notes, upstream))
    step.note_zh = _join_zh(step.note_zh, _note_zh(step, n, total))


def origin_text(origin: str | None, zh: bool = False) -> str:
    """A step's ``origin`` (step names joined by ", ") in words, for the page and the notes."""
    if not origin:
        return ""
    return ("、" if zh else ", ").join(short_name(n.strip(), zh) for n in origin.split(","))


def _worst(step: Step, k: int = 3, zh: bool = False) -> str:
    bad = np.argwhere(~step.agrees)
    with np.errstate(invalid="ignore"):
        diff = np.nan_to_num(np.abs(step.value - step.claimed), nan=np.inf, posinf=np.inf)
    order = sorted(map(tuple, bad), key=lambda ij: -diff[ij])[:k]
    if zh:
        return "；".join(f"[{','.join(map(str, ij))}] 笔记 {_fmt(step.claimed[ij])}，正确 {_fmt(step.value[ij])}"
                        for ij in order)
    return "; ".join(f"[{','.join(map(str, ij))}] notes {_fmt(step.claimed[ij])}, correct {_fmt(step.value[ij])}"
                     for ij in order)


def _note_en(step: Step, n: int, total: int, from_notes, upstream: list[Step]) -> str:
    text = f"{n} of {total} entries disagree beyond the notes' rounding: {_worst(step)}."
    own = "recomputed from the notes' own"
    if step.verdict == "assumed":
        text += " The notes say these numbers were assumed, not computed; the real values are shown."
        if from_notes is not None and not any(m.startswith(own) for m in step.matches):
            text += " They are not the softmax of the notes' own scores either."
    elif step.verdict == "inherited":
        text += (" This step's own arithmetic is right given the notes' earlier numbers; "
                 f"the error comes from an earlier step: {origin_text(step.origin)}.")
    elif upstream:
        text += " The slip is at this step: it does not follow from the notes' own earlier numbers either."
    else:
        text += " The slip is at this step."
    if step.matches:
        text += " The notes' numbers match: " + "; ".join(step.matches) + "."
    if step.rough_matches:
        text += " They roughly match (within 0.5%): " + "; ".join(step.rough_matches) + "."
    if not step.matches and _rough(step.value, step.claimed, step.rounding()).all():
        text += (" The notes are within 0.5% of the correct numbers: "
                 "small arithmetic or rounding slips in the last digits.")
    if step.partial and not step.matches:
        parts = "; ".join(f"{label} ({k} of {n})" for label, k in step.partial.items())
        text += f" Some wrong entries are explained by: {parts}."
    return text


def _note_zh(step: Step, n: int, total: int) -> str:
    text = f"{total} 个数中有 {n} 个超出笔记的舍入误差：{_worst(step, zh=True)}。"
    if step.verdict == "assumed":
        text += "笔记说明这些数是“假设”的，并非计算所得；这里给出真实值。"
    elif step.verdict == "inherited":
        text += f"这一步本身的计算按笔记前面的数是对的，错误来自{origin_text(step.origin, zh=True)}。"
    else:
        text += "错误出在这一步。"
    found = step.matches or step.rough_matches or list(step.partial)
    if found:
        text += "笔记的数与以下做法（部分）一致：" + "；".join(label_zh(f) for f in found) + "。"
    return text


def _join(a: str, b: str) -> str:
    return f"{a}. {b}" if a else b


def _join_zh(a: str, b: str) -> str:
    return f"{a}。{b}" if a else b


# --------------------------------------------------------------------------------------------
# Examples


def load_examples(path: str | Path | None = None) -> dict:
    """The examples file as a dict ({"about": ..., "examples": [...]})."""
    with open(path or EXAMPLES_PATH, encoding="utf-8") as f:
        return json.load(f)


def list_examples(path: str | Path | None = None) -> list[str]:
    """Ids of the shipped worked examples, in file order."""
    return [e["id"] for e in load_examples(path)["examples"]]


# claim key in the notes -> step name (row claims and second sources get their own check step)
_CLAIM_STEP = {
    "K": "K", "Q": "Q", "QK_T": "QK_T", "scaled": "scaled", "weights": "weights",
    "weights_said_to_be_assumed": "weights", "output": "output", "single_head_output": "output",
    "PE": "PE", "positional_encoding_rows_are_positions": "PE", "embedding_plus_pe_used_as_X": "X",
    "add_norm_2_row_mean": "addnorm.mean", "add_norm_2_row_std": "addnorm.std",
    "add_norm_2_output": "addnorm.output", "add_norm_2_sum": "addnorm.residual", "masked": "masked",
}
_NOT_CLAIMS = {"note", "scale_divisor", "layer_norm_eps", "add_norm_2_input_ffn_out", "add_norm_2_input_residual"}


def _claim_target(key: str) -> tuple[str, int | None] | None:
    """Map a notes_claim key to (step name, row or None); None if it is not a number claim."""
    if key in _NOT_CLAIMS:
        return None
    if key in _CLAIM_STEP:
        return _CLAIM_STEP[key], None
    m = re.fullmatch(r"head(\d+)_(scores|masked|weights|output)", key)
    if m:
        return f"head{m.group(1)}.{ {'scores': 'QK_T'}.get(m.group(2), m.group(2)) }", None
    m = re.fullmatch(r"(?:hand|torch_printout)_(\w+?)(?:_row(\d+))?", key)
    if m and m.group(1) in _CLAIM_STEP:
        return _CLAIM_STEP[m.group(1)], None if m.group(2) is None else int(m.group(2))
    return None


def _resolve(spec: Any, env: dict[str, np.ndarray], name: str) -> np.ndarray | None:
    """A matrix from the examples file: a table, "identity(n)", or the name of another input."""
    if spec is None:
        return None
    if isinstance(spec, str):
        m = re.fullmatch(r"\s*identity\((\d+)\)\s*", spec)
        if m:
            return np.eye(int(m.group(1)))
        if spec in env:
            return env[spec]
        raise ValueError(f"{name}: cannot read {spec!r}")
    return _matrix(spec, name)


def run_example(example: str | dict) -> WorkedResult:
    """Recompute one example (by id, or an example dict) and check every number the notes claim."""
    ex = _find(example) if isinstance(example, str) else example
    if not isinstance(ex, dict) or "id" not in ex:
        raise ValueError("an example must be an id or a dict with an 'id'")
    chain = _Chain()
    if "scores" in ex:
        _build_scores(chain, ex)
    elif "pos" in ex:
        _build_pe_example(chain, ex)
    elif "word_embeddings_rows_are_tokens" in ex:
        _build_encoder(chain, ex)
    else:
        _build_generic(chain, ex)
    unmatched = _attach_claims(chain, ex)
    _verify(chain)
    _attach_explanations(chain, ex)
    title = ex.get("title") or {"en": ex["id"], "zh": ex["id"]}
    checks = worked_checks.run_checks(ex, _printed_claims(ex))
    where = ex.get("where", {})
    return WorkedResult(ex["id"], title["en"], title["zh"], list(ex.get("tokens", [])), chain.steps,
                        ex.get("source", ""), unmatched, checks, where.get("en", ""), where.get("zh", ""),
                        list(ex.get("passage", [])), ex.get("gloss_en", ""))


def _printed_claims(ex: dict) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Every table the notes print for this example (its notes_claim entries), with the rounding
    of each entry, for the checks that recompute something from the notes' own numbers."""
    per_entry = set(ex.get("printed_per_entry", []))
    out = {}
    for key, val in ex.get("notes_claim", {}).items():
        if not isinstance(val, list):
            continue
        vals, tol = _claim_numbers(val, key)
        out[key] = (vals, rounding_tolerance(vals, per_entry=key in per_entry) if tol is None else tol)
    return out


def statements(example_id: str | None = None, path: str | Path | None = None) -> list[Statement]:
    """What the notes say in words that is wrong, with what is true and, where a computation
    backs it, the computed evidence; ``example_id`` keeps those tied to one example."""
    found = worked_checks.load_statements(load_examples(path))
    return found if example_id is None else [s for s in found if s.example == example_id]


def _find(example_id: str) -> dict:
    for e in load_examples()["examples"]:
        if e["id"] == example_id:
            return e
    raise ValueError(f"unknown example {example_id!r}; known: {', '.join(list_examples())}")


def _attach_claims(chain: _Chain, ex: dict) -> list[str]:
    unmatched = []
    for key, val in ex.get("notes_claim", {}).items():
        target = _claim_target(key)
        if target is None:
            if key not in _NOT_CLAIMS:
                unmatched.append(key)
            continue
        name, row = target
        if name not in chain.by_name:
            unmatched.append(key)
            continue
        _attach_claim(chain, name, val, key, row, _source_label(ex, key))
    per_entry = set(ex.get("printed_per_entry", []))
    for step in chain.steps:
        if step.source in per_entry:
            step.printed_per_entry = True
    return unmatched


def _attach_explanations(chain: _Chain, ex: dict) -> None:
    """Copy the hand-written explanations (English + Chinese) onto the steps they are about."""
    for key, text in ex.get("explanations", {}).items():
        for step in chain.steps:
            if step.source == key:
                step.explanation_en = text.get("en", "")
                step.explanation_zh = text.get("zh", "")


def _build_scores(chain: _Chain, ex: dict) -> None:
    """Only the scores are given (e.g. q1·k1 = 112, q1·k2 = 96): scale, exp, softmax."""
    s = _matrix(ex["scores"], "scores", ndim=1)
    d = _check_dk(ex.get("d_k"))
    if d is None:
        raise ValueError("scores-only example needs d_k")
    div = math.sqrt(d)
    chain.add("QK_T", s, label=LABELS["scores"], note="scores as given", note_zh="给定的分数")
    chain.add("scaled", s / div, fn=lambda a: a / div, inputs=("QK_T",),
              note=f"divided by √d_k = √{d} = {div:g}", note_zh=f"除以 √d_k = √{d} = {div:g}",
              hypotheses=[(_L(f"divided by {d} (no square root)", f"除以 {d}（没有开方）"),
                           lambda get: get("QK_T") / d)])
    chain.add("exp", _shifted_exp(s / div), fn=_shifted_exp, inputs=("scaled",),
              note="exp after subtracting the largest score: e^a/(e^a + e^b) = 1/(1 + e^(b − a)), same softmax",
              note_zh="先减去最大的分数再取 exp：e^a/(e^a + e^b) = 1/(1 + e^(b − a))，softmax 结果不变")
    chain.add("weights", softmax(s / div), fn=softmax, inputs=("scaled",), note="softmax: the weights sum to 1",
              note_zh="softmax：权重之和为 1")


def _build_pe_example(chain: _Chain, ex: dict) -> None:
    """One PE vector, with the notes' own substitutions as a hypothesis."""
    pos, d = ex["pos"], _check_dk(ex["d_model"])
    p = np.array([float(pos)])
    notes_sub = np.array([[math.sin(pos), math.cos(pos / 100), math.sin(pos / 100), math.cos(pos / 1000)]]) \
        if d == 4 else None
    hyps: list[Hypothesis] = [(_DIM_INDEX, lambda get: _pe(p, d, False)[0])]
    if notes_sub is not None:
        hyps.append((_L(f"the notes' own substitutions cos({pos:g}/100) and cos({pos:g}/1000) for dimensions 1 and 3",
                        f"笔记自己的代换：第 1 维用 cos({pos:g}/100)，第 3 维用 cos({pos:g}/1000)"),
                     lambda get: notes_sub[0]))
    chain.add("PE", positional_encoding([pos], d)[0], hypotheses=hyps,
              note=f"pos = {pos:g}; dimensions 2i and 2i+1 share the frequency 1/10000^(2i/{d}) "
                   "(the notes count “love”, the second word, as pos 2; counting from 0 it would be pos 1)",
              note_zh=f"pos = {pos:g}；第 2i 维与第 2i+1 维共用频率 1/10000^(2i/{d})"
                      "（笔记把第二个词“love”记为 pos 2；从 0 开始数应为 pos 1）")


def _build_encoder(chain: _Chain, ex: dict) -> None:
    """Embeddings + PE, Q/K/V, one head (paper: ÷√d_k; notes: ÷√d_model), then Add & Norm."""
    E = _matrix(ex["word_embeddings_rows_are_tokens"], "word embeddings")
    d = _check_dk(ex.get("d_model", E.shape[1]))
    if d != E.shape[1]:
        raise ValueError(f"d_model={d} but embeddings have {E.shape[1]} columns")
    n = E.shape[0]
    pos = np.arange(n, dtype=float)
    chain.add("E", E, label=LABELS["E"])
    chain.add("PE", positional_encoding(n, d), note="positions 0..n−1, sin in even and cos in odd dimensions",
              note_zh="位置 0..n−1，偶数维用 sin，奇数维用 cos",
              hypotheses=[(_DIM_INDEX, lambda get: _pe(pos, d, False)),
                          (_L("dimension index in the exponent and sin in every dimension",
                              "指数中用维度序号，且每一维都用 sin"),
                           lambda get: _pe(pos, d, False, True))])
    chain.add("X", E + chain.get("PE").value, fn=np.add, inputs=("E", "PE"),
              label=("Embedding + positional encoding", "词嵌入 + 位置编码"))
    W = {k: _matrix(ex[src], src) for k, src in (("W_Q", "W_query"), ("W_K", "W_key"), ("W_V", "W_value"))}
    claim = ex.get("notes_claim", {})
    convs = []
    if "sqrt(6)" in str(claim.get("scale_divisor", "")) or "scale_divisor" in claim:
        div = math.sqrt(d)
        convs = [_Convention(_L(f"notes' convention: divided by √{d} (d_model)", f"笔记的做法：除以 √{d}（d_model）"),
                             divisor=div),
                 _Convention(_L(f"notes' convention: divided by √{d} and Q used in place of V",
                                f"笔记的做法：除以 √{d}，并用 Q 代替 V"), divisor=div, v_from="Q")]
    _build_attention(chain, x_step="X", W_Q=W["W_Q"], W_K=W["W_K"], W_V=W["W_V"], heads=1, conventions=convs)
    if "add_norm_2_input_residual" in claim:
        eps = float(claim.get("layer_norm_eps", 1e-5))
        _build_add_norm(chain, claim["add_norm_2_input_residual"], claim["add_norm_2_input_ffn_out"], eps, "addnorm.")
        for s in ("x", "sublayer"):
            chain.get(f"addnorm.{s}").note = "as printed in the notes (input of the second Add & Norm)"
            chain.get(f"addnorm.{s}").note_zh = "按笔记印出的数（第二次相加与归一化的输入）"


def _build_generic(chain: _Chain, ex: dict) -> None:
    """Examples given as X with projections, or Q, K, V, with optional heads and mask."""
    env: dict[str, np.ndarray] = {}
    if "X" in ex:
        env["X"] = _matrix(ex["X"], "X")
    heads = int(ex.get("heads", 1))
    shared = ex.get("all_projection_matrices")
    W = {}
    for k in ("W_Q", "W_K", "W_V"):
        m = _resolve(ex.get(k, shared), env, k)
        W[k] = np.stack([m] * heads) if (m is not None and heads > 1 and shared is not None) else m
    direct = {k: ex.get(k) for k in ("Q", "K", "V")}
    convs = []
    if heads > 1:
        convs = [_Convention(_L("notes' convention: not scaled (softmax of Q·Kᵀ directly)",
                                "笔记的做法：不缩放（直接对 Q·Kᵀ 做 softmax）"), divisor=1.0)]
    mask = ex.get("mask")
    if any(isinstance(v, list) for v in direct.values()):
        Q, K, V = (_resolve(direct[k], env, k) for k in ("Q", "K", "V"))
        _build_attention(chain, Q=Q, K=K, V=V, heads=heads, d_k=ex.get("d_k"), mask=mask,
                         tokens=ex.get("tokens"), conventions=convs)
    else:
        _build_attention(chain, X=env["X"], W_Q=W["W_Q"], W_K=W["W_K"], W_V=W["W_V"], heads=heads,
                         d_k=ex.get("d_k"), mask=mask, tokens=ex.get("tokens"), conventions=convs)


# --------------------------------------------------------------------------------------------
# CLI


def _format_text(res: WorkedResult) -> str:
    """A readable table: each step's numbers, the notes' numbers, and the verdict."""
    lines = [f"{res.id}: {res.title_en} / {res.title_zh}", f"source: {res.source}"]
    if res.tokens:
        lines.append("tokens: " + " ".join(res.tokens))
    for s in res.steps:
        lines.append("")
        lines.append(f"== {s.name}: {s.label_en}  [{s.verdict}]")
        lines.extend("   " + r for r in _rows(s.value))
        if s.claimed is not None:
            lines.append(f"   notes ({s.source}):")
            lines.extend("   " + r for r in _rows(s.claimed, s.agrees))
        if s.note:
            lines.append("   " + s.note)
        if s.explanation_en:
            lines.append("   why: " + s.explanation_en)
    lines.append("")
    lines.append("summary: " + ", ".join(f"{k}={v}" for k, v in res.summary().items()))
    return "\n".join(lines)


def _rows(a: np.ndarray, ok: np.ndarray | None = None) -> list[str]:
    a2 = np.atleast_2d(a)
    ok2 = None if ok is None else np.atleast_2d(ok)
    out = []
    for i, row in enumerate(a2):
        cells = []
        for j, v in enumerate(row):
            cell = str(bool(v)) if a2.dtype == bool else _fmt(float(v))
            mark = "" if ok2 is None else (" " if ok2[i, j] else "✗")
            cells.append(f"{cell:>10}{mark}")
        out.append(" ".join(cells))
    return out


class _Parser(argparse.ArgumentParser):
    """argparse that exits 2 with a one-line message (and no usage dump) on bad arguments."""

    def error(self, message: str) -> None:  # noqa: D401 - argparse API
        self.exit(2, f"{self.prog}: error: {message}\n")


def main(argv: Sequence[str] | None = None) -> int:
    """`--list` prints ids; `ID [--json]` prints every step. Errors: one line on stderr, exit 2."""
    parser = _Parser(prog="python -m transformer.worked", description=__doc__.split("\n")[0])
    parser.add_argument("id", nargs="?", help="example id (see --list)")
    parser.add_argument("--list", action="store_true", help="print the example ids, one per line")
    parser.add_argument("--json", action="store_true", help="print every step as strict JSON")
    args = parser.parse_args(argv)
    if args.list:
        if args.id:
            parser.error("--list takes no example id")
        print("\n".join(list_examples()))
        return 0
    if not args.id:
        parser.error("give an example id or --list")
    if args.id not in list_examples():
        parser.error(f"unknown example id {args.id!r} (see --list)")
    try:
        res = run_example(args.id)
    except ValueError as e:
        parser.error(str(e))
    if args.json:
        print(json.dumps(res.to_dict(), ensure_ascii=False, allow_nan=False))
    else:
        print(_format_text(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
