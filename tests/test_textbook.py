"""transformer.data.textbook: the textbook minimal-pair generator. The public test of issue 20 (the
blog post's animal / street pair and the trophy / suitcase pair) must never be generated."""
from __future__ import annotations

import itertools
from collections import Counter

import pytest

from transformer.data import textbook
from transformer.data.ding import find_ding
from transformer.data.textbook_lexicon import (ANIMAL_HANDLES, ANIMAL_PARTS, ANIMALS,
                                               BIRDS_ONLY_SIT, CHASE_VERB, CHASER_STATES, CHASES,
                                               CLIMBERS, ESCAPES, FINDS, MEAT_EATERS, MEAT_FOOD,
                                               NEEDS_TOO, NO_TOO, PLANT_EATERS, PLANT_FOOD, WEAK,
                                               WILD, YOUNG,
                                               FIT_DE, FIT_PLACES, FIT_THINGS, PARTS, POSS_VERBS,
                                               PROPERTIES, STATES, THING_HANDLES, THING_PARTS,
                                               THINGS, TOOL_ADJS, TOOLS, VERBS, WATER_ONLY)

PUBLIC = ("The animal didn't cross the street because it was too tired .",
          "The animal didn't cross the street because it was too wide .",
          "The trophy doesn't fit into the brown suitcase because it is too large .",
          "The trophy doesn't fit into the brown suitcase because it is too small .")
GENDER_OF_PRONOUN = {"er": "m", "sie": "f", "es": "n"}
GENDER_OF_ACCUSATIVE = {"ihn": "m", "sie": "f", "es": "n"}


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
        noun = nouns[en[m["antecedent_pos"]]]
        assert de[m["tgt_antecedent_pos"]] == noun.de
        assert de[m["tgt_pronoun_pos"]] == m["pronoun_de"]
        assert de[-1] == "." and en[-1] == "."
        assert [en[i] for i in m["candidates_pos"]][m["antecedent_first"] is False] == noun.en
        if m["frame"] == "obj":  # "..., and Lisa wore it ." -> ", und Lisa trug sie ."
            assert en[m["pronoun_pos"]] == "it" and m["pronoun_case"] == "acc"
            assert GENDER_OF_ACCUSATIVE[m["pronoun_de"]] == noun.gender
            assert de[m["tgt_pronoun_pos"] - 3] in ("und", "also")  # also VERB PERSON
            continue
        assert de[m["tgt_pronoun_pos"] - 1] == "weil"  # German: ", weil er ... war ." verb last
        assert de[-2] in ("war", "ist")
        if m["frame"] == "poss":  # "because its paw was wet" -> ", weil ihre Pfote nass war ."
            assert en[m["pronoun_pos"]] == "its" and m["pronoun_case"] == "poss"
            part = PARTS[en[m["pronoun_pos"] + 1]]
            assert de[m["tgt_pronoun_pos"] + 1] == part.de
            assert m["pronoun_de"] == textbook.possessive(noun.gender, part.gender)
        else:
            assert en[m["pronoun_pos"]] == "it"
            assert GENDER_OF_PRONOUN[m["pronoun_de"]] == noun.gender


def test_possessive_takes_the_owners_stem_and_the_owned_nouns_ending():
    assert textbook.possessive("f", "f") == "ihre"  # die Katze: ihre Pfote
    assert textbook.possessive("f", "m") == "ihr"  # die Bank: ihr Sitz
    assert textbook.possessive("m", "f") == "seine"  # der Hund: seine Pfote
    assert textbook.possessive("n", "n") == "sein"  # das Pferd: sein Fell


def test_no_pair_is_left_undecidable(sample):
    """What a reviewer found ambiguous stays out: "because it was cold / old" alone (the other
    noun could be cold), birds climbing, "leg" (a chair has legs), "praised" (one praises a cake)."""
    for ex in sample:
        words = ex.src.split()
        if ex.meta["frame"] in ("too", "tool") and ex.meta["deciding_word"] in NEEDS_TOO:
            assert "too" in words, ex.src
        if ex.meta["deciding_word"] in NO_TOO:  # "too broken", "zu kaputt": neither language
            assert "too" not in words and "zu" not in ex.tgt.split(), ex.src
        if ex.meta["frame"] == "poss" and words[1] in BIRDS_ONLY_SIT:
            assert ex.meta["verb"] == "sit on", ex.src
        assert "leg" not in words and "praised" not in words, ex.src


def test_a_verb_is_said_only_in_its_tenses():
    """A locked door is why one can't open it, a mouldy cake why one won't touch it: "won't
    open ... locked" says the animal does not want to."""
    limited = {v.en: set(v.tenses) for v in VERBS if v.tenses}
    assert limited
    seen = set()
    for ex in textbook.generate("train", n=20000):
        if ex.meta["frame"] == "too" and ex.meta["verb"] in limited:
            assert ex.meta["tense"] in limited[ex.meta["verb"]], ex.src
            seen.add(ex.meta["verb"])
    assert seen == set(limited)


def test_plant_eaters_eat_plants_and_only_climbers_climb():
    """A review found "The donkey ate the meat" and "The cow couldn't climb the roof"."""
    climbers = set(CLIMBERS.split())
    for ex in textbook.generate("train", n=20000):
        if ex.meta["frame"] in ("too", "not", "glad"):
            animal, thing = (ex.src.split()[i] for i in ex.meta["candidates_pos"])
            if ex.meta["verb"] == "eat" and animal in PLANT_EATERS:
                assert thing in PLANT_FOOD, ex.src
            if ex.meta["verb"] == "climb":
                assert animal in climbers, ex.src


def test_wild_animals_stay_in_their_verbs_and_meat_eaters_eat_meat():
    """No lion carries the basket or is patted by Lisa; no lion eats the cake."""
    wild_verbs = {v.en for v in VERBS if v.wild} | {v.en for v in VERBS if set(v.subjects) & WILD}
    seen_wild = set()
    for ex in textbook.generate("train", n=30000):
        animal = ex.src.split()[1]
        if animal not in WILD:
            continue
        seen_wild.add(animal)
        assert ex.meta["frame"] == "chase" or ex.meta["verb"] in wild_verbs, ex.src
        assert ex.meta["frame"] not in ("obj", "poss"), ex.src
        if ex.meta["verb"] == "eat" and animal in MEAT_EATERS:  # and eggs are not meat
            assert ex.src.split()[ex.meta["candidates_pos"][1]] in MEAT_FOOD, ex.src
    assert len(seen_wild) >= 6


def test_the_young_are_never_too_old():
    """A review found "The puppy couldn't pull the boat because it was too old"."""
    for ex in textbook.generate("train", n=30000):
        if ex.src.split()[1] in YOUNG and ex.meta["antecedent_first"]:
            assert ex.meta["deciding_word"] != "old", ex.src


def test_the_dative_and_im_after_in():
    """ "auf dem Papier", "auf der Insel", and "in dem Dorf" said "im Dorf"."""
    got = {ex.meta["verb"]: ex for ex in textbook.generate("train", n=30000)
           if ex.meta["frame"] == "tool"}
    for verb in ("write on", "land on", "stop in"):
        ex = got[verb]
        tgt = ex.tgt.split()
        noun = tgt[ex.meta["tgt_candidates_pos"][1]]
        before = tgt[ex.meta["tgt_candidates_pos"][1] - 1]
        assert before in ("dem", "der", "im"), ex.tgt
        assert "in dem" not in ex.tgt and "in der Dorf" not in ex.tgt, ex.tgt
        assert noun == textbook.THINGS[ex.src.split()[ex.meta["candidates_pos"][1]]].de
    stops = [ex.tgt for ex in textbook.generate("train", n=30000)
             if ex.meta["verb"] == "stop in" and " village " in f" {ex.src} "]
    assert stops and all(" im Dorf " in t for t in stops)


def test_water_animals_only_swim():
    for ex in (e for split in ("train", "val", "test") for e in textbook.generate(split, n=20000)):
        if set(ex.src.split()) & set(WATER_ONLY):  # or caught by a cat: the fish as the prey
            assert ex.meta["verb"] == "swim through" or (
                ex.meta["frame"] == "chase" and ex.src.split()[1] not in WATER_ONLY), ex.src


def test_every_frame_and_tense_occurs(sample):
    frames = Counter(ex.meta["frame"] for ex in sample)
    assert set(frames) == set(textbook.FRAMES)
    tenses = Counter(ex.meta["tense"] for ex in sample)
    assert {"didn't", "couldn't", "doesn't", "can't", "won't", "past"} <= set(tenses)
    verbs = Counter(ex.meta["verb"] for ex in sample if ex.meta["frame"] in ("fit", "tool"))
    assert {"fit into", "fit in", "fit through", "fit under", "fit on"} <= set(verbs)
    assert {tool.en for tool in TOOLS} <= set(verbs)
    too = Counter(ex.meta["verb"] for ex in sample if ex.meta["frame"] == "too")
    assert {v.en for v in VERBS} <= set(too)
    assert any(" too " not in ex.src for ex in sample if ex.meta["frame"] == "too")  # bare: "it was hot"
    assert any(" too " in ex.src for ex in sample if ex.meta["frame"] == "too")
    handles = Counter(ex.meta["deciding_word"] for ex in sample if ex.meta["frame"] == "obj")
    assert set(THING_HANDLES) | set(ANIMAL_HANDLES) <= set(handles)
    assert {"didn't", "couldn't"} == {ex.meta["tense"] for ex in sample if ex.meta["frame"] == "poss"}
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
        assert set(verb.tenses) <= set(textbook.TENSES), verb.en
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
        assert tool.de_wont_neg.startswith("wird "), tool.en  # a thing's "won't" is the future
        assert set(tool.tenses) <= set(textbook.TENSES) and tool.case in ("acc", "dat"), tool.en
        assert {en for en, _ in tool.adj_de} <= set(tool.subject_adjs) | set(tool.object_adjs)
    for chaser, preys in CHASES.items():
        assert chaser in ANIMALS and set(preys) <= set(ANIMALS), chaser
        assert not set(preys) & WEAK, chaser  # "den Löwen" would need the weak ending
    assert set(CHASER_STATES) <= set(STATES) and not set(CHASER_STATES) & set(ESCAPES)
    assert all(de.count("{O}") == 1 for de in CHASE_VERB[1:])
    assert WEAK <= set(ANIMALS) and WILD <= set(ANIMALS)
    for verb in VERBS:
        assert set(verb.subjects) <= set(ANIMALS), verb.en
    for verb, (de, things) in THING_HANDLES.items():
        assert de.count("{P}") == 1 and set(things.split()) <= set(THINGS), verb
        assert verb not in ANIMAL_HANDLES  # one word, one antecedent
    assert all(de.count("{P}") == 1 for de in ANIMAL_HANDLES.values())
    assert all(de.count("{O}") == 1 for de in FINDS.values())
    assert all(de.count("{O}") == 1 for pair in POSS_VERBS.values() for de in pair)
    animal_parts = {p for parts in ANIMAL_PARTS.values() for p in parts}
    thing_parts = {p for parts in THING_PARTS.values() for p in parts}
    assert not animal_parts & thing_parts  # "its paw" is the animal's, "its seat" the thing's
    assert animal_parts | thing_parts <= set(PARTS)
    assert set(ANIMAL_PARTS) <= set(ANIMALS) and set(THING_PARTS) <= set(THINGS)


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
        "Die Leiter wird den Balkon nicht erreichen , weil sie zu kurz ist .",
    "The goat saw the coffee , and Max patted it .":
        "Die Ziege sah den Kaffee , und Max streichelte sie .",
    "The goat saw the coffee , and Max drank it .":
        "Die Ziege sah den Kaffee , und Max trank ihn .",
    "The cat can't sit on the sofa because it is too restless .":
        "Die Katze kann sich nicht auf das Sofa setzen , weil sie zu unruhig ist .",
    "The mouse couldn't jump onto the car because its roof was dirty .":
        "Die Maus konnte nicht auf das Auto springen , weil sein Dach schmutzig war .",
    "The cat couldn't sit on the tractor because its fur was sticky .":
        "Die Katze konnte sich nicht auf den Traktor setzen , weil ihr Fell klebrig war .",
    "The wolf couldn't open the gate because it was locked .":
        "Der Wolf konnte das Tor nicht öffnen , weil es abgeschlossen war .",
    "The wolf couldn't open the gate because it was injured .":
        "Der Wolf konnte das Tor nicht öffnen , weil er verletzt war .",
    "The frog didn't touch the sandwich because it was burnt .":
        "Der Frosch berührte das Sandwich nicht , weil es angebrannt war .",
    "The owl didn't touch the meat because it was too sleepy .":
        "Die Eule berührte das Fleisch nicht , weil sie zu schläfrig war .",
    "The mouse didn't eat the bread because it was rotten .":
        "Die Maus fraß das Brot nicht , weil es verdorben war .",
    # the second tools and the chase frame
    "The tram can't stop in the village because it is too long .":
        "Die Straßenbahn kann nicht im Dorf halten , weil sie zu lang ist .",
    "The helicopter won't land on the meadow because it is too small .":
        "Der Hubschrauber wird nicht auf der Wiese landen , weil sie zu klein ist .",
    "The pen can't write on the paper because it is empty .":
        "Der Stift kann nicht auf dem Papier schreiben , weil er leer ist .",
    "The boat didn't sail up the river because it was big .":
        "Das Boot fuhr den Fluss nicht hinauf , weil es groß war .",
    "The tractor didn't drive onto the ice because it was too heavy .":
        "Der Traktor fuhr nicht auf das Eis , weil er zu schwer war .",
    "The dog can't catch the duck because it is too quick .":
        "Der Hund kann die Ente nicht fangen , weil sie zu schnell ist .",
    "The bear can't catch the deer because it is injured .":
        "Der Bär kann das Reh nicht fangen , weil er verletzt ist .",
    "The screw doesn't go into the board because it is bent .":
        "Die Schraube geht nicht in das Brett , weil sie krumm ist .",
    "The bird couldn't crack the walnut because it was big .":
        "Der Vogel konnte die Walnuss nicht knacken , weil sie groß war .",
}


def test_hand_checked_sentences_are_generated_exactly():
    gen = {ex.src: ex.tgt for split in ("train", "val", "test")
           for ex in textbook.generate(split, n=40000)}
    for en, de in HAND_CHECKED.items():
        if en in gen:
            assert gen[en] == de
    assert sum(en in gen for en in HAND_CHECKED) >= 7  # five of them say touch / open / rotten
    assert sum(en in gen for en in list(HAND_CHECKED)[-9:]) >= 4  # the second tools, the chase
    # (a lexicon change reshuffles the sample: read five new ones then)


DING = find_ding()


@pytest.mark.skipif(DING is None, reason="Ding not found ($ATTENTION_LAB_DING, ../shared/data/ding "
                    "or data/ding): the lexicon's genders are not checked against its marks")
def test_genders_agree_with_dings_marks():
    from helpers import check_genders_against_ding

    check_genders_against_ding(list(itertools.chain(ANIMALS.values(), THINGS.values(), PARTS.values())), DING, 3)


def test_the_fear_frame_reads_the_negation_and_takes_the_dative():
    """"The mouse wasn't afraid of the dog because it was brave / small ." names the mouse, then
    the dog; said without "n't", "small" names the one afraid. German: "(keine) Angst vor" and the
    dative ("vor dem Hund", "vor der Katze"), never a weak masculine there ("vor dem Löwen")."""
    from transformer.data.textbook_lexicon import AFRAID_SIDES, WEAK

    got = [ex for split in ("train", "test") for ex in textbook.generate(split, 600, frames=("afraid",))]
    assert got
    dat = {"m": "dem", "f": "der", "n": "dem"}
    for a, b in zip(got[::2], got[1::2]):
        assert a.meta["pair"] == b.meta["pair"] and a.meta["pronoun_de"] != b.meta["pronoun_de"]
        for ex in (a, b):
            en, de, m = ex.src.split(), ex.tgt.split(), ex.meta
            negated = m["tense"].endswith("n't")
            subj_words, obj_words = AFRAID_SIDES[negated]
            word = m["deciding_word"]
            assert word in (subj_words if m["antecedent_first"] else obj_words), ex.src
            assert en[3:6] == ["afraid", "of", "the"] and en[m["pronoun_pos"]] == "it"
            obj = ANIMALS[en[6]]  # The mouse wasn't afraid of the DOG
            assert obj.en not in WEAK
            vor = de.index("vor")
            assert de[vor - 1] == "Angst" and ("keine" in de) == negated
            assert de[vor + 1] == dat[obj.gender] and de[vor + 2] == obj.de
            assert de[m["tgt_pronoun_pos"]] == m["pronoun_de"] and de[-2] in ("war", "ist")
    assert {ex.meta["tense"] for ex in got} == {"wasn't", "isn't", "was", "is"}
    for subj_words, obj_words in AFRAID_SIDES.values():  # a pair's two words always differ
        assert not set(subj_words) & set(obj_words)


def test_so_puts_the_german_verb_before_the_person():
    """", so Lisa fed it ." is ", also fütterte Lisa sie .": "also" takes the verb second."""
    from transformer.data.textbook_lexicon import PEOPLE

    got = textbook.generate("train", 400, frames=("obj",))
    joined = {ex.meta["pair"].endswith(":so") for ex in got}
    assert joined == {True, False}
    for ex in got:
        en, de = ex.src.split(), ex.tgt.split()
        comma = de.index(",")
        if ex.meta["pair"].endswith(":so"):
            assert en[en.index(",") + 1] == "so" and de[comma + 1] == "also"
            assert de[comma + 3] == PEOPLE[en[en.index(",") + 2]]  # also VERB PERSON
        else:
            assert en[en.index(",") + 1] == "and" and de[comma + 1] == "und"
            assert de[comma + 2] == PEOPLE[en[en.index(",") + 2]]  # und PERSON VERB
        assert de[ex.meta["tgt_pronoun_pos"]] == ex.meta["pronoun_de"] and de[-1] == "."
