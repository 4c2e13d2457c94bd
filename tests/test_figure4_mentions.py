"""Wherever the paper's Figure 4 is named, say what it is (encoder self-attention, layer 5 of 6,
heads 5 and 6) and that the shipped anaphora model's pronoun head is in the decoder.

The model card, the Train page and the Attention callout once called a decoder head "the Figure 4
head" without saying the paper's are in the encoder. This test reads every text file a reader can
see (model cards, README, UI strings in English and in each language's file, the core's docstrings) and fails for a
file that names Figure 4 without both facts.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ui import i18n

pytestmark = pytest.mark.shipped  # re-measures a shipped model's card or prose (tests/conftest.py)

ROOT = Path(__file__).resolve().parents[1]
NAMES = re.compile(r"Figure 4|图 ?4")
SKIP = {".git", "tests", "runs", "node_modules", "__pycache__", ".venv"}


def _files():
    for p in ROOT.rglob("*"):
        if p.suffix in (".py", ".md", ".json") and p.is_file() and not SKIP & set(
                p.relative_to(ROOT).parts) and p.stat().st_size < 2_000_000:
            text = p.read_text(encoding="utf-8", errors="replace")
            if NAMES.search(text):
                yield p.relative_to(ROOT), text


FILES = list(_files())


def test_figure_4_is_named_somewhere():
    names = {str(p) for p, _ in FILES}
    assert {"checkpoints/anaphora-en-de/README.md", "ui/strings/train.py",
            "ui/strings/attention.py"} <= names


@pytest.mark.parametrize("path,text", FILES, ids=[str(p) for p, _ in FILES])
def test_every_mention_says_encoder_layer_5_of_6_and_the_decoder(path, text):
    if str(path).startswith("pages/"):
        pytest.skip("a page's comment; its words are in ui/strings")
    if str(path).startswith("ui/locales/"):  # a language's file: each module's table on its own
        for name, table in json.loads(text).items():
            said = " ".join(table.values())
            if NAMES.search(said):
                assert _zh(said), f"{path} ({name}) names 图 4 without 编码器, 第 5 层 and 解码器"
        return
    en = "layer 5 of 6" in text and re.search(r"[Ee]ncoder|ENCODER", text) and re.search(
        r"decoder", text, re.I)
    zh_needed = "图" in "".join(NAMES.findall(text))
    if str(path).startswith("ui/strings/"):  # its Chinese is the module's table in ui/locales/zh.json
        zh_needed, text = True, " ".join(i18n.sentences(_module(path), "zh").values())
    assert en, f"{path} names Figure 4 without 'encoder', 'layer 5 of 6' and the decoder"
    if zh_needed:
        assert _zh(text), f"{path} names 图 4 without 编码器, 第 5 层 and 解码器"


def _zh(text: str) -> bool:
    return "第 5 层" in text and "编码器" in text and "解码器" in text


def _module(path: Path):
    import importlib

    return importlib.import_module("ui.strings." + path.stem)
