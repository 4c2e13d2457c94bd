"""The classroom generator's lexicon: words, genders and what may be said of each noun.

Split out of transformer/data/classroom.py (issue 13: no module over 500 lines). These are the data
the caption templates (transformer/data/classroom_templates.py) draw on: the inflection tables
(pronouns, articles, adjective and possessive endings), the nouns by kind (animals, things,
people, places) with their German forms and parts, the predicates, verbs and object verbs with
the nouns they fit, and the noun phrase (NP) that inflects one noun. Genders come from
genders_lexicon.json (transformer.data.genders). Import these names from here (issue 21: no
re-exports).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

from transformer.data.gender_lexicon import read_lexicon

DEFAULT_N = {"train": 10000, "val": 500, "test": 500}
MIN_EN_COUNT = 10  # every English word occurs at least this often in Multi30k train.en
# ... except these, which the generator teaches on purpose: a classroom types "because" (the
# issue's first sentence, "... because it was too tired"), Multi30k's captions have it 8 times.
TAUGHT_EN = ("because",)
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
            raise KeyError(f"{self.en!r} is not in genders_lexicon.json (python -m transformer.data.genders --lexicon)")
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


def _places(rows: str) -> tuple[Noun, ...]:
    """Rows "en de | tags | static en / de | motion en / de" separated by ";" (motion "-": none)."""
    out = []
    for row in rows.strip().split(";"):
        head, tags, static, motion = (part.strip() for part in row.split("|"))
        en, de = head.split()
        out.append(Noun(en, de, "place", tags=frozenset(tags.split()), static=tuple(static.split(" / ")),
                        motion=None if motion == "-" else tuple(motion.split(" / "))))
    return tuple(out)


PLACES = _places("""
    street Straße | crowd | on the street / auf der Straße | across the street / über die Straße;
    grass Gras | | on the grass / auf dem Gras | across the grass / über das Gras;
    field Feld | | in the field / auf dem Feld | across the field / über das Feld;
    park Park | crowd | in the park / im Park | through the park / durch den Park;
    beach Strand | crowd | on the beach / am Strand | across the beach / über den Strand;
    snow Schnee | | in the snow / im Schnee | through the snow / durch den Schnee;
    sand Sand | | in the sand / im Sand | across the sand / über den Sand;
    yard Hof | | in the yard / im Hof | across the yard / über den Hof;
    sidewalk Gehweg | crowd | on the sidewalk / auf dem Gehweg | -;
    hill Hügel | | on the hill / auf dem Hügel | up the hill / den Hügel hinauf;
    bridge Brücke | crowd | on the bridge / auf der Brücke | across the bridge / über die Brücke;
    water Wasser | water | in the water / im Wasser | through the water / durch das Wasser
""")


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
