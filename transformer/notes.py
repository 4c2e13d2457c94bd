"""Notes as data: what the core has to tell a reader (a sentence was cut to the model's limit),
as a code with its numbers, never as prose. The UI renders a note in the reader's language
(ui/notes.py, strings in ui/strings/notes.py); the CLI renders English (`english`).

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

# the CLI's wording (python -m transformer.inspect prints these; --json writes them)
_ENGLISH = {
    SOURCE_CUT: "source truncated to {n} tokens (the model's limit)",
    TARGET_CUT: "target truncated to {n} tokens",
    SOURCE_CUT_WORDS: "source truncated to {n} tokens (the model's limit): the first {words} of "
                      "{total} words are read",
}


@dataclass(frozen=True)
class Note:
    code: str  # one of CODES
    params: dict = field(default_factory=dict, hash=False)

    def __post_init__(self):
        assert self.code in CODES, f"note code must be one of {CODES} (got {self.code!r})"


def source_cut(n: int) -> Note:
    return Note(SOURCE_CUT, {"n": int(n)})


def source_cut_words(n: int, words: int, total: int) -> Note:
    return Note(SOURCE_CUT_WORDS, {"n": int(n), "words": int(words), "total": int(total)})


def target_cut(n: int) -> Note:
    return Note(TARGET_CUT, {"n": int(n)})


def english(note: Note) -> str:
    """The note as the CLI prints it."""
    return _ENGLISH[note.code].format(**note.params)
