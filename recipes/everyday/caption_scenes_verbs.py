"""The verbs of recipes/everyday/caption_scenes.py: what a person (or a dog) does to a thing.

A verb names the nouns it is said of by tag ("feed" takes what has "feed": animals, not apples)
and, when it is the second verb of "buys a melon and carries it home", the first verbs it may
follow (a picked flower is not planted, a bought fish not set free). German forms are spelled
out: the third person singular and plural, a separable prefix or last infinitive ("hebt ihn
auf", "lässt ihn fallen"), the object's case or preposition ("mit ihm", "läuft ihm hinterher"),
and, where German says it by the thing's shape, one form per pose ("legt ihn hin" / "stellt
sie ab" / "setzt ihn ab"). The verbs themselves are data/caption_scenes_verbs.json.
"""
from __future__ import annotations

from dataclasses import dataclass

from recipes.everyday.tables import load_json, tuples

COLORS = (("red", "rot"), ("blue", "blau"), ("green", "grün"), ("yellow", "gelb"), ("white", "weiß"))


@dataclass(frozen=True)
class Verb:
    key: str
    en: tuple[str, str]  # third person singular, plural: ("carries", "carry")
    tmpl: str  # English after the subject: "{V} {O} home"; {C} a complement, {his} the subject's
    de: tuple[str, str]  # German third person singular, plural
    want: frozenset[str]  # object tags, classes or keys, any of which it takes
    refuse: frozenset[str] = frozenset()  # ... and none of which
    obj: str = "acc"  # "acc", "dat", or a preposition and its case: "mit+dat"
    mid: str = ""  # German after the object: "nach Hause"; "{C}" the complement
    last: str = ""  # a separable prefix or a last infinitive: "auf", "fallen"
    subj: str = "p"  # "p" people, "pd" people or a dog, "d" a dog, "a" grown-ups
    comps: tuple = ()  # (English, German[, tags]) complements, or "FOOD" (the animal's) / "COLOR"
    refl: bool = False  # "sich" straight after the verb: "nähert sich ihm"
    forms: tuple = ()  # (tag, "legt|legen", last): the German by the object's pose or kind
    after: frozenset[str] = frozenset()  # the first verbs it may follow
    det: str = ""  # the object's article when the verb asks for one ("the": "calls the dog", "a": "builds a snowman")
    one: bool = False  # said of one object at a time ("tries to start the tractor", not "the tractors")

    def fits(self, noun) -> bool:
        have = {*noun.tags, noun.cls, noun.key, noun.pose}
        return bool(have & self.want) and not have & self.refuse

    def german(self, noun) -> tuple[tuple[str, str], str]:
        """The finite forms and last part for NOUN (by its pose where the verb has forms)."""
        have = {*noun.tags, noun.cls, noun.key, noun.pose}
        for tag, de, last in self.forms:
            if tag in have:
                return tuple(de.split("|")), last
        return self.de, self.last


def V(key: str, en: str, tmpl: str, de: str, objs: str, **kw) -> Verb:
    """objs: "carry hold -heavy": tags taken, "-" tags refused (so are REFUSE's); AFTER: a
    space-separated list of first verbs."""
    words = objs.split() + [f"-{w}" for w in kw.pop("refuse", "").split()]
    want = frozenset(w for w in words if w[0] != "-")
    refuse = frozenset(w[1:] for w in words if w[0] == "-")
    kw["after"] = frozenset(kw.get("after", "").split())
    return Verb(key, tuple(en.split("|")), tmpl, tuple(de.split("|")) if de else ("", ""), want, refuse, **kw)


# the verbs and the small tables they name: data/caption_scenes_verbs.json (V's arguments, one verb a
# line; "@PICK_UP" there names one of its "tables")
_J = tuples(load_json("caption_scenes_verbs.json"))
# the German by the object's pose or kind: (tag, "legt|legen", last)
PUT, PUT_DOWN, PICK_UP, PUT_ON, TAKE_OFF = (_J["tables"][k] for k in ("PUT", "PUT_DOWN", "PICK_UP", "PUT_ON",
                                                                       "TAKE_OFF"))
# complements with a person: "{his}" says the subject's possessive, "{P:dat:f}" its German
# ("seiner", "ihrer"), "{FRIEND:dat}" the friend of the subject's sex ("seinem Freund", "ihrer Freundin")
GIVE_TO, SHOW_TO, SHARE_WITH = (_J["tables"][k] for k in ("GIVE_TO", "SHOW_TO", "SHARE_WITH"))


def _verb(spec: dict) -> Verb:
    """One verb of the JSON file: V's arguments, "@NAME" one of its tables ("note" is for the reader)."""
    return V(**{k: _J["tables"][v[1:]] if isinstance(v, str) and v.startswith("@") else v
                for k, v in spec.items() if k != "note"})


# first verbs: they bring the thing into the scene ("A woman buys a melon")
FIRST = tuple(_verb(v) for v in _J["FIRST"])
# second verbs: "and carries it home" -> "und trägt ihn nach Hause"
SECOND = tuple(_verb(v) for v in _J["SECOND"])
# second verbs with a dative pronoun: "plays with it" -> "spielt mit ihm", "runs after it" ->
# "läuft ihm hinterher"; a thing only where no preposition comes first (German says "damit")
DATIVE = tuple(_verb(v) for v in _J["DATIVE"])
MEET = _verb(_J["MEET"])
HUG_PEOPLE = _verb(_J["HUG_PEOPLE"])  # "... and says goodbye to them"
BY_KEY = {v.key: v for v in (*FIRST, *SECOND, *DATIVE, MEET, HUG_PEOPLE)}
assert len(BY_KEY) == len(FIRST) + len(SECOND) + len(DATIVE) + 2
assert all(a in BY_KEY for v in (*SECOND, *DATIVE) for a in v.after), "after names an unknown verb"
