"""Notes as data: what the core has to tell a reader (a sentence was cut to the model's limit),
as a code with its numbers, never as prose. The UI renders a note in the reader's language and
the CLI in English (ui/notes.py: every sentence is in ui/strings/notes.py); JSON carries the code.

    Note(SOURCE_CUT, {"n": 128})   the source was cut to n tokens (the last one </s>)
    Note(TARGET_CUT, {"n": 127})   the target was cut to n tokens (BOS + n fits the limit)
    Note(SOURCE_CUT_WORDS, {"n": 128, "words": 90, "total": 400})   as SOURCE_CUT, and how many
                                   of the sentence's words were read
"""
from __future__ import annotations

from dataclasses import dataclass, field

SOURCE_CUT = "source_cut"
TARGET_CUT = "target_cut"
SOURCE_CUT_WORDS = "source_cut_words"
CODES = (SOURCE_CUT, TARGET_CUT, SOURCE_CUT_WORDS)


@dataclass(frozen=True)
class Note:
    code: str  # one of CODES
    params: dict = field(default_factory=dict, hash=False)

    def __post_init__(self):
        assert self.code in CODES, f"note code must be one of {CODES} (got {self.code!r})"

    def to_dict(self) -> dict:
        """The note as JSON: its code and its numbers."""
        return {"code": self.code, "params": dict(self.params)}


def source_cut(n: int) -> Note:
    return Note(SOURCE_CUT, {"n": int(n)})


def source_cut_words(n: int, words: int, total: int) -> Note:
    return Note(SOURCE_CUT_WORDS, {"n": int(n), "words": int(words), "total": int(total)})


def target_cut(n: int) -> Note:
    return Note(TARGET_CUT, {"n": int(n)})
