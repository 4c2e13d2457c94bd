"""Everyday nouns the sentences never show: a noun lexicon from Ding, said in short frames.

The everyday model's misses are mostly words its 15,000 Ding sentences never use ("passport",
"ticket", "key"). Ding knows them as dictionary entries ("Fahrkarte {f}; Fahrschein {m} ::
ticket"), but an entry lists many senses ("ticket" is also "Strafmandat", "key" also "Keil"), so
a German noun is chosen for an English word by how often the two occur together in the parallel
text the model reads anyway (Ding's sentences and phrases, Multi30k): "key" goes with
"Schlüssel" (13 pairs), not "Keil" (0). Each chosen noun is then said in a few everyday frames
("Where is the key ?" -> "Wo ist der Schlüssel ?", "I can't find my key ." -> "Ich finde meinen
Schlüssel nicht ."), its article declined by Ding's gender mark, so the model learns the word,
its gender and its case in a sentence rather than a bare gloss.

Words the parallel text rarely shows ("tortoise", "hedgehog") never reach 3 pairs, so
`single_sense_nouns` adds, when asked, the English words Ding gives one sense alone: one entry
whose German side opens with a marked noun ("Igel {m} [zool.] :: hedgehog"), with no register or
specialist mark (chemistry, law, finance, ...), and an English word in common use by Ding's own
evidence: it occurs in 10 or more of its entries, after a determiner in 5% of them and at least
as often as after "to" (a noun more than a verb), and is not a plural or an -ing form.

Only singular, strong nouns take the accusative and dative frames: a masculine noun of the weak
declension ("Junge", "Student": "den Jungen") is said in the nominative only, because its endings
are not read off the mark.
"""
from __future__ import annotations

import random
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Callable

from recipes.everyday.german import DEF, ENDING
from transformer.data import ding
from transformer.data.example import Example

_DETERMINERS = frozenset("the a an my your his her this that".split())
# register or region marks after which a German synonym is not the everyday word
_NOT_EVERYDAY = re.compile(r"\[(Schw|Ös|Lux|veraltet|alt|obs|übtr|fig|pej|vulg|slang|humor|poet|geh)")
# adjectival nouns in their masculine strong form ("Vorsitzender", "Angestellter", "Beamter")
# decline like adjectives ("den Vorsitzenden")
_ADJECTIVAL = re.compile(r"(ender|llter|mter|nnter|ndter|neter|ierter)$")
_WEAK_ENDINGS = re.compile(r"(e|ent|ant|ist|oge|at|and)$")
_WEAK = frozenset("Herr Mensch Bär Held Nachbar Bauer Prinz Graf Fürst Narr Christ Kamerad Typ "
                  "Fotograf Architekt Pilot Soldat Diplomat Automat Planet Kandidat Astronaut "
                  "Idiot Komet Satellit Philosoph Monarch Polizist Tourist Journalist".split())
# subject marks of a specialist's word: a single-sense noun so marked is not an everyday word
_SPECIALIST = frozenset(("chem med min geol techn biochem phys anat pharm math comp naut jur fin "
                         "electr constr econ adm mach telco statist print sci astron aviat mil hist "
                         "relig ling pol soc phil psych biol envir arch meteo lit tm myc ornith").split())
_SUBJECT = re.compile(r"\[([^\]]+?)\.?\]")
_NOTES = re.compile(r"\[[^\]]*\]|\{[^}]*\}|\([^)]*\)|<[^>]*>")
MIN_MENTIONS = 10         # a single-sense word: in at least 10 of Ding's entries
MIN_DET_SHARE = 0.05      # ... and after a determiner in 5% of them ("are" is not a noun)
MIN_TOGETHER = 3          # the English word and the German noun in at least 3 pairs ...
MIN_SHARE = 0.05          # ... and in at least 5% of the English word's pairs


@dataclass(frozen=True)
class Noun:
    en: str      # "key"
    de: str      # "Schlüssel"
    gender: str  # "m", "f" or "n"
    together: int  # parallel pairs with both

    @property
    def weak(self) -> bool:
        """A masculine noun whose accusative is not "den" + the noun ("den Jungen")."""
        return self.gender == "m" and (self.de in _WEAK or bool(_WEAK_ENDINGS.search(self.de)))


def _candidates(entries: list[ding.Entry]) -> dict[str, set[tuple[str, str]]]:
    """English one-word headword -> {(German noun, gender)} from every entry's first part."""
    out: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for e in entries:
        en_words = [w for w in (ding.clean(s) for s in e.en[0].split(";")) if re.fullmatch(r"[a-z]+", w)]
        if not en_words:
            continue
        for syn in e.de[0].split(";"):
            if _NOT_EVERYDAY.search(syn):
                continue
            marked = ding.marked_noun(syn)
            if marked and not _ADJECTIVAL.search(marked[0]):
                for w in en_words:
                    out[w].add(marked)
    return out


def nouns(entries: list[ding.Entry], parallel: list[Example]) -> list[Noun]:
    """The lexicon: one German noun for each English word that PARALLEL shows as a noun (after a
    determiner in 2 or more pairs and in 15% of its uses), chosen as the candidate the two sides
    of PARALLEL most often share; most frequent English words first."""
    cand = _candidates(entries)
    german_nouns = {g for cs in cand.values() for g, _ in cs}
    en_count, de_count, after_det, together = Counter(), Counter(), Counter(), Counter()
    for ex in parallel:
        words = re.findall(r"[a-z']+", ex.src.lower())
        en_count.update(words)
        after_det.update(b for a, b in zip(words, words[1:]) if a in _DETERMINERS)
        de_words = re.findall(r"\w+", ex.tgt)
        de_count.update(de_words)
        shown = set(de_words) & german_nouns
        for w in set(words):
            for g, _ in cand.get(w, ()):
                if g in shown:
                    together[w, g] += 1
    genders = _genders_by_article(cand, parallel)
    out = []
    for w, cs in cand.items():
        cs = {(g, s) for g, s in cs if genders.get(g, s) == s}
        if after_det[w] < 2 or after_det[w] < 0.15 * en_count[w]:
            continue  # mostly not a noun in English ("white", "up")
        # a German word written more often in lower case is mostly a verb or adjective ("Spielen")
        ok = [(g, s) for g, s in cs if de_count[g.lower()] <= de_count[g]
              and together[w, g] >= MIN_TOGETHER and together[w, g] >= MIN_SHARE * en_count[w]]
        if not ok:
            continue
        g, s = max(ok, key=lambda c: (together[w, c[0]], c[0]))
        out.append(Noun(w, g, s, together[w, g]))
    out.sort(key=lambda n: (-en_count[n.en], n.en))
    return out


def single_sense_nouns(entries: list[ding.Entry], known: set[str] = frozenset()) -> list[Noun]:
    """Nouns for English words Ding gives one sense alone (the module's docstring says which),
    the words of KNOWN left out (the co-occurrence lexicon's choice stands); most mentioned first.
    Their `together` is 0: no parallel pair vouches for them, only the dictionary."""
    senses: dict[str, list[ding.Entry]] = defaultdict(list)
    mentions, after_det, after_to = Counter(), Counter(), Counter()
    for e in entries:
        for w in {ding.clean(s) for s in e.en[0].split(";")}:
            if re.fullmatch(r"[a-z]{3,}", w):
                senses[w].append(e)
        seen = set()
        for part in e.en:
            # the words as written, marks and glosses left out ("[fig.]", "{n}", "(bei Tieren)")
            words = re.findall(r"[A-Za-z']+", _NOTES.sub(" ", part))
            seen.update(words)
            after_det.update(b for a, b in zip(words, words[1:]) if a.lower() in _DETERMINERS)
            after_to.update(b for a, b in zip(words, words[1:]) if a == "to")
        mentions.update(seen)
    out = []
    for w, es in senses.items():
        if (len(es) != 1 or w in known or mentions[w] < MIN_MENTIONS or w.endswith("ing")
                or after_det[w] < max(1, after_to[w], MIN_DET_SHARE * mentions[w])
                or _plural_of_headword(w, senses)):
            continue
        first = es[0].de[0].split(";")[0]
        marked = ding.marked_noun(first)
        if (not marked or not first.strip().startswith(marked[0]) or _NOT_EVERYDAY.search(first)
                or _ADJECTIVAL.search(marked[0])
                or any(m in _SPECIALIST for m in _SUBJECT.findall(first))):
            continue
        out.append(Noun(w, marked[0], marked[1], 0))
    out.sort(key=lambda n: (-mentions[n.en], n.en))
    return out


def _plural_of_headword(w: str, senses: dict) -> bool:
    return w.endswith("s") and (w[:-1] in senses or (w.endswith("es") and w[:-2] in senses))


# articles that show one gender alone, in the singular
_ARTICLE_GENDER = {"den": "m", "einen": "m", "das": "n", "eine": "f"}


def _genders_by_article(cand: dict[str, set[tuple[str, str]]],
                        parallel: list[Example]) -> dict[str, str]:
    """For each German noun Ding marks with two genders ("Rücken {m}", and "Rücken {n}" for the
    act of moving): the gender its articles in the German text show most often. Nouns whose
    text shows neither are left out of the answer and so of the lexicon."""
    marks: dict[str, set[str]] = defaultdict(set)
    for cs in cand.values():
        for g, s in cs:
            marks[g].add(s)
    ambiguous = {g for g, s in marks.items() if len(s) > 1}
    votes: Counter = Counter()
    for ex in parallel:
        words = ex.tgt.split()
        for a, b in zip(words, words[1:]):
            if b in ambiguous and a.lower() in _ARTICLE_GENDER:
                votes[b, _ARTICLE_GENDER[a.lower()]] += 1
    out = {}
    for g in ambiguous:
        best = max(sorted(marks[g]), key=lambda s: votes[g, s])
        out[g] = best if votes[g, best] else "?"
    return out


FRAME_ARTICLES = {  # the article each frame slot asks for: slot -> gender -> article (german.py tables)
    "nom": DEF["nom"], "acc": DEF["acc"],
    "acc_a": {g: "ein" + ENDING["acc"][g] for g in "mfn"},
    "acc_my": {g: "mein" + ENDING["acc"][g] for g in "mfn"},
    "acc_no": {g: "kein" + ENDING["acc"][g] for g in "mfn"},
    "dat": DEF["dat"],
}
# (English, German, case of the German article): {n} the English noun, {a} a/an, {D} the
# declined article, {N} the German noun; a sentence-initial article is capitalised
FRAMES = (
    ("Where is the {n} ?", "Wo ist {D} {N} ?", "nom"),
    ("The {n} is here .", "{D} {N} ist hier .", "nom"),
    ("Is the {n} new ?", "Ist {D} {N} neu ?", "nom"),
    ("The {n} was too expensive .", "{D} {N} war zu teuer .", "nom"),
    ("The {n} is not very big .", "{D} {N} ist nicht sehr groß .", "nom"),
    ("I need {a} {n} .", "Ich brauche {D} {N} .", "acc_a"),
    ("Do you have {a} {n} ?", "Hast du {D} {N} ?", "acc_a"),
    ("I can't find my {n} .", "Ich finde {D} {N} nicht .", "acc_my"),
    ("We don't have {a} {n} .", "Wir haben {D} {N} .", "acc_no"),
    ("I forgot the {n} .", "Ich habe {D} {N} vergessen .", "acc"),
    ("She is looking for the {n} .", "Sie sucht {D} {N} .", "acc"),
    ("Thank you for the {n} .", "Danke für {D} {N} .", "acc"),
    ("He didn't see the {n} .", "Er hat {D} {N} nicht gesehen .", "acc"),
    ("What do you know about the {n} ?", "Was weißt du über {D} {N} ?", "acc"),
    ("We talked about the {n} yesterday .", "Wir haben gestern über {D} {N} gesprochen .", "acc"),
    ("Something is wrong with the {n} .", "Mit {D} {N} stimmt etwas nicht .", "dat"),
)


def say(noun: Noun, frame: tuple[str, str, str]) -> Example | None:
    """NOUN in FRAME, or None where the frame's case needs an ending the mark does not give."""
    en, de, case = frame
    if case != "nom" and noun.weak:
        return None
    article = FRAME_ARTICLES[case][noun.gender]
    a = "an" if noun.en[0] in "aeiou" else "a"
    src = en.format(n=noun.en, a=a)
    tgt = de.format(D=article, N=noun.de)
    src, tgt = src[0].upper() + src[1:], tgt[0].upper() + tgt[1:]
    return Example(src, tgt, {"source": "ding-lexicon", "noun": noun.en})


def sentences(lexicon: list[Noun], n: int, seed: int = 0) -> list[Example]:
    """N frame sentences, the nouns taken in turn (each noun about N / len(LEXICON) times, in
    different frames), seeded."""
    return said_in_turn(lexicon, n, random.Random(f"lexicon:{seed}"), say, FRAMES)


def said_in_turn(lexicon: list[Noun], n: int, rng: random.Random,
                 say_one: Callable[[Noun, tuple], Example | None], frames: tuple) -> list[Example]:
    """N sentences, the nouns taken in turn, each said by SAY_ONE in a frame RNG picks; a frame
    the noun cannot take (None) is skipped, and at most 4N are tried."""
    out: list[Example] = []
    tries = 0
    while lexicon and len(out) < n and tries < 4 * n:
        noun = lexicon[tries % len(lexicon)]
        tries += 1
        ex = say_one(noun, rng.choice(frames))
        if ex is not None:
            out.append(ex)
    return out
