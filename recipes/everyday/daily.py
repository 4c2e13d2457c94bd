"""Daily-life sentences from a small, hand-checked German grammar.

The everyday model knows the words a class types ("homework" occurs in Ding's sentences) and
still builds the German sentence badly: "Ich habe habe meine Bleistift auf Heimat vergessen".
Ding has only ~15,000 sentences to learn German sentence building from, so this generator says
everyday English (family, school, food, shopping, weather, travel) in the shapes German builds
differently:

* the verb second, with the subject after it when a time comes first ("Heute gehe ich ...");
* the participle, the infinitive and a separable verb's prefix at the end ("Ich habe meine
  Mutter gestern angerufen", "Ruf bitte deine Mutter an");
* the verb last in "weil", "dass" and "wenn" clauses, and the main clause's verb first after a
  "wenn" clause ("Wenn es regnet , bleiben wir zu Hause");
* "nicht" after a definite object and before a place; "kein" for "not a" and "no";
* articles and possessives declined by gender and case (accusative, dative after "helfen" and
  "mit", accusative after "auf").

Every form comes from recipes/everyday/daily_lexicon.py, spelled out by hand. Sentences equal to
one of the project's hand-written test sentences are dropped by the everyday mix (mix.py).
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from recipes.everyday.daily_lexicon import (ADJECTIVES, BE, BE_PAST, COMPLEMENTS, DEGREES, HAVE,
                                            MODALS, NOUNS, TIMES, VERBS, WEATHER_ADJ, WEATHER_NOUN_ADJ, WEATHER_VERB,
                                            WILL, Noun, Verb)
from recipes.everyday.daily_clause import Clause, cap, split_words
from recipes.everyday.german import DEF, ENDING  # der / die / das; ein-word endings (shared)
from transformer.data.example import Example

POSSESSIVE = {"my": "mein", "your": "dein", "his": "sein", "her": "ihr", "our": "unser",
              "their": "ihr"}
# English subject pronouns: German, the slot of the German forms (ich du er wir), English agreement
PRONOUNS = (("I", "ich", 0, "I"), ("you", "du", 1, "pl"), ("he", "er", 2, "3s"),
            ("she", "sie", 2, "3s"), ("we", "wir", 3, "pl"), ("they", "sie", 3, "pl"))
THE_PERSONS = ("teacher", "doctor", "boss")  # "the teacher"; other persons take a possessive
SPOUSES = ("wife", "husband")  # "my wife", never "our wife"
# why someone did or did not do something: "because I was sick"
BECAUSE_STATES = ("tired", "hungry", "sick", "busy", "thirsty", "nervous", "happy", "sad")
ONLY_THE = ("room", "show", "opening")  # "the kitchen", "the film": not "a kitchen"
WHERE_VERBS = ("buy", "eat", "find", "lose", "meet", "play", "learn", "read")
NOT_ASKED = ("lose", "forget")  # no one is asked to lose a thing: only "Don't forget ...!"
NOT_TOLD = ("find",)  # "Find your key !" but never "Don't find your key !"
FRAMES = {"present": 0.16, "progressive": 0.06, "past": 0.16, "future": 0.05, "modal": 0.12,
          "question": 0.10, "wh": 0.07, "imperative": 0.06, "copula": 0.08, "weather": 0.04,
          "because": 0.04, "that": 0.03, "when": 0.03}
CONTRACT = 0.75  # share of negatives and "I'm" said contracted, as people type


@dataclass
class Subject:
    en: str
    de: str
    slot: int  # index into the German present forms: ich du er wir
    agree: str  # English agreement: "I" | "3s" | "pl"
    noun: str = ""  # the English noun of a noun subject ("mother")


def _a(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def noun_phrase(noun: Noun, det: str, case: str, negated: bool = False) -> tuple[str, str]:
    """(English, German) of NOUN with DET ("the", "a", or a possessive) in CASE. NEGATED with "a"
    (or no article) gives German "kein": "I don't have a car" -> "kein Auto"."""
    de_noun = noun.de_dat if case == "dat" else noun.de
    g = noun.gender
    if det == "a":
        if noun.kind == "count" and g != "pl":
            en = f"{_a(noun.en)} {noun.en}"
            art = ("kein" if negated else "ein") + ENDING[case][g]
        else:  # bread, shoes, football: no article in either language
            en = noun.en
            art = "kein" + ENDING[case][g] if negated else ""
        return en, f"{art} {de_noun}".strip()
    if det == "the":
        return f"the {noun.en}", f"{DEF[case][g]} {de_noun}"
    return f"{det} {noun.en}", f"{POSSESSIVE[det]}{ENDING[case][g]} {de_noun}"


def _noun_subject(noun: Noun, det: str) -> Subject:
    """"my parents" agree in the plural (sie-form, "are"), "my mother" in the third singular."""
    en, de = noun_phrase(noun, det, "nom")
    plural = noun.gender == "pl"
    return Subject(en, de, 3 if plural else 2, "pl" if plural else "3s", noun.en)


def pick_subject(rng: random.Random) -> Subject:
    if rng.random() < 0.7:
        en, de, slot, agree = rng.choice(PRONOUNS)
        return Subject(en, de, slot, agree)
    noun = rng.choice(NOUNS["person"])
    det = "the" if noun.en in THE_PERSONS and rng.random() < 0.5 else \
        rng.choice(("my", "your") if noun.en in SPOUSES else ("my", "our", "your"))
    return _noun_subject(noun, det)


def pick_object(rng: random.Random, verb: Verb, subj: Subject, negated: bool,
                imperative: bool = False) -> tuple[str, str, str]:
    """(English, German, how "nicht" goes with it: "after" the object, "before" it, or "" when
    the object carries "kein")."""
    if not verb.objects:
        comp_en, comp_de = rng.choice(COMPLEMENTS[verb.en[0]])
        return comp_en, comp_de, "before"
    choices = [n for c in verb.objects for n in NOUNS[c] if verb.takes(n) and n.en != subj.noun]
    noun = rng.choice(choices)
    if noun.kind == "bare":
        det = "a"
    elif verb.objects == ("person",):
        det = "the" if noun.en in THE_PERSONS and rng.random() < 0.4 else \
            rng.choice(("your", "my") if imperative or noun.en in SPOUSES else
                       ("my", "your", "his", "her", "our", "their"))
    elif set(verb.objects) & set(ONLY_THE) and any(noun in NOUNS[c] for c in ONLY_THE):
        det = rng.choice(("the", "the", "my", "your")) if noun in NOUNS["room"] else "the"
    else:
        det = rng.choice(("the", "a", "a", "my", "your", "the") if not imperative else
                         ("the", "a", "your", "your"))
    if det == "a" and verb.en[0] == "like" and noun.kind == "count" and noun.gender != "pl":
        det = "the"  # "Do you like an egg ?" means "would you like": "the egg", or "eggs"
    case = {"dat": "dat", "mit": "dat"}.get(verb.case, "acc")
    en, de = noun_phrase(noun, det, case, negated)
    if verb.case in ("auf", "mit"):
        return en, f"{verb.case} {de}", "before"
    if det == "a":
        return en, de, ""
    return en, de, "after"


def _middle(obj_de: str, nicht: str, negated: bool) -> list[str]:
    if not negated or not nicht:
        return split_words(obj_de)
    return ["nicht", *split_words(obj_de)] if nicht == "before" else [*split_words(obj_de), "nicht"]


def _en_present(verb: Verb, subj: Subject, negated: bool, rng: random.Random) -> str:
    if negated:
        aux = "doesn't" if subj.agree == "3s" else "don't"
        if rng.random() > CONTRACT:
            aux = aux.replace("n't", " not")
        return f"{aux} {verb.en[0]}"
    return verb.en[1] if subj.agree == "3s" else verb.en[0]


def be_word(subj: Subject, past: bool = False) -> str:
    """'am' / 'is' / 'are' (or 'was' / 'were') for SUBJ; daily_talk says the same."""
    if past:
        return "were" if subj.agree == "pl" else "was"
    return {"I": "am", "3s": "is", "pl": "are"}[subj.agree]


def _neg(word: str, rng: random.Random) -> str:
    """'is' -> "isn't" (or "is not"); 'am' -> "am not"."""
    if word == "am" or rng.random() > CONTRACT:
        return f"{word} not"
    return {"will": "won't", "can": "can't"}.get(word, word + "n't")


def _en_subject_be(subj: Subject, be: str, rng: random.Random) -> str:
    """"I'm", "we're" as people type them, or "I am"."""
    if be in ("am", "are", "is") and subj.en in ("I", "you", "he", "she", "we", "they") \
            and rng.random() < 0.5:
        return {"am": "'m", "are": "'re", "is": "'s"}[be].join((subj.en, ""))
    return f"{subj.en} {be}"


def verb_clause(rng: random.Random, verb: Verb, subj: Subject, tense: str, negated: bool,
                time: tuple[str, str] = ("", ""), modal: str = "") -> tuple[list[str], Clause]:
    """The English after the subject as [verb words, object, time], and the German clause."""
    obj_en, obj_de, nicht = pick_object(rng, verb, subj, negated)
    middle = _middle(obj_de, nicht, negated)
    time_en, time_de = time
    if tense == "present":
        en = _en_present(verb, subj, negated, rng)
        cl = Clause(subj.de, verb.de[subj.slot], time_de, middle, split_words(verb.prefix), bool(verb.prefix))
    elif tense == "progressive":
        be = be_word(subj)
        en = f"{_neg(be, rng) if negated else be} {verb.en[3]}"
        cl = Clause(subj.de, verb.de[subj.slot], time_de, middle, split_words(verb.prefix), bool(verb.prefix))
    elif tense == "past":
        did = "didn't" if rng.random() < CONTRACT else "did not"
        en = f"{did} {verb.en[0]}" if negated else verb.en[2]
        if verb.preterite:  # "Ich hatte kein Auto", not "Ich habe kein Auto gehabt"
            cl = Clause(subj.de, verb.preterite[subj.slot], time_de, middle)
        else:
            aux = HAVE if verb.aux == "haben" else BE
            cl = Clause(subj.de, aux[subj.slot], time_de, middle, [verb.participle])
    elif tense == "future":
        en = f"{_neg('will', rng) if negated else 'will'} {verb.en[0]}"
        cl = Clause(subj.de, WILL[subj.slot], time_de, middle, [verb.infinitive])
    else:  # a modal
        forms, neg_en = MODALS[modal]
        if negated:
            en_mod = neg_en.replace("don't", "doesn't") if subj.agree == "3s" else neg_en
        else:
            en_mod = {"have to": "has to", "want to": "wants to"}.get(modal, modal) \
                if subj.agree == "3s" else modal
        en = f"{en_mod} {verb.en[0]}"
        cl = Clause(subj.de, forms[subj.slot], time_de, middle, [verb.infinitive])
    return [en, obj_en, time_en], cl


def _time(rng: random.Random, kind: str, p: float = 0.6, negated: bool = False) -> tuple[str, str]:
    """A time of KIND (or none). Negated clauses take no "every day": "doesn't ... every week"
    means "not every week", which German says with "nicht" before the time."""
    pool = [t for t in TIMES[kind] if not (negated and t[0].startswith("every"))]
    return rng.choice(pool) if rng.random() < p else ("", "")


def example(en_words: list[str], de_words: list[str], end: str, frame: str,
            task: str = "daily") -> Example:
    """One pair, both sides capitalised and ended by END; the meta names the TASK and FRAME, so a
    mix can count its sources (daily_talk passes task="daily_talk")."""
    return Example(f"{cap(en_words)} {end}", f"{cap(de_words)} {end}", {"task": task, "frame": frame})


def _statement(rng: random.Random, tense: str) -> Example:
    verb = rng.choice([v for v in VERBS if tense in ("present", "past")
                       or (not v.stative if tense == "progressive" else v.en[0] != "like")])
    subj = pick_subject(rng)
    negated = rng.random() < 0.3
    modal = ""
    if tense == "modal":
        modal = rng.choice([m for m, (_, neg) in MODALS.items() if neg or not negated])
        time = _time(rng, "modal", 0.4)
    else:
        kind = {"present": "present", "progressive": "now", "past": "past", "future": "future"}[tense]
        if tense == "present" and not negated and rng.random() < 0.2:
            kind = "clock"
        time = _time(rng, kind, negated=negated)
    (en_verb, obj, time_en), cl = verb_clause(rng, verb, subj, tense, negated, time, modal)
    if time_en and rng.random() < 0.3:  # "Yesterday I called my mother ." -> "Gestern habe ich ..."
        return example([time_en, subj.en, en_verb, obj], cl.statement(True), ".", tense)
    return example([subj.en, en_verb, obj, time_en], cl.statement(), ".", tense)


def _question(rng: random.Random) -> Example:
    verb = rng.choice(VERBS)
    subj = pick_subject(rng)
    tense = rng.choice(("present", "present", "past", "modal", "future", "progressive"))
    if tense == "progressive" and verb.stative:
        tense = "present"
    time = _time(rng, {"present": "present", "past": "past", "future": "future",
                       "modal": "now", "progressive": "now"}[tense], 0.4)
    (_, obj, time_en), cl = verb_clause(rng, verb, subj, tense, False, time, "can")
    lead = {"present": ("does" if subj.agree == "3s" else "do", verb.en[0]),
            "past": ("did", verb.en[0]), "modal": ("can", verb.en[0]),
            "future": ("will", verb.en[0]), "progressive": (be_word(subj), verb.en[3])}[tense]
    return example([lead[0], subj.en, lead[1], obj, time_en], cl.question(), "?", "question")


def _wh(rng: random.Random) -> Example:
    wh_en, wh_de = rng.choice((("when", "wann"), ("why", "warum"), ("where", "wo")))
    verb = rng.choice([v for v in VERBS if wh_en != "where" or v.en[0] in WHERE_VERBS])
    subj = pick_subject(rng)
    past = rng.random() < 0.4
    negated = wh_en == "why" and rng.random() < 0.4
    (_, obj, _), cl = verb_clause(rng, verb, subj, "past" if past else "present", negated)
    aux = "did" if past else "does" if subj.agree == "3s" else "do"
    if negated:
        aux += "n't"
    return example([wh_en, aux, subj.en, verb.en[0], obj], cl.question(wh_de), "?", "wh")


def _imperative(rng: random.Random) -> Example:
    verb = rng.choice([v for v in VERBS if v.imperative != "-"])
    you = Subject("you", "du", 1, "pl")
    negated = (rng.random() < 0.25 or verb.en[0] in NOT_ASKED) and verb.en[0] not in NOT_TOLD
    obj_en, obj_de, nicht = pick_object(rng, verb, you, negated, imperative=True)
    for _ in range(10):  # "Don't buy a newspaper !" is odd: "Don't forget your key !"
        if not negated or nicht:
            break
        obj_en, obj_de, nicht = pick_object(rng, verb, you, negated, imperative=True)
    else:  # "play", "learn": only bare objects ("football"), asked for positively
        negated = False
        obj_en, obj_de, nicht = pick_object(rng, verb, you, negated, imperative=True)
    middle = _middle(obj_de, nicht, negated)
    en_verb = " ".join(w for w in (verb.en[0], obj_en) if w)
    if negated:
        return example(["don't", en_verb], [verb.imperative, *middle, verb.prefix], "!", "imperative")
    de = [verb.imperative, "bitte", *middle, verb.prefix]
    if rng.random() < 0.5:
        return example(["please", en_verb], de, ".", "imperative")
    return example([en_verb, ", please"], de, ".", "imperative")


def copula_clause(rng: random.Random, past: bool, negated: bool, states: bool = False,
                  subj: Subject | None = None) -> tuple[str, Clause, Subject]:
    """"the soup is too salty" / "I'm tired": (English, German clause, subject). STATES: only a
    person's passing states (a reason: "because I was sick")."""
    if subj is None and rng.random() < 0.4:
        subj = pick_subject(rng)
    person = subj is not None
    if person:
        adj_en, adj_de = rng.choice([a for a in ADJECTIVES["person"]
                                     if not states or a[0] in BECAUSE_STATES])
    else:
        cls = rng.choice([c for c in ADJECTIVES if c != "person"])
        noun = rng.choice(NOUNS[cls])
        subj = _noun_subject(noun, rng.choice(("the", "the", "my", "your", "our")))
        adj_en, adj_de = rng.choice(ADJECTIVES[cls])
    deg_en, deg_de = ("very", "sehr") if negated and rng.random() < 0.3 else \
        ("", "") if negated else rng.choice(DEGREES)
    be = be_word(subj, past)
    forms = BE_PAST if past else BE
    en_be = _neg(be, rng) if negated else be
    en = " ".join(w for w in (en_be, deg_en, adj_en) if w)
    # "I was tired yesterday", not "The story was old yesterday"
    time = _time(rng, "past" if past else "now", 0.3) if person else ("", "")
    cl = Clause(subj.de, forms[subj.slot], time[1], [*(["nicht"] if negated else []), *split_words(deg_de),
                                                       *split_words(adj_de)])
    return f"{en} {time[0]}".strip(), cl, subj


def _copula(rng: random.Random) -> Example:
    past, negated = rng.random() < 0.35, rng.random() < 0.25
    en, cl, subj = copula_clause(rng, past, negated)
    if rng.random() < 0.2 and not negated:  # "Is the soup hot ?"
        return example([en.split(" ", 1)[0], subj.en, en.split(" ", 1)[1]], cl.question(), "?",
                        "copula")
    if not negated and not past and " " not in subj.en:
        be = en.split(" ", 1)
        return example([_en_subject_be(subj, be[0], rng), be[1] if len(be) > 1 else ""],
                        cl.statement(), ".", "copula")
    return example([subj.en, en], cl.statement(), ".", "copula")


def _be_adjective(subj_de: str, adj: tuple[str, str], tense: str, negated: bool, time_de: str,
                  rng: random.Random) -> tuple[str, Clause]:
    """The English after the subject ("is cold", "won't be nice") and the German clause
    ("es ist heute kalt", "das Wetter wird nicht schön sein")."""
    adj_en, adj_de = adj
    rest = [*(["nicht"] if negated else []), adj_de]
    if tense == "future":
        return (f"{_neg('will', rng) if negated else 'will'} be {adj_en}",
                Clause(subj_de, "wird", time_de, rest, ["sein"]))
    be = "was" if tense == "past" else "is"
    return (f"{_neg(be, rng) if negated else be} {adj_en}",
            Clause(subj_de, "war" if tense == "past" else "ist", time_de, rest))


def weather_clause(rng: random.Random, tense: str, negated: bool) -> tuple[str, str, Clause]:
    """"it is cold" / "it rained" (English after "it"), the time's English ("today",
    "yesterday" or ""), and the German clause."""
    time_en, time_de = _time(rng, {"present": "now", "past": "past", "future": "future"}[tense], 0.6)
    if rng.random() < 0.5:  # an adjective
        en, cl = _be_adjective("es", rng.choice(WEATHER_ADJ), tense, negated, time_de, rng)
    else:
        ing, past_en, base, de_pres, de_part, de_inf = rng.choice(WEATHER_VERB)
        nicht = ["nicht"] if negated else []
        if tense == "present":
            en = f"{_neg('is', rng) if negated else 'is'} {ing}"
            cl = Clause("es", de_pres, time_de, nicht)
        elif tense == "past":
            en = f"didn't {base}" if negated else past_en
            cl = Clause("es", "hat", time_de, nicht, [de_part])
        else:
            en = f"{_neg('will', rng) if negated else 'will'} {base}"
            cl = Clause("es", "wird", time_de, nicht, [de_inf])
    return en, time_en, cl


def _the_weather(rng: random.Random, tense: str, negated: bool) -> Example:
    """"The weather is nice today ." -> "Das Wetter ist heute schön .": the noun as subject, so
    the adjective is the weather's ("schön"), and German puts the time before it."""
    time_en, time_de = _time(rng, {"present": "now", "past": "past", "future": "future"}[tense], 0.6)
    adj_en, adj_de = rng.choice(WEATHER_NOUN_ADJ)
    en, cl = _be_adjective("das Wetter", (adj_en, adj_de), tense, negated, time_de, rng)
    if not negated and tense == "present" and rng.random() < 0.2:  # "Is the weather nice today ?"
        return example(["is the weather", adj_en, time_en], cl.question(), "?", "weather")
    if time_en and rng.random() < 0.3:  # "Today the weather is nice ." -> "Heute ist das Wetter schön ."
        return example([time_en, "the weather", en], cl.statement(True), ".", "weather")
    return example(["the weather", en, time_en], cl.statement(), ".", "weather")


def _weather(rng: random.Random) -> Example:
    tense = rng.choice(("present", "present", "past", "future"))
    negated = rng.random() < 0.25
    if rng.random() < 0.3:
        return _the_weather(rng, tense, negated)
    en, time_en, cl = weather_clause(rng, tense, negated)
    if not negated and en.startswith("is ") and rng.random() < 0.2:  # "Is it cold ?"
        return example(["is it", en[3:], time_en], cl.question(), "?", "weather")
    if time_en and rng.random() < 0.3:  # "Today it is cold ." -> "Heute ist es kalt ."
        return example([time_en, "it", en], cl.statement(True), ".", "weather")
    return example(["it", en, time_en] if not en.startswith("is ") or rng.random() < 0.5
                    else ["it's", en[3:], time_en], cl.statement(), ".", "weather")


def _because(rng: random.Random) -> Example:
    """"I stayed at home because I was sick ." -> "..., weil ich krank war ."."""
    past = rng.random() < 0.5
    subj = Subject(*rng.choice(PRONOUNS))
    verb = rng.choice([v for v in VERBS if v.en[0] in ("go", "stay", "sleep", "work", "eat", "drink",
                                                         "call", "visit", "get up", "come")])
    negated = rng.random() < 0.4
    en, cl = verb_clause(rng, verb, subj, "past" if past else "present", negated,
                         _time(rng, "past" if past else "present", 0.3, negated))
    en_b, cl_b, _ = copula_clause(rng, past, False, states=True, subj=subj)
    return example([subj.en, *en, "because", subj.en, en_b],
                    cl.statement() + [",", "weil"] + cl_b.subordinate(), ".", "because")


def _that(rng: random.Random) -> Example:
    """"I think that the soup is too salty ." -> "Ich glaube , dass die Suppe zu salzig ist ."."""
    lead_en, lead_de = rng.choice((("I think", "Ich glaube"), ("I know", "Ich weiß"),
                                   ("she says", "sie sagt"),
                                   ("we think", "wir glauben"), ("he knows", "er weiß")))
    if rng.random() < 0.5:
        en, cl, subj = copula_clause(rng, rng.random() < 0.3, rng.random() < 0.2)
        sub_en = [subj.en, en]
    else:
        tense = rng.choice(("present", "past", "future"))
        subj = pick_subject(rng)
        negated = rng.random() < 0.2
        parts, cl = verb_clause(rng, rng.choice(VERBS), subj, tense, negated,
                                _time(rng, tense, 0.4, negated))
        sub_en = [subj.en, *parts]
    that = "that" if rng.random() < 0.6 else ""
    return example([lead_en, that, *sub_en], [lead_de, ",", "dass", *cl.subordinate()], ".", "that")


def _when(rng: random.Random) -> Example:
    """"When I come home , I eat a sandwich ." / "If it rains , we stay at home ." ->
    "Wenn ich nach Hause komme , esse ich ein Sandwich ." (the main clause's verb first)."""
    subj = Subject(*rng.choice(PRONOUNS))
    if rng.random() < 0.5:
        first = rng.choice([v for v in VERBS if v.en[0] in ("come", "get up", "go")])
        parts, cl_a = verb_clause(rng, first, subj, "present", False)
        sub_en = ["when", subj.en, *parts]
    else:  # "if it rains", "if it is cold": the weather, in the present
        adj_en, adj_de = rng.choice(WEATHER_ADJ)
        ing, _, base, de_pres, _, _ = rng.choice(WEATHER_VERB)
        if rng.random() < 0.5:
            sub_en, cl_a = ["if it is", adj_en], Clause("es", "ist", "", [adj_de])
        else:
            sub_en, cl_a = ["if it", base + "s"], Clause("es", de_pres)
    verb = rng.choice([v for v in VERBS if v.en[0] not in ("come", "get up")])
    parts, cl_b = verb_clause(rng, verb, subj, "present", rng.random() < 0.2)
    return example([*sub_en, ",", subj.en, *parts],
                    ["wenn", *cl_a.subordinate(), ",", *cl_b.inverted()], ".", "when")


MAKERS = {"present": lambda r: _statement(r, "present"), "progressive": lambda r: _statement(r, "progressive"),
          "past": lambda r: _statement(r, "past"), "future": lambda r: _statement(r, "future"),
          "modal": lambda r: _statement(r, "modal"), "question": _question, "wh": _wh,
          "imperative": _imperative, "copula": _copula, "weather": _weather, "because": _because,
          "that": _that, "when": _when}


def draw(makers: dict, frames: dict[str, float], n: int, rng: random.Random,
         cap: float | None = None) -> list[Example]:
    """N distinct pairs (fewer if the grammar runs out after 20 N tries), each from a frame drawn
    by its weight in FRAMES and made by MAKERS[frame](rng). With CAP no frame takes more than CAP
    times its share: a frame with many distinct sentences would otherwise fill what a small one
    cannot."""
    names, weights = zip(*frames.items())
    limit = {name: max(1, int(cap * w * n)) if cap else n for name, w in frames.items()}
    taken = dict.fromkeys(names, 0)
    out, seen = [], set()
    tries = 0
    while len(out) < n and tries < 20 * n:
        tries += 1
        name = rng.choices(names, weights)[0]
        ex = makers[name](rng)
        if ex.src not in seen and taken[name] < limit[name]:
            seen.add(ex.src)
            taken[name] += 1
            out.append(ex)
    return out


def generate(n: int, seed: int = 0) -> list[Example]:
    """N distinct sentence pairs (fewer if the grammar runs out), in a seeded order."""
    return draw(MAKERS, FRAMES, n, random.Random(f"daily:{seed}"))
