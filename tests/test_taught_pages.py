"""What the app says about a taught head (issue 49, 5 and 6): the featured-head box, the Two
sentences swap, the head finder and the tour say the head was trained to do this, in both
languages; the swap's verdict names whose pronoun appeared; the featured note names no version the
card does not; a sentence without a pronoun gets no pronoun box."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app_helpers import open_pinned
from ui import pair_view
from ui.taught_note import note

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "checkpoints"
A = "The animal didn't cross the street because it was too tired ."
B = "The animal didn't cross the street because it was too wide ."
ORDINALS = ("first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
            "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth "
            "twentieth").split()


def _train(name):
    return json.loads((SHIPPED / name / "config.json").read_text())["train"]


def test_the_note_names_how_the_head_was_taught_and_the_control():
    en = note(_train("everyday-en-de"), "encoder_self", 2, 0, lang="en")
    assert "Taught, not found" in en and "attention supervision" in en
    assert "interchange training" in en and "multi30k-en-de" in en
    zh = note(_train("everyday-en-de"), "encoder_self", 2, 0, lang="zh")
    assert "教出来的" in zh and "注意力监督" in zh
    assert note(_train("everyday-en-de"), "cross", 0, 0, lang="en") is None
    assert note(_train("multi30k-en-de"), "encoder_self", 2, 0, lang="en") is None


def test_the_swap_verdict_says_whose_pronoun_appeared():
    assert pair_view.swap_verdict("Er war müde , es schlief .", "Sie war müde .",
                                  "Sie war breit .")[0] == "follows"
    # a change of pronoun that is not the partner's is not "follows"
    code, before, after, partner = pair_view.swap_verdict("Es war müde .", "Er war müde .",
                                                          "Sie war breit .")
    assert (code, before, after, partner) == ("other", "Es", "Er", "Sie")
    assert pair_view.swap_verdict("Es war müde .", "Es war müde .", "Sie war breit .")[0] == "same"
    assert pair_view.swap_verdict("Müde .", "Breit .", "Breit .")[0] == "none"


def test_the_featured_note_names_no_version_the_card_does_not():
    history = json.loads((SHIPPED / "everyday-en-de" / "history.json").read_text())
    card = (SHIPPED / "everyday-en-de" / "README.md").read_text()
    current = set(re.findall(r"\bThe (\w+), this one\b", card))
    for lang in ("en",):
        text = history["featured_head"][lang].lower()
        named = {w for w in ORDINALS if re.search(rf"\b{w}\b(?= version|\))|this is the {w}\b", text)}
        assert named <= {c.lower() for c in current}, (named, current)
        assert "figure 4" not in text  # the box says where Figure 4's heads are, once


@pytest.mark.parametrize("lang,taught_words", [("en", "Taught, not found"), ("zh", "教出来的")])
def test_the_featured_box_says_taught_and_hides_for_a_sentence_without_a_pronoun(
        monkeypatch, tmp_path, lang, taught_words):
    at = open_pinned(monkeypatch, SHIPPED, tmp_path, "pages/attention.py", lang=lang,
                     query={"text": A})
    infos = " ".join(i.value for i in at.info)
    assert taught_words in infos
    assert not at.exception
    at2 = open_pinned(monkeypatch, SHIPPED, tmp_path, "pages/attention.py", lang=lang,
                      query={"text": "A dog runs in the park ."})
    assert taught_words not in " ".join(i.value for i in at2.info)
    shown = " ".join(s.value for s in at2.success)
    assert "You are looking at" not in shown and "当前显示的就是" not in shown
    assert any("enc" in c.value and "L2 H0" in c.value for c in at2.caption)


@pytest.mark.parametrize("lang,taught_words", [("en", "Taught, not found"), ("zh", "教出来的")])
def test_the_two_sentences_swap_says_taught(monkeypatch, tmp_path, lang, taught_words):
    at = open_pinned(monkeypatch, SHIPPED, tmp_path, "pages/pair.py", lang=lang,
                     query={"text": A, "text2": B, "kind": "encoder_self", "layer": "2",
                            "head": "0", "swap": "1"})
    assert not at.exception
    assert taught_words in " ".join(i.value for i in at.info)
    verdicts = " ".join(m.value for m in at.markdown)
    assert "'s own pronoun" in verdicts or "自己的代词" in verdicts or "not to" in verdicts \
        or "没有变成" in verdicts or "stays" in verdicts or "不变" in verdicts, verdicts[-600:]
