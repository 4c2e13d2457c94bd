"""Which heads' behaviour was trained, read from a checkpoint's own config (issue 49, 5).

A head that attention supervision taught to look from a pronoun to its antecedent, or that
interchange-intervention training taught to carry the pronoun's choice, shows that behaviour
because it was asked to: a page that presents it as a finding must say so. The training config
records both (`extra.supervise.head`, `extra.interchange.head`: comma-separated KIND:LAYER:HEAD,
as `python -m transformer.train --supervise-head / --interchange-head` took them). A checkpoint
without them (multi30k-en-de, never supervised) is the untrained control.

    taught(train_config) -> {Head: ("supervised", "interchange", ...)}
"""
from __future__ import annotations

from transformer.core.names import Head

HOW = ("supervised", "interchange")  # the words the JSON and the pages use, in this order
_KEYS = {"supervise": "supervised", "interchange": "interchange"}


def taught(train_config: dict | None) -> dict[Head, tuple[str, ...]]:
    """Every taught head of the checkpoint whose training config this is, with how it was
    taught ("supervised": attention supervision; "interchange": interchange training). Heads
    written in a form no one can read are skipped (a hand-edited config must not stop a page)."""
    extra = (train_config or {}).get("extra") or {}
    out: dict[Head, list[str]] = {}
    for key, how in _KEYS.items():
        spec = (extra.get(key) or {}).get("head") if isinstance(extra.get(key), dict) else None
        for part in str(spec or "").split(","):
            part = part.strip()
            if not part:
                continue
            try:
                head = Head.parse(part, form="cli")
            except ValueError:
                continue
            out.setdefault(head, [])
            if how not in out[head]:
                out[head].append(how)
    return {h: tuple(sorted(v, key=HOW.index)) for h, v in out.items()}


def how_taught(train_config: dict | None, kind: str, layer: int, head: int) -> tuple[str, ...]:
    """How this one head was taught (empty: it was not)."""
    return taught(train_config).get(Head(kind, int(layer), int(head)), ())
