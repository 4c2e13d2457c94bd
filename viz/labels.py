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


# -- upright vertical axis titles in Chinese ------------------------------------------------------
# plotly turns a vertical axis title 90 degrees: "头" (head) then lies on its side. A title in a
# CJK script is written the way Chinese is written vertically instead: one character under the
# other, upright, beside the tick labels (an annotation; plotly has no angle for axis titles).
_VERTICAL_FORMS = {"（": "︵", "）": "︶", "(": "︵", ")": "︶", "：": "︰", "，": "︐", "、": "︑",
                   "。": "︒", "—": "︱", "…": "︙", "[": "﹇", "]": "﹈", "【": "︻", "】": "︼"}


def _wide(ch: str) -> bool:
    import unicodedata

    return unicodedata.east_asian_width(ch) in ("W", "F")


def is_cjk_text(s: object) -> bool:
    """Does `s` hold a wide (CJK) character?"""
    return isinstance(s, str) and any(_wide(c) for c in s)


def vertical_lines(title: str) -> list[str]:
    """A title written top to bottom: each wide character on its own line (brackets and
    punctuation in their vertical forms), each run of narrow characters ("PE", "d_k") on one."""
    lines, run = [], ""
    for ch in title:
        if _wide(ch) or ch in _VERTICAL_FORMS:
            if run.strip():
                lines.append(run.strip())
            run = ""
            lines.append(_VERTICAL_FORMS.get(ch, ch))
        else:
            run += ch
    if run.strip():
        lines.append(run.strip())
    return lines


def text_width(s: str, size: float) -> float:
    """Roughly how wide `s` is drawn at font `size` px (a wide character is one em)."""
    return sum(size if _wide(c) else 0.62 * size for c in html.unescape(s))


def _tick_labels(fig, axis, ref: str) -> list[str]:
    """The tick labels an axis will draw, or a generous guess at them (numbers)."""
    if axis.ticktext:
        return [str(x) for x in axis.ticktext]
    values: list = []
    for tr in fig.data:
        if (getattr(tr, "yaxis", None) or "y") == ref and getattr(tr, "y", None) is not None:
            values += list(tr.y)
    strings = [str(v) for v in values if isinstance(v, str)]
    if strings or axis.type == "category":
        return strings
    nums = [float(v) for v in values if isinstance(v, (int, float)) and math.isfinite(float(v))]
    if axis.range is not None and None not in tuple(axis.range):
        nums += [float(x) for x in axis.range]
    if not nums:
        return ["0.00"]
    lo, hi = min(nums), max(nums)
    if axis.type == "log":
        return ["1e-5", f"{10 ** math.ceil(hi):g}" if abs(hi) < 7 else "1e+7"]
    return [f"{round(v, 3):g}" for v in (lo, hi, (lo + hi) / 2)] + ["0.00"]


def upright_titles(fig, size: float = 14, tick_size: float = 12):
    """Every vertical axis title of `fig` in a CJK script, upright and top to bottom, beside its
    tick labels (left, or right for an axis on the right), with the margin made room for; other
    titles (English) are left as plotly draws them. Returns `fig`."""
    lay = fig.layout
    names = [k for k in lay.to_plotly_json() if k.startswith("yaxis")]
    for name in names:
        axis = lay[name]
        title = axis.title.text if axis.title is not None else None
        if not is_cjk_text(title):
            continue
        suffix = name[len("yaxis"):]
        ref = "y" + suffix
        right = axis.side == "right"
        shown = axis.visible is not False and axis.showticklabels is not False
        tick_w = max((text_width(str(x), tick_size) for x in _tick_labels(fig, axis, ref)),
                     default=0.0) * 1.1 + 8 if shown else 0.0
        lines = vertical_lines(title)
        title_w = max(text_width(x, size) for x in lines)
        anchor = axis.anchor if axis.anchor not in (None, "free") else "x" + suffix
        if "xaxis" + anchor[1:] not in lay.to_plotly_json() and anchor != "x":
            anchor = "x"
        axis.title.text = ""
        gap = tick_w + 6
        fig.add_annotation(text="<br>".join(lines), textangle=0, showarrow=False,
                           xref=f"{anchor} domain", x=1 if right else 0,
                           xanchor="left" if right else "right", xshift=gap if right else -gap,
                           yref=f"{ref} domain", y=0.5, yanchor="middle",
                           font=dict(size=size), name="upright_title")
        need = int(gap + title_w + 10)
        side = "r" if right else "l"
        current = getattr(lay.margin, side)
        setattr(lay.margin, side, max(need, current if current is not None else 80))
    return fig
