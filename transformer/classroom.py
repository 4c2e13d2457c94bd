"""Caption-style English->German pronoun pairs in Multi30k's vocabulary ("classroom_pronouns").

The synthetic anaphora task (transformer/anaphora.py) has a toy vocabulary; a model trained on
Multi30k never sees its sentences. This generator writes sentences that look like Multi30k's
image captions, with Multi30k's own nouns, in which the German pronoun depends on an antecedent
and that antecedent's German gender:

    A brown dog chases a red ball across the grass while it is rolling .
    Ein brauner Hund jagt einen roten Ball über das Gras , während er rollt .

    A woman stands between a horse and a car and looks at its wheels .
    Eine Frau steht zwischen einem Pferd und einem Auto und betrachtet seine Räder .

Design decisions:

* Pronouns: "it" as a subject (er / sie / es), "its" as a possessive (sein- / ihr- with the
  ending of the possessed noun's gender, number and case: seinen Kopf, ihre Räder, in seinem
  Maul), "they" (sie) and "their" (ihr-) with a plural antecedent ("Two dogs ... they"), and
  "it" / "them" as the object of a person's verb (template "object", accusative ihn / sie / es,
  plural sie): "A man watches a dog next to a box and picks it up ." -> "... und hebt sie auf ."
  (a separable verb's particle last), "A dog sits next to a ball , and a boy throws it into the
  air ." -> "... , und ein Junge wirft ihn in die Luft ." The verb fits the antecedent and not
  the other noun ("hugs" an animal, "opens" a box, "carries" a dog or a box but not a cow or a
  car: OBJ_VERBS). After a dative preposition (template "prep_object", PREP_VERBS): "... , and a
  girl sits on top of it ." -> "... sitzt oben auf ihm ." (ihm / ihr / ihm, plural ihnen), "plays
  with it" (an animal or a toy) -> "spielt mit ihr". Meta "pronoun_case": nom / acc / dat / poss.
  Object pronouns (acc + dat) are about 28% of a default sample.
* Subject clauses: ", and it ...", ", but it ...", "while it ..." and "as it ..." (the last two
  German ", während ..." with the verb last). "because" and "until" would give ", weil" / ", bis",
  but Multi30k's train.en has them fewer than MIN_EN_COUNT times (8 and 0), so they are not used.
* The antecedent is decided by meaning, not position: every sentence has two or three candidate
  nouns of pairwise different German gender (animal, thing, place; a person or a second thing),
  and the predicate or the possessed part fits exactly one of those "it" may refer to ("is
  sleeping" only an animal, "is empty" only a container, "is parked" only a vehicle, "is crowded"
  a place or a bus; "its wheels" only a vehicle, "in its mouth" only an animal). People are
  candidates too (a first-noun rule picks them) but English never calls them "it".
* Noun order varies (animal first, thing first, place first, a person first), and so does the
  antecedent's role, so "the nearest noun" and "the first noun" are each right less than half
  the time (measured in the tests).
* German is written by hand per template and checked: V2 main clauses ("Im Park jagt ein Hund
  ..."), verb-final subordinate clauses (", während er rennt"), accusative / dative after verbs
  and prepositions ("neben einem Auto", "über das Gras", "zwischen zwei Hunden"), mixed and
  strong adjective endings ("ein brauner Hund", "einen roten Ball", "zwei braune Hunde").
  Only nouns that are not weak masculines are used, so the noun never changes in the singular.
* Genders come from ``genders_lexicon.json``, derived from Multi30k itself by
  transformer.genders (and hand-checked: transformer/probes/genders_checked.tsv).
* Every English word is frequent in Multi30k's train.en (at least ``MIN_EN_COUNT`` times) and
  every German word occurs in train.de (a test checks both against the corpus); some German
  words are rare there, because captions seldom use a predicative adjective ("leer",
  "kaputt", "schmutzig" once each) or an animal's "frisst" (twice; Multi30k mostly says "isst").
* Splits are over (animal, thing) pairs, by a hash of the two English words, as in anaphora.py:
  the test split holds only pairs never seen in training.
* Words are whitespace-separated, punctuation included, so every meta position indexes
  ``src.split()`` / ``tgt.split()`` directly.

    python -m transformer.classroom --split test --n 5          # print
    python -m transformer.classroom --split train --n 10000 --tsv out.tsv
    python -m transformer.data show classroom_pronouns --n 5
"""
from __future__ import annotations

import functools
import json
import random
import sys
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from transformer.cli_util import OneLineParser
from transformer.example import Example

SPLITS = ("train", "val", "test")
DEFAULT_N = {"train": 10000, "val": 500, "test": 500}
MIN_EN_COUNT = 10  # every English word occurs at least this often in Multi30k train.en
PRONOUNS = ("it", "its", "they", "their", "them")
PRONOUN_WEIGHTS = {"it": 0.4, "its": 0.3, "they": 0.18, "their": 0.12, "them": 0.07}

NOM_PRON = {"m": "er", "f": "sie", "n": "es", "pl": "sie"}
ACC_PRON = {"m": "ihn", "f": "sie", "n": "es", "pl": "sie"}
DAT_PRON = {"m": "ihm", "f": "ihr", "n": "ihm", "pl": "ihnen"}
INDEF = {"nom": {"m": "ein", "f": "eine", "n": "ein"}, "acc": {"m": "einen", "f": "eine", "n": "ein"},
         "dat": {"m": "einem", "f": "einer", "n": "einem"}}
# mixed declension (after ein / kein / sein / ihr): adjective endings, and possessive endings
MIXED_ADJ = {"nom": {"m": "er", "f": "e", "n": "es"}, "acc": {"m": "en", "f": "e", "n": "es"},
             "dat": {"m": "en", "f": "en", "n": "en"}}
POSS_END = {"nom": {"m": "", "f": "e", "n": "", "pl": "e"}, "acc": {"m": "en", "f": "e", "n": "", "pl": "e"},
            "dat": {"m": "em", "f": "er", "n": "em", "pl": "en"}}
NUMBERS = (("two", "zwei"), ("three", "drei"), ("four", "vier"))
ADJ_DE = {"brown": "braun", "black": "schwarz", "white": "weiß", "gray": "grau", "small": "klein",
          "little": "klein", "big": "groß", "large": "groß", "young": "jung", "old": "alt",
          "red": "rot", "blue": "blau", "yellow": "gelb", "green": "grün"}
COLOURS = ("red", "blue", "yellow", "green")
COLOUR_WORDS = COLOURS + ("black", "white", "brown", "gray")
MOVING = frozenset({"running", "jumping", "moving", "rolling", "flying"})


@functools.cache
def _lexicon() -> dict:
    from transformer.genders import read_lexicon

    return read_lexicon()


@dataclass(frozen=True)
class Noun:
    """A noun of the generator. ``kind``: animal | thing | place | person | part.

    ``tags`` say what may be said of it (see PREDICATES and the verbs); ``parts`` which
    possessed parts it has; places carry their static and motion phrases.
    """

    en: str
    de: str
    kind: str
    de_pl: str | None = None
    en_pl: str | None = None  # None: the English plural is rare in Multi30k, never plural here
    tags: frozenset = field(default_factory=frozenset)
    parts: tuple[str, ...] = ()
    adjectives: tuple[str, ...] = ()
    static: tuple[str, str] | None = None  # places: ("on the grass", "auf dem Gras")
    motion: tuple[str, str] | None = None  # places: ("across the grass", "über das Gras")

    @property
    def gender(self) -> str:
        entry = _lexicon().get(self.en)
        if entry is None:
            raise KeyError(f"{self.en!r} is not in genders_lexicon.json (python -m transformer.genders --lexicon)")
        return entry.gender

    def de_form(self, plural: bool, case: str) -> str:
        if not plural:
            return self.de
        if self.de_pl is None:
            raise ValueError(f"{self.en!r} has no German plural here")
        form = self.de_pl
        if case == "dat" and not form.endswith(("n", "s")):
            form += "n"  # dative plural: Hunden, Rädern; not Autos, Taschen
        return form


def _nouns(kind: str, rows: str, adjectives: tuple[str, ...] = ()) -> tuple[Noun, ...]:
    """Rows "en de de_pl en_pl | tags | parts" separated by ";" (de_pl/en_pl "-": none)."""
    out = []
    for row in rows.strip().split(";"):
        head, tags, parts = (part.strip() for part in row.split("|"))
        en, de, de_pl, en_pl = head.split()
        out.append(Noun(en, de, kind, None if de_pl == "-" else de_pl, None if en_pl == "-" else en_pl,
                        frozenset(tags.split()), tuple(parts.split()), adjectives))
    return tuple(out)


# Verbs an animal can do (as the subject of a sentence) are tags too: chase carry pull watch
# sit stand wait jumpover; what can be done to a thing: chased carried pulled jumped (+ any
# thing can be watched / sat next to).
ANIMAL_ADJ = ("brown", "black", "white", "small", "big")
ANIMALS = _nouns("animal", """
    dog Hund Hunde dogs | animal water run jump chase carry pull watch sit stand wait jumpover | head mouth nose ears legs;
    bird Vogel Vögel birds | animal water fly watch sit | head legs;
    cat Katze Katzen - | animal run jump chase watch sit wait jumpover | head mouth nose ears legs;
    cow Kuh Kühe - | animal run watch stand | head mouth nose ears legs;
    goat Ziege Ziegen - | animal run jump watch stand jumpover | head mouth nose ears legs;
    duck Ente Enten - | animal water fly watch sit stand | head legs;
    horse Pferd Pferde horses | animal water run jump pull watch stand jumpover | head mouth nose ears legs;
    chicken Huhn Hühner - | animal run watch sit stand | head legs
""", ANIMAL_ADJ)
THING_ADJ = ("red", "blue", "yellow", "green", "black", "white", "small", "big", "old")
THINGS = _nouns("thing", """
    car Auto Autos cars | vehicle park drive rigid colour chased standing | roof door wheels windows;
    bike Fahrrad Fahrräder bikes | vehicle park rigid colour chased standing jumped | wheels;
    boat Boot Boote boats | vehicle water drive crowd rigid colour standing | windows;
    truck Lastwagen Lastwagen trucks | vehicle park drive rigid colour standing | roof door wheels windows;
    bus Bus Busse - | vehicle park drive crowd rigid colour standing | roof door wheels windows;
    train Zug Züge - | vehicle drive crowd rigid colour standing | roof door wheels windows;
    motorcycle Motorrad Motorräder motorcycles | vehicle park drive rigid colour standing | wheels;
    cart Wagen Wagen carts | vehicle rigid colour pulled standing | wheels;
    sled Schlitten Schlitten - | pulled colour lying jumped | ;
    bucket Eimer Eimer buckets | container water rigid colour carried standing jumped | ;
    basket Korb Körbe baskets | container colour carried standing jumped | ;
    bowl Schüssel Schüsseln bowls | container rigid colour standing | ;
    cup Tasse Tassen cups | container rigid colour standing | ;
    bottle Flasche Flaschen bottles | container water rigid colour carried standing | ;
    box Kiste Kisten boxes | container open rigid colour carried standing jumped | ;
    bag Tasche Taschen bags | container open colour carried pulled lying | ;
    backpack Rucksack Rucksäcke backpacks | container open colour carried lying | ;
    ball Ball Bälle balls | water roll rigid colour chased carried lying | ;
    toy Spielzeug Spielzeuge toys | water rigid colour chased carried lying | ;
    stick Stock Stöcke sticks | water carried chased lying jumped | ;
    kite Drachen Drachen - | fly colour chased | ;
    balloon Ballon Ballons balloons | fly colour chased | ;
    hat Hut Hüte hats | colour carried lying | ;
    blanket Decke Decken blankets | colour pulled lying | ;
    chair Stuhl Stühle chairs | rigid colour standing jumped | legs;
    bench Bank Bänke benches | rigid colour standing jumped | legs;
    tent Zelt Zelte tents | colour standing | ;
    guitar Gitarre Gitarren guitars | rigid colour lying | ;
    skateboard Skateboard Skateboards skateboards | rigid colour lying | wheels
""", THING_ADJ)
PEOPLE = (_nouns("person", "man Mann - - | | ; woman Frau - - | | ", ("young", "old"))
          + _nouns("person", "girl Mädchen - - | | ", ("little", "young"))
          + _nouns("person", "boy Junge - - | | ; child Kind - - | | ", ("little",)))
_PLACE_ROWS = {
    # en de | tags | static en / de | motion en / de (motion "-": none)
    "street": ("Straße", "crowd", "on the street / auf der Straße", "across the street / über die Straße"),
    "grass": ("Gras", "", "on the grass / auf dem Gras", "across the grass / über das Gras"),
    "field": ("Feld", "", "in the field / auf dem Feld", "across the field / über das Feld"),
    "park": ("Park", "crowd", "in the park / im Park", "through the park / durch den Park"),
    "beach": ("Strand", "crowd", "on the beach / am Strand", "across the beach / über den Strand"),
    "snow": ("Schnee", "", "in the snow / im Schnee", "through the snow / durch den Schnee"),
    "sand": ("Sand", "", "in the sand / im Sand", "across the sand / über den Sand"),
    "yard": ("Hof", "", "in the yard / im Hof", "across the yard / über den Hof"),
    "sidewalk": ("Gehweg", "crowd", "on the sidewalk / auf dem Gehweg", "-"),
    "hill": ("Hügel", "", "on the hill / auf dem Hügel", "up the hill / den Hügel hinauf"),
    "bridge": ("Brücke", "crowd", "on the bridge / auf der Brücke", "across the bridge / über die Brücke"),
    "water": ("Wasser", "water", "in the water / im Wasser", "through the water / durch das Wasser"),
}
PLACES = tuple(
    Noun(en, de, "place", tags=frozenset(tags.split()),
         static=tuple(static.split(" / ")), motion=None if motion == "-" else tuple(motion.split(" / ")))
    for en, (de, tags, static, motion) in _PLACE_ROWS.items())


@dataclass(frozen=True)
class Part:
    """A possessed part: "its {en}" / "sein- {de}"; ``states`` for "its {en} is {state}";
    ``holds``: the things that go "with a {thing} {prep} its {en}" (mouth: a stick)."""

    en: str
    de: str
    plural: bool
    states: tuple[str, ...]
    prep: tuple[str, str] | None = None
    holds: tuple[str, ...] = ()

    @property
    def gender(self) -> str:
        return "pl" if self.plural else _lexicon()[self.en].gender


PARTS = {p.en: p for p in (
    Part("head", "Kopf", False, ("wet", "black", "white", "brown"), ("on", "auf"), ("hat",)),
    Part("mouth", "Maul", False, ("open",), ("in", "in"), ("ball", "stick", "toy", "bottle", "bag")),
    Part("nose", "Nase", False, ("wet", "black")),
    Part("ears", "Ohren", True, ("wet", "black", "white", "brown")),
    Part("legs", "Beine", True, ("wet", "dirty", "black", "white")),
    Part("roof", "Dach", False, ("wet", "red", "white", "black"), ("on", "auf"),
         ("bag", "box", "basket", "blanket", "bike")),
    Part("door", "Tür", False, ("open", "red", "white", "blue")),
    Part("wheels", "Räder", True, ("wet", "dirty", "black", "red")),
    Part("windows", "Fenster", True, ("open", "dirty")),
)}
STATE_DE = {"wet": "nass", "black": "schwarz", "white": "weiß", "brown": "braun", "open": "offen",
            "dirty": "schmutzig", "red": "rot", "blue": "blau"}


@dataclass(frozen=True)
class Predicate:
    """``it {en_sg}`` / ``they {en_pl}``; German in main-clause (V2) and verb-final order."""

    key: str
    en_sg: str
    en_pl: str
    de_sg: str  # V2: "ist leer", "sieht glücklich aus"
    de_sg_final: str  # verb-final: "leer ist", "glücklich aussieht"
    de_pl: str
    de_pl_final: str
    requires: str  # a noun tag
    dynamic: bool  # an action, fits "while it ..."

    @property
    def moves(self) -> bool:
        """Running, jumping, moving, rolling, flying: untrue of a noun that sits / stands / lies."""
        return self.key in MOVING
    def fits(self, noun: Noun) -> bool:
        return self.requires in noun.tags


def _pred(key, en, de_sg, de_sg_final, de_pl, de_pl_final, requires, dynamic) -> Predicate:
    en_sg, en_pl = en.split(" / ")
    return Predicate(key, en_sg, en_pl, de_sg, de_sg_final, de_pl, de_pl_final, requires, dynamic)


PREDICATES: tuple[Predicate, ...] = (
    _pred("running", "is running / are running", "rennt", "rennt", "rennen", "rennen", "run", True),
    _pred("sleeping", "is sleeping / are sleeping", "schläft", "schläft", "schlafen", "schlafen", "animal", True),
    _pred("eating", "is eating / are eating", "frisst", "frisst", "fressen", "fressen", "animal", True),
    _pred("jumping", "is jumping / are jumping", "springt", "springt", "springen", "springen", "jump", True),
    _pred("happy", "looks happy / look happy", "sieht glücklich aus", "glücklich aussieht",
          "sehen glücklich aus", "glücklich aussehen", "animal", False),
    _pred("empty", "is empty / are empty", "ist leer", "leer ist", "sind leer", "leer sind", "container", False),
    _pred("full", "is full / are full", "ist voll", "voll ist", "sind voll", "voll sind", "container", False),
    _pred("open", "is open / are open", "ist offen", "offen ist", "sind offen", "offen sind", "open", False),
    _pred("parked", "is parked / are parked", "ist geparkt", "geparkt ist", "sind geparkt", "geparkt sind",
          "park", False),
    _pred("moving", "is moving / are moving", "fährt", "fährt", "fahren", "fahren", "drive", True),
    _pred("rolling", "is rolling / are rolling", "rollt", "rollt", "rollen", "rollen", "roll", True),
    _pred("flying", "is flying / are flying", "fliegt", "fliegt", "fliegen", "fliegen", "fly", True),
    _pred("broken", "is broken / are broken", "ist kaputt", "kaputt ist", "sind kaputt", "kaputt sind",
          "rigid", False),
    _pred("crowded", "is crowded / are crowded", "ist voller Menschen", "voller Menschen ist",
          "sind voller Menschen", "voller Menschen sind", "crowd", False),
) + tuple(
    _pred(c, f"is {c} / are {c}", f"ist {ADJ_DE[c]}", f"{ADJ_DE[c]} ist", f"sind {ADJ_DE[c]}",
          f"{ADJ_DE[c]} sind", "colour", False) for c in COLOURS)


@dataclass(frozen=True)
class Verb:
    """An animal's verb on a thing: English sg / pl, German sg / pl (+ preposition), the
    German case of the object, the thing tag it needs (None: any thing), motion or not."""

    tag: str  # the animal must carry this tag
    en_sg: str
    en_pl: str
    de_sg: str
    de_pl: str
    case: str
    needs: str | None
    motion: bool


VERBS = (
    Verb("chase", "chases", "chase", "jagt", "jagen", "acc", "chased", True),
    Verb("carry", "carries", "carry", "trägt", "tragen", "acc", "carried", True),
    Verb("pull", "pulls", "pull", "zieht", "ziehen", "acc", "pulled", True),
    Verb("watch", "watches", "watch", "beobachtet", "beobachten", "acc", None, False),
    Verb("sit", "sits next to", "sit next to", "sitzt neben", "sitzen neben", "dat", None, False),
    Verb("stand", "stands next to", "stand next to", "steht neben", "stehen neben", "dat", None, False),
    Verb("wait", "waits next to", "wait next to", "wartet neben", "warten neben", "dat", None, False),
    Verb("jumpover", "jumps over", "jump over", "springt über", "springen über", "acc", "jumped", False),
)
STILL_VERBS = frozenset({"sit", "stand", "wait"})
# a thing as the subject: (thing tag, en sg, en pl, de sg, de pl)
THING_VERBS = (("standing", "stands next to", "stand next to", "steht neben", "stehen neben"),
               ("lying", "lies next to", "are lying next to", "liegt neben", "liegen neben"))
# a person as the subject, before "between": (en, de)
PERSON_POSTURES = (("stands", "steht"), ("sits", "sitzt"), ("waits", "wartet"))
# a person looking at / touching the possessed part: (en, de)
PART_VERBS = (("looks at", "betrachtet"), ("touches", "berührt"), ("cleans", "putzt"))
# a person's verb on the first of two nouns: (en, de, what it may be done to), accusative
PERSON_VERBS = (("watches", "beobachtet", ("animal", "thing")), ("washes", "wäscht", ("animal", "vehicle")),
                ("looks at", "betrachtet", ("animal", "thing")))


def lexicon_nouns() -> list[str]:
    """English words whose German gender the generator reads from genders_lexicon.json."""
    singular_parts = [p.en for p in PARTS.values() if not p.plural]
    return [n.en for n in ANIMALS + THINGS + PEOPLE + PLACES] + singular_parts


# ----------------------------------------------------------------------------- noun phrases
@dataclass(frozen=True)
class NP:
    """One noun in a sentence: singular with "a"/"ein" or plural with a number; an adjective."""

    noun: Noun
    plural: bool = False
    adj: str | None = None
    number: tuple[str, str] = NUMBERS[0]

    @property
    def gender(self) -> str:
        return "pl" if self.plural else self.noun.gender

    def en(self) -> list[str]:
        words = [self.adj] if self.adj else []
        if self.plural:
            return [self.number[0], *words, self.noun.en_pl]
        article = "an" if (words or [self.noun.en])[0][0] in "aeiou" else "a"
        return [article, *words, self.noun.en]

    def de(self, case: str) -> list[str]:
        g = self.noun.gender
        if self.plural:  # no article: strong adjective endings, -e (nom / acc) or -en (dat)
            adj = [ADJ_DE[self.adj] + ("en" if case == "dat" else "e")] if self.adj else []
            return [self.number[1], *adj, self.noun.de_form(True, case)]
        adj = [ADJ_DE[self.adj] + MIXED_ADJ[case][g]] if self.adj else []
        return [INDEF[case][g], *adj, self.noun.de]


def _place(noun: Noun, motion: bool) -> tuple[list[str], list[str]]:
    en, de = noun.motion if motion else noun.static
    return en.split(), de.split()


# --------------------------------------------------------------------------- sentence build
class _Sent:
    """Words plus the positions of named words (a noun phrase's noun, the pronoun)."""

    def __init__(self):
        self.words: list[str] = []
        self.at: dict[str, int] = {}

    def add(self, *words: str) -> "_Sent":
        for w in words:
            self.words += w.split()
        return self

    def mark(self, name: str, words: list[str], head: str | None = None) -> "_Sent":
        """Append ``words``; ``name`` is the position of ``head`` among them (default the last)."""
        at = len(self.words) + (words.index(head) if head else len(words) - 1)
        self.words += words
        self.at[name] = at
        return self

    def text(self) -> str:
        words = list(self.words)
        words[0] = words[0][0].upper() + words[0][1:]
        return " ".join(words)


@dataclass(frozen=True)
class Template:
    """``build(scene) -> (en, de)``; ``pronouns`` it serves; ``roles`` the candidate nouns in order
    of appearance, given by the scene's choice of layout. ``weight``: how often it is drawn
    among the chosen templates that serve the drawn pronoun (relative; 1 for most)."""

    name: str
    pronouns: tuple[str, ...]
    weight: float = 1.0


TEMPLATES: tuple[Template, ...] = (
    Template("animal_first", ("it", "they")),   # A verb T P , while/and/but PRON PRED
    Template("thing_first", ("it", "they")),    # T stands next to A P , ... PRON PRED
    Template("place_first", ("it", "they")),    # P , A verb T / P , T stands next to A , ... PRON PRED
    Template("between", ("it", "they", "its", "their")),  # H stands between X and Y , ...
    Template("person_verb", ("its", "their")),  # H watches X next to Y and touches its PART
    Template("part_state", ("its", "their")),   # X and Y are P , and its PART is STATE
    Template("with_part", ("its",)),            # X stands next to Y with O in its PART
    # H watches X next to Y and picks it up / X sits next to Y , and H carries it away
    Template("object", ("it", "them"), 5.0),
    # H watches X next to Y and plays with it / X stands next to Y , and H sits on top of it
    Template("prep_object", ("it", "them"), 1.5),
)
TEMPLATE_NAMES = tuple(t.name for t in TEMPLATES)


# ----------------------------------------------------------------------------- the splits
def pair_split(animal: Noun, thing: Noun) -> str:
    """Which split owns this (animal, thing) pair: a hash of the two words; 10% test, 10% val."""
    bucket = zlib.crc32(f"classroom:{animal.en}+{thing.en}".encode()) % 10
    return "test" if bucket == 0 else "val" if bucket == 1 else "train"


@functools.cache
def pairs(split: str) -> tuple[tuple[Noun, Noun], ...]:
    """(animal, thing) pairs of different German gender that belong to ``split``."""
    split = _canonical_split(split)
    return tuple((a, t) for a in ANIMALS for t in THINGS
                 if a.gender != t.gender and pair_split(a, t) == split)


def _canonical_split(split: str) -> str:
    split = {"heldout": "test", "valid": "val", "validation": "val"}.get(split, split)
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; expected one of {SPLITS} or 'heldout'")
    return split


# ------------------------------------------------------------------------------ generation
def generate(split: str = "train", n: int | None = None, seed: int = 0,
             templates: tuple[str, ...] | list[str] | None = None,
             pronouns: tuple[str, ...] | list[str] | None = None) -> list:
    """``n`` examples for ``split``, the same for the same (split, n, seed, templates, pronouns).

    ``pronouns``: a subset of ("it", "its", "they", "their") (default all, weighted
    0.4 / 0.3 / 0.18 / 0.12 / 0.07, "them" only as an object); ``templates``: names from ``TEMPLATE_NAMES``.
    """

    split = _canonical_split(split)
    n = DEFAULT_N[split] if n is None else n
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise ValueError(f"n must be a non-negative int, got {n!r}")
    chosen = _choose(templates, TEMPLATE_NAMES, "templates")
    prons = _choose(pronouns, PRONOUNS, "pronouns")
    usable = [p for p in prons if any(p in t.pronouns for t in TEMPLATES if t.name in chosen)]
    if not usable:
        raise ValueError(f"no chosen template serves pronouns {prons}")
    rng = random.Random(f"classroom:{split}:{seed}")
    split_pairs = pairs(split)
    out = []
    budget = 1000 + 100 * n
    while len(out) < n:
        budget -= 1
        if budget < 0:
            raise ValueError(f"cannot fill templates {chosen} with pronouns {usable} in split {split!r}")
        pron = rng.choices(usable, [PRONOUN_WEIGHTS[p] for p in usable])[0]
        serving = [t for t in TEMPLATES if t.name in chosen and pron in t.pronouns]
        if len({t.weight for t in serving}) == 1:
            name = rng.choice([t.name for t in serving])
        else:
            name = rng.choices([t.name for t in serving], [t.weight for t in serving])[0]
        ante = _antecedent_role(rng, name, pron)
        for _ in range(200):  # pairs that cannot fill (template, pronoun, antecedent): draw again
            made = make_example(rng, rng.choice(split_pairs), name, pron, ante)
            if made is not None:
                break
        else:
            continue
        src, tgt, meta = made
        meta["split"] = split
        out.append(Example(src, tgt, meta))
    return out


def _choose(names, allowed, what) -> tuple[str, ...]:
    if names is None:
        return tuple(allowed)
    names = tuple(names)
    unknown = [x for x in names if x not in allowed]
    if unknown or not names:
        raise ValueError(f"unknown {what} {unknown}; choose from {list(allowed)}")
    return names


def _adj(rng: random.Random, noun: Noun, avoid: tuple[str, ...] = ()) -> str | None:
    choices = [a for a in noun.adjectives if a not in avoid]
    return rng.choice(choices) if choices and rng.random() < 0.5 else None


def _place_for(rng: random.Random, *nouns: Noun, crowd: bool = False) -> Noun:
    """A place that suits the nouns: only things that float and animals that swim are in water;
    ``crowd``: a place that can be crowded (it is the antecedent of "it is crowded")."""
    return rng.choice([p for p in PLACES if ("water" not in p.tags or all("water" in n.tags for n in nouns))
                       and ("crowd" in p.tags or not crowd)])


def _distinct(*nouns: Noun) -> bool:
    genders = [n.gender for n in nouns]
    return len(set(genders)) == len(genders)


def _antecedent_role(rng: random.Random, template: str, pronoun: str) -> str:
    """The animal ("A") or the thing ("T") half the time each, chosen before the nouns so that
    nouns that fit one role more easily do not tilt the balance; now and then the place ("P",
    "it is crowded") in the templates that have one."""
    if template in ("animal_first", "thing_first", "place_first") and pronoun == "it" and rng.random() < 0.1:
        return "P"
    return rng.choice(("A", "T"))


def make_example(rng: random.Random, pair: tuple[Noun, Noun], template: str, pronoun: str,
                 ante: str | None = None):
    """One (src, tgt, meta) for ``pair`` = (animal, thing) with the antecedent in role ``ante``
    ("A" the animal, "T" the thing, "P" the place; default random), or None when they cannot."""
    ante = ante or _antecedent_role(rng, template, pronoun)
    builder = {"animal_first": _clause_sentence, "thing_first": _clause_sentence,
               "place_first": _clause_sentence, "between": _between, "person_verb": _person_verb,
               "part_state": _part_state, "with_part": _with_part, "object": _object,
               "prep_object": _object}[template]
    for _ in range(20):
        made = builder(rng, pair, template, pronoun, ante)
        if made is not None:
            return made
    return None


def _number(rng: random.Random, noun: Noun, is_antecedent: bool, plural_pronoun: bool) -> bool:
    """Plural or not: a plural pronoun's antecedent is plural; others plural half the time then."""
    if not plural_pronoun or noun.en_pl is None:
        return False
    return True if is_antecedent else rng.random() < 0.5


def _phrases(rng, nouns: dict[str, Noun], ante: str, plural_pronoun: bool, avoid_adj=()) -> dict[str, NP]:
    out = {}
    for role, noun in nouns.items():
        plural = _number(rng, noun, role == ante, plural_pronoun) if noun.kind in ("animal", "thing") else False
        out[role] = NP(noun, plural, _adj(rng, noun, avoid_adj if role == ante else ()),
                       rng.choice(NUMBERS))
    return out


def _referable(np_: NP, plural_pronoun: bool) -> bool:
    """Could "it" (or "they") refer to this noun? Not to a person, and the number must agree."""
    return np_.noun.kind != "person" and np_.plural == plural_pronoun


def _pick_predicate(rng, nps: dict[str, NP], ante: str, plural: bool, dynamic_only: bool,
                    still: bool = False):
    """A predicate true of the antecedent and of no other noun "it"/"they" could refer to;
    ``still``: the antecedent sits / stands / lies in this sentence, so it is not running."""
    others = [np_.noun for role, np_ in nps.items() if role != ante and _referable(np_, plural)]
    fits = [p for p in PREDICATES if p.fits(nps[ante].noun) and not any(p.fits(o) for o in others)
            and (p.dynamic or not dynamic_only) and not (still and p.moves)
            and not (p.requires == "colour" and nps[ante].adj in COLOUR_WORDS)]  # "a white kite ... it is red"
    return rng.choice(fits) if fits else None


def _pick_part(rng, nps: dict[str, NP], ante: str, plural: bool, need_prep: bool = False):
    others = [np_.noun for role, np_ in nps.items() if role != ante and _referable(np_, plural)]
    fits = [PARTS[p] for p in nps[ante].noun.parts
            if not any(p in o.parts for o in others) and (PARTS[p].prep or not need_prep)
            and (PARTS[p].plural or not plural)]  # "their wheels", never "their head"
    return rng.choice(fits) if fits else None


def _pron_de(nps: dict[str, NP], ante: str) -> str:
    return NOM_PRON[nps[ante].gender]


def _poss_de(nps: dict[str, NP], ante: str, part: Part, case: str) -> str:
    base = "sein" if nps[ante].gender in ("m", "n") else "ihr"
    return base + POSS_END[case][part.gender]


def _part_de(part: Part, case: str) -> str:
    if part.plural and case == "dat" and not part.de.endswith(("n", "s")):
        return part.de + "n"
    return part.de


def _meta(template: str, pronoun: str, en: _Sent, de: _Sent, nps: dict[str, NP], ante: str,
          pair: tuple[Noun, Noun], **extra) -> dict:
    roles = [r for r in nps if r in en.at]
    cands = sorted(en.at[r] for r in roles)
    before = [c for c in cands if c < en.at["pron"]] or cands
    others = [r for r in roles if r != ante]
    m = {
        "task": "classroom_pronouns",
        "template": template,
        "pronoun": pronoun,
        "pronoun_case": {"it": "nom", "they": "nom", "them": "acc"}.get(pronoun, "poss"),  # extra may say "acc"
        "pronoun_pos": en.at["pron"],
        "antecedent_pos": en.at[ante],
        "other_pos": max((en.at[r] for r in others), key=lambda p: (p < en.at["pron"], p)),
        "others_pos": sorted(en.at[r] for r in others),
        "candidates_pos": cands,
        "nearest_pos": max(before),
        "first_pos": cands[0],
        "antecedent_first": en.at[ante] == cands[0],
        "antecedent": nps[ante].noun.en_pl if nps[ante].plural else nps[ante].noun.en,
        "antecedent_kind": nps[ante].noun.kind,
        "antecedent_role": ante,
        "antecedent_de": nps[ante].noun.de_form(nps[ante].plural, "nom"),
        "antecedent_gender": nps[ante].noun.gender,
        "antecedent_plural": nps[ante].plural,
        "nouns": {r: nps[r].noun.en for r in roles},
        "pronoun_de": de.words[de.at["pron"]],
        "tgt_pronoun_pos": de.at["pron"],
        "tgt_antecedent_pos": de.at[ante],
        "tgt_others_pos": sorted(de.at[r] for r in others),
        "tgt_candidates_pos": sorted(de.at[r] for r in roles),
        "pair": (pair[0].en, pair[1].en),
    }
    m.update(extra)
    return m


def _clause(rng, en: _Sent, de: _Sent, nps, ante: str, plural: bool, still: bool = False):
    """Append ", and it is empty" / "while it is running" to both sentences; the predicate or None.
    ``still``: the antecedent is the subject of "sits / stands / lies next to"."""
    frame = rng.choice(("while", "and", "but", "as"))  # "as it is rolling": Multi30k's "as they walk"
    pred = _pick_predicate(rng, nps, ante, plural, dynamic_only=frame in ("while", "as"), still=still)
    if pred is None:
        return None
    pron_en = "they" if plural else "it"
    if frame in ("while", "as"):  # German: ", während" and the verb last
        en.add(frame).mark("pron", [pron_en]).add(pred.en_pl if plural else pred.en_sg, ".")
        de.add(",", "während").mark("pron", [_pron_de(nps, ante)])
        de.add(pred.de_pl_final if plural else pred.de_sg_final, ".")
    else:
        en.add(",", frame).mark("pron", [pron_en]).add(pred.en_pl if plural else pred.en_sg, ".")
        de.add(",", {"and": "und", "but": "aber"}[frame]).mark("pron", [_pron_de(nps, ante)])
        de.add(pred.de_pl if plural else pred.de_sg, ".")
    return pred


def _clause_sentence(rng, pair, template: str, pronoun: str, ante: str):
    """animal_first / thing_first / place_first: an animal, a thing and a place, then a clause."""
    animal, thing = pair
    plural = pronoun == "they"
    place = _place_for(rng, animal, thing, crowd=ante == "P")
    roles = {"A": animal, "T": thing, "P": place}
    if template == "place_first" and rng.random() < 0.5 or template == "thing_first":
        layout = "thing_subject"
    else:
        layout = "animal_subject"
    nps = _phrases(rng, roles, ante, plural)
    if plural and not nps[ante].plural:
        return None
    if layout == "animal_subject":
        verbs = [v for v in VERBS if v.tag in animal.tags and (v.needs is None or v.needs in thing.tags)]
        if not verbs:
            return None
        verb = rng.choice(verbs)
        motion = (verb.motion and place.motion is not None and template != "place_first"
                  and rng.random() < 0.7)
    else:
        verbs = [v for v in THING_VERBS if v[0] in thing.tags]
        if not verbs:
            return None
        verb = rng.choice(verbs)
        motion = False
    if not _distinct(animal, thing, place):
        return None
    p_en, p_de = _place(place, motion)
    en, de = _Sent(), _Sent()
    a_pl, t_pl = nps["A"].plural, nps["T"].plural
    if template == "place_first":
        en.mark("P", p_en, place.en).add(",")
        de.mark("P", p_de, place.de)
    if layout == "animal_subject":  # A verb T (P)
        en.mark("A", nps["A"].en()).add(verb.en_pl if a_pl else verb.en_sg).mark("T", nps["T"].en())
        v_de = (verb.de_pl if a_pl else verb.de_sg).split()
        if template == "place_first":  # V2: the verb before the subject
            de.add(v_de[0]).mark("A", nps["A"].de("nom")).add(*v_de[1:]).mark("T", nps["T"].de(verb.case))
        else:
            de.mark("A", nps["A"].de("nom")).add(*v_de).mark("T", nps["T"].de(verb.case))
    else:  # T stands next to A (P)
        en.mark("T", nps["T"].en()).add(verb[2] if t_pl else verb[1]).mark("A", nps["A"].en())
        v_de = (verb[4] if t_pl else verb[3]).split()
        if template == "place_first":
            de.add(v_de[0]).mark("T", nps["T"].de("nom")).add(*v_de[1:]).mark("A", nps["A"].de("dat"))
        else:
            de.mark("T", nps["T"].de("nom")).add(*v_de).mark("A", nps["A"].de("dat"))
    if template != "place_first":
        en.mark("P", p_en, place.en)
        de.mark("P", p_de, place.de)
    still = (ante == "T") if layout == "thing_subject" else (ante == "A" and verb.tag in STILL_VERBS)
    pred = _clause(rng, en, de, nps, ante, plural, still)
    if pred is None:
        return None
    return en.text(), de.text(), _meta(template, pronoun, en, de, nps, ante, pair, predicate=pred.key,
                                       layout=layout)


def _between(rng, pair, template: str, pronoun: str, ante: str):
    """A person stands between the animal and the thing; then "it ..." or "looks at its PART"."""
    animal, thing = pair
    person = rng.choice(PEOPLE)
    if not _distinct(person, animal, thing):
        return None
    plural = pronoun in ("they", "their")
    order = ["A", "T"] if rng.random() < 0.5 else ["T", "A"]
    nps = _phrases(rng, {"H": person, order[0]: pair[order[0] == "T"], order[1]: pair[order[1] == "T"]},
                   ante, plural)
    if plural and not nps[ante].plural:
        return None
    posture = rng.choice(PERSON_POSTURES)
    en, de = _Sent(), _Sent()
    en.mark("H", nps["H"].en()).add(posture[0], "between").mark(order[0], nps[order[0]].en())
    en.add("and").mark(order[1], nps[order[1]].en())
    de.mark("H", nps["H"].de("nom")).add(posture[1], "zwischen").mark(order[0], nps[order[0]].de("dat"))
    de.add("und").mark(order[1], nps[order[1]].de("dat"))
    if pronoun in ("it", "they"):
        pred = _clause(rng, en, de, nps, ante, plural)
        if pred is None:
            return None
        return en.text(), de.text(), _meta(template, pronoun, en, de, nps, ante, pair, predicate=pred.key)
    part = _pick_part(rng, nps, ante, plural)
    if part is None:
        return None
    verb = rng.choice(PART_VERBS)
    en.add("and", verb[0]).mark("pron", [pronoun]).add(part.en, ".")
    de.add("und", verb[1]).mark("pron", [_poss_de(nps, ante, part, "acc")]).add(_part_de(part, "acc"), ".")
    return en.text(), de.text(), _meta(template, pronoun, en, de, nps, ante, pair, part=part.en)


def _person_verb(rng, pair, template: str, pronoun: str, ante: str):
    """A person watches X next to Y and touches its PART (X, Y: the animal and the thing)."""
    animal, thing = pair
    person = rng.choice(PEOPLE)
    if not _distinct(person, animal, thing):
        return None
    plural = pronoun == "their"
    x, y = ("A", "T") if rng.random() < 0.5 else ("T", "A")
    nps = _phrases(rng, {"H": person, x: pair[x == "T"], y: pair[y == "T"]}, ante, plural)
    if plural and not nps[ante].plural:
        return None
    part = _pick_part(rng, nps, ante, plural)
    if part is None:
        return None
    verb = rng.choice([v for v in PERSON_VERBS if nps[x].noun.kind in v[2] or v[2][1] in nps[x].noun.tags])
    part_verb = rng.choice([v for v in PART_VERBS if v[0] != verb[0]])
    en, de = _Sent(), _Sent()
    en.mark("H", nps["H"].en()).add(verb[0]).mark(x, nps[x].en()).add("next to").mark(y, nps[y].en())
    en.add("and", part_verb[0]).mark("pron", [pronoun]).add(part.en, ".")
    de.mark("H", nps["H"].de("nom")).add(verb[1]).mark(x, nps[x].de("acc")).add("neben").mark(y, nps[y].de("dat"))
    de.add("und", part_verb[1]).mark("pron", [_poss_de(nps, ante, part, "acc")]).add(_part_de(part, "acc"), ".")
    return en.text(), de.text(), _meta(template, pronoun, en, de, nps, ante, pair, part=part.en)


def _part_state(rng, pair, template: str, pronoun: str, ante: str):
    """X and Y are in a place , and its PART is STATE."""
    animal, thing = pair
    place = _place_for(rng, animal, thing)
    if not _distinct(animal, thing, place):
        return None
    plural = pronoun == "their"
    x, y = ("A", "T") if rng.random() < 0.5 else ("T", "A")
    nps = _phrases(rng, {x: pair[x == "T"], y: pair[y == "T"], "P": place}, ante, plural)
    if plural and not (nps["A"].plural and nps["T"].plural):
        return None  # "A dog and two cars ... their" could mean all of them
    part = _pick_part(rng, nps, ante, plural)
    if part is None:
        return None
    state = rng.choice([s for s in part.states if s != nps[ante].adj] or part.states)
    p_en, p_de = _place(place, False)
    en, de = _Sent(), _Sent()
    en.mark(x, nps[x].en()).add("and").mark(y, nps[y].en()).add("are").mark("P", p_en, place.en)
    en.add(",", "and").mark("pron", [pronoun]).add(part.en, "are" if part.plural else "is", state, ".")
    de.mark(x, nps[x].de("nom")).add("und").mark(y, nps[y].de("nom")).add("sind").mark("P", p_de, place.de)
    de.add(",", "und").mark("pron", [_poss_de(nps, ante, part, "nom")])
    de.add(_part_de(part, "nom"), "sind" if part.plural else "ist", STATE_DE[state], ".")
    return en.text(), de.text(), _meta(template, pronoun, en, de, nps, ante, pair, part=part.en, state=state)


def _with_part(rng, pair, template: str, pronoun: str, ante: str):
    """X stands next to Y with a THING in/on its PART ("A dog sits next to a car with a stick in
    its mouth" / "A car stands next to a dog with a bag on its roof")."""
    animal, thing = pair
    nps = _phrases(rng, {"A": animal, "T": thing}, ante, False)
    part = _pick_part(rng, nps, ante, False, need_prep=True)
    if part is None:
        return None
    held = [t for t in THINGS if t.en in part.holds and _distinct(animal, thing, t)]
    if not held:
        return None
    held_noun = rng.choice(held)
    nps["O"] = NP(held_noun, False, _adj(rng, held_noun))
    if rng.random() < 0.5:  # the animal is the subject
        verbs = [v for v in VERBS if v.tag in animal.tags and v.case == "dat"]
        if not verbs:
            return None
        verb = rng.choice(verbs)
        x, y, v_en, v_de, layout = "A", "T", verb.en_sg, verb.de_sg, "animal_subject"
    else:
        if "standing" not in thing.tags and "lying" not in thing.tags:
            return None
        verb = next(v for v in THING_VERBS if v[0] in thing.tags)
        x, y, v_en, v_de, layout = "T", "A", verb[1], verb[3], "thing_subject"
    en, de = _Sent(), _Sent()
    en.mark(x, nps[x].en()).add(v_en).mark(y, nps[y].en()).add("with").mark("O", nps["O"].en())
    en.add(part.prep[0]).mark("pron", ["its"]).add(part.en, ".")
    de.mark(x, nps[x].de("nom")).add(v_de).mark(y, nps[y].de("dat")).add("mit").mark("O", nps["O"].de("dat"))
    de.add(part.prep[1]).mark("pron", [_poss_de(nps, ante, part, "dat")]).add(_part_de(part, "dat"), ".")
    return en.text(), de.text(), _meta(template, pronoun, en, de, nps, ante, pair, part=part.en, layout=layout)


# ------------------------------------------------------------------------- object pronouns
# What a person can do to a noun, by meaning: sets of English nouns (the noun tables above).
SMALL_ANIMALS = frozenset({"dog", "cat", "bird", "duck", "chicken", "goat"})  # held, carried, caught
LIFTABLE = frozenset({"bucket", "basket", "bowl", "cup", "bottle", "box", "bag", "backpack", "ball", "toy",
                      "stick", "hat", "blanket", "guitar", "skateboard", "chair", "bike", "sled", "kite",
                      "balloon"}) | SMALL_ANIMALS
THROWABLE = frozenset({"ball", "stick", "toy", "hat", "bottle"})
VEHICLES = frozenset(n.en for n in THINGS if "vehicle" in n.tags)
WASHABLE = VEHICLES | frozenset(a.en for a in ANIMALS) | {"cup", "bowl", "bucket", "bottle", "basket", "toy",
                                                         "blanket", "hat", "bag", "backpack", "ball"}
RIDDEN = frozenset({"horse", "bike", "motorcycle", "skateboard", "sled", "boat", "bus", "train", "car", "cart"})


@dataclass(frozen=True)
class ObjVerb:
    """A person's verb with "it" / "them" as its object: "{en} it {en_after}" /
    "{de} ihn {rest} {de_after}" (``de_after``: a separable verb's particle, last in the clause).
    ``fits``: the nouns it may be done to (English, singular); it is used only when it fits
    the antecedent and no other noun "it" could mean. ``rests``: (en, de) phrases after the
    pronoun, "" for none; "MOTION" / "STATIC": a place's motion / static phrase."""

    key: str
    en: str
    de: str
    fits: frozenset
    en_after: str = ""
    de_after: str = ""
    rests: tuple[tuple[str, str], ...] = (("", ""),)
    weight: float = 1.0  # verbs that fit many pairs (repairs, hugs, catches) are drawn less often
    case: str = "acc"  # "dat": the pronoun follows a dative preposition ("sits on top of it")


NONE = ("", "")
YARD, IN_WATER, INTO_WATER = ("in the yard", "im Hof"), ("in the water", "im Wasser"), ("into the water", "ins Wasser")
OBJ_VERBS = (
    ObjVerb("hold", "holds", "hält", LIFTABLE, rests=(NONE, ("up", "hoch")), weight=1.5),
    ObjVerb("carry", "carries", "trägt", LIFTABLE, rests=(NONE, ("away", "weg"), ("MOTION", "MOTION")), weight=1.5),
    ObjVerb("pickup", "picks", "hebt", LIFTABLE, "up", "auf", rests=(NONE, ("off the ground", "vom Boden")), weight=1.5),
    ObjVerb("lift", "lifts", "hebt", LIFTABLE, rests=(("up", "hoch"), ("into the air", "in die Luft")), weight=1.5),
    ObjVerb("throw", "throws", "wirft", THROWABLE,
            rests=(NONE, ("into the air", "in die Luft"), INTO_WATER, ("ACROSS", "ACROSS"))),
    ObjVerb("catch", "catches", "fängt", THROWABLE | SMALL_ANIMALS | {"balloon", "kite"}, weight=0.6),
    ObjVerb("kick", "kicks", "kickt", frozenset({"ball"}), rests=(NONE, ("ACROSS", "ACROSS"))),
    ObjVerb("open", "opens", "öffnet", frozenset({"box", "bag", "backpack", "bottle", "car"})),
    ObjVerb("push", "pushes", "schiebt", frozenset({"bike", "cart", "sled", "car", "motorcycle", "chair"}),
            rests=(NONE, ("MOTION", "MOTION"))),
    ObjVerb("drive", "drives", "fährt", frozenset({"car", "truck", "bus", "train", "boat", "motorcycle"}),
            rests=(NONE, ("MOTION", "MOTION")), weight=0.8),
    ObjVerb("repair", "repairs", "repariert", VEHICLES | {"chair", "bench", "toy", "skateboard", "guitar", "kite", "sled", "tent"}, rests=(NONE, YARD), weight=0.3),
    ObjVerb("wash", "washes", "wäscht", WASHABLE, rests=(NONE, YARD, IN_WATER), weight=0.8),
    ObjVerb("hug", "hugs", "umarmt", frozenset(a.en for a in ANIMALS) | {"toy", "blanket", "bag", "backpack"}, weight=0.5),
    ObjVerb("ride", "rides", "reitet", RIDDEN, rests=(NONE, ("MOTION", "MOTION"))),  # only one horse
)
# "it" / "them" after a dative preposition: "oben auf ihm / ihr", "mit ihm / ihr / ihnen" (template
# "prep_object"); people sit on top of things, never of animals here; play with animals and toys
ON_TOP = frozenset({"car", "truck", "bus", "box"})
PREP_VERBS = (
    ObjVerb("sit_on", "sits on top of", "sitzt oben auf", ON_TOP | {"bucket"}, case="dat"),
    ObjVerb("stand_on", "stands on top of", "steht oben auf", ON_TOP | {"bench", "chair"}, case="dat"),
    ObjVerb("play_with", "plays with", "spielt mit", frozenset(a.en for a in ANIMALS)
            | {"ball", "toy", "stick", "kite", "balloon"}, case="dat"),
)
# the person's first verb, on X next to Y: (en, de), X in the accusative
OBJ_FIRST_VERBS = (("watches", "beobachtet"), ("looks at", "betrachtet"), ("points at", "zeigt auf"))
# places of the object template (not candidates): no bridge / hill (one could repair or push them)
OBJ_PLACES = tuple(p for p in PLACES if p.en not in ("bridge", "hill", "water"))  # "on top of it": no hill


def _obj_rest(rng, verb: ObjVerb, ante: NP, place: Noun | None):
    """(en words, de words) after the pronoun: none, a particle, a phrase or a place's motion
    phrase ("ACROSS": one with "across"); no second place where the sentence names one; into /
    in the water only what floats or swims."""
    rests = [r for r in verb.rests
             if (r not in (IN_WATER, INTO_WATER) or "water" in ante.noun.tags)
             and (r != IN_WATER or ante.noun.kind == "animal") and (place is None or r != YARD)]
    en, de = rng.choice(rests)
    if en in ("MOTION", "ACROSS"):
        en, de = rng.choice([p.motion for p in PLACES if p.motion and p is not place and p.en != "water"
                             and (en == "MOTION" or p.motion[0].startswith("across"))])
    return en.split(), de.split()


def _object(rng, pair, template: str, pronoun: str, ante: str):
    """"it" / "them" as the object of a person's verb that fits only the antecedent:
    "A man watches a dog next to a box and picks it up ." (layout "person_first") or
    "A dog sits next to a box , and a man picks it up ." (layout "person_last")."""
    animal, thing = pair
    person = rng.choice(PEOPLE)
    if not _distinct(person, animal, thing):
        return None
    plural = pronoun == "them"
    other = "T" if ante == "A" else "A"
    a_noun, o_noun = pair[ante == "T"], pair[other == "T"]
    table = PREP_VERBS if template == "prep_object" else OBJ_VERBS
    verbs = [v for v in table if a_noun.en in v.fits and o_noun.en not in v.fits
             and (v.key != "stand_on" or person.en in ("man", "woman", "boy"))  # not a little girl on a car
             and (not plural or v.key not in ("sit_on", "stand_on"))
             and (v.key != "ride" or a_noun.en == "horse" and not plural)
             and (v.key not in ("drive", "repair") or person.en in ("man", "woman"))]  # adults
    if not verbs:
        return None
    verb = rng.choices(verbs, [v.weight for v in verbs])[0]
    x, y = ("A", "T") if rng.random() < 0.5 else ("T", "A")
    nps = _phrases(rng, {"H": person, x: pair[x == "T"], y: pair[y == "T"]}, ante, plural)
    if plural and not nps[ante].plural:
        return None
    layout = rng.choice(("person_first", "person_last"))
    place = rng.choice([p for p in OBJ_PLACES if "water" not in p.tags]) if rng.random() < 0.5 else None
    if place is not None and not _distinct(animal, thing, place) and rng.random() < 0.5:
        place = None
    en, de = _Sent(), _Sent()
    if layout == "person_first":  # H watches X next to Y (P) and picks it up
        first = rng.choice(OBJ_FIRST_VERBS)
        en.mark("H", nps["H"].en()).add(first[0]).mark(x, nps[x].en()).add("next to").mark(y, nps[y].en())
        de.mark("H", nps["H"].de("nom")).add(first[1]).mark(x, nps[x].de("acc")).add("neben")
        de.mark(y, nps[y].de("dat"))
        if place is not None:
            en.add(*_place(place, False)[0])
            de.add(*_place(place, False)[1])
        en.add("and")
        de.add("und")
    else:  # X sits next to Y (P) , and H picks it up
        x_pl = nps[x].plural
        if x == "A":
            still = [v for v in VERBS if v.tag in nps["A"].noun.tags and v.case == "dat"]
            if not still:
                return None
            v = rng.choice(still)
            v_en, v_de = (v.en_pl, v.de_pl) if x_pl else (v.en_sg, v.de_sg)
        else:
            still = [v for v in THING_VERBS if v[0] in nps["T"].noun.tags]
            if not still:
                return None
            v = rng.choice(still)
            v_en, v_de = (v[2], v[4]) if x_pl else (v[1], v[3])
        en.mark(x, nps[x].en()).add(v_en).mark(y, nps[y].en())
        de.mark(x, nps[x].de("nom")).add(v_de).mark(y, nps[y].de("dat"))
        if place is not None:
            en.add(*_place(place, False)[0])
            de.add(*_place(place, False)[1])
        en.add(",", "and").mark("H", nps["H"].en())
        de.add(",", "und").mark("H", nps["H"].de("nom"))
    rest_en, rest_de = _obj_rest(rng, verb, nps[ante], place)
    en.add(verb.en).mark("pron", ["them" if plural else "it"]).add(verb.en_after, *rest_en, ".")
    de.add(verb.de).mark("pron", [(DAT_PRON if verb.case == "dat" else ACC_PRON)[nps[ante].gender]])
    de.add(*rest_de, verb.de_after, ".")
    return en.text(), de.text(), _meta(template, pronoun, en, de, nps, ante, pair, verb=verb.key,
                                       layout=layout, pronoun_case=verb.case)


# ---------------------------------------------------------------------------- probes, checks
def probe(split: str = "test", n: int = 200, seed: int = 0) -> list:
    """transformer.heads.ProbeItem for ``n`` generated examples: candidates are every noun, the
    target side positions come along, so cross and decoder heads are scored too."""
    from transformer.heads import ProbeItem, noun_phrase

    items = []
    for ex in generate(split, n, seed):
        m = ex.meta
        items.append(ProbeItem(ex.src, m["pronoun_pos"], m["antecedent_pos"], ex.tgt, m["tgt_pronoun_pos"],
                               m["tgt_antecedent_pos"], list(m["candidates_pos"]),
                               noun_phrase(ex.src.split(), m["antecedent_pos"]),
                               noun_phrase(ex.tgt.split(), m["tgt_antecedent_pos"])))
    return items


def position_baselines(examples) -> dict[str, float]:
    """How often the nearest noun before the pronoun, and the first noun, is the antecedent."""
    if not examples:
        raise ValueError("no examples")
    n = len(examples)
    return {"nearest_noun": sum(e.meta["nearest_pos"] == e.meta["antecedent_pos"] for e in examples) / n,
            "first_noun": sum(e.meta["first_pos"] == e.meta["antecedent_pos"] for e in examples) / n}


def check_lexicon() -> None:
    """Raise AssertionError if a noun lacks a gender or the German in the lexicon disagrees."""
    lex = _lexicon()
    for noun in ANIMALS + THINGS + PEOPLE + PLACES:
        entry = lex.get(noun.en)
        assert entry is not None, f"{noun.en!r} missing from genders_lexicon.json"
        assert entry.de == noun.de, f"{noun.en!r}: generator says {noun.de!r}, lexicon {entry.de!r}"
        assert entry.gender in "mfn", f"{noun.en!r}: no gender ({entry.gender!r})"
        if noun.kind in ("animal", "thing"):
            assert noun.de_pl, f"{noun.en!r}: no German plural"
    for part in PARTS.values():
        assert part.plural or lex[part.en].de == part.de, part
        for p in part.holds:
            assert any(t.en == p for t in THINGS), f"{part.en!r} holds unknown {p!r}"
    for n in ANIMALS + THINGS:
        for p in n.parts:
            assert p in PARTS, f"{n.en!r}: unknown part {p!r}"
    for s in SPLITS:
        assert pairs(s), f"no pairs in split {s!r}"


# ------------------------------------------------------------------------------------ CLI
def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="python -m transformer.classroom",
                           description=__doc__.split("\n")[0])
    parser.add_argument("--split", default="train")
    parser.add_argument("--n", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pronouns", nargs="+", default=None, help=f"subset of {PRONOUNS}")
    parser.add_argument("--templates", nargs="+", default=None, help=f"subset of {TEMPLATE_NAMES}")
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--tsv", help="write source<TAB>target lines to this file")
    out.add_argument("--jsonl", help="write {src, tgt, meta} JSON lines to this file")
    args = parser.parse_args(argv)
    try:
        examples = generate(args.split, args.n, args.seed, args.templates, args.pronouns)
    except (ValueError, KeyError) as exc:
        print(f"error: {exc}".replace("\n", " "), file=sys.stderr)
        return 2
    if args.tsv or args.jsonl:
        try:
            path = Path(args.tsv or args.jsonl)
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                for ex in examples:
                    f.write(f"{ex.src}\t{ex.tgt}\n" if args.tsv else
                            json.dumps({"src": ex.src, "tgt": ex.tgt, "meta": ex.meta}, ensure_ascii=False) + "\n")
        except OSError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        base = position_baselines(examples) if examples else {}
        print(f"wrote {len(examples)} pairs to {args.tsv or args.jsonl}; baselines {base}", file=sys.stderr)
        return 0
    for ex in examples:
        print(f"{ex.src}\n  -> {ex.tgt}\n  {ex.meta}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
