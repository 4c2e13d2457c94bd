"""The "everyday" training mix that built the shipped default (checkpoints/everyday-en-de):
image captions, everyday sentences, and the two pronoun generators. A corpus builder in the
trainer's sense (transformer/data/builders.py): ``build(multi30k_dir, seed, **opts)``; train it with
``python -m recipes.everyday.train --task everyday ...`` (the launcher registers the name), build
its files with ``python -m recipes.everyday.build_corpus``.

A model that has read only Multi30k turns "I don't understand the question ." into word salad.
This mix adds Ding's everyday sentence pairs and short phrases (transformer/data/ding.py) and the
textbook minimal pairs (transformer/data/textbook.py) to Multi30k and the caption-style pronoun pairs
(transformer/data/classroom.py). The proportions are options (``--task-opt KEY=VALUE``):

    m30k_repeat   how many times Multi30k's 29,000 captions are repeated (default 1); more keeps
                  the caption translations (test_2016_flickr) while the other sources teach
    ding_repeat   how many times Ding's sentences are repeated (default 2: there are only ~15,000)
    phrases       how many of Ding's short phrases (default 30000), only those whose English
                  words all occur in the sentences (everyday words, not botany or law)
    pronouns      caption-style pronoun pairs (default 24000)
    textbook      textbook minimal-pair sentences (default 40000)
    lexicon       everyday-noun frame sentences from Ding's noun lexicon (default 0;
                  recipes/everyday/lexicon.py: "Where is the key ?" -> "Wo ist der Schlüssel ?")
    wide_nouns    how many of the nouns Ding gives one sense alone join that lexicon, the most
                  mentioned first (default 0; lexicon.single_sense_nouns: "hedgehog" -> "Igel",
                  which the parallel text never pairs 3 times)
    lexicon_pronouns  the same nouns said with a pronoun that points back, its gender by Ding's
                  mark (default 0; recipes/everyday/lexicon_pronouns.py: "Where is the key ? I can't
                  see it ." -> "Wo ist der Schlüssel ? Ich sehe ihn nicht .")
    daily         daily-life sentences from a small German grammar (default 25000;
                  recipes/everyday/daily.py: "Yesterday I called my mother ." ->
                  "Gestern habe ich meine Mutter angerufen .")
    talk          the way, what / who questions, numbers, clock times and comparisons from the
                  same grammar (default 12000; recipes/everyday/daily_talk.py: "How do I get to the
                  station ?" -> "Wie komme ich zum Bahnhof ?")
    life          home, work, school, shops, health, dates and travel from a third such grammar:
                  imperatives for du / ihr / Sie, requests, modals of permission, reflexive and
                  dative verbs, "bevor / nachdem / ob / obwohl" (default 0; recipes/everyday/
                  daily_life.py: "Children , tidy your room !" -> "Kinder , räumt euer Zimmer
                  auf !"). Its brief was written after the fresh everyday set had been read, so its
                  sentences near any hand-written everyday sentence (recipes/everyday/near_test.py:
                  8 in 10 of the test sentence's words) are left out too
    scenes        image-caption scenes in which a later pronoun points back ("A woman buys a melon
                  and carries it home ." -> "... und trägt sie nach Hause ."; "its tail" -> "seinem
                  Schwanz", "while it ..." -> ", während er ... [verb]") over a broad lexicon, with the
                  pronoun's and antecedent's word positions for attention supervision (default 0;
                  recipes/everyday/caption_scenes.py, written by an author who did not see any test
                  set, but briefed after the caption probe had been read). Its sentences near a
                  sentence of the caption probe, an everyday test set or a minimal-pair set
                  (near_test.py: 6 in 10 of the test sentence's words, SCENE_NEAR) are left out
    topic         the vocabulary of a lesson on attention, language and translation from a small
                  grammar over a hand-written word table (default 0; recipes/everyday/topic.py,
                  data/topic_*.tsv: "The robot translates the sentence into German ." -> "Der
                  Roboter übersetzt den Satz ins Deutsche ."; "its meaning" -> "seine / ihre
                  Bedeutung"). Its sentences near an everyday test sentence or a sentence of the
                  lesson set (near_test.py: 8 in 10 of the test sentence's words) are left out
    ding_dir      where de-en.txt is ($ATTENTION_LAB_DING, ../shared/data/ding, data/ding)

Held out from training: 500 of Ding's sentences (by a hash of the English,
transformer.data.ding_heldout.is_ding_val) form a second validation set (left as it was); 1,000 are
a test set chosen by another hash (transformer/data/ding_heldout.py, the ids in
transformer/probes/ding_heldout_ids.txt; 38 of them are validation pairs too), and no Ding sentence
pair or phrase whose normalised English or German equals one of theirs is trained on; and every
sentence of the project's own hand-written test sets (transformer/data/held_out_sets.py:
EVERYDAY_FILES, MINIMAL_PAIR_FILES) is removed from the training data wherever it occurs, and so is
every generated minimal pair whose two nouns are the two nouns of a hand-written pair of any of
those files: the scores on them are never on trained text or trained noun pairs.
"""
from __future__ import annotations

import random
from collections import Counter

from recipes.everyday import caption_scenes, daily, daily_life, daily_talk, lexicon, lexicon_pronouns, topic
from recipes.everyday.near_test import NearTest
from transformer.data import builders, ding, ding_heldout, textbook
from transformer.data import tasks as data
from transformer.data.ding import find_ding
from transformer.data.ding_heldout import is_ding_val
from transformer.data.example import Example
from transformer.data.held_out_sets import (everyday_test_sentences, held_out_keys, held_out_noun_pairs,
                                            key, lesson_sentences, scene_test_sentences)

# the mix of the shipped model's middle stages (its seventh version on: recipes/everyday/HISTORY.md);
# its last stages added m30k_repeat=3, life=20000 and scenes=30000 (manifest.json's "options"), so
# `--task everyday` with no options is not the text its weights last read
DEFAULTS = {"m30k_repeat": 1, "ding_repeat": 2, "phrases": 30000, "pronouns": 24000,
            "textbook": 40000, "lexicon": 0, "wide_nouns": 0, "lexicon_pronouns": 0, "daily": 25000, "talk": 12000, "life": 0,
            "scenes": 0, "topic": 0}
OPTIONS = tuple(DEFAULTS) + ("ding_dir",)
_CONTRACTIONS = ("don't doesn't didn't can't couldn't won't wouldn't shouldn't isn't aren't wasn't "
                 "weren't haven't hasn't hadn't I'm I've I'll I'd it's that's there's he's she's "
                 "what's let's you're we're they're you've we've they've you'll we'll they'll "
                 "he'll she'll").split()
# one piece each, with the word mark: "▁didn't" (SentencePiece would split at the apostrophe)
CONTRACTION_PIECES = tuple(sorted({"\u2581" + w for c in _CONTRACTIONS
                                   for w in (c, c[0].upper() + c[1:])}))

# A caption scene is left out when it holds 6 in 10 of a test sentence's words (the other
# generators: 8 in 10). The scenes' brief was written after the caption probe's misses had been
# read, and it named some of their words (young animals' genders, "picks it up", "throws it back"):
# at 0.8 a scene such as "A cook catches a big fish and throws it back into the water ." stays in.
# 0.6 leaves out 1,634 of 30,000 (seed 38), 0.7 211, 0.8 12.
SCENE_NEAR = 0.6


def generated_pair_nouns(ex: Example) -> frozenset[str]:
    words = ex.src.lower().split()
    return frozenset(words[i] for i in ex.meta.get("candidates_pos", []))


def check_options(opts: dict) -> dict:
    """The options with defaults filled in; ValueError naming the first bad one."""
    out = dict(DEFAULTS)
    for k, v in opts.items():
        if k not in OPTIONS:
            raise ValueError(f"unknown option {k!r} for task everyday (options: {', '.join(OPTIONS)})")
        if k != "ding_dir" and (not isinstance(v, int) or isinstance(v, bool) or v < 0):
            raise ValueError(f"{k} must be a non-negative integer (got {v!r})")
        out[k] = v
    return out


def everyday_phrases(phrases: list[Example], sentences: list[Example], n: int,
                     seed: int) -> list[Example]:
    """N phrases (a seeded sample) whose English words all occur twice or more in SENTENCES."""
    counts = Counter(w for ex in sentences for w in ex.src.lower().split())
    ok = [p for p in phrases if all(counts[w] >= 2 for w in p.src.lower().split())]
    random.Random(f"phrases:{seed}").shuffle(ok)
    return ok[:n]


def build(multi30k_dir: str, seed: int = 0, **opts) -> tuple[list[Example], dict[str, list[Example]], str]:
    """(training examples, validation sets by name, a description naming every source). The
    validation sets: "multi30k" (the trainer validates on it), "ding" (reported beside it as held
    out), "textbook"."""
    if not multi30k_dir:
        raise ValueError("--data-dir: required for --task everyday (the Multi30k folder with "
                         "train.en, train.de, val.en, ...)")
    o = check_options(opts)
    where = find_ding(o.get("ding_dir"))
    if where is None:
        raise ValueError("Ding dictionary not found: pass --task-opt ding_dir=DIR (the folder with "
                         "de-en.txt; Debian's trans-de-en installs it at /usr/share/trans/de-en)")
    m30k = data.load_multi30k(multi30k_dir, "train", "en", "de")
    entries = ding.read_entries(where)
    sentences = ding.sentence_pairs(where, entries)
    banned = held_out_keys()
    kept = [s for s in sentences if key(s.src) not in banned]
    ding_val = [s for s in kept if is_ding_val(s)]
    # the 1,000 held-out test pairs (ding_heldout.py) and every pair or phrase with a side equal
    # to one of theirs are never trained on (the validation pairs stay as they were)
    test_split = ding_heldout.split(sentences)
    ding_train = [s for s in kept if not is_ding_val(s) and test_split.keeps(s)]
    all_phrases = [p for p in ding.phrase_pairs(where, entries) if test_split.keeps(p)]
    phrases = everyday_phrases(all_phrases, m30k + ding_train, o["phrases"], seed)
    said_nouns = o["lexicon"] or o["lexicon_pronouns"]
    nouns = lexicon.nouns(entries, m30k + ding_train + all_phrases) if said_nouns else []
    wide = lexicon.single_sense_nouns(entries, {n.en for n in nouns})[:o["wide_nouns"]] \
        if said_nouns and o["wide_nouns"] else []
    nouns += wide
    framed = [ex for ex in lexicon.sentences(nouns, o["lexicon"], seed)
                            + lexicon_pronouns.sentences(
                                nouns, o["lexicon_pronouns"], seed, set(ding.noun_genders(where, entries)))
              if key(ex.src) not in banned and test_split.keeps(ex)]
    n_pronoun = sum(ex.meta.get("source") == "ding-lexicon-pronoun" for ex in framed)
    said = [ex for ex in daily.generate(o["daily"], seed) if key(ex.src) not in banned] \
        if o["daily"] else []
    talk = [ex for ex in daily_talk.generate(o["talk"], seed) if key(ex.src) not in banned] \
        if o["talk"] else []
    life = [ex for ex in daily_life.generate(o["life"], seed) if key(ex.src) not in banned] \
        if o["life"] else []
    life_made = len(life)
    life = NearTest(everyday_test_sentences(), key).keep(life)
    scenes = [ex for ex in caption_scenes.generate(o["scenes"], seed) if key(ex.src) not in banned] \
        if o["scenes"] else []
    scenes_made = len(scenes)
    scenes = NearTest(scene_test_sentences(), key, share=SCENE_NEAR).keep(scenes)
    lesson = [ex for ex in topic.generate(o["topic"], seed) if key(ex.src) not in banned] \
        if o["topic"] else []
    lesson_made = len(lesson)
    lesson = NearTest(everyday_test_sentences() + lesson_sentences(), key).keep(lesson) if lesson else []
    pron = data.load_task("classroom_pronouns", "train", n=o["pronouns"], seed=seed) \
        if o["pronouns"] else []
    book = textbook.generate("train", n=o["textbook"], seed=seed) if o["textbook"] else []
    banned_nouns = held_out_noun_pairs()
    book = [b for b in book if key(b.src) not in banned
            and generated_pair_nouns(b) not in banned_nouns]
    train = m30k * o["m30k_repeat"] + ding_train * o["ding_repeat"] + phrases + framed + said + talk + life + scenes + lesson + pron + book
    val = {"multi30k": data.load_multi30k(multi30k_dir, "val", "en", "de"), "ding": ding_val,
           "textbook": textbook.generate("val", n=200, seed=seed)}
    m30k_times = f" x {o['m30k_repeat']}" if o["m30k_repeat"] != 1 else ""
    desc = (f"Multi30k en->de from {multi30k_dir} ({len(m30k)} pairs{m30k_times}); Ding sentences from {where} "
            f"({len(ding_train)} x {o['ding_repeat']}, {len(ding_val)} held out, "
            f"{len(test_split.heldout)} held out for testing, "
            f"{len(sentences) - len(kept)} removed as the project's test sentences); "
            f"{len(phrases)} Ding phrases; "
            + (f"{len(framed)} frame sentences of {len(nouns)} Ding nouns"
               + (f" ({len(wide)} of one sense alone)" if wide else "")
               + (f", {n_pronoun} of them with a pronoun" if o["lexicon_pronouns"] else "")
               + "; " if said_nouns else "")
            + (f"{len(said)} daily-life grammar sentences; " if o["daily"] else "")
            + (f"{len(talk)} way, question, number, clock and comparison sentences; "
               if o["talk"] else "")
            + (f"{len(life)} home, work, shop, health and travel grammar sentences "
               f"({life_made - len(life)} near a test sentence left out); " if o["life"] else "")
            + (f"{len(scenes)} caption scenes with a pronoun "
               f"({scenes_made - len(scenes)} near a test sentence left out); " if o["scenes"] else "")
            + (f"{len(lesson)} attention, language and translation lesson sentences "
               f"({lesson_made - len(lesson)} near a test sentence left out); " if o["topic"] else "")
            + f"{len(pron)} caption-style pronoun pairs; {len(book)} "
            f"textbook minimal-pair sentences")
    return train, val, desc


# the pieces the trainer's tokenizer keeps whole for this corpus (transformer/data/builders.py)
build.keep_whole = CONTRACTION_PIECES


def register() -> None:
    """Give this mix the task name "everyday" in this process (the launchers call it first)."""
    builders.register("everyday", build)
