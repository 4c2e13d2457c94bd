"""The causal test's metric: switch heads off, translate, check the German pronoun.

Split out of transformer/probing/heads.py (issue 13: no module over 500 lines). `pronoun_class` reads the
gender/number a German pronoun shows, `pronoun_hit` compares a hypothesis with its reference,
`translate_ids` decodes greedily with heads ablated, and `pronoun_accuracy` puts them together
over a probe. The trainer's pronoun metric (transformer.train.evaluation) is this one.
Import these names from here (issue 21: no re-exports).
"""
from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Sequence

import torch

from transformer.core.decode import greedy_batch
from transformer.core.text import source_ids
from transformer.core.trace import ablation


def pronoun_class(word: str) -> str | None:
    """The gender/number a German pronoun word shows: "m" (er, ihn), "n" (es), "f/pl" (sie,
    ihnen, ihr-), "m/n" (sein-, ihm: masculine and neuter share them). None for any other word."""
    w = word.strip(".,;:!?\"'").lower()
    if w in ("er", "ihn"):
        return "m"
    if w == "ihm":  # dative of er and of es
        return "m/n"
    if w == "es":
        return "n"
    if w in ("sie", "ihnen") or (w.startswith("ihr") and w[3:] in POSSESSIVE_ENDINGS):
        return "f/pl"
    if w.startswith("sein") and w[4:] in POSSESSIVE_ENDINGS:
        return "m/n"
    return None


POSSESSIVE_ENDINGS = ("", "e", "en", "em", "er", "es")


def pronoun_hit(hyp: str, target: str | None, tgt_pronoun: int | None) -> bool | None:
    """Does the hypothesis use the reference's German pronoun? With `tgt_pronoun` (a word
    position the probe knows, e.g. the anaphora task's meta), the same word must stand at the
    same position. Without one (free translations of natural sentences, whose word order may
    differ), the reference's last pronoun (er/sie/es, sein-/ihr- possessives) gives the wanted
    gender; the hypothesis must show that gender in some pronoun, and any other pronoun it has
    must fit one of the reference's pronouns (a sentence with "ihr Bruder ... es" has two).
    None when the reference has no pronoun (not scored)."""
    if not target:
        return None
    strip = lambda w: w.strip(".,;:!?\"'").lower()
    ref = target.split()
    words = hyp.split()
    if tgt_pronoun is not None and 0 <= tgt_pronoun < len(ref):
        want = strip(ref[tgt_pronoun])
        return tgt_pronoun < len(words) and strip(words[tgt_pronoun]) == want
    marks = [pronoun_class(w) for w in ref]
    wanted = next((m for m in reversed(marks) if m), None)
    if wanted is None:
        return None
    got = {pronoun_class(w) for w in words} - {None}
    compatible = {"m": {"m", "m/n"}, "n": {"n", "m/n"}, "f/pl": {"f/pl"}, "m/n": {"m", "n", "m/n"}}
    # the wanted gender must be shown, and every other pronoun must be one the reference has too
    # ("ihr Bruder fängt es": ihr is the girl's, es the frisbee's; the reference scores itself)
    in_ref = {m for m in marks if m}
    return (any(g in compatible[wanted] for g in got)
            and all(any(g in compatible[r] for r in in_ref) for g in got))


def translate_ids(model, tokenizer, texts: Sequence[str], ablate=None, batch_size: int = 64,
                  max_len: int | None = None) -> list[list[int]]:
    """Greedy outputs (ids) of many sentences, with `ablate` heads switched off (each sentence
    decoded as `transformer.core.decode.greedy` would, up to `max_len` tokens)."""
    ids = [source_ids(tokenizer, t, model.cfg.max_len)[0] for t in texts]
    out: list[list[int]] = []
    ctx = ablation(ablate) if ablate else contextlib.nullcontext()
    with ctx, torch.inference_mode():
        for b in range(0, len(ids), batch_size):
            out += greedy_batch(model, ids[b:b + batch_size], max_len)
    return out


@dataclass
class PronounResult:
    accuracy: float | None  # share of scored items with the right pronoun (None: none scored)
    n_scored: int
    hypotheses: list[str]
    hits: list[bool | None]  # per item; None = not scored (no reference pronoun)


def miss_kinds(hypotheses: Sequence[str], hits: Sequence[bool | None]) -> dict:
    """The misses (hit False) split in two: a German pronoun of the wrong gender, or no German
    pronoun at all (a paraphrase such as "mit heraushängender Zunge", or a garbled clause). They
    call for different cures: the pronoun's choice, or the translation around it."""
    missed = [h for h, hit in zip(hypotheses, hits) if hit is False]
    none = sum(1 for h in missed if not any(pronoun_class(w) for w in h.split()))
    return {"wrong_pronoun": len(missed) - none, "no_pronoun": none}


def pronoun_accuracy(model, tokenizer, items, ablate=None,
                     max_len: int | None = None) -> PronounResult:
    """Translate every probe item (transformer.probing.heads.ProbeItem: text, target, tgt_pronoun) with
    greedy decoding, `ablate` heads off, and check its German pronoun."""
    hyps = [tokenizer.decode(h) for h in translate_ids(model, tokenizer,
                                                      [it.text for it in items], ablate,
                                                      max_len=max_len)]
    hits = [pronoun_hit(h, it.target, it.tgt_pronoun if it.exact_position else None)
            for h, it in zip(hyps, items)]
    scored = [h for h in hits if h is not None]
    acc = sum(scored) / len(scored) if scored else None
    return PronounResult(acc, len(scored), hyps, hits)
