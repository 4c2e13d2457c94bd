"""The app shell: navigation, language switch, checkpoint picker, card, uploads."""
from __future__ import annotations

import io
import shutil
import zipfile
from pathlib import Path

import pytest

from app_helpers import no_errors, open_app


@pytest.fixture
def ck_dir(tmp_path, small_checkpoint):
    d = tmp_path / "shipped"
    d.mkdir()
    shutil.copytree(small_checkpoint, d / "tiny-test")
    return d


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


def _zip(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in files.items():
            z.writestr(name, data)
    return buf.getvalue()


def test_upload_validation(tmp_path, small_checkpoint):
    from transformer.checkpoint import CheckpointError
    from transformer.upload import extract_checkpoint_zip

    good = {p.name: p.read_bytes() for p in small_checkpoint.iterdir()}
    dest = extract_checkpoint_zip(_zip({f"ck/{k}": v for k, v in good.items()}), tmp_path / "u")
    assert (dest / "model.safetensors").is_file() and dest.parent == tmp_path / "u"
    for bad, why in [
        ({**good, "../evil.json": b"{}"}, "unexpected path"),
        ({**good, "run.py": b"print(1)"}, "unexpected file"),
        ({k: v for k, v in good.items() if k != "config.json"}, "lacks"),
        ({**good, "model.safetensors": b"\x00" * 10}, "safetensors"),
    ]:
        with pytest.raises(CheckpointError, match=why):
            extract_checkpoint_zip(_zip(bad), tmp_path / "u")
    with pytest.raises(CheckpointError, match="zip"):
        extract_checkpoint_zip(b"not a zip", tmp_path / "u")
    assert len(list((tmp_path / "u").iterdir())) == 1  # refused uploads leave nothing


def test_every_ui_string_table_has_both_languages():
    import importlib
    import pkgutil

    import ui.strings

    for mod in pkgutil.iter_modules(ui.strings.__path__):
        m = importlib.import_module(f"ui.strings.{mod.name}")
        assert set(m.EN) == set(m.ZH), mod.name
        assert all(isinstance(v, str) and v.strip() for v in list(m.EN.values()) + list(m.ZH.values()))


def test_every_url_path_has_a_deep_link_shim():
    """pages/<url path>.py runs app.py (ui/deeplink.py): on a fresh server Streamlit routes the
    first deep links by file name. Each shim exists, is exactly the two-line runner, and no real
    page file is named after a URL path."""
    import ast

    root = Path(__file__).resolve().parents[1]
    src = (root / "app.py").read_text()
    pages = next(ast.literal_eval(n.value) for n in ast.parse(src).body
                 if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "PAGES")
    for _group, file, url, _title, _icon in pages:
        assert file != f"{url}.py"
        shim = (root / "pages" / f"{url}.py").read_text()
        code = [ln for ln in shim.splitlines() if ln and not ln.startswith('"""')]
        assert code == ["from ui.deeplink import run_app", "run_app()"], url
    from ui import deeplink

    assert deeplink.APP == root / "app.py" and deeplink.APP.is_file()
