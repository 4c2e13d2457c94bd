"""The classroom generator's sentence templates: the English and German of each caption shape.

A template builds one (src, tgt, meta) from an (animal, thing) pair, a pronoun and the
antecedent's role, writing the German by hand (V2 main clauses, verb-final subordinate clauses,
case after verbs and prepositions) and choosing a predicate, part or verb that fits the
antecedent alone; `make_example` dispatches to the builders. The words come from
transformer/data/classroom_lexicon.py; the splits, `generate` and the CLI from classroom.py.
"""
from __future__ import annotations

import contextlib
import contextvars
import random
from dataclasses import dataclass

from transformer.data.classroom_lexicon import (ACC_PRON, COLOUR_WORDS, DAT_PRON, INTO_WATER,
    IN_WATER, NOM_PRON, NP, NUMBERS, Noun, OBJ_FIRST_VERBS, OBJ_PLACES, OBJ_VERBS, ObjVerb, PARTS,
    PART_VERBS, PEOPLE, PERSON_POSTURES, PERSON_VERBS, PLACES, POSS_END, PREDICATES, PREP_VERBS,
    Part, STATE_DE, STILL_VERBS, THINGS, THING_VERBS, VERBS, YARD)


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
        "task": "classroom_pronouns", "template": template, "pronoun": pronoun,
        "pronoun_case": {"it": "nom", "they": "nom", "them": "acc"}.get(pronoun, "poss"),  # extra may say "acc"
        "pronoun_pos": en.at["pron"],
        "antecedent_pos": en.at[ante],
        "other_pos": max((en.at[r] for r in others), key=lambda p: (p < en.at["pron"], p)),
        "others_pos": sorted(en.at[r] for r in others),
        "candidates_pos": cands, "nearest_pos": max(before), "first_pos": cands[0],
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


# the subject clause's frames ("as it is rolling" is Multi30k's "as they walk"); "because" only
# when asked (generate(because=True)): measured, it did not help
CLAUSE_FRAMES = ("while", "and", "but", "as")
_FRAMES: contextvars.ContextVar[tuple[str, ...]] = contextvars.ContextVar(
    "classroom_clause_frames", default=CLAUSE_FRAMES)


@contextlib.contextmanager
def clause_frames(because: bool):
    """Within the context, subject clauses may also be "because it ..." (", weil ...")."""
    token = _FRAMES.set(CLAUSE_FRAMES + (("because",) if because else ()))
    try:
        yield
    finally:
        _FRAMES.reset(token)


def _clause(rng, en: _Sent, de: _Sent, nps, ante: str, plural: bool, still: bool = False):
    """Append ", and it is empty" / "while it is running" to both sentences; the predicate or None.
    ``still``: the antecedent is the subject of "sits / stands / lies next to"."""
    frame = rng.choice(_FRAMES.get())
    pred = _pick_predicate(rng, nps, ante, plural, dynamic_only=frame in ("while", "as"), still=still)
    if pred is None:
        return None
    pron_en = "they" if plural else "it"
    if frame in ("while", "as", "because"):  # German: ", während" / ", weil" and the verb last
        en.add(frame).mark("pron", [pron_en]).add(pred.en_pl if plural else pred.en_sg, ".")
        de.add(",", "weil" if frame == "because" else "während").mark("pron", [_pron_de(nps, ante)])
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
