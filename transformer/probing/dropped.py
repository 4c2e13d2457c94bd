"""A dropped-word alarm: the source words no output word draws on (possible omissions) and the
output words that draw little on the source (possible hallucinations), read off the contributions
of transformer/probing/contributions.py (ALTI+ unless asked otherwise).

A source word's draw is the most any output word takes from it, as a share of that output word's
source side, times the number of source words: 1 is what a word gets when every output word
spreads its source share evenly; a word every output word passes over scores near 0. The alarm
marks the words whose draw is under THRESHOLD. Punctuation and special tokens are never marked
(and the sentence's final "." is translated by the final "." of nearly any output).

What it is worth is measured on a hand-labelled set (transformer/probes/dropped_words_en_de.jsonl:
the default model's own outputs, every source word marked translated or dropped by a bilingual
reader who did not see the alarm): `python bench/contributions_bench.py --alarm`
(docs/BENCHMARKS.md, "Contributions instead of rollout"). THRESHOLD is the operating point chosen there for a precision
of at least 0.7 with the best recall; when no threshold reached 0.7 it is None and the page shows
no alarm.
"""
from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import torch

from transformer.probing import contributions as CB

LABELLED = Path(__file__).resolve().parents[1] / "probes" / "dropped_words_en_de.jsonl"
METHOD = CB.BEST  # the method that agrees best with occlusion (ALTI+)
# the operating point (a draw under it marks a source word), chosen on LABELLED for precision
# >= 0.7 with the best recall (bench/contributions_bench.py --alarm); None: no point reached 0.7
THRESHOLD: float | None = 0.3224
# measured on LABELLED (100 outputs, 792 source words, 77 dropped; bench/contributions_bench.py
# --alarm): the alarm at THRESHOLD marks 2 words, both dropped; the certainty note: of the 65
# outputs with no word under 0.2 ("not guessing"), 42 dropped nothing; of the 15 with 2+, 13
# dropped a word
MEASURED = {"n": 100, "tp": 2, "marked": 2, "dropped": 77, "sure_ok": 42, "sure_n": 65,
            "guess_ok": 13, "guess_n": 15}
LITTLE_SOURCE = 0.5  # an output word with less source share than this draws little on the source
_PUNCT = re.compile(r"^[\W_]+$")


@dataclass(frozen=True)
class Alarm:
    src_words: list[str]  # every source word (specials left out), in order
    draw: list[float]  # per source word: the most any output word draws on it (1 = even)
    out_words: list[str]  # every output word (specials left out)
    source_share: list[float]  # per output word: its share from the source at all
    threshold: float | None

    @property
    def dropped(self) -> list[int]:
        """Indices (into src_words) of the words the alarm marks."""
        if self.threshold is None:
            return []
        return [i for i, (w, d) in enumerate(zip(self.src_words, self.draw))
                if d < self.threshold and not is_punct(w)]

    @property
    def little_source(self) -> list[int]:
        """Indices (into out_words) of the output words that draw little on the source."""
        return [i for i, s in enumerate(self.source_share) if s < LITTLE_SOURCE]


def is_punct(word: str) -> bool:
    return bool(_PUNCT.match(word))


def draws(shares: torch.Tensor) -> list[float]:
    """SHARES (output words, source words), each row an output word's draw on the source words
    (any scale): per source word, the largest share any row gives it once each row is scaled to
    sum to 1, times the number of source words (1: an even share)."""
    m = shares.double()
    if m.numel() == 0:
        return [0.0] * m.shape[-1]
    s = m.sum(-1, keepdim=True)
    m = torch.where(s > 0, m / s.clamp_min(1e-300), torch.zeros_like(m))
    return [float(v) for v in m.max(0).values * m.shape[-1]]


def alarm(model, tokenizer, src_ids: Sequence[int], tgt_ids: Sequence[int],
          threshold: float | None = THRESHOLD, method: str = METHOD,
          c: CB.Contributions | None = None) -> Alarm:
    """The alarm for one sentence: SRC_IDS, TGT_IDS ([BOS] + output pieces). C: the sentence's
    contributions when already computed."""
    if c is None:
        c = CB.contributions(model, list(src_ids), list(tgt_ids), method)
    pieces = list(tgt_ids[1:])
    sg = [g for g in tokenizer.words(list(src_ids)) if not tokenizer.is_special(src_ids[g[0]])]
    sw = [w for g, w in zip(tokenizer.words(list(src_ids)), tokenizer.word_strings(list(src_ids)))
          if not tokenizer.is_special(src_ids[g[0]])]
    og_all = tokenizer.words(pieces) if pieces else []
    ow_all = tokenizer.word_strings(pieces) if pieces else []
    keep = [i for i, g in enumerate(og_all) if not tokenizer.is_special(pieces[g[0]])]
    og, ow = [og_all[i] for i in keep], [ow_all[i] for i in keep]
    if not og or not sg:
        return Alarm(sw, [0.0] * len(sw), ow, [], threshold)
    m = CB.word_shares(c, og, sg)  # (Wo, Ws): absolute shares
    share = torch.stack([c.source_share[list(g)].mean() for g in og])
    return Alarm(sw, draws(m), ow, [float(v) for v in share], threshold)


# -- measuring it on a labelled set ---------------------------------------------------------------
def read_labelled(path: Path | str = LABELLED) -> list[dict]:
    """The labelled lines: {"src", "output", "words": [{"word", "label"}]}."""
    rows = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if line.strip():
            rows.append(json.loads(line))
    return rows


def precision_recall(pred: Sequence[bool], gold: Sequence[bool]) -> dict:
    tp = sum(p and g for p, g in zip(pred, gold))
    fp = sum(p and not g for p, g in zip(pred, gold))
    fn = sum(g and not p for p, g in zip(pred, gold))
    return {"tp": tp, "fp": fp, "fn": fn, "marked": tp + fp, "positives": tp + fn,
            "precision": tp / (tp + fp) if tp + fp else None,
            "recall": tp / (tp + fn) if tp + fn else None}


def choose_threshold(scores: Sequence[float], gold: Sequence[bool], min_precision: float = 0.7,
                     min_marked: int = 1) -> float | None:
    """The threshold t (mark score < t) with the best recall among those whose precision is at
    least MIN_PRECISION (ties: the smaller t, fewer marks); None when none reaches it. Candidates:
    midpoints just above each distinct score."""
    vals = sorted(set(float(s) for s in scores))
    best, best_key = None, None
    for i, v in enumerate(vals):
        t = (v + vals[i + 1]) / 2 if i + 1 < len(vals) else v + 1e-9
        pr = precision_recall([s < t for s in scores], gold)
        if pr["marked"] < min_marked or pr["precision"] is None or pr["precision"] < min_precision:
            continue
        key = (pr["recall"], -t)
        if best_key is None or key > best_key:
            best, best_key = t, key
    return best


def cross_validated(groups: Sequence[Sequence[tuple[float, bool]]], folds: int = 5, seed: int = 0,
                    min_precision: float = 0.7) -> dict:
    """Precision and recall when each fold's threshold is chosen on the other folds (GROUPS: per
    sentence, its words' (score, dropped) pairs; folds by sentence). Words of a fold whose
    training folds reach no threshold are not marked."""
    idx = list(range(len(groups)))
    random.Random(seed).shuffle(idx)
    pred, gold, chosen = [], [], []
    for f in range(folds):
        test = set(idx[f::folds])
        train = [p for i in idx if i not in test for p in groups[i]]
        t = choose_threshold([s for s, _ in train], [g for _, g in train], min_precision)
        chosen.append(t)
        for i in sorted(test):
            for s, g in groups[i]:
                pred.append(t is not None and s < t)
                gold.append(g)
    out = precision_recall(pred, gold)
    out["thresholds"] = chosen
    return out
