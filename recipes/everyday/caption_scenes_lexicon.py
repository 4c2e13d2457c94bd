"""The nouns, people, adjectives and places of recipes/everyday/caption_scenes.py, written by hand.

A pronoun can only be taught where the sentence around it makes sense, so every noun carries the
tags the verbs and predicates ask for (a dog is "pet" and "feed", a melon "food" "cut" "roll", a
bucket "fill"), the adjectives it may take ("a brown dog", never "a ripe dog") and the places it is
seen at ("on a farm", "at the zoo"). Every noun has its German gender and plural spelled out, and
the nouns of the n-declension their form outside the nominative ("den Welpen", "dem Bären").
The tables are data files (data/caption_scenes_nouns.tsv, caption_scenes_people.tsv,
caption_scenes_lexicon.json); this module reads them.
"""
from __future__ import annotations

from dataclasses import dataclass

from recipes.everyday.tables import load_json, rows, tuples


@dataclass(frozen=True)
class Noun:
    key: str  # the English singular, "_" for a space: the name verbs and parts use
    en: str
    en_pl: str
    de: str
    de_pl: str
    gender: str  # "m" | "f" | "n"
    cls: str  # animal toy thing food clothes container vehicle furniture instrument tool plant part
    tags: frozenset[str]
    adjs: tuple[str, ...] = ()
    places: tuple[str, ...] = ()
    weak: str = ""  # the n-declension's form outside the nominative singular: "Welpen"
    pose: str = "lie"  # how it is put down: "lie" (legen), "stand" (stellen), "sit" (setzen: animals)
    foods: tuple[str, ...] = ()  # what an animal is given ("carrot", "hay")

    def de_form(self, case: str, plural: bool = False) -> str:
        """The German noun in CASE: dative plural -n unless the plural ends in -n or -s
        ("den Äpfeln", "den Autos"); a weak noun's -n outside the nominative singular."""
        if plural:
            if case == "dat" and not self.de_pl.endswith(("n", "s")):
                return self.de_pl + "n"
            return self.de_pl
        return self.weak if self.weak and case != "nom" else self.de


# adjective and place groups a noun's marks name ("+fur", "@dogs"), the places where a scene happens
# (English, German: a dative of place), the adjectives (English, German stem, declined by the tables
# in german.py) and what an animal is given (English, German accusative): data/caption_scenes_lexicon.json
_T = tuples(load_json("caption_scenes_lexicon.json"))
ADJ_GROUPS, PLACE_GROUPS, PLACES, ADJ, FOODS = (_T[k] for k in ("ADJ_GROUPS", "PLACE_GROUPS", "PLACES", "ADJ",
                                                                "FOODS"))


def _nouns(cls: str, spec: str, base: str = "") -> dict[str, Noun]:
    """"dog Hund Hunde m pet feed +fur @dogs": English singular (|plural, else +s), German
    singular and plural, gender, then tags; "+brown" an adjective ("+fur" a group of them),
    "@park" a place ("@dogs" a group), "=Welpen" the weak form, "%stand" the pose, "$carrot"
    a food, "~mug_handle" a key other than the English. BASE: tags every noun of the call has."""
    out = {}
    for item in spec.split(","):
        en, de, de_pl, g, *rest = item.split()
        sg, _, pl = en.partition("|")
        key = sg
        tags, adjs, places, weak, pose, foods = set(base.split()), [], [], "", "sit" if cls == "animal" else "lie", []
        for w in rest:
            if w[0] == "+":
                adjs += ADJ_GROUPS.get(w[1:], w[1:]).split()
            elif w[0] == "@":
                places += PLACE_GROUPS.get(w[1:], w[1:]).split()
            elif w[0] == "=":
                weak = w[1:]
            elif w[0] == "%":
                pose = w[1:]
            elif w[0] == "$":
                foods.append(w[1:])
            elif w[0] == "~":
                key = w[1:]
            else:
                tags.add(w)
        assert g in ("m", "f", "n"), item
        assert all(a in ADJ for a in adjs) and all(p in PLACES for p in places) and all(f in FOODS for f in foods), item
        out[key] = Noun(key, sg.replace("_", " "), (pl or sg + "s").replace("_", " "), de, de_pl, g, cls,
                       frozenset(tags), tuple(dict.fromkeys(adjs)), tuple(places), weak, pose, tuple(foods))
    return out


def _tables(name: str) -> dict[str, dict[str, Noun]]:
    """The nouns of data/NAME by their "table" column, each row read as _nouns reads one item."""
    out: dict[str, dict[str, Noun]] = {}
    for r in rows(name):
        item = " ".join(c for c in (r["en"], r["de"], r["de_pl"], r["gender"], r["marks"]) if c)
        out.setdefault(r["table"], {}).update(_nouns(r["cls"], item, r["base"]))
    return out


# the nouns: data/caption_scenes_nouns.tsv, one a row (its header says what each column holds)
_NOUNS = _tables("caption_scenes_nouns.tsv")
ANIMALS, TOYS, FOOD, CLOTHES, CONTAINERS, VEHICLES, FURNITURE, INSTRUMENTS, TOOLS, PLANTS = (
    _NOUNS[k] for k in ("ANIMALS", "TOYS", "FOOD", "CLOTHES", "CONTAINERS", "VEHICLES", "FURNITURE",
                        "INSTRUMENTS", "TOOLS", "PLANTS"))
THINGS = {**TOYS, **FOOD, **CLOTHES, **CONTAINERS, **VEHICLES, **FURNITURE, **INSTRUMENTS, **TOOLS, **PLANTS}
ALL = {**ANIMALS, **THINGS}
assert len(ALL) == len(ANIMALS) + len(THINGS)

# what an animal or thing has: said with "its" / "their" -> sein- / ihr-
PARTS = _NOUNS["PARTS"]
# the people a person's "his" / "her" goes with; "friend" is said of a man's friend (Freund) or a woman's (Freundin)
FAMILY = _NOUNS["FAMILY"]


@dataclass(frozen=True)
class Person:
    """Who does things in a caption: "A man", "Two girls", "A fisherman"."""

    key: str
    en: str
    en_pl: str
    de: str
    de_pl: str
    gender: str  # the German noun's gender ("Mädchen" n)
    sex: str  # "m" | "f" | "": what "his" / "her" says of one of them
    child: bool
    weak: str = ""
    cue: bool = False  # a woman's form whose English ("cook") needs "her" to tell it apart
    domain: frozenset[str] = frozenset()  # what an occupation goes with (tags, keys, classes, places)

    def de_form(self, case: str, plural: bool = False) -> str:
        if plural:
            return self.de_pl + "n" if case == "dat" and not self.de_pl.endswith(("n", "s")) else self.de_pl
        return self.weak if self.weak and case != "nom" else self.de


def _people(spec: str) -> dict[str, Person]:
    """"boy Junge Jungen m m child =Jungen ^ball": like _nouns, then sex and adult / child;
    "!" a woman's form told apart only by "her", "^..." the occupation's domain."""
    out = {}
    for item in spec.split(","):
        en, de, de_pl, g, sex, kind, *rest = item.split()
        sg, _, pl = en.partition("|")
        key = next((w[1:] for w in rest if w[0] == "~"), sg)
        weak = next((w[1:] for w in rest if w[0] == "="), "")
        domain = frozenset(w[1:] for w in rest if w[0] == "^")
        out[key] = Person(key, sg, pl or sg + "s", de, de_pl, g, "" if sex == "-" else sex, kind == "child",
                          weak, "!" in rest, domain)
    return out


# the people: data/caption_scenes_people.tsv, one a row (an occupation's domain spelled out on each)
PEOPLE = _people(", ".join(" ".join(c for c in r.values() if c) for r in rows("caption_scenes_people.tsv")))
GENERIC = ("man", "woman", "boy", "girl", "child")  # said of anybody, anywhere
# what people wear in a caption: "A man in a red shirt" -> "Ein Mann in einem roten Hemd"
ATTIRE = ("shirt", "jacket", "dress", "sweater", "coat", "T-shirt", "skirt")
ATTIRE_COLORS = ("red", "blue", "green", "yellow", "black", "white", "gray", "brown")
