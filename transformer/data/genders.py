"""German genders of Multi30k's nouns, derived from the corpus itself.

Two steps, both over the aligned training captions (``train.en`` / ``train.de``):

1. **Alignment.** An English word is paired with the German noun it co-occurs with best, by the
   Dice coefficient over captions, ``2 * c(e, g) / (c(e) + c(g))``, where ``c`` counts captions
   containing the word(s). German nouns are told apart from other words by capitalisation away
   from the sentence start (a word capitalised in at least 90% of its non-initial occurrences);
   pairs seen together fewer than ``MIN_PAIR`` times are not considered.
2. **Gender.** A German noun's gender is read from the articles (and article + adjective) right
   before it. Only unambiguous contexts count:

   ========================================  ======
   context                                    gender
   ========================================  ======
   ``einen X``, ``einen ...en X``             m (accusative)
   sentence-initial ``Der X``, ``Der ...e X``   m (nominative)
   ``ein ...er X``                            m
   ``eine X``, ``eine ...e X``, ``einer X``,   f
   ``einer ...en X``, ``zur X``
   ``das X``, ``das ...e X``, ``ins X``,       n
   ``ein ...es X``
   ``ein X``, ``einem X``, ``im``/``am``/``zum``/  m or n (never f): recorded as ``mn``
   ``vom``/``beim X``, ``dem X``
   ========================================  ======

   ``die X`` is never counted: it is feminine singular or any plural ("Die Hunde"), so counting
   it would make every plural look feminine. The indefinite article has no plural, which is why
   ``eine`` / ``ein`` are the evidence that separates feminine from masculine/neuter (a noun with
   much ``mn`` evidence is not feminine however often ``die`` stands before it). Non-initial
   ``der`` (feminine dative, masculine nominative, plural genitive) and ``den`` (masculine
   accusative or plural dative: "den Mädchen") are ambiguous and not counted either.

   The gender is the one with the most strong evidence; ``confidence`` is its share of the strong
   evidence, and a feminine verdict must not be contradicted by ``mn`` evidence.

Command line::

    python -m transformer.data.genders --data-dir ../shared/data/multi30k dog cat ball
    python -m transformer.data.genders --data-dir DIR --lexicon   # rewrite genders_lexicon.json
"""
from __future__ import annotations

import json
import os
import re
import sys
from collections import Counter
from dataclasses import asdict
from pathlib import Path

from transformer.core.cli_util import OneLineParser
from transformer.data.classroom_lexicon import lexicon_nouns
from transformer.data.gender_lexicon import LEXICON_PATH, Entry, write_lexicon
from transformer.data.tasks import load_multi30k

MIN_PAIR = 5  # captions in which an English word and a German noun must co-occur
NOUN_CAPITAL_SHARE = 0.5  # share of non-initial occurrences capitalised, for a German noun
WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")

STRONG_BEFORE = {"einen": "m", "eine": "f", "einer": "f", "zur": "f", "das": "n", "ins": "n"}
MN_BEFORE = {"ein", "einem", "im", "am", "zum", "vom", "beim", "dem"}
# (article, adjective ending) -> gender, for "article adjective noun"
ADJ_BEFORE = {("ein", "er"): "m", ("einen", "en"): "m", ("ein", "es"): "n", ("das", "e"): "n",
              ("eine", "e"): "f", ("einer", "en"): "f"}


def words(line: str) -> list[str]:
    """Letters-only words of a caption (punctuation and digits dropped), casing kept."""
    return WORD.findall(line)


def find_multi30k() -> Path | None:
    """Multi30k's folder: $ATTENTION_LAB_MULTI30K, ../shared/data/multi30k, or data/multi30k."""
    root = Path(__file__).resolve().parents[2]
    for cand in (os.environ.get("ATTENTION_LAB_MULTI30K"), root.parent / "shared/data/multi30k",
                 root / "data/multi30k"):
        if cand and (Path(cand) / "train.en").is_file() and (Path(cand) / "train.de").is_file():
            return Path(cand).resolve()
    return None


class Corpus:
    """Caption-level counts of the aligned training captions, computed once."""

    def __init__(self, en_lines: list[str], de_lines: list[str]):
        if len(en_lines) != len(de_lines):
            raise ValueError(f"{len(en_lines)} English but {len(de_lines)} German captions")
        self.en = [[w.lower() for w in words(s)] for s in en_lines]
        self.de = [words(s) for s in de_lines]
        self.en_count = Counter(w for ws in self.en for w in set(ws))
        self.en_tokens = Counter(w for ws in self.en for w in ws)
        self.de_tokens = Counter(w for ws in self.de for w in ws)
        caps, lower = Counter(), Counter()
        for ws in self.de:
            for w in ws[1:]:
                (caps if w[0].isupper() else lower)[w.lower()] += 1
        self.nouns = {w for ws in self.de for w in ws if w[0].isupper()
                      and caps[w.lower()] >= NOUN_CAPITAL_SHARE * (caps[w.lower()] + lower[w.lower()])
                      and caps[w.lower()] > 0}
        self.de_count = Counter(w for ws in self.de for w in set(ws) if w in self.nouns)
        self._evidence: dict[str, Counter] | None = None

    @classmethod
    def from_dir(cls, data_dir: str | Path, split: str = "train") -> "Corpus":
        pairs = load_multi30k(data_dir, split)
        return cls([p.src for p in pairs], [p.tgt for p in pairs])

    # -- alignment ------------------------------------------------------------------------------
    def align(self, en: str, top: int = 1) -> list[tuple[str, float, int]]:
        """German nouns best aligned with English ``en``: (noun, dice, captions together)."""
        en = en.lower()
        together = Counter()
        for e_ws, d_ws in zip(self.en, self.de):
            if en in e_ws:
                together.update({w for w in d_ws if w in self.nouns})
        scored = [(g, 2 * c / (self.en_count[en] + self.de_count[g]), c)
                  for g, c in together.items() if c >= MIN_PAIR]
        scored.sort(key=lambda t: (-t[1], t[0]))
        return scored[:top]

    # -- gender ---------------------------------------------------------------------------------
    def evidence(self, noun: str) -> Counter:
        """Counts of m / f / n / mn evidence for German ``noun`` (see the module docstring)."""
        if self._evidence is None:
            self._evidence = self._collect()
        return self._evidence.get(noun, Counter())

    def _collect(self) -> dict[str, Counter]:
        out: dict[str, Counter] = {}
        for ws in self.de:
            low = [w.lower() for w in ws]
            for i, w in enumerate(ws):
                if i == 0 or w not in self.nouns:
                    continue
                ev = None
                prev = low[i - 1]
                if prev in STRONG_BEFORE:
                    ev = STRONG_BEFORE[prev]
                elif prev == "der" and i == 1:
                    ev = "m"
                elif prev == "den" and not w.endswith(("n", "s")):
                    ev = "m"  # a dative plural ends in -n (or -s: "den Autos"); this is accusative
                elif prev in MN_BEFORE:
                    ev = "mn"
                elif i >= 2 and ws[i - 1][0].islower():  # article + adjective + noun
                    art, adj = low[i - 2], low[i - 1]
                    for ending in ("en", "er", "es", "e"):
                        if adj.endswith(ending):
                            if (art, ending) in ADJ_BEFORE:
                                ev = ADJ_BEFORE[(art, ending)]
                            elif art == "der" and i == 2 and ending == "e":
                                ev = "m"
                            break
                if ev:
                    out.setdefault(w, Counter())[ev] += 1
        return out

    def gender(self, noun: str) -> tuple[str, float, Counter]:
        """(gender, confidence, evidence) of German ``noun``; gender "?" without evidence."""
        ev = self.evidence(noun)
        strong = {g: ev[g] for g in "mfn"}
        total = sum(strong.values())
        if not total:
            return "?", 0.0, ev
        best = max("mfn", key=lambda g: (strong[g], g == "m"))
        if best == "f" and ev["mn"] > strong["f"]:  # "die X" plural-like noun with ein-evidence
            best = max("mn", key=lambda g: strong[g])
        return best, strong[best] / total, ev

    def entry(self, en: str) -> Entry | None:
        """The lexicon entry of English ``en``, or None when no German noun aligns with it."""
        best = self.align(en)
        if not best:
            return None
        de, dice, together = best[0]
        gender, conf, ev = self.gender(de)
        return Entry(en.lower(), de, gender, round(conf, 3), ev["m"], ev["f"], ev["n"], ev["mn"],
                     round(dice, 3), together)


def derive(corpus: Corpus, nouns) -> dict[str, Entry]:
    """Entries for the English ``nouns`` that align with a German noun."""
    out = {}
    for en in nouns:
        e = corpus.entry(en)
        if e is not None:
            out[en] = e
    return out


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="python -m transformer.data.genders",
                           description=__doc__.split("\n")[0])
    parser.add_argument("nouns", nargs="*", help="English nouns to look up")
    parser.add_argument("--data-dir", type=Path, default=None, help="Multi30k directory")
    parser.add_argument("--lexicon", action="store_true",
                        help=f"rewrite {LEXICON_PATH.name} for the classroom generator's nouns")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    data_dir = args.data_dir or find_multi30k()
    if data_dir is None:
        print("error: Multi30k not found; pass --data-dir or set ATTENTION_LAB_MULTI30K", file=sys.stderr)
        return 2
    try:
        corpus = Corpus.from_dir(data_dir)
    except (OSError, ValueError) as exc:
        print(f"error: {exc}".replace("\n", " "), file=sys.stderr)
        return 2
    nouns = list(args.nouns)
    if args.lexicon:
        nouns += lexicon_nouns()
    entries = derive(corpus, nouns)
    if args.lexicon:
        write_lexicon({en: e for en, e in entries.items() if en in set(nouns)})
    for en in args.nouns or ([] if args.lexicon else []):
        e = entries.get(en)
        if args.json:
            print(json.dumps(asdict(e) if e else {"en": en, "de": None}, ensure_ascii=False))
        elif e is None:
            print(f"{en}\t-")
        else:
            print(f"{en}\t{e.de}\t{e.gender}\t{e.confidence:.2f}\tm={e.m} f={e.f} n={e.n} mn={e.mn}"
                  f"\tdice={e.dice:.2f} ({e.together})")
    if args.lexicon:
        print(f"wrote {len(entries)} entries to {LEXICON_PATH}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
