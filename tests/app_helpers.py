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


def rerun(at: AppTest) -> AppTest:
    """Run again with the sidebar's state put back. AppTest (Streamlit 1.67) runs only the page
    script after switch_page, so the sidebar's widgets are not re-registered and their state
    (language, checkpoint) is dropped after the first run: put it back before each run, as the
    shell would."""
    at.session_state["ckpt_path"] = at._ck
    at.session_state["lang"] = at._lang
    return at.run()


def open_pinned(monkeypatch, checkpoints_dir: Path | None, tmp_path: Path, page: str,
                lang: str = "en", query: dict | None = None) -> AppTest:
    """Open `page` (e.g. "pages/attention.py") with the language pinned for the whole test, and
    remember the session's checkpoint and language for `rerun`.

    AppTest re-formats the shell's checkpoint selectbox outside a script run, where the session's
    language cannot be read (ui.i18n.lang() falls back to "en" and the options no longer match)."""
    from ui import i18n

    monkeypatch.setattr(i18n, "lang", lambda: lang)
    at = open_app(monkeypatch, checkpoints_dir, tmp_path, lang=lang)
    at._ck = at.session_state["ckpt_path"] if checkpoints_dir else None
    at._lang = lang
    if query:
        at.query_params.update(query)
    at.switch_page(page)
    return rerun(at)


def no_errors(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
