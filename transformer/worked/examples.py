"""The shipped examples (worked_examples.json): loading, building each example's steps, attaching
the notes' claims and running the other checks."""
from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import numpy as np

from transformer.worked.checks import run_checks
from transformer.worked.graph import Hypothesis, WorkedResult, _Chain
from transformer.worked.maths import (_check_dk, _matrix, _pe, positional_encoding,
                                      rounding_tolerance)
from transformer.core.numeric import shifted_exp as _shifted_exp, softmax
from transformer.worked.statements import Statement, load_statements
from transformer.worked.steps import _build_add_norm, _build_attention, _Convention
from transformer.worked.wording import Verdict
from transformer.worked.verdicts import _attach_claim, _claim_numbers, _source_label, _verify

EXAMPLES_PATH = Path(__file__).resolve().parent.parent / "worked_examples.json"

_DIM_INDEX = Verdict("h_dim_index")


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
    checks = run_checks(ex, _printed_claims(ex))
    where = ex.get("where", {})
    return WorkedResult(ex["id"], dict(title), list(ex.get("tokens", [])), chain.steps,
                        ex.get("source", ""), unmatched, checks, dict(where),
                        list(ex.get("passage", [])), ex.get("gloss_en", ""), statements(ex["id"]))


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


def statements(example_id: str | None = None, path: str | Path | None = None, page: str | None = None
               ) -> list[Statement]:
    """What the notes say in words that is wrong, with what is true and, where a computation
    backs it, the computed evidence; ``example_id`` keeps those tied to one example, ``page``
    those whose subject a page of the app shows (e.g. "pages/positional-encoding.py")."""
    data = load_examples(path)
    found = load_statements(data)
    known = {e["id"] for e in data["examples"]}
    for s in found:
        if s.example is not None and s.example not in known:
            raise ValueError(f"statement {s.id!r}: unknown example {s.example!r}")
    if example_id is not None:
        found = [s for s in found if s.example == example_id]
    return found if page is None else [s for s in found if s.page == page]


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
                step.explanation = dict(text)


def _build_scores(chain: _Chain, ex: dict) -> None:
    """Only the scores are given (e.g. q1·k1 = 112, q1·k2 = 96): scale, exp, softmax."""
    s = _matrix(ex["scores"], "scores", ndim=1)
    d = _check_dk(ex.get("d_k"))
    if d is None:
        raise ValueError("scores-only example needs d_k")
    div = math.sqrt(d)
    chain.add("QK_T", s, label=Verdict("label_scores"),
              note=[Verdict("note_scores_given")])
    chain.add("scaled", s / div, fn=lambda a: a / div, inputs=("QK_T",),
              note=[Verdict("note_scores_scaled", {"d": d, "div": f"{div:g}"})],
              hypotheses=[(Verdict("h_div_no_root", {"d": d}),
                           lambda get: get("QK_T") / d)])
    chain.add("exp", _shifted_exp(s / div), fn=_shifted_exp, inputs=("scaled",),
              note=[Verdict("note_scores_exp")])
    chain.add("weights", softmax(s / div), fn=softmax, inputs=("scaled",), note=[Verdict("note_scores_softmax")])


def _build_pe_example(chain: _Chain, ex: dict) -> None:
    """One PE vector, with the notes' own substitutions as a hypothesis."""
    pos, d = ex["pos"], _check_dk(ex["d_model"])
    p = np.array([float(pos)])
    notes_sub = np.array([[math.sin(pos), math.cos(pos / 100), math.sin(pos / 100), math.cos(pos / 1000)]]) \
        if d == 4 else None
    hyps: list[Hypothesis] = [(_DIM_INDEX, lambda get: _pe(p, d, False)[0])]
    if notes_sub is not None:
        hyps.append((Verdict("h_pe_substitutions", {"pos": f"{pos:g}"}), lambda get: notes_sub[0]))
    chain.add("PE", positional_encoding([pos], d)[0], hypotheses=hyps,
              note=[Verdict("note_pe_vector", {"pos": f"{pos:g}", "d": d})])


def _build_encoder(chain: _Chain, ex: dict) -> None:
    """Embeddings + PE, Q/K/V, one head (paper: ÷√d_k; notes: ÷√d_model), then Add & Norm."""
    E = _matrix(ex["word_embeddings_rows_are_tokens"], "word embeddings")
    d = _check_dk(ex.get("d_model", E.shape[1]))
    if d != E.shape[1]:
        raise ValueError(f"d_model={d} but embeddings have {E.shape[1]} columns")
    n = E.shape[0]
    pos = np.arange(n, dtype=float)
    chain.add("E", E)
    chain.add("PE", positional_encoding(n, d), note=[Verdict("note_pe_table")],
              hypotheses=[(_DIM_INDEX, lambda get: _pe(pos, d, False)),
                          (Verdict("h_dim_index_all_sin"),
                           lambda get: _pe(pos, d, False, True))])
    chain.add("X", E + chain.get("PE").value, fn=np.add, inputs=("E", "PE"),
              label=Verdict("label_E_PE"))
    W = {k: _matrix(ex[src], src) for k, src in (("W_Q", "W_query"), ("W_K", "W_key"), ("W_V", "W_value"))}
    claim = ex.get("notes_claim", {})
    convs = []
    if "sqrt(6)" in str(claim.get("scale_divisor", "")) or "scale_divisor" in claim:
        div = math.sqrt(d)
        convs = [_Convention(Verdict("conv_d_model", {"d": d}), divisor=div),
                 _Convention(Verdict("conv_d_model_q", {"d": d}), divisor=div, v_from="Q")]
    _build_attention(chain, x_step="X", W_Q=W["W_Q"], W_K=W["W_K"], W_V=W["W_V"], heads=1, conventions=convs)
    if "add_norm_2_input_residual" in claim:
        eps = float(claim.get("layer_norm_eps", 1e-5))
        _build_add_norm(chain, claim["add_norm_2_input_residual"], claim["add_norm_2_input_ffn_out"], eps, "addnorm.")
        for s in ("x", "sublayer"):
            chain.get(f"addnorm.{s}").note = (Verdict("note_addnorm_input"),)


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
        convs = [_Convention(Verdict("conv_unscaled"), divisor=1.0)]
    mask = ex.get("mask")
    if any(isinstance(v, list) for v in direct.values()):
        Q, K, V = (_resolve(direct[k], env, k) for k in ("Q", "K", "V"))
        _build_attention(chain, Q=Q, K=K, V=V, heads=heads, d_k=ex.get("d_k"), mask=mask,
                         tokens=ex.get("tokens"), conventions=convs)
    else:
        _build_attention(chain, X=env["X"], W_Q=W["W_Q"], W_K=W["W_K"], W_V=W["W_V"], heads=heads,
                         d_k=ex.get("d_k"), mask=mask, tokens=ex.get("tokens"), conventions=convs)
