"""English->German pronoun task: translating "it" needs its antecedent (the phenomenon of the
paper's Figure 4, whose heads are encoder self-attention, layer 5 of 6, heads 5 and 6: "its" ->
"Law" and "application").

Each sentence names two nouns of DIFFERENT German gender, one animal and one thing, and then
says "it was P", where the predicate P fits only one of them ("hungry" only an animal, "empty"
only a container). German must say er / sie / es after the gender of that noun, so a model that
translates "it" correctly has found the antecedent, and a head that attends from the pronoun to
it is the classroom's reproducible version of Figure 4 (the shipped model's such head is in the
decoder, not the encoder as in the paper).

    The dog saw the cup because it was hungry .
    Der Hund sah den Becher , weil er hungrig war .

Design decisions:

* Animate nouns are animals only: English refers to an animal as "it" naturally, to a person
  not, so people (man, woman, teacher...) are left out on purpose.
* Articles follow case: nominative subject der/die/das, accusative object den/die/das; weak
  masculine nouns take their accusative form ("den Affen", "den Bären", "den Löwen").
* German word order was checked by hand for every template: verb-final in the subordinate
  clauses ("weil er hungrig war", "Als der Hund den Becher sah , war er hungrig"), verb-second
  after "aber"/"und" ("aber er war hungrig").
* The antecedent is the first noun as often as the second (the predicate class is a coin flip,
  and the "and" template also flips the order), and "it" always follows the second noun, so
  the "nearest noun" heuristic is right only half the time.
* Splits are over noun PAIRS: every (animal, thing) pair belongs to exactly one of train / val /
  test, by a hash of the two English words (stable when the lexicon grows). The test split
  ("heldout" is an alias) therefore contains only pairs never seen in training; individual
  nouns ARE shared (every noun occurs in training, with other partners), which is the point:
  the model must combine known words in a new way.
* Words are whitespace-separated, punctuation included, so meta positions index ``src.split()``
  and ``tgt.split()`` directly.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass, field

from transformer.data.example import Example
from transformer.data.splits import canonical_split, gender_pairs

NOM = {"m": "der", "f": "die", "n": "das"}
ACC = {"m": "den", "f": "die", "n": "das"}
PRONOUN = {"m": "er", "f": "sie", "n": "es"}
DEFAULT_N = {"train": 10000, "val": 500, "test": 500}


@dataclass(frozen=True)
class Noun:
    """A noun with its German translation; ``tags`` say which thing-predicates fit it."""

    en: str
    de: str
    gender: str  # "m" | "f" | "n"
    animate: bool
    tags: frozenset = field(default_factory=frozenset)
    de_acc: str | None = None  # weak masculine nouns only

    def phrase(self, case: str, capital: bool = False) -> list[str]:
        """German article + noun in ``case`` ("nom" or "acc"), e.g. ["den", "Affen"]."""
        article = (NOM if case == "nom" else ACC)[self.gender]
        noun = self.de_acc if case == "acc" and self.de_acc else self.de
        return [article.capitalize() if capital else article, noun]


@dataclass(frozen=True)
class Predicate:
    """``it was {en}`` / ``war {de}``; fits animals, or things carrying the ``requires`` tag."""

    en: str
    de: str
    animate: bool
    requires: str | None = None

    def fits(self, noun: Noun) -> bool:
        return noun.animate == self.animate and (self.requires is None or self.requires in noun.tags)


def _animals(gender: str, rows: str) -> list[Noun]:
    out = []
    for row in rows.split(";"):
        en, de, *acc = row.split()
        out.append(Noun(en, de, gender, True, de_acc=acc[0] if acc else None))
    return out


def _things(gender: str, rows: dict[str, str]) -> list[Noun]:
    out = []
    for key, tags in rows.items():
        en, de = key.split()
        out.append(Noun(en, de, gender, False, frozenset(tags.split())))
    return out


# Tags: container (can be empty), metal (can rust), plastic / wood (what it is made of),
# rigid (can break), cloth (can tear).
ANIMATE: tuple[Noun, ...] = tuple(
    _animals("m", "dog Hund; bird Vogel; fish Fisch; monkey Affe Affen; bear Bär Bären; "
                  "lion Löwe Löwen; donkey Esel; fox Fuchs")
    + _animals("f", "cat Katze; cow Kuh; mouse Maus; duck Ente; goat Ziege; snake Schlange; "
                    "owl Eule; spider Spinne")
    + _animals("n", "horse Pferd; sheep Schaf; pig Schwein; rabbit Kaninchen; chicken Huhn; "
                    "zebra Zebra; camel Kamel; squirrel Eichhörnchen")
)
INANIMATE: tuple[Noun, ...] = tuple(
    _things("m", {"cup Becher": "container plastic metal rigid", "ball Ball": "plastic rigid",
                  "table Tisch": "wood metal rigid", "chair Stuhl": "wood plastic metal rigid",
                  "bucket Eimer": "container plastic metal rigid", "plate Teller": "plastic wood rigid",
                  "basket Korb": "container plastic", "key Schlüssel": "metal rigid"})
    + _things("f", {"bottle Flasche": "container plastic rigid", "box Kiste": "container wood plastic rigid",
                    "lamp Lampe": "metal plastic rigid", "door Tür": "wood metal rigid",
                    "bowl Schüssel": "container plastic wood metal rigid", "bag Tasche": "container plastic cloth",
                    "can Dose": "container metal", "pan Pfanne": "metal rigid"})
    + _things("n", {"car Auto": "metal rigid", "glass Glas": "container rigid", "book Buch": "cloth",
                    "bicycle Fahrrad": "metal rigid", "window Fenster": "wood plastic rigid",
                    "boat Boot": "wood metal plastic rigid", "radio Radio": "plastic rigid",
                    "bed Bett": "wood metal rigid"})
)
PREDICATES: tuple[Predicate, ...] = (
    Predicate("hungry", "hungrig", True), Predicate("thirsty", "durstig", True),
    Predicate("tired", "müde", True), Predicate("sleepy", "schläfrig", True),
    Predicate("angry", "wütend", True), Predicate("scared", "ängstlich", True),
    Predicate("curious", "neugierig", True), Predicate("excited", "aufgeregt", True),
    Predicate("bored", "gelangweilt", True), Predicate("sick", "krank", True),
    Predicate("broken", "kaputt", False, "rigid"), Predicate("torn", "zerrissen", False, "cloth"),
    Predicate("empty", "leer", False, "container"), Predicate("rusty", "rostig", False, "metal"),
    Predicate("made of plastic", "aus Plastik", False, "plastic"),
    Predicate("made of wood", "aus Holz", False, "wood"),
)
# (English past, German past): none separable, so the German verb is one word in every position.
VERBS: tuple[tuple[str, str], ...] = (
    ("saw", "sah"), ("found", "fand"), ("watched", "beobachtete"), ("noticed", "bemerkte"),
    ("ignored", "ignorierte"), ("touched", "berührte"), ("pushed", "schob"),
)
PLACES: tuple[tuple[str, str], ...] = (
    ("garden", "im Garten"), ("kitchen", "in der Küche"), ("yard", "im Hof"),
    ("barn", "in der Scheune"), ("house", "im Haus"),
)


@dataclass(frozen=True)
class Template:
    """Source and target patterns; ``{...}`` words are filled in, everything else is literal.

    ``animate_first``: the first noun must be the animal (it is the subject of "saw" etc.);
    otherwise the order of the two nouns is random.
    """

    name: str
    en: str
    de: str
    animate_first: bool


TEMPLATES: tuple[Template, ...] = (
    Template("because", "The {n1} {verb} the {n2} because {it} was {pred} .",
             "{NP1_Nom} {verb} {NP2_acc} , weil {pron} {pred} war .", True),
    Template("but", "The {n1} {verb} the {n2} , but {it} was {pred} .",
             "{NP1_Nom} {verb} {NP2_acc} , aber {pron} war {pred} .", True),
    Template("when", "When the {n1} {verb} the {n2} , {it} was {pred} .",
             "Als {NP1_nom} {NP2_acc} {verb} , war {pron} {pred} .", True),
    Template("and", "The {n1} and the {n2} were in the {place} , and {it} was {pred} .",
             "{NP1_Nom} und {NP2_nom} waren {place} , und {pron} war {pred} .", False),
)


def check_lexicon() -> None:
    """Raise AssertionError if the lexicon cannot make the task well-posed (run by the tests)."""
    for nouns in (ANIMATE, INANIMATE):
        assert len({n.en for n in nouns}) == len(nouns), "duplicate English noun"
        for g in "mfn":
            assert any(n.gender == g for n in nouns), f"no noun of gender {g}"
    for noun in ANIMATE + INANIMATE:
        assert noun.gender in "mfn", noun
        assert any(p.fits(noun) for p in PREDICATES), f"no predicate fits {noun.en!r}"
        assert not any(p.fits(noun) for p in PREDICATES if p.animate != noun.animate)


@functools.cache
def pairs(split: str) -> tuple[tuple[Noun, Noun], ...]:
    """(animal, thing) pairs of different German gender that belong to ``split`` (by a hash of
    the two words: 10% test, 10% val, 80% train)."""
    return gender_pairs(split, ANIMATE, INANIMATE)


def generate(split: str = "train", n: int | None = None, seed: int = 0,
             templates: tuple[str, ...] | list[str] | None = None) -> list:
    """``n`` examples for ``split``, the same for the same (split, seed, templates)."""

    split = canonical_split(split)
    n = DEFAULT_N[split] if n is None else n
    if not isinstance(n, int) or n < 0:
        raise ValueError(f"n must be a non-negative int, got {n!r}")
    chosen = _choose_templates(templates)
    rng = random.Random(f"anaphora:{split}:{seed}")
    split_pairs = pairs(split)
    out = []
    for _ in range(n):
        src, tgt, meta = make_example(rng, rng.choice(split_pairs), rng.choice(chosen))
        meta["split"] = split
        out.append(Example(src, tgt, meta))
    return out


def make_example(rng: random.Random, pair: tuple[Noun, Noun], template: Template):
    """One (src, tgt, meta): choose which noun "it" means, the order, verb, place, predicate."""
    animal, thing = pair
    antecedent, other = (animal, thing) if rng.random() < 0.5 else (thing, animal)
    first, second = (animal, thing) if template.animate_first or rng.random() < 0.5 else (thing, animal)
    pred = rng.choice([p for p in PREDICATES if p.fits(antecedent)])
    verb = rng.choice(VERBS)
    place = rng.choice(PLACES)
    values_en = {"n1": [first.en], "n2": [second.en], "verb": [verb[0]], "it": ["it"],
                 "pred": pred.en.split(), "place": [place[0]]}
    values_de = {"NP1_Nom": first.phrase("nom", True), "NP1_nom": first.phrase("nom"),
                 "NP2_nom": second.phrase("nom"), "NP2_acc": second.phrase("acc"),
                 "verb": [verb[1]], "pron": [PRONOUN[antecedent.gender]],
                 "pred": pred.de.split(), "place": place[1].split()}
    src, src_at = _fill(template.en, values_en)
    tgt, tgt_at = _fill(template.de, values_de)
    first_is_antecedent = first is antecedent
    n1_src, n2_src = src_at["n1"], src_at["n2"]
    n1_tgt, n2_tgt = _noun_pos(tgt_at, "NP1"), _noun_pos(tgt_at, "NP2")
    meta = {
        "task": "anaphora",
        "template": template.name,
        "pronoun_pos": src_at["it"],
        "antecedent_pos": n1_src if first_is_antecedent else n2_src,
        "other_pos": n2_src if first_is_antecedent else n1_src,
        "nearest_pos": n2_src,  # "it" always follows the second noun
        "antecedent_first": first_is_antecedent,
        "antecedent": antecedent.en,
        "other": other.en,
        "antecedent_de": antecedent.de,
        "antecedent_gender": antecedent.gender,
        "other_gender": other.gender,
        "predicate": pred.en,
        "pronoun_de": PRONOUN[antecedent.gender],
        "tgt_pronoun_pos": tgt_at["pron"],
        "tgt_antecedent_pos": n1_tgt if first_is_antecedent else n2_tgt,
        "tgt_other_pos": n2_tgt if first_is_antecedent else n1_tgt,
        "pair": (animal.en, thing.en),
    }
    return " ".join(src), " ".join(tgt), meta


def nearest_noun_accuracy(examples) -> float:
    """How often "the noun nearest before 'it'" is the antecedent: the baseline to beat (~0.5)."""
    if not examples:
        raise ValueError("no examples")
    return sum(e.meta["nearest_pos"] == e.meta["antecedent_pos"] for e in examples) / len(examples)


def _fill(pattern: str, values: dict[str, list[str]]) -> tuple[list[str], dict[str, int]]:
    """Fill ``{slot}`` words; return the words and the position of each slot's LAST word."""
    words: list[str] = []
    at: dict[str, int] = {}
    for word in pattern.split():
        if word.startswith("{") and word.endswith("}"):
            slot = word[1:-1]
            words += values[slot]
            at[slot] = len(words) - 1
        else:
            words.append(word)
    return words, at


def _noun_pos(at: dict[str, int], prefix: str) -> int:
    """Target position of a German noun phrase's noun (its last word, after the article)."""
    return next(pos for slot, pos in at.items() if slot.startswith(prefix + "_"))


def _choose_templates(names) -> list[Template]:
    if names is None:
        return list(TEMPLATES)
    by_name = {t.name: t for t in TEMPLATES}
    unknown = [n for n in names if n not in by_name]
    if unknown or not names:
        raise ValueError(f"unknown templates {unknown}; choose from {sorted(by_name)}")
    return [by_name[n] for n in names]
