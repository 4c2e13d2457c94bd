"""The nouns, adjectives, places and dates of recipes/everyday/daily_life.py, written by hand.

daily_lexicon.py's nouns carry one German form, enough for its sentences. These sentences also
count ("two bedrooms" -> "zwei Schlafzimmer"), say "seit drei Jahren" and decline adjectives,
so every noun here has its German plural spelled out, and the nouns that decline in the
singular ("den Nachbarn", "dem Kollegen") say so. tests/test_daily_life.py checks the genders
against Ding's marks when ../shared/data/ding is present. The tables are data files
(data/daily_life_nouns.tsv, daily_life_adjectives.tsv, daily_life_lexicon.json); this module reads them.
"""
from __future__ import annotations

from dataclasses import dataclass

from recipes.everyday.tables import module_tables, rows


@dataclass(frozen=True)
class Noun:
    key: str  # the English singular with "_" for a space: the name verbs and frames use
    en: str  # English singular (or the mass noun: "milk")
    en_pl: str  # English plural; "" for a mass noun
    de: str  # German singular (or the mass noun)
    de_pl: str  # German plural; "" for a mass noun
    gender: str  # "m" | "f" | "n"; "pl" only for an English mass noun that German says in the
    #            plural ("homework" -> "die Hausaufgaben")
    kind: str = "count"  # "count" | "mass"
    own: bool = False  # said with a possessive ("my bike"); the fridge is "the fridge"
    weak: str = ""  # the accusative / dative singular of a weak noun: "Nachbarn", "Kollegen"
    each: bool = False  # one each: several owners have several ("We ironed our blouses", not "our blouse")
    once: bool = False  # an event that happens once: not said of a habit ("She often misses the flight")

    def de_form(self, case: str, plural: bool = False) -> str:
        """The noun in CASE: the dative plural adds -n unless the plural ends in -n or -s
        ("den Kindern", "den Fotos"); a weak noun adds -n outside the nominative."""
        if plural or self.gender == "pl":
            base = self.de_pl or self.de
            if case == "dat" and not base.endswith(("n", "s")):
                return base + "n"
            return base
        if self.weak and case != "nom":
            return self.weak
        return self.de


def _nouns(spec: str, kind: str = "count") -> dict[str, Noun]:
    """"shelf|shelves Regal Regale n ~": English singular (|plural, else +s), German singular,
    German plural, gender; "~" marks a noun said with a possessive, "#" one everybody has one
    of (a phone, a jacket), "!" a one-time event (a flight, an exam); "=Nachbarn" a weak noun's
    form outside the nominative. Mass nouns: "milk Milch f"."""
    out = {}
    for item in spec.split(","):
        words = item.split()
        en = words[0].split("|")
        en_sg = en[0].replace("_", " ")
        if kind == "mass":
            de, g, flags = words[1], words[2], words[3:]
            noun = Noun(en[0], en_sg, "", de.replace("_", " "), "", g, "mass", "~" in flags)
        else:
            de, de_pl, g, flags = words[1], words[2], words[3], words[4:]
            en_pl = en[1] if len(en) > 1 else en_sg + "s"
            weak = next((f[1:] for f in flags if f.startswith("=")), "")
            noun = Noun(en[0], en_sg, en_pl.replace("_", " "), de, de_pl, g, "count", "~" in flags, weak,
                        "#" in flags, "!" in flags)
        out[en[0]] = noun
    return out


# the nouns: data/daily_life_nouns.tsv, one a row (its header says what each column holds): NOUNS
# the count nouns (the home, things one carries, school and work, shops, the body, people), MASS
# the mass nouns; a row is read as _nouns reads one item
NOUNS: dict[str, Noun] = {}
MASS: dict[str, Noun] = {}
for _r in rows("daily_life_nouns.tsv"):
    _item = " ".join(c for c in (_r["en"], _r["de"], _r["de_pl"], _r["gender"], _r["flags"]) if c)
    (MASS if _r["table"] == "MASS" else NOUNS).update(_nouns(_item, "mass" if _r["table"] == "MASS" else "count"))
del _r, _item

ALL = {**NOUNS, **MASS}

# The smaller tables are data/daily_life_lexicon.json, each this module's attribute of its name
# (tables.module_tables: `from recipes.everyday.daily_life_lexicon import DAYS` reads it):
# ADJ_FOR               which adjectives go with which nouns, attributively ("a red dress", "in a
#                       small flat")
# ADJ_MASS              drinks and food said without an article, with an adjective ("cold milk",
#                       "mit heißem Wasser")
# DAYS, MONTHS          English, German (all masculine: "am Montag", "im Mai"); the days' habitual
#                       adverb ("on Mondays" -> "montags")
# DAY_PARTS             parts of a day joined to a weekday: "on Friday evening" -> "am Freitagabend"
# SEASONS               English, German
# ORDINALS              ordinals 1-31: English, German stem; "am fünften Mai" (dative -en), "der
#                       fünfte Mai" (-e)
# UNITS                 durations: English singular, English plural, German singular, German plural,
#                       gender; "for a year" -> "seit einem Jahr", "for three years" -> "seit drei
#                       Jahren" (dative plural)
# UNIT_ACC_PL           the accusative plural of a duration ("Der Film dauert zwei Stunden")
# FREQUENCIES           how often: English, German; German puts it where a time goes
# ADVERBS_OF_FREQUENCY  "always", "usually", "often", ...: English, German
# HOW_OFTEN             which FREQUENCIES suit an activity, by verb or "verb:words of its complement"
#                       (these first): "They wash their hands every day", never "once a month"; ""
#                       or no entry: none is said
# ROUTINES              when a daily routine is done: said with "always" or "usually" ("We usually
#                       wash our hair in the evening"), as "She often wakes up" alone is not
# DONE_WHEN             when a meal was had, made or cooked, or one fell asleep: not "They had
#                       dinner this morning", "We made breakfast last night", "She fell asleep in
#                       front of the TV this morning"
# ITEMS                 what one asks to have: English, German accusative
# DESTINATIONS          English, German "to" (direction), German "in" (place). Countries with an
#                       article take "in die" / "in der": "in die Schweiz", "in der Schweiz".
# HOLIDAY_PLACES        where a holiday goes to and is spent, not a town: "to the seaside" -> "ans
#                       Meer", "am Meer"
# TOWNS                 the towns trains change in and leave for (nach ...)
# NAMES, SURNAMES       first names for "du" (as the English types them) and surnames for "Sie" ("Mr
#                       Weber")
# COLOURS               colours a shop has a thing "in": English, German noun ("in Blau")
_T, __getattr__, __dir__ = module_tables("daily_life_lexicon.json", __name__)

# Predicative adjective, attributive stem (the two differ in "teuer" / "teur-e", "dunkel" /
# "dunkl-e"): English, German, German stem.
ADJ = {r["en"]: (r["en"], r["de"], r["stem"]) for r in rows("daily_life_adjectives.tsv")}
# worn by women: not "He's wearing a dress", "My father irons his blouse"
WOMENS = ("dress", "blouse")
# Cardinal numbers by value, as words (English, German).
NUMBER_WORDS = {n: (en, de) for n, en, de in _T["NUMBER_WORDS"]}
OFFERED = tuple(_T["ITEMS"][i] for i in (0, 1, 2, 8, 12, 14, 15, 16, 18))  # offered: "Would you like ...?"


def how_often(key: str, text: str) -> tuple[tuple[str, str], ...]:
    """The FREQUENCIES that suit verb KEY said as TEXT (its English with object and complement)."""
    table = _T["HOW_OFTEN"]
    spec = next((v for k, v in table.items() if k.startswith(key + ":") and k.split(":", 1)[1] in text),
                table.get(key, ""))
    return tuple(f for f in _T["FREQUENCIES"] if f[0] in spec.split("|"))
