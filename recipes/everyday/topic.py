"""Sentences of a lesson on attention, language and translation (the everyday mix's ``topic``
option, issue 50 item 4): "The robot translates the sentence into German ." -> "Der Roboter
übersetzt den Satz ins Deutsche .", "The student reads the word and understands its meaning ." ->
"Der Student liest das Wort und versteht seine Bedeutung .".

The default model had never read "robot", "attention" or "translate" (the mix's sources never say
them). The words are a hand-written table (data/topic_nouns.tsv, topic_verbs.tsv,
topic_adjectives.tsv: each noun's gender and plural checked against Ding's entry), written from
what such a lesson says, not from any test file. The frames: present, perfect (the participle
last), modals (können / wollen / müssen, the infinitive last), yes / no questions, negation with
"nicht" and "kein", objects in the accusative, the dative or after "auf" (achten auf), separable
verbs ("sieht ... an"), "its meaning" (sein / ihr by the antecedent's gender), "into German" (ins
Deutsche), "from English" (aus dem Englischen). Inflection from recipes/everyday/german.py.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from recipes.everyday import daily, german as G, tables
from transformer.data.example import Example

TASK = "everyday_topic"


@dataclass(frozen=True)
class Noun:
    cls: str
    en: str
    en_pl: str
    de: str
    gender: str
    de_pl: str
    obl: str  # the singular in the accusative and dative ("Studenten")


@dataclass(frozen=True)
class Verb:
    en: str
    en3: str
    en_pp: str
    de: str
    de1: str
    de3: str
    de3pl: str
    particle: str
    de_pp: str
    aux: str
    case: str
    subj: tuple[str, ...]
    obj: tuple[str, ...]


@dataclass(frozen=True)
class Adj:
    en: str
    de: str
    pred: bool
    nouns: tuple[str, ...]


NOUNS = tuple(Noun(**r) for r in (dict(r, cls=r.pop("class")) for r in tables.rows("topic_nouns.tsv")))
VERBS = tuple(Verb(**dict(r, subj=tuple(r["subj"].split()), obj=tuple(r["obj"].split())))
              for r in tables.rows("topic_verbs.tsv"))
ADJS = tuple(Adj(r["en"], r["de"], r["pred"] == "y", tuple(r["nouns"].split()))
             for r in tables.rows("topic_adjectives.tsv"))
BY_EN = {n.en: n for n in NOUNS}
LANGS = tuple(n for n in NOUNS if n.cls == "lang")
# English modal, its 3rd person singular, its negation; the German modal
MODALS = (("can", "can", "cannot", "können"), ("want to", "wants to", "does not want to", "wollen"),
          ("must", "must", None, "müssen"))
# the subject's person: index into german.py's verb tuples (ich, du, er, wir)
PERSON = {"1sg": 0, "2sg": 1, "3sg": 2, "1pl": 3, "3pl": 3}


def _fits(noun: Noun, allowed) -> bool:
    return noun.cls in allowed or noun.en in allowed


def _an(word: str) -> str:
    return "an" if word[0].lower() in "aeio" or (word[0].lower() == "u" and not word.startswith("use")) \
        else "a"


def _dat_pl(word: str) -> str:
    return word if word.endswith(("n", "s")) else word + "n"


def np(noun: Noun, case: str, pl: bool = False, art: str = "def", adj: Adj | None = None
       ) -> tuple[list[str], list[str]]:
    """(English words, German words) of a noun phrase: ART "def" (the / der), "indef" (a / ein;
    plural: no article), "kein" (no / kein)."""
    g = "pl" if pl else noun.gender
    form = (_dat_pl(noun.de_pl) if case == "dat" else noun.de_pl) if pl else \
        (noun.de if case == "nom" else noun.obl)
    en_noun = noun.en_pl if pl else noun.en
    en_adj = [adj.en] if adj else []
    if art == "def":
        de = [G.DEF[case][g]] + ([adj.de + G.WEAK[case][g]] if adj else [])
        en = ["the"] + en_adj
    elif art == "kein":
        de = ["kein" + G.ENDING[case][g]] + ([adj.de + G.MIXED[case][g]] if adj else [])
        en = ["no"] + en_adj
    elif pl:
        de = [adj.de + G.STRONG[case][g]] if adj else []
        en = en_adj
    else:
        de = ["ein" + G.ENDING[case][g]] + ([adj.de + G.MIXED[case][g]] if adj else [])
        en = [_an((en_adj + [en_noun])[0])] + en_adj
    return en + [en_noun], de + [form]


def _adj_for(rng: random.Random, noun: Noun, art: str, p: float = 0.25) -> Adj | None:
    if noun.cls == "lang" or rng.random() >= p:
        return None
    ok = [a for a in ADJS if noun.cls in a.nouns and (a.pred or art == "def")]
    return rng.choice(ok) if ok else None


def _subject(rng: random.Random, classes, pronouns: bool = True):
    """(English words, German words, person, noun or None)."""
    if pronouns and "person" in classes and rng.random() < 0.15:
        return (["I"], ["ich"], "1sg", None) if rng.random() < 0.5 else (["we"], ["wir"], "1pl", None)
    noun = rng.choice([n for n in NOUNS if _fits(n, classes) and n.cls != "lang"])
    pl = rng.random() < 0.3
    en, de = np(noun, "nom", pl, "def", _adj_for(rng, noun, "def", 0.1))
    return en, de, "3pl" if pl else "3sg", noun


def _object(rng: random.Random, verb: Verb, subj: Noun | None, definite: bool = False):
    """(English words, German words, noun) of VERB's object (never the subject's noun)."""
    noun = rng.choice([n for n in NOUNS if _fits(n, verb.obj) and n.cls != "lang" and n != subj])
    pl = rng.random() < 0.3
    art = "def" if definite or verb.case != "acc" or rng.random() < 0.7 else "indef"
    en, de = np(noun, "dat" if verb.case == "dat" else "acc", pl, art, _adj_for(rng, noun, art))
    return en, de, noun


def _de_verb(verb: Verb, person: str) -> str:
    return {"1sg": verb.de1, "3sg": verb.de3}.get(person, verb.de3pl)


def _en_verb(verb: Verb, person: str) -> str:
    return verb.en3 if person == "3sg" else verb.en


def _cap(words: list[str]) -> str:
    s = " ".join(w for w in words if w)
    return s[0].upper() + s[1:]


def _pair(en: list[str], de: list[str], end: str, frame: str, **meta) -> Example:
    return Example(f"{_cap(en)} {end}", f"{_cap(de)} {end}", {"task": TASK, "frame": frame, **meta})


def clause(verb: Verb, tense: str, s_en, s_de, person, o_en, o_de, neg=False, question=False,
           adv_en=(), adv_de=(), modal=None):
    """(English words, German words) of one clause. TENSE: "present", "perfect", "modal"."""
    en_obj = list(o_en) + list(adv_en)
    # the German middle field: "nicht" before a prepositional object and before the adverbial
    if verb.case == "auf":
        mid = (["nicht"] if neg else []) + ["auf"] + list(o_de)
    else:
        mid = list(o_de) + (["nicht"] if neg else [])
    mid += list(adv_de)
    i = PERSON[person]
    if tense == "present":
        finite, last = _de_verb(verb, person), [verb.particle]
        if question:
            en = ["does" if person == "3sg" else "do"] + s_en + [verb.en] + en_obj
        elif neg:
            en = s_en + ["does not" if person == "3sg" else "do not", verb.en] + en_obj
        else:
            en = s_en + [_en_verb(verb, person)] + en_obj
    elif tense == "perfect":
        finite, last = (G.HAVE if verb.aux == "haben" else G.BE)[i], [verb.de_pp]
        en_aux = "has" if person == "3sg" else "have"
        if question:
            en = [en_aux] + s_en + [verb.en_pp] + en_obj
        else:
            en = s_en + [en_aux] + (["not"] if neg else []) + [verb.en_pp] + en_obj
    else:
        m_en, m_en3, m_neg, m_de = modal
        finite, last = G.MODALS[m_de][i], [verb.de]
        if question:
            en = [m_en.split()[0]] + s_en + [verb.en] + en_obj  # "can"
        elif neg:
            en = s_en + ([m_neg] if person == "3sg" or m_en == "can" else ["do not want to"]) + [verb.en] + en_obj
        else:
            en = s_en + [m_en3 if person == "3sg" else m_en, verb.en] + en_obj
    de = ([finite] + s_de if question else s_de + [finite]) + mid + last
    return en, de


def _svo(rng: random.Random, tense: str, neg=False, question=False) -> Example:
    verb = rng.choice([v for v in VERBS if ("lang" not in v.obj or len(v.obj) > 1)
                       and not (tense == "modal" and v.en == "need")])
    s_en, s_de, person, s_noun = _subject(rng, verb.subj, pronouns=not question)
    o_en, o_de, _ = _object(rng, verb, s_noun, definite=neg)
    modal = None
    if tense == "modal":
        modal = rng.choice([m for m in MODALS if m[2] or not neg])
        if question:  # "Must the robot ...?" is stilted English: questions ask "can"
            modal = MODALS[0]
    en, de = clause(verb, tense, s_en, s_de, person, o_en, o_de, neg, question, modal=modal)
    frame = ("question_" if question else "negation_" if neg else "") + tense
    return _pair(en, de, "?" if question else ".", frame)


def _lang_adv(rng: random.Random):
    """("into German" words, "ins Deutsche" words), sometimes with "from English"."""
    to, frm = rng.sample(LANGS, 2)
    en, de = ["into", to.en], ["ins", to.de + "e"]
    if rng.random() < 0.5:
        en, de = ["from", frm.en] + en, ["aus", "dem", frm.de + "en"] + de
    elif rng.random() < 0.3:
        en, de = ["from", frm.en], ["aus", "dem", frm.de + "en"]
    return en, de


def _translate(rng: random.Random) -> Example:
    verb = next(v for v in VERBS if v.en == "translate")
    adv_en, adv_de = _lang_adv(rng)
    noun = rng.choice([n for n in NOUNS if n.cls == "text" and n.en not in ("translation", "dictionary")])
    pl = rng.random() < 0.3
    art = "def" if rng.random() < 0.8 else "indef"
    o_en, o_de = np(noun, "acc", pl, art, _adj_for(rng, noun, art, 0.15))
    kind = rng.choices(["present", "perfect", "modal", "you", "please", "neg"], [4, 3, 3, 1.5, 1, 1.5])[0]
    if kind == "please":
        return _pair(["please", "translate"] + o_en + adv_en, ["bitte", "übersetzen", "Sie"] + o_de + adv_de,
                     ".", "translate_please")
    if kind == "you":
        en, de = clause(verb, "modal", ["you"], ["du"], "2sg", o_en, o_de, question=True,
                        adv_en=adv_en, adv_de=adv_de, modal=MODALS[0])
        return _pair(en, de, "?", "translate_question")
    s_en, s_de, person, _ = _subject(rng, verb.subj)
    if kind == "neg":
        o_en, o_de = np(noun, "acc", pl, "def")
        en, de = clause(verb, "present", s_en, s_de, person, o_en, o_de, neg=True,
                        adv_en=adv_en, adv_de=adv_de)
        return _pair(en, de, ".", "translate_negation")
    modal = rng.choice(MODALS) if kind == "modal" else None
    en, de = clause(verb, kind, s_en, s_de, person, o_en, o_de, adv_en=adv_en, adv_de=adv_de,
                    modal=modal)
    return _pair(en, de, ".", "translate_" + kind)


def _possessive(noun: Noun, pl: bool) -> tuple[str, str]:
    """("its" / "their", "sein" / "ihr") for a noun."""
    if pl:
        return "their", "ihr"
    return "its", "ihr" if noun.gender == "f" else "sein"


def _meaning(rng: random.Random) -> Example:
    noun = rng.choice([n for n in NOUNS if n.cls == "text"])
    pl = rng.random() < 0.3
    p_en, p_de = _possessive(noun, pl)
    poss_de = p_de + G.ENDING["acc"]["f"]  # Bedeutung is feminine: seine / ihre
    if rng.random() < 0.3:  # "The word is new , but its meaning is clear ."
        a1 = rng.choice([a for a in ADJS if a.pred and "text" in a.nouns])
        a2 = rng.choice([a for a in ADJS if a.pred and "thing" in a.nouns and a.de != a1.de])
        s_en, s_de = np(noun, "nom", pl)
        be_en, be_de = ("are", "sind") if pl else ("is", "ist")
        return _pair(s_en + [be_en, a1.en, ",", "but", p_en, "meaning", "is", a2.en],
                     s_de + [be_de, a1.de, ",", "aber", poss_de, "Bedeutung", "ist", a2.de], ".",
                     "meaning_adjective", antecedent=noun.en)
    first = rng.choice([v for v in VERBS if v.en in ("read", "hear", "see", "learn", "write", "find")])
    second = rng.choice([v for v in VERBS if v.en in ("understand", "explain", "learn", "forget", "know")
                         and v.en != first.en])
    subj = tuple(c for c in first.subj if c in second.subj)
    s_en, s_de, person, _ = _subject(rng, subj)
    o_en, o_de = np(noun, "acc", pl)
    tense = "perfect" if rng.random() < 0.35 else "present"
    en1, de1 = clause(first, tense, s_en, s_de, person, o_en, o_de)
    if tense == "perfect":
        en = en1 + ["and", second.en_pp, p_en, "meaning"]
        de = de1[:-1] + [de1[-1], "und", poss_de, "Bedeutung", second.de_pp]
    else:
        en = en1 + ["and", _en_verb(second, person), p_en, "meaning"]
        de = de1 + ["und", _de_verb(second, person), poss_de, "Bedeutung"]
    return _pair(en, de, ".", "meaning_" + tense, antecedent=noun.en)


def _mean(rng: random.Random) -> Example:
    noun = rng.choice([n for n in NOUNS if n.cls == "text" or n.en in ("rule", "idea", "picture")])
    pl = rng.random() < 0.3
    s_en, s_de = np(noun, "nom", pl)
    if pl:
        return _pair(["what", "do"] + s_en + ["mean"], ["was", "bedeuten"] + s_de, "?", "mean")
    return _pair(["what", "does"] + s_en + ["mean"], ["was", "bedeutet"] + s_de, "?", "mean")


_HAVE_OBJ = ("dictionary", "book", "question", "answer", "idea", "example", "computer", "task",
             "problem", "pencil")
_CONTENT = ("mistake", "verb", "noun", "pronoun", "adjective", "article", "example", "question")
_CONTAINER = ("sentence", "text", "translation", "answer", "story", "message", "book", "page", "poem",
              "paragraph", "line", "list")


def _kein(rng: random.Random) -> Example:
    if rng.random() < 0.5:  # "The student has no dictionary ." -> "... hat kein Wörterbuch ."
        s_en, s_de, person, s_noun = _subject(rng, ("person", "machine"))
        noun = BY_EN[rng.choice([w for w in _HAVE_OBJ if w in BY_EN])]
        pl = person.endswith("pl") and noun.en in ("question", "idea", "example", "problem", "book",
                                                   "task", "answer")
        o_en, o_de = np(noun, "acc", pl, "kein")
        have_en = "has" if person == "3sg" else "have"
        have_de = G.HAVE[PERSON[person]]
        if not pl and rng.random() < 0.4:
            aux = "does not" if person == "3sg" else "do not"
            en = s_en + [aux, "have"] + np(noun, "acc", False, "indef")[0]
        else:
            en = s_en + [have_en] + o_en
        return _pair(en, s_de + [have_de] + o_de, ".", "kein_have")
    # "There is no mistake in the sentence ." -> "Im Satz gibt es keinen Fehler ."
    what = BY_EN[rng.choice(_CONTENT)]
    where = BY_EN[rng.choice([w for w in _CONTAINER if w != what.en])]
    pl = rng.random() < 0.4
    o_en, o_de = np(what, "acc", pl, "kein")
    art = G.DEF["dat"][where.gender]
    in_de = [G.CONTRACTIONS[("in", art)]] if ("in", art) in G.CONTRACTIONS else ["in", art]
    en = ["there", "are" if pl else "is", "no"] + o_en[1:] + ["in", "the", where.en]
    de = in_de + [where.obl, "gibt", "es"] + o_de
    return _pair(en, de, ".", "kein_there_is")


def _speak(rng: random.Random) -> Example:
    name = rng.choice(("speak", "speak", "learn", "understand"))
    verb = next(v for v in VERBS if v.en == name)
    s_en, s_de, person, _ = _subject(rng, ("person", "machine") if verb.en != "learn" else ("person",))
    a, b = rng.sample(LANGS, 2)
    kind = rng.choice(["two", "one", "modal", "neg", "question"])
    if kind == "two":
        return _pair(s_en + [_en_verb(verb, person), a.en, "and", b.en],
                     s_de + [_de_verb(verb, person), a.de, "und", b.de], ".", "language_two")
    if kind == "neg":  # "The robot does not speak French ." -> "Der Roboter spricht kein Französisch ."
        en = s_en + ["does not" if person == "3sg" else "do not", verb.en, a.en]
        return _pair(en, s_de + [_de_verb(verb, person), "kein", a.de], ".", "language_kein")
    if kind == "question":
        if person in ("1sg", "1pl"):
            s_en, s_de, person = ["you"], ["du"], "2sg"
            de_v = {"sprechen": "sprichst", "lernen": "lernst", "verstehen": "verstehst"}[verb.de]
        else:
            de_v = _de_verb(verb, person)
        en = ["does" if person == "3sg" else "do"] + s_en + [verb.en, a.en]
        return _pair(en, [de_v] + s_de + [a.de], "?", "language_question")
    if kind == "modal":
        m = rng.choice(MODALS)
        en, de = clause(verb, "modal", s_en, s_de, person, [a.en], [a.de], modal=m)
        return _pair(en, de, ".", "language_modal")
    return _pair(s_en + [_en_verb(verb, person), a.en], s_de + [_de_verb(verb, person), a.de], ".",
                 "language")


_JUDGED = ("idea", "task", "problem", "rule", "lesson", "grammar", "mistake", "pattern", "picture")


def _adjective(rng: random.Random) -> Example:
    adj = rng.choice([a for a in ADJS if a.pred])
    noun = rng.choice([n for n in NOUNS if n.cls in adj.nouns
                       and (n.cls != "thing" or n.en in _JUDGED)])
    pl = rng.random() < 0.3
    s_en, s_de = np(noun, "nom", pl)
    be_en, be_de = ("are", "sind") if pl else ("is", "ist")
    kind = rng.choice(["plain", "neg", "question"])
    if kind == "question":
        return _pair([be_en] + s_en + [adj.en], [be_de] + s_de + [adj.de], "?", "adjective_question")
    neg_en, neg_de = (["not"], ["nicht"]) if kind == "neg" else ([], [])
    return _pair(s_en + [be_en] + neg_en + [adj.en], s_de + [be_de] + neg_de + [adj.de], ".",
                 "adjective_" + kind)


MAKERS = {
    "present": lambda r: _svo(r, "present"), "perfect": lambda r: _svo(r, "perfect"),
    "modal": lambda r: _svo(r, "modal"),
    "question": lambda r: _svo(r, r.choice(["present", "perfect", "modal"]), question=True),
    "negation": lambda r: _svo(r, r.choice(["present", "perfect", "modal"]), neg=True),
    "translate": _translate, "meaning": _meaning, "mean": _mean, "kein": _kein,
    "language": _speak, "adjective": _adjective,
}
FRAMES = {"present": 0.17, "perfect": 0.13, "modal": 0.12, "question": 0.1, "negation": 0.1,
          "translate": 0.12, "meaning": 0.09, "mean": 0.02, "kein": 0.06, "language": 0.03,
          "adjective": 0.06}


def generate(n: int, seed: int = 0) -> list[Example]:
    """N distinct sentence pairs (fewer if the grammar runs out), in a seeded order; no frame takes
    more than 1.5 times its share."""
    return daily.draw(MAKERS, FRAMES, n, random.Random(f"topic:{seed}"), cap=1.5)
