"""Debian's German-English dictionary (Ding, `trans-de-en`, GPL-2+) as a corpus.

Multi30k is image captions only; Ding is where the everyday language comes from: about 18,000
whole English sentences with a German translation ("Don't talk so loud!" :: "Rede nicht so
laut!"), about 290,000 phrase pairs, and gender marks on German nouns. The file is read from a
directory given at run time and never committed (its README: ../shared/data/ding).

One entry a line::

    German part | German part ... :: English part | English part ...

The ``|`` parts correspond one to one; ``;`` separates synonyms inside a part; ``{m}`` ``{f}``
``{n}`` ``{pl}`` mark gender and number, ``[...]`` field or register, ``(...)`` context,
``<...>`` related forms, ``/.../`` abbreviations. Readers fail with :class:`data.CorpusError`
naming the file and line, because a malformed corpus is a teacher's problem, not a traceback.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from transformer.data.example import Example

FILE_NAME = "de-en.txt"
TERMS = ("Ding German-English dictionary (Frank Richter, TU Chemnitz; Debian package trans-de-en, "
         "version devel 2023-01-30): GPL-2 or later.")
SENTENCE_END = (".", "?", "!")
MIN_SENTENCE_WORDS = 4
MAX_SENTENCE_WORDS = 30
# dictionary placeholders ("to hear sth.", "jdm. etw. geben"): a phrase with one is a pattern, not text
PLACEHOLDERS = re.compile(r"\b(sth|sb|etw|jd[mnrs]?|jds|sb's|sb’s|so)\.", re.IGNORECASE)
_MARKS = re.compile(r"\{[^}]*\}|\[[^\]]*\]|<[^>]*>|/[^/\s][^/]*/(?=\s|$)")
_PARENS = re.compile(r"\([^)]*\)")
_SPACES = re.compile(r"\s+")
_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "„": '"', "‚": "'", "–": "-"})
# "Hund {m}", "Zweihöckriges Kamel {n}" (an inflected adjective before the noun), after context
# in parentheses is removed ("(kleinerer) Rucksack {m}"); "Haus der Jugend {n}" is no match
GENDER = re.compile(r"^(?:[\wäöüß]+(?:es|er|e|en) )?(?P<noun>[A-ZÄÖÜ][\wäöüß-]*) \{(?P<g>[mfn])\}")


class DingError(ValueError):
    """The dictionary file is missing or malformed."""


@dataclass(frozen=True)
class Entry:
    line: int
    de: tuple[str, ...]  # the "|" parts
    en: tuple[str, ...]


def find_ding(given: str | None = None) -> Path | None:
    """Ding's folder: GIVEN, $ATTENTION_LAB_DING, ../shared/data/ding, or data/ding (None if none
    of them holds de-en.txt)."""
    root = Path(__file__).resolve().parents[2]
    for cand in (given, os.environ.get("ATTENTION_LAB_DING"), root.parent / "shared/data/ding",
                 root / "data/ding"):
        if cand and (Path(cand) / FILE_NAME).is_file():
            return Path(cand)
    return None


def find_file(where: str | Path) -> Path:
    """`de-en.txt` inside WHERE (or WHERE itself); DingError saying what to install otherwise."""
    p = Path(where)
    f = p / FILE_NAME if p.is_dir() else p
    if not f.is_file():
        raise DingError(f"{f}: no Ding dictionary here (install Debian's trans-de-en, which puts "
                        f"it at /usr/share/trans/de-en, or point --ding-dir at a copy)")
    return f


def read_entries(where: str | Path) -> list[Entry]:
    """Every entry of the file; comment lines (#) skipped. A line without " :: " or whose two
    sides have different numbers of parts is an error naming the line."""
    path = find_file(where)
    out = []
    try:
        with open(path, encoding="utf-8") as fh:
            for i, line in enumerate(fh, 1):
                line = line.rstrip("\n")
                if not line.strip() or line.startswith("#"):
                    continue
                if " :: " not in line:
                    raise DingError(f"{path}:{i}: no ' :: ' between the German and English sides")
                de, en = line.split(" :: ", 1)
                de_parts, en_parts = de.split(" | "), en.split(" | ")
                if len(de_parts) != len(en_parts):
                    raise DingError(f"{path}:{i}: {len(de_parts)} German parts but "
                                    f"{len(en_parts)} English parts")
                out.append(Entry(i, tuple(de_parts), tuple(en_parts)))
    except UnicodeDecodeError as e:
        raise DingError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    if not out:
        raise DingError(f"{path}: no entries")
    return out


def clean(part: str) -> str:
    """The text of one part: first synonym, marks and context removed, quotes straightened."""
    text = part.split(";")[0].translate(_QUOTES)
    text = _PARENS.sub(" ", _MARKS.sub(" ", text))
    return _SPACES.sub(" ", text).strip()


def spaced(sentence: str) -> str:
    """Punctuation as its own word ("It's late, isn't it?" -> "It's late , isn't it ?"), the
    style of the app's examples and of what a class types."""
    s = re.sub(r"([,;:!?])(?=\s|$)", r" \1", sentence)
    s = re.sub(r"\.$", " .", s)
    return _SPACES.sub(" ", s).strip()


def is_sentence(text: str, min_words: int = MIN_SENTENCE_WORDS) -> bool:
    """A capital first letter, MIN_WORDS to 30 words, a final . ? or !, no placeholder."""
    words = text.split()
    return (min_words <= len(words) <= MAX_SENTENCE_WORDS and text[:1].isupper()
            and text.endswith(SENTENCE_END) and not PLACEHOLDERS.search(text)
            and "/" not in text and "..." not in text and "…" not in text)


def sentence_pairs(where: str | Path, entries: list[Entry] | None = None) -> list[Example]:
    """Whole-sentence parts (an English sentence of 4-30 words with a German sentence of 2 or
    more beside it, ending alike), deduplicated in file order, punctuation spaced."""
    seen, out = set(), []
    for e in entries if entries is not None else read_entries(where):
        for de, en in zip(e.de, e.en):
            if ";" in en or ";" in de:  # synonym sentences do not pair one to one
                continue
            en_c, de_c = clean(en), clean(de)
            if not (is_sentence(en_c) and is_sentence(de_c, 2) and de_c[-1] == en_c[-1]):
                continue
            pair = (spaced(en_c), spaced(de_c))
            if pair not in seen:
                seen.add(pair)
                out.append(Example(*pair, {"source": "ding", "line": e.line}))
    return out


def phrase_pairs(where: str | Path, entries: list[Entry] | None = None, *,
                 min_words: int = 2, max_words: int = 6) -> list[Example]:
    """Short phrase parts (2-6 words a side, no placeholder such as sth. / etw., not a
    sentence), first synonym each side, deduplicated in file order."""
    seen, out = set(), []
    for e in entries if entries is not None else read_entries(where):
        for de, en in zip(e.de, e.en):
            en_c, de_c = clean(en), clean(de)
            if not en_c or not de_c or en_c.endswith(SENTENCE_END) or de_c.endswith(SENTENCE_END):
                continue
            if PLACEHOLDERS.search(en_c + " " + de_c) or "/" in en_c + de_c:
                continue
            n_en, n_de = len(en_c.split()), len(de_c.split())
            if not (min_words <= n_en <= max_words and min_words <= n_de <= max_words):
                continue
            if en_c.startswith("to ") or not any(c.isalpha() for c in en_c):
                continue  # infinitive headwords ("to carry on") teach no sentence
            pair = (en_c, de_c)
            if pair not in seen:
                seen.add(pair)
                out.append(Example(en_c, de_c, {"source": "ding-phrase", "line": e.line}))
    return out


def marked_noun(synonym: str) -> tuple[str, str] | None:
    """(noun, gender) of one synonym that opens with a capitalised word and a mark ("Hund {m}" ->
    ("Hund", "m")), context in parentheses ignored; None otherwise."""
    m = GENDER.match(_SPACES.sub(" ", _PARENS.sub(" ", synonym)).strip())
    return (m["noun"], m["g"]) if m else None


def noun_genders(where: str | Path, entries: list[Entry] | None = None) -> dict[str, set[str]]:
    """German noun -> the genders Ding marks it with ({"Hund": {"m"}}), from every part that
    opens with a capitalised word and a mark."""
    out: dict[str, set[str]] = {}
    for e in entries if entries is not None else read_entries(where):
        for de in e.de:
            for syn in de.split(";"):
                marked = marked_noun(syn)
                if marked:
                    out.setdefault(marked[0], set()).add(marked[1])
    return out
