"""The generators' word tables, read from recipes/everyday/data/.

A table is a TSV file: lines that start with "#" are comments (the notes of the people who wrote
the table), the first other line names the columns, and every line after it is one row. A cell
is taken exactly as written (no stripping: "" is a value), so the code that reads a table decides
what its cells mean ("to work:zur Arbeit, home:nach Hause" is the verb table's list of complements).
A small JSON file holds what is not one row per entry: named tables, which a lexicon module
offers as its own attributes (module_tables), so the code writes no table's name twice.
"""
from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

DATA = Path(__file__).resolve().with_name("data")


@functools.cache
def _read(name: str) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    path = DATA / name
    header: tuple[str, ...] | None = None
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if not line or line.startswith("#"):
            continue
        cells = tuple(line.split("\t"))
        if header is None:
            header = cells
        elif len(cells) != len(header):
            raise ValueError(f"{path}:{n}: {len(cells)} cells, the header names {len(header)}")
        else:
            rows.append(cells)
    if header is None:
        raise ValueError(f"{path}: no header line")
    return header, tuple(rows)


def rows(name: str) -> list[dict[str, str]]:
    """The rows of the table data/NAME, each a dict of column -> cell."""
    header, body = _read(name)
    return [dict(zip(header, r)) for r in body]


@functools.cache
def _json(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def load_json(name: str):
    """The JSON file data/NAME (a fresh copy each call: callers may build on it)."""
    return json.loads(_json(name))


def tuples(value):
    """VALUE with every JSON list made a tuple, at any depth (the tables are tuples in the code)."""
    if isinstance(value, list):
        return tuple(tuples(v) for v in value)
    if isinstance(value, dict):
        return {k: tuples(v) for k, v in value.items()}
    return value


def module_tables(name: str, module: str):
    """The named tables of the JSON file data/NAME (tuples, as ``tuples`` makes them) as attributes
    of the module MODULE, through PEP 562's module ``__getattr__`` and ``__dir__``. A lexicon module
    says ``_T, __getattr__, __dir__ = module_tables("daily_lexicon.json", __name__)`` and lists the
    tables in a comment; ``from recipes.everyday.daily_lexicon import TIMES`` then reads the table
    "TIMES" (a name the module defines itself, such as a table it reshapes, comes first)."""
    tables = tuples(load_json(name))

    def getattr_(attr: str):
        try:
            return tables[attr]
        except KeyError:
            raise AttributeError(f"module {module!r} has no attribute {attr!r}") from None

    def dir_() -> list[str]:
        return sorted({*vars(sys.modules[module]), *tables})

    return tables, getattr_, dir_
