"""Checking the notes' claims: tolerances, agreement, verdicts (agrees, slip, inherited,
assumed), the hypotheses that match a wrong claim, and where an error began."""
from __future__ import annotations

from typing import Any

import numpy as np

from transformer.worked.checks import printed_array
from transformer.worked.graph import Step, _Chain, _Node
from transformer.worked.wording import Verdict
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


def _source_label(ex: dict, key: str) -> Verdict:
    """Which printing of the notes a claim is (the examples file's claim_labels, else by its key)."""
    lab = ex.get("claim_labels", {}).get(key)
    if lab:
        return Verdict("raw", {"text": {"en": lab["en"], "zh": lab["zh"]}})
    if key.startswith("hand"):
        return Verdict("source_hand")
    if key.startswith("torch"):
        return Verdict("source_torch")
    return Verdict("source_printed")


def _attach_claim(chain: _Chain, name: str, claimed: Any, source: str, row: int | None = None,
                  source_label: Verdict = Verdict("source_printed")) -> None:
    """Put the notes' number on a step; a row claim or a second claim gets its own check step."""
    main = chain.get(name)
    c, printed_tol = _claim_numbers(claimed, source)
    if row is None and main.claimed is None:
        if c.shape != main.value.shape:
            raise ValueError(f"claim {source!r} has shape {c.shape} but step {name} has {main.value.shape}")
        main.claimed, main.source, main.printed_tol = c, source, printed_tol
        main.source_label = source_label
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
    label = Verdict("label_row", {"label": main.label, "row": row, "source": source_label}) if row is not None \
        else Verdict("label_source", {"label": main.label, "source": source_label})
    chain.add(new, value, fn=fn if node.fn else None, inputs=ins, after=name, label=label, note=main.note)
    step = chain.get(new)
    step.claimed, step.source, step.printed_tol = c, source, printed_tol
    step.source_label = source_label


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
        step.alternatives[Verdict("h_recomputed", {"steps": names})] = from_notes
    for label, values in conv.items():
        v = _from_notes(_Node(*node.conventions.get(label, (node.fn, node.inputs)), []), values, step.value.shape)
        known = [step.value, from_notes, step.alternatives.get(label)]
        if v is not None and upstream and not any(k is not None and _same(v, k) for k in known):
            step.alternatives[Verdict("h_from_notes", {"label": label})] = v
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
    """Verdict, origin and what the check found (codes, rendered by transformer/worked/words.py)."""
    n, total = step.n_disagree, step.agrees.size
    if n == 0:
        step.verdict = "agrees"
        step.verdict_note = (Verdict("agrees", {"total": total}),)
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
    step.verdict_note = tuple(_found(step, n, total, from_notes, upstream))


def _worst(step: Step, k: int = 3) -> list[dict]:
    """The ``k`` entries furthest from the notes: index, the notes' number, the right one."""
    bad = np.argwhere(~step.agrees)
    with np.errstate(invalid="ignore"):
        diff = np.nan_to_num(np.abs(step.value - step.claimed), nan=np.inf, posinf=np.inf)
    order = sorted(map(tuple, bad), key=lambda ij: -diff[ij])[:k]
    return [{"at": [int(i) for i in ij], "notes": _fmt(step.claimed[ij]), "right": _fmt(step.value[ij])}
            for ij in order]


def _found(step: Step, n: int, total: int, from_notes, upstream: list[Step]) -> list[Verdict]:
    """What a disagreeing step's check found, piece by piece (a language may leave pieces out)."""
    out = [Verdict("disagree", {"n": n, "total": total, "worst": _worst(step)})]
    if step.verdict == "assumed":
        out.append(Verdict("assumed"))
        if from_notes is not None and not any(m.code == "h_recomputed" for m in step.matches):
            out.append(Verdict("assumed_not_own_softmax"))
    elif step.verdict == "inherited":
        out.append(Verdict("inherited", {"steps": [s.strip() for s in step.origin.split(",")]}))
    else:
        out.append(Verdict("slip_upstream" if upstream else "slip"))
    if step.matches:
        out.append(Verdict("matches", {"labels": list(step.matches)}))
    if step.rough_matches:
        out.append(Verdict("rough", {"labels": list(step.rough_matches)}))
    if not step.matches and _rough(step.value, step.claimed, step.rounding()).all():
        out.append(Verdict("near"))
    if step.partial and not step.matches:
        out.append(Verdict("partial", {"parts": list(step.partial.items()), "n": n}))
    found = step.matches or step.rough_matches or list(step.partial)
    if found:
        out.append(Verdict("found", {"labels": list(found)}))
    return out
