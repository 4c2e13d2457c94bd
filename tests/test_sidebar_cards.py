"""The sidebar's model card (issue 51, item 3): a shipped checkpoint shows a short card in the
page's language, from its card.json ({"en": [lines], "zh": [lines]}: what the model is, its data and
licence, what it does well and where it slips, its taught heads), not its README, which is long,
English and full of commit hashes. A user's own run, or an upload, still shows its README as text.

Checked here: every shipped checkpoint has a card in every language of the app; no card shown has
a commit hash; the Chinese card has no English sentence (the Chinese pages' own check,
tests/test_zh_complete.english_words, with the card's code spans, names and identifiers allowed);
every number a card gives is one its README gives (the README's numbers are the measured ones, and
the shipped tests re-measure them); every example a card shows is what the model writes; and the
sidebar draws the card in English and in Chinese, and a run's README as before.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import torch

from app_helpers import open_app
from test_zh_complete import Lexicon, english_words
from ui import i18n, models

ROOT = Path(__file__).resolve().parents[1] / "checkpoints"
SHIPPED = sorted(p.name for p in ROOT.iterdir() if (p / "config.json").is_file())
# a commit hash as git prints one: 7 to 40 hex digits with at least one letter and one digit
HASH = re.compile(r"(?<![0-9A-Za-z])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}"
                  r"(?![0-9A-Za-z])")
CODE = re.compile(r"`[^`]*`")
NUMBER = re.compile(r"(?<![\w.,])\d+(?:,\d{3})*(?:\.\d+)?(?!\w)")


def _card(name: str, lang: str) -> str:
    return models.short_card(str(ROOT / name), lang)


def test_the_hash_pattern():
    assert HASH.findall("at commit c5614ce, (git 9240a87) and 5b2b5d2.") == ["c5614ce", "9240a87",
                                                                          "5b2b5d2"]
    assert not HASH.findall("14,393,344 parameters, 2026-11-28, decoder, 1234567, deadbeef, "
                            "test_2016_flickr, float16")


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_checkpoint_has_a_short_card_in_every_language(name):
    for lang in i18n.LANGS:
        card = _card(name, lang)
        assert card and card != _card(name, "en" if lang != "en" else "zh"), (name, lang)
        assert not HASH.findall(card), (name, lang, HASH.findall(card))
        assert len(card.splitlines()) <= 15, (name, lang)  # a sidebar's worth, not a README
        # the full card is named, so a reader knows where the rest is
        assert f"checkpoints/{name}/README.md" in card, (name, lang)


@pytest.mark.parametrize("name", SHIPPED)
def test_the_chinese_card_has_no_english_sentences(name):
    card = _card(name, "zh")
    lex = Lexicon(sentence_words=set(), page_words=set(), names=set(SHIPPED))
    assert english_words(card, lex) == [], (name, english_words(card, lex))
    # and it is Chinese: more CJK characters than ASCII letters outside code spans
    prose = CODE.sub(" ", card)
    assert len(re.findall(r"[\u4e00-\u9fff]", prose)) > len(re.findall(r"[A-Za-z]", prose)), name


def test_the_english_check_can_fail():
    lex = Lexicon(sentence_words=set(), page_words=set(), names=set(SHIPPED))
    assert english_words("本模型 trained on a CPU", lex) == ["trained"]


@pytest.mark.parametrize("name", SHIPPED)
def test_every_number_of_a_card_is_in_its_readme(name):
    readme = (ROOT / name / "README.md").read_text(encoding="utf-8")
    have = set(NUMBER.findall(readme))
    for lang in i18n.LANGS:
        said = set(NUMBER.findall(CODE.sub(" ", _card(name, lang))))
        assert said <= have, (name, lang, sorted(said - have))


@pytest.mark.shipped  # decodes with the shipped models
@pytest.mark.parametrize("name", SHIPPED)
def test_a_cards_examples_are_what_the_model_writes(name):
    from transformer.core.checkpoint import load_checkpoint
    from transformer.core.decode import greedy
    from transformer.core.text import source_ids
    from transformer.ops import cards

    ck = load_checkpoint(ROOT / name)
    for lang in i18n.LANGS:
        for ex in cards.examples(_card(name, lang)):
            ids = source_ids(ck.tokenizer, ex.src, ck.model.cfg.max_len)[0]
            with torch.inference_mode():
                out = ck.tokenizer.decode(greedy(ck.model.eval(), ids).tokens)
            assert ex.out == out, (name, lang, ex.src)


@pytest.mark.shipped  # decodes with a shipped model
def test_the_card_tool_refreshes_the_short_card_too(tmp_path):
    """`python -m transformer.ops.cards` rewrites a stale example in card.json as in README.md
    (--check reports it and changes nothing), and leaves every other byte alone."""
    from helpers import card_tool_repairs

    card_tool_repairs(ROOT / "copy-tiny", tmp_path, "card.json", "`g s j a c e` -> `g s j a c e`。",
                      "`g s j a c e` -> `e c a j s g`。")


def test_a_checkpoint_without_card_json_has_no_short_card(small_checkpoint):
    assert models.short_card(str(small_checkpoint), "zh") is None


def test_a_language_the_card_lacks_falls_back_to_english(tmp_path):
    (tmp_path / "card.json").write_text('{"en": ["**English** only"]}', encoding="utf-8")
    assert models.short_card(str(tmp_path), "zh") == "**English** only"
    (tmp_path / "card.json").write_text('["not", "a", "card"]', encoding="utf-8")
    assert models.short_card(str(tmp_path), "en") is None


def _card_box(at):
    from ui.strings import shell

    labels = {i18n.text(shell, "card", lang) for lang in i18n.LANGS}
    [box] = [e for e in at.sidebar.expander if e.label in labels]
    return [m.value for m in box.markdown], [t.value for t in box.text]


@pytest.mark.parametrize("lang", list(i18n.LANGS))
def test_the_sidebar_shows_the_short_card_in_the_pages_language(monkeypatch, tmp_path, lang,
                                                                small_checkpoint):
    shipped = tmp_path / "shipped"
    shutil.copytree(ROOT / "copy-tiny", shipped / "copy-tiny")
    run = tmp_path / "runs" / "my-run" / "checkpoints" / "step-000010"
    shutil.copytree(small_checkpoint, run)
    (run / "README.md").write_text("# my run\n\nTrained at commit 5b2b5d2 by me.\n",
                                   encoding="utf-8")
    monkeypatch.setattr(i18n, "lang", lambda: lang)
    at = open_app(monkeypatch, shipped, tmp_path, lang=lang)
    assert not at.exception
    assert at.session_state["ckpt_path"] == str(shipped / "copy-tiny")
    markdown, text = _card_box(at)
    assert markdown == [_card("copy-tiny", lang)] and not text
    assert not HASH.findall(" ".join(markdown))
    # a user's own run: its README, as plain text, as before
    at.sidebar.selectbox(key="ckpt_path").set_value(str(run))
    at.run()
    assert not at.exception
    markdown, text = _card_box(at)
    assert [x.strip() for x in text] == [(run / "README.md").read_text(encoding="utf-8").strip()]
    assert not markdown
