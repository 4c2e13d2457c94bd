"""1,000 of Ding's real sentence pairs, split off by sentence: a held-out set no generator wrote.

Issue 50 (item 4) asks for held-out sets that the training never sees and that no generator of the
project wrote. Ding (transformer/data/ding.py) gives about 18,000 real English-German sentence
pairs; this module splits 1,000 of them off *by sentence*:

* a sentence is compared as :func:`normalise` spells it: lower case, straight apostrophes, every
  run of punctuation and spacing one space ("It's late, isn't it?" and "it's late , isn't it ?"
  are the same sentence);
* the rule (:func:`select`): among the distinct normalised English sentences, the SIZE whose
  ``sha1(SALT + sentence)`` is smallest; each is held out with its first pair in file order. The
  rule depends on nothing but the sentences, not on their order, the machine or a random seed;
* the result is committed as ids, not as text (Ding is GPL-2+ and not committed):
  ``transformer/probes/ding_heldout_ids.txt`` holds the sha1 of each held-out normalised English
  sentence (:func:`sentence_id`). The ids file *is* the split: :func:`split` holds out the pairs
  whose id is listed, so a smaller or newer copy of the dictionary holds out the same sentences
  where it has them, and the training mix does not depend on the corpus's size;
* the training side (:attr:`Split.rest`) leaves out every pair whose normalised English *or*
  German equals a held-out pair's (Ding gives some English sentences two German translations, and
  some German sentences two English ones).

Regenerate the ids after a change of the rule or of the dictionary (and say so in the README)::

    python -m transformer.heldout --write-ding-ids [--ding-dir ../shared/data/ding]
"""
from __future__ import annotations

import hashlib
import re
import zlib
from dataclasses import dataclass
from pathlib import Path

from transformer.data.example import Example

SIZE = 1000
SALT = "attention-lab ding-heldout v1:"
IDS_FILE = Path(__file__).resolve().parents[1] / "probes" / "ding_heldout_ids.txt"
_HEADER = ("# Ding held-out sentences (transformer/data/ding_heldout.py): sha1 of each normalised "
           "English sentence, sorted; the text is not committed (Ding is GPL-2+)\n")
_NON_WORD = re.compile(r"[^\w']+")


def normalise(text: str) -> str:
    """Lower case, straight apostrophes, punctuation and spacing as single spaces."""
    return _NON_WORD.sub(" ", text.lower().replace("’", "'").replace("‘", "'")).strip()


def is_ding_val(ex: Example) -> bool:
    """Whether EX is in the Ding validation split of the everyday mix (1 in 30 sentences, by a
    crc32 of the English): reported beside the training, never trained on; transformer.heldout
    scores these pairs apart."""
    return zlib.crc32(("ding-val:" + ex.src).encode()) % 30 == 0


def sentence_id(text: str) -> str:
    """The committed identity of a sentence: sha1 of its normalised form (hex)."""
    return hashlib.sha1(normalise(text).encode("utf-8")).hexdigest()


def _rank(key: str) -> str:
    return hashlib.sha1((SALT + key).encode("utf-8")).hexdigest()


def select(pairs: list[Example], n: int = SIZE) -> list[Example]:
    """The hash rule: the N distinct normalised English sentences of smallest salted sha1, each with
    its first pair in PAIRS' order, returned in PAIRS' order."""
    first: dict[str, int] = {}
    for i, p in enumerate(pairs):
        first.setdefault(normalise(p.src), i)
    chosen = sorted(first, key=_rank)[:n]
    return [pairs[i] for i in sorted(first[k] for k in chosen)]


def read_ids(path: str | Path = IDS_FILE) -> set[str]:
    """The ids of the committed split (comment lines skipped); empty if the file is missing."""
    path = Path(path)
    if not path.is_file():
        return set()
    return {line.strip() for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")}


def write_ids(pairs: list[Example], path: str | Path = IDS_FILE) -> None:
    Path(path).write_text(_HEADER + "".join(f"{i}\n" for i in sorted(sentence_id(p.src)
                                                                      for p in pairs)),
                          encoding="utf-8")


@dataclass
class Split:
    heldout: list[Example]  # one pair per held-out sentence, in file order
    rest: list[Example]  # every pair whose English and German both differ from every held-out one
    en_keys: frozenset[str]
    de_keys: frozenset[str]

    def keeps(self, ex: Example) -> bool:
        """Whether EX may be trained on: neither side equals a held-out pair's, normalised."""
        return normalise(ex.src) not in self.en_keys and normalise(ex.tgt) not in self.de_keys


def split(pairs: list[Example], ids: set[str] | None = None) -> Split:
    """Held out: the first pair of each sentence whose id is in IDS (default: the committed file);
    the rest: every pair that keeps() allows."""
    ids = read_ids() if ids is None else ids
    seen, held = set(), []
    for p in pairs:
        i = sentence_id(p.src)
        if i in ids and i not in seen:
            seen.add(i)
            held.append(p)
    en = frozenset(normalise(p.src) for p in held)
    de = frozenset(normalise(p.tgt) for p in held)
    s = Split(held, [], en, de)
    s.rest = [p for p in pairs if s.keeps(p)]
    return s
