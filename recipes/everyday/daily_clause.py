"""One German clause in parts (daily.py's sentences are built from it): the same clause said as a
statement, with the time first, as a question, after a subordinate clause, or verb last."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Clause:
    """One German clause in parts, so that it can be said as a statement, with the time first,
    as a question or as a subordinate clause, and its English."""

    subj: str
    finite: str
    time: str = ""
    rest: list[str] = field(default_factory=list)  # the middle field after the time
    tail: list[str] = field(default_factory=list)  # participle, infinitive or separable prefix
    prefix_tail: bool = False  # tail is a separable prefix, joined to the verb when it is last

    def statement(self, time_first: bool = False) -> list[str]:
        if time_first and self.time:
            return [self.time, self.finite, self.subj, *self.rest, *self.tail]
        return [self.subj, self.finite, *split_words(self.time), *self.rest, *self.tail]

    def question(self, wh: str = "") -> list[str]:
        return [*split_words(wh), self.finite, self.subj, *split_words(self.time), *self.rest, *self.tail]

    def inverted(self) -> list[str]:
        """After a subordinate clause: the verb first, then the subject."""
        return [self.finite, self.subj, *split_words(self.time), *self.rest, *self.tail]

    def subordinate(self) -> list[str]:
        """Verb last: "weil ich meine Mutter anrufe", "dass ich sie angerufen habe"."""
        if self.prefix_tail:
            return [self.subj, *split_words(self.time), *self.rest, "".join(self.tail) + self.finite]
        return [self.subj, *split_words(self.time), *self.rest, *self.tail, self.finite]


def split_words(s: str) -> list[str]:
    """A phrase's words; none for an empty one."""
    return s.split() if s else []


def cap(words: list[str]) -> str:
    """The words joined and capitalised (empty words dropped)."""
    text = " ".join(w for w in words if w)
    return text[:1].upper() + text[1:]
