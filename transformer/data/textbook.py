"""Textbook anaphora: Winograd-style minimal pairs in which one word decides what "it" is.

    The dog didn't cross the river because it was too tired .   Der Hund überquerte den Fluss nicht , weil er zu müde war .
    The dog didn't cross the river because it was too deep .    Der Hund überquerte den Fluss nicht , weil er zu tief war .

Nothing but the deciding word differs between the two sentences of a pair, and the two candidate
nouns always differ in German gender, so the German pronoun flips with the antecedent (er / sie
/ es): a model that translates both right has read the deciding word. A caption corpus has none
of this; a teacher types it first.

Frames (all singular, third person; German verb-final after ", weil"):

* ``too``: "The A didn't / couldn't / doesn't / can't VERB the T because it was / is too ADJ ."
  where ADJ is a state of the animal ("tired", "scared", "weak") or a property of the thing
  ("wide", "heavy", "hot"), each verb with its own things and adjectives (textbook_lexicon.VERBS).
* ``not``: "... because it wasn't hungry ." against "... because it wasn't fresh ."
* ``glad``: positive, simple past: "The cat ate the cake because it was hungry / delicious ."
* ``fit``: relational, two things: "The ball doesn't fit into the bag because it is too big /
  small ." ("too big" is the ball, "too small" the bag), also fit in / through / under / on, with
  the thing too big, long, tall, wide or thick and the place too small, full, narrow, short or low.
* ``tool``: a thing acting on a thing, both "it": "The saw couldn't cut the branch because it was
  too blunt / thick .", also hold, reach, pull, heat, cover, drive through, and things met outside:
  a nail going into a wall, a pen writing on paper ("auf dem Papier": the dative), a jacket
  keeping out the rain, a tent surviving the storm, a boat sailing up a river, a lorry driving
  over a bridge or onto the ice, a bus stopping in a village ("im Dorf"), a helicopter landing on
  an island (textbook_lexicon.TOOLS).
* ``chase``: one animal fails to catch another: "The fox couldn't catch the rabbit because it
  was too slow / quick ." (textbook_lexicon.CHASES; the lion, the bear and the eagle too).
* ``obj``: object "it" in a second clause, the person's verb deciding: "The goat dropped the
  coffee , and Max patted / drank it ." -> ", und Max streichelte sie / trank ihn ." (accusative).
* ``poss``: "its" and the part it owns: "The owl couldn't climb onto the tractor because its foot /
  seat was wet ." -> "weil ihr Fuß / sein Sitz nass war" (the owner's stem, the part's ending).

In ``too`` the mover can be the heavy one too ("The goose couldn't walk onto the ice because it
was too heavy / thin ."; walk onto, swim through, fly over, sit on, each with the animals that can),
and 30% of ``too`` and ``tool`` pairs drop "too" ("because it was hot ."); a pair whose adjective
takes no "too" ("injured", "locked", "burnt": NO_TOO) always drops it. "touch" and "open" carry the
everyday states and properties ("sleepy", "sad"; "rotten", "locked") to many nouns.

Tenses: didn't, couldn't, doesn't, can't, won't (an animal's "will ... nicht VERB", a thing's "wird
... nicht VERB"), and the simple past.

Splits are over the (first noun, second noun) pair by a hash, as in anaphora.py and
classroom.py: the test split's noun pairs never occur in training. The blog post's sentences
(animal / street, tired / wide) and the trophy / suitcase pair are never generated: they are the
public test (FORBIDDEN_TOGETHER; tests/test_textbook.py checks it). Word positions in ``meta``
index ``src.split()`` / ``tgt.split()``, as the supervision and the head finder read them.
"""
from __future__ import annotations

import functools
import random

from transformer.data.example import Example
from transformer.data.splits import canonical_split, hash_split
from transformer.data.textbook_lexicon import (
    AFRAID,
    AFRAID_SIDES,
    ANIMAL_HANDLES,
    ANIMAL_PARTS,
    ANIMALS,
    BIRDS_ONLY_SIT,
    CHASE_VERB,
    CHASER_STATES,
    CHASES,
    ESCAPES,
    FINDS,
    FIT_DE,
    FIT_PLACES,
    FIT_THINGS,
    FORBIDDEN_TOGETHER,
    FORBIDDEN_WORDS,
    MEAT_EATERS,
    MEAT_FOOD,
    NEEDS_TOO,
    NO_TOO,
    PARTS,
    PEOPLE,
    PLANT_EATERS,
    PLANT_FOOD,
    POSS_ADJS,
    POSS_VERBS,
    PROPERTIES,
    STATES,
    THING_HANDLES,
    THING_PARTS,
    THINGS,
    TOOL_ADJS,
    TOOLS,
    VERBS,
    WATER_ONLY,
    WEAK,
    WILD,
    YOUNG,
    Adj,
    Noun,
    Tool,
    Verb,
)

FRAMES = ("too", "not", "glad", "fit", "tool", "obj", "poss", "chase", "afraid")
FRAME_WEIGHTS = {"too": 0.26, "not": 0.06, "glad": 0.07, "fit": 0.15, "tool": 0.21, "obj": 0.11,
                 "poss": 0.08, "chase": 0.07, "afraid": 0.06}
BARE = 0.3  # share of "too" and "tool" pairs said without "too": "because it was hot ."
OBJ_SO = 0.4  # share of "obj" pairs joined by ", so" (German ", also" + verb second) not ", and"
TENSES = {  # English auxiliary, English copula, the Verb field of the German phrase, German copula
    "didn't": ("was", "de_past_neg", "war"),
    "couldn't": ("was", "de_modal_neg", "war"),
    "doesn't": ("is", "de_pres_neg", "ist"),
    "can't": ("is", "de_can_neg", "ist"),
    "won't": ("is", "de_wont_neg", "ist"),
}
NOM = {"m": "der", "f": "die", "n": "das"}
ACC = {"m": "den", "f": "die", "n": "das"}
DAT = {"m": "dem", "f": "der", "n": "dem"}
PRONOUN = {"m": "er", "f": "sie", "n": "es"}
ACC_PRONOUN = {"m": "ihn", "f": "sie", "n": "es"}


def possessive(owner: str, owned: str) -> str:
    """German "its" in the nominative: the stem from the owner's gender, the ending from the
    owned noun's ("ihre Pfote", "sein Sitz", "seine Motorhaube")."""
    return ("ihr" if owner == "f" else "sein") + ("e" if owned == "f" else "")
DEFAULT_N = {"train": 10000, "val": 500, "test": 500}


def pair_split(first: str, second: str) -> str:
    """By the unordered noun pair: "table" is a thing in one frame and a place in another."""
    first, second = sorted((first, second))
    return hash_split(f"textbook:{first}+{second}")


def forbidden(text: str) -> bool:
    words = set(text.lower().split())
    return bool(words & set(FORBIDDEN_WORDS)) or any(a in words and b in words
                                                     for a, b in FORBIDDEN_TOGETHER)


class _Sentence:
    """Tokens with named positions: ``add("noun", "dog")`` appends and remembers where."""

    def __init__(self):
        self.words: list[str] = []
        self.at: dict[str, int] = {}

    def add(self, text: str, name: str | None = None) -> _Sentence:
        if name:
            self.at[name] = len(self.words)
        self.words.extend(text.split())
        return self

    def phrase(self, template: str, obj: Noun, name: str, case: str = "acc") -> _Sentence:
        """A German verb phrase with "{O}" replaced by the object's noun phrase in CASE
        (accusative, or dative after "auf" / "in" of place: "auf dem Papier"; "in dem" is
        said "im": "hielt nicht im Dorf")."""
        before, after = template.split("{O}")
        article = (ACC if case == "acc" else DAT)[obj.gender]
        if article == "dem" and before.split()[-1:] == ["in"]:
            before, article = before.rsplit("in", 1)[0], "im"
        self.add(before).add(article).add(obj.de, name).add(after)
        return self

    def text(self) -> str:
        return " ".join(self.words)


def _example(en: _Sentence, de: _Sentence, first: Noun, second: Noun, ante: str, word: str,
             frame: str, key: str, split: str, extra: dict) -> Example:
    noun = first if ante == "S" else second
    meta = {"task": "textbook", "frame": frame, "split": split, "pair": key,
            "deciding_word": word, "pronoun": "it", "pronoun_case": "nom",
            "pronoun_pos": en.at["P"], "antecedent_pos": en.at[ante],
            "candidates_pos": [en.at["S"], en.at["O"]], "antecedent": noun.en,
            "antecedent_de": noun.de, "antecedent_gender": noun.gender,
            "antecedent_first": ante == "S", "pronoun_de": PRONOUN[noun.gender],
            "tgt_pronoun_pos": de.at["P"], "tgt_antecedent_pos": de.at[ante],
            "tgt_candidates_pos": [de.at["S"], de.at["O"]], **extra}
    return Example(en.text(), de.text(), meta)


def _verb_pair(rng: random.Random, verb: Verb, animal: Noun, thing: Noun, frame: str, split: str):
    if frame == "too":
        aux = rng.choice([t for t in TENSES if not verb.tenses or t in verb.tenses])
        be_en, field, be_de = TENSES[aux]
        states = [x for x in verb.states if not (x == "old" and animal.en in YOUNG)]
        state, prop = rng.choice(states), rng.choice(verb.properties)
        while {state, prop} & NO_TOO and {state, prop} & NEEDS_TOO:  # "injured" against "too cold"
            state, prop = rng.choice(states), rng.choice(verb.properties)
        sides = (("S", state, STATES), ("O", prop, PROPERTIES))
        pre_en, pre_de, de_phrase, verb_en = f"{be_en} too", "zu", getattr(verb, field), verb.en
        if (rng.random() < BARE or {state, prop} & NO_TOO) and not {state, prop} & NEEDS_TOO:
            pre_en, pre_de = be_en, ""
        aux_words = aux
    elif frame == "not":
        aux_words, be_de, verb_en = "didn't", "war", verb.en
        sides = (("S", rng.choice(verb.not_states), STATES),
                 ("O", rng.choice(verb.not_properties), PROPERTIES))
        pre_en, pre_de, de_phrase = "wasn't", "nicht", verb.de_past_neg
    else:  # glad
        aux_words, be_de, verb_en = "", "war", verb.en_past
        sides = (("S", rng.choice(verb.glad_states), STATES),
                 ("O", rng.choice(verb.glad_properties), PROPERTIES))
        pre_en, pre_de, de_phrase = "was", "", verb.de_past
    key = f"{frame}:{verb.en}:{animal.en}:{thing.en}:{sides[0][1]}:{sides[1][1]}"
    out = []
    for ante, word, table in sides:
        adj: Adj = table[word]
        en = (_Sentence().add("The").add(animal.en, "S").add(f"{aux_words} {verb_en} the")
              .add(thing.en, "O").add("because").add("it", "P").add(f"{pre_en} {word} ."))
        de = (_Sentence().add(NOM[animal.gender].capitalize()).add(animal.de, "S")
              .phrase(de_phrase, thing, "O").add(",").add("weil").add(PRONOUN[(animal if ante == "S" else thing).gender], "P")
              .add(f"{pre_de} {adj.de} {be_de} ."))
        out.append(_example(en, de, animal, thing, ante, word, frame, key, split,
                            {"verb": verb.en, "tense": aux_words or "past"}))
    return out


def _fit_pair(rng: random.Random, thing: Noun, place: Noun, prep_en: str, split: str):
    prep_de, _, thing_words, place_words = FIT_PLACES[prep_en]
    big = FIT_DE[rng.choice(thing_words.split())]
    small = FIT_DE[rng.choice(place_words.split())]
    present = rng.random() < 0.5
    aux, be_en, fit_de, be_de = (("doesn't", "is", "passt", "ist") if present
                                 else ("didn't", "was", "passte", "war"))
    key = f"fit:{thing.en}:{prep_en}:{place.en}:{big.en}:{small.en}"
    out = []
    for ante, adj in (("S", big), ("O", small)):
        en = (_Sentence().add("The").add(thing.en, "S").add(f"{aux} fit {prep_en} the")
              .add(place.en, "O").add("because").add("it", "P").add(f"{be_en} too {adj.en} ."))
        de = (_Sentence().add(NOM[thing.gender].capitalize()).add(thing.de, "S")
              .add(f"{fit_de} nicht {prep_de}").add(ACC[place.gender]).add(place.de, "O")
              .add(", weil").add(PRONOUN[(thing if ante == "S" else place).gender], "P")
              .add(f"zu {adj.de} {be_de} ."))
        out.append(_example(en, de, thing, place, ante, adj.en, "fit", key, split,
                            {"verb": "fit " + prep_en, "tense": aux}))
    return out


def _tool_pair(rng: random.Random, tool: Tool, subject: Noun, obj: Noun, split: str):
    """A thing acting on a thing: the deciding word names a failing of one of them."""
    aux = rng.choice([t for t in TENSES if not tool.tenses or t in tool.tenses])
    be_en, field, be_de = TENSES[aux]
    while True:  # "bent" (said bare) against "too cold" (said with "too") is no pair
        sides = (("S", TOOL_ADJS[rng.choice(tool.subject_adjs)]),
                 ("O", TOOL_ADJS[rng.choice(tool.object_adjs)]))
        words = {adj.en for _, adj in sides}
        if not (words & NO_TOO and words & NEEDS_TOO):
            break
    bare = (rng.random() < BARE or words & NO_TOO) and not words & NEEDS_TOO
    too_en, too_de = ("", "") if bare else ("too", "zu")
    key = f"tool:{tool.en}:{subject.en}:{obj.en}:{sides[0][1].en}:{sides[1][1].en}"
    return _acting_pair(subject, obj, f"{aux} {tool.en}", getattr(tool, field), tool.case,
                        [(ante, adj.en, tool.german(adj.en)) for ante, adj in sides],
                        f"{be_en} {too_en}", too_de, be_de, "tool", key, split,
                        {"verb": tool.en, "tense": aux})


def _acting_pair(subject: Noun, obj: Noun, verb_en: str, de_phrase: str, case: str,
                 sides: list[tuple[str, str, str]], before_en: str, before_de: str, be_de: str,
                 frame: str, key: str, split: str, extra: dict) -> list[Example]:
    """The two sentences "The S VERB the O because it BEFORE ADJ ." of a tool or chase pair,
    one for each (antecedent, English adjective, German adjective) of SIDES."""
    out = []
    for ante, adj_en, adj_de in sides:
        en = (_Sentence().add("The").add(subject.en, "S").add(f"{verb_en} the")
              .add(obj.en, "O").add("because").add("it", "P").add(f"{before_en} {adj_en} ."))
        de = (_Sentence().add(NOM[subject.gender].capitalize()).add(subject.de, "S")
              .phrase(de_phrase, obj, "O", case).add(",").add("weil")
              .add(PRONOUN[(subject if ante == "S" else obj).gender], "P")
              .add(f"{before_de} {adj_de} {be_de} ."))
        out.append(_example(en, de, subject, obj, ante, adj_en, frame, key, split, extra))
    return out


def _chase_pair(rng: random.Random, chaser: Noun, prey: Noun, split: str):
    """One animal fails to catch another: "The cat didn't catch the bird because it was too slow /
    fast ." The chaser's state against what makes the prey get away."""
    aux = rng.choice(("didn't", "couldn't", "doesn't", "can't"))
    be_en, _, be_de = TENSES[aux]
    de_phrase = dict(zip(("didn't", "couldn't", "doesn't", "can't"), CHASE_VERB[1:]))[aux]
    states = [x for x in CHASER_STATES if not (x == "old" and chaser.en in YOUNG)]
    sides = (("S", STATES[rng.choice(states)]), ("O", ESCAPES[rng.choice(list(ESCAPES))]))
    bare = (rng.random() < BARE or sides[0][1].en in NO_TOO) and sides[0][1].en not in NEEDS_TOO
    too_en, too_de = ("", "") if bare else ("too", "zu")
    key = f"chase:{chaser.en}:{prey.en}:{sides[0][1].en}:{sides[1][1].en}"
    return _acting_pair(chaser, prey, f"{aux} {CHASE_VERB[0]}", de_phrase, "acc",
                        [(ante, adj.en, adj.de) for ante, adj in sides], f"{be_en} {too_en}",
                        too_de, be_de, "chase", key, split, {"verb": CHASE_VERB[0], "tense": aux})


def _afraid_pair(rng: random.Random, subject: Noun, obj: Noun, split: str):
    """One animal (not) afraid of another: "The mouse wasn't afraid of the dog because it was brave
    / small ." (AFRAID_SIDES says which words name which animal, negated or not.)"""
    aux = rng.choice(tuple(AFRAID))
    be_en, de_phrase, be_de = AFRAID[aux]
    subj_words, obj_words = AFRAID_SIDES[aux.endswith("n't")]
    sides = (("S", subj_words[rng.choice(list(subj_words))]),
             ("O", obj_words[rng.choice(list(obj_words))]))
    key = f"afraid:{subject.en}:{obj.en}:{aux}:{sides[0][1].en}:{sides[1][1].en}"
    return _acting_pair(subject, obj, f"{aux} afraid of", de_phrase, "dat",
                        [(ante, adj.en, adj.de) for ante, adj in sides], be_en, "", be_de,
                        "afraid", key, split, {"verb": "afraid of", "tense": aux})


def _obj_pair(rng: random.Random, animal: Noun, thing: Noun, handle: str, split: str):
    """Object "it" in a second clause: "The dog found the jacket , and Lisa wore / patted it ."
    or ", so Lisa wore / patted it ." (German "also" puts the verb before the person: ", also
    trug Lisa sie .")."""
    find = rng.choice(list(FINDS))
    person = rng.choice(list(PEOPLE))
    sides = (("S", rng.choice(list(ANIMAL_HANDLES))), ("O", handle))
    so = rng.random() < OBJ_SO
    key = f"obj:{find}:{animal.en}:{thing.en}:{person}:{sides[0][1]}:{handle}" + (":so" if so else "")
    out = []
    for ante, verb in sides:
        de_verb = ANIMAL_HANDLES[verb] if ante == "S" else THING_HANDLES[verb][0]
        before, after = de_verb.split("{P}")
        second = (f", also {before.strip()} {PEOPLE[person]}" if so
                  else f", und {PEOPLE[person]} {before}")
        en = (_Sentence().add("The").add(animal.en, "S").add(f"{find} the").add(thing.en, "O")
              .add(f", {'so' if so else 'and'} {person} {verb}").add("it", "P").add("."))
        de = (_Sentence().add(NOM[animal.gender].capitalize()).add(animal.de, "S")
              .phrase(FINDS[find], thing, "O").add(second)
              .add(ACC_PRONOUN[(animal if ante == "S" else thing).gender], "P").add(f"{after} ."))
        ex = _example(en, de, animal, thing, ante, verb, "obj", key, split,
                      {"verb": find, "tense": "past"})
        ex.meta.update(pronoun_case="acc", pronoun_de=ACC_PRONOUN[ex.meta["antecedent_gender"]])
        out.append(ex)
    return out


def _poss_pair(rng: random.Random, animal: Noun, thing: Noun, verb: str, split: str):
    """"its" and the part it owns: "The cat didn't jump onto the chair because its paw / seat was
    wet ." German "ihre Pfote" against "sein Sitz"."""
    aux = rng.choice(("didn't", "couldn't"))
    de_phrase = POSS_VERBS[verb][aux == "couldn't"]
    adj = POSS_ADJS[rng.choice(list(POSS_ADJS))]
    sides = (("S", PARTS[rng.choice(ANIMAL_PARTS[animal.en])]),
             ("O", PARTS[rng.choice(THING_PARTS[thing.en])]))
    key = f"poss:{verb}:{animal.en}:{thing.en}:{sides[0][1].en}:{sides[1][1].en}:{adj.en}"
    out = []
    for ante, part in sides:
        owner = animal if ante == "S" else thing
        word = possessive(owner.gender, part.gender)
        en = (_Sentence().add("The").add(animal.en, "S").add(f"{aux} {verb} the").add(thing.en, "O")
              .add("because").add("its", "P").add(f"{part.en} was {adj.en} ."))
        de = (_Sentence().add(NOM[animal.gender].capitalize()).add(animal.de, "S")
              .phrase(de_phrase, thing, "O").add(", weil").add(word, "P")
              .add(f"{part.de} {adj.de} war ."))
        ex = _example(en, de, animal, thing, ante, part.en, "poss", key, split,
                      {"verb": verb, "tense": aux})
        ex.meta.update(pronoun="its", pronoun_case="poss", pronoun_de=word)
        out.append(ex)
    return out


def _land_animals(wild: bool = False) -> list[Noun]:
    """The animals a frame may name: never the fish and seal (WATER_ONLY); the zoo's and the
    wild's (WILD) only where WILD says so."""
    return [a for a in ANIMALS.values() if a.en not in WATER_ONLY and (wild or a.en not in WILD)]


def _in_split(a: Noun, b: Noun, split: str) -> bool:
    """Whether the nouns A and B may pair in SPLIT: their pair hashes there (so a noun pair never
    crosses from train into val or test), and it is not one of the public test pairs."""
    return pair_split(a.en, b.en) == split and not forbidden(f"{a.en} {b.en}")


@functools.cache
def _obj_choices(split: str) -> tuple:
    """(animal, thing, the thing's verb) of this split whose two nouns differ in gender."""
    out = []
    for verb, (_, things) in THING_HANDLES.items():
        for t in (THINGS[x] for x in things.split()):
            for a in _land_animals():
                if a.gender != t.gender and _in_split(a, t, split):
                    out.append((a, t, verb))
    return tuple(out)


@functools.cache
def _poss_choices(split: str) -> tuple:
    """(animal, thing, verb) of this split: one owner feminine, the other not, so "ihr-" and
    "sein-" tell them apart (a masculine and a neuter owner both say "sein")."""
    out = []
    for a in (ANIMALS[x] for x in ANIMAL_PARTS):
        for t in (THINGS[x] for x in THING_PARTS):
            if (a.gender == "f") != (t.gender == "f") and _in_split(a, t, split):
                out.extend((a, t, verb) for verb in POSS_VERBS
                           if verb == "sit on" or a.en not in BIRDS_ONLY_SIT)
    return tuple(out)


@functools.cache
def _verb_choices(split: str, frame: str) -> tuple:
    """(verb, animal, thing) triples of this split whose two nouns differ in gender."""
    out = []
    for verb in VERBS:
        if frame == "not" and not verb.not_states or frame == "glad" and not verb.glad_states:
            continue
        for a in (ANIMALS[x] for x in verb.subjects) if verb.subjects else _land_animals(verb.wild):
            for t in (THINGS[o] for o in verb.objects):
                if verb.food and a.en in PLANT_EATERS and t.en not in PLANT_FOOD:
                    continue  # "The donkey didn't eat the meat"
                if verb.food and a.en in MEAT_EATERS and t.en not in MEAT_FOOD:
                    continue  # "The lion didn't eat the cake"
                if a.gender != t.gender and _in_split(a, t, split):
                    out.append((verb, a, t))
    return tuple(out)


@functools.cache
def _fit_choices(split: str) -> tuple:
    """(thing, place, preposition) of this split: genders differ, and the thing (almost) fits."""
    out = []
    for prep, (_, places, _, _) in FIT_PLACES.items():
        for x, size in FIT_THINGS.items():
            for y, cap in places.items():
                a, b = THINGS[x], THINGS[y]
                if x != y and a.gender != b.gender and cap in (size, size + 1) \
                        and _in_split(a, b, split):
                    out.append((a, b, prep))
    return tuple(out)


@functools.cache
def _tool_choices(split: str) -> tuple:
    out = []
    for tool in TOOLS:
        for x in tool.subjects:
            for y in tool.objects:
                a, b = THINGS[x], THINGS[y]
                if x != y and a.gender != b.gender and _in_split(a, b, split):
                    out.append((tool, a, b))
    return tuple(out)


@functools.cache
def _chase_choices(split: str) -> tuple:
    """(chaser, prey) of this split whose genders differ; the prey is no weak masculine."""
    return tuple((ANIMALS[c], ANIMALS[p]) for c, preys in CHASES.items() for p in preys
                 if p not in WEAK and ANIMALS[c].gender != ANIMALS[p].gender
                 and _in_split(ANIMALS[c], ANIMALS[p], split))


@functools.cache
def _afraid_choices(split: str) -> tuple:
    """(subject, object) animals of this split whose genders differ; the object (after "vor",
    dative) is no weak masculine, and "animal" itself is neither."""
    land = [a for a in _land_animals() if a.en != "animal"]
    return tuple((a, b) for a in land for b in land
                 if b.en not in WEAK and a.gender != b.gender and _in_split(a, b, split))


MAKERS = {"fit": (_fit_choices, _fit_pair), "tool": (_tool_choices, _tool_pair),
          "obj": (_obj_choices, _obj_pair), "poss": (_poss_choices, _poss_pair),
          "chase": (_chase_choices, _chase_pair), "afraid": (_afraid_choices, _afraid_pair)}


def generate(split: str = "train", n: int | None = None, seed: int = 0,
             frames: tuple[str, ...] | list[str] | None = None) -> list[Example]:
    """``n`` examples (``n // 2`` minimal pairs, each pair's two sentences side by side; an odd
    ``n`` drops the last), the same for the same (split, n, seed, frames)."""
    split = canonical_split(split)
    n = DEFAULT_N[split] if n is None else n
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise ValueError(f"n must be a non-negative int, got {n!r}")
    chosen = tuple(FRAMES if frames is None else frames)
    bad = [f for f in chosen if f not in FRAMES]
    if bad or not chosen:
        raise ValueError(f"frames must be a non-empty subset of {FRAMES} (got {list(chosen)})")
    rng = random.Random(f"textbook:{split}:{seed}")
    weights = [FRAME_WEIGHTS[f] for f in chosen]
    out: list[Example] = []
    while len(out) + 2 <= n:
        frame = rng.choices(chosen, weights)[0]
        if frame in MAKERS:
            choices, make = MAKERS[frame]
            options = choices(split)
            if not options:
                continue
            pair = make(rng, *rng.choice(options), split)
        else:
            options = _verb_choices(split, frame)
            pair = _verb_pair(rng, *rng.choice(options), frame, split)
        if not any(forbidden(ex.src) for ex in pair):
            out.extend(pair)
    return out
