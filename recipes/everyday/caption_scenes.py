"""Image-caption sentences in which a later pronoun takes up an earlier noun, with German that agrees.

"A woman buys a melon and carries it home ." -> "Eine Frau kauft eine Melone und trägt sie nach
Hause ." A small model translates "it" by habit ("es") unless it has seen, across many everyday
nouns, that the German pronoun follows the antecedent's gender and number (er / sie / es, ihn /
ihm / ihr / ihnen, sein- / ihr-) and the case its own clause needs. These captions (present
tense, third person, a concrete scene, as in Multi30k) put the pronoun where German marks it:

* object_pronoun: after a second verb, with separable verbs and "dann" ("und hebt ihn dann auf");
* dative_pronoun: after a dative verb or preposition ("spielt mit ihm", "läuft ihr hinterher");
* possessive_its: an animal's or a thing's own ("wedelt mit seinem Schwanz", "das Auto und seine Räder");
* possessive_person: his / her / their ("sitzt mit seiner Tochter auf einer Bank");
* main_clause: ", und es ist sehr klein" / ", aber er bewegt sich nicht" (the verb second);
* subordinate: "während", "weil", "bis", "damit ... kann", "wenn", "nachdem" (the verb last);
* two_antecedents: two nouns of different German gender, the verb deciding which one is meant.

Every pair's meta points at the pronoun and the antecedent's noun on both sides.
"""
from __future__ import annotations

import functools
import random

from recipes.everyday.caption_scenes_build import (actor_for, ante_meta, crowd_ok, de_vp, first_clause, fitting,
                                                   pick_adj, pick_det, pick_plural, pred_clause, second_clause,
                                                   where_of)
from recipes.everyday.caption_scenes_clauses import ANIMAL_MAIN, ANIMAL_SCRIPTS, CONJ, MAIN, MAIN_CONJ, PREDS, SCRIPTS
from recipes.everyday.caption_scenes_grammar import (NP, Actor, fill, finish, pick_person,
                                                     prep_phrase, scene_of)
from recipes.everyday.caption_scenes_lexicon import ALL, Noun
from recipes.everyday.caption_scenes_owners import possessive_its, possessive_person
from recipes.everyday.caption_scenes_spots import AFTER_PUT, CONTAINER_VERBS, HUNT, HUNTERS, PUT_INTO, SPOTS, TAKE_FROM
from recipes.everyday.caption_scenes_verbs import BY_KEY, DATIVE, SECOND
from transformer.data.example import Example

FRAMES = {"object_pronoun": 0.17, "dative_pronoun": 0.14, "possessive_its": 0.14, "possessive_person": 0.12,
          "main_clause": 0.13, "subordinate": 0.16, "two_antecedents": 0.14}
# what is done to a thing or animal just put somewhere: "puts a kitten in a basket and pets it"
AFTER_PUT_VERBS = frozenset("pet feed brush hug play_with talk_to give_food give_water photograph sit_next".split())
ON_A_PLATE = frozenset(("cut", "peel", "eat"))  # ... and what is done to food just put on a plate
IN_A_POT = frozenset(("boil",))  # ... or in a pot: "puts three eggs in the pot and boils them"
SAME_KIND = {"children": "child", "women": "woman", "men": "man", "boys": "boy", "girls": "girl"}
# people a "them" stands for: always plural ("two friends", "the children")
GROUPS = tuple(Noun(k, en, en_pl, de, de_pl, g, "person", frozenset(("people", *tags.split())))
               for k, en, en_pl, de, de_pl, g, tags in (
                   ("children", "child", "children", "Kind", "Kinder", "n", "children"),
                   ("friends", "friend", "friends", "Freund", "Freunde", "m", "adults"),
                   ("tourists", "tourist", "tourists", "Tourist", "Touristen", "m", "adults"),
                   ("boys", "boy", "boys", "Junge", "Jungen", "m", "children"),
                   ("girls", "girl", "girls", "Mädchen", "Mädchen", "n", "children"),
                   ("players", "player", "players", "Spieler", "Spieler", "m", "players adults"),
                   ("women", "woman", "women", "Frau", "Frauen", "f", "adults"),
                   ("men", "man", "men", "Mann", "Männer", "m", "adults")))


def _actor_and_thing(rng: random.Random, v1, v2, plural_share: float = 0.28):
    """(who acts, the antecedent's noun phrase) for a scene whose two verbs V1, V2 both take
    the thing or animal as object ("buys a melon and carries it"), or None when none fits."""
    nouns = fitting(v1.key, v2.key)
    if not nouns:
        return None
    noun = ALL[rng.choice(nouns)]
    actor = actor_for(rng, noun, [v1, v2])
    if actor is None:
        return None
    plural = pick_plural(rng, noun, plural_share) and not v1.one
    obj = NP(noun, plural, pick_det(rng, plural, v1.det if v1.det == "a" else "", noun=noun), pick_adj(rng, noun),
             tag="ante")
    return (actor, obj) if crowd_ok(actor, obj, [v1, v2]) else None


def _elsewhere(rng: random.Random, noun: Noun, v1, second) -> tuple[list[str], list[str]]:
    """The first verb's place, or none where the second clause names it again ("finds a bone in the
    garden and buries it in the garden")."""
    where = where_of(rng, noun, v1)
    if second is not None and where[0] and where[0][-1] in second[0]:
        return [], []
    return where


def _did_then(rng: random.Random, frame: str, actor, obj: NP, v1, v2, then: float,
              case: str | None = None) -> Example | None:
    """"ACTOR V1 OBJ and V2 it": the two frames whose pronoun is the second verb's object
    (CASE "dat" for the dative frame; else the case the second clause reports), "dann" in
    a share THEN of them."""
    second = second_clause(rng, actor, v2, obj.noun, obj.g, then=rng.random() < then)
    first = first_clause(rng, actor, v1, obj, _elsewhere(rng, obj.noun, v1, second))
    if first is None or second is None:
        return None
    return finish(frame, [*actor.en, *first[0], "and", *second[0]],
                  [*actor.de, *first[1], "und", *second[1]],
                  **ante_meta(obj, case or second[2], verbs=[v1.key, v2.key]))


def object_pronoun(rng: random.Random) -> Example | None:
    """"A woman buys a melon and carries it home ." -> "... und trägt sie nach Hause ."."""
    v2 = rng.choice(SECOND)
    v1 = BY_KEY[rng.choice(sorted(v2.after))]
    got = _actor_and_thing(rng, v1, v2)
    if got is None:
        return None
    actor, obj = got
    return _did_then(rng, "object_pronoun", actor, obj, v1, v2, then=0.3)


def dative_pronoun(rng: random.Random) -> Example | None:
    """"A girl sees a puppy and plays with it ." -> "... und spielt mit ihm ."; "them" -> "ihnen"."""
    v2 = rng.choice(DATIVE)
    groups = [g for g in GROUPS if v2.fits(g)]
    if groups:
        noun = rng.choice(groups)
        v1 = BY_KEY[rng.choice(sorted(v2.after))]
        actor = pick_person(rng, {"people"}, adult=v2.subj == "a", plural=0.1)
        if actor.who.key == SAME_KIND.get(noun.key) or actor.who.key == noun.en:  # "A woman meets two women"
            return None
        dets = ("two", "three", "some", "several") + (("the",) if noun.key in ("children", "players") else ())
        obj = NP(noun, True, rng.choice(dets), tag="ante")
    else:
        v1 = BY_KEY[rng.choice(sorted(v2.after))]
        got = _actor_and_thing(rng, v1, v2, plural_share=0.25)
        if got is None:
            return None
        actor, obj = got
    return _did_then(rng, "dative_pronoun", actor, obj, v1, v2, then=0.2, case="dat")


def _clause_frame(rng: random.Random, frame: str, conjs: tuple[str, ...]) -> Example | None:
    conj = rng.choice(conjs)
    animal = rng.random() < 0.2 and any(s[0] == conj for s in ANIMAL_SCRIPTS)
    animal = animal or not any(s[0] == conj for s in SCRIPTS)
    _, mains, preds = rng.choice([s for s in (ANIMAL_SCRIPTS if animal else SCRIPTS) if s[0] == conj])
    vkey, p = rng.choice(mains.split()), PREDS[rng.choice(preds.split())]
    v = (ANIMAL_MAIN if animal else MAIN)[vkey]
    nouns = fitting(("a:" if animal else "m:") + vkey, "p:" + p.key)
    if not nouns:
        return None
    noun = ALL[rng.choice(nouns)]
    plural = pick_plural(rng, noun, 0.25) and not v.one
    obj = NP(noun, plural, pick_det(rng, plural, v.det, subject=animal, noun=noun),
             "" if p.adjectival else pick_adj(rng, noun), tag="ante")
    # a place only where the second clause names none of its own ("in the kitchen ... rolls down the hill")
    where = where_of(rng, noun, v, 0.25) if p.adjectival or not (p.tail or p.key in ("roll_away", "sink")) else ([], [])
    en_p, de_p = pred_clause(rng, p, conj, obj.g)
    de_link = [",", CONJ[conj][1]] if conj != "damit" else [",", "damit"]
    en_link = [","] if conj in MAIN_CONJ else []
    if animal:
        forms, last = v.german(noun)
        en = [*obj.en(), *fill(v.tmpl, {"{V}": [obj.plural and v.en[1] or v.en[0]]}), *where[0]]
        de = [*obj.de("nom"), *de_vp(forms[plural], [], "", False, refl=v.refl, where=where[1], mid=v.mid, last=last)]
    else:
        actor = pick_person(rng, scene_of(noun), adult=v.subj == "a")
        if actor.plural and plural:  # "Three women hold some cats while they drink": who drinks?
            return None
        if not crowd_ok(actor, obj, [v]) or (actor.plural and p.key == "too_heavy"):  # too heavy for three?
            return None
        first = first_clause(rng, actor, v, obj, where)
        if first is None:
            return None
        en, de = [*actor.en, *first[0]], [*actor.de, *first[1]]
    return finish(frame, [*en, *en_link, *en_p], [*de, *de_link, *de_p],
                  **ante_meta(obj, "nom", conj=conj, clause="main" if conj in MAIN_CONJ else "sub", pred=p.key))


def main_clause(rng: random.Random) -> Example | None:
    """", and it is very small" -> ", und es ist sehr klein";
    ", but it does not move" -> ", aber er bewegt sich nicht"."""
    return _clause_frame(rng, "main_clause", MAIN_CONJ)


def subordinate(rng: random.Random) -> Example | None:
    """"... because it is tired" -> "..., weil er müde ist"; the verb (and its prefix) last."""
    return _clause_frame(rng, "subordinate", ("während", "weil", "bis", "damit", "wenn", "nachdem"))


@functools.lru_cache(maxsize=None)
def _hosted(hosts: str) -> tuple[str, ...]:
    """The nouns a spot or container holds, by key."""
    want = set(hosts.split())
    return tuple(k for k in ALL if k in want)


def _differ(ante: NP, *others: NP) -> bool:
    """Whether the antecedent's German pronoun tells it from every other noun (gender or number)."""
    return all(o.g != ante.g for o in others)


def _two(rng, frame_en, frame_de, actor: Actor, ante: NP, others: list[NP], rank: int, v=None, p=None):
    """The shared end of the two-antecedent sentences: "and" + the second verb or the pronoun's clause."""
    if not _differ(ante, *others):
        return None
    if v is not None:
        second = second_clause(rng, actor, v, ante.noun, ante.g, then=rng.random() < 0.2)
        if second is None:
            return None
        en, de, case = [*frame_en, "and", *second[0]], [*frame_de, "und", *second[1]], second[2]
    else:
        en_p, de_p = pred_clause(rng, p, "und", ante.g)
        en, de, case = [*frame_en, ",", *en_p], [*frame_de, ",", "und", *de_p], "nom"
    return finish("two_antecedents", en, de, **ante_meta(ante, case, antecedent_rank=rank,
                                                          other_genders=[o.g for o in others]))


def _found(rng: random.Random) -> Example | None:
    """"A boy finds a kitten in a box and pets it ." (the first noun)."""
    en_prep, de_prep, spot_key, hosts = rng.choice(SPOTS)
    spot, x = ALL[spot_key], ALL[rng.choice(_hosted(hosts))]
    firsts = [BY_KEY[k] for k in ("see", "find") if BY_KEY[k].fits(x)]
    if x.key == spot.key or not firsts:
        return None
    v1 = rng.choice(firsts)
    seconds = [v for v in (*SECOND, *DATIVE) if v1.key in v.after and v.fits(x) and not v.fits(spot)]
    if not seconds:
        return None
    v2 = rng.choice(seconds)
    actor = actor_for(rng, x, [v1, v2], 0.2)
    if actor is None:
        return None
    many = pick_plural(rng, x, 0.15)
    obj = NP(x, many, pick_det(rng, many, noun=x), pick_adj(rng, x, 0.2), tag="ante")
    at = NP(spot, False, rng.choice(("a", "a", "the")))
    first = first_clause(rng, actor, v1, obj)
    if first is None or not crowd_ok(actor, obj, [v1, v2]):
        return None
    return _two(rng, [*actor.en, *first[0], *en_prep.split(), *at.en()],
                [*actor.de, *first[1], *prep_phrase(de_prep, at.de("dat"))], actor, obj, [at], 0, v=v2)


def _taken(rng: random.Random) -> Example | None:
    """"A girl takes an apple out of the bag and eats it ." (the first noun)."""
    cont_key, hosts, backwards = rng.choice(TAKE_FROM)
    cont, x = ALL[cont_key], ALL[rng.choice(_hosted(hosts))]
    seconds = [v for v in (*SECOND, *DATIVE) if v.after & {"pick_up", "find", "buy", "get", "see"}
               and v.fits(x) and not v.fits(cont) and "d" not in v.subj and v.key not in ("put_down", "pick_up2")
               and v.key not in backwards.split()]
    if not seconds:
        return None
    v2 = rng.choice(seconds)
    actor = pick_person(rng, scene_of(x), adult=v2.subj == "a")
    many = pick_plural(rng, x, 0.15)
    obj = NP(x, many, pick_det(rng, many, noun=x), pick_adj(rng, x, 0.2), tag="ante")
    if not crowd_ok(actor, obj, ["take_out", v2]):
        return None
    box = NP(cont, False, rng.choice(("the", "the", "a")))
    return _two(rng, [*actor.en, actor.agree(("takes", "take")), *obj.en(), "out", "of", *box.en()],
                [*actor.de, actor.agree(("nimmt", "nehmen")), *obj.de("acc"), "aus", *box.de("dat")],
                actor, obj, [box], 0, v=v2)


def _put_verb(x: Noun, cont: Noun) -> tuple[str, str]:
    """"setzt" an animal, "steckt" into a bag, "stellt" flowers into a vase or an upright thing, "legt" the rest."""
    if x.cls == "animal":
        return "setzt", "setzen"
    if cont.key in ("bag", "backpack"):
        return "steckt", "stecken"
    if cont.key == "vase" or x.pose == "stand":
        return "stellt", "stellen"
    return "legt", "legen"


def _put(rng: random.Random) -> Example | None:
    """"A girl puts a ball in a box and closes it ." (the second noun), "... and pets it ." (the
    first), "A boy puts a kitten in a basket , and it falls asleep ." (whichever the predicate fits)."""
    cont_key, en_prep, de_prep, hosts = rng.choice(PUT_INTO)
    cont, x = ALL[cont_key], ALL[rng.choice(_hosted(hosts))]
    many = pick_plural(rng, x, 0.2) or (cont.key == "wheelbarrow" and "heavy" not in x.tags)  # not one stone
    r = rng.random()
    v = p = None
    if r < 0.25:
        preds = [PREDS[k] for k in AFTER_PUT.split() if PREDS[k].fits(x) != PREDS[k].fits(cont)
                 and (k != "full" or many)]  # one sandwich does not fill a backpack
        if not preds:
            return None
        p = rng.choice(preds)
        target = x if p.fits(x) else cont
    elif r < 0.65:
        verbs = [c for c in CONTAINER_VERBS if c.fits(cont) and not c.fits(x)]
        target = cont
    else:
        allowed = AFTER_PUT_VERBS | {"plate": ON_A_PLATE, "pot": IN_A_POT}.get(cont.key, frozenset())
        verbs = [c for c in (*SECOND, *DATIVE) if c.key in allowed and c.fits(x) and not c.fits(cont)]
        target = x
    if p is None:
        if not verbs:
            return None
        v = rng.choice(verbs)
    actor = pick_person(rng, scene_of(x), adult=v is not None and v.subj == "a")
    if p is not None and actor.plural and target is x and many:  # "they" would name the people too
        return None
    obj = NP(x, many, pick_det(rng, many, noun=x), pick_adj(rng, x, 0.2), tag="ante" if target is x else "")
    if not crowd_ok(actor, obj, ["put"]):  # "Three men put a book in a bag"
        return None
    box = NP(cont, False, rng.choice(("a", "the")), tag="ante" if target is cont else "")
    ante, other = (obj, box) if target is x else (box, obj)
    return _two(rng, [*actor.en, actor.agree(("puts", "put")), *obj.en(), en_prep, *box.en()],
                [*actor.de, actor.agree(_put_verb(x, cont)), *obj.de("acc"), *prep_phrase(de_prep, box.de("acc"))],
                actor, ante, [other], 0 if target is x else 1, v=v, p=p)


def _hunt(rng: random.Random) -> Example | None:
    """"A dog sees a cat on a fence and barks at it ." (the second noun: the dog is the first)."""
    hunter = ALL[rng.choice(sorted(HUNTERS))]
    prey = ALL[rng.choice(HUNTERS[hunter.key].split())]
    verbs = [h for h in HUNT if h.fits(prey) and (h.key != "bark_at" or hunter.key in ("dog", "puppy"))]
    subj = NP(hunter, False, "a", pick_adj(rng, hunter, 0.3))
    obj = NP(prey, pick_plural(rng, prey, 0.15), "a", pick_adj(rng, prey, 0.2), tag="ante")
    spots = [s for s in SPOTS if prey.key in _hosted(s[3])]
    en_at, de_at, others = [], [], [subj]
    if spots and rng.random() < 0.6:
        en_prep, de_prep, spot_key, _ = rng.choice(spots)
        at = NP(ALL[spot_key], False, rng.choice(("a", "the")))
        en_at, de_at, others = [*en_prep.split(), *at.en()], prep_phrase(de_prep, at.de("dat")), [subj, at]
    actor = Actor(subj.en(), subj.de("nom"), False, "its", hunter.gender, hunter, own_ok=False)
    return _two(rng, [*actor.en, "sees", *obj.en(), *en_at], [*actor.de, "sieht", *obj.de("acc"), *de_at],
                actor, obj, others, 1, v=rng.choice(verbs))


def two_antecedents(rng: random.Random) -> Example | None:
    r = rng.random()
    if r < 0.3:
        return _found(rng)
    if r < 0.5:
        return _taken(rng)
    if r < 0.85:
        return _put(rng)
    return _hunt(rng)


_BUILDERS = {"object_pronoun": object_pronoun, "dative_pronoun": dative_pronoun, "possessive_its": possessive_its,
             "possessive_person": possessive_person, "main_clause": main_clause, "subordinate": subordinate,
             "two_antecedents": two_antecedents}
assert set(_BUILDERS) == set(FRAMES) and abs(sum(FRAMES.values()) - 1) < 1e-9


def generate(n: int, seed: int = 0) -> list[Example]:
    """N distinct pairs (by English), the frames drawn by FRAMES' shares, the same for a SEED."""
    rng = random.Random(f"caption_scenes:{seed}")
    names = list(FRAMES)
    weights = [FRAMES[k] for k in names]
    out: list[Example] = []
    seen: set[str] = set()
    misses = 0
    while len(out) < n:
        frame = rng.choices(names, weights)[0]
        for _ in range(200):
            ex = _BUILDERS[frame](rng)
            if ex is not None and ex.src not in seen:
                seen.add(ex.src)
                out.append(ex)
                break
        else:
            misses += 1
            if misses > 1000:
                raise RuntimeError(f"caption_scenes: cannot find {n} distinct pairs ({len(out)} so far)")
    return out
