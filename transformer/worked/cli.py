"""``python -m transformer.worked --list`` and ``python -m transformer.worked ID [--json]``."""
from __future__ import annotations

import argparse
import json
from typing import Sequence

import numpy as np

from transformer.worked.examples import list_examples, run_example
from transformer.worked.graph import WorkedResult
from transformer.worked.maths import _fmt
from transformer.worked.wording import render

DESCRIPTION = "Worked examples: every step of scaled dot-product attention, checked against the notes."


# --------------------------------------------------------------------------------------------
# CLI


def _format_text(res: WorkedResult) -> str:
    """A readable table: each step's numbers, the notes' numbers, and the verdict."""
    lines = [f"{res.id}: {res.title_en} / {res.title_zh}", f"source: {res.source}"]
    if res.tokens:
        lines.append("tokens: " + " ".join(res.tokens))
    for s in res.steps:
        lines.append("")
        lines.append(f"== {s.name}: {render(s.label)}  [{s.verdict}]")
        lines.extend("   " + r for r in _rows(s.value))
        if s.claimed is not None:
            lines.append(f"   notes ({s.source}):")
            lines.extend("   " + r for r in _rows(s.claimed, s.agrees))
        if s.text():
            lines.append("   " + s.text())
        if s.explanation_en:
            lines.append("   why: " + s.explanation_en)
    lines.append("")
    lines.append("summary: " + ", ".join(f"{k}={v}" for k, v in res.summary().items()))
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
    """`--list` prints ids; `ID [--json]` prints every step. Errors: one line on stderr, exit 2."""
    parser = _Parser(prog="python -m transformer.worked", description=DESCRIPTION)
    parser.add_argument("id", nargs="?", help="example id (see --list)")
    parser.add_argument("--list", action="store_true", help="print the example ids, one per line")
    parser.add_argument("--json", action="store_true", help="print every step as strict JSON")
    args = parser.parse_args(argv)
    if args.list:
        if args.id:
            parser.error("--list takes no example id")
        print("\n".join(list_examples()))
        return 0
    if not args.id:
        parser.error("give an example id or --list")
    if args.id not in list_examples():
        parser.error(f"unknown example id {args.id!r} (see --list)")
    try:
        res = run_example(args.id)
    except ValueError as e:
        parser.error(str(e))
    if args.json:
        print(json.dumps(res.to_dict(), ensure_ascii=False, allow_nan=False))
    else:
        print(_format_text(res))
    return 0


