"""recipes.everyday.daily_life: home, work, shops, health, dates and travel from a hand-checked grammar.

Expected German is written out here by hand, not derived from the module's tables."""
from __future__ import annotations

import itertools
import random
import re

import pytest

from recipes.everyday import daily_life, daily_life_clauses

from recipes.everyday.daily_life_grammar import (BE, HAD, HAVE, MODALS, PERSONS, WAS, Clause, noun_phrase, phrase,
                                                 prep_phrase)
from recipes.everyday.daily_life_lexicon import ALL, MASS, NOUNS
from recipes.everyday.daily_life_verbs import BY_KEY, VERBS
from transformer.data.ding import find_ding

from helpers import check_generated_sample


@pytest.fixture(scope="module")
def sample():
    return daily_life.generate(6000, seed=3)


def _words(text: str) -> list[str]:
    return [w for w in text.split() if re.search(r"\w", w)]


def test_sentences_are_well_formed_distinct_seeded_and_every_frame_occurs(sample):
    assert len(sample) == 6000
    check_generated_sample(sample, daily_life.generate, 3, len(sample), (" .", " ?", " !"))
    for ex in sample:
        for text in (ex.src, ex.tgt):
            assert 3 <= len(_words(text)) <= 20, text
            assert " ," not in text[:2] and ", ," not in text and ", ." not in text, text
        assert ex.meta["task"] == "daily_life"
    assert {ex.meta["frame"] for ex in sample} == set(daily_life.FRAMES)
    assert abs(sum(daily_life.FRAMES.values()) - 1) < 1e-9


def test_many_distinct_sentences_quickly():
    out = daily_life.generate(30000, seed=0)
    assert len(out) == len({ex.src for ex in out}) == 30000


@pytest.mark.parametrize("name, det, case, plural, owner, adj, neg, want", [
    ("fridge", "the", "acc", False, None, "", False, ("the fridge", "den Kühlschrank")),
    ("flat", "a", "dat", False, None, "small", False, ("a small flat", "einer kleinen Wohnung")),
    ("house", "a", "dat", False, None, "old", False, ("an old house", "einem alten Haus")),
    ("jacket", "poss", "acc", False, "du", "new", False, ("your new jacket", "deine neue Jacke")),
    ("coat", "poss", "acc", False, "ihr", "", False, ("your coat", "euren Mantel")),
    ("room", "poss", "nom", False, "ihr", "", False, ("your room", "euer Zimmer")),
    ("bag", "poss", "acc", False, "Sie", "", False, ("your bag", "Ihre Tasche")),
    ("shoe", "a", "acc", True, None, "black", False, ("black shoes", "schwarze Schuhe")),
    ("shoe", "this", "nom", True, None, "", False, ("these shoes", "diese Schuhe")),
    ("milk", "a", "dat", False, None, "cold", False, ("cold milk", "kalter Milch")),
    ("water", "a", "dat", False, None, "hot", False, ("hot water", "heißem Wasser")),
    ("tea", "a", "acc", False, None, "hot", False, ("hot tea", "heißen Tee")),
    ("neighbour", "poss", "dat", False, "we", "", False, ("our neighbour", "unserem Nachbarn")),
    ("neighbour", "poss", "nom", False, "we", "new", False, ("our new neighbour", "unser neuer Nachbar")),
    ("child", "the", "dat", True, None, "", False, ("the children", "den Kindern")),
    ("jacket", "this", "nom", False, None, "expensive", False, ("this expensive jacket", "diese teure Jacke")),
    ("cinema", "a", "acc", False, None, "", True, ("a cinema", "kein Kino")),
    ("park", "a", "acc", False, None, "big", False, ("a big park", "einen großen Park")),
    ("dress", "a", "acc", False, None, "red", False, ("a red dress", "ein rotes Kleid")),
    ("teacher", "the", "nom", False, None, "new", False, ("the new teacher", "der neue Lehrer")),
    ("room", "a", "nom", False, None, "dark", False, ("a dark room", "ein dunkles Zimmer")),
    ("homework", "poss", "acc", False, "I", "", False, ("my homework", "meine Hausaufgaben")),
    ("photo", "the", "dat", True, None, "", False, ("the photos", "den Fotos")),
])
def test_noun_phrases_decline_article_adjective_and_noun(name, det, case, plural, owner, adj, neg, want):
    owner = PERSONS[owner] if owner else None
    assert noun_phrase(ALL[name], det, case, plural, owner, adj, neg) == want


@pytest.mark.parametrize("prep, np, want", [
    ("in", "dem Kühlschrank", "im Kühlschrank"), ("in", "das Bett", "ins Bett"),
    ("an", "die Wand", "an die Wand"), ("an", "das Fenster", "ans Fenster"),
    ("an", "dem Haken", "am Haken"), ("auf", "den Tisch", "auf den Tisch"),
    ("zu", "der Party", "zur Party"), ("bei", "dem Arzt", "beim Arzt"),
    ("in", "der Küche", "in der Küche"), ("von", "dem Flughafen", "vom Flughafen"),
])
def test_prepositions_contract_with_the_article(prep, np, want):
    assert prep_phrase(prep, np) == want


def test_the_pronoun_comes_straight_after_the_verb_and_subject():
    cl = Clause("ich", "habe", ["mich"], ["gestern"], [], ["nicht"], [], ["beeilt"])
    assert " ".join(cl.statement()) == "ich habe mich gestern nicht beeilt"
    assert " ".join(cl.statement(True)) == "gestern habe ich mich nicht beeilt"
    assert " ".join(cl.subordinate()) == "ich mich gestern nicht beeilt habe"
    noun = Clause("meine Schwester", "hat", ["sich"], ["gestern"], [], [], [], ["verletzt"], noun_subj=True)
    assert " ".join(noun.statement(True)) == "gestern hat sich meine Schwester verletzt"
    sep = Clause("er", "räumt", [], ["heute"], ["sein", "Zimmer"], ["nicht"], [], ["auf"], joined=True)
    assert " ".join(sep.statement()) == "er räumt heute sein Zimmer nicht auf"
    assert " ".join(sep.subordinate()) == "er heute sein Zimmer nicht aufräumt"


def _phrase(key: str, who: str, **kw):
    """The phrase with its determiner chosen until KW's "want" English comes out."""
    want = kw.pop("want")
    rng = random.Random(0)
    for _ in range(200):
        p = phrase(rng, BY_KEY[key], PERSONS[who], **kw)
        if p.en(BY_KEY[key].en[0]) == want:
            return p
    raise AssertionError(f"{key}: never said {want!r}")


def test_imperatives_for_du_ihr_and_sie_put_the_prefix_last():
    close = BY_KEY["close"]
    p = _phrase("close", "du", obj="window", want="close the window")
    assert " ".join(p.clause(None, close.imp, ["zu"], [], ["bitte"]).question()) == "mach bitte das Fenster zu"
    p = _phrase("close", "Sie", obj="window", want="close the window")
    assert " ".join(p.clause(PERSONS["Sie"], close.de[3], ["zu"], [], ["bitte"]).question()) == \
        "machen Sie bitte das Fenster zu"
    tidy = BY_KEY["tidy"]
    p = _phrase("tidy", "ihr", obj="room", want="tidy your room")
    assert " ".join(p.clause(None, tidy.ihr_imp, ["auf"], []).question()) == "räumt euer Zimmer auf"
    p = _phrase("wash_part", "du", obj="hand+", want="wash your hands")
    assert " ".join(p.clause(None, "wasch", [], []).question()) == "wasch dir die Hände"
    p = _phrase("wash_part", "ihr", obj="face", want="wash your faces")
    assert " ".join(p.clause(None, "wascht", [], []).question()) == "wascht euch das Gesicht"
    p = _phrase("forget", "du", obj="umbrella", want="forget your umbrella", neg=True)
    assert " ".join(p.clause(None, "vergiss", [], ["nicht"]).question()) == "vergiss deinen Regenschirm nicht"
    p = _phrase("worry", "du", obj="P", want="worry about me", neg=True)
    assert " ".join(p.clause(None, "mach", [], ["nicht"]).question()) == "mach dir keine Sorgen um mich"


def test_tenses_reflexives_sein_and_kein():
    me, we = PERSONS["I"], PERSONS["we"]
    p = _phrase("hurry", "I", want="hurry up")
    assert " ".join(p.tense_clause(me, "perfect", False, ["gestern"]).statement(True)) == \
        "gestern habe ich mich beeilt"
    p = _phrase("arrive", "I", comp=0, want="arrive at the station")
    assert " ".join(p.tense_clause(me, "perfect", False).statement()) == "ich bin am Bahnhof angekommen"
    p = _phrase("fly", "we", comp=4, want="fly to Switzerland")
    assert " ".join(p.tense_clause(we, "perfect", True).statement()) == "wir sind nicht in die Schweiz geflogen"
    p = _phrase("bake", "I", obj="cake", neg=True, want="bake a cake")
    assert " ".join(p.tense_clause(me, "present", True).statement()) == "ich backe keinen Kuchen"
    p = _phrase("look_forward", "we", obj="holidays", want="look forward to the holidays")
    assert " ".join(p.tense_clause(we, "present", True).statement()) == "wir freuen uns nicht auf die Ferien"
    p = _phrase("break", "I", obj="arm", want="break my arm")
    assert " ".join(p.tense_clause(me, "perfect", False).statement()) == "ich habe mir den Arm gebrochen"
    p = _phrase("hurt_part", "I", obj="hand", want="hurt my hand")
    assert " ".join(p.tense_clause(me, "perfect", False).statement()) == "ich habe mich an der Hand verletzt"
    p = _phrase("help", "I", obj="neighbour", want="help my neighbour")
    assert " ".join(p.tense_clause(me, "present", True).statement()) == "ich helfe meinem Nachbarn nicht"
    p = _phrase("listen_music", "I", comp=0, neg=True, want="listen to music")
    assert " ".join(p.tense_clause(me, "present", True).statement()) == "ich höre keine Musik"
    en, cl = daily_life_clauses._step(random.Random(0), ("shower", None, None), me, "past", "pluperfect")
    assert en == ["", "had a shower"] and " ".join(cl.subordinate()) == "ich geduscht hatte"
    en, cl = daily_life_clauses._step(random.Random(0), ("get_up", None, ""), me, "past", "pluperfect")
    assert " ".join(cl.subordinate()) == "ich aufgestanden war"


def test_every_separable_prefix_is_last_and_joins_the_verb_at_the_end():
    rng = random.Random(5)
    checked = 0
    for v in VERBS:
        if not v.prefix:
            continue
        for key in ("I", "du", "he", "we", "ihr"):
            who = PERSONS[key]
            p = phrase(rng, v, who, hearer=who)
            cl = p.tense_clause(who, "present", False)
            assert cl.statement()[-1] == v.prefix, (v.key, cl.statement())
            assert cl.subordinate()[-1] == v.prefix + v.de[who.slot], (v.key, cl.subordinate())
            assert v.inf == v.prefix + v.de[3] and v.part.startswith(v.prefix), v.key
            checked += 1
    assert checked > 100


# Each English sentence below, if the grammar says it, must come out as one of these (read by hand).
HAND_WRITTEN = {
    "What's for dinner ?": {"Was gibt es zum Abendessen ?"},
    "What's for lunch today ?": {"Was gibt es heute zum Mittagessen ?"},
    "Which platform does the train to Cologne leave from ?": {"Von welchem Gleis fährt der Zug nach Köln ab ?"},
    "Do I have to change trains ?": {"Muss ich umsteigen ?"},
    "Can I pay by card ?": {"Kann ich mit Karte bezahlen ?"},
    "I'm just looking , thanks .": {"Ich schaue mich nur um , danke ."},
    "What day is it today ?": {"Welcher Tag ist heute ?"},
    "When were you born ?": {"Wann bist du geboren ?"},
    "What do you like doing best ?": {"Was machst du am liebsten ?"},
    "Is the milk in the fridge ?": {"Ist die Milch im Kühlschrank ?"},
    "Where is the milk ?": {"Wo ist die Milch ?"},
    "Where did you put the milk ?": {"Wohin hast du die Milch gestellt ?"},
    "Where should I put the plates ?": {"Wohin soll ich die Teller stellen ?"},
    "Put the milk in the fridge !": {"Stell die Milch in den Kühlschrank !"},
    "The milk is in the fridge .": {"Die Milch ist im Kühlschrank .", "Die Milch steht im Kühlschrank ."},
    "Do you like swimming ?": {"Schwimmst du gern ?"},
    "We like swimming .": {"Wir schwimmen gern ."},
    "She likes reading .": {"Sie liest gern ."},
    "I'd rather stay at home .": {"Ich bleibe lieber zu Hause ."},
    "I prefer tea to coffee .": {"Ich trinke lieber Tee als Kaffee ."},
    "I am cold .": {"Mir ist kalt ."},
    "Were you cold ?": {"War dir kalt ?"},
    "Are you cold ?": {"Ist dir kalt ?"},
    "I feel dizzy .": {"Mir ist schwindlig ."},
    "Did you like the film ?": {"Hat dir der Film gefallen ?"},
    "Did you enjoy the soup ?": {"Hat dir die Suppe geschmeckt ?"},
    "Does your back hurt ?": {"Tut dir der Rücken weh ?"},
    "My head hurts .": {"Mir tut der Kopf weh .", "Mein Kopf tut weh ."},
    "My feet hurt .": {"Mir tun die Füße weh .", "Meine Füße tun weh ."},
    "How long does the film last ?": {"Wie lange dauert der Film ?"},
    "The film lasts two hours .": {"Der Film dauert zwei Stunden ."},
    "He has a headache .": {"Er hat Kopfschmerzen ."},
    "Do you have a headache ?": {"Hast du Kopfschmerzen ?"},
    "Today is Monday .": {"Heute ist Montag ."},
    "The shop is closed on Sundays .": {"Das Geschäft ist sonntags geschlossen ."},
    "How much are these eggs ?": {"Wie viel kosten diese Eier ?"},
    "Can I try on this jacket ?": {"Kann ich diese Jacke anprobieren ?"},
    "Be careful , children !": {"Seid vorsichtig , Kinder !"},
    "Children , don't be afraid !": {"Kinder , habt keine Angst !"},
    "Is there any milk left ?": {"Gibt es noch Milch ?"},
    "The train is late .": {"Der Zug hat Verspätung ."},
    "I don't know where the toilets are .": {"Ich weiß nicht , wo die Toiletten sind ."},
    "Can I stay up late ?": {"Darf ich lange aufbleiben ?"},
    "May I open the window ?": {"Darf ich das Fenster aufmachen ?"},
    "Can I have the bill , please ?": {"Kann ich bitte die Rechnung haben ?"},
    "I'd like a coffee , please .": {"Ich möchte bitte einen Kaffee ."},
    "Would you like a cup of tea ?": {"Möchtest du eine Tasse Tee ?"},
    "Sit down , please !": {"Setz dich bitte !"},
    "Anna , hurry up !": {"Anna , beeil dich !"},
    "Come in , Mr Weber !": {"Kommen Sie herein , Herr Weber !"},
    "We're going to the gym although it's raining .": {"Wir gehen ins Fitnessstudio , obwohl es regnet ."},
    "I'm looking forward to the weekend .": {"Ich freue mich auf das Wochenende ."},
    "How are you feeling ?": {"Wie fühlst du dich ?"},
    "Where are my keys ?": {"Wo sind meine Schlüssel ?"},
    "Where does it hurt ?": {"Wo tut es weh ?"},
}


@pytest.fixture(scope="module")
def said():
    return {ex.src: ex.tgt for seed in (0, 1) for ex in daily_life.generate(30000, seed=seed)}


def test_hand_written_sentences_are_said_exactly(said):
    found = {en: said[en] for en in HAND_WRITTEN if en in said}
    assert {en: de for en, de in found.items() if de not in HAND_WRITTEN[en]} == {}
    assert len(found) >= 35, sorted(set(HAND_WRITTEN) - set(found))


def _without_vocative(de: str) -> list[str]:
    words = de.split()[:-1]
    if words[:1] in (["Herr"], ["Frau"]):
        words = words[3:]
    if len(words) > 2 and words[-2] in ("Herr", "Frau"):
        words = words[:-3]
    return words


def test_sie_follows_its_verb_and_a_sentence_keeps_to_du_or_sie(sample):
    du_words = {"du", "dich", "dir", "dein", "deine", "deinen", "deinem", "deiner", "deines"}
    checked = 0
    for ex in sample:
        de, en = ex.tgt.split(), ex.src.split()
        formal = "Herr" in de or "Frau" in de
        assert formal == ("Mr" in en or "Mrs" in en), ex
        if formal:
            assert not du_words & {w.lower() for w in de}, ex
            if ex.meta["frame"] == "imperative":
                words = _without_vocative(ex.tgt)
                assert words[1] == "Sie", ex
                checked += 1
        if set(de) & {"Kinder", "Leute"} and ex.meta["frame"] == "imperative":
            assert not du_words & {w.lower() for w in de} and "Sie" not in de, ex
        if du_words & set(de):
            assert not {"Ihnen", "Ihr", "Ihre", "Ihren", "Ihrem", "Ihrer"} & set(de[1:]), ex
    assert checked > 50


def _finite_forms() -> set[str]:
    out = set(HAVE + BE + HAD + WAS) | {f for forms in MODALS.values() for f in forms}
    for v in VERBS:
        out |= set(v.de) | {v.prefix + f for f in v.de}
    out |= set(daily_life_clauses.KAM + daily_life_clauses.WACHTE + daily_life_clauses.STAND)
    out |= {"an" + f for f in daily_life_clauses.KAM} | {"auf" + f for f in daily_life_clauses.WACHTE
                                                         + daily_life_clauses.STAND}
    # the verbs of the fixed "ob" and "wo" clauses, checked by hand
    return out | {"ist", "sind", "hat", "hält", "gibt", "brauchen", "dauert", "bedeutet", "öffnet", "abfährt",
                  "wohnt", "kommen", "wird", "regnet", "schneit", "war", "kostet"}


def test_the_verb_is_last_after_bevor_nachdem_als_ob_obwohl_and_question_words(sample):
    finite = _finite_forms()
    conj = {"bevor", "nachdem", "als", "ob", "obwohl", "wann", "warum", "wo", "wie"}
    checked = 0
    for ex in sample:
        if ex.meta["frame"] != "clause":
            continue
        parts = " ".join(ex.tgt.split()[:-1]).split(" , ")
        for part in parts:
            words = part.split()
            if words and words[0].lower() in conj:
                assert words[-1] in finite, ex.tgt
                checked += 1
    assert checked > 300


SEIN_VERBS = {"ride", "drive", "walk", "fly", "arrive", "leave", "change", "get_on", "get_off", "come_back", "move",
              "go", "wake", "fall_asleep", "get_up", "leave_house", "be_late"}


def test_motion_verbs_take_sein_and_the_rest_haben(sample):
    assert {v.key for v in VERBS if v.aux == "sein"} == SEIN_VERBS
    both = {v.part for v in VERBS if v.aux == "sein"} & {v.part for v in VERBS if v.aux == "haben"}
    sein_parts = {v.part for v in VERBS if v.aux == "sein"} - both  # "umgezogen": moved, got changed
    haben_parts = {v.part for v in VERBS if v.aux == "haben"} - both
    present = {f for v in VERBS for f in v.de}  # "beeilt" is a participle and a present form
    checked = 0
    for ex in sample:
        if ex.meta["frame"] not in ("perfect", "reflexive"):
            continue
        words = [w.lower() for w in ex.tgt.split()]
        last = words[-2]  # a main clause in the perfect ends with its participle
        if last in sein_parts:
            assert set(words) & set(BE) and not set(words) & set(HAVE), ex.tgt
            checked += 1
        elif last in haben_parts and last not in present:
            assert set(words) & set(HAVE) and not set(words) & set(BE), ex.tgt
    assert checked > 100


def test_every_noun_and_verb_is_spelled_out():
    plural_only = {"homework", "hair", "pasta", "holidays", "parents", "grandparents"}
    for n in NOUNS.values():
        assert n.gender in ("m", "f", "n") and n.de_pl and n.en_pl and n.kind == "count", n
        assert n.de[0].isupper() and n.de_pl[0].isupper(), n
    for n in MASS.values():
        assert not n.de_pl and (n.gender in ("m", "f", "n") or n.key in plural_only), n
    assert {n.key for n in MASS.values() if n.gender == "pl"} == plural_only
    for v in VERBS:
        assert len(v.en) == 5 and len(v.de) == 5 and v.aux in ("haben", "sein"), v.key
        ich, du, er, wir, ihr = v.de
        assert du.endswith("st") or (du.endswith("t") and ich[:-1].endswith(("s", "ß", "z"))), v.key
        assert er.endswith("t") and ihr.endswith("t") and wir.endswith("n"), v.key
        assert v.inf == v.prefix + wir and v.part.startswith(v.prefix), v.key
        for o in v.objects:
            assert o == "P" or o.rstrip("+") in ALL, (v.key, o)
            if o.endswith("+"):
                assert ALL[o[:-1]].de_pl, (v.key, o)
    assert NOUNS["neighbour"].de_form("acc") == "Nachbarn" and NOUNS["child"].de_form("dat", True) == "Kindern"
    assert NOUNS["photo"].de_form("dat", True) == "Fotos" and NOUNS["shoe"].de_form("dat", True) == "Schuhen"


def test_english_says_most_negatives_contracted(sample):
    short = sum(len(re.findall(r"n't\b", ex.src)) for ex in sample)
    full = sum(len(re.findall(r"\b(do|does|did|is|are|was|were|have|has|must) not\b", ex.src)) for ex in sample)
    assert short > 300 and 0.6 < short / (short + full) < 0.95, (short, full)


def test_what_a_reviewer_found_odd_stays_out(sample):
    """A bilingual review found these slips, since fixed: "Can I have please the key ?", "Shall I
    pick up them ?", "Why did not she ...", "Work at a bank now , guys !", "Our ear hurts .", a
    missing "Sorgen", "My grandpa went to school by car", "There are three garages in my house"."""
    for ex in sample:
        assert not re.search(r"\b(have|like) please\b", ex.src), ex.src
        assert not re.search(r"\bpick up (me|him|her|us|them)\b", ex.src), ex.src
        assert not re.search(r"\b(did|do|does) not (I|you|he|she|we|they)\b", ex.src), ex.src
        if ex.meta["frame"] == "imperative":
            assert not ex.src.split()[0] in ("Work",) and "go out" not in ex.src, ex.src
        assert not re.match(r"(Our|Their) \w+ hurts", ex.src), ex.src
        if "machen" in ex.tgt or "mach" in ex.tgt.lower().split():
            assert not ("um" in ex.tgt.split() and "Sorgen" not in ex.tgt and "worry" in ex.src), ex
        if re.search(r"\b(grandpa|grandma|grandparents|parents|mother|father)\b", ex.src.split(" ")[1] if
                     len(ex.src.split()) > 1 else ""):
            assert "to school" not in ex.src, ex.src
        if ex.meta["frame"] == "there_is" and ex.src.startswith("There are"):
            assert not re.search(r"\b(garages|cellars|gardens|balconies|lakes)\b", ex.src), ex.src


EACH = "phone|blouse|shirt|dress|jacket|coat|essay|ticket|umbrella|bag|wallet|bike|key|pen|desk|hat|scarf|sweater"
CARE = r"brush your teeth|get dressed|have breakfast|wash your|comb your|have a shower|get up|get changed"


def test_what_a_second_review_found_odd_stays_out(said):
    """A second review found these: "There is a garden in your house", "I've played the guitar
    since Saturday", "Do I always open the door ?", "We usually wash our hair", "The nice doctor
    is very friendly", "We ironed our blouse", "Kids , hand in your essay !", "I remembered my
    grandma last night", "We will look forward to the holidays next week", "They wash their
    hands once a month", "My daughter often misses the flight", "Mrs Wolf , have breakfast !"."""
    routine = re.compile(r"\b(usually|always|often|sometimes) (wash(es)? \w+ (hair|hands|face)|gets? dressed|wakes? up|"
                         r"gets? up|brush(es)? \w+ teeth|comb(s)? \w+ hair|ha(ve|s) (a shower|breakfast|dinner|lunch))$")
    checked = 0
    for en, de in said.items():
        assert not re.search(r"^(Is there|There) .*\b(garden|garage|balcony) in ", en), en
        assert not re.search(r"'ve (played|learned|waited)|ha(ve|s) (played|learned|waited) .* (for|since)\b", en), en
        assert not re.match(r"(Do|Does) (I|we) (always|often|sometimes|usually)\b", en), en
        assert not routine.search(en[:-2]), en
        assert not re.search(r"\b(nice|friendly) \w+ (is|are) (very|really) (nice|friendly)\b", en), en
        assert not re.search(rf"\b(our|their) ({EACH})\b", en), en
        assert not re.search(rf"^(Children|Kids|Guys) , .*\byour ({EACH})\b|\byour ({EACH})\b.*, (children|kids|guys) ", en), en
        assert not re.search(r"\bremembered\b|\bdidn't remember\b|\bdid not remember\b", en), en
        assert not re.search(r"\b(will|'ll|going to|won't) (worry|look forward|fall asleep|hurry)\b", en), en
        assert not re.search(r"\b(hands|face|hair|teeth) (once|twice) a (week|month)\b", en), en
        assert not re.search(r"(n't|\bnot) .*\bevery\b", en), (en, de)  # "nicht jeden Tag", never "jeden Tag nicht"
        assert "Flug fährt" not in de and not re.search(r"(Excuse me|Entschuldigung) .*my keys", en), (en, de)
        assert not re.search(r"\b(had|made|cooked) (dinner this morning|lunch (this morning|last night)|breakfast last night)\b", en), en
        assert not re.search(r"\b(often|always|sometimes|usually|never) miss(es)? (the|her|his|their|my|your|our) flight", en), en
        assert not re.search(r"\b(Mr|Mrs) \w+ , (please )?(" + CARE + ")|(" + CARE + r")\b.*, (Mr|Mrs) ", en), en
        assert not re.search(r"\b(could|can) you (please )?(" + CARE + r").*(Mr|Mrs)|(Mr|Mrs) \w+ , (could|can) you (please )?("
                             + CARE + ")", en), en
        checked += 1
    assert checked > 50000
    assert any(re.search(r"\b(our|their) (phones|blouses|essays|jackets|tickets|bikes)\b", en) for en in said)
    assert any(re.search(r"\b(has|have) (a|an|no) (big |small |beautiful )?(garden|balcony|garage)\b", en) for en in said)
    assert any(re.search(r"\bbeen (playing|learning)\b", en) for en in said)


@pytest.mark.skipif(find_ding() is None, reason="Ding not found ($ATTENTION_LAB_DING, ../shared/data/ding "
                    "or data/ding): the generator's genders are not checked against its marks")
def test_genders_agree_with_dings_marks():
    from helpers import check_genders_against_ding

    nouns = [n for n in itertools.chain(NOUNS.values(), MASS.values()) if n.gender != "pl"]
    check_genders_against_ding(nouns, find_ding(), 25)


def test_the_everyday_mix_takes_them_only_when_asked_and_holds_out_the_test_sets(tmp_path, monkeypatch):
    """life=N adds N sentences (all but the one a hand-written test set holds); life=0, the
    default, adds none and leaves the description as it was."""
    from helpers import everyday_dirs

    from recipes.everyday import mix
    from transformer.data import held_out_sets as hs

    assert mix.DEFAULTS["life"] == 0 and "life" in mix.OPTIONS
    pairs = [("A dog runs .", "Ein Hund rennt .")] * 3
    m, d = everyday_dirs(tmp_path, pairs, "Hund {m} :: dog\n")
    opts = dict(ding_dir=str(d), phrases=0, pronouns=0, textbook=0, daily=0, talk=0)
    plain, _, desc = mix.build(str(m), 0, **opts)
    assert not any(ex.meta.get("task") == "daily_life" for ex in plain) and "travel grammar" not in desc
    said = daily_life.generate(40, seed=0)
    test_set = tmp_path / "everyday_x_en_de.tsv"
    test_set.write_text(f"{said[7].src}\t{said[7].tgt}\n", encoding="utf-8")
    monkeypatch.setattr(hs, "EVERYDAY_FILES", (test_set,))
    mixed, _, desc = mix.build(str(m), 0, life=40, **opts)
    got = [ex for ex in mixed if ex.meta.get("task") == "daily_life"]
    assert len(got) == 39 and said[7].src not in {ex.src for ex in got}
    assert "39 home, work, shop, health and travel grammar sentences" in desc
    assert len(mixed) == len(plain) + 39
    # a test sentence one word longer than a generated one: that one is left out too (near_test)
    near = said[3].src.rstrip(" .?!") + " today ."
    test_set.write_text(f"{said[7].src}\t{said[7].tgt}\n{near}\tx .\n", encoding="utf-8")
    mixed, _, desc = mix.build(str(m), 0, life=40, **opts)
    got = {ex.src for ex in mixed if ex.meta.get("task") == "daily_life"}
    assert said[3].src not in got and said[7].src not in got and said[0].src in got
    assert f"{len(got)} home, work, shop, health and travel grammar sentences ({39 - len(got)} near a " \
           "test sentence left out)" in desc and len(got) <= 38
    with pytest.raises(ValueError, match="life"):
        mix.build(str(m), 0, life=-1, **opts)
