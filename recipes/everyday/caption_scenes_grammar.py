"""The noun phrases, pronouns and word positions of recipes/everyday/caption_scenes.py.

A pronoun pair teaches only when both sides agree with the noun it stands for, so the German
forms are built here from one set of tables: the articles and the endings of ein / sein / ihr
(german.py's DEF and ENDING), the adjective endings after der, after ein and with no article
(german.py's WEAK, MIXED and STRONG), the contractions "im", "zum", "ins". Each word
the meta points at (the pronoun, the antecedent's noun) is marked where the phrase is built,
so its position is counted on the finished sentence rather than guessed.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from recipes.everyday.caption_scenes_lexicon import ADJ, ATTIRE, ATTIRE_COLORS, GENERIC, PEOPLE, PLACES, THINGS, Person
# the shared German inflection; PRONOUN is read from here by caption_scenes_build.py
from recipes.everyday.german import CONTRACTIONS, DEF, ENDING, MIXED, PRONOUN, STRONG, WEAK  # noqa: F401
from transformer.data.example import Example

TASK = "caption_scenes"
EN_PRONOUN = {"nom": ("it", "they"), "acc": ("it", "them"), "dat": ("it", "them"), "poss": ("its", "their")}
EN_DET = {"the": "the", "two": "two", "three": "three", "some": "some", "several": "several"}
DE_NUMBER = {"two": "zwei", "three": "drei", "some": "einige", "several": "mehrere"}
# words a sentence must never contain: the public test sentences this data is kept apart from
BANNED = ("cross the street", "crossed the street", "trophy", "suitcase")


class W(str):
    """A word the meta points at: TAG is "pron" (the pronoun), "ante" (the antecedent's noun) or
    "verb" (the finite verb of the pronoun's clause, German side)."""

    tag = ""


def mark(word: str, tag: str) -> W:
    w = W(word)
    w.tag = tag
    return w


def a_an(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def owner_of(gender: str, plural: bool) -> str:
    """The owner's key of the possessive tables: "pl" for several owners."""
    return "pl" if plural else gender


def possessive(owner: str, case: str, g: str) -> str:
    """sein- for a masculine or neuter owner, ihr- for a feminine one or several; the ending
    by the owned noun's gender (or "pl") and case: "seinen", "ihrem"."""
    return ("sein" if owner in ("m", "n") else "ihr") + ENDING[case][g]


def prep_phrase(prep: str, words: list[str]) -> list[str]:
    """"in" + "dem Park" -> "im Park"; other phrases keep their preposition in front."""
    if words and (prep, words[0]) in CONTRACTIONS and not isinstance(words[0], W):
        return [CONTRACTIONS[(prep, words[0])], *words[1:]]
    return [prep, *words]


@dataclass
class NP:
    """A noun phrase in both languages; TAG "ante" marks its noun, POSS_TAG its possessive."""

    noun: object  # a Noun or a Person: en, en_pl, de_form, gender
    plural: bool = False
    det: str = "a"  # "a" (none in the plural), "the", "two", "three", "some", "several", "poss",
    # "pair" ("a pair of boots" / "ein Paar Stiefel")
    adj: str = ""
    owner: str = ""  # the possessive's owner: "m" "f" "n" "pl"
    owner_en: str = ""  # "his" "her" "its" "their"
    tag: str = ""
    poss_tag: bool = False

    @property
    def g(self) -> str:
        return "pl" if self.plural else self.noun.gender

    def en(self) -> list[str]:
        noun = (self.noun.en_pl if self.plural else self.noun.en).split()
        adj = ADJ[self.adj][0] if self.adj else ""
        words: list[str] = []
        if self.det == "poss":
            words.append(mark(self.owner_en, "pron") if self.poss_tag else self.owner_en)
        elif self.det == "pair":
            words += ["a", "pair", "of"]
        elif self.det == "a":
            if not self.plural:
                words.append(a_an(adj or noun[0]))
        else:
            words.append(EN_DET[self.det])
        if adj:
            words.append(adj)
        return [*words, *noun[:-1], mark(noun[-1], self.tag) if self.tag else noun[-1]]

    def de(self, case: str) -> list[str]:
        g = self.g
        if self.det == "the":
            art, table = DEF[case][g], WEAK
        elif self.det == "poss":
            art, table = possessive(self.owner, case, g), MIXED
            art = mark(art, "pron") if self.poss_tag else art
        elif self.det == "a" and not self.plural:
            art, table = "ein" + ENDING[case][g], MIXED
        elif self.det == "pair":  # "ein Paar neue Stiefel": Paar (n) takes the article, the rest is plural
            art, table = "ein" + ENDING[case]["n"] + " Paar", STRONG
            g = "pl"
        elif self.det in ("some", "several"):
            art, table = DE_NUMBER[self.det] + ("n" if case == "dat" else ""), STRONG
        else:
            art, table = DE_NUMBER.get(self.det, ""), STRONG
        adj = ADJ[self.adj][1] + table[case][g] if self.adj else ""
        noun = self.noun.de_form(case, self.plural)
        return [w for w in (art, adj) if w] + [mark(noun, self.tag) if self.tag else noun]


@dataclass
class Actor:
    """Who does it: the subject's words (nominative) and what a later "his" / "her" needs."""

    en: list[str]
    de: list[str]
    plural: bool
    poss_en: str  # his her its their
    owner: str  # the possessive tables' owner: "m" "f" "n" "pl"
    who: object  # the Person or Noun
    child: bool = False
    own_ok: bool = True  # "his" / "her" of it is clear in both languages (not "a girl": "Mädchen" n)

    def agree(self, forms: tuple[str, str]) -> str:
        return forms[1] if self.plural else forms[0]


def person(rng: random.Random, p: Person, plural: bool = False, attire: bool = True, tag: str = "") -> Actor:
    """"A man", "An old fisherman", "Two little girls", "A woman in a red jacket"; TAG marks the noun."""
    det = rng.choice(("two", "two", "three", "several", "the")) if plural else "a"
    adj = ""
    r = rng.random()
    if r < 0.25:
        adj = "little" if p.child else rng.choice(("young", "old"))
    np = NP(p, plural, det, adj, tag=tag)
    en, de = np.en(), np.de("nom")
    if 0.25 <= r < 0.37 and attire:
        cloth = rng.choice([c for c in ATTIRE if p.sex == "f" or c not in ("dress", "skirt")])
        wear = NP(THINGS[cloth], plural, "a", rng.choice(ATTIRE_COLORS))
        en, de = [*en, "in", *wear.en()], [*de, "in", *wear.de("dat")]
    sex = "pl" if plural else p.sex
    poss_en = {"pl": "their", "m": "his", "f": "her"}.get(sex, "its")
    return Actor(en, de, plural, poss_en, sex, p, p.child, plural or p.gender == p.sex)


def pick_person(rng: random.Random, scene: set[str] = frozenset(), plural: float = 0.2, adult: bool = False,
                owner: bool = False, child: bool = False, tag: str = "") -> Actor:
    """A person fitting SCENE (an occupation only where its domain meets the scene's tags,
    places and keys); ADULT: no children, CHILD: only children; OWNER: one whose "his" / "her" is
    clear in German ("a girl" is "ein Mädchen", neuter: girls and children come in the plural then)."""
    jobs = [p for p in PEOPLE.values() if p.key not in GENERIC and p.domain & scene and (owner or not p.cue)]
    pool = jobs if jobs and not child and rng.random() < 0.3 else [PEOPLE[k] for k in GENERIC]
    adult = adult or "sharp" in scene  # no child carries the knives
    pool = [p for p in pool if not (adult and p.child) and not (child and not p.child)] or \
        [PEOPLE["man"], PEOPLE["woman"]]
    p = rng.choice(pool)
    many = (rng.random() < plural or (owner and p.gender != p.sex)) and not p.cue  # "their" hides the sex
    return person(rng, p, many, True, tag)


def place(key: str) -> tuple[list[str], list[str]]:
    en, de = PLACES[key]
    return en.split(), de.split()


def scene_of(noun) -> set[str]:
    """What an occupation is matched against: the noun's tags, class, key and places."""
    return {*noun.tags, noun.cls, noun.key, *noun.places}


def flatten(words: list) -> list[str]:
    """Phrases split into words; marked words stay as they are."""
    out: list[str] = []
    for w in words:
        if isinstance(w, W):
            out.append(w)
        elif w:
            out.extend(str(w).split())
    return out


def finish(frame: str, en: list, de: list, **meta) -> Example | None:
    """The pair with its meta: the positions of the marked words (exactly one pronoun and one
    antecedent on each side), capitalised, ended by "."; None when a side is too long or says a
    banned phrase."""
    en_w, de_w = flatten([*en, "."]), flatten([*de, "."])
    pos = {}
    for side, words in (("src", en_w), ("tgt", de_w)):
        for tag in ("pron", "ante"):
            at = [i for i, w in enumerate(words) if isinstance(w, W) and w.tag == tag]
            assert len(at) == 1, (frame, tag, words)
            pos[(side, tag)] = at[0]
    if not (4 <= len(en_w) <= 23 and 4 <= len(de_w) <= 23):  # 3..22 words and the "."
        return None
    src, tgt = " ".join(en_w), " ".join(de_w)
    src, tgt = src[0].upper() + src[1:], tgt[0].upper() + tgt[1:]
    if any(b in src.lower() for b in BANNED):
        return None
    verb = [i for i, w in enumerate(de_w) if isinstance(w, W) and w.tag == "verb"]
    info = {"task": TASK, "frame": frame, "pronoun_pos": pos[("src", "pron")],
            "antecedent_pos": pos[("src", "ante")], "tgt_pronoun_pos": pos[("tgt", "pron")],
            "tgt_antecedent_pos": pos[("tgt", "ante")], "pronoun_de": str(de_w[pos[("tgt", "pron")]]),
            "pronoun_en": str(en_w[pos[("src", "pron")]]), "antecedent_de": str(de_w[pos[("tgt", "ante")]]),
            "antecedent_en": str(en_w[pos[("src", "ante")]])}
    if verb:
        info["tgt_verb_pos"] = verb[0]
    info.update(meta)
    return Example(src, tgt, info)


def fill(tmpl: str, slots: dict[str, list]) -> list:
    """The English template's words with "{O}" and the like replaced by their words."""
    out: list = []
    for w in tmpl.split():
        out.extend(slots[w] if w in slots else [w])
    return out
