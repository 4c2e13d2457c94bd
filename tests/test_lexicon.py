"""recipes.everyday.lexicon: Ding's everyday nouns said in frames, on small hand-written entries."""
from __future__ import annotations

import pytest

from recipes.everyday import lexicon, lexicon_pronouns

from recipes.everyday import mix
from transformer.data import ding
from transformer.data.example import Example

from helpers import everyday_dirs

ENTRIES_TEXT = """\
Keil {m} (Verbindungselement) [techn.] :: key
Schlüssel {m} | Schlüssel {pl} :: key | keys
Fahrkarte {f}; Fahrschein {m} [Dt.] [Ös.]; Billett {n} [Schw.] :: ticket; fare
Strafmandat {n} :: ticket
Rücken {m} [anat.] :: back
Rücken {n} (das Verschieben) :: back
Junge {m} | Jungen {pl} :: boy | boys
Weiß {n} :: white
Telefon {n} :: phone
Vorsitzender {m} :: chairman
"""
PARALLEL = [
    ("The key is here .", "Der Schlüssel ist hier ."),
    ("I have the key .", "Ich habe den Schlüssel ."),
    ("Where is my key ?", "Wo ist mein Schlüssel ?"),
    ("A ticket , please .", "Eine Fahrkarte , bitte ."),
    ("The ticket is new .", "Die Fahrkarte ist neu ."),
    ("I lost my ticket .", "Ich habe meine Fahrkarte verloren ."),
    ("My back hurts .", "Mein Rücken tut weh ."),
    ("He hurt his back .", "Er hat sich den Rücken verletzt ."),
    ("The back is wet .", "Der Rücken ist nass ."),
    ("The boy runs .", "Der Junge rennt ."),
    ("A boy sings .", "Ein Junge singt ."),
    ("The boy laughs .", "Der Junge lacht ."),
    ("A white dog .", "Ein weißer Hund ."),
    ("The white cat .", "Die weiße Katze ."),
    ("A white car .", "Ein weißes Auto ."),
    ("Snow is white .", "Schnee ist weiß ."),
    ("A white wall .", "Eine weiße Wand ."),
    ("The phone rings .", "Das Telefon klingelt ."),
    ("My phone is old .", "Mein Telefon ist alt ."),
    ("Where is the phone ?", "Wo ist das Telefon ?"),
    ("The chairman speaks .", "Der Vorsitzender spricht ."),
    ("The chairman sits .", "Der Vorsitzender sitzt ."),
    ("A chairman votes .", "Ein Vorsitzender stimmt ."),
]


@pytest.fixture
def lex(tmp_path):
    (tmp_path / "de-en.txt").write_text(ENTRIES_TEXT, encoding="utf-8")
    entries = ding.read_entries(tmp_path)
    return {n.en: n for n in lexicon.nouns(entries, [Example(e, d) for e, d in PARALLEL])}


def test_the_sense_the_parallel_text_shares_is_chosen(lex):
    assert (lex["key"].de, lex["key"].gender) == ("Schlüssel", "m")     # not the wedge "Keil"
    assert (lex["ticket"].de, lex["ticket"].gender) == ("Fahrkarte", "f")  # not "Strafmandat"
    assert lex["key"].together == 3


def test_a_noun_marked_with_two_genders_takes_the_one_its_articles_show(lex):
    assert (lex["back"].de, lex["back"].gender) == ("Rücken", "m")  # "den Rücken"


def test_words_that_are_not_nouns_and_adjectival_nouns_are_left_out(lex):
    assert "white" not in lex      # "weiß" is written in lower case in the German text
    assert "chairman" not in lex   # "Vorsitzender" declines like an adjective


def test_articles_follow_gender_and_case():
    key = lexicon.Noun("key", "Schlüssel", "m", 3)
    ticket = lexicon.Noun("ticket", "Fahrkarte", "f", 3)
    phone = lexicon.Noun("phone", "Telefon", "n", 3)
    frames = {f[0]: f for f in lexicon.FRAMES}
    where, need, mine = (frames["Where is the {n} ?"], frames["I need {a} {n} ."],
                         frames["I can't find my {n} ."])
    assert lexicon.say(key, where).tgt == "Wo ist der Schlüssel ?"
    assert lexicon.say(ticket, where).tgt == "Wo ist die Fahrkarte ?"
    assert lexicon.say(phone, need).tgt == "Ich brauche ein Telefon ."
    assert lexicon.say(key, need).tgt == "Ich brauche einen Schlüssel ."
    assert lexicon.say(key, mine).tgt == "Ich finde meinen Schlüssel nicht ."
    assert lexicon.say(key, frames["Something is wrong with the {n} ."]).tgt == \
        "Mit dem Schlüssel stimmt etwas nicht ."
    assert lexicon.say(key, frames["The {n} is here ."]).tgt == "Der Schlüssel ist hier ."
    umbrella = lexicon.Noun("umbrella", "Regenschirm", "m", 3)
    assert lexicon.say(umbrella, need).src == "I need an umbrella ."


def test_weak_masculine_nouns_are_said_in_the_nominative_only():
    boy = lexicon.Noun("boy", "Junge", "m", 3)
    student = lexicon.Noun("student", "Student", "m", 3)
    assert boy.weak and student.weak and not lexicon.Noun("key", "Schlüssel", "m", 3).weak
    for frame in lexicon.FRAMES:
        said = lexicon.say(boy, frame)
        assert (said is None) == (frame[2] != "nom")
    # and the frame sentences of a weak noun are all nominative
    out = lexicon.sentences([boy], 10, seed=0)
    assert out and all(ex.tgt.split()[0] in ("Wo", "Der", "Ist") for ex in out)


def test_every_frame_sentence_agrees_with_its_gender():
    """An independent check: the article before the noun belongs to the noun's gender in the
    frame's case, read from a plain table of German articles, not from lexicon's."""
    allowed = {"m": {"der", "den", "dem", "einen", "meinen", "keinen"},
               "f": {"die", "der", "eine", "meine", "keine"},
               "n": {"das", "dem", "ein", "mein", "kein"}}
    nouns = [lexicon.Noun("key", "Schlüssel", "m", 3), lexicon.Noun("ticket", "Fahrkarte", "f", 3),
             lexicon.Noun("phone", "Telefon", "n", 3)]
    out = lexicon.sentences(nouns, 60, seed=1)
    assert len(out) == 60
    for ex in out:
        noun = next(n for n in nouns if n.en == ex.meta["noun"])
        words = ex.tgt.split()
        article = words[words.index(noun.de) - 1].lower()
        assert article in allowed[noun.gender], ex.tgt
        assert noun.en in ex.src.split() and ex.src[0].isupper() and ex.tgt[0].isupper()


def test_the_everyday_mix_takes_frame_sentences_only_when_asked(tmp_path):
    m, d = everyday_dirs(tmp_path, PARALLEL, ENTRIES_TEXT)
    opts = dict(ding_dir=str(d), phrases=0, pronouns=0, textbook=0, daily=0, talk=0)
    plain, _, desc = mix.build(str(m), 0, **opts)
    assert not any(ex.meta.get("source") == "ding-lexicon" for ex in plain)
    assert "frame sentences" not in desc
    mixed, _, desc = mix.build(str(m), 0, lexicon=12, **opts)
    framed = [ex for ex in mixed if ex.meta.get("source") == "ding-lexicon"]
    assert len(framed) == 12 and "12 frame sentences of" in desc
    assert {ex.meta["noun"] for ex in framed} <= {"key", "ticket", "back", "boy", "phone"}
    with pytest.raises(ValueError, match="lexicon"):
        mix.build(str(m), 0, lexicon=-1, **opts)


SINGLE_SENSE_TEXT = """\
Igel {m} [zool.] | Igel {pl} :: hedgehog | hedgehogs
der Igel im Garten :: the hedgehog in the garden
ein Igel schläft :: a hedgehog sleeps
ein kleiner Igel :: a small hedgehog
Nadel {f} :: needle
Notversteifung {f} [constr.] :: needle
eine Nadel :: a needle
die Nadel :: the needle
Benzol {n} [chem.] :: benzene
das Benzol :: the benzene
im Benzol :: in the benzene
Segeln {n} :: sailing
das Segeln :: the sailing
beim Segeln :: in the sailing
Entfernung {f} :: remove
entfernen :: to remove
etw. entfernen :: to remove sth.
eine Entfernung :: a remove
Igelfisch {m} :: hedgehogs
Bund {m} :: collar
der Bund :: the collar
am Bund :: at the collar
"""


@pytest.fixture
def single(tmp_path, monkeypatch):
    (tmp_path / "de-en.txt").write_text(SINGLE_SENSE_TEXT, encoding="utf-8")
    monkeypatch.setattr(lexicon, "MIN_MENTIONS", 3)
    return ding.read_entries(tmp_path)


def test_single_sense_nouns_take_the_word_ding_gives_one_sense(single):
    got = {n.en: n for n in lexicon.single_sense_nouns(single)}
    assert (got["hedgehog"].de, got["hedgehog"].gender, got["hedgehog"].together) == ("Igel", "m", 0)
    assert (got["collar"].de, got["collar"].gender) == ("Bund", "m")
    assert "needle" not in got      # two senses: Nadel and the builder's Notversteifung
    assert "benzene" not in got     # a chemist's word
    assert "sailing" not in got     # an -ing form
    assert "remove" not in got      # after "to" more often than after a determiner: a verb
    assert "hedgehogs" not in got   # the plural of a headword
    # the co-occurrence lexicon's choice stands: a known word is not added twice
    assert "collar" not in {n.en for n in lexicon.single_sense_nouns(single, {"collar"})}


def test_single_sense_nouns_need_enough_mentions(single, monkeypatch):
    monkeypatch.setattr(lexicon, "MIN_MENTIONS", 4)   # hedgehog is in 4 entries, collar in 3
    assert [n.en for n in lexicon.single_sense_nouns(single)] == ["hedgehog"]


def test_the_everyday_mix_adds_single_sense_nouns_only_when_asked(tmp_path, monkeypatch):
    monkeypatch.setattr(lexicon, "MIN_MENTIONS", 2)
    m, d = everyday_dirs(tmp_path, PARALLEL, ENTRIES_TEXT + SINGLE_SENSE_TEXT)
    opts = dict(ding_dir=str(d), phrases=0, pronouns=0, textbook=0, daily=0, talk=0, lexicon=400)
    plain, _, desc = mix.build(str(m), 0, **opts)
    assert "one sense alone" not in desc
    said = {ex.meta["noun"] for ex in plain if ex.meta.get("source") == "ding-lexicon"}
    # Ding's phrases pair "hedgehog" with "Igel" 3 times: the co-occurrence lexicon has it;
    # "collar" and "Bund" only twice: it has not
    assert "hedgehog" in said and "collar" not in said
    wide, _, desc = mix.build(str(m), 0, wide_nouns=1, **opts)
    framed = [ex for ex in wide if ex.meta.get("source") == "ding-lexicon"]
    assert "(1 of one sense alone)" in desc
    assert "collar" in {ex.meta["noun"] for ex in framed}
    assert any(ex.tgt in ("Wo ist der Bund ?", "Der Bund ist hier .") for ex in framed)


def test_pronoun_frames_use_the_pronoun_of_the_nouns_gender_at_the_positions_they_name():
    """Independent of lexicon_pronouns' tables: German pronouns by gender, and the positions in
    the meta must point at "it", the English noun, the German pronoun and the German noun."""
    nominative = {"m": "er", "f": "sie", "n": "es"}
    accusative = {"m": "ihn", "f": "sie", "n": "es"}
    nouns = [lexicon.Noun("key", "Schlüssel", "m", 3), lexicon.Noun("ticket", "Fahrkarte", "f", 3),
             lexicon.Noun("phone", "Telefon", "n", 3)]
    out = lexicon_pronouns.sentences(nouns, 90, seed=2)
    assert len(out) == 90 and {ex.meta["noun"] for ex in out} == {"key", "ticket", "phone"}
    for ex in out:
        noun = next(n for n in nouns if n.en == ex.meta["noun"])
        src, tgt, m = ex.src.split(), ex.tgt.split(), ex.meta
        assert src[m["pronoun_pos"]] == "it" and src[m["antecedent_pos"]] == noun.en
        assert tgt[m["tgt_antecedent_pos"]] == noun.de
        assert tgt[m["tgt_pronoun_pos"]] in (nominative[noun.gender], accusative[noun.gender]), ex.tgt
        assert m["tgt_pronoun_pos"] > m["tgt_antecedent_pos"] and m["pronoun_pos"] > m["antecedent_pos"]
    hidden = [ex for ex in out if ex.src.startswith("Where is the key")]
    assert hidden and hidden[0].tgt == "Wo ist der Schlüssel ? Ich sehe ihn nicht ."


def test_pronoun_frames_leave_out_people_and_keep_a_weak_noun_in_the_nominative():
    known = {"Lehrer", "Lehrerin", "Kellnerin", "Kellner", "Hase", "Schlüssel"}
    teacher = lexicon.Noun("teacher", "Lehrer", "m", 3)
    waitress = lexicon.Noun("waitress", "Kellnerin", "f", 3)
    girl = lexicon.Noun("girl", "Mädchen", "n", 3)
    hare = lexicon.Noun("hare", "Hase", "m", 0)  # weak: "den Hasen"
    assert all(lexicon_pronouns.is_person(n, known) for n in (teacher, waitress, girl))
    assert not lexicon_pronouns.is_person(hare, known)
    out = lexicon_pronouns.sentences([teacher, waitress, girl, hare], 20, seed=0, known_german=known)
    assert len(out) == 20 and {ex.meta["noun"] for ex in out} == {"hare"}
    # the article of a weak noun is never declined past the nominative
    assert all(ex.tgt.split()[ex.meta["tgt_antecedent_pos"] - 1].lower() == "der" for ex in out)
    assert lexicon_pronouns.sentences([teacher], 5, seed=0, known_german=known) == []


def test_the_everyday_mix_says_the_lexicon_with_pronouns_only_when_asked(tmp_path):
    m, d = everyday_dirs(tmp_path, PARALLEL, ENTRIES_TEXT)
    opts = dict(ding_dir=str(d), phrases=0, pronouns=0, textbook=0, daily=0, talk=0)
    mixed, _, desc = mix.build(str(m), 0, lexicon_pronouns=10, **opts)
    said = [ex for ex in mixed if ex.meta.get("source") == "ding-lexicon-pronoun"]
    assert len(said) == 10 and "10 of them with a pronoun" in desc
    assert not any(ex.meta.get("source") == "ding-lexicon" for ex in mixed)
    assert {ex.meta["noun"] for ex in said} <= {"key", "ticket", "back", "phone"}
