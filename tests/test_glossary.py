"""The glossary: every word the issue names is defined in both languages, and the sidebar shows
it on every page."""
from __future__ import annotations

import pytest

from app_helpers import no_errors, open_app
from ui import i18n
from ui.strings import glossary as g

REQUIRED = ["query", "key", "value", "head", "layer", "mask", "softmax", "logit", "token",
            "piece", "special"]


def test_required_terms_defined_in_both_languages():
    for e in REQUIRED:
        for table in (i18n.sentences(g, lang) for lang in i18n.LANGS):
            assert table[f"term_{e}"].strip() and len(table[f"def_{e}"]) > 15, e
    assert "<s>" in g.EN["term_special"] and "</s>" in g.EN["term_special"]
    # the Chinese definitions are Chinese: most characters are CJK
    for k, v in i18n.sentences(g, "zh").items():
        if k.startswith("def_"):
            cjk = sum("\u4e00" <= c <= "\u9fff" for c in v)
            assert cjk >= 0.3 * len(v.replace(" ", "")), k


@pytest.mark.parametrize("page", ["pages/tour.py", "pages/masks.py", "pages/train.py"])
@pytest.mark.parametrize("lang,title", [("en", "Glossary"), ("zh", "术语表")])
def test_glossary_in_every_sidebar(monkeypatch, tmp_path, small_checkpoint, page, lang, title):
    import shutil
    d = tmp_path / "shipped"
    d.mkdir()
    shutil.copytree(small_checkpoint, d / "tiny-test")
    at = open_app(monkeypatch, d, tmp_path, page=page, lang=lang)
    no_errors(at)
    labels = [e.label for e in at.sidebar.expander]
    assert any(title in lab for lab in labels), labels
    text = " ".join(m.value for m in at.sidebar.markdown)
    for e in REQUIRED:
        term = i18n.text(g, f"term_{e}", lang)
        assert term.split("（")[0].split(" (")[0].replace("<", "&lt;").replace(">", "&gt;") in text, e


@pytest.mark.parametrize("lang,word", [("en", "image captions"), ("zh", "图片描述")])
def test_sidebar_states_the_models_domain(monkeypatch, tmp_path, lang, word):
    """Each model says what it learned from (the record in its history.json), in the sidebar."""
    from app_helpers import ROOT

    import shutil
    d = tmp_path / "shipped"
    d.mkdir()
    shutil.copytree(ROOT / "checkpoints" / "multi30k-en-de", d / "multi30k-en-de")
    at = open_app(monkeypatch, d, tmp_path, lang=lang)
    no_errors(at)
    caps = " ".join(c.value for c in at.sidebar.caption)
    import json
    rec = json.loads((d / "multi30k-en-de" / "history.json").read_text())["knowledge"]
    assert word in caps and f"{rec['coverage']['one_piece_share']:.0%}" in caps, caps


def test_the_atlas_labels_and_rollout_are_defined_in_both_languages():
    """Issue 24: every head-atlas label has its definition in the glossary, and so does rollout."""
    from transformer.probing.atlas import BEHAVIOURS
    from ui.strings import atlas as A
    from ui.strings import glossary as G

    for table, atlas in ((i18n.sentences(G, lang), i18n.sentences(A, lang)) for lang in ("en", "zh")):
        assert "term_atlas" in table and "term_rollout" in table
        for b in BEHAVIOURS + ("none",):
            # each label is named in the definition: its first word (EN) or first two characters
            label = atlas[f"lab_{b}"]
            head = label.split()[0] if table is G.EN else label[:2]
            if b == "diagonal":
                head = "diagonal" if table is G.EN else "对角"
            assert head in table["def_atlas"], (b, label)
