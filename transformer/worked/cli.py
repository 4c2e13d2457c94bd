"""``python -m transformer.worked --list``, ``python -m transformer.worked ID [--json]`` and
``python -m transformer.worked --statements [--json]`` (every statement of the notes in words,
those about no single example included).

The core says what it found as codes; this entry point prints them in words with
transformer.worked.words.WORDS: English from transformer/worked/english.py, and for ``--json``'s
``*_zh`` fields the Chinese of the app's translation file, read as data. Nothing here imports the UI
(the app renders the same codes through ui/worked_text.py)."""
from __future__ import annotations

import argparse
import json
from typing import Sequence

import numpy as np

from transformer.worked.examples import list_examples, run_example, statements
from transformer.worked.graph import WorkedResult
from transformer.worked.maths import _fmt
from transformer.worked.statements import Statement, statements_summary
from transformer.worked.words import WORDS

render, step_text, error_text = WORDS.render, WORDS.step_text, WORDS.error_text

DESCRIPTION = "Worked examples: every step of scaled dot-product attention, checked against the notes."


# --------------------------------------------------------------------------------------------
# CLI


def _format_text(res: WorkedResult) -> str:
    """A readable table: each step's numbers, the notes' numbers, and the verdict."""
    lines = [f"{res.id}: {res.title['en']} / {res.title['zh']}", f"source: {res.source}"]
    if res.tokens:
        lines.append("tokens: " + " ".join(res.tokens))
    for s in res.steps:
        lines.append("")
        lines.append(f"== {s.name}: {render(s.label)}  [{s.verdict}]")
        lines.extend("   " + r for r in _rows(s.value))
        if s.claimed is not None:
            lines.append(f"   notes ({s.source}):")
            lines.extend("   " + r for r in _rows(s.claimed, s.agrees))
        if step_text(s):
            lines.append("   " + step_text(s))
        if s.explanation.get("en"):
            lines.append("   why: " + s.explanation["en"])
    for st in res.statements:
        lines.append("")
        lines.extend(_statement_lines(st))
    lines.append("")
    lines.append("summary: " + ", ".join(f"{k}={v}" for k, v in res.summary().items()))
    return "\n".join(lines)


def _statement_lines(st: Statement) -> list[str]:
    """One statement in words: what the notes say, their words, what is true, the verdict."""
    out = [f"== statement {st.id}: {st.title['en']}  [{st.verdict}]"]
    if st.where.get("en"):
        out.append(f"   where: {st.where['en']}")
    out.append(f"   the notes say: {st.says['en']}")
    out.extend(f"   | {line}" for q in st.quote for line in q.splitlines())
    out.append(f"   in fact: {st.fact['en']}")
    if st.evidence is not None:
        out.append("   " + " ".join(f"{c:>12}" for c in st.evidence.columns))
        out.extend("   " + " ".join(f"{_fmt(v):>12}" for v in row) for row in st.evidence.rows)
    return out


def _format_statements(found: list[Statement]) -> str:
    lines = []
    for st in found:
        lines.extend(_statement_lines(st))
        lines.append(f"   example: {st.example or '(none: the notes in general)'}")
        lines.append("")
    lines.append("summary: " + ", ".join(f"{k}={v}" for k, v in statements_summary(found).items()))
    return "\n".join(lines)


def _rows(a: np.ndarray, ok: np.ndarray | None = None) -> list[str]:
    a2 = np.atleast_2d(a)
    ok2 = None if ok is None else np.atleast_2d(ok)
    out = []
    for i, row in enumerate(a2):
        cells = []
        for j, v in enumerate(row):
            cell = str(bool(v)) if a2.dtype == bool else _fmt(float(v))
            mark = "" if ok2 is None else (" " if ok2[i, j] else "✗")
            cells.append(f"{cell:>10}{mark}")
        out.append(" ".join(cells))
    return out


class _Parser(argparse.ArgumentParser):
    """argparse that exits 2 with a one-line message (and no usage dump) on bad arguments."""

    def error(self, message: str) -> None:  # noqa: D401 - argparse API
        self.exit(2, f"{self.prog}: error: {message}\n")


def main(argv: Sequence[str] | None = None) -> int:
    """`--list` prints ids; `ID [--json]` prints every step, check and statement of one example;
    `--statements [--json]` every statement of the notes. Errors: one line on stderr, exit 2."""
    parser = _Parser(prog="python -m transformer.worked", description=DESCRIPTION)
    parser.add_argument("id", nargs="?", help="example id (see --list)")
    parser.add_argument("--list", action="store_true", help="print the example ids, one per line")
    parser.add_argument("--json", action="store_true", help="print every step as strict JSON")
    parser.add_argument("--statements", action="store_true",
                        help="print every statement of the notes in words (what they say, what is true, the "
                             "verdict), those about no single example included")
    args = parser.parse_args(argv)

    if args.list and args.statements:
        parser.error("--list and --statements do not go together")
    if args.list:
        if args.id:
            parser.error("--list takes no example id")
        print("\n".join(list_examples()))
        return 0
    if args.statements:
        if args.id:
            parser.error("--statements takes no example id (an example's own statements are in ID --json)")
        try:
            found = statements()
        except ValueError as e:
            parser.error(error_text(e))
        if args.json:
            print(json.dumps({"statements": [st.to_dict() for st in found], "summary": statements_summary(found)},
                             ensure_ascii=False, allow_nan=False))
        else:
            print(_format_statements(found))
        return 0
    if not args.id:
        parser.error("give an example id, --list or --statements")
    if args.id not in list_examples():
        parser.error(f"unknown example id {args.id!r} (see --list)")
    try:
        res = run_example(args.id)
    except ValueError as e:
        parser.error(error_text(e))
    if args.json:
        print(json.dumps(res.to_dict(render, step_text), ensure_ascii=False, allow_nan=False))
    else:
        print(_format_text(res))
    return 0


