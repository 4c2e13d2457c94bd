"""The possessive frames of recipes/everyday/caption_scenes.py: its / their, his / her.

"A dog wags its tail" -> "Ein Hund wedelt mit seinem Schwanz", "A cat sleeps in its basket" ->
"... in ihrem Korb", "A duck and its chicks swim on the lake", "A man washes the car and its
wheels", "A girl holds a balloon by its string", "A woman sits with her daughter on a bench":
the possessive's stem follows the owner (the antecedent the meta points at), its ending the owned
noun's gender, number and case; the meta says both, so a test can check the ending.
"""
from __future__ import annotations

import functools
import random

from recipes.everyday import caption_scenes_possessives as own
from recipes.everyday.caption_scenes_build import (PAIRS, ante_meta, crowd_ok, de_vp, pick_adj, pick_det, pick_plural,
                                                   split_obj, where_of)
from recipes.everyday.caption_scenes_grammar import NP, fill, finish, owner_of, pick_person, scene_of
from recipes.everyday.caption_scenes_lexicon import ALL, ANIMALS, FOODS, PEOPLE
from transformer.data.example import Example


HOMEBOUND = frozenset(("sleep_in", "eat_from", "drink_from", "build_nest", "sit_eggs"))  # no "stall in a meadow"


@functools.lru_cache(maxsize=None)
def _owners(row_key: str, body: bool) -> tuple[str, ...]:
    row = next(r for r in (own.BODY if body else own.HAS) if r.key == row_key)
    return tuple(k for k, n in ANIMALS.items() if row.owned(n))


def _owned_number(rng, row, owner_plural: bool, key: str) -> bool:
    if row.number == "pl" or key in PAIRS:
        return True
    if row.number == "either":
        return rng.random() < 0.5
    return row.number == "each" and owner_plural


def _poss_meta(owner: NP, owned: NP, case: str, **extra) -> dict:
    return ante_meta(owner, "poss", possessed_gender=owned.noun.gender, possessed_plural=owned.plural,
                 possessed_case=case, **extra)


def _animal_has(rng: random.Random, body: bool) -> Example | None:
    """"A dog wags its tail ." / "A cat sleeps in its basket ."."""
    row = rng.choice(own.BODY if body else own.HAS)
    owners = _owners(row.key, body)
    owner_noun = ALL[rng.choice(owners)]
    key = rng.choice(row.owned(owner_noun))
    if key == owner_noun.key:
        return None
    many = pick_plural(rng, owner_noun, 0.25)
    subj = NP(owner_noun, many, pick_det(rng, many, subject=True), pick_adj(rng, owner_noun), tag="ante")
    owned_noun = own.owned_noun(key)
    owned = NP(owned_noun, _owned_number(rng, row, many, key), "poss", owner=owner_of(owner_noun.gender, many),
               owner_en="their" if many else "its", poss_tag=True)
    where = ([], []) if row.key in HOMEBOUND else where_of(rng, owner_noun, p=0.25)
    return _owner_sentence(rng, row, subj, owned, subj.en(), subj.de("nom"), many, where, "possessive_its")


def _owner_sentence(rng, row, owner: NP, owned: NP, subj_en, subj_de, many, where, frame) -> Example | None:
    """SUBJ + ROW's verb with the owned noun: "... spielt im Garten mit seinem Ball"."""
    prep, case = split_obj(row.obj)
    comp = ("", "")
    if row.comps == "FOOD":
        if not owned.noun.foods:
            return None
        comp = FOODS[rng.choice(owned.noun.foods)]
    elif row.comps:
        comp = rng.choice(row.comps)
    if comp[0] or row.mid:
        where = ([], [])
    forms = next((f for tag, f, _ in row.forms if tag in {*owned.noun.tags, owned.noun.key}), None)
    last = next((lt for tag, _, lt in row.forms if tag in {*owned.noun.tags, owned.noun.key}), row.last)
    fin = (forms or "|".join(row.de)).split("|")[1 if many else 0]
    en = fill(row.tmpl, {"{V}": [row.en[1 if many else 0]], "{POSS}": owned.en(), "{C}": comp[0].split()})
    c_first = row.c_first or "{C}" in row.tmpl and row.tmpl.index("{C}") < row.tmpl.index("{POSS}")
    de = de_vp(fin, owned.de(case), prep, False, refl=row.refl, where=where[1],
                mid=row.mid.replace("{C}", comp[1]), last=last, first=comp[1].split() if c_first else None)
    return finish(frame, [*subj_en, *en, *where[0]], [*subj_de, *de], **_poss_meta(owner, owned, case, row=row.key))


def _together(rng: random.Random) -> Example | None:
    """"A duck and its chicks swim on the lake ." -> "Eine Ente und ihre Küken schwimmen auf dem See ."."""
    owners, young, number = rng.choice(own.TOGETHER)
    owner_noun = ANIMALS[rng.choice(owners.split())]
    dos = [d for d in own.TOGETHER_DO if set(d[2].split()) & {*owner_noun.tags, owner_noun.key}]
    if not dos:
        return None
    many = rng.random() < 0.2
    subj = NP(owner_noun, many, pick_det(rng, many, subject=True), pick_adj(rng, owner_noun), tag="ante")
    owned = NP(own.owned_noun(young), number == "pl" or many, "poss", owner=owner_of(owner_noun.gender, many),
               owner_en="their" if many else "its", poss_tag=True)
    en_do, de_do, _ = rng.choice(dos)
    return finish("possessive_its", [*subj.en(), "and", *owned.en(), en_do], [*subj.de("nom"), "und", *owned.de("nom"),
                  de_do], **_poss_meta(subj, owned, "nom", row="together"))


def _thing_part(rng: random.Random) -> Example | None:
    """"A man washes the car and its wheels ." / "A girl holds a balloon by its string ." /
    "A tree loses its leaves ."."""
    r = rng.random()
    if r < 0.2:
        owners, part, en_v, de_v, last, number = rng.choice(own.THING_DOES)
        noun = ALL[rng.choice(owners.split())]
        many = rng.random() < 0.2
        subj = NP(noun, many, pick_det(rng, many, subject=True), pick_adj(rng, noun), tag="ante")
        owned = NP(own.owned_noun(part), number == "pl", "poss", owner=owner_of(noun.gender, many),
                   owner_en="their" if many else "its", poss_tag=True)
        i = 1 if many else 0
        where = where_of(rng, noun, p=0.3)  # "A tram opens its doors at the stop"
        return finish("possessive_its", [*subj.en(), en_v.split("|")[i], *owned.en(), *where[0]],
                      [*subj.de("nom"), de_v.split("|")[i], *where[1], *owned.de("acc"), last],
                      **_poss_meta(subj, owned, "acc", row="thing_does"))
    if r < 0.55:
        owners, part, verbs = rng.choice(own.BY_PART)
        en_v, de_v, last = own.BY_VERBS[rng.choice(verbs.split())]
        case, link_en, link_de, plural_part = "dat", "by", "an", False
    else:
        owners, parts, verbs = rng.choice(own.THING_PARTS)
        part, _, number = rng.choice(parts.split()).partition(":")
        en_v, de_v, last = own.THING_VERBS[rng.choice(verbs.split())]
        case, link_en, link_de, plural_part = "acc", "and", "und", number == "pl"
    noun = ALL[rng.choice(owners.split())]
    many = False  # "two chairs and their legs", "two balloons by their string" read oddly
    obj = NP(noun, many, pick_det(rng, many, rng.choice(("the", "a", "a"))), pick_adj(rng, noun), tag="ante")
    owned = NP(own.owned_noun(part), plural_part, "poss", owner=owner_of(noun.gender, many),
               owner_en="their" if many else "its", poss_tag=True)
    # one person holds a balloon by its string or pulls a puppy by its collar
    actor = pick_person(rng, scene_of(noun), plural=0.0 if case == "dat" else 0.2)
    if not crowd_ok(actor, obj, [own.THING_LOOK.get(en_v, "")]):  # "Three men repair a kite and its string"
        return None
    de_tail = [link_de, *owned.de(case)]
    return finish("possessive_its", [*actor.en, actor.agree(tuple(en_v.split("|"))), *obj.en(), link_en, *owned.en()],
                  [*actor.de, actor.agree(tuple(de_v.split("|"))), *obj.de("acc"), *de_tail, last],
                  **_poss_meta(obj, owned, case, row="by_part" if case == "dat" else "thing_parts"))


def possessive_its(rng: random.Random) -> Example | None:
    r = rng.random()
    if r < 0.3:
        return _animal_has(rng, True)
    if r < 0.6:
        return _animal_has(rng, False)
    if r < 0.72:
        return _together(rng)
    return _thing_part(rng)


def possessive_person(rng: random.Random) -> Example | None:
    """"A man walks his dog ." / "A woman sits with her daughter on a bench ." / "A man and his dog ..."."""
    if rng.random() < 0.15:
        return _companions(rng)
    row = rng.choice(own.PERSON)
    key = rng.choice(row.owned(PEOPLE["man"]))
    noun = own.owned_noun(key)
    scene = scene_of(noun) if noun.cls != "person" else set()
    actor = pick_person(rng, scene, adult=row.adult, owner=True, child=row.child, tag="ante")
    if key in ("wife", "husband") and (actor.plural or actor.owner != ("m" if key == "wife" else "f")):
        return None
    if key in ("baby", "son", "daughter") and (actor.plural or actor.child):
        return None
    if actor.plural and row.key in ("put_in", "stuff_in", "give"):  # "Two boys put a book in their bag"
        return None
    if key == "stroller" and actor.child:  # a child's would be a doll's pram ("Puppenwagen")
        return None
    if key == "friend" and actor.owner == "f":
        key, noun = "friend_f", own.owned_noun("friend_f")
    plural = key in PAIRS or key in own.PAIRS or (actor.plural and (row.number == "each" or key == "friend"))
    thing = noun.cls not in ("person", "animal", "part")
    owned = NP(noun, plural, "poss", pick_adj(rng, noun, 0.2) if thing else "", owner=actor.owner,
               owner_en=actor.poss_en, poss_tag=True)
    where = where_of(rng, noun, p=0.25) if not row.comps and noun.cls != "person" else ([], [])
    holder = NP(actor.who, actor.plural, tag="ante")
    return _owner_sentence(rng, row, holder, owned, actor.en, actor.de, actor.plural, where, "possessive_person")


def _companions(rng: random.Random) -> Example | None:
    """"A man and his dog walk along the beach ." -> "Ein Mann und sein Hund gehen am Strand entlang ."."""
    key = rng.choice(own.COMPANIONS.split())
    actor = pick_person(rng, {"dog"} if key == "dog" else set(), plural=0.0, owner=True, tag="ante")
    if actor.plural or (key == "wife" and actor.owner != "m") or (key == "husband" and actor.owner != "f"):
        return None
    if actor.child and key in ("wife", "husband"):
        return None
    if key == "friend" and actor.owner == "f":
        key = "friend_f"
    noun = own.owned_noun(key)
    dos = [d for d in own.COMPANION_DO if not (d[2] == "person" and key == "dog")]
    en_do, de_do, _ = rng.choice(dos)
    owned = NP(noun, False, "poss", owner=actor.owner, owner_en=actor.poss_en, poss_tag=True)
    holder = NP(actor.who, False, tag="ante")
    return finish("possessive_person", [*actor.en, "and", *owned.en(), en_do], [*actor.de, "und", *owned.de("nom"),
                  de_do], **_poss_meta(holder, owned, "nom", row="companions"))
