"""transformer.atlas: every head labelled. The synthetic models are the ground truth: copying
needs diagonal cross-attention, reversing anti-diagonal, and anaphora-en-de's taught head is a
pronoun head."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
import torch

from transformer.probing import atlas as A
from transformer.core.checkpoint import load_checkpoint

SHIPPED = Path(__file__).resolve().parents[1] / "checkpoints"


def _roles(name, n=16, probe=None):
    ck = load_checkpoint(SHIPPED / name)
    sentences = [it.text for it in probe] if probe else A.sentences_for(ck, n)
    with torch.inference_mode():
        return A.atlas(ck.model.eval(), ck.tokenizer, sentences, probe)


def test_copy_models_cross_heads_are_diagonal():
    cross = Counter(r.label for r in _roles("copy-tiny") if r.kind == "cross")
    assert cross["diagonal"] >= 6 and cross["reversed"] == 0


def test_reverse_models_cross_heads_are_anti_diagonal():
    cross = [r for r in _roles("reverse-tiny") if r.kind == "cross"]
    labels = Counter(r.label for r in cross)
    assert labels["reversed"] >= 3 and labels["diagonal"] == 0
    assert max(r.scores["reversed"] for r in cross) > 3 * max(r.scores["diagonal"] for r in cross)


def test_the_taught_pronoun_head_is_found():
    from transformer.probing.probe_items import anaphora_probe

    roles = _roles("anaphora-en-de", probe=anaphora_probe(n=40))
    head = next(r for r in roles if (r.kind, r.layer, r.head) == ("decoder_self", 1, 3))
    assert head.label == "pronoun" and head.score >= 0.9
    assert all(0.0 <= s <= 1.0 for r in roles for s in r.scores.values())
    assert {r.kind for r in roles} == {"encoder_self", "decoder_self", "cross"}


def test_scores_on_a_hand_made_matrix():
    # one layer, three heads over 4 source tokens (a b c </s>): previous, next, uniform
    n = 4
    prev = torch.zeros(n, n)
    nxt = torch.zeros(n, n)
    for q in range(n):
        prev[q, max(q - 1, 0)] = 1.0
        nxt[q, min(q + 1, n - 1)] = 1.0
    uni = torch.full((n, n), 1 / n)
    w = torch.stack([prev, nxt, uni]).unsqueeze(0).double()  # (1, 3, 4, 4)
    tok = ["a", "b", ",", "</s>"]
    s = A._sums(w, "encoder_self", tok, tok, [False, False, False, True], [False, False, False, True])
    rows = s["_rows"][0, 0].item()
    assert rows == 3  # </s>'s row is not scored on the encoder
    # rows a, b, ",": previous head: a->a (q=0 has no previous), b->a, ","->b
    assert s["previous"][0].tolist() == pytest.approx([2.0, 0.0, 2 / 4])
    assert s["next"][0].tolist() == pytest.approx([0.0, 3.0, 3 / 4])
    # "," is key 2: only the next head (from b) and the uniform head put weight there
    assert s["punctuation"][0].tolist() == pytest.approx([0.0, 1.0, 3 / 4])
    assert s["broad"][0, 2].item() == pytest.approx(3.0)  # uniform: entropy 1 on every row
    assert s["sink"][0, 0].item() == pytest.approx(2.0)  # rows a and b rest on key 0


def test_labels_follow_the_tiers():
    assert A.label({"monotonic": 0.99, "diagonal": 0.7, "broad": 0.2}) == ("diagonal", 0.7)
    assert A.label({"sink": 0.6, "pronoun": 0.55}) == ("pronoun", 0.55)
    assert A.label({"broad": 0.9, "previous": 0.3}) == ("broad", 0.9)
    assert A.label({"broad": 0.3, "previous": 0.4}) == (A.NO_ROLE, 0.4)


def test_cli_json_and_bad_arguments(capsys):
    assert A.main(["--checkpoint", str(SHIPPED / "copy-tiny"), "--n", "4", "--json",
                   "--threads", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["sentences"] == 4 and len(out["heads"]) == 3 * 2 * 4
    assert all(h["label"] in A.BEHAVIOURS + (A.NO_ROLE,) for h in out["heads"])
    with pytest.raises(SystemExit) as e:
        A.main(["--checkpoint", str(SHIPPED / "copy-tiny"), "--n", "0"])
    assert e.value.code == 2
