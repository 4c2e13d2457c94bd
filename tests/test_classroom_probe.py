"""transformer/probes/classroom_pronouns_en.jsonl: 186 hand-written caption-style sentences (the 41
of natural_pronouns_en.jsonl first, then 145 more), each with a German reference translation and
word positions on both sides. None of them is a sentence the classroom generator produces."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from transformer.data import classroom
from transformer.probing.probe_items import baselines, read_probe_file
from transformer.probing.pronouns import pronoun_class

PROBES = Path(classroom.__file__).parents[1] / "probes"
PROBE = PROBES / "classroom_pronouns_en.jsonl"
OLD = PROBES / "natural_pronouns_en.jsonl"
EN_PRONOUNS = {"it", "its", "they", "their"}
FUNCTION_WORDS = {"a", "an", "the", "and", "in", "on", "of", "with", "to", "at", "is", "are", "it", "its",
                  "they", "their", "while", "because", "until", "as", "he", "she", "his", "her", ",", "."}


@pytest.fixture(scope="module")
def items():
    return read_probe_file(PROBE)


@pytest.fixture(scope="module")
def raw():
    return [json.loads(line) for line in PROBE.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_every_line_parses_with_targets(items, raw):
    assert len(items) == len(raw) == 186
    assert len(items) - 41 >= 110
    for it in items:
        assert it.target and it.tgt_pronoun is not None and it.tgt_antecedent is not None, it.text
    assert len({it.text for it in items}) == len(items)


def test_the_old_probe_comes_first_unchanged(raw):
    old = [json.loads(line) for line in OLD.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(old) == 41
    for o, n in zip(old, raw):
        assert (o["text"], o["pronoun"], o["antecedent"]) == (n["text"], n["pronoun"], n["antecedent"])
        # candidates: two corrected ("soccer" is not a noun candidate, "Children" is one)
        assert set(n["candidates"]) - set(o["candidates"]) <= {0} and len(n["candidates"]) >= 1


def test_positions_point_at_the_intended_words(items):
    for it in items:
        words = it.text.split()
        assert words[it.pronoun] in EN_PRONOUNS, it.text
        assert it.antecedent in it.candidates, it.text
        assert it.pronoun not in it.candidates, it.text
        for c in it.candidates:  # nouns: content words, never a pronoun or a function word
            assert words[c].lower() not in FUNCTION_WORDS and words[c].isalpha(), (words[c], it.text)
        tgt = it.target.split()
        t_pron, t_ante = tgt[it.tgt_pronoun], tgt[it.tgt_antecedent]
        assert t_ante[0].isupper() and t_ante.isalpha(), (t_ante, it.target)  # a German noun
        cls = pronoun_class(t_pron)
        assert cls is not None, (t_pron, it.target)
        possessive = words[it.pronoun] in ("its", "their")
        assert possessive == (t_pron.lower().startswith(("sein", "ihr")) and t_pron.lower() not in ("ihn", "ihm")), it.text
        # free translations are scored by the reference's LAST pronoun: it must show the same gender
        last = next(c for c in reversed([pronoun_class(w) for w in tgt]) if c)
        assert last == cls, it.target


def test_antecedent_positions_vary(items):
    new = items[41:]
    rank = [sorted(it.candidates).index(it.antecedent) for it in new]
    assert {0, 1, 2} <= set(rank)
    assert min(rank.count(r) for r in (0, 1, 2)) >= 20
    pron = [it.text.split()[it.pronoun] for it in new]
    assert all(pron.count(p) >= 10 for p in EN_PRONOUNS)


def test_baselines(items):
    """The numbers reported for the probe: nearest and first noun over all 186 and over the 145 new."""
    b_all, b_new = baselines(items), baselines(items[41:])
    assert round(b_all["nearest_noun"], 3) == 0.414 and round(b_all["first_noun"], 3) == 0.349
    assert round(b_new["nearest_noun"], 3) == 0.366 and round(b_new["first_noun"], 3) == 0.269


def test_no_probe_sentence_is_generated(items):
    probe = {it.text.lower() for it in items}
    targets = {it.target.lower() for it in items}
    vocab = set()
    for split, n in (("train", 6000), ("val", 2000), ("test", 2000)):
        for ex in classroom.generate(split, n, seed=5):
            assert ex.src.lower() not in probe, ex.src
            assert ex.tgt.lower() not in targets, ex.tgt
            vocab |= set(ex.src.lower().split())
    # and every new sentence uses a word the generator never emits, so it cannot be one of them
    for it in items[41:]:
        assert set(it.text.lower().split()) - vocab, it.text
