"""Scenes of recipes/everyday/daily_life.py whose German is built unlike English's.

* dative verbs, where the English subject is German's dative: "I like your dress" -> "Dein Kleid
  gefällt mir", "My head hurts" -> "Mir tut der Kopf weh", "I'm cold" -> "Mir ist kalt", "How is
  your mother ?" -> "Wie geht es deiner Mutter ?", and a person given something: "Ich habe
  meiner Schwester den Schlüssel gegeben";
* "es gibt" with the accusative: "In unserem Dorf gibt es kein Kino", "Was gibt es zum
  Abendessen ?", "Es gibt keine Milch mehr";
* "gern / lieber / am liebsten" for "like -ing / prefer / like best";
* the two-way prepositions: where to (accusative, "stellen / legen / hängen") and where
  (dative, "ist / steht / liegt"): "Stell die Milch in den Kühlschrank" / "Die Milch ist im
  Kühlschrank", "Wohin hast du meine Schlüssel gelegt ?";

Health, dates, shops, tickets and adjective endings are in daily_life_town.py.
"""
from __future__ import annotations

import random

from recipes.everyday.daily_life_grammar import (BE, FAMILY_SUBJECTS, HAVE, MODALS, NOT_YOU, PERSONS, SUBJECT_PRONOUNS,
                                                 Clause, add_please, be_form, contract_subject, en_verb, ex, hearer,
                                                 noun_person, noun_phrase, prep_phrase, several, subject, vocative)
from recipes.everyday.daily_life_lexicon import ALL, NUMBER_WORDS
from transformer.data.example import Example


def _owner(rng: random.Random, not_key: str = "", one: bool = False) -> object:  # ONE: "my jacket", not "our"
    return PERSONS[rng.choice([k for k in ("I", "du", "he", "she", *(() if one else ("we",))) if k != not_key
                               and {k, not_key} != {"I", "we"}])]  # not "We liked my book"


def _np(rng: random.Random, name: str, case: str, dets: tuple[str, ...] = ("the", "this", "poss"),
        not_owner: str = "") -> tuple[str, str, bool]:
    """A thing's noun phrase ("your dress", "diese Jacke"), and whether German says it in the
    plural (the verb agrees with it)."""
    plural = name.endswith("+")
    noun = ALL[name.rstrip("+")]
    det = rng.choice(dets if noun.own or "poss" not in dets else tuple(d for d in dets if d != "poss"))
    en, de = noun_phrase(noun, det, case, plural, _owner(rng, not_owner, noun.each) if det == "poss" else None)
    return en, de, plural or noun.gender == "pl"


def _experiencer(rng: random.Random, p_pronoun: float = 0.75, keys: tuple[str, ...] = SUBJECT_PRONOUNS):
    return PERSONS[rng.choice(keys)] if rng.random() < p_pronoun else subject(rng, None, 0)


# -- dative verbs -------------------------------------------------------------------------------
LIKED_NOW = "dress jacket coat shoe+ flat house garden room picture town hotel idea bag".split()
LIKED_PAST = "film book present party concert trip hotel town".split()
FOODS = "soup bread cheese fish meat chicken salad coffee tea juice ice_cream rice cake pasta".split()
TASTES = (("good", "gut"), ("delicious", "lecker"), ("great", "toll"), ("awful", "furchtbar"),
          ("strange", "komisch"), ("too salty", "zu salzig"), ("too sweet", "zu süß"))
SALTY = {"soup", "fish", "meat", "chicken", "rice", "cheese", "pasta", "salad"}
OWNED = "bag umbrella jacket coat key phone car bike book wallet pen hat scarf shoe+ key+".split()
PARTS = "head back stomach foot+ leg arm knee tooth ear eye+".split()
STATES = (("cold", "kalt", "be"), ("hot", "heiß", "be"), ("warm", "warm", "be"), ("bored", "langweilig", "be"),
          ("sick", "schlecht", "feel"), ("dizzy", "schwindlig", "feel"))
WELL = (("fine", "gut"), ("well", "gut"), ("better", "besser"), ("much better", "viel besser"),
        ("a bit better", "etwas besser"))
# given to someone: English past, German participle, the things
GIVEN = (("gave", "gegeben", "key book present letter"), ("showed", "gezeigt", "photo+ flat garden"),
         ("lent", "geliehen", "bike car umbrella"), ("bought", "gekauft", "present book flower+ cake"),
         ("sent", "geschickt", "letter photo+ message"))


def _en_like(exp, neg: bool, past: bool, rng: random.Random, verb: str = "like") -> list[str]:
    forms = (verb, verb + "s", verb + "d", verb + "d", verb[:-1] + "ing")
    aux, form = en_verb(forms, "past" if past else "present", exp.agree, neg, rng)
    return [exp.en, aux, form]


def _dative(rng: random.Random) -> Example:
    kind = rng.choice(("like", "like", "taste", "belong", "hurt", "state", "how", "given"))
    if kind == "like":  # "I like your dress ." -> "Dein Kleid gefällt mir ."
        exp = _experiencer(rng, keys=NOT_YOU)  # "you" is asked: "Do you like ...?"
        past = rng.random() < 0.5
        en_t, de_t, pl = _np(rng, rng.choice(LIKED_PAST if past else LIKED_NOW), "nom", not_owner=exp.key)
        finite = ("haben" if pl else "hat") if past else ("gefallen" if pl else "gefällt")
        tail = ["gefallen"] if past else []
        if rng.random() < 0.3 and exp.pronoun:  # "Did you like the film ?"
            you = PERSONS["du"]
            en_t, de_t, pl = _np(rng, rng.choice(LIKED_PAST if past else LIKED_NOW), "nom", not_owner="du")
            finite = ("haben" if pl else "hat") if past else ("gefallen" if pl else "gefällt")
            return ex(["did" if past else "do", "you like", en_t], [finite, you.dat, de_t, *tail], "?", "dative")
        neg = rng.random() < 0.3
        return ex([*_en_like(exp, neg, past, rng), en_t], [de_t, finite, exp.dat, *(["nicht"] if neg else []), *tail],
                  ".", "dative")
    if kind == "taste":
        name = rng.choice(FOODS)
        food = ALL[name]
        pl = food.gender == "pl"
        taste_en, taste_de = rng.choice([t for t in TASTES if t[0] != ("too sweet" if name in SALTY else "too salty")])
        form = rng.random()
        if form < 0.4:  # "The soup tastes delicious ."
            en, de = noun_phrase(food, rng.choice(("the", "this")), "nom")
            return ex([en, "tastes", taste_en], [de, "schmecken" if pl else "schmeckt", taste_de], ".", "dative")
        if form < 0.7:  # "Did you enjoy the cake ?" -> "Hat dir der Kuchen geschmeckt ?"
            en, de = noun_phrase(food, "the", "nom")
            return ex(["did you enjoy", en], ["haben" if pl else "hat", "dir", de, "geschmeckt"], "?", "dative")
        exp = _experiencer(rng, keys=NOT_YOU)  # "I don't like fish ." -> "Fisch schmeckt mir nicht ."
        if food.kind != "mass":
            return ex(["does the", food.en, "taste good"], ["schmeckt", *noun_phrase(food, "the", "nom")[1].split(),
                                                           "gut"], "?", "dative")
        en, de = noun_phrase(food, "a", "nom")
        return ex([*_en_like(exp, True, False, rng), en], [de, "schmecken" if pl else "schmeckt", exp.dat, "nicht"],
                  ".", "dative")
    if kind == "belong":  # "The bag belongs to my sister ." -> "Die Tasche gehört meiner Schwester ."
        en_t, de_t, pl = _np(rng, rng.choice(OWNED), "nom", ("the", "this"))
        verb_de = "gehören" if pl else "gehört"
        if rng.random() < 0.25:
            return ex(["who", "do" if pl else "does", en_t, "belong to"], ["wem", verb_de, de_t], "?", "dative")
        if rng.random() < 0.3:
            return ex(["do" if pl else "does", en_t, "belong to you"], [verb_de, "dir", de_t], "?", "dative")
        owner = _experiencer(rng, 0.4)
        neg = rng.random() < 0.25
        en_verb = ("don't" if pl else "doesn't") + " belong" if neg else "belong" if pl else "belongs"
        return ex([en_t, en_verb, "to", owner.obj_en], [de_t, verb_de, owner.dat, *(["nicht"] if neg else [])],
                  ".", "dative")
    if kind == "hurt":  # "My head hurts ." -> "Mir tut der Kopf weh ." / "Mein Kopf tut weh ."
        exp = PERSONS[rng.choice(("I", "I", "he", "she", "du"))]  # "you" only asked
        name = rng.choice(PARTS)
        part, pl = ALL[name.rstrip("+")], name.endswith("+")
        en_p = f"{exp.poss_en} {part.en_pl if pl else part.en}"
        tut = "tun" if pl else "tut"
        if exp.key == "du":
            return ex(["do" if pl else "does", en_p, "hurt"], [tut, "dir", noun_phrase(part, "the", "nom", pl)[1], "weh"],
                      "?", "dative")
        time_en, time_de = ("yesterday", "gestern") if rng.random() < 0.25 else ("", "")
        hurts = "hurt" if pl or time_en else "hurts"
        if time_en:
            return ex([en_p, hurts, time_en], [*time_de.split(), "haben" if pl else "hat", exp.dat,
                                               noun_phrase(part, "the", "nom", pl)[1], "wehgetan"], ".", "dative")
        if rng.random() < 0.5:
            return ex([en_p, hurts], [exp.dat, tut, noun_phrase(part, "the", "nom", pl)[1], "weh"], ".", "dative")
        return ex([en_p, hurts], [noun_phrase(part, "poss", "nom", pl, exp)[1], tut, "weh"], ".", "dative")
    if kind == "state":  # "I'm cold ." -> "Mir ist kalt ."; "The children are bored ." -> "Den Kindern ..."
        exp = _experiencer(rng, 0.8, NOT_YOU)
        en_adj, de_adj, how = rng.choice(STATES)
        past, neg = rng.random() < 0.25, rng.random() < 0.2
        ist = "war" if past else "ist"
        if rng.random() < 0.2:  # "Are you cold ?" -> "Ist dir kalt ?"
            you = PERSONS["du"]
            en = [("were" if past else "are") + " you", en_adj] if how == "be" else \
                [("did" if past else "do") + " you feel", en_adj]
            return ex(en, [ist, you.dat, de_adj], "?", "dative")
        if how == "be":
            be = be_form(exp.agree, past)
            en = [*(contract_subject(exp.en, be, rng) if exp.pronoun and not neg else [exp.en, be]),
                  *(["not"] if neg else []), en_adj]
        else:
            en = [*_en_like(exp, neg, past, rng, "feel"), en_adj] if neg else \
                [exp.en, "felt" if past else "feels" if exp.agree == "3s" else "feel", en_adj]
        return ex(en, [exp.dat, ist, *(["nicht"] if neg else []), de_adj], ".", "dative")
    if kind == "how":  # "How is your mother ?" -> "Wie geht es deiner Mutter ?"
        if rng.random() < 0.4:
            who, voc_en, voc_de = hearer(rng, (0.5, 0.2, 0.3), 0.5)
            if not voc_en:
                return ex(["how are you feeling"], ["wie", "fühlst", "du", "dich"], "?", "dative")
            en, de = vocative(["how are you"], ["wie", "geht", "es", who.dat], voc_en, voc_de, rng, front=False)
            return ex(en, de, "?", "dative")
        exp = _experiencer(rng, 0.5, NOT_YOU)
        if not exp.pronoun and rng.random() < 0.5:  # "How is your mother ?"
            exp = noun_person(ALL[rng.choice(FAMILY_SUBJECTS)], "poss", PERSONS["du"])
            return ex(["how", "are" if exp.agree == "pl" else "is", exp.en], ["wie", "geht", "es", exp.dat], "?",
                      "dative")
        en_w, de_w = rng.choice(WELL)
        today = rng.random() < 0.3
        neg = en_w == "well" and rng.random() < 0.5
        be = be_form(exp.agree)
        if en_w.endswith("better") and rng.random() < 0.5:
            en = [*(contract_subject(exp.en, be, rng) if exp.pronoun else [exp.en, be]), "feeling", en_w]
        elif neg:
            en = [exp.en, "am not" if be == "am" else be + "n't", "well"]
        else:
            en = [*(contract_subject(exp.en, be, rng) if exp.pronoun else [exp.en, be]), en_w]
        thanks = en_w == "fine" and exp.key == "I" and rng.random() < 0.5
        de = [exp.dat, "geht", "es", *(["heute"] if today else []), *(["nicht"] if neg else []), de_w]
        en = [*en, "today" if today else ""]
        return ex([*en, ", thanks"] if thanks else en, [*de, ",", "danke"] if thanks else de, ".", "dative")
    # "I gave my sister the key ." -> "Ich habe meiner Schwester den Schlüssel gegeben ."
    subj = PERSONS[rng.choice(SUBJECT_PRONOUNS)]
    en_v, part, things = rng.choice(GIVEN)
    to = ALL[rng.choice(("mother", "father", "sister", "brother", "grandma", "grandpa", "friend", "son",
                         "daughter", "neighbour"))]
    to_en, to_de = noun_phrase(to, "poss", "dat", owner=subj)
    name = rng.choice(things.split())
    noun, pl = ALL[name.rstrip("+")], name.endswith("+")
    det = "poss" if en_v in ("showed", "lent") and noun.own and not (noun.each and several(subj)) else \
        rng.choice(("the", "a"))  # not "They lent their son their umbrella"
    th_en, th_de = noun_phrase(noun, det, "acc", pl, subj)
    return ex([subj.en, en_v, to_en, th_en], [subj.de, HAVE[subj.slot], to_de, th_de, part], ".", "dative")


# -- es gibt ------------------------------------------------------------------------------------
# where: the noun, its English and German preposition; what is there
AREAS = (("town", "in", "in", "cinema swimming_pool supermarket bakery park library museum restaurant café"
                                  " playground gym hospital pharmacy hotel lake"),
         ("village", "in", "in", "bakery supermarket park playground café restaurant lake swimming_pool"),
         ("school", "at", "an", "library playground swimming_pool café"),
         ("hotel", "in", "in", "restaurant swimming_pool gym café"),
         ("park", "in", "in", "playground lake café"),
         ("flat", "in", "in", "bedroom+ bathroom+"),
         ("house", "in", "in", "cellar bedroom+ bathroom+"))
# what a home has, not what is in it: "Our house has a garden" -> "Unser Haus hat einen Garten"
HAS = {"flat": "balcony cellar", "house": "garden garage balcony cellar"}
MEALS = (("breakfast", "Frühstück"), ("lunch", "Mittagessen"), ("dinner", "Abendessen"))
# what there is for a meal: English, German, and for which meals
DISHES = (("fish", "Fisch", "lunch dinner"), ("soup", "Suppe", "lunch dinner"), ("pasta", "Nudeln", "lunch dinner"),
          ("chicken", "Hähnchen", "lunch dinner"), ("rice", "Reis", "lunch dinner"),
          ("salad", "Salat", "lunch dinner"), ("sausages", "Würstchen", "lunch dinner breakfast"),
          ("pizza", "Pizza", "lunch dinner"), ("potatoes", "Kartoffeln", "lunch dinner"),
          ("pancakes", "Pfannkuchen", "breakfast lunch"), ("eggs", "Eier", "breakfast"),
          ("bread rolls", "Brötchen", "breakfast"), ("muesli", "Müsli", "breakfast"), ("cake", "Kuchen", "breakfast"))
MANY = ("cinema", "supermarket", "bakery", "park", "restaurant", "café", "playground", "pharmacy", "hotel")
LEFT = "milk bread coffee butter cheese juice sugar egg+ apple+ tomato+".split()
ATTRIBUTED = {"park": ("big", "small", "beautiful"), "cinema": ("new", "small", "old"),
              "swimming_pool": ("big", "new"), "library": ("big", "new"), "garden": ("big", "small", "beautiful"),
              "balcony": ("big", "small"), "restaurant": ("nice", "new", "cheap"), "café": ("nice", "new")}


def _there_is(rng: random.Random) -> Example:
    kind = rng.random()
    if kind < 0.6:
        area, prep_en, prep_de, what = rng.choice(AREAS)
        place = ALL[area]
        det = "poss" if place.own and rng.random() < 0.7 else "the"
        neg = rng.random() < 0.3
        ask = not neg and rng.random() < 0.25  # of the hearer's ("Is there a café at your school ?"), told of ours
        owner = PERSONS["du" if ask else rng.choice(("I", "we"))]
        if area in HAS and rng.random() < 0.5:
            return _has(rng, place, det, owner, neg, ask)
        a_en, a_de = noun_phrase(place, det, "dat", owner=owner)
        where_en, where_de = f"{prep_en} {a_en}", prep_phrase(prep_de, a_de).split()
        name = rng.choice(what.split())
        noun = ALL[name.rstrip("+")]
        many = name.endswith("+") or (area == "town" and name in MANY and rng.random() < 0.25)
        if many:
            n = rng.choice((2, 3, 4) if name.endswith("+") else (2, 3, "lots"))
            q_en, q_de = ("lots of", "viele") if n == "lots" else NUMBER_WORDS[n]
            en = ["there are", q_en, noun.en_pl, where_en]
            return ex(en, [*where_de, "gibt", "es", q_de, noun.de_pl], ".", "there_is")
        adj = rng.choice(ATTRIBUTED[name]) if name in ATTRIBUTED and not neg and rng.random() < 0.3 else ""
        o_en, o_de = noun_phrase(noun, "a", "acc", adj=adj, neg=neg)
        if neg:  # "There's no cinema ..." / "There isn't a cinema ..." -> "... gibt es kein Kino"
            en = ["there's no", o_en.split(" ", 1)[1]] if rng.random() < 0.5 else ["there isn't", o_en]
            return ex([*en, where_en], [*where_de, "gibt", "es", o_de], ".", "there_is")
        if ask:
            return ex(["is there", o_en, where_en], ["gibt", "es", *where_de, o_de], "?", "there_is")
        return ex([rng.choice(("there's", "there is")), o_en, where_en], [*where_de, "gibt", "es", o_de], ".",
                  "there_is")
    meal_en, meal_de = rng.choice(MEALS)
    if kind < 0.75:  # "What's for dinner today ?" -> "Was gibt es heute zum Abendessen ?"
        today = rng.random() < 0.5
        return ex(["what's for", meal_en, "today" if today else ""],
                  ["was", "gibt", "es", *(["heute"] if today else []), "zum", meal_de], "?", "there_is")
    if kind < 0.85:  # "There's fish for dinner today ." -> "Heute gibt es Fisch zum Abendessen ."
        dish_en, dish_de, _ = rng.choice([d for d in DISHES if meal_en in d[2]])
        plural = dish_en.endswith("s") and dish_en != "fish"
        if rng.random() < 0.5:
            return ex(["there", "are" if plural else "is", dish_en, "for", meal_en, "today"],
                      ["heute", "gibt", "es", dish_de, "zum", meal_de], ".", "there_is")
        return ex(["there", "are" if plural else "is", dish_en, "for", meal_en],
                  ["es", "gibt", dish_de, "zum", meal_de], ".", "there_is")
    name = rng.choice(LEFT)  # "Is there any milk left ?" -> "Gibt es noch Milch ?"
    noun, pl = ALL[name.rstrip("+")], name.endswith("+")
    en_n = noun.en_pl if pl else noun.en
    be = "are" if pl else "is"
    if rng.random() < 0.5:
        return ex([be, "there any", en_n, "left"], ["gibt", "es", "noch", noun.de_pl if pl else noun.de], "?",
                  "there_is")
    o_de = noun_phrase(noun, "no", "acc", pl)[1]
    en = [f"there {be}n't any", en_n, "left"] if rng.random() < 0.5 else \
        ["there are no" if pl else "there's no", en_n, "left"]
    return ex(en, ["es", "gibt", o_de, "mehr"], ".", "there_is")


def _has(rng: random.Random, place, det: str, owner, neg: bool, ask: bool) -> Example:
    """"Our flat has a balcony ." / "Does your house have a garden ?" -> "Hat dein Haus einen Garten ?"."""
    name = rng.choice(HAS[place.key].split())
    adj = rng.choice(ATTRIBUTED[name]) if name in ATTRIBUTED and not neg and rng.random() < 0.3 else ""
    o_en, o_de = noun_phrase(ALL[name], "a", "acc", adj=adj, neg=neg)
    h_en, h_de = noun_phrase(place, det, "nom", owner=owner)
    en = ["does", h_en, "have", o_en] if ask else [h_en, "doesn't have" if neg else "has", o_en]
    return ex(en, ["hat", h_de, o_de] if ask else [h_de, "hat", o_de], "?" if ask else ".", "there_is")


# -- gern, lieber, am liebsten ------------------------------------------------------------------
# English base, -ing, German present (ich du er wir ihr), the words after "gern", a separable prefix
HOBBIES = tuple((en, ing, tuple(de.split()), rest, prefix) for en, ing, de, rest, prefix in (
    ("swim", "swimming", "schwimme schwimmst schwimmt schwimmen schwimmt", "", ""),
    ("dance", "dancing", "tanze tanzt tanzt tanzen tanzt", "", ""),
    ("cook", "cooking", "koche kochst kocht kochen kocht", "", ""),
    ("read", "reading", "lese liest liest lesen lest", "", ""),
    ("read books", "reading books", "lese liest liest lesen lest", "Bücher", ""),
    ("travel", "travelling", "reise reist reist reisen reist", "", ""),
    ("sing", "singing", "singe singst singt singen singt", "", ""),
    ("draw", "drawing", "zeichne zeichnest zeichnet zeichnen zeichnet", "", ""),
    ("paint", "painting", "male malst malt malen malt", "", ""),
    ("take photos", "taking photos", "mache machst macht machen macht", "Fotos", ""),
    ("cycle", "cycling", "fahre fährst fährt fahren fahrt", "Fahrrad", ""),
    ("play football", "playing football", "spiele spielst spielt spielen spielt", "Fußball", ""),
    ("play tennis", "playing tennis", "spiele spielst spielt spielen spielt", "Tennis", ""),
    ("play chess", "playing chess", "spiele spielst spielt spielen spielt", "Schach", ""),
    ("play cards", "playing cards", "spiele spielst spielt spielen spielt", "Karten", ""),
    ("play the guitar", "playing the guitar", "spiele spielst spielt spielen spielt", "Gitarre", ""),
    ("play the piano", "playing the piano", "spiele spielst spielt spielen spielt", "Klavier", ""),
    ("bake cakes", "baking cakes", "backe backst backt backen backt", "Kuchen", ""),
    ("do sport", "doing sport", "mache machst macht machen macht", "Sport", ""),
    ("go to the cinema", "going to the cinema", "gehe gehst geht gehen geht", "ins Kino", ""),
    ("go shopping", "going shopping", "gehe gehst geht gehen geht", "einkaufen", ""),
    ("go for walks", "going for walks", "gehe gehst geht gehen geht", "spazieren", ""),
    ("go dancing", "going dancing", "gehe gehst geht gehen geht", "tanzen", ""),
    ("go hiking", "going hiking", "gehe gehst geht gehen geht", "wandern", ""),
    ("work in the garden", "working in the garden", "arbeite arbeitest arbeitet arbeiten arbeitet",
     "im Garten", ""),
    ("watch TV", "watching TV", "sehe siehst sieht sehen seht", "", "fern"),
    ("listen to music", "listening to music", "höre hörst hört hören hört", "Musik", ""),
    ("sleep in", "sleeping in", "schlafe schläfst schläft schlafen schlaft", "lange", "")))
# "I prefer tea to coffee" -> "Ich trinke lieber Tee als Kaffee": the verb, the things
PREFERRED = (("drink", ("trinke", "trinkst", "trinkt", "trinken", "trinkt"),
              (("tea", "Tee"), ("coffee", "Kaffee"), ("juice", "Saft"), ("water", "Wasser"), ("milk", "Milch"))),
             ("eat", ("esse", "isst", "isst", "essen", "esst"),
              (("fish", "Fisch"), ("meat", "Fleisch"), ("rice", "Reis"), ("pasta", "Nudeln"), ("chicken", "Hähnchen"),
               ("salad", "Salat"), ("cake", "Kuchen"), ("fruit", "Obst"))))
# "I'd rather stay at home ." -> "Ich bleibe lieber zu Hause ."
RATHER = (("stay at home", ("bleibe", "bleibst", "bleibt", "bleiben", "bleibt"), "zu Hause"),
          ("go by train", ("fahre", "fährst", "fährt", "fahren", "fahrt"), "mit dem Zug"),
          ("go by bike", ("fahre", "fährst", "fährt", "fahren", "fahrt"), "mit dem Fahrrad"),
          ("walk", ("gehe", "gehst", "geht", "gehen", "geht"), "zu Fuß"),
          ("take the bus", ("nehme", "nimmst", "nimmt", "nehmen", "nehmt"), "den Bus"),
          ("eat at home", ("esse", "isst", "isst", "essen", "esst"), "zu Hause"))


def _preference(rng: random.Random) -> Example:
    """"I like swimming ." -> "Ich schwimme gern .", "I'd rather stay at home ." -> "Ich bleibe
    lieber zu Hause .", "I like reading best ." -> "Am liebsten lese ich ."."""
    kind = rng.random()
    subj = subject(rng, None, 0.75)
    if kind < 0.55:
        en_b, ing, forms, rest, prefix = rng.choice(HOBBIES)
        fin, tail = forms[subj.slot], [prefix] if prefix else []
        time_en, time_de = ("at the weekend", "am Wochenende") if en_b == "sleep in" or rng.random() < 0.15 else ("", "")
        style = rng.random()
        if style < 0.2:  # "Do you like swimming ?" -> "Schwimmst du gern ?"
            you = PERSONS["du"]
            return ex(["do you like", ing, time_en],
                      [forms[you.slot], "du", *time_de.split(), "gern", *rest.split(), *tail], "?", "preference")
        neg = style < 0.4
        love = not neg and style > 0.85
        verb = "love" if love else "like"
        aux, form = en_verb((verb, verb + "s", verb + "d", verb + "d", ""), "present", subj.agree, neg, rng)
        obj = ing if rng.random() < 0.7 else f"to {en_b}"
        gern = ["nicht", "gern"] if neg else ["sehr", "gern"] if love else ["gern"]
        cl = Clause(subj.de, fin, [], time_de.split(), [], gern, rest.split(), tail, noun_subj=not subj.pronoun)
        return ex([subj.en, aux, form, obj, time_en], cl.statement(), ".", "preference")
    if kind < 0.7:  # "I like swimming best ." / "What do you like doing best ?"
        if rng.random() < 0.2:
            return ex(["what do you like doing best"], ["was", "machst", "du", "am", "liebsten"], "?", "preference")
        en_b, ing, forms, rest, prefix = rng.choice(HOBBIES)
        like = "likes" if subj.agree == "3s" else "like"
        return ex([subj.en, like, ing, "best"], ["am", "liebsten", forms[subj.slot], subj.de, *rest.split(), prefix],
                  ".", "preference")
    if kind < 0.85:  # "I prefer tea to coffee ." -> "Ich trinke lieber Tee als Kaffee ."
        verb_en, forms, things = rng.choice(PREFERRED)
        (a_en, a_de), (b_en, b_de) = rng.sample(things, 2)
        if rng.random() < 0.3:
            return ex(["do you prefer", a_en, "or", b_en], [forms[1], "du", "lieber", a_de, "oder", b_de], "?",
                      "preference")
        prefer = "prefers" if subj.agree == "3s" else "prefer"
        return ex([subj.en, prefer, a_en, "to", b_en], [subj.de, forms[subj.slot], "lieber", a_de, "als", b_de],
                  ".", "preference")
    en_vp, forms, rest = rng.choice(RATHER)  # "We'd rather go by train ."
    if subj.pronoun and rng.random() < 0.7:
        lead = [subj.en + "'d", "rather"]
    else:
        lead = [subj.en, "would rather"]
    return ex([*lead, en_vp], [subj.de, forms[subj.slot], "lieber", *rest.split()], ".", "preference")


# -- where to and where: the two-way prepositions -----------------------------------------------
# German verb of putting: English verb, German present (ich du er wir ihr), du-imperative,
# participle, and the verb of being there ("steht", "stehen")
POSTURE = {"stellen": ("put", ("stelle", "stellst", "stellt", "stellen", "stellt"), "stell", "gestellt",
                       ("steht", "stehen")),
           "legen": ("put", ("lege", "legst", "legt", "legen", "legt"), "leg", "gelegt", ("liegt", "liegen")),
           "hängen": ("hang", ("hänge", "hängst", "hängt", "hängen", "hängt"), "häng", "gehängt",
                      ("hängt", "hängen"))}
# what goes where: the thing, how it is put, where (English preposition, German preposition, noun)
PUT = (("milk", "stellen", "in in fridge, on auf table"), ("bottle+", "stellen", "in in fridge, on auf table, in in cellar"),
       ("glass+", "stellen", "in in cupboard, on auf table, in in dishwasher"),
       ("plate+", "stellen", "in in cupboard, on auf table, in in dishwasher"),
       ("cup+", "stellen", "in in cupboard, on auf table, in in dishwasher"),
       ("shoe+", "stellen", "in in hall, under unter bed, in_front_of vor door"),
       ("bike", "stellen", "in in garage, in in cellar, behind hinter house"),
       ("plant+", "stellen", "on auf balcony, by an window, in in kitchen"),
       ("key+", "legen", "on auf table, on auf desk, in in drawer, in in bag"),
       ("key", "legen", "on auf table, on auf desk, in in drawer, in in bag"),
       ("book", "legen", "on auf table, on auf desk, on auf bed"), ("book+", "stellen", "on in shelf"),
       ("phone", "legen", "on auf table, on auf desk, in in bag, in in drawer"),
       ("newspaper", "legen", "on auf table, on auf sofa"), ("letter+", "legen", "on auf desk, on auf table, in in drawer"),
       ("wallet", "legen", "in in bag, in in drawer, on auf table"),
       ("jacket", "hängen", "in in wardrobe, on an hook"), ("coat", "hängen", "in in wardrobe, on an hook"),
       ("jacket", "legen", "on auf bed, on auf chair"), ("picture", "hängen", "on an wall, above über sofa, above über bed"),
       ("towel+", "hängen", "in in bathroom, on an hook"))
ROOMS = (("kitchen", "in"), ("living_room", "in"), ("bedroom", "in"), ("bathroom", "in"), ("garden", "in"),
         ("cellar", "in"), ("garage", "in"))
# animals: (English now, German present sg / pl, where: preposition pairs and nouns), and moving
ANIMAL_AT = (("sleeping", ("schläft", "schlafen"), "on auf sofa, on auf bed, on auf carpet"),
             ("lying", ("liegt", "liegen"), "under unter table, on auf sofa, under unter bed, in_front_of vor door"),
             ("sitting", ("sitzt", "sitzen"), "on auf chair, under unter table, on auf balcony"))
ANIMAL_TO = (("jumped onto", "gesprungen", "auf", "table sofa bed chair"),
             ("ran into", "gelaufen", "in", "garden kitchen living_room"),
             ("crawled under", "gekrochen", "unter", "bed table sofa"))


def _where(spec: str) -> list[tuple[str, str, str]]:
    return [tuple(w.replace("_", " ") if i == 0 else w for i, w in enumerate(item.split()))
            for item in spec.split(",")]


def _loc(en_prep: str, de_prep: str, name: str, case: str) -> tuple[str, list[str]]:
    en, de = noun_phrase(ALL[name], "the", case)
    return f"{en_prep} {en}", prep_phrase(de_prep, de).split()


def _place(rng: random.Random) -> Example:
    kind = rng.random()
    if kind < 0.7:
        name, how, where = rng.choice(PUT)
        en_put, forms, imp, part, lie = POSTURE[how]
        noun, pl = ALL[name.rstrip("+")], name.endswith("+")
        en_prep, de_prep, loc = rng.choice(_where(where))
        owner = PERSONS[rng.choice(("I", "du"))]
        det = rng.choice(("the", "poss")) if noun.own else "the"
        style = rng.random()
        if style < 0.3:  # "Put the milk in the fridge , please ."
            who, voc_en, voc_de = hearer(rng)
            t_en, t_de = noun_phrase(noun, det, "acc", pl or det == "poss" and noun.each and several(who), who)
            to_en, to_de = _loc(en_prep, de_prep, loc, "acc")
            finite = imp if who.key == "du" else forms[4] if who.key == "ihr" else forms[3]
            en, please, last = add_please(rng, [en_put, t_en, to_en])
            de = [finite, *(["Sie"] if who.key == "Sie" else []), *(["bitte"] if please else []), t_de, *to_de]
            en, de = vocative(en, de, voc_en, voc_de, rng, front=True if last else None)
            return ex(en, de, rng.choice(".!") if please else "!", "place")
        t_en, t_de = noun_phrase(noun, det, "nom", pl, owner)
        be_en, be_de = ("are", "sind") if pl or noun.gender == "pl" else ("is", "ist")
        if style < 0.45:  # "Where are my keys ?"
            return ex(["where", be_en, t_en], ["wo", be_de, t_de], "?", "place")
        if style < 0.6:  # "Where did you put my keys ?" -> "Wohin hast du meine Schlüssel gelegt ?"
            t_en, t_de = noun_phrase(noun, det, "acc", pl, owner)
            if rng.random() < 0.5:
                return ex(["where did you", en_put, t_en], ["wohin", "hast", "du", t_de, part], "?", "place")
            me = PERSONS[rng.choice(("I", "we"))]
            t_en, t_de = noun_phrase(noun, "the", "acc", pl)
            return ex(["where", rng.choice(("should", "shall")), me.en, en_put, t_en],
                      ["wohin", MODALS["sollen"][me.slot], me.de, t_de, how], "?", "place")
        if style < 0.8:  # "The milk is in the fridge ." (or "steht")
            at_en, at_de = _loc(en_prep, de_prep, loc, "dat")
            if how != "hängen" or rng.random() < 0.5:
                verb_de = lie[1 if be_de == "sind" else 0] if rng.random() < 0.4 else be_de
            else:
                verb_de = lie[1 if be_de == "sind" else 0]
            neg = rng.random() < 0.2
            if rng.random() < 0.2 and not neg:
                return ex([be_en, t_en, at_en], [be_de, t_de, *at_de], "?", "place")
            en_be = (be_en + "n't" if rng.random() < 0.75 else be_en + " not") if neg else be_en
            return ex([t_en, en_be, at_en], [t_de, verb_de, *(["nicht"] if neg else []), *at_de], ".", "place")
        subj = subject(rng, None, 0.8)  # "I put the keys on the table ." -> "... auf den Tisch gelegt ."
        t_en, t_de = noun_phrase(noun, det if subj.agree != "pl" else "the", "acc", pl, subj)
        to_en, to_de = _loc(en_prep, de_prep, loc, "acc")
        return ex([subj.en, "hung" if en_put == "hang" else "put", t_en, to_en],
                  [subj.de, HAVE[subj.slot], t_de, *to_de, part], ".", "place")
    if kind < 0.85:  # "The cat is sleeping on the sofa ." / "The dog jumped onto the table ."
        pet = ALL[rng.choice(("cat", "dog"))]
        det = rng.choice(("the", "poss"))
        p_en, p_de = noun_phrase(pet, det, "nom", owner=PERSONS[rng.choice(("I", "we"))])
        if rng.random() < 0.5:
            ing, de_v, where = rng.choice(ANIMAL_AT)
            en_prep, de_prep, loc = rng.choice(_where(where))
            at_en, at_de = _loc(en_prep, de_prep, loc, "dat")
            return ex([p_en, "is", ing, at_en], [p_de, de_v[0], *at_de], ".", "place")
        did, part, prep, locs = rng.choice(ANIMAL_TO)
        to_en, to_de = _loc(did.split()[1], prep, rng.choice(locs.split()), "acc")
        return ex([p_en, did.split()[0], to_en], [p_de, "ist", *to_de, part], ".", "place")
    room, prep = rng.choice(ROOMS)  # "I'm going into the garden ." / "My mother is in the kitchen ."
    subj = subject(rng, None, 0.6)
    be = be_form(subj.agree)
    if rng.random() < 0.5:
        at_en, at_de = _loc("in", prep, room, "dat")
        en = contract_subject(subj.en, be, rng) if subj.pronoun else [subj.en, be]
        return ex([*en, at_en], [subj.de, BE[subj.slot], *at_de], ".", "place")
    to_en, to_de = _loc("into", prep, room, "acc")
    go = ("gehe", "gehst", "geht", "gehen", "geht")[subj.slot]
    en = contract_subject(subj.en, be, rng) if subj.pronoun else [subj.en, be]
    return ex([*en, "going", to_en], [subj.de, go, *to_de], ".", "place")


MAKERS = {"dative": _dative, "there_is": _there_is, "preference": _preference, "place": _place}
