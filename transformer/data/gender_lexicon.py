"""The German genders of the caption nouns, as data: transformer/genders_lexicon.json, read by the
classroom generator and written by `python -m transformer.data.genders` (which derives it from
Multi30k). Kept apart from the deriving so the generator's words need none of its machinery."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

LEXICON_PATH = Path(__file__).with_name("genders_lexicon.json")


@dataclass(frozen=True)
class Entry:
    """One English noun's German noun and its gender, with the evidence behind both."""

    en: str
    de: str
    gender: str  # "m" | "f" | "n", or "?" without strong evidence
    confidence: float  # share of the strong evidence that agrees with ``gender``
    m: int  # strong evidence counts
    f: int
    n: int
    mn: int  # "ein X", "einem X", "im X": masculine or neuter
    dice: float  # alignment strength of (en, de)
    together: int  # captions containing both


def write_lexicon(entries: dict[str, Entry], path: Path = LEXICON_PATH) -> None:
    rows = {en: {k: v for k, v in asdict(e).items() if k != "en"} for en, e in sorted(entries.items())}
    doc = {"about": "German genders of Multi30k nouns, derived from train.en/train.de by "
                    "transformer.data.genders (Dice alignment, article evidence). Derived data only.",
           "nouns": rows}
    path.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def read_lexicon(path: Path = LEXICON_PATH) -> dict[str, Entry]:
    doc = json.loads(path.read_text(encoding="utf-8"))
    return {en: Entry(en, **row) for en, row in doc["nouns"].items()}
