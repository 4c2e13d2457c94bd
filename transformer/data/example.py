"""The sentence pair every corpus and generator returns, in a module of its own so that the
generators (anaphora, classroom) and the corpus loader (data) import it without a cycle."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Example:
    """One sentence pair; ``meta`` says where it came from (file and line, or task facts)."""

    src: str
    tgt: str
    meta: dict = field(default_factory=dict)
