"""The shipped default model, checkpoints/classroom-en-de (issue 12): what its card claims is
measured here again, on the hand-written probe, with the project's own scorer."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import torch

from transformer.probing import heads as H
from transformer.probing.probe_items import CLASSROOM_PROBE, baselines, read_probe_file
from transformer.probing.pronouns import pronoun_accuracy, translate_ids
from transformer.core.checkpoint import load_checkpoint
from transformer.core.names import Head, ablate_map

pytestmark = pytest.mark.shipped  # re-measures a shipped model's card or prose (tests/conftest.py)

ROOT = Path(__file__).resolve().parents[1]
CK = ROOT / "checkpoints" / "classroom-en-de"


@pytest.fixture(scope="module")
def ck():
    torch.set_num_threads(max(1, min(2, torch.get_num_threads())))
    return load_checkpoint(CK)


@pytest.fixture(scope="module")
def measured(ck):
    items = read_probe_file(CLASSROOM_PROBE)
    scores = H.score_anaphora(ck.model, ck.tokenizer, items)
    on = pronoun_accuracy(ck.model, ck.tokenizer, items)
    fh = json.loads((CK / "history.json").read_text())["featured_head"]
    off = pronoun_accuracy(ck.model, ck.tokenizer, items,
                             ablate=ablate_map([Head(fh["kind"], fh["layer"], fh["head"])]))
    return items, scores, on, off, fh


def test_size_and_whole_words(ck):
    assert sum(p.numel() for p in ck.model.parameters()) <= 10_000_000
    assert (CK / "model.safetensors").stat().st_size <= 35_000_000
    for word in ("dog", "street", "animal", "newspaper", "car", "woman"):
        assert len(ck.tokenizer.encode(word)) == 1, word
    know = json.loads((CK / "history.json").read_text())["knowledge"]
    assert "Multi30k" in know["domain"]["en"] and know["coverage"]["one_piece_share"] > 0.9


def test_the_featured_head_is_the_best_and_beats_every_baseline(measured):
    items, scores, _, _, fh = measured
    kind, layer, head, acc, _ = H.best_head(scores)
    assert (kind, layer, head) == (fh["kind"], fh["layer"], fh["head"])
    base = baselines(items)
    assert acc > max(base.values()) + 0.15, (acc, base)


def test_switching_the_head_off_lowers_pronoun_accuracy(measured):
    _, _, on, off, _ = measured
    assert on.n_scored == 186
    assert off.accuracy < on.accuracy - 0.05, (on.accuracy, off.accuracy)


def test_the_card_reports_what_is_measured(measured):
    _, scores, on, off, fh = measured
    card = (CK / "README.md").read_text(encoding="utf-8")
    acc = float(scores[fh["kind"]].accuracy[fh["layer"], fh["head"]])
    assert f"**{acc:.3f}**" in card and f"**{on.accuracy:.3f}**" in card and f"**{off.accuracy:.3f}**" in card
    assert "CPU" in card and re.search(r"decoder self-attention layer 2, head 6", card)
    assert "python -m transformer.heads --checkpoint checkpoints/classroom-en-de" in card


def test_the_lesson_sentence_turns_on_the_head(ck):
    """The tour's and the Attention page's sentence: with the head, 'sie' (die Zeitung); with it
    switched off, the model falls back to the nearest noun's gender (der Stand: 'ihn')."""
    from ui.page_kit import EXAMPLES

    text = EXAMPLES["classroom"]
    fh = json.loads((CK / "history.json").read_text())["featured_head"]
    spec = ablate_map([Head(fh["kind"], fh["layer"], fh["head"])])
    [on] = translate_ids(ck.model, ck.tokenizer, [text])
    [off] = translate_ids(ck.model, ck.tokenizer, [text], ablate=spec)
    on, off = ck.tokenizer.decode(on).split(), ck.tokenizer.decode(off).split()
    assert "sie" in on and "ihn" not in on
    assert "ihn" in off
