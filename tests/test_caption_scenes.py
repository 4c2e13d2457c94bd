"""transformer.data.caption_scenes: caption sentences whose later pronoun agrees with an earlier noun.

The expected German pronouns, possessive endings and adjective endings are written out here by
hand (tables and phrases), not taken from the generator's own tables."""
from __future__ import annotations

import re

import pytest

from transformer.data import caption_scenes
from transformer.data.caption_scenes_clauses import PREDS
from transformer.data.caption_scenes_grammar import NP, prep_phrase
from transformer.data.caption_scenes_lexicon import ALL, ANIMALS, FAMILY, PARTS, PEOPLE, THINGS
from transformer.data.caption_scenes_verbs import DATIVE, FIRST, SECOND

# German personal pronouns by case and by gender (or "pl"), as any grammar book lists them
PRONOUN = {"nom": {"m": "er", "f": "sie", "n": "es", "pl": "sie"},
           "acc": {"m": "ihn", "f": "sie", "n": "es", "pl": "sie"},
           "dat": {"m": "ihm", "f": "ihr", "n": "ihm", "pl": "ihnen"}}
# the endings of sein- / ihr- by the owned noun's case and gender
POSS_END = {"nom": {"m": "", "f": "e", "n": "", "pl": "e"}, "acc": {"m": "en", "f": "e", "n": "", "pl": "e"},
            "dat": {"m": "em", "f": "er", "n": "em", "pl": "en"}}
EN_PRONOUNS = {"it", "its", "they", "them", "their", "his", "her"}
SUBORDINATORS = {"während", "weil", "bis", "damit", "wenn", "nachdem"}
N_DECLENSION = ("Welpe", "Bär", "Löwe", "Elefant", "Affe", "Junge", "Teddybär", "Bauer", "Polizist", "Tourist")
PERSON_WORDS = {"man", "men", "woman", "women", "boy", "boys", "girl", "girls", "child", "children", "fisherman",
                "farmer", "cook", "teacher", "gardener", "musician", "policeman", "policewoman", "waiter",
                "waitress", "tourist", "cyclist", "player", "vendor", "zookeeper"}


@pytest.fixture(scope="module")
def sample():
    return caption_scenes.generate(6000, seed=3)


def _expected_pronoun(meta: dict) -> str:
    g = "pl" if meta["antecedent_plural"] else meta["antecedent_gender"]
    if meta["pronoun_case"] != "poss":
        return PRONOUN[meta["pronoun_case"]][g]
    stem = "ihr" if g in ("f", "pl") else "sein"
    owned = "pl" if meta["possessed_plural"] else meta["possessed_gender"]
    return stem + POSS_END[meta["possessed_case"]][owned]


def _noun_forms() -> dict[str, set[str]]:
    """English noun word -> the German forms its lexicon entries are written in."""
    out: dict[str, set[str]] = {}
    entries = [*ALL.values(), *PARTS.values(), *FAMILY.values(), *PEOPLE.values(), *caption_scenes.GROUPS]
    for n in entries:
        forms = {n.de, n.de_pl, n.de_pl + "n", getattr(n, "weak", "") or n.de}
        for en in (n.en, n.en_pl):
            out.setdefault(en.split()[-1], set()).update(forms)
    return out


def test_pairs_are_distinct_seeded_and_as_many_as_asked(sample):
    assert len(sample) == len({ex.src for ex in sample}) == 6000
    again = caption_scenes.generate(6000, seed=3)
    assert [(ex.src, ex.tgt, ex.meta) for ex in again] == [(ex.src, ex.tgt, ex.meta) for ex in sample]
    assert [ex.src for ex in caption_scenes.generate(500, seed=3)] == [ex.src for ex in sample[:500]]
    assert [ex.src for ex in caption_scenes.generate(50, seed=4)] != [ex.src for ex in sample[:50]]
    assert caption_scenes.generate(0) == [] and len(caption_scenes.generate(137, seed=9)) == 137


def test_sentences_are_capitalised_spaced_and_of_caption_length(sample):
    for ex in sample:
        for text in (ex.src, ex.tgt):
            assert text[0].isupper() and text == text.strip() and "  " not in text, text
            assert text.endswith(" .") and text.count(".") == 1, text
            assert not re.search(r"\w[,.]|[,.]\w", text), text  # punctuation stands alone
            assert 3 <= len(text.split()) - 1 <= 22, text
        assert ex.meta["task"] == "caption_scenes"
        assert ", ," not in ex.tgt and ", ." not in ex.tgt


def test_every_frame_occurs_roughly_at_its_share(sample):
    assert abs(sum(caption_scenes.FRAMES.values()) - 1) < 1e-9
    counts = {f: sum(ex.meta["frame"] == f for ex in sample) for f in caption_scenes.FRAMES}
    for frame, share in caption_scenes.FRAMES.items():
        assert 0.5 * share < counts[frame] / len(sample) < 1.6 * share, (frame, counts)


def test_meta_points_at_the_pronoun_and_the_antecedent_noun(sample):
    forms = _noun_forms()
    for ex in sample:
        m, src, tgt = ex.meta, ex.src.split(), ex.tgt.split()
        assert src[m["pronoun_pos"]] in EN_PRONOUNS, ex
        assert tgt[m["tgt_pronoun_pos"]] == m["pronoun_de"], ex
        assert src[m["antecedent_pos"]] == m["antecedent_en"] and tgt[m["tgt_antecedent_pos"]] == m["antecedent_de"]
        assert m["antecedent_de"] in forms[m["antecedent_en"]], ex  # the same noun on both sides
        assert m["antecedent_de"][0].isupper() and m["antecedent_gender"] in ("m", "f", "n"), ex
        assert isinstance(m["antecedent_plural"], bool)
        assert m["antecedent_pos"] < m["pronoun_pos"] or m["pronoun_en"] in ("his", "her", "its", "their"), ex


def test_the_german_pronoun_agrees_with_the_antecedent_in_gender_number_and_case(sample):
    for ex in sample:
        m = ex.meta
        assert m["pronoun_de"] == _expected_pronoun(m), ex
        plural = m["antecedent_plural"]
        en = m["pronoun_en"]
        if en in ("it", "its"):
            assert not plural and m["antecedent_en"] not in PERSON_WORDS, ex  # "it" is never a person
        elif en in ("they", "them", "their"):
            assert plural, ex
        else:  # his / her: a person of that sex, and German's gender says the same
            assert not plural and m["antecedent_en"] in PERSON_WORDS and m["antecedent_gender"] == \
                {"his": "m", "her": "f"}[en], ex


@pytest.mark.parametrize("owner, owner_g, part, case, plural, want", [
    ("dog", "m", "tail", "dat", False, "seinem Schwanz"), ("dog", "m", "tail", "acc", False, "seinen Schwanz"),
    ("cat", "f", "paw", "acc", False, "ihre Pfote"), ("cat", "f", "paw", "acc", True, "ihre Pfoten"),
    ("cat", "f", "basket", "dat", False, "ihrem Korb"), ("horse", "n", "mane", "acc", False, "seine Mähne"),
    ("dog", "pl", "tail", "dat", True, "ihren Schwänzen"), ("chick", "n", "mother", "dat", False, "seiner Mutter"),
    ("duck", "f", "egg", "dat", True, "ihren Eiern"), ("car", "n", "wheel", "acc", True, "seine Räder"),
    ("kite", "m", "string", "dat", False, "seiner Schnur"), ("bird", "m", "nest", "dat", False, "seinem Nest"),
    ("cow", "f", "calf", "nom", False, "ihr Kalb"), ("bus", "m", "door", "acc", True, "seine Türen"),
])
def test_possessive_phrases_decline_by_owner_and_owned_noun(owner, owner_g, part, case, plural, want):
    noun = PARTS.get(part) or ALL[part]
    np = NP(noun, plural, "poss", owner=owner_g, owner_en="their" if owner_g == "pl" else "its")
    assert " ".join(np.de(case)) == want


def test_possessive_endings_in_the_sample_follow_owner_and_owned_noun(sample):
    seen = set()
    for ex in sample:
        m = ex.meta
        if m["pronoun_case"] != "poss":
            continue
        owned = ex.tgt.split()[m["tgt_pronoun_pos"] + 1:]
        assert m["pronoun_de"] == _expected_pronoun(m), ex
        seen.add((m["possessed_case"], m["possessed_plural"] or m["possessed_gender"]))
        if m["possessed_case"] == "dat" and m["possessed_plural"]:
            assert re.match(r"(\w+en )?\w+[ns]$", " ".join(owned[:2])) or owned[0].endswith(("n", "s")), ex
    assert {("acc", "m"), ("acc", "f"), ("dat", "m"), ("dat", "f"), ("dat", "n"), ("dat", True), ("nom", "n")} <= seen


@pytest.mark.parametrize("key, det, adj, case, plural, want", [
    ("dog", "a", "brown", "nom", False, "ein brauner Hund"), ("dog", "a", "brown", "acc", False, "einen braunen Hund"),
    ("dog", "a", "brown", "dat", False, "einem braunen Hund"), ("dog", "the", "brown", "nom", False, "der braune Hund"),
    ("dog", "two", "brown", "nom", True, "zwei braune Hunde"),
    ("dog", "two", "brown", "dat", True, "zwei braunen Hunden"),
    ("melon", "a", "ripe", "acc", False, "eine reife Melone"),
    ("kitten", "a", "little", "acc", False, "ein kleines Kätzchen"),
    ("puppy", "a", "", "acc", False, "einen Welpen"), ("bear", "the", "", "dat", False, "dem Bären"),
    ("apple", "some", "red", "dat", True, "einigen roten Äpfeln"),
    ("frisbee", "a", "red", "nom", False, "ein rotes Frisbee"),
    ("shirt", "a", "red", "dat", False, "einem roten Hemd"), ("jacket", "the", "blue", "acc", False, "die blaue Jacke"),
])
def test_noun_phrases_decline_article_adjective_and_noun(key, det, adj, case, plural, want):
    assert " ".join(NP(ALL[key], plural, det, adj).de(case)) == want


def test_n_declension_and_contractions_in_the_sample(sample):
    articles = "den|dem|einen|einem|seinen|seinem|ihren|ihrem"
    weak = re.compile(r"\b(%s)( \w+e[nrs]?)? (%s)\b" % (articles, "|".join(N_DECLENSION)))
    for ex in sample:
        assert not weak.search(ex.tgt), ex.tgt
        assert not re.search(r"\b(in dem|in das|an dem|an das|zu dem|zu der|von dem|bei dem)\b", ex.tgt), ex.tgt
    assert prep_phrase("in", ["dem", "Park"]) == ["im", "Park"]
    assert prep_phrase("zu", ["der", "Tür"]) == ["zur", "Tür"]
    assert prep_phrase("in", ["das", "Wasser"]) == ["ins", "Wasser"] and prep_phrase("auf", ["dem", "Feld"]) == \
        ["auf", "dem", "Feld"]
    joined = " ".join(ex.tgt for ex in sample)
    assert " einen Welpen " in joined and " im " in joined and " am " in joined and " ins " in joined


def test_subordinate_clauses_end_with_the_verb_and_main_clauses_put_it_second(sample):
    subs = mains = 0
    for ex in sample:
        m, words = ex.meta, ex.tgt.split()
        if m["frame"] == "subordinate":
            subs += 1
            conj = m["conj"]
            assert conj in SUBORDINATORS and words[words.index(conj) - 1] == ",", ex
            assert m["tgt_verb_pos"] == len(words) - 2, ex  # the verb, prefix joined, before the "."
            assert words[words.index(conj) + 1] == m["pronoun_de"], ex
            verb = words[-2]
            assert re.search(r"(t|n|kann|ist|hat|sind)$", verb), ex
        if m["frame"] == "main_clause":
            mains += 1
            at = m["tgt_verb_pos"]
            assert words[at - 2] in ("und", "aber") and words[at - 3] == "," and at - 1 == m["tgt_pronoun_pos"], ex
        if "tgt_verb_pos" in m:  # the verb agrees with the pronoun: plural -> -en / sind
            verb = words[m["tgt_verb_pos"]]
            if m["antecedent_plural"]:
                assert verb == "sind" or verb.endswith("n"), ex
            else:
                assert verb in ("ist", "kann", "hat") or verb.endswith("t"), ex
    assert subs > 500 and mains > 400
    conjs = {ex.meta["conj"] for ex in sample if ex.meta["frame"] == "subordinate"}
    assert conjs == SUBORDINATORS


def test_separable_prefixes_go_last_in_main_clauses_and_join_the_verb_in_subordinate_ones():
    ex = caption_scenes.generate(6000, seed=11)
    joined = " ".join(e.tgt for e in ex)
    for phrase in (" und hebt ", " auf .", " , bis ", "einschläft .", "weggelaufen ist .", " zurück .", " dann "):
        assert phrase in joined, phrase
    pred = PREDS["run_away"]
    assert (pred.last, pred.de) == ("weg", ("läuft", "laufen"))
    for e in ex:
        if e.meta["frame"] == "subordinate" and e.meta["pred"] == "run_away" and e.meta["conj"] != "nachdem":
            assert e.tgt.endswith("weglaufen ." if e.meta["antecedent_plural"] else "wegläuft ."), e.tgt


def test_two_antecedents_differ_in_german_and_either_may_be_meant(sample):
    two = [ex for ex in sample if ex.meta["frame"] == "two_antecedents"]
    assert {ex.meta["antecedent_rank"] for ex in two} == {0, 1}
    for ex in two:
        m = ex.meta
        g = "pl" if m["antecedent_plural"] else m["antecedent_gender"]
        assert m["other_genders"] and g not in m["other_genders"], ex


def test_lexicon_nouns_have_gender_and_plural_and_are_many():
    for table in (ALL, PARTS, FAMILY, PEOPLE):
        for noun in table.values():
            assert noun.gender in ("m", "f", "n"), noun
            assert noun.de_pl and noun.en_pl and noun.de[0].isupper() and noun.de_pl[0].isupper(), noun
    assert len(THINGS) + len(ANIMALS) >= 150 and len(PEOPLE) >= 12
    assert ANIMALS["puppy"].weak == "Welpen" and THINGS["frisbee"].gender == "n" and ANIMALS["foal"].gender == "n"
    assert len(FIRST) + len(SECOND) + len(DATIVE) >= 60


def test_the_public_test_sentences_are_never_generated():
    out = caption_scenes.generate(30000, seed=0)
    assert len({ex.src for ex in out}) == 30000
    for ex in out:
        low = ex.src.lower()
        assert "animal didn't cross the street" not in low and "cross the street" not in low, ex.src
        assert not ("trophy" in low and "suitcase" in low) and "trophy" not in low, ex.src
