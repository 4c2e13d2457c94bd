"""AppTest plumbing shared by the page tests: point the app at test checkpoints, open a page."""
from __future__ import annotations

import os
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]


def open_app(monkeypatch, checkpoints_dir: Path | None, tmp_path: Path, page: str | None = None,
             lang: str = "en", timeout: float = 120) -> AppTest:
    """Run app.py with the shipped-checkpoint dir replaced, then switch to `page`
    (e.g. "pages/attention.py") in language `lang`."""
    monkeypatch.setenv("ATTENTION_LAB_CHECKPOINTS", str(checkpoints_dir or tmp_path / "none"))
    monkeypatch.setenv("ATTENTION_LAB_RUNS", str(tmp_path / "runs"))
    monkeypatch.setenv("ATTENTION_LAB_UPLOADS", str(tmp_path / "uploads"))
    monkeypatch.chdir(ROOT)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=timeout)
    at.session_state["lang"] = lang
    at.run()
    if page:
        at.switch_page(page)
        at.run()
    return at


def no_errors(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
