"""How sure the model was of each word it wrote: the probability it gave each output piece.

Why: a translation model always writes something. "I don't understand the question ." and
"Attention is all you need ." come out with the same confident-looking monospace, although the
model was sure of nearly every piece of the first and guessing at most pieces of the second
(the shipped default, re-measured 2026-12-07: "Ihre Absicht ist alles , was du brauchst .":
"Ihre" 0.11, "Absicht" 0.10, "alles" 0.18). The probability of each written
piece is already in the forward pass the app makes; shown beside the output, it tells a class
where the model guessed, without a second model.

What it is worth, measured (docs/BENCHMARKS.md, "How sure the model was"; `python -m
transformer.evaluate --tsv transformer/probes/everyday_fresh_en_de.tsv --by-certainty`): on the
100 blind everyday sentences, the default model guessed at two or more words (under UNSURE, 0.2)
in 16 outputs, which scored chrF 44.91, against 67.45 for the other 84 (re-measured with the
shipped default on 2026-12-07; the version the note was first measured on gave 47.68 / 62.68). A low probability marks
a guess, not an error: a rare right word can be unlikely, and a confident word can be wrong
("Hose" for "trophy").

Nor does "not guessing" mean nothing was left out. On 100 of the default model's own outputs
whose every source word a bilingual reader marked translated or dropped
(transformer/probes/dropped_words_en_de.jsonl; `python bench/contributions_bench.py --alarm`,
docs/BENCHMARKS.md "Contributions instead of rollout"), 23 of the 65 outputs with no word under
UNSURE dropped at least one word (SURE_BUT_DROPPED); of the 15 with the note (UNSURE_WORDS or
more), 13 did.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import sacrebleu
import torch

from transformer.core.tokenizer import SPECIAL_DISPLAY
from transformer.probing.inspect import inspect_text

UNSURE = 0.2  # a word written with less probability than this is shown as a guess
SURE = 0.8  # ... with at least this, as sure; in between, as not sure (0.23 is no certainty)
UNSURE_WORDS = 2  # this many guesses in one output earn the page's note
# measured (see above): outputs with no guess that still dropped a source word, of all such
SURE_BUT_DROPPED = {"dropped": 23, "of": 65, "labelled": 100}
_SPECIALS = frozenset(SPECIAL_DISPLAY.values())  # "<s>", "</s>", "<pad>", "<unk>"


def piece_probs(logits: torch.Tensor, written: Sequence[int]) -> list[float]:
    """The probability the model gave each written piece: logits (T, V) of the decoder positions
    that wrote them (position t reads [BOS] + written[:t]), in the order written."""
    if logits.dim() != 2 or logits.size(0) < len(written):
        raise ValueError(f"need (T>={len(written)}, V) logits, got {tuple(logits.shape)}")
    p = torch.softmax(logits[: len(written)].double(), -1)  # (T,V) -> (T,V)
    idx = torch.tensor(list(written), dtype=torch.long, device=p.device)
    return [float(x) for x in p[torch.arange(len(written), device=p.device), idx]]


@dataclass(frozen=True)
class Word:
    text: str
    prob: float  # the product of its pieces' probabilities: the probability of the whole word
    pieces: tuple[float, ...]

    @property
    def unsure(self) -> bool:
        return self.prob < UNSURE

    @property
    def level(self) -> str:
        return level(self.prob)


def level(p: float) -> str:
    """How a probability is labelled: "guess" under UNSURE, "sure" at SURE or more, else
    "unsure" (a word the model was not sure of, though it was not guessing)."""
    return "guess" if p < UNSURE else "sure" if p >= SURE else "unsure"


def words(probs: Sequence[float], groups: Sequence[Sequence[int]],
          texts: Sequence[str]) -> list[Word]:
    """Per word (GROUPS: positions of the pieces, as tokenizer.words gives them; TEXTS: each
    word's text), the probability of writing all its pieces in a row."""
    if len(groups) != len(texts):
        raise ValueError(f"{len(groups)} groups but {len(texts)} word texts")
    out = []
    for g, text in zip(groups, texts):
        ps = tuple(float(probs[i]) for i in g)
        out.append(Word(text, math.prod(ps), ps))
    return out


def geometric_mean(probs: Sequence[float]) -> float | None:
    """The per-piece probability that, written every time, gives the whole output's probability
    (exp of the mean log-probability). None for an empty output."""
    if not probs:
        return None
    return math.exp(sum(math.log(max(p, 1e-300)) for p in probs) / len(probs))


def guesses(ws: Sequence[Word]) -> list[Word]:
    """The words written with less than UNSURE probability, in order."""
    return [w for w in ws if w.unsure]


def output_words(ins, tokenizer) -> list[Word]:
    """The words of an inspected output (transformer.probing.inspect.Inspected: greedy or
    teacher-forced) with the probability the model gave each, read off the logits its one
    recorded forward pass already holds (trace key "logits": position t reads [BOS] +
    output[:t] and wrote output piece t). Special tokens (<s>, </s>, <pad>, <unk>) are left
    out: they are not words a reader sees, and every caller would drop them."""
    written = list(ins.tgt_ids[1:])  # [BOS] + pieces -> pieces
    if not written:
        return []
    probs = piece_probs(ins.trace["logits"][0], written)  # (1,T,V) -> (T,V)
    ws = words(probs, tokenizer.words(written), tokenizer.word_strings(written))
    return [w for w in ws if w.text not in _SPECIALS]


def split_by_guesses(model, tokenizer, sources: Sequence[str], references: Sequence[str]) -> dict:
    """The sentences split as the Attention page splits them, by whether the model's greedy
    output has UNSURE_WORDS or more guessed words, with chrF of each group against the
    references (corpus chrF and the mean of sentence chrF): what the page's note is worth."""
    if len(sources) != len(references):
        raise ValueError(f"{len(sources)} sources but {len(references)} references")
    groups: dict[str, list[tuple[str, str]]] = {"guessed": [], "sure": []}
    for src, ref in zip(sources, references):
        ins = inspect_text(model, tokenizer, src)
        n = len(guesses(output_words(ins, tokenizer)))
        groups["guessed" if n >= UNSURE_WORDS else "sure"].append((ins.output, ref))
    out: dict = {"unsure": UNSURE, "unsure_words": UNSURE_WORDS, "sentences": len(sources)}
    for name, rows in groups.items():
        hyps, refs = [h for h, _ in rows], [r for _, r in rows]
        out[name] = {
            "n": len(rows),
            "chrf": round(sacrebleu.CHRF().corpus_score(hyps, [refs]).score, 2) if rows else None,
            "mean_sentence_chrf": round(sum(sacrebleu.sentence_chrf(h, [r]).score
                                            for h, r in rows) / len(rows), 2) if rows else None}
    return out
