"""Text that goes into a plotly figure: the one place it is made safe to draw.

Why this exists: plotly reads a subset of HTML in every string it draws (tick labels, category
names, hover text, cell text, legend names, titles, annotations). A token such as ``</s>`` or
``<pad>`` is taken for a tag: the label vanishes and the axis is measured wrongly, so a whole
heatmap can collapse into a 19-pixel sliver; ``<s>`` strikes out the text after it, ``<b>x</b>``
turns bold and ``&amp;`` shows as ``&``. And a categorical axis merges equal names, so a
sentence with "the" twice loses a row. Every figure builder under viz/ sends the text it draws
through these functions (tests/test_viz_foundations.py iterates over all of them).

Escaping follows plotly.js's own decoder (svg_text_utils: it decodes ``&amp; &lt; &gt;``, a few
named entities and numeric ones, but not ``&quot;``), so only ``& < >`` are escaped: html.escape's
default would turn a quote into ``&quot;``, which plotly would print as is.
"""
from __future__ import annotations

import html
import math
from typing import Iterable, Sequence

ZWSP = "\u200b"  # zero-width space: makes a repeated category name distinct without showing


def special_number(x: float, nan: str, inf: str) -> str | None:
    """How a table spells NaN and ±infinity (`nan`, `inf`, with a leading − when negative); None
    for a finite number, which the caller formats its own way."""
    if math.isnan(x):
        return nan
    if math.isinf(x):
        return "−" + inf if x < 0 else inf
    return None


def text(value: object) -> str:
    """One string drawn by plotly, shown exactly as typed (tags and entities are not read)."""
    return html.escape(str(value), quote=False)


def texts(values: Iterable[object]) -> list[str]:
    """Many strings (tick texts, custom data, cell texts), each escaped."""
    return [text(v) for v in values]


def categories(labels: Sequence[object]) -> list[str]:
    """Labels for a categorical axis: escaped, and repeats made distinct by appending zero-width
    spaces ('the', 'the' -> 'the', 'the\\u200b'), since plotly puts equal names on one row. An
    empty label becomes a space (plotly drops empty category names)."""
    used: set[str] = set()
    out = []
    for lab in labels:
        cand = text(lab) or " "
        while cand in used:
            cand += ZWSP
        used.add(cand)
        out.append(cand)
    return out


def positioned(labels: Sequence[object], sep: str = " ") -> list[str]:
    """'dog' at position 3 -> '3 dog' (escaped): distinct even for repeated words, and a hover
    says which occurrence it is."""
    return [f"{i}{sep}{text(lab)}" for i, lab in enumerate(labels)]
