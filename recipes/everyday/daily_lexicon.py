"""The words of the daily-life sentence generator (recipes/everyday/daily.py), written by hand.

Every German form is spelled out, not derived: a strong verb's "du isst", a separable verb's
prefix, a participle's auxiliary. tests/test_daily.py checks the nouns' genders against Ding's
marks when ../shared/data/ding is present, and the forms against simple rules of German spelling.
The tables are data files (data/daily_nouns.tsv, daily_adjectives.tsv, daily_verbs.tsv,
daily_lexicon.json); this module reads them into the objects the generators use.
"""
from __future__ import annotations

from dataclasses import dataclass

from recipes.everyday import german
from recipes.everyday.tables import module_tables, rows


@dataclass(frozen=True)
class Noun:
    en: str
    de: str
    gender: str  # "m" | "f" | "n" | "pl"
    kind: str  # "count" (a / ein), "mass" (no article: bread, Brot), "bare" (football, Deutsch)

    @property
    def de_dat(self) -> str:
        """The dative plural adds -n ("den Kindern") unless the plural ends in -n or -s."""
        if self.gender == "pl" and not self.de.endswith(("n", "s")):
            return self.de + "n"
        return self.de


def _by_class(table: str, make) -> dict[str, tuple]:
    """The rows of TABLE grouped by their "class" column (in the table's order), each made by MAKE."""
    out: dict[str, list] = {}
    for row in rows(table):
        out.setdefault(row["class"], []).append(make(row))
    return {k: tuple(v) for k, v in out.items()}


# Objects by class; a verb names the classes it takes. English plurals ("shoes") are German plurals.
# The table: data/daily_nouns.tsv (class, English, German, gender, kind); its "place" rows are PLACES.
NOUNS = _by_class("daily_nouns.tsv", lambda r: Noun(r["en"], r["de"], r["gender"], r["kind"]))
PLACES = NOUNS.pop("place")  # daily_talk.py's places one asks the way to ("zum Bahnhof", "zur Post")

# Predicative adjectives by the class of the noun they describe (German predicative adjectives
# are not declined: "Die Suppe ist heiß", "Die Schuhe sind zu klein"): data/daily_adjectives.tsv.
ADJECTIVES = _by_class("daily_adjectives.tsv", lambda r: (r["en"], r["de"]))
# "very hot", "too salty", "really tired", or the adjective alone (twice as likely)
DEGREES = (("very", "sehr"), ("too", "zu"), ("really", "wirklich"), ("", ""), ("", ""))


@dataclass(frozen=True)
class Verb:
    """A verb with every form the generator says. German present forms are for ich, du,
    er/sie/es, wir (= sie/Sie); a separable verb's forms leave the prefix out ("rufe ... an")."""

    en: tuple[str, str, str, str]  # base, 3rd singular, simple past, -ing ("call calls called calling")
    de: tuple[str, str, str, str]  # present: ich, du, er, wir
    infinitive: str  # joined: "anrufen"
    participle: str  # "angerufen"
    aux: str  # "haben" | "sein"
    imperative: str  # du-imperative without the prefix: "ruf"
    prefix: str  # "an", "" when not separable
    objects: tuple[str, ...]  # noun classes it takes; () = a fixed complement (COMPLEMENTS)
    case: str  # "acc" | "dat" | "auf" (auf + accusative) | "mit" (mit + dative) | ""
    stative: bool = False  # "like", "have", "need": no "-ing" frame
    preterite: tuple[str, ...] = ()  # ich du er wir, where spoken German prefers it: "hatte"
    only: frozenset[str] = frozenset()  # if given, the only English nouns it takes
    never: frozenset[str] = frozenset()  # English nouns of its classes it does not take

    def takes(self, noun: Noun) -> bool:
        return (not self.only or noun.en in self.only) and noun.en not in self.never


def _verb(en: str, de: str, rest: str, objects: str, case: str = "acc", stative: bool = False,
          only: str = "", never: str = "", preterite: str = "") -> Verb:
    inf, part, aux, imp, *prefix = rest.split()
    return Verb(tuple(en.split("|")), tuple(de.split()), inf, part, aux, imp,
                prefix[0] if prefix else "", tuple(objects.split()), case, stative,
                tuple(preterite.split()),
                frozenset(only.replace("_", " ").split()), frozenset(never.replace("_", " ").split()))


# The table: data/daily_verbs.tsv, one verb a row in _verb's terms (its header says what each
# column holds).
VERBS = tuple(_verb(**dict(row, stative=row["stative"] == "yes")) for row in rows("daily_verbs.tsv"))

# The smaller tables are data/daily_lexicon.json, each this module's attribute of its name
# (tables.module_tables: `from recipes.everyday.daily_lexicon import TIMES` reads it):
# COMPLEMENTS       the complement an intransitive verb is said with: (English, German); "" = none.
#                   German puts it after "nicht" and before the participle or infinitive ("Ich bin
#                   nicht zur Schule gegangen").
# TIMES             times, by tense: (English, German). German puts the time right after the verb
#                   (or first).
# WEATHER_ADJ       what the weather is, said of "it": (English, German) ("It is cold today .")
# WEATHER_NOUN_ADJ  what "the weather" is ("The weather is nice today ." -> "Das Wetter ist heute
#                   schön ."): with the noun as subject English says "nice" where German says
#                   "schön", never "nett" (a person's word)
# WEATHER_VERB      English -ing, English past, German present (es ...), German participle
# the words of daily_talk.py: places, numbers, clock times, comparisons
# WHERE_IS          where a place is: (English, German with {D} for a place's dative noun phrase,
#                   or none)
# NUMBERS           numbers 2-12 (one takes "ein-" and the singular)
# COUNTED           countable things with their plurals: English singular, English plural, German
#                   singular, German plural, gender; by what one has, needs or buys
# SCHEDULE          what starts or leaves at a clock time: English subject, English verb (3rd
#                   singular, base), German subject, German verb (3rd singular), separable prefix
#                   ("Der Zug fährt um acht ab")
# COMPARE           comparatives by what they compare: English comparative, German comparative,
#                   German positive ("so alt wie"), English positive. Things are compared with the
#                   same kind of thing ("my phone is newer than your phone"), people within one
#                   generation (COMPARED_PEOPLE).
# COMPARED_NOUNS    the nouns of each class worth comparing with the same noun of another owner
# COMPARED_PEOPLE   people of one generation, compared with each other; a pronoun subject ("I") only
#                   with peers
# THAN_PRONOUNS     "than me": German keeps the nominative after "als" ("älter als ich")
_T, __getattr__, __dir__ = module_tables("daily_lexicon.json", __name__)

# the German verbs (german.py) for ich du er wir: this grammar has no ihr
MODALS = {  # English -> (German present: ich du er wir, negative English)
    "can": (german.MODALS["können"][:4], "can't"),
    "must": (german.MODALS["müssen"][:4], ""),
    "have to": (german.MODALS["müssen"][:4], "don't have to"),
    "want to": (german.MODALS["wollen"][:4], "don't want to"),
    "would like to": (german.MODALS["möchte"][:4], ""),
    "should": (german.MODALS["sollte"][:4], "shouldn't"),
}
WILL = german.WERDEN[:4]
HAVE = german.HAVE[:4]
BE = german.BE[:4]
BE_PAST = german.WAS[:4]

# "What did you do ?": machen, the verb of what-questions without a noun class
DO = ("do|does|did|doing", "mache machst macht machen", "machen gemacht")
