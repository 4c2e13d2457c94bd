"""recipes.everyday.caption_scenes: caption sentences whose later pronoun agrees with an earlier noun.

The expected German pronouns, possessive endings and adjective endings are written out here by
hand (tables and phrases), not taken from the generator's own tables."""
from __future__ import annotations

import re

import pytest

from recipes.everyday import caption_scenes
from recipes.everyday.caption_scenes_clauses import PREDS
from recipes.everyday.caption_scenes_grammar import NP, prep_phrase
from recipes.everyday.caption_scenes_lexicon import ALL, ANIMALS, FAMILY, PARTS, PEOPLE, THINGS
from recipes.everyday.caption_scenes_verbs import DATIVE, FIRST, SECOND

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


# ---- the classes a bilingual review found unnatural (E) or absurd (A), each checked over 60,000 pairs ----

@pytest.fixture(scope="module")
def big():
    return caption_scenes.generate(30000, seed=101) + caption_scenes.generate(30000, seed=202)


_GROUP = (r"^(Two|Three|Several|The) (\w+ )?(men|women|children|boys|girls|fishermen|farmers|cooks|gardeners|"
          r"musicians|policemen|policewomen|waiters|waitresses|tourists|cyclists|players|vendors|zookeepers)\b")
_SMALL = set("book apple peach pear tomato mushroom shirt egg phone key cup shell stone banana sandwich letter map "
             "flower camera cookie orange lemon carrot potato cucumber onion strawberry cherry rose tulip T-shirt sock "
             "scarf hat cap newspaper candle doll glass bottle knife hammer brush flashlight".split())
_LOOK = re.compile(r"\b(sees?|watch(es)?|photographs?|draws?|looks? at|laughs? at)\b")

# (what the review said, a pattern no English caption may match)
NEVER_EN = {
    "calque: wants to start / open": r"\bwants? to (start|open)\b",
    "calque: does not start": r"\b(does not|doesn't|do not|don't) start\b",
    "backwards: out of the pot, then cooked": r"\bout of (the|a) pot and (then )?(boils?|cooks?|fries|fry|grills?)\b",
    "tautology: fills until full": r"\bfills?\b.*\buntil (it is|they are) full\b",
    "tautology: calms down until calm": r"\bcalms?\b.*\bdown until\b.*\bcalm\b",
    "tautology: cleans until clean": r"\bcleans?\b.*\buntil (it is|they are) clean\b",
    "washing does not make things shine": r"\bwash(es)?\b.*\b(until|and) (it|they) shines?\b",
    "a made thing takes a: builds a snowman": r"\b(builds?|bakes?|makes?) the\b",
    "a habit, not a moment: when it is wet": r"\bwhen (it|they) (is|are)\b",
    "absurd: lifts hamsters to see the ducks": r"\bso that (it|they) can see the ducks\b",
    "a tram in the yard": r"\b(trams?|bus|buses|taxis?)\b.*\bin the yard\b|\bin the yard\b.*\b(trams?|bus|buses|taxis?)\b",
    "watches a tram while it leaves": r"\bwhile (it|they) leaves?\b",
    "the water twice": r"\binto the (water|lake)\b.*\bon the water\b",
    "finds a box , and it is very big": r", and (it is|they are) (very|brand)\b",
    "two boots (a pair of boots)": r"\b(two|three|some|several) (\w+ )?(boots|shoes|gloves|socks)\b",
    "meets two children and says goodbye to them": r"\bmeets?\b.*\bgoodbye\b",
    "a seal is thrown a stick": r"\bseals?\b.*\bthrows? (it|them) a\b",
    "sees it and then watches it": r"\bsees?\b.*\band (then )?watch(es)? (it|them)\b",
    "gives it water so that it can drink": r"\bwater so that (it|they) can drink\b",
    "a bird preens, not cleans, its feathers": r"\bcleans? (its|their) feathers\b",
    "one person starts, pushes or packs several": r"\b(start|push|pushes|packs?) (the |two |three |some |several )?"
                                                   r"(\w+ )?(cars|trucks|tractors|motorbikes|boats|canoes|sofas|pianos|"
                                                   r"boxes|bags|backpacks|baskets)\b",
    "catches several balls at once": r"\bcatch(es)? (the |two |three |some |several )?(\w+ )?(balls|frisbees)\b",
    "a child with knives": r"^(A|An|The|Two|Three|Several) (little |young )?(child|children|boy|boys|girl|girls)\b.*"
                           r"\b(knife|knives|axe|axes|saw|saws)\b",
    "a child's stroller is a doll's pram": r"^(A|An|The|Two|Three|Several) (little |young )?"
                                           r"(child|children|boy|boys|girl|girls)\b.*\bstrollers?\b",
    # found in a second review of 120 fresh pairs
    "puts a dog in a car and drives it home (the dog?)": r"\bin (a|the) car and (then )?drives? it\b",
    "bakes a cake , and it is golden brown": r", and (it is|they are) golden\b",
    "washes a pig , and it is clean": r", and (it is|they are) clean \.$",
    "meets them and then waves to them": r"\bmeets?\b.*\bwaves? to them\b",
    "a kite let go of rises into the sky": r"\blets? go of (a|an|the) (\w+ )?kites?\b",
    "holds out some milk to a kitten": r"\bholds? out some milk\b",
    "tries on socks": r"\btr(y|ies) on (\w+ )*socks\b|\btr(y|ies) (\w+ )*socks on\b",
    "throws or kicks several balls at once": r"\b(throws?|kicks?) (the |two |three |some |several )?(\w+ )?"
                                             r"(balls|frisbees)\b(?! into)",
    "several people put one apple in their basket": _GROUP + r".*\b(put|give) (a|an) \w+ (in|to) their\b",
    "one small stone in a wheelbarrow": r"\bputs? (a|an|the) (\w+ )?(stone|potato|branch) in (a|the) wheelbarrow\b",
    # ... and in a third
    "the same place twice: in the garden ... in the garden": r"\b(in|on|at) (the|a) (\w+)\b.*\b(in|on|at|into) (the|a) \3\b",
    "puts a dog in a car , and it sleeps": r"\bputs?\b.*, and (it|they) sleeps? \.",
    "three dogs chew on their (one) bone": r"^(Two|Three|Several|Some|The) (\w+ )?\w+ (chew on|carry) their "
                                           r"(bone|toy|ball|stick)\b",
    # ... and in a fourth
    "bakes a cake , and it is still warm": r"\bbakes?\b.*, and (it is|they are) still warm\b",
    "a dolphin yawns": r"\bdolphins?\b.*\byawns?\b",
    "throws several frisbees into the air and catches them": r"\bthrows? (the |two |three |some |several )?(\w+ )?"
                                                             r"(balls|frisbees) into the air\b",
    "a grown-up shows it to his teacher": r"^(A|An|The|Two|Three|Several) (old |young )?(man|men|woman|women|\w+ers?|"
                                          r"cooks?|tourists?|vendors?|policem[ae]n|policewom[ae]n)\b.*\b(his|her|their) "
                                          r"teacher\b",
}
# German words the review found ambiguous or stiff, with what is said instead
NEVER_DE = {
    "faul (lazy?) -> verfault": r"\bfaul\b",
    "Krabben (shrimp?) -> Krebse": r"\bKrabben?\b",
    "will ... starten -> versucht , ... zu starten": r"\bwill(st)?\b.*\b(starten|öffnen)\b",
    "Flaschen: schließt -> macht zu": r"Flasche.*\bschließ",
    "Bildschirm -> Display": r"\bBildschirm",
    "Pilze werden gesammelt": r"\bPilze?\b.*\bpflück|\bpflück.*\bPilze?\b",
}


@pytest.mark.parametrize("what", sorted(NEVER_EN))
def test_reviewed_english_classes_never_come_back(big, what):
    pattern = re.compile(NEVER_EN[what])
    bad = [ex.src for ex in big if pattern.search(ex.src)]
    assert not bad, (what, len(bad), bad[:3])


@pytest.mark.parametrize("what", sorted(NEVER_DE))
def test_reviewed_german_words_never_come_back(big, what):
    pattern = re.compile(NEVER_DE[what])
    bad = [ex.tgt for ex in big if pattern.search(ex.tgt)]
    assert not bad, (what, len(bad), bad[:3])


def test_several_people_never_handle_one_small_thing(big):
    """"Several men carry a book", "Three vendors taste a peach": one small thing is one person's;
    a group may look at it ("Two girls photograph a flower")."""
    group = re.compile(_GROUP)
    bad = [ex.src for ex in big if group.search(ex.src) and not ex.meta["antecedent_plural"]
           and ex.meta["antecedent_en"] in _SMALL and ex.meta["frame"] != "possessive_person"
           and not _LOOK.search(ex.src)]
    assert not bad, (len(bad), bad[:3])


def test_the_reviewed_fixes_say_it_the_natural_way(big):
    en = "\n".join(ex.src for ex in big)
    de = "\n".join(ex.tgt for ex in big)
    for phrase in (" tries to start the ", " won't start ", " tries to open the ", " a pair of ", " builds a ",
                   " as it pulls away .", " preens ", " pets ", " until it is calm again ", " packs ", "until it is full",
                   "into the water , and it floats .", "too heavy to carry", "hugs ", "says goodbye to them",
                   " out of the cage so that ", "at the stop", ", and it is clean again .", " in a car and starts it"):
        assert phrase in en, phrase
    for phrase in (" versucht , ", " zu starten , aber ", " springt nicht an ", " ein Paar ", " verfault ",
                   " sammelt ", " Krebse ", " macht sie zu ", "Display", "an der Haltestelle", " kocht sie "):
        assert phrase in de, phrase
    # eggs go into the pot and are boiled there, never taken out of it and boiled
    assert re.search(r"\bputs (\w+ )?(eggs?|potato(es)?) in (the|a) pot and (then )?boils", en)


def test_trams_and_buses_run_on_roads_and_stop_at_stops():
    for key in ("bus", "tram", "taxi", "train"):
        assert "yard" not in ALL[key].places, key
    assert "stop" in ALL["tram"].places and "stop" in ALL["bus"].places


def test_a_pair_of_boots_declines_as_a_plural():
    boots = ALL["boot"]
    np = NP(boots, True, "pair", "new", tag="ante")
    assert " ".join(np.en()) == "a pair of new boots"
    assert " ".join(np.de("acc")) == "ein Paar neue Stiefel" and " ".join(np.de("dat")) == "einem Paar neuen Stiefeln"
