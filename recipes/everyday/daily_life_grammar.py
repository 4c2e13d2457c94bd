"""The German and English sentence building of recipes/everyday/daily_life.py.

daily.py's clause has one middle field. These sentences need German's whole order of the middle
field: an unstressed pronoun straight after the verb and subject ("Ich habe mich gestern
beeilt", not "Ich habe gestern mich beeilt"), then the time, the definite objects, "nicht",
and what "nicht" goes before (a preposition's object, a direction, a bare noun: "nicht ins
Kino", "nicht für Musik"), then the verb's last part. Imperatives and questions are the same
clause with the verb first; a subordinate clause puts the verb last, a separable prefix joined.

Noun phrases carry adjectives with the endings of the three declensions (after der / dieser,
after ein / kein / mein, and with no article): the tables are German's regular paradigm, checked
against hand-written phrases in tests/test_daily_life.py.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from recipes.everyday import daily
from recipes.everyday.daily_lexicon import TIMES
from recipes.everyday.daily_life_lexicon import (ADJ, ALL, DAY_PARTS, DAYS, MONTHS, NAMES, ORDINALS,
                                                 SEASONS, SURNAMES, WOMENS, Noun)
from recipes.everyday.daily_life_verbs import ONCE_COMPS, Verb
# the shared German inflection; HAD, WAS and MODALS are read from here by daily_life*.py
from recipes.everyday.german import (BE, CONTRACTIONS, DEF, DIES, ENDING, HAD, HAVE, MIXED, MODALS, STRONG,  # noqa: F401
                                     WAS, WEAK)
from transformer.data.example import Example

CONTRACT = 0.75  # share of negatives said contracted, as people type ("don't", "isn't")
EUER = {"": "euer", "e": "eure", "en": "euren", "em": "eurem", "er": "eurer"}


@dataclass(frozen=True)
class Person:
    """A subject (or the one spoken to) with every form a sentence needs of it."""

    key: str  # "I" "du" "he" "she" "we" "they" "ihr" "Sie", or the noun ("mother")
    en: str  # "I", "you", "my sister"
    de: str  # "ich", "Sie", "meine Schwester"
    slot: int  # the German present form: 0 ich, 1 du, 2 er, 3 wir / sie / Sie, 4 ihr
    agree: str  # English agreement: "I", "3s", "pl"
    poss_en: str  # "my"
    poss_de: str  # the possessive's stem: "mein", "euer", "Ihr"
    acc: str  # "mich", "meine Schwester"
    dat: str  # "mir", "meiner Schwester"
    refl_acc: str  # "mich" / "sich"
    refl_dat: str  # "mir" / "sich"
    obj_en: str  # "me", "my sister"
    self_en: str  # "myself"
    pronoun: bool = True
    owner: str = ""  # a noun subject's owner ("my sister": "I"): the family it talks about


PERSONS = {p.key: p for p in (
    Person("I", "I", "ich", 0, "I", "my", "mein", "mich", "mir", "mich", "mir", "me", "myself"),
    Person("du", "you", "du", 1, "pl", "your", "dein", "dich", "dir", "dich", "dir", "you", "yourself"),
    Person("he", "he", "er", 2, "3s", "his", "sein", "ihn", "ihm", "sich", "sich", "him", "himself"),
    Person("she", "she", "sie", 2, "3s", "her", "ihr", "sie", "ihr", "sich", "sich", "her", "herself"),
    Person("we", "we", "wir", 3, "pl", "our", "unser", "uns", "uns", "uns", "uns", "us", "ourselves"),
    Person("they", "they", "sie", 3, "pl", "their", "ihr", "sie", "ihnen", "sich", "sich", "them",
       "themselves"),
    Person("ihr", "you", "ihr", 4, "pl", "your", "euer", "euch", "euch", "euch", "euch", "you",
       "yourselves"),
    Person("Sie", "you", "Sie", 3, "pl", "your", "Ihr", "Sie", "Ihnen", "sich", "sich", "you",
       "yourself"),
)}
SUBJECT_PRONOUNS = ("I", "du", "he", "she", "we", "they")
NOT_YOU = ("I", "he", "she", "we", "they")  # what is told about, not to, the one listening
# who may be the object pronoun of whom: never oneself, "we" never "me", "you" never "you"
_OVERLAP = ({"I", "we"}, {"du", "ihr", "Sie"})


def possessive(stem: str, case: str, g: str) -> str:
    end = ENDING[case][g]
    return EUER[end] if stem == "euer" else stem + end


def a_an(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def noun_phrase(noun: Noun, det: str, case: str, plural: bool = False, owner: Person | None = None,
                adj: str = "", neg: bool = False) -> tuple[str, str]:
    """(English, German) of NOUN with DET: "the", "this", "a" (none for a plural or mass noun),
    "poss" (OWNER's), "no" ("kein"); NEG turns "a" into "kein" on the German side only
    ("I don't have a car" -> "kein Auto"). ADJ is an adjective's English name in ADJ."""
    g = "pl" if plural or noun.gender == "pl" else noun.gender
    en_noun = noun.en_pl if plural and noun.en_pl else noun.en
    de_noun = noun.de_form(case, plural)
    bare = noun.kind == "mass" or g == "pl"
    if det == "a" and neg:
        det = "no"
    if det in ("the", "this"):
        art = DEF[case][g] if det == "the" else DIES[case][g]
        table = WEAK
        en_det = "the" if det == "the" else ("these" if g == "pl" and plural else "this")
    elif det == "poss":
        art, table, en_det = possessive(owner.poss_de, case, g), MIXED, owner.poss_en
    elif det == "no":
        art, table, en_det = "kein" + ENDING[case][g], MIXED, "" if bare else "a"
    elif bare:
        art, table, en_det = "", STRONG, ""
    else:
        art, table, en_det = "ein" + ENDING[case][g], MIXED, "a"
    adj_en, adj_de = "", ""
    if adj:
        adj_en, _, stem = ADJ[adj]
        adj_de = stem + table[case][g]
    if en_det == "a":
        en_det = a_an(adj_en or en_noun)
    en = " ".join(w for w in (en_det, adj_en, en_noun) if w)
    de = " ".join(w for w in (art, adj_de, de_noun) if w)
    return en, de


def prep_phrase(prep: str, de_np: str) -> str:
    """"in dem Kühlschrank" -> "im Kühlschrank"; the rest unchanged."""
    first, _, rest = de_np.partition(" ")
    short = CONTRACTIONS.get((prep, first))
    return f"{short} {rest}" if short and rest else f"{prep} {de_np}"


def noun_person(noun: Noun, det: str, owner: Person | None = None, plural: bool = False) -> Person:
    """"my sister" as a subject: agrees in the 3rd person, "her" / "ihr" its possessive."""
    en, de = noun_phrase(noun, det, "nom", plural, owner)
    acc = noun_phrase(noun, det, "acc", plural, owner)[1]
    dat = noun_phrase(noun, det, "dat", plural, owner)[1]
    pl = plural or noun.gender == "pl"
    female = noun.gender == "f"
    poss = ("their", "ihr") if pl else ("her", "ihr") if female else ("his", "sein")
    self_en = "themselves" if pl else "herself" if female else "himself"
    return Person(noun.key, en, de, 3 if pl else 2, "pl" if pl else "3s", *poss, acc, dat, "sich",
                  "sich", en, self_en, pronoun=False, owner=owner.key if owner else "")


def object_pronoun(rng: random.Random, subj: Person, hearer: Person | None = None) -> Person:
    """A pronoun object that is neither the subject nor overlaps it ("we" ... "me"), nor sounds
    like its possessive ("She lent her her car"); "you" only when nobody is addressed as "Sie"
    or "ihr"."""
    keys = [k for k in ("I", "du", "he", "she", "we", "they") if k != subj.key
            and not any(subj.key in o and k in o for o in _OVERLAP)
            and not (hearer and k == "du") and PERSONS[k].obj_en != subj.poss_en]
    return PERSONS[rng.choice(keys)]


@dataclass
class Clause:
    """A German clause in the parts of its middle field (see the module docstring)."""

    subj: str
    finite: str
    pron: list[str] = field(default_factory=list)
    time: list[str] = field(default_factory=list)
    mid: list[str] = field(default_factory=list)
    neg: list[str] = field(default_factory=list)
    post: list[str] = field(default_factory=list)
    tail: list[str] = field(default_factory=list)
    joined: bool = False  # tail is a separable prefix, joined to the verb when the verb is last
    noun_subj: bool = False  # a noun subject lets a pronoun go before it ("hat sich meine ...")

    def _front(self) -> list[str]:
        subj = [self.subj] if self.subj else []
        return [*self.pron, *subj] if self.noun_subj else [*subj, *self.pron]

    def _rest(self) -> list[str]:
        return [*self.mid, *self.neg, *self.post]

    def statement(self, time_first: bool = False) -> list[str]:
        if time_first and self.time:
            return [*self.time, self.finite, *self._front(), *self._rest(), *self.tail]
        return [self.subj, self.finite, *self.pron, *self.time, *self._rest(), *self.tail]

    def question(self, wh: list[str] | None = None) -> list[str]:
        """Also the imperative (no subject, or "Sie")."""
        return [*(wh or []), self.finite, *self._front(), *self.time, *self._rest(), *self.tail]

    def subordinate(self) -> list[str]:
        last = ["".join(self.tail) + self.finite] if self.joined else [*self.tail, self.finite]
        return [*self._front(), *self.time, *self._rest(), *last]


# -- English -------------------------------------------------------------------------------------
def _neg(word: str, rng: random.Random) -> str:
    """"is" -> "isn't" (or "is not"); "am" -> "am not"."""
    if word == "am" or rng.random() > CONTRACT:
        return f"{word} not"
    return {"will": "won't", "can": "can't", "do": "don't", "does": "doesn't", "did": "didn't",
            "shall": "shan't"}.get(word, word + "n't")


def be_form(agree: str, past: bool = False) -> str:
    if past:
        return "were" if agree == "pl" else "was"
    return {"I": "am", "3s": "is", "pl": "are"}[agree]


def en_verb(forms: tuple[str, ...], tense: str, agree: str, neg: bool, rng: random.Random,
            question: bool = False) -> tuple[str, str]:
    """(auxiliary, verb) of the English predicate: ("don't", "call"), ("", "calls"),
    ("have", "called"), ("is", "calling"), ("can", "call"); a question always has an auxiliary
    ("do", "call"). TENSE: present progressive past perfect imperative, or a modal's English
    ("can", "should", "must", "have to"). A "be ..." verb takes am / is / are itself."""
    base, s3, past, pp, ing = forms
    if base.startswith("be ") and tense in ("present", "past"):
        be = be_form(agree, tense == "past")
        return (_neg(be, rng) if neg else be, base[3:]) if neg or question else ("", f"{be} {base[3:]}")
    if tense in ("present", "past"):
        do = "did" if tense == "past" else "does" if agree == "3s" else "do"
        if neg:  # a question is "Why didn't you ...", never "Why did not you ..."
            return (do + "n't" if question else _neg(do, rng)), base
        if question:
            return do, base
        return "", past if tense == "past" else s3 if agree == "3s" else base
    if tense == "progressive":
        be = be_form(agree)
        return (_neg(be, rng) if neg else be), ing
    if tense == "perfect":
        have = "has" if agree == "3s" else "have"
        return (_neg(have, rng) if neg else have), pp
    if tense == "imperative":
        return ("don't" if rng.random() < CONTRACT else "do not") if neg else "", base
    if tense == "have to":
        if neg:
            return _neg("does" if agree == "3s" else "do", rng), f"have to {base}"
        return ("", f"{'has' if agree == '3s' else 'have'} to {base}") if not question else \
            ("does" if agree == "3s" else "do", f"have to {base}")
    return (_neg(tense, rng) if neg else tense), base


def contract_subject(subj_en: str, aux: str, rng: random.Random, p: float = 0.5) -> list[str]:
    """"I am" -> "I'm", "she has" -> "she's", "we will" -> "we'll", as people type them."""
    short = {"am": "'m", "are": "'re", "is": "'s", "have": "'ve", "has": "'s", "will": "'ll"}
    if aux in short and subj_en in ("I", "you", "he", "she", "we", "they") and \
            not (aux == "am" and subj_en != "I") and rng.random() < p:
        return [subj_en + short[aux]]
    return [subj_en, aux]


@dataclass
class Phrase:
    """A verb with its object, complement and pronouns chosen: the English after the verb and
    the German middle field, for any tense."""

    verb: Verb
    en_tmpl: str  # the English with "{V}" for the verb form
    pron: list[str]
    mid: list[str]
    post: list[str]
    negatable: bool  # False when the object took "kein" (no "nicht" as well)
    indef: bool = False  # the object has no article or "ein": "nie" / "noch" go before it

    def en(self, form: str) -> str:
        return " ".join(self.en_tmpl.replace("{V}", form).split())

    def clause(self, subj: Person | None, finite: str, tail: list[str], neg: list[str],
               time: list[str] | None = None, joined: bool = False) -> Clause:
        return Clause(subj.de if subj else "", finite, list(self.pron), list(time or []),
                      list(self.mid), list(neg) if self.negatable else [], list(self.post),
                      tail, joined, bool(subj) and not subj.pronoun)

    def tense_clause(self, subj: Person, tense: str, neg: bool, time: list[str] | None = None,
                     neg_words: list[str] | None = None) -> Clause:
        """The German clause for "present" (also the English progressive) or "perfect"."""
        v = self.verb
        negw = (neg_words or ["nicht"]) if neg else []
        if tense == "perfect":
            aux = HAVE if v.aux == "haben" else BE
            return self.clause(subj, aux[subj.slot], [v.part], negw, time)
        return self.clause(subj, v.de[subj.slot], [v.prefix] if v.prefix else [], negw, time,
                           joined=bool(v.prefix))


# bare nouns that "kein" negates instead of "nicht": "Ich höre keine Musik"
KEIN = {"Musik": "keine Musik", "Radio": "kein Radio", "Podcasts": "keine Podcasts",
        "Sorgen": "keine Sorgen"}
# "your parents apologised to your mother": she is one of them
PART_OF = {"parents": ("mother", "father"), "grandparents": ("grandma", "grandpa")}
# grown-ups: nobody says "My grandpa went to school by car"
ADULTS = ("mother", "father", "grandma", "grandpa", "parents", "grandparents", "boss", "colleague", "neighbour")
FAMILY = ("mother", "father", "sister", "brother", "grandma", "grandpa", "friend", "son", "daughter",
          "aunt", "uncle")


def several(p: Person) -> bool:
    """Whether P is more than one ("we", "my parents", "ihr"); "Sie" may be one person."""
    return p.slot in (3, 4) and p.key != "Sie"


def phrase(rng: random.Random, verb: Verb, subj: Person, neg: bool = False,
           hearer: Person | None = None, obj: str | None = None, recipient: bool | None = None,
           comp: int | None = None, habit: bool = False) -> Phrase:
    """VERB said by SUBJ with an object from its list (OBJ: this one), a complement (COMP: this
    index) and, for "send" or "give", a recipient pronoun; NEG: the sentence is negated, so an
    indefinite object takes "kein". HEARER: who is addressed (no "you" object then). HABIT: done
    again and again, so no one-time event. Several owners have several: "We ironed our blouses"."""
    pron: list[str] = []
    mid: list[str] = []
    post: list[str] = []
    negatable, indef = True, False
    en = {"R": "", "TO": "", "O": "", "C": "", "SELF": subj.self_en}
    if verb.refl:
        pron.append(subj.refl_acc if verb.refl == "acc" else subj.refl_dat)
    if verb.recipient and (recipient if recipient is not None else
                           verb.recipient == "req" or rng.random() < 0.6):
        to = object_pronoun(rng, subj, hearer)
        en["R"], en["TO"] = f" {to.obj_en}", f" to {to.obj_en}"
        pron.append(to.dat)
    if verb.objects:
        # "my sister called my mother", never "... called my sister"
        name = obj or rng.choice([o for o in verb.objects if (subj.pronoun or o.rstrip("+") not in (
            subj.key, *PART_OF.get(subj.key, ()))) and not (habit and o != "P" and ALL[o.rstrip("+")].once)])
        prep, _, case = verb.case.partition("+") if "+" in verb.case else ("", "", verb.case)
        if name == "P":
            who = object_pronoun(rng, subj, hearer)
            en["O"] = who.obj_en
            form = who.dat if case == "dat" else who.acc
            if prep:
                post += [prep, form]
            else:
                pron.append(form)
        else:
            plural = name.endswith("+")
            noun = ALL[name.rstrip("+")]
            det = rng.choice(verb.dets)
            if det == "poss" and (not (noun.own or noun.key in (*FAMILY, "teacher", "neighbour", "doctor")) or
                                  noun.key in WOMENS and subj.poss_en == "his"):  # not "He irons his blouse"
                det = "the"
            if det == "the" and noun.key in (*FAMILY, "birthday"):  # "my birthday", never "the birthday"
                det = "poss"
            body = det == "body"
            owner = PERSONS[subj.owner] if noun.key in FAMILY and subj.owner else subj
            plural = plural or (det == "poss" and noun.each and several(owner))
            o_en, o_de = noun_phrase(noun, "the" if body else det, case, plural, owner,
                                     neg=neg and not prep)
            if body:  # "they washed their faces" -> "sie haben sich das Gesicht gewaschen"
                many = several(subj) and noun.en_pl and not plural
                o_en = f"{subj.poss_en} {noun.en_pl if many else o_en.split(' ', 1)[1]}"
            en["O"] = o_en
            if prep:
                post += prep_phrase(prep, o_de).split()
            else:
                mid += o_de.split()
                indef = det == "a"
                if neg and det == "a":
                    negatable = False
    always = len(verb.comps) == 1 and not verb.comps[0][0]  # "Sorgen" in "sich Sorgen machen um"
    if verb.comps and (comp is not None or not verb.objects or always or rng.random() < 0.5):
        # not "Mrs Braun , go to school by car", "help my grandpa with the homework", "often go to the party"
        grown = subj.key in (*ADULTS, "Sie") or bool(verb.objects) and name.rstrip("+") in ADULTS
        fitting = [c for c in verb.comps if not (grown and ("school" in c[0] or "homework" in c[0]))
                   and not (habit and c[0] in ONCE_COMPS)] or verb.comps
        c_en, c_de, slot = verb.comps[comp] if comp is not None else rng.choice(fitting)
        en["C"] = c_en
        if neg and c_de in KEIN:
            c_de, negatable = KEIN[c_de], False
        indef = indef or (slot == "mid" and c_de in KEIN)
        (mid if slot == "mid" else post).extend(c_de.split())
    text = verb.tmpl
    for k, v in en.items():
        text = text.replace("{" + k + "}", v)
    return Phrase(verb, text, pron, mid, post, negatable, indef)


# -- who says it, to whom, when ----------------------------------------------------------------
TASK = "daily_life"
FAMILY_SUBJECTS = ("mother", "father", "sister", "brother", "grandma", "grandpa", "son", "daughter",
                   "parents", "grandparents")
DOMAIN_SUBJECTS = {"office": ("colleague", "boss"), "school": ("sister", "brother", "son", "daughter")}
THE_SUBJECTS = ("boss", "teacher")  # "the boss"; the family takes a possessive
# "he" / "she" / "they" for a noun subject said a second time ("Before my sister goes to bed ,
# she brushes her teeth")
PRONOUN_OF = {"his": "he", "her": "she", "their": "they"}


def ex(en: list[str], de: list[str], end: str, frame: str) -> Example:
    """One pair of this generator (task "daily_life"), capitalised and ended by END."""
    return daily.example(en, de, end, frame, task=TASK)


def subject(rng: random.Random, verb: Verb | None = None, p_pronoun: float = 0.7,
            keys: tuple[str, ...] = SUBJECT_PRONOUNS) -> Person:
    """Who does it: a pronoun of KEYS (P_PRONOUN of the time) or "my sister", "the boss" (the
    people fitting VERB's domain: colleagues at the office)."""
    plural = verb is not None and "plural" in verb.tags
    if rng.random() < p_pronoun:
        return PERSONS[rng.choice(("we", "they") if plural else keys)]
    domain = next((d for d in DOMAIN_SUBJECTS if verb and d in verb.tags), "")
    names = DOMAIN_SUBJECTS.get(domain, FAMILY_SUBJECTS)
    if plural:
        names = ("parents", "grandparents")
    noun = ALL[rng.choice(names)]
    if noun.key in THE_SUBJECTS and rng.random() < 0.5:
        return noun_person(noun, "the")
    return noun_person(noun, "poss", PERSONS[rng.choice(("I", "I", "du", "we"))])


def again(subj: Person) -> Person:
    """The pronoun for SUBJ said a second time."""
    return subj if subj.pronoun else PERSONS[PRONOUN_OF[subj.poss_en]]


def hearer(rng: random.Random, weights: tuple[float, float, float] = (0.55, 0.2, 0.25),
           name_p: float = 0.35, care: bool = False) -> tuple[Person, str, str]:
    """Who is told or asked, and how the English names them: a first name (or nobody) for du,
    "children" for ihr, "Mr Weber" for Sie. CARE: "brush your teeth" is said to a child, not "Mrs Wolf"."""
    kind = rng.choices(("du", "ihr", "Sie"), (*weights[:2], 0.0) if care else weights)[0]
    if kind == "du":
        name = rng.choice(NAMES) if rng.random() < name_p else ""
        return PERSONS["du"], name, name
    if kind == "ihr":
        en, de = rng.choice((("children", "Kinder"), ("kids", "Kinder"), *(() if care else (("guys", "Leute"),))))
        return PERSONS["ihr"], en, de
    title_en, title_de = rng.choice((("Mr", "Herr"), ("Mrs", "Frau")))
    surname = rng.choice(SURNAMES)
    return PERSONS["Sie"], f"{title_en} {surname}", f"{title_de} {surname}"


def vocative(en: list[str], de: list[str], voc_en: str, voc_de: str, rng: random.Random,
             front: bool | None = None) -> tuple[list[str], list[str]]:
    if not voc_en:
        return en, de
    if front if front is not None else rng.random() < 0.6:
        return [voc_en, ",", *en], [voc_de, ",", *de]
    return [*en, ",", voc_en], [*de, ",", voc_de]


def date_time(rng: random.Random, past: bool) -> tuple[str, str]:
    """A day or date: "on Friday evening" -> "am Freitagabend", "last summer" -> "letzten
    Sommer", "on the fifth of May" -> "am fünften Mai"."""
    day_en, day_de, _ = rng.choice(DAYS)
    kind = rng.choice(("day", "part", "last", "month", "season", "date"))
    if kind == "day":
        return f"on {day_en}", f"am {day_de}"
    if kind == "part":
        part_en, part_de = rng.choice(DAY_PARTS)
        return f"on {day_en} {part_en}", f"am {day_de}{part_de}"
    if kind == "last":
        return (f"last {day_en}", f"letzten {day_de}") if past else (f"next {day_en}", f"nächsten {day_de}")
    if kind == "season":
        s_en, s_de = rng.choice(SEASONS)
        return (f"last {s_en}", f"letzten {s_de}") if past else (f"in the {s_en}", f"im {s_de}")
    month_en, month_de, days = rng.choice(MONTHS)
    if kind == "month":
        return f"in {month_en}", f"im {month_de}"
    o_en, o_de = ORDINALS[rng.randrange(days)]
    return f"on the {o_en} of {month_en}", f"am {o_de}en {month_de}"


def some_time(rng: random.Random, kind: str, p: float, dates: bool = True) -> tuple[str, str]:
    """A time of daily_lexicon's KIND with probability P; DATES: a day or date now and then."""
    if rng.random() >= p:
        return "", ""
    if dates and kind in ("past", "future") and rng.random() < 0.3:
        return date_time(rng, kind == "past")
    return rng.choice(TIMES[kind])


def with_time(en: list[str], time_en: str, cl: Clause, rng: random.Random, end: str,
               frame: str) -> Example:
    """"Yesterday I ..." -> "Gestern habe ich ..." (the time first, the verb second) or the
    time last in English."""
    if time_en and rng.random() < 0.25:
        return ex([time_en, *en], cl.statement(True), end, frame)
    return ex([*en, time_en], cl.statement(), end, frame)


def add_please(rng: random.Random, en: list[str], p: float = 0.5) -> tuple[list[str], bool, bool]:
    """The English with "please" first or last (or none), whether it was said, whether last."""
    if rng.random() >= p:
        return en, False, False
    if rng.random() < 0.5:
        return ["please", *en], True, False
    return [*en, ", please"], True, True


