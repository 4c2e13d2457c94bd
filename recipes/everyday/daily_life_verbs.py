"""The verbs of recipes/everyday/daily_life.py, each with the objects it is said with.

A verb lists the nouns it takes by name ("water" takes plants and flowers, nothing else), so
no sentence waters a table. Every German form is written out: the five present forms (ich, du,
er, wir, ihr), the du-imperative, the participle and its auxiliary, a separable prefix, and
how the object is governed: a case, or a preposition with its case ("sich freuen auf" + acc).
The ihr-imperative is the ihr-form ("räumt auf"), the Sie-imperative the wir-form + "Sie".
The table itself is data/daily_life_verbs.tsv; this module reads it.
"""
from __future__ import annotations

from dataclasses import dataclass

from recipes.everyday.daily_life_lexicon import ALL
from recipes.everyday.tables import rows


@dataclass(frozen=True)
class Verb:
    key: str
    en: tuple[str, ...]  # base, 3rd singular, past, past participle, -ing; "be ..." is said
    #                      with am / is / are ("be late", "be interested in")
    de: tuple[str, ...]  # present ich, du, er, wir, ihr, without the separable prefix
    inf: str  # "aufräumen"
    part: str  # "aufgeräumt"
    aux: str  # "haben" | "sein"
    imp: str  # du-imperative without the prefix ("räum"); "" when nobody is told to
    prefix: str  # "auf"; "" when not separable
    objects: tuple[str, ...]  # noun names; "+" the plural ("plant+"); "P" a personal pronoun
    dets: tuple[str, ...]  # "the", "poss" (the subject's), "a" (or none for mass / plural),
    #                        "body" (English possessive, German article + dative reflexive)
    case: str  # "acc", "dat", or a preposition and its case: "auf+acc", "bei+dat"
    comps: tuple[tuple[str, str, str], ...]  # (English, German, "mid" | "post") after the object
    refl: str  # "" | "acc" ("sich beeilen") | "dat" ("sich die Hände waschen")
    recipient: str  # "" | "opt" | "req": a dative pronoun ("Schick mir die Datei")
    tmpl: str  # English word order: {V} verb, {R} " me", {O} object, {TO} " to me", {C} complement
    tags: frozenset[str]  # domain (home office school travel leisure self) and limits:
    #   dont: a negative imperative makes sense; past: only said of the past (hurt oneself);
    #   prog: English says the present with -ing ("I'm looking forward to"); noprog: never -ing;
    #   nopast: said in the present only ("He's interested in art");
#   noperf: no "have just / already / never" ("I haven't felt ill yet");
#   plural: a plural subject only ("we meet"); negonly: told only not to ("Don't forget ..."),
#   and planned only not to ("I won't forget"); noplan: a feeling or what just happens, never
#   planned ("We will look forward to ..."); care: the body's care, told to a child or friend

    @property
    def ihr_imp(self) -> str:
        return self.de[4]


def _comps(spec: str) -> tuple[tuple[str, str, str], ...]:
    """"to work:zur Arbeit, the table:^den Tisch": "^" puts the German before "nicht"."""
    out = []
    for item in spec.split(",") if spec else ():
        en, de = item.split(":")
        slot = "mid" if de.startswith("^") else "post"
        out.append((en.strip(), de.strip().lstrip("^"), slot))
    return tuple(out)


def _v(key: str, en: str, de: str, rest: str, objs: str = "", dets: str = "the poss",
       case: str = "acc", comps: str = "", refl: str = "", rec: str = "",
       tmpl: str = "{V}{R} {O} {C}", tags: str = "") -> Verb:
    inf, part, aux, imp, *prefix = rest.split()
    return Verb(key, tuple(en.split("|")), tuple(de.split()), inf, part, aux,
                "" if imp == "-" else imp, prefix[0] if prefix else "", tuple(objs.split()),
                tuple(dets.split()), case, _comps(comps), refl, rec, tmpl, frozenset(tags.split()))


# the table: data/daily_life_verbs.tsv, one verb a row in _v's terms (its header says what each
# column holds); the rows are grouped by domain: the home, work and school, people, travel, free
# time and the day, oneself (reflexive verbs)
VERBS = tuple(_v(**row) for row in rows("daily_life_verbs.tsv"))
BY_KEY = {v.key: v for v in VERBS}


def once(verb: Verb) -> bool:
    """Whether all VERB's objects are one-time events ("prepare for the exam"): never a habit."""
    return bool(verb.objects) and all(o != "P" and ALL[o.rstrip("+")].once for o in verb.objects)


def bare(verb: Verb) -> int | None:
    """The index of VERB's empty complement ("get up" without "early"), if it has one."""
    return next((i for i, c in enumerate(verb.comps) if c[:2] == ("", "")), None)


# -- what the frames of daily_life.py say each verb with --------------------------------------
# "never" said of these is odd: "I've never fed my dog", "She's never closed the window"
NOT_NEVER = ("feed", "walk_dog", "on", "off", "open", "close", "lock", "empty", "load", "put_away", "set", "clear",
             "save", "print", "water", "brush", "wash_part", "comb", "dress", "sit", "get_up", "shower",
             "have_breakfast", "have_dinner", "rest", "wake", "leave_house", "fall_asleep")
# states, said in the simple present with no time: "I don't understand the word ."
STATES = ("understand", "interested", "feel", "remember")
# a habit said only with how often ("She often misses the bus", "He always pays the bill"), not
# with a time: "They miss their train in the evening", "On Mondays my parents don't worry about ..."
BY_ADVERB = ("forget", "miss", "worry", "pay", "be_late")
# said with no day: "I sat down on the sixteenth of April", "We didn't understand the word two days ago"
MOMENTS = ("sit", "hurry", "understand")
# not said of a habit: "They apologise to their father every day"
NO_HABIT = ("move", "apologise", "hurt_self", "hurt_part", "break", "cold", "hurry", "sit", "give", "lend", "show",
            "give_back")
# where one goes every day, said of yesterday, not of a date: "We went into the garden on the ninth of April"
EVERYDAY_COMPS = ("into the garden", "to bed", "to the bakery", "to the supermarket")
# complements that say a one-time event, not said of a habit: "Do you often go to the party ?"
ONCE_COMPS = ("to the party", "from holiday")
