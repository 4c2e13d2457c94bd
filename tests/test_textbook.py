"""transformer.data.textbook: the textbook minimal-pair generator. The public test of issue 20 (the
blog post's animal / street pair and the trophy / suitcase pair) must never be generated."""
from __future__ import annotations

import itertools
from collections import Counter

import pytest

from transformer.data import textbook
from transformer.data.everyday import find_ding
from transformer.data.textbook_lexicon import (ANIMALS, FIT_DE, FIT_PLACES, FIT_THINGS, PROPERTIES,
                                               STATES, THINGS, TOOL_ADJS, TOOLS, VERBS)

PUBLIC = ("The animal didn't cross the street because it was too tired .",
          "The animal didn't cross the street because it was too wide .",
          "The trophy doesn't fit into the brown suitcase because it is too large .",
          "The trophy doesn't fit into the brown suitcase because it is too small .")
GENDER_OF_PRONOUN = {"er": "m", "sie": "f", "es": "n"}


@pytest.fixture(scope="module")
def sample():
    return [ex for split in ("train", "val", "test") for seed in (0, 1)
            for ex in textbook.generate(split, n=6000, seed=seed)]


def test_public_sentences_and_their_nouns_are_never_generated(sample):
    texts = {ex.src for ex in sample}
    assert not texts & set(PUBLIC)
    for ex in sample:
        words = set(ex.src.lower().split())
        assert not {"trophy", "suitcase"} & words, ex.src
        assert not {"animal", "street"} <= words, ex.src
        assert not {"animal", "road"} <= words, ex.src
    assert all(textbook.forbidden(s) for s in PUBLIC)


def test_pairs_differ_in_one_word_and_flip_the_pronoun(sample):
    for a, b in zip(sample[::2], sample[1::2]):
        assert a.meta["pair"] == b.meta["pair"]
        wa, wb = a.src.split(), b.src.split()
        assert len(wa) == len(wb) and sum(x != y for x, y in zip(wa, wb)) == 1, (a.src, b.src)
        assert a.meta["antecedent_pos"] != b.meta["antecedent_pos"]
        assert a.meta["pronoun_de"] != b.meta["pronoun_de"]
        # exactly one sentence of each pair points at the first noun: "always the first" gets 0 pairs
        assert a.meta["antecedent_first"] != b.meta["antecedent_first"]


def test_positions_name_the_words_and_the_german_agrees(sample):
    nouns = {n.en: n for n in [*ANIMALS.values(), *THINGS.values()]}
    for ex in sample:
        m, en, de = ex.meta, ex.src.split(), ex.tgt.split()
        assert en[m["pronoun_pos"]] == "it"
        noun = nouns[en[m["antecedent_pos"]]]
        assert de[m["tgt_antecedent_pos"]] == noun.de
        assert de[m["tgt_pronoun_pos"]] == m["pronoun_de"]
        assert GENDER_OF_PRONOUN[m["pronoun_de"]] == noun.gender
        assert de[m["tgt_pronoun_pos"] - 1] == "weil"  # German: ", weil er ... war ." verb last
        assert de[-2] in ("war", "ist") and de[-1] == "." and en[-1] == "."
        assert [en[i] for i in m["candidates_pos"]][m["antecedent_first"] is False] == noun.en


def test_every_frame_and_tense_occurs(sample):
    frames = Counter(ex.meta["frame"] for ex in sample)
    assert set(frames) == set(textbook.FRAMES)
    tenses = Counter(ex.meta["tense"] for ex in sample)
    assert {"didn't", "couldn't", "doesn't", "can't", "won't", "past"} <= set(tenses)
    verbs = Counter(ex.meta["verb"] for ex in sample if ex.meta["frame"] in ("fit", "tool"))
    assert {"fit into", "fit in", "fit through", "fit under", "fit on"} <= set(verbs)
    assert {tool.en for tool in TOOLS} <= set(verbs)
    assert any("wasn't" in ex.src for ex in sample)
    words = Counter(ex.meta["deciding_word"] for ex in sample)
    for w in ("tired", "hungry", "scared", "sick", "wide", "heavy", "hot", "narrow", "big", "small"):
        assert words[w] > 0, w


def test_splits_never_share_a_noun_pair():
    def pairs(split):
        return {frozenset(ex.src.split()[i] for i in ex.meta["candidates_pos"])
                for ex in textbook.generate(split, n=3000)}

    train, val, test = pairs("train"), pairs("val"), pairs("test")
    assert not train & test and not train & val and not val & test


def test_lexicon_is_consistent():
    for verb in VERBS:
        said_of_thing = set(verb.properties) | set(verb.not_properties) | set(verb.glad_properties)
        said_of_animal = set(verb.states) | set(verb.not_states) | set(verb.glad_states)
        assert not said_of_thing & said_of_animal, verb.en  # one word, one antecedent
        assert said_of_thing <= set(PROPERTIES) and said_of_animal <= set(STATES), verb.en
        assert set(verb.objects) <= set(THINGS), verb.en
        for field in ("de_past_neg", "de_modal_neg", "de_pres_neg", "de_can_neg", "de_past"):
            assert getattr(verb, field).count("{O}") == 1, (verb.en, field)
    assert set(FIT_THINGS) <= set(THINGS)
    for prep, (_, places, thing_words, place_words) in FIT_PLACES.items():
        assert set(places) <= set(THINGS), prep
        assert not set(thing_words.split()) & set(place_words.split()), prep
        assert set(thing_words.split()) | set(place_words.split()) <= set(FIT_DE), prep
    for tool in TOOLS:
        assert set(tool.subjects) | set(tool.objects) <= set(THINGS), tool.en
        assert not set(tool.subjects) & set(tool.objects), tool.en
        assert not set(tool.subject_adjs) & set(tool.object_adjs), tool.en  # one word, one side
        assert set(tool.subject_adjs) | set(tool.object_adjs) <= set(TOOL_ADJS), tool.en
        for field in ("de_past_neg", "de_modal_neg", "de_pres_neg", "de_can_neg", "de_wont_neg"):
            assert getattr(tool, field).count("{O}") == 1, (tool.en, field)
        assert tool.de_wont_neg.startswith("will "), tool.en


def test_same_arguments_same_examples_and_bad_arguments_refused():
    a = textbook.generate("train", n=40, seed=3)
    assert [e.src for e in a] == [e.src for e in textbook.generate("train", n=40, seed=3)]
    assert len(textbook.generate("val", n=7)) == 6  # pairs only: an odd n drops the last
    assert {e.meta["frame"] for e in textbook.generate("train", n=40, frames=["fit"])} == {"fit"}
    for bad in (dict(n=-1), dict(n=True), dict(frames=["nope"]), dict(frames=[])):
        with pytest.raises(ValueError):
            textbook.generate("train", **bad)
    with pytest.raises(ValueError, match="split"):
        textbook.generate("dev", n=2)


HAND_CHECKED = {  # German sentences read over by hand (a sample of every frame)
    "The kitten couldn't cross the river because it was too deep .":
        "Das Kätzchen konnte den Fluss nicht überqueren , weil er zu tief war .",
    "The piano didn't fit through the door because it was too narrow .":
        "Das Klavier passte nicht durch die Tür , weil sie zu schmal war .",
    "The cat didn't climb the tree because it was too scared .":
        "Die Katze kletterte nicht auf den Baum , weil sie zu ängstlich war .",
    "The knife couldn't cut the cheese because it was too blunt .":
        "Das Messer konnte den Käse nicht schneiden , weil es zu stumpf war .",
    "The ladder won't reach the balcony because it is too short .":
        "Die Leiter will den Balkon nicht erreichen , weil sie zu kurz ist .",
}


def test_hand_checked_sentences_are_generated_exactly():
    gen = {ex.src: ex.tgt for split in ("train", "val", "test")
           for ex in textbook.generate(split, n=40000)}
    for en, de in HAND_CHECKED.items():
        if en in gen:
            assert gen[en] == de
    assert sum(en in gen for en in HAND_CHECKED) >= 2


DING = find_ding()


@pytest.mark.skipif(DING is None, reason="Ding not found ($ATTENTION_LAB_DING, ../shared/data/ding "
                    "or data/ding): the lexicon's genders are not checked against its marks")
def test_genders_agree_with_dings_marks():
    from transformer.data import ding

    marks = ding.noun_genders(DING)
    marks["Sandwich"] = {"m", "n"}  # checked by hand: "das" and "der Sandwich" are both standard
    wrong = [(n.en, n.de, n.gender, marks.get(n.de))
             for n in itertools.chain(ANIMALS.values(), THINGS.values())
             if n.gender not in marks.get(n.de, {n.gender})]
    missing = [n.de for n in itertools.chain(ANIMALS.values(), THINGS.values()) if n.de not in marks]
    assert not wrong
    assert len(missing) <= 3, missing
