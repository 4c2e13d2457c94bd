"""Attention supervision: an auxiliary loss that teaches one named head to attend from a
pronoun to its antecedent (Strubell et al., 2018, "Linguistically-Informed Self-Attention",
trained a head the same way on syntax).

Why: in a translation model of several layers and heads, the information that decides er / sie
/ es spreads over many heads, so no single head shows the classroom what the model does. With a
small extra loss on generated pronoun pairs, one head takes the job, and the app can show it and
switch it off. Whether that head then finds antecedents in sentences the generator never made
is what the hand-written probe measures (transformer/probes/classroom_pronouns_en.jsonl).

Training asks for the weights of one attention path with `transformer.core.trace.capture({path})`:
that path runs the explicit attention (its weights keep their gradient), every other path the
fused kernel.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import torch

from transformer.core.names import Head
from transformer.probing.heads import _word_of_position
from transformer.probing.probe_items import noun_phrase


@dataclass(frozen=True)
class HeadTarget(Head):
    """The supervised head: a names.Head (`kind` decoder_self or encoder_self, `layer`, `head`;
    its `path`, its `cli` form 'decoder_self:2:5') plus the loss weight `weight`. A decoder
    self-attention head reads the antecedent's gender off the German already written, from the
    position that writes the pronoun; an encoder self-attention head (where the paper's Figure 4
    anaphora heads are: encoder self-attention, layer 5 of 6) attends from the English pronoun,
    which sees the whole sentence ("because it was thirsty"), to the English antecedent."""

    weight: float = 1.0

    @classmethod
    def parse(cls, spec: str, weight: float) -> "HeadTarget":
        """'decoder_self:LAYER:HEAD' or 'encoder_self:LAYER:HEAD' (the head finder's form)."""
        try:
            h = Head.parse(str(spec), form="cli")
        except ValueError:
            h = None
        if h is None or h.kind not in SUPERVISABLE:
            raise ValueError(f"must be decoder_self:LAYER:HEAD or encoder_self:LAYER:HEAD "
                             f"(got {spec!r})")
        if not (weight > 0 and weight == weight and weight < 1e3):
            raise ValueError(f"weight must be a positive number (got {weight!r})")
        return cls(h.kind, h.layer, h.head, float(weight))

    @classmethod
    def parse_many(cls, specs: str, weight: float) -> tuple["HeadTarget", ...]:
        """One head, or several separated by commas ("decoder_self:2:6,encoder_self:2:0"), all
        with the same weight; a head named twice is refused."""
        heads = tuple(cls.parse(s, weight) for s in str(specs).split(","))
        if len({h.cli for h in heads}) != len(heads):
            raise ValueError(f"a head is named twice (got {specs!r})")
        return heads


SUPERVISABLE = ("decoder_self", "encoder_self")


SPANS = ("phrase", "noun")


def _pieces(tokenizer, text: str, meta: dict | None, pron_key: str, ante_key: str,
            span: str = "phrase"):
    """(first piece of the pronoun word, pieces of the antecedent) in ``tokenizer.encode(text)``,
    from the word positions ``meta`` names; None without them. SPAN "phrase" takes the noun
    phrase (article + noun), "noun" the noun's word alone."""
    pron, ante = (meta or {}).get(pron_key), (meta or {}).get(ante_key)
    if not isinstance(pron, int) or not isinstance(ante, int) or pron == ante:
        return None
    if span not in SPANS:
        raise ValueError(f"span must be one of {', '.join(SPANS)} (got {span!r})")
    owner = _word_of_position(tokenizer, tokenizer.encode(text))
    lo, hi = noun_phrase(text.split(), ante) if span == "phrase" else (ante, ante)
    q = next((j for j, o in enumerate(owner) if o == pron), None)
    keys = [j for j, o in enumerate(owner) if lo <= o <= hi]
    return (q, keys) if q is not None and keys else None


def targets(tokenizer, tgt_texts: Sequence[str], metas: Sequence[dict]) -> list:
    """Per training pair: (query position, key positions) in the decoder input ([BOS] + pieces),
    or None when the pair has no pronoun facts. The query is the position that writes the
    pronoun's first piece (it holds the token before); the keys are the antecedent's noun phrase
    (article + noun, as the head finder counts it), shifted by one for BOS."""
    out: list = []
    for text, m in zip(tgt_texts, metas):
        got = _pieces(tokenizer, text, m, "tgt_pronoun_pos", "tgt_antecedent_pos")
        keys = [k + 1 for k in got[1]] if got else []  # pieces -> decoder input positions
        out.append((got[0], keys) if got and max(keys) <= got[0] else None)
    return out


def source_targets(tokenizer, src_texts: Sequence[str], metas: Sequence[dict],
                   span: str = "phrase") -> list:
    """Per training pair: (query position, key positions) in the encoder input (pieces + EOS),
    or None. The query is the English pronoun's first piece; the keys are the antecedent's noun
    phrase (article + noun; SPAN "phrase"), or its noun alone (SPAN "noun"), wherever it stands:
    the encoder sees the whole sentence.

    Why a noun-only span: an English article carries no gender ("the" for der, die and das), so
    a head rewarded for any weight on "the dog" may settle on "the", whose vector says little
    about er / sie / es, and the Attention page then shows "it" looking at "The". On the German
    side the article does carry the gender ("der Hund"), so the decoder's target stays the
    phrase."""
    out: list = []
    for text, m in zip(src_texts, metas):
        got = _pieces(tokenizer, text, m, "pronoun_pos", "antecedent_pos", span)
        out.append(got if got and got[0] not in got[1] else None)
    return out


def targets_for(head: HeadTarget, tokenizer, src_texts: Sequence[str], tgt_texts: Sequence[str],
                metas: Sequence[dict], source_span: str = "phrase") -> list:
    """The per-pair targets of `head`'s side of the model (SOURCE_SPAN: an encoder head's keys,
    see `source_targets`)."""
    if head.kind == "encoder_self":
        return source_targets(tokenizer, src_texts, metas, source_span)
    return targets(tokenizer, tgt_texts, metas)


def loss(weights: torch.Tensor, head: int, rows: Sequence[tuple[int, tuple[int, list[int]]]]
         ) -> torch.Tensor:
    """Mean over supervised rows of -log(weight on the antecedent span) for one head.
    weights (B,H,T,S); rows: (batch row, (query position, key positions)).

    One gather and one masked sum for all rows, in place of a Python loop of small index
    operations (one host-to-device copy each, forward and backward): on an H200 the whole step
    took about 170 ms with the loop (2026-11-26), which a GPU should do in a fraction of that."""
    r_idx = torch.tensor([r for r, _ in rows])  # (R,)
    q_idx = torch.tensor([q for _, (q, _) in rows])  # (R,)
    flat_r = torch.tensor([i for i, (_, (_, keys)) in enumerate(rows) for _ in keys])
    flat_k = torch.tensor([k for _, (_, keys) in rows for k in keys])
    mask = torch.zeros(len(rows), weights.shape[-1], dtype=torch.bool)  # (R,S): the span's keys
    mask[flat_r, flat_k] = True
    dev = weights.device
    w = weights[r_idx.to(dev), head, q_idx.to(dev)]  # (B,H,T,S) -> (R,S): each row's query
    p = (w.float() * mask.to(dev)).sum(-1)  # (R,S) -> (R,)
    return -torch.log(p.clamp_min(1e-6)).mean()
