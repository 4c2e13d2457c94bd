"""The lexicon's nouns said once more, with a pronoun that points back to them.

The fresh minimal pairs' wrong pronouns (transformer/probes/minimal_pairs_fresh_en.jsonl, read
after the thirteenth version was scored) are of two kinds. Half are the model choosing the wrong
noun ("the duck ... because it was slow"), and half are the model choosing the right noun but
not knowing its German gender or its German word: "the collar" becomes "den Halsband" and "it"
then "er"; "the hedgehog" becomes "die Hecke" and "it" then "sie". The frame sentences of
recipes/everyday/lexicon.py teach a noun's word and article, never the pronoun that its gender
asks for later in the sentence. These frames do: "The {n} is here , but it is not very big ." ->
"{D} {N} ist hier , aber {P} ist nicht sehr groß .", where {P} is er / sie / es (or ihn / sie /
es in the accusative) by Ding's gender mark.

Each sentence carries the pronoun's and the noun's word positions on both sides (the meta keys
the trainer's attention supervision reads, as transformer/data/textbook.py writes them), so the
supervised heads see "it" -> the noun in sentences of another shape than the generators'. A
frame has one noun, so it teaches agreement, not which of two nouns is meant: that stays the
generators' job.

English says "he" or "she" of a person, so nouns for people are left out: a masculine noun whose
feminine form with "-in" is a Ding noun ("Lehrer", "Lehrerin"), that feminine form itself, and
the English words of PERSON_WORDS ("boy": "Junge" has no "Jungin").
"""
from __future__ import annotations

import random

from recipes.everyday.lexicon import FRAME_ARTICLES, Noun, said_in_turn
from transformer.data.example import Example

PERSON_WORDS = frozenset(("man woman boy girl child kid baby person people lady gentleman guy "
                          "male female adult teenager mother father mum mom dad parent brother "
                          "sister son daughter wife husband grandmother grandfather grandma "
                          "grandpa aunt uncle cousin nephew niece bride groom").split())

PRONOUN = {"nom": {"m": "er", "f": "sie", "n": "es"}, "acc": {"m": "ihn", "f": "sie", "n": "es"}}

# (English, German, case of the German article, case of the German pronoun): {n} the English
# noun, {D} the declined article, {N} the German noun, {P} the German pronoun; "it" is the
# English pronoun (one per frame)
FRAMES = (
    ("The {n} is here , but it is not very big .", "{D} {N} ist hier , aber {P} ist nicht sehr groß .",
     "nom", "nom"),
    ("Where is the {n} ? I can't see it .", "Wo ist {D} {N} ? Ich sehe {P} nicht .", "nom", "acc"),
    ("Is the {n} new ? No , it is old .", "Ist {D} {N} neu ? Nein , {P} ist alt .", "nom", "nom"),
    ("The {n} was cheap , so I bought it .", "{D} {N} war billig , also habe ich {P} gekauft .",
     "nom", "acc"),
    ("The {n} is too heavy , so we can't carry it .",
     "{D} {N} ist zu schwer , also können wir {P} nicht tragen .", "nom", "acc"),
    ("I found the {n} , and it was still there .", "Ich habe {D} {N} gefunden , und {P} war noch da .",
     "acc", "nom"),
    ("We looked at the {n} because it was very beautiful .",
     "Wir haben {D} {N} angesehen , weil {P} sehr schön war .", "acc", "nom"),
    ("She took the {n} and put it on the table .",
     "Sie nahm {D} {N} und legte {P} auf den Tisch .", "acc", "acc"),
)


def say(noun: Noun, frame: tuple[str, str, str, str]) -> Example | None:
    """NOUN in FRAME with its pronoun, or None where the article's case needs an ending the mark
    does not give (a weak masculine noun outside the nominative) or the noun is not one word."""
    en, de, case, pron_case = frame
    if (case != "nom" and noun.weak) or " " in noun.en or " " in noun.de:
        return None
    src = en.format(n=noun.en)
    tgt = de.format(D=FRAME_ARTICLES[case][noun.gender], N=noun.de, P=PRONOUN[pron_case][noun.gender])
    src, tgt = src[0].upper() + src[1:], tgt[0].upper() + tgt[1:]
    en_words, de_words = en.split(), de.split()  # positions over whitespace-split words
    meta = {"source": "ding-lexicon-pronoun", "noun": noun.en,
            "pronoun_pos": en_words.index("it"), "antecedent_pos": en_words.index("{n}"),
            "tgt_pronoun_pos": de_words.index("{P}"), "tgt_antecedent_pos": de_words.index("{N}")}
    return Example(src, tgt, meta)


def is_person(noun: Noun, known_german: set[str]) -> bool:
    """Is NOUN a word for people (English would say "he" or "she", not "it")?"""
    return (noun.en in PERSON_WORDS
            or (noun.gender == "m" and noun.de + "in" in known_german)
            or (noun.gender == "f" and noun.de.endswith("in") and noun.de[:-2] in known_german))


def sentences(lexicon: list[Noun], n: int, seed: int = 0,
              known_german: set[str] = frozenset()) -> list[Example]:
    """N pronoun frame sentences, the nouns that are not people taken in turn, each about N /
    their number times, in different frames; seeded. KNOWN_GERMAN: Ding's German nouns
    (transformer.data.ding.noun_genders), for `is_person`."""
    people_left_out = [x for x in lexicon if not is_person(x, known_german)]
    return said_in_turn(people_left_out, n, random.Random(f"lexicon-pronouns:{seed}"), say, FRAMES)
