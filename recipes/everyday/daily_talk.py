"""What a class says besides statements: the way, what / who questions, numbers, clock times, ages
and comparisons, from the same hand-checked German grammar as recipes/everyday/daily.py.

daily.py says what people do ("Yesterday I called my mother ."). A class types as much of this:

* the way: "Where is the station ?" -> "Wo ist der Bahnhof ?", "How do I get to the post office ?"
  -> "Wie komme ich zur Post ?" (zum / zur by gender), "The bank is next to the bakery ." ->
  "Die Bank ist neben der Bäckerei ." (the dative after neben, gegenüber, hinter, vor);
* what / who questions, the object asked for and the verb second: "What did you buy yesterday ?"
  -> "Was hast du gestern gekauft ?", "Who are you waiting for ?" -> "Auf wen wartest du ?";
* numbers with plurals: "I have two brothers ." -> "Ich habe zwei Brüder .", "one" declined:
  "einen Bruder", and "How many ... ?" -> "Wie viele ... ?";
* clock times and ages: "It is half past six ." -> "Es ist halb sieben ." (German names the next
  hour), "The train leaves at eight ." -> "Der Zug fährt um acht ab .", "I am twelve years old ."
  -> "Ich bin zwölf Jahre alt .";
* comparisons: "My brother is older than me ." -> "Mein Bruder ist älter als ich ." (the
  nominative after "als"), "... isn't as ... as ..." -> "... ist nicht so ... wie ...".

The everyday mix takes these with ``--task-opt talk=N`` (recipes/everyday/mix.py), and drops
any sentence equal to one of the project's hand-written test sentences.
"""
from __future__ import annotations

import random

from recipes.everyday import daily, german
from recipes.everyday.daily import DEF, PRONOUNS, Subject, be_word, noun_phrase
from recipes.everyday.daily_lexicon import (BE, COMPARE, COMPARED_NOUNS, COMPARED_PEOPLE,
                                            COUNTED, DO, HAVE, NOUNS, NUMBERS, PLACES, SCHEDULE,
                                            TIMES, THAN_PRONOUNS, VERBS, WHERE_IS, WILL, Noun)
from transformer.data.example import Example

FRAMES = {"way": 0.22, "what": 0.24, "count": 0.2, "clock": 0.14, "compare": 0.2}
ZU = german.ZU  # zu + dative article
ONE = german.ONE_ACC  # "one" / "a" in the accusative
# where one says "I'm going to the X" with "zum / zur" (not "ins Kino", "in den Park")
GO_TO = ("station", "bank", "post office", "bakery", "market", "bus stop", "airport", "beach",
         "pharmacy", "supermarket")
# ask for the object with "what" (things) or "who" (persons): the German question word by case
WHO = {"acc": "wen", "dat": "wem", "auf": "auf wen", "mit": "mit wem"}
THE_PERSONS = ("teacher", "doctor", "boss")
AGED = ("sister", "brother", "son", "daughter", "friend")  # "your son is nine years old"
NOT_BESIDE = ("airport", "beach", "toilet")  # not "next to the library", "behind the toilet"
# what one asks about only afterwards ("What did you lose ?", never "What will you lose ?"), and
# what nobody asks as "What do you open ?"
PAST_ONLY = ("find", "lose", "forget")
NOT_ASKED = ("open", "close", "speak", "put on")  # "What do you put on on Sundays ?"
RECENT = (("yesterday", "gestern"), ("last night", "gestern Abend"), ("this morning", "heute Morgen"),
          ("on Saturday", "am Samstag"), ("two days ago", "vor zwei Tagen"),
          ("last week", "letzte Woche"))
OWNERS = ("my", "your", "his", "her", "our")
PEOPLE_OWNERS = ("my", "your", "his", "her")  # not "our sister"
OBJECT_FORM = {"I": "me", "you": "you", "he": "him", "she": "her", "we": "us", "they": "them"}


def _example(en: list[str], de: list[str], end: str, frame: str) -> Example:
    return daily.example(en, de, end, frame, task="daily_talk")


def _subject(rng: random.Random) -> Subject:
    en, de, slot, agree = rng.choice(PRONOUNS)
    return Subject(en, de, slot, agree)


def _person(rng: random.Random, case: str = "nom", only: tuple[str, ...] = (),
            dets: tuple[str, ...] = PEOPLE_OWNERS) -> tuple[Subject, Noun]:
    """"my brother" as a subject (or in CASE); ONLY: these nouns; DETS: the possessives."""
    noun = rng.choice([n for n in NOUNS["person"] if n.en not in ("wife", "husband")
                       and (not only or n.en in only)])
    det = "the" if noun.en in THE_PERSONS and rng.random() < 0.5 else rng.choice(dets)
    en, de = noun_phrase(noun, det, case)
    plural = noun.gender == "pl"
    return Subject(en, de, 3 if plural else 2, "pl" if plural else "3s", noun.en), noun


# -- the way ----------------------------------------------------------------------------------
def _way(rng: random.Random) -> Example:
    place = rng.choice(PLACES)
    g = place.gender
    kind = rng.choice(("where", "where", "get", "near", "is", "is", "look", "go"))
    if kind == "where":
        en, de = ["where is the", place.en], ["wo ist", DEF["nom"][g], place.de]
        if rng.random() < 0.3:
            en = ["excuse me , where is the", place.en]
            de = ["Entschuldigung , wo ist", DEF["nom"][g], place.de]
        return _example(en, de, "?", "way")
    if kind == "get":
        who_en, who_de, verb = rng.choice((("I", "ich", "komme"), ("we", "wir", "kommen")))
        return _example(["how do", who_en, "get to the", place.en],
                        ["wie", verb, who_de, ZU[g], place.de], "?", "way")
    if kind == "near":
        return _example([f"is there {'an' if place.en[0] in 'aeiou' else 'a'}", place.en, "near here"],
                        ["gibt es hier in der Nähe", ONE[g], place.de], "?", "way")
    if kind == "look":
        subj = _subject(rng)
        en_verb = {"I": "am looking for", "3s": "is looking for", "pl": "are looking for"}[subj.agree]
        de_verb = ("suche", "suchst", "sucht", "suchen")[subj.slot]
        return _example([subj.en, en_verb, "the", place.en],
                        [subj.de, de_verb, DEF["acc"][g], place.de], ".", "way")
    if kind == "go":
        place = rng.choice([p for p in PLACES if p.en in GO_TO])
        g = place.gender
        subj = _subject(rng)
        if rng.random() < 0.5:  # "I'm going to the bank ." -> "Ich gehe zur Bank ."
            en_verb = {"I": "am going", "3s": "is going", "pl": "are going"}[subj.agree]
            de = [subj.de, ("gehe", "gehst", "geht", "gehen")[subj.slot], ZU[g], place.de]
            return _example([subj.en, en_verb, "to the", place.en], de, ".", "way")
        time_en, time_de = rng.choice(TIMES["past"])  # "Gestern bin ich zur Bank gegangen ."
        de = [subj.de, BE[subj.slot], time_de, ZU[g], place.de, "gegangen"]
        return _example([subj.en, "went to the", place.en, time_en], de, ".", "way")
    where_en, where_de = rng.choice(WHERE_IS)
    if "{P}" in where_en and place.en in NOT_BESIDE:
        where_en, where_de = WHERE_IS[1]  # "The airport is near here ."
    if "{P}" in where_en:
        other = rng.choice([p for p in PLACES if p.en != place.en and p.en not in NOT_BESIDE])
        where_en = where_en.replace("{P}", other.en)
        where_de = where_de.replace("{D}", f"{DEF['dat'][other.gender]} {other.de}")
    return _example(["the", place.en, "is", where_en], [DEF["nom"][g], place.de, "ist", where_de], ".", "way")


# -- what / who questions ----------------------------------------------------------------------
def _what(rng: random.Random) -> Example:
    """"What did you buy yesterday ?" -> "Was hast du gestern gekauft ?": the object asked for,
    so the clause is the verb, the subject, the time and the verb's last part. A progressive
    without "now" is German's plain present ("What are you reading ?" -> "Was liest du ?")."""
    subj = _subject(rng)
    while subj.en == "I":  # "What do I find ?": one asks others
        subj = _subject(rng)
    tense = rng.choice(("present", "past", "past", "future", "progressive"))
    if rng.random() < 0.2:  # "What are you doing ?" -> "Was machst du ?"
        en_forms, de_forms, (inf, part) = DO[0].split("|"), DO[1].split(), DO[2].split()
        prefix, aux_de, case, wh_en, wh_de = "", "haben", "acc", "what", "was"
    else:
        verb = rng.choice([v for v in VERBS if v.objects and not (v.stative and tense == "progressive")
                           and v.en[0] not in ("like", "need", "have", *NOT_ASKED)
                           and (tense == "past" or v.en[0] not in PAST_ONLY)])
        en_forms, de_forms, inf, part = list(verb.en), list(verb.de), verb.infinitive, verb.participle
        prefix, aux_de, case = verb.prefix, verb.aux, verb.case
        wh_en, wh_de = ("who", WHO[case]) if verb.objects == ("person",) else ("what", "was")
    times = {"present": TIMES["present"], "past": RECENT, "future": TIMES["future"],
             "progressive": TIMES["now"]}[tense]
    time_en, time_de = rng.choice(times) if rng.random() < 0.5 else ("", "")
    base = en_forms[0]
    if tense == "present":
        do = "does" if subj.agree == "3s" else "do"
        en = [wh_en, do, subj.en, base]
        de = [wh_de, de_forms[subj.slot], subj.de, time_de, prefix]
    elif tense == "past":
        en = [wh_en, "did", subj.en, base]
        aux = HAVE if aux_de == "haben" else BE
        de = [wh_de, aux[subj.slot], subj.de, time_de, part]
    elif tense == "future":
        en = [wh_en, "will", subj.en, base]
        de = [wh_de, WILL[subj.slot], subj.de, time_de, inf]
    else:
        en = [wh_en, be_word(subj), subj.en, en_forms[3]]
        de = [wh_de, de_forms[subj.slot], subj.de, time_de, prefix]
    return _example([*en, time_en], de, "?", "what")


# -- numbers and ages --------------------------------------------------------------------------
def _count(rng: random.Random) -> Example:
    """Numbers, plurals and ages. What one tells "you" about "you" is asked instead: "Do you have
    two brothers ?" -> "Hast du zwei Brüder ?"."""
    kind = rng.choice(("have", "have", "need", "bought", "how_many", "age", "age"))
    if kind == "age":
        n_en, n_de = rng.choice(NUMBERS)
        if rng.random() < 0.4:  # "How old is your sister ?" -> "Wie alt ist deine Schwester ?"
            if rng.random() < 0.5:
                subj = _subject(rng)
                while subj.en in ("I", "we"):
                    subj = _subject(rng)
            else:
                subj, _ = _person(rng, only=AGED, dets=("your", "his", "her"))
            return _example(["how old", be_word(subj), subj.en], ["wie alt", BE[subj.slot], subj.de],
                            "?", "count")
        subj = _subject(rng) if rng.random() < 0.5 else _person(rng, only=AGED)[0]
        if subj.en == "you":
            return _example(["are you", n_en, "years old"], ["bist du", n_de, "Jahre alt"], "?",
                            "count")
        return _example([subj.en, be_word(subj), n_en, "years old"],
                        [subj.de, BE[subj.slot], n_de, "Jahre alt"], ".", "count")
    group = rng.choice(("family", "pets") if kind in ("have", "how_many") else ("shopping",))
    en_one, en_many, de_one, de_many, g = rng.choice(COUNTED[group])
    subj = _subject(rng)
    if kind == "how_many":
        do = "does" if subj.agree == "3s" else "do"
        return _example(["how many", en_many, do, subj.en, "have"],
                        ["wie viele", de_many, HAVE[subj.slot], subj.de], "?", "count")
    numbers = NUMBERS if group == "shopping" else NUMBERS[:3]  # two to four brothers
    if rng.random() < 0.25:  # "einen Bruder": "one brother", or "a pen" when shopping
        n_en = "one" if group != "shopping" else "an" if en_one[0] in "aeiou" else "a"
        n_de, en_noun, de_noun = ONE[g], en_one, de_one
    else:
        (n_en, n_de), en_noun, de_noun = rng.choice(numbers), en_many, de_many
    ask = subj.en == "you"
    if kind == "bought":
        time_en, time_de = rng.choice(RECENT)
        if ask:  # "Did you buy three apples yesterday ?" -> "Hast du gestern drei Äpfel gekauft ?"
            return _example(["did you buy", n_en, en_noun, time_en],
                            ["hast du", time_de, n_de, de_noun, "gekauft"], "?", "count")
        return _example([subj.en, "bought", n_en, en_noun, time_en],
                        [subj.de, HAVE[subj.slot], time_de, n_de, de_noun, "gekauft"], ".", "count")
    en_verb, de_verb = ("have", HAVE) if kind == "have" else \
        ("need", ("brauche", "brauchst", "braucht", "brauchen"))
    if ask:  # "Do you need six eggs ?" -> "Brauchst du sechs Eier ?"
        return _example(["do you", en_verb, n_en, en_noun], [de_verb[1], "du", n_de, de_noun], "?",
                        "count")
    en_verb = {"have": "has", "need": "needs"}[en_verb] if subj.agree == "3s" else en_verb
    return _example([subj.en, en_verb, n_en, en_noun], [subj.de, de_verb[subj.slot], n_de, de_noun],
                    ".", "count")


# -- clock times -------------------------------------------------------------------------------
def _hour(rng: random.Random) -> tuple[str, str, str]:
    """(English hour, German hour, German next hour), 2-11: "half past six" is "halb sieben"."""
    i = rng.randrange(len(NUMBERS) - 1)
    return NUMBERS[i][0], NUMBERS[i][1], NUMBERS[i + 1][1]


def _clock(rng: random.Random) -> Example:
    kind = rng.choice(("what_time", "it_is", "it_is", "schedule", "schedule", "when"))
    if kind == "what_time":
        return _example(["what time is it"], ["wie spät ist es"], "?", "clock")
    h_en, h_de, next_de = _hour(rng)
    en_time, de_time = rng.choice(((f"{h_en} o'clock", f"{h_de} Uhr"), (h_en, h_de),
                                   (f"half past {h_en}", f"halb {next_de}"),
                                   (f"quarter past {h_en}", f"Viertel nach {h_de}"),
                                   (f"quarter to {h_en}", f"Viertel vor {h_de}")))
    if kind == "it_is":
        return _example(["it is", en_time], ["es ist", de_time], ".", "clock")
    subj_en, verb_en, base_en, subj_de, verb_de, prefix = rng.choice(SCHEDULE)
    if kind == "when":  # "When does the train leave ?" -> "Wann fährt der Zug ab ?"
        wh_en, wh_de = rng.choice((("when", "wann"), ("what time", "um wie viel Uhr")))
        return _example([wh_en, "does", subj_en, base_en], [wh_de, verb_de, subj_de, prefix], "?",
                        "clock")
    return _example([subj_en, verb_en, "at", en_time], [subj_de, verb_de, "um", de_time, prefix],
                    ".", "clock")


# -- comparisons -------------------------------------------------------------------------------
def _compare(rng: random.Random) -> Example:
    """People within one generation ("My brother is older than me ."), things with the same kind
    of thing of another owner ("My phone is newer than your phone .")."""
    cls = rng.choice(("person", "person", "food", "things", "reading", "room"))
    comp_en, comp_de, pos_de, pos_en = rng.choice(COMPARE[cls])
    if cls == "person":
        peers = rng.choice(COMPARED_PEOPLE)
        if rng.random() < 0.4:  # "I am taller than my sister": a pronoun among siblings and friends
            peers = COMPARED_PEOPLE[0]
            subj = _subject(rng)
        else:
            subj, _ = _person(rng, only=peers)
        if rng.random() < 0.35:  # "than me" -> "als ich"; never "I am older than me"
            other_en, other_de = rng.choice([t for t in THAN_PRONOUNS
                                             if t[0] != OBJECT_FORM.get(subj.en)])
        else:
            other, _ = _person(rng, only=peers)
            while other.en == subj.en:
                other, _ = _person(rng, only=peers)
            other_en, other_de = other.en, other.de
    else:
        name = rng.choice(COMPARED_NOUNS[cls])
        noun = next(n for n in NOUNS[cls] if n.en == name)
        own_a, own_b = rng.sample(OWNERS, 2)
        while {own_a, own_b} == {"my", "our"}:  # "my computer" is "our computer" too
            own_a, own_b = rng.sample(OWNERS, 2)
        en_a, de_a = noun_phrase(noun, own_a, "nom")
        other_en, other_de = noun_phrase(noun, own_b, "nom")
        plural = noun.gender == "pl"
        subj = Subject(en_a, de_a, 3 if plural else 2, "pl" if plural else "3s", noun.en)
    be_en, be_de = be_word(subj), BE[subj.slot]
    if rng.random() < 0.2:  # "Tom is as tall as Anna ." / "isn't as tall as"
        neg = rng.random() < 0.5
        en_be = f"{be_en} not" if neg and be_en == "am" else (be_en + "n't" if neg else be_en)
        return _example([subj.en, en_be, "as", pos_en, "as", other_en],
                        [subj.de, be_de, *(["nicht"] if neg else []), "so", pos_de, "wie", other_de],
                        ".", "compare")
    if rng.random() < 0.15:  # "Is your room bigger than my room ?"
        return _example([be_en, subj.en, comp_en, "than", other_en],
                        [be_de, subj.de, comp_de, "als", other_de], "?", "compare")
    return _example([subj.en, be_en, comp_en, "than", other_en],
                    [subj.de, be_de, comp_de, "als", other_de], ".", "compare")


MAKERS = {"way": _way, "what": _what, "count": _count, "clock": _clock, "compare": _compare}


def generate(n: int, seed: int = 0) -> list[Example]:
    """N distinct sentence pairs (fewer if the grammar runs out), in a seeded order. No frame
    takes more than 1.5 times its share: comparisons have far more distinct sentences than clock
    times, and would otherwise fill the rest."""
    return daily.draw(MAKERS, FRAMES, n, random.Random(f"daily_talk:{seed}"), cap=1.5)
