"""Streamlit's own uploader words ("Upload", "50MB per file • ZIP") in Chinese (issue 23):
Streamlit has no locale switch, so ui/uploader_text.py writes them with CSS, per uploader."""
from __future__ import annotations

import ast

import pytest

from app_helpers import ROOT, open_app
from ui import uploader_text as U


def _uploaders():
    """(key, types) of every st.file_uploader call in the app's code."""
    out = []
    for path in [*ROOT.glob("ui/**/*.py"), *ROOT.glob("pages/*.py"), ROOT / "app.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "file_uploader":
                kw = {k.arg: k.value for k in node.keywords}
                key = ast.literal_eval(kw["key"]) if "key" in kw else None
                types = tuple(ast.literal_eval(kw["type"])) if "type" in kw else ()
                out.append((path.name, key, types))
    return out


def test_every_uploader_has_its_chinese_words():
    found = _uploaders()
    assert len(found) >= 5
    for where, key, types in found:
        assert key in U.UPLOADERS, f"{where}: an uploader without a key in UPLOADERS ({key})"
        assert U.UPLOADERS[key] == types, (where, key, types)


def test_the_style_sheet():
    assert U.css("en", 50) == ""  # Streamlit's words are English already
    zh = U.css("zh", 50)
    assert zh.startswith("<style>") and zh.endswith("</style>") and "<script" not in zh
    assert 'content: "上传"' in zh and 'content: "每个文件最大 50MB"' in zh
    assert '.st-key-shell_upload [data-testid="stFileUploaderDropzoneInstructions"]' in zh
    # each uploader's own limit: the probe's reader takes 1 MB (issue 48, 5)
    assert '"每个文件最大 50MB · ZIP"' in zh and '"每个文件最大 1MB · JSONL, JSON, TXT"' in zh
    assert "font-size: 0 !important" in zh  # the English words are hidden, not doubled


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_app_puts_the_words_on_every_page(monkeypatch, tmp_path, lang):
    at = open_app(monkeypatch, None, tmp_path, lang=lang)
    assert not at.exception
    sheets = [el.proto.body for el in at.get("html") if "stFileUploader" in el.proto.body]
    assert (len(sheets) == 1 and "上传" in sheets[0]) if lang == "zh" else not sheets
