"""The step graph: :class:`Step` and :class:`WorkedResult`, and the chain that keeps, per step,
the function that made it from earlier steps (so the notes' own numbers can be pushed through)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from transformer.worked.checks import Check
from transformer.worked.maths import _jsonable, rounding_tolerance
from transformer.worked.statements import Statement, statements_summary
from transformer.worked.wording import Verdict, plain, sort_key

# steps with a label of their own (code "label_<name>" in transformer/worked/english.py); per-head steps
# use the part after "headN."
LABELED = ("scores", "E", "PE", "X", "Q", "K", "V", "QK_T", "scaled", "mask", "masked", "exp", "weights", "output",
           "concat", "W_O", "residual", "mean", "std", "norm")


def step_label(name: str) -> Verdict:
    """The label code of a step called ``name`` ("raw" with the name where it has none)."""
    return Verdict("label_" + name) if name in LABELED else Verdict("raw", {"text": name})


# --------------------------------------------------------------------------------------------
# Data classes


@dataclass
class Step:
    """One computed step. ``value`` is always the paper-correct number.

    ``claimed``/``agrees``/``tolerance`` are set when the notes print this step (same shape as
    ``value``). ``alternatives`` holds other conventions and hypotheses (label -> array) and
    ``matches`` the labels whose numbers agree with the claim. Labels, notes and verdicts are
    codes with parameters (:class:`transformer.worked.wording.Verdict`), rendered by the UI in the
    reader's language and by the CLI in English. ``verdict`` is one of
    ``computed`` (no claim), ``agrees``, ``slip`` (wrong at this step), ``inherited`` (this
    step's arithmetic is right given the notes' own wrong earlier numbers), ``assumed`` (the
    notes say they made the numbers up). ``origin`` names the step where a wrong value began.
    """

    name: str
    label: Verdict
    value: np.ndarray
    claimed: np.ndarray | None = None
    agrees: np.ndarray | None = None
    tolerance: np.ndarray | None = None
    note: tuple[Verdict, ...] = ()  # how the step is computed (codes, transformer.worked.wording)
    verdict_note: tuple[Verdict, ...] = ()  # what the check found, for a claimed step
    verdict: str = "computed"
    origin: str | None = None
    source: str | None = None
    alternatives: dict[Verdict, np.ndarray] = field(default_factory=dict)
    matches: list[Verdict] = field(default_factory=list)
    rough_matches: list[Verdict] = field(default_factory=list)
    printed_per_entry: bool = False  # the notes print this table with mixed decimals
    partial: dict[Verdict, int] = field(default_factory=dict)  # hypothesis -> wrong entries it explains
    explanation: dict = field(default_factory=dict)  # the examples file's own {"en", "zh"} (data)
    source_label: Verdict | None = None  # which of the notes' printings this claim is (never a key)
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

    def to_dict(self, render: Callable[..., str], step_text: Callable[..., str]) -> dict[str, Any]:
        """Strict-JSON-ready dict (non-finite numbers become strings, see module docstring), with
        the codes also in words: ``render(verdicts, lang)`` and ``step_text(step, lang)`` (a
        :class:`~transformer.worked.words.Words`' methods)."""
        return {
            "name": self.name,
            "label_en": render(self.label, "en"),
            "label_zh": render(self.label, "zh"),
            "value": _jsonable(self.value),
            "claimed": None if self.claimed is None else _jsonable(self.claimed),
            "agrees": None if self.agrees is None else self.agrees.tolist(),
            "tolerance": None if self.tolerance is None else _jsonable(self.tolerance),
            "verdict": self.verdict,
            "origin": self.origin,
            "source": self.source,
            "matches": [render(m) for m in self.matches],
            "rough_matches": [render(m) for m in self.rough_matches],
            "partial": {render(k): v for k, v in self.partial.items()},
            "note": step_text(self, "en"),
            "note_zh": step_text(self, "zh"),
            "explanation_en": self.explanation.get("en", ""),
            "explanation_zh": self.explanation.get("zh", ""),
            "source_en": "" if self.source_label is None else render(self.source_label, "en"),
            "source_zh": "" if self.source_label is None else render(self.source_label, "zh"),
            "codes": plain({"label": self.label, "note": self.note, "verdict": self.verdict_note,
                            "matches": self.matches, "rough_matches": self.rough_matches}),
        }


@dataclass
class WorkedResult:
    """All steps of one worked example, in order, and the checks of the other numbers the notes
    print with it (:mod:`transformer.worked.checks`). ``where`` says in words where in the notes
    the example is; ``passage`` is the notes' own text of it (Chinese, verbatim) and ``gloss_en``
    an English gloss of that text. ``statements``: what the notes say in words about this example
    (:mod:`transformer.worked.statements`), each with its verdict."""

    id: str
    title: dict  # {"en", "zh"}: the examples file's own (data)
    tokens: list[str]
    steps: list[Step]
    source: str = ""
    unmatched_claims: list[str] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    where: dict = field(default_factory=dict)  # {"en", "zh"} (data)
    passage: list[str] = field(default_factory=list)
    gloss_en: str = ""
    statements: list[Statement] = field(default_factory=list)

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
            **statements_summary(self.statements),
        }

    def to_dict(self, render: Callable[..., str], step_text: Callable[..., str]) -> dict[str, Any]:
        """Strict-JSON-ready dict; the codes also in words (``render``, ``step_text``: Step.to_dict)."""
        return {
            "id": self.id,
            "title_en": self.title["en"],
            "title_zh": self.title["zh"],
            "tokens": list(self.tokens),
            "source": self.source,
            "where_en": self.where.get("en", ""),
            "where_zh": self.where.get("zh", ""),
            "steps": [s.to_dict(render, step_text) for s in self.steps],
            "checks": [c.to_dict(render) for c in self.checks],
            "statements": [s.to_dict() for s in self.statements],
            "summary": self.summary(),
        }


# --------------------------------------------------------------------------------------------
# The chain: steps plus how each was computed, so the notes' own numbers can be pushed through


Hypothesis = tuple[Verdict, Callable[[Callable[[str], np.ndarray]], np.ndarray | None]]


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
            inputs: Sequence[str] = (), note: Sequence[Verdict] = (),
            hypotheses: Sequence[Hypothesis] = (), alternatives: dict[Verdict, np.ndarray] | None = None,
            label: Verdict | None = None, conventions: dict | None = None,
            after: str | None = None) -> np.ndarray:
        lab = label or step_label(name.split(".")[-1])
        if lab.code == "raw":
            lab = Verdict("raw", {"text": name})
        if "." in name and name.startswith("head"):
            lab = Verdict("label_head", {"n": name.split(".")[0][4:], "label": lab})
        step = Step(name, lab, np.asarray(value), note=tuple(note), alternatives=dict(alternatives or {}))
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

    def convention_labels(self) -> list[Verdict]:
        """The notes' conventions in this chain, in the order of their codes."""
        return sorted({c for n in self.nodes.values() for c in n.conventions}, key=sort_key)
