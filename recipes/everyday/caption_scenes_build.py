"""The sentence-building steps the frames of recipes/everyday/caption_scenes.py share.

Which nouns a verb and a predicate both fit, the complement a verb takes for this noun and this
subject ("to her sister" -> "ihrer Schwester"), the German verb phrase in its order (an unstressed
pronoun straight after the verb, then "dann", the place, the object, the last part), the second
verb with its pronoun, and the pronoun's own clause after a conjunction.
"""
from __future__ import annotations

import functools
import random

from recipes.everyday.caption_scenes_clauses import ANIMAL_MAIN, CONJ, MAIN, MAIN_CONJ, PREDS
from recipes.everyday.caption_scenes_grammar import (EN_PRONOUN, NP, PRONOUN, Actor, fill, mark, pick_person, place,
                                                     possessive, prep_phrase, scene_of)
from recipes.everyday.caption_scenes_lexicon import ALL, ANIMALS, FOODS, Noun
from recipes.everyday.caption_scenes_spots import CONTAINER_VERBS, HUNT
from recipes.everyday.caption_scenes_verbs import BY_KEY, COLORS, Verb

NO_PLURAL = frozenset({"ice_cream", "piano", "sofa", "tent"})
PAIRS = frozenset({"shoe", "boot", "glove", "sock"})  # bought, found, put on in twos
ONE_EACH = frozenset({"put_on", "try_on", "take_off", "m:try_on", "m:take_off"})
SHOPPING = frozenset(("buy", "choose", "try_on", "put_on", "take_off"))
# where a verb is done, when not wherever its noun is found: fruit is picked outdoors, baked at home
VERB_PLACES = {"pick": ("garden", "field", "meadow", "forest"), "wash1": ("kitchen", "yard", "street", "garden"),
               "bake": ("kitchen",), "wash": ("kitchen", "yard", "street", "garden"), "cook": ("kitchen",)}
_VERBS = {**BY_KEY, **{f"m:{k}": v for k, v in MAIN.items()}, **{f"a:{k}": v for k, v in ANIMAL_MAIN.items()},
          **{v.key: v for v in (*CONTAINER_VERBS, *HUNT)}}


@functools.lru_cache(maxsize=None)
def fitting(*keys: str) -> tuple[str, ...]:
    """The nouns every one of KEYS fits: verbs by key ("m:" a first clause, "a:" an animal's own
    first clause) and predicates ("p:")."""
    tests = [PREDS[k[2:]] if k.startswith("p:") else _VERBS[k] for k in keys]
    return tuple(k for k, n in ALL.items() if all(t.fits(n) for t in tests))


def tags_ok(spec: str, noun: Noun) -> bool:
    """"food toy -heavy": any of the tags, none of the "-" ones ("" for any noun)."""
    have = {*noun.tags, noun.cls, noun.key}
    words = spec.split()
    want = [w for w in words if w[0] != "-"]
    return (not want or any(w in have for w in want)) and not any(w[1:] in have for w in words if w[0] == "-")


def personal(en: str, de: str, actor: Actor) -> tuple[str, str]:
    """"{his} friend" -> "her friend", "{FRIEND:dat}" -> "ihrer Freundin", "{P:dat:f}" -> "ihrer"."""
    en = en.replace("{his}", actor.poss_en)
    for case in ("nom", "acc", "dat"):
        sex = actor.owner if actor.owner in ("m", "f") else "m"
        friend = "Freundin" if sex == "f" else "Freund"
        de = de.replace(f"{{FRIEND:{case}}}", f"{possessive(actor.owner, case, sex)} {friend}")
        for g in ("m", "f", "n", "pl"):
            de = de.replace(f"{{P:{case}:{g}}}", possessive(actor.owner, case, g))
    return en, de


def one_each(v: Verb, noun: Noun, plural: bool, actor: Actor) -> bool:
    """One hat on each head: a worn thing is plural exactly when its wearers are (shoes always);
    dresses and skirts are tried on by women and girls here."""
    if v.key in ONE_EACH and noun.key in ("dress", "skirt") and getattr(actor.who, "sex", "") != "f":
        return False
    return v.key not in ONE_EACH or noun.key in PAIRS or plural == actor.plural


def complement(rng: random.Random, v, noun, actor: Actor) -> tuple[str, str] | None:
    """A complement of V for NOUN ("to his sister", "a carrot", "red"); None when none fits."""
    if v.comps == "FOOD":  # milk is given in a bowl, not held out
        foods = [f for f in noun.foods if not (v.key == "hold_out" and f == "milk")]
        return FOODS[rng.choice(foods)] if foods else None
    if v.comps == "COLOR":
        return rng.choice(COLORS)
    if not v.comps:
        return "", ""
    # "his sister" of one person or of children, not "their sister" of three cooks
    kin = actor.plural and not actor.child
    ok = [c for c in v.comps if (len(c) < 3 or tags_ok(c[2], noun)) and (actor.own_ok or "{" not in c[0])
          and not (kin and "{his}" in c[0] and "friend" not in c[0] and "dog" not in c[0])
          and not (actor.child and c[0] == "a child")  # not "A child ... gives it to a child"
          and not ("teacher" in c[0] and not actor.child)]  # a grown-up shows it to a friend, not "his teacher"
    if not ok:
        return None
    en, de = rng.choice(ok)[:2]
    return personal(en, de, actor)


def pick_plural(rng: random.Random, noun: Noun, p: float = 0.28) -> bool:
    if noun.key in NO_PLURAL:
        return False
    return rng.random() < (0.8 if noun.key in PAIRS else p)


def pick_det(rng: random.Random, plural: bool, fixed: str = "", subject: bool = False, noun=None) -> str:
    """"a" (no article in the plural: "apples"), "the", "two", "three", "some"; a subject is
    never a bare plural ("Two cats and their kittens", not "Cats and their kittens"). FIXED "a"
    (a thing made then: "builds a snowman") is "a", "two" or "three" in the plural; boots and
    shoes are counted in pairs ("a pair of boots", never "two boots")."""
    if fixed == "a" and plural:
        return rng.choice(("a", "a", "two", "three"))
    if fixed:
        return fixed
    if plural:
        dets = ("two", "two", "three", "some", "the") if subject else ("a", "a", "two", "three", "some", "the")
        det = rng.choice(dets)
        return "pair" if noun is not None and noun.key in PAIRS and det in ("two", "three", "some") else det
    return "the" if rng.random() < 0.15 else "a"


# what several people may do to one thing together: a thing too big for one ("Two men carry a sofa"),
# a game ("Three boys kick a ball"), or what is only looked at ("Two girls watch a kite"); never
# "Several men carry a book", "Three vendors taste a peach"
SHARED = frozenset("snowman sandcastle tent cake pizza melon pumpkin boat canoe sled".split())
GAMES = frozenset("ball frisbee kite balloon".split())
PLAY_VERBS = frozenset("throw kick catch throw_up fly_kite throw_to throw_back2 catch_again let_go throw_lake".split())
LOOK_VERBS = frozenset("see watch photograph draw laugh_at look".split())


def crowd_ok(actor: Actor, obj: NP, verbs=()) -> bool:
    """Whether ACTOR (maybe several people) fits doing VERBS (keys) to OBJ."""
    noun = obj.noun
    if not actor.plural or obj.plural or noun.cls in ("animal", "vehicle", "furniture"):
        return True
    if noun.key in SHARED or {"heavy", "big"} & noun.tags:
        return True
    keys = {getattr(v, "key", v) for v in verbs}
    if keys and keys <= LOOK_VERBS | (PLAY_VERBS if noun.key in GAMES else frozenset()):
        return True
    return False


def pick_adj(rng: random.Random, noun, p: float = 0.3) -> str:
    return rng.choice(noun.adjs) if getattr(noun, "adjs", ()) and rng.random() < p else ""


def where_of(rng: random.Random, noun: Noun, verb=None, p: float = 0.3) -> tuple[list[str], list[str]]:
    """Where the scene is (English last, German before the object), or nowhere."""
    if rng.random() >= p or (verb is not None and (verb.mid or verb.comps or verb.key in ("get", "unpack"))):
        return [], []
    if verb is not None and verb.key in ("buy", "choose"):
        keys = ["market"] if noun.cls in ("food", "flora") else ["shop"]
    else:
        keys = [k for k in noun.places if verb is None or k in VERB_PLACES.get(verb.key, (k,))]
        if verb is None or verb.key not in SHOPPING:  # a thing is bought or tried on in a shop, not found or polished
            keys = [k for k in keys if k not in ("shop", "market")]
    return place(rng.choice(keys)) if keys else ([], [])


def split_obj(obj: str) -> tuple[str, str]:
    """"mit+dat" -> ("mit", "dat"); "acc" -> ("", "acc")."""
    return tuple(obj.split("+")) if "+" in obj else ("", obj)


def de_vp(fin: str, obj: list, prep: str, pron: bool, *, refl: bool = False, then: bool = False,
           where: list | None = None, mid: str = "", last: str = "", first: list | None = None) -> list:
    """German verb, "sich", an unstressed pronoun object straight after them, then "dann" and the
    place, a noun object or prepositional phrase, the rest of the middle field, the last part."""
    out = [fin, *(["sich"] if refl else [])]
    obj = prep_phrase(prep, obj) if prep else obj
    where = where or []
    if pron and not prep:
        out += [*obj, *(["dann"] if then else []), *where, *(first or [])]
    else:
        out += [*(["dann"] if then else []), *where, *(first or []), *obj]
    return out + mid.split() + ([last] if last else [])


def pronouns(case: str, g: str) -> tuple:
    """The marked English and German pronoun for an antecedent of gender G ("pl" for several)."""
    return mark(EN_PRONOUN[case][g == "pl"], "pron"), mark(PRONOUN[case][g], "pron")


def ante_meta(obj: NP, case: str, **extra) -> dict:
    return {"antecedent_gender": obj.noun.gender, "antecedent_plural": obj.plural, "pronoun_case": case, **extra}


def dog_actor(rng: random.Random) -> Actor:
    noun = ANIMALS[rng.choice(("dog", "dog", "puppy"))]
    np = NP(noun, False, "a", pick_adj(rng, noun, 0.4))
    return Actor(np.en(), np.de("nom"), False, "its", noun.gender, noun, own_ok=False)


def second_clause(rng, actor: Actor, v: Verb, noun: Noun, g: str, then: bool = False) -> tuple[list, list, str] | None:
    """"carries it home" / "trägt ihn nach Hause": V said of ACTOR with the pronoun for NOUN."""
    if not one_each(v, noun, g == "pl", actor):
        return None
    comp = complement(rng, v, noun, actor)
    if comp is None:
        return None
    prep, case = split_obj(v.obj)
    pron_en, pron_de = pronouns(case, g)
    forms, last = v.german(noun)
    en = fill(v.tmpl, {"{V}": [actor.agree(v.en)], "{O}": [pron_en], "{C}": comp[0].split()})
    de = de_vp(actor.agree(forms), [pron_de], prep, True, refl=v.refl, then=then, mid=v.mid.replace("{C}", comp[1]),
                last=last)
    return (["then", *en] if then else en), de, case


def first_clause(rng, actor: Actor, v: Verb, obj: NP, where=([], [])) -> tuple[list, list] | None:
    """"buys a melon at the market" / "kauft auf dem Markt eine Melone"."""
    if not one_each(v, obj.noun, obj.plural, actor):
        return None
    comp = complement(rng, v, obj.noun, actor)
    if comp is None:
        return None
    prep, case = split_obj(v.obj)
    forms, last = v.german(obj.noun)
    en = fill(v.tmpl, {"{V}": [actor.agree(v.en)], "{O}": obj.en(), "{C}": comp[0].split()}) + where[0]
    de = de_vp(actor.agree(forms), obj.de(case), prep, False, refl=v.refl, where=where[1],
                mid=v.mid.replace("{C}", comp[1]), last=last)
    return en, de


def actor_for(rng, noun: Noun, verbs: list, dog_p: float = 0.4) -> Actor | None:
    """A person fitting the scene, or a dog where every verb is said of dogs too."""
    if all("d" in v.subj for v in verbs) and (any(v.subj == "d" for v in verbs) or rng.random() < dog_p):
        if noun.key in ("dog", "puppy"):
            return None
        return dog_actor(rng)
    if any(v.subj == "d" for v in verbs):
        return None
    return pick_person(rng, scene_of(noun), adult=any(v.subj == "a" for v in verbs))


def contract(rng: random.Random, text: str) -> str:
    """"does not" -> "doesn't" half of the time, as captions are typed."""
    if rng.random() < 0.5:
        for long, short in (("does not", "doesn't"), ("do not", "don't"), ("is not", "isn't"), ("are not", "aren't")):
            text = text.replace(long, short)
    return text


def pred_clause(rng: random.Random, p, conj: str, g: str) -> tuple[list, list]:
    """The pronoun's clause: English after the conjunction, German with the verb second (und /
    aber), last (während ...), the infinitive before "kann" (damit), the participle before the
    auxiliary (nachdem)."""
    pron_en, pron_de = pronouns("nom", g)
    many = g == "pl"
    if conj == "damit":
        return ([*"so that".split(), pron_en, "can", *p.base.split()],
                [pron_de, *p.mtail.split(), p.inf, mark("können" if many else "kann", "verb")])
    if conj == "nachdem":
        aux = {"hat": ("hat", "haben"), "ist": ("ist", "sind")}[p.aux][many]
        return (["after", pron_en, "have" if many else "has", *p.perf.split()],
                [pron_de, *p.part.split(), mark(aux, "verb")])
    fin = p.de[many]
    word = "as" if conj == "während" and p.as_ else CONJ[conj][0]  # "as it pulls away", "while it sleeps"
    en = [word, pron_en, *contract(rng, p.en[many]).split()]
    if conj in MAIN_CONJ:
        return en, [pron_de, mark(fin, "verb"), *p.tail.split(), p.last]
    return en, [pron_de, *p.tail.split(), mark(p.last + fin, "verb")]
