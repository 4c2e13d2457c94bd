"""The project's hand-written test sets, which no training may read: their files and their sentences.

Every sentence of these sets is held out from any mix that could contain it (the everyday recipe,
recipes/everyday/mix.py, removes them wherever they occur, and every generated minimal pair whose two
nouns are the two nouns of a hand-written pair), so a score on them is never a score on trained text:

* EVERYDAY_FILES: every everyday*_en_de.tsv in transformer/probes (the first set, the fresh one
  written blind to the generators, the third), the hand-labelled outputs of the dropped-word alarm
  (dropped_words_en_de.jsonl, English under "src"; probing/dropped.py) and the hand-written
  sentences of a lesson on attention and the seed notes' own example sentences (lesson_en_de.tsv,
  seeds_en_de.tsv: the held-out sets transformer.heldout scores);
* MINIMAL_PAIR_FILES: every minimal_pairs*_en.jsonl there (the first set, minimal_pairs_en.jsonl,
  and the fresh set written blind to the generator, minimal_pairs_fresh_en.jsonl);
* CAPTION_PROBES: the hand-written caption sentences with a pronoun (the scorecard's caption probe
  and the fresh set written blind to every generator).

Sentences are compared as :func:`key` spells them: lower case, punctuation and spacing ignored,
straight apostrophes.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

PROBES = Path(__file__).resolve().parents[1] / "probes"
EVERYDAY_TSV = PROBES / "everyday_en_de.tsv"  # the first everyday set (the development set)
# every hand-written everyday set (and any later everyday*_en_de.tsv), the dropped-word alarm's
# labelled outputs, the lesson's and the seed notes' sentences
EVERYDAY_FILES = (tuple(sorted(PROBES.glob("everyday*_en_de.tsv")))
                  + (PROBES / "dropped_words_en_de.jsonl", PROBES / "lesson_en_de.tsv",
                     PROBES / "seeds_en_de.tsv"))
LESSON_TSV = PROBES / "lesson_en_de.tsv"  # a lesson on attention's sentences (one of EVERYDAY_FILES)
MINIMAL_PAIRS = PROBES / "minimal_pairs_en.jsonl"  # the first set (the everyday models' probe)
# every hand-written minimal-pair set: minimal_pairs_en.jsonl and minimal_pairs_fresh_en.jsonl (and
# any later minimal_pairs*_en.jsonl)
MINIMAL_PAIR_FILES = tuple(sorted(PROBES.glob("minimal_pairs*_en.jsonl")))
# the hand-written caption sentences with a pronoun: the scorecard's caption probe (186) and the
# fresh set written blind to every generator (100, 2026-11-28)
CAPTION_PROBES = (PROBES / "classroom_pronouns_en.jsonl", PROBES / "caption_pronouns_fresh_en.jsonl")


def key(text: str) -> str:
    """Compare sentences without case, spacing of punctuation or apostrophe style."""
    return re.sub(r"[^\w']+", " ", text.lower().replace("’", "'")).strip()


def held_out_keys() -> set[str]:
    """The English side of the everyday and minimal-pair sets, as key()s."""
    keys = set()
    for text in everyday_test_sentences():
        keys.add(key(text))
    for item in minimal_pair_lines():
        keys.add(key(item["text"]))
    return keys


def everyday_test_sentences() -> list[str]:
    """The English side of every hand-written everyday set (EVERYDAY_FILES)."""
    return [text for path in EVERYDAY_FILES for text in _english_of(path)]


def lesson_sentences() -> list[str]:
    """The English side of the lesson set (lesson_en_de.tsv, one of EVERYDAY_FILES): the sentences
    a generator of the lesson's vocabulary (recipes/everyday/topic.py) must not come near."""
    return _english_of(LESSON_TSV)


def _english_of(path) -> list[str]:
    """The English sentences of one held-out file: a TSV's first column, a JSONL's "src"."""
    path = Path(path)
    if not path.is_file():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    if path.suffix == ".jsonl":
        return [json.loads(line)["src"] for line in lines if line.strip()]
    return [line.split("\t")[0] for line in lines if "\t" in line]


def caption_probe_sentences() -> list[str]:
    """The English side of the caption probes (CAPTION_PROBES)."""
    return [json.loads(line)["text"] for path in CAPTION_PROBES if Path(path).is_file()
            for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]


def scene_test_sentences() -> list[str]:
    """Every hand-written sentence a caption scene must not come near: the caption probes, the
    everyday sets and the minimal pairs."""
    return (caption_probe_sentences() + everyday_test_sentences()
            + [item["text"] for item in minimal_pair_lines()])


def minimal_pair_lines() -> list[dict]:
    """Every line of every hand-written minimal-pair file (MINIMAL_PAIR_FILES), parsed."""
    items = []
    for path in MINIMAL_PAIR_FILES:
        if Path(path).is_file():
            for line in Path(path).read_text(encoding="utf-8").splitlines():
                if line.strip():
                    items.append(json.loads(line))
    return items


def held_out_noun_pairs() -> set[frozenset[str]]:
    """The candidate-noun pairs of the hand-written minimal pairs (all of MINIMAL_PAIR_FILES):
    generated sentences with the same two nouns are left out of training too, so the test
    measures new noun pairs."""
    out = set()
    for item in minimal_pair_lines():
        words = item["text"].lower().split()
        out.add(frozenset(words[i] for i in item["candidates"]))
    return out
