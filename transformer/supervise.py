"""Attention supervision: an auxiliary loss that teaches one named head to attend from a
pronoun to its antecedent (Strubell et al., 2018, "Linguistically-Informed Self-Attention",
trained a head the same way on syntax).

Why: in a translation model of several layers and heads, the information that decides er / sie
/ es spreads over many heads, so no single head shows the classroom what the model does. With a
small extra loss on generated pronoun pairs, one head takes the job, and the app can show it and
switch it off. Whether that head then finds antecedents in sentences the generator never made
is what the hand-written probe measures (transformer/probes/classroom_pronouns_en.jsonl).

Training asks for the weights of one attention path with `capture({path})`: that path runs the
explicit attention (its weights keep their gradient), every other path the fused kernel.
"""
from __future__ import annotations

import contextlib
import contextvars
from dataclasses import dataclass
from typing import Iterator, Sequence

import torch

_CAPTURE: contextvars.ContextVar[dict | None] = contextvars.ContextVar(
    "attention_lab_capture", default=None)


def wanted(path: str) -> bool:
    cap = _CAPTURE.get()
    return cap is not None and path in cap


def keep(path: str, weights: torch.Tensor) -> None:
    """Called by the attention function with (B,H,T,S) weights when `wanted(path)`."""
    cap = _CAPTURE.get()
    if cap is not None and path in cap:
        cap[path] = weights


@contextlib.contextmanager
def capture(paths: set[str]) -> Iterator[dict]:
    """Within the context, the attention of `paths` keeps its weights, with their gradient."""
    cap: dict = {p: None for p in paths}
    token = _CAPTURE.set(cap)
    try:
        yield cap
    finally:
        _CAPTURE.reset(token)


@dataclass(frozen=True)
class HeadTarget:
    """The supervised head: decoder self-attention `layer`, `head`; loss weight `weight`."""

    layer: int
    head: int
    weight: float

    @property
    def path(self) -> str:
        return f"decoder.layers.{self.layer}.self_attn"

    @classmethod
    def parse(cls, spec: str, weight: float) -> "HeadTarget":
        """'decoder_self:LAYER:HEAD' (the head finder's form); only decoder self-attention: the
        head that reads the antecedent's gender off the German already written."""
        parts = str(spec).split(":")
        if len(parts) != 3 or parts[0] != "decoder_self" or not all(p.isdigit() for p in parts[1:]):
            raise ValueError(f"must be decoder_self:LAYER:HEAD (got {spec!r})")
        if not (weight > 0 and weight == weight and weight < 1e3):
            raise ValueError(f"weight must be a positive number (got {weight!r})")
        return cls(int(parts[1]), int(parts[2]), float(weight))


def targets(tokenizer, tgt_texts: Sequence[str], metas: Sequence[dict]) -> list:
    """Per training pair: (query position, key positions) in the decoder input ([BOS] + pieces),
    or None when the pair has no pronoun facts. The query is the position that writes the
    pronoun's first piece (it holds the token before); the keys are the antecedent's noun phrase
    (article + noun, as the head finder counts it), shifted by one for BOS."""
    from .heads import _word_of_position, noun_phrase

    out: list = []
    for text, m in zip(tgt_texts, metas):
        pron, ante = (m or {}).get("tgt_pronoun_pos"), (m or {}).get("tgt_antecedent_pos")
        if not isinstance(pron, int) or not isinstance(ante, int):
            out.append(None)
            continue
        ids = tokenizer.encode(text)
        owner = _word_of_position(tokenizer, ids)
        lo, hi = noun_phrase(text.split(), ante)
        q = next((j for j, o in enumerate(owner) if o == pron), None)
        keys = [j + 1 for j, o in enumerate(owner) if lo <= o <= hi]
        out.append((q, keys) if q is not None and keys and max(keys) <= q else None)
    return out


def loss(weights: torch.Tensor, head: int, rows: Sequence[tuple[int, tuple[int, list[int]]]]
         ) -> torch.Tensor:
    """Mean over supervised rows of -log(weight on the antecedent span) for one head.
    weights (B,H,T,S); rows: (batch row, (query position, key positions))."""
    terms = []
    for r, (q, keys) in rows:
        p = weights[r, head, q, keys].sum()  # (len(keys),) -> ()
        terms.append(-torch.log(p.float().clamp_min(1e-6)))
    return torch.stack(terms).mean()
