"""Generated sentences too close to a hand-written test sentence, found by their words.

The everyday mix drops any training sentence equal to a test sentence (transformer.data.held_out_sets.key). A generator
can still say a test sentence with one word changed ("Put the milk in the fridge , please ." beside
"Put the milk back in the fridge , please ."), and a model trained on that is no longer tested on
new text. ``NearTest`` finds such sentences: a sentence is near a test sentence when it has at
least ``share`` of that test sentence's distinct words and at most ``extra`` words more than it.
Words are compared as held_out_sets.key() spells them (lower case, punctuation and spacing ignored).

An inverted index over the test sentences' words keeps this fast enough for a whole generated mix
(each sentence only meets the test sentences it shares a word with).
"""
from __future__ import annotations

from collections import defaultdict
from typing import Callable, Iterable, Sequence

SHARE = 0.8  # "Put the milk in the fridge" has 5 of the 6 words of "Put the milk back in the fridge"
EXTRA = 3


class NearTest:
    def __init__(self, tests: Sequence[str], key: Callable[[str], str], share: float = SHARE,
                 extra: int = EXTRA):
        if not 0 < share <= 1:
            raise ValueError(f"share must be in (0, 1] (got {share!r})")
        self.key, self.share, self.extra = key, share, extra
        self.tests = list(tests)
        self.words = [frozenset(key(t).split()) for t in self.tests]
        self.index: dict[str, list[int]] = defaultdict(list)
        for i, ws in enumerate(self.words):
            for w in ws:
                self.index[w].append(i)

    def nearest(self, sentence: str) -> str | None:
        """The first test sentence SENTENCE is near, or None."""
        ws = frozenset(self.key(sentence).split())
        shared: dict[int, int] = defaultdict(int)
        for w in ws:
            for i in self.index.get(w, ()):
                shared[i] += 1
        for i, n in shared.items():
            size = len(self.words[i])
            if n >= self.share * size and len(ws) <= size + self.extra:
                return self.tests[i]
        return None

    def keep(self, examples: Iterable, src: Callable = lambda ex: ex.src) -> list:
        """The examples whose source sentence is near no test sentence."""
        return [ex for ex in examples if self.nearest(src(ex)) is None]
