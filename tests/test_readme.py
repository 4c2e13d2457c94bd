"""README.md stays a front page (issue 51, item 4): at most 150 lines, what the app is in the first
five, the quick start (set up, run, test in a second terminal) within the first 45, no line over
200 characters outside code, no working notes ("chunk", issue numbers, "the eleventh version"),
and every docs/*.md it links to exists. The details live in docs/ (CLI, DATA, MODELS, SERVING)."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINES = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
ORDINALS = ("first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
            "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth")


def _prose() -> list[tuple[int, str]]:
    """(line number, line) of every line outside ``` fences."""
    out, fenced = [], False
    for n, line in enumerate(LINES, 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            out.append((n, line))
    return out


def test_at_most_150_lines():
    assert len(LINES) <= 150, f"README.md has {len(LINES)} lines; move detail into docs/"


def test_no_long_line_outside_code():
    long = [(n, len(line)) for n, line in _prose() if len(line) > 200]
    assert not long, f"README.md lines over 200 characters (line, length): {long}"


def test_no_working_notes_outside_code():
    words = re.compile(r"\bchunks?\b|\bissues?\b|\b(?:%s)\s+version" % "|".join(ORDINALS.split()),
                       re.IGNORECASE)
    found = [(n, m.group(0)) for n, line in _prose() for m in words.finditer(line)]
    assert not found, f"README.md speaks of the project's history (line, words): {found}"


def test_says_what_it_is_first():
    head = " ".join(LINES[:5])
    assert "Attention Lab is" in head and "Transformer" in head and "Streamlit" in head


def test_quick_start_within_45_lines():
    head = "\n".join(LINES[:45])
    for needle in ("pip install -r requirements.txt", "streamlit run app.py",
                   "pip install -r requirements-dev.txt && lint-imports && python -m pytest",
                   "second terminal", "download.pytorch.org/whl/cpu"):
        assert needle in head, f"{needle!r} is not in README.md's first 45 lines"
    # the test line comes after the run line, and says why it needs a second terminal
    assert head.index("streamlit run app.py") < head.index("lint-imports && python -m pytest")


def test_ci_runs_the_readmes_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install -q -r requirements-dev.txt && lint-imports && python -m pytest" in ci


def test_docs_links_exist():
    links = {m.group(1) for line in LINES for m in re.finditer(r"\((docs/[^)#\s]+)", line)}
    assert {"docs/CLI.md", "docs/SERVING.md", "docs/DATA.md", "docs/MODELS.md"} <= links
    missing = sorted(p for p in links if not (ROOT / p).exists())
    assert not missing, f"README.md links to missing files: {missing}"


def test_one_screenshot_small():
    images = [m.group(1) for line in LINES for m in re.finditer(r"!\[[^\]]*\]\(([^)]+)\)", line)]
    assert len(images) == 1, images
    png = ROOT / images[0]
    assert png.exists() and png.stat().st_size < 400_000


def test_cookbook_moved_whole():
    """Every `python -m` launcher the README's cookbook had, and the newer ones, is in docs/CLI.md."""
    cli = (ROOT / "docs" / "CLI.md").read_text(encoding="utf-8")
    for module in ("worked", "inspect", "train", "average", "evaluate", "heads", "convert",
                   "scorecard", "atlas", "data", "data.classroom", "data.genders", "faithfulness",
                   "align", "qk", "heldout"):
        assert f"python -m transformer.{module} " in cli, module
    for module in ("revocab", "grow", "graft"):
        assert f"python -m recipes.surgery.{module} " in cli, module
