"""The app shell: navigation, language switch, checkpoint picker, card, uploads."""
from __future__ import annotations

from pathlib import Path

import pytest

from app_helpers import no_errors, open_app
from helpers import zipped
from ui import i18n


@pytest.mark.parametrize("lang,title", [("en", "Attention Lab"), ("zh", "注意力实验室")])
def test_home_in_both_languages(monkeypatch, tmp_path, ck_dir, lang, title):
    at = open_app(monkeypatch, ck_dir, tmp_path, lang=lang)
    no_errors(at)
    assert at.title[0].value == title
    assert at.session_state["ckpt_path"].endswith("tiny-test")
    assert any("4" in c.value for c in at.sidebar.caption)  # the card shows heads


def test_no_checkpoints_is_explained(monkeypatch, tmp_path):
    at = open_app(monkeypatch, None, tmp_path)
    no_errors(at)
    assert at.sidebar.info


def test_upload_validation(tmp_path, small_checkpoint):
    from transformer.core.checkpoint import CheckpointError
    from transformer.ops.upload import extract_checkpoint_zip

    good = {p.name: p.read_bytes() for p in small_checkpoint.iterdir()}
    dest = extract_checkpoint_zip(zipped({f"ck/{k}": v for k, v in good.items()}), tmp_path / "u")
    assert (dest / "model.safetensors").is_file() and dest.parent == tmp_path / "u"
    for bad, why in [
        ({**good, "../evil.json": b"{}"}, "unexpected path"),
        ({**good, "run.py": b"print(1)"}, "unexpected file"),
        ({k: v for k, v in good.items() if k != "config.json"}, "lacks"),
        ({**good, "model.safetensors": b"\x00" * 10}, "safetensors"),
    ]:
        with pytest.raises(CheckpointError, match=why):
            extract_checkpoint_zip(zipped(bad), tmp_path / "u")
    with pytest.raises(CheckpointError, match="zip"):
        extract_checkpoint_zip(b"not a zip", tmp_path / "u")
    assert len(list((tmp_path / "u").iterdir())) == 1  # refused uploads leave nothing


def test_every_ui_string_table_has_both_languages():
    import importlib
    import pkgutil

    import ui.strings

    for mod in pkgutil.iter_modules(ui.strings.__path__):
        m = importlib.import_module(f"ui.strings.{mod.name}")
        for lang in i18n.LANGS:
            table = i18n.sentences(m, lang)
            assert set(m.EN) == set(table), (mod.name, lang)
            assert all(isinstance(v, str) and v.strip() for v in table.values()), (mod.name, lang)


def test_one_file_per_page_named_by_its_url_path():
    """pages/ holds exactly one file per page of ui/navigation.py, pages/<url path>.py, and each
    page's first statement hands a direct route over to app.py (ui/deeplink.py): on a fresh server
    Streamlit routes the first deep links by file name, without app.py's navigation."""
    import ast

    from ui import deeplink, navigation

    root = Path(__file__).resolve().parents[1]
    assert sorted(p.name for p in (root / "pages").iterdir() if p.suffix == ".py") == \
        sorted(f"{p.url}.py" for p in navigation.PAGES)
    assert len({p.url for p in navigation.PAGES}) == len(navigation.PAGES)
    assert navigation.HOME in {p.url for p in navigation.PAGES}
    for p in navigation.PAGES:
        body = ast.parse((root / p.file).read_text(encoding="utf-8")).body
        first = [ast.unparse(n) for n in body[1:3]]  # after the docstring
        assert first == ["from ui.deeplink import ensure_app", "ensure_app()"], p.file
    assert deeplink.APP == root / "app.py" and deeplink.APP.is_file()


def test_a_page_run_directly_hands_over_to_app_py(monkeypatch):
    """Outside app.py's navigation, ensure_app() runs app.py once and stops the direct run; under
    the navigation (run_page) it does nothing."""
    import streamlit as st

    from ui import deeplink

    ran, stopped = [], []
    monkeypatch.setattr(deeplink.runpy, "run_path", lambda path, run_name: ran.append((path, run_name)))
    monkeypatch.setattr(st, "stop", lambda: stopped.append(True))
    deeplink.ensure_app()
    assert ran == [(str(deeplink.APP), "__main__")] and stopped == [True]

    class Page:
        def run(self):
            deeplink.ensure_app()

    deeplink.run_page(Page())
    assert len(ran) == 1 and len(stopped) == 1
    deeplink.ensure_app()  # the flag is cleared once the page has run
    assert len(ran) == 2
