"""Attention and Add & Norm as steps of a chain, with the hypotheses (other conventions, known
slips) each step is checked against: the free mode's :func:`attention_steps` and
:func:`add_norm_steps`, and the builders the examples use."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from transformer.worked.graph import Hypothesis, Step, _Chain
from transformer.worked.wording import InputError, Verdict
from transformer.worked.maths import (_check_dk, _core, _matrix, _parse_mask, _projections,
                                      _split_heads)
from transformer.core.numeric import shifted_exp as _shifted_exp, softmax
from transformer.worked.verdicts import _verify


@dataclass
class _Convention:
    """An alternative way the notes computed attention (another divisor, another V)."""

    label: Verdict
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
            raise InputError("err_qk_columns", a=q.shape[1], b=k.shape[1])
        if k.shape[0] != v.shape[0]:
            raise InputError("err_kv_rows", a=k.shape[0], b=v.shape[0])
    width = qs[0].shape[1]
    if d_k is not None and d_k != width:
        raise InputError("err_dk_width", d=d_k, w=width)
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
                note = [Verdict("note_proj", {"letter": letter, "w": wn})]
                if blank[wn] and heads > 1:
                    a, b = h * wm.shape[1] + 1, (h + 1) * wm.shape[1]
                    note.append(Verdict("note_proj_blank", {"w": wn, "a": a, "b": b}))
                elif np.array_equal(wm, np.eye(*wm.shape)):
                    note.append(Verdict("note_proj_identity", {"w": wn, "letter": letter}))
                per[letter].append(chain.add(name, x @ wm, fn=lambda xx, wm=wm: xx @ wm, inputs=(x_step,),
                                             note=note))
        return per["Q"], per["K"], per["V"], x_step
    if any(m is None for m in (Q, K, V)):
        raise ValueError("give X, or all three of Q, K and V")
    if any(m is not None for m in (W_Q, W_K, W_V)):
        raise ValueError("W_Q/W_K/W_V need X; with Q, K, V given directly leave them out")
    mats = {n: _matrix(m, n) for n, m in (("Q", Q), ("K", K), ("V", V))}
    per = {n: _split_heads(m, heads, n) if heads > 1 else [m] for n, m in mats.items()}
    for h in range(heads):
        for n, blocks in per.items():
            chain.add(f"head{h + 1}.{n}" if heads > 1 else n, blocks[h],
                      note=[Verdict("note_given", {"n": n})])
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
              note=[Verdict("note_scaled", {"d": d, "div": f"{div:.6g}"})],
              hypotheses=_scale_hypotheses(p, d, x_name, chain), alternatives=alts("scaled"), conventions=conv_scale)
    score = p + "scaled"
    if keep is not None:
        chain.add(p + "mask", keep, note=[Verdict("note_mask")])
        chain.add(p + "masked", core["masked"], fn=lambda a, m: np.where(m, a, -np.inf),
                  inputs=(p + "scaled", p + "mask"), note=[Verdict("note_masked")],
                  hypotheses=_mask_hypotheses(p, keep), alternatives=alts("masked"))
        score = p + "masked"
    chain.add(p + "exp", core["exp"], fn=_shifted_exp, inputs=(score,),
              note=[Verdict("note_exp")],
              alternatives=alts("exp"))
    chain.add(p + "weights", core["weights"], fn=softmax, inputs=(score,),
              note=[Verdict("note_weights")], alternatives=alts("weights"))
    chain.add(p + "output", core["output"], fn=lambda w, vv: w @ vv, inputs=(p + "weights", p + "V"),
              hypotheses=[(Verdict("h_q_for_v"),
                           lambda get, p=p: get(p + "weights") @ get(p + "Q"))]
              # only where Q and V differ: with Q = V (W_Q = W_V) it would "explain" nothing
              if q.shape == v.shape and not np.allclose(q, v) else [],
              alternatives=alts("output"), conventions=conv_out)
    return core["output"]


def _qk_hypotheses(p: str, shape: tuple[int, ...]) -> list[Hypothesis]:
    """Wrong scores seen in notes: writing Kᵀ or Q itself instead of the product."""
    def take(name, transpose):
        def f(get):
            a = get(p + name)
            a = a.T if transpose else a
            return a if a.shape == shape else None
        return f
    return [(Verdict("h_kt"),
             take("K", True)),
            (Verdict("h_q"),
             take("Q", False))]


def _scale_hypotheses(p: str, d: int, x_name: str | None, chain: _Chain) -> list[Hypothesis]:
    """Other divisors: √d_model (embedding size), d_k without the root, no scaling."""
    hyps: list[Hypothesis] = []
    if x_name is not None:
        dm = chain.get(x_name).value.shape[1]
        if dm != d:
            hyps.append((Verdict("h_div_d_model", {"dm": dm, "d": d}),
                         lambda get: get(p + "QK_T") / math.sqrt(dm)))
    hyps.append((Verdict("h_div_d_k", {"d": d}),
                 lambda get: get(p + "QK_T") / d))
    hyps.append((Verdict("h_unscaled"), lambda get: get(p + "QK_T")))
    return hyps


def _mask_hypotheses(p: str, keep: np.ndarray) -> list[Hypothesis]:
    """Masking slips: 0 instead of −inf, the opposite triangle, masking the wrong matrix."""
    opposite = keep.T if keep.shape[0] == keep.shape[1] else ~keep
    bases = [("scaled", p + "scaled", True), ("unscaled", p + "QK_T", True), ("notes", p + "QK_T", False),
             ("q", p + "Q", True)]
    hyps: list[Hypothesis] = []
    for base_label, base, computed in bases:
        for fill, fill_label in ((0.0, "zero"), (-np.inf, "inf")):
            for tri, tri_label in ((keep, "correct"), (opposite, "opposite")):
                if base == p + "scaled" and fill == -np.inf and tri is keep:
                    continue  # that is the correct value itself

                def f(get, base=base, fill=fill, tri=tri, computed=computed):
                    a = get(base, computed=computed)
                    if not computed and a is get(base, computed=True):
                        return None  # the notes print no scores of their own here
                    return np.where(tri, a, fill) if a.shape == tri.shape else None
                hyps.append((Verdict("h_mask", {"base": Verdict("mask_base_" + base_label),
                                                "fill": Verdict("mask_fill_" + fill_label),
                                                "tri": Verdict("mask_tri_" + tri_label)}), f))
    return hyps


def _concat_steps(chain: _Chain, outs: list[np.ndarray], W_O: Any) -> None:
    names = tuple(f"head{h + 1}.output" for h in range(len(outs)))
    cat = np.concatenate(outs, axis=1)
    chain.add("concat", cat, fn=lambda *o: np.concatenate(o, axis=1), inputs=names,
              note=[Verdict("note_concat", {"heads": len(outs), "cols": cat.shape[1]})])
    if W_O is not None:
        _w_o_step(chain, "concat", cat, W_O)


def _w_o_step(chain: _Chain, src: str, x: np.ndarray, W_O: Any) -> None:
    w = _matrix(W_O, "W_O")
    if w.shape[0] != x.shape[1]:
        raise ValueError(f"W_O must have {x.shape[1]} rows (width of the concatenated heads), got {w.shape[0]}")
    chain.add("W_O", x @ w, fn=lambda a: a @ w, inputs=(src,), note=[Verdict("note_w_o")])


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
    chain.add(p + "x", xa, label=Verdict("label_x"))
    chain.add(p + "sublayer", sa, label=Verdict("label_sublayer"))
    r = chain.add(p + "residual", xa + sa, fn=np.add, inputs=(p + "x", p + "sublayer"))
    mean = chain.add(p + "mean", r.mean(axis=1), fn=lambda a: a.mean(axis=1), inputs=(p + "residual",))
    std = chain.add(p + "std", r.std(axis=1), fn=lambda a: a.std(axis=1), inputs=(p + "residual",),
                    note=[Verdict("note_std")],
                    hypotheses=[(Verdict("h_sample_std"),
                                 lambda get: get(p + "residual").std(axis=1, ddof=1))])
    chain.add(p + "output", (r - mean[:, None]) / np.sqrt(std[:, None] ** 2 + eps),
              fn=lambda a, m, s: (a - m[:, None]) / np.sqrt(s[:, None] ** 2 + eps),
              inputs=(p + "residual", p + "mean", p + "std"), label=Verdict("label_norm"),
              note=[Verdict("note_norm", {"eps": f"{eps:g}"})],
              alternatives={Verdict("h_notes_formula"):
                            (r - mean[:, None]) / (std[:, None] + eps)},
              hypotheses=[(Verdict("h_notes_mean_std"),
                           lambda get: (get(p + "residual") - get(p + "mean")[:, None])
                           / (get(p + "std")[:, None] + eps))])
