"""Issue 23, section 2: texts that were wrong or said less, checked against what the code does."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from ui import i18n

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.shipped  # re-checks the shipped classroom card's claims
def test_the_default_model_card_says_which_words_are_marked_as_the_app_marks_them():
    """The card said "tired" is marked; it is not (2 pieces, seen in training). Every word the card
    names as marked / not marked is marked / not marked by transformer.probing.knowledge.mark, with the
    number of pieces the card gives."""
    from transformer.probing import knowledge
    from transformer.core.checkpoint import load_checkpoint

    ck = load_checkpoint(ROOT / "checkpoints" / "classroom-en-de")
    card = (ROOT / "checkpoints" / "classroom-en-de" / "README.md").read_text(encoding="utf-8")
    claims = re.findall(r'\("(\w+)", seen \d+ times?(?: in training)?, is (\d) pieces: (marked|not marked)',
                        card)
    assert {w for w, _, _ in claims} >= {"because", "tired"}, claims
    for word, pieces, verdict in claims:
        (m,) = knowledge.mark(ck.tokenizer, ck.history["knowledge"], word)
        assert m.pieces == int(pieces), (word, m)
        assert m.marked == (verdict == "marked"), (word, m)
    assert '"because", "tired") split into pieces and the app marks them' not in card


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_pronoun_accuracy_help_says_what_each_probe_counts(monkeypatch, lang):
    """The help said "held-out sentences ... in the right place" for every model; the default
    model's probe is hand-written and its rule checks the gender anywhere, possessives included."""
    from ui import heads_view, i18n

    monkeypatch.setattr(i18n, "lang", lambda: lang)
    classroom, anaphora = heads_view.accuracy_help("classroom"), heads_view.accuracy_help("anaphora")
    if lang == "en":
        assert "hand-written" in classroom and "anywhere" in classroom and "possessive" in classroom
        assert "held-out" not in classroom and "right place" not in classroom
        assert "held-out" in anaphora and "word position" in anaphora
    else:
        assert "手写" in classroom and "任何位置" in classroom and "物主代词" in classroom
        assert "留出" not in classroom
        assert "留出" in anaphora and "同一词位" in anaphora
    assert heads_view.accuracy_help("copy") not in (classroom, anaphora)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_no_accuracy_note_names_every_pronoun_task(lang):
    """It said accuracy is measured "for models trained on the anaphora task"; the classroom
    models have it too."""
    from transformer.probing.probe_items import PRONOUN_TASKS
    from ui.strings import heads as S

    table = i18n.sentences(S, lang)
    text = table["acc_not_anaphora"].format(task="copy", tasks=", ".join(PRONOUN_TASKS))
    assert "classroom" in text and "anaphora" in text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_glossary_does_not_say_pad_is_always_masked(lang):
    """A converted OPUS-MT model starts decoding from <pad>, and that <pad> is attended to."""
    from transformer.core.masks import decoder_mask
    import torch

    from ui.strings import glossary as G

    text = i18n.text(G, "def_special", lang)
    assert "always masked" not in text and "总是被掩码" not in text
    assert "OPUS-MT" in text
    # what the text says: with start id = pad id, position 0 stays visible
    m = decoder_mask(torch.tensor([[0, 5, 6]]), pad_id=0, start_id=0)
    assert m[0, 0, :, 0].all()
