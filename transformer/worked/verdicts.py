"""Checking the notes' claims: tolerances, agreement, verdicts (agrees, slip, inherited,
assumed), the hypotheses that match a wrong claim, and where an error began."""
from __future__ import annotations

from typing import Any

import numpy as np

from transformer.worked.checks import printed_array
from transformer.worked.graph import Step, _Chain, _Node
from transformer.worked.labels import _L, label_zh, short_name
from transformer.worked.maths import _close, _fmt, _matrix, _rough


# --------------------------------------------------------------------------------------------
# Checking claims


def _claim_numbers(claimed: Any, source: str) -> tuple[np.ndarray, np.ndarray | None]:
    """A claim as numbers, and its rounding when the notes' printed text is stored (strings such
    as "12.0260", "1.0000e+00" or "-\\infty"); None: read the rounding from the numbers."""
    if any(isinstance(v, str) for v in np.asarray(claimed, dtype=object).ravel()):
        try:
            vals, tol = printed_array(claimed)
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
