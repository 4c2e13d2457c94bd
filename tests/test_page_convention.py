"""One page convention (ui/navigation.py): a page's URL, its strings module, its view module and
its state-key prefix share one name, and a page file is layout over its view module."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from ui.navigation import PAGES

ROOT = Path(__file__).resolve().parents[1]
MAX_PAGE_LINES = 30
# a page whose sections are in modules of its own named otherwise than <name>_view
SECTIONS = {"train": ("train_start", "train_watch")}
KEY = re.compile(r"""(?:key=|session_state\[|session_state\.(?:get|setdefault|pop)\()f?["']([A-Za-z_]+)""")


@pytest.mark.parametrize("p", PAGES, ids=[p.url for p in PAGES])
def test_a_page_is_short_layout_over_its_view(p):
    src = (ROOT / p.file).read_text()
    assert len(src.splitlines()) <= MAX_PAGE_LINES, p.file
    assert f"from ui.strings import {p.name} as strings" in src, p.file
    for mod in SECTIONS.get(p.name, (f"{p.name}_view",)):
        assert (ROOT / "ui" / f"{mod}.py").exists(), mod
        assert re.search(rf"from ui import ([\w, ]*\b{mod}\b|{mod} as \w+)", src), (p.file, mod)
    assert not re.search(r"^(def|class) ", src, re.M), f"{p.file} defines; its view module should"
    assert "session_state" not in src, f"{p.file} reads or writes state; its view module should"


@pytest.mark.parametrize("p", PAGES, ids=[p.url for p in PAGES])
def test_a_pages_keys_carry_its_name(p):
    assert (ROOT / "ui" / "strings" / f"{p.name}.py").exists()
    for path in sorted((ROOT / "ui").glob(f"{p.name}_*.py")):
        keys = KEY.findall(path.read_text())
        bad = [k for k in keys if not k.startswith(p.name + "_")]
        assert not bad, f"{path.name}: keys {bad} do not start with {p.name}_"


def test_the_names_are_one_rule():
    assert [p.name for p in PAGES] == [p.url.replace("-", "_") for p in PAGES]
    assert len({p.name for p in PAGES}) == len(PAGES)
