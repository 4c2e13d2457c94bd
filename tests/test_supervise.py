"""Attention supervision (transformer/supervise.py): target positions recomputed from the pieces,
the spec parser, the loss against a hand computation, and a short anaphora run in which the
supervised head becomes the pronoun head."""
from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest
import torch

from transformer import supervise
from transformer.data import load_task


def test_targets_point_at_the_pronoun_query_and_the_antecedent_pieces(tokenizer):
    exs = load_task("anaphora", "train", n=20)
    got = supervise.targets(tokenizer, [e.tgt for e in exs], [e.meta for e in exs])
    for ex, tg in zip(exs, got):
        q, keys = tg
        words = ex.tgt.split()
        ids = tokenizer.encode(ex.tgt)
        pieces = [tokenizer.decode([i]) for i in ids]
        # decoder input = [BOS] + pieces: position q holds piece q-1 and writes piece q, the
        # pronoun's first piece
        assert words[ex.meta["tgt_pronoun_pos"]].startswith(pieces[q].strip())
        ante = ex.meta["tgt_antecedent_pos"]
        span_words = words[ante - 1: ante + 1]  # article + noun
        assert tokenizer.decode([ids[k - 1] for k in keys]) == " ".join(span_words)
        assert max(keys) <= q  # only keys the masked decoder can see
    assert supervise.targets(tokenizer, ["Ein Hund ."], [{}]) == [None]


def test_parse_and_refuse():
    h = supervise.HeadTarget.parse("decoder_self:2:5", 0.5)
    assert (h.layer, h.head, h.weight, h.path) == (2, 5, 0.5, "decoder.layers.2.self_attn")
    for bad in ["cross:0:1", "decoder_self:1", "decoder_self:a:1", ""]:
        with pytest.raises(ValueError):
            supervise.HeadTarget.parse(bad, 1.0)
    for w in (0.0, -1.0, float("nan")):
        with pytest.raises(ValueError):
            supervise.HeadTarget.parse("decoder_self:0:0", w)


def test_loss_is_minus_log_of_the_span_weight():
    w = torch.softmax(torch.randn(2, 3, 4, 4), -1)
    rows = [(0, (3, [1, 2])), (1, (2, [0]))]
    want = -(math.log(float(w[0, 1, 3, 1] + w[0, 1, 3, 2])) + math.log(float(w[1, 1, 2, 0]))) / 2
    assert float(supervise.loss(w, 1, rows)) == pytest.approx(want, rel=1e-5)


def test_capture_keeps_one_paths_weights_with_gradient(tiny_model):
    src = torch.tensor([[5, 6, 7, 2]])
    tgt = torch.tensor([[1, 8, 9]])
    tiny_model.train()
    with supervise.capture({"decoder.layers.1.self_attn"}) as cap:
        out = tiny_model(src, tgt)
    w = cap["decoder.layers.1.self_attn"]
    assert w.shape == (1, 4, 3, 3) and w.requires_grad
    assert torch.allclose(w.sum(-1), torch.ones(1, 4, 3))
    tiny_model.eval()
    with torch.no_grad():  # the same function as without the capture
        ref = tiny_model(src, tgt)
        with supervise.capture({"decoder.layers.1.self_attn"}):
            again = tiny_model(src, tgt)
    assert torch.allclose(ref, again, atol=1e-6) and out.shape == ref.shape


def test_a_supervised_anaphora_run_makes_that_head_the_pronoun_head(tmp_path):
    from transformer import train

    out = tmp_path / "sup"
    train.run(["--task", "anaphora", "--steps", "200", "--supervise-head", "decoder_self:1:2",
               "--eval-every", "200", "--checkpoint-every", "200", "--out", str(out),
               "--threads", "1"])
    r = subprocess.run([sys.executable, "-m", "transformer.heads", "--checkpoint",
                        str(out / "checkpoints" / "last"), "--n", "60", "--threads", "1",
                        "--json"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    res = json.loads(r.stdout)
    acc = res["heads"]["decoder_self"]["accuracy"]
    assert acc[1][2] >= 0.9, acc
    assert (res["best"]["layer"], res["best"]["head"]) == (1, 2)
    cfg = json.loads((out / "checkpoints" / "last" / "config.json").read_text())
    assert cfg["train"]["extra"]["supervise"] == {"head": "decoder_self:1:2", "weight": 1.0}
    with pytest.raises(train.UsageError, match="not in this model"):
        train.run(["--task", "anaphora", "--steps", "1", "--supervise-head", "decoder_self:7:0",
                   "--out", str(tmp_path / "bad")])
    with pytest.raises(train.UsageError, match="pronoun"):
        train.run(["--task", "copy", "--steps", "1", "--supervise-head", "decoder_self:0:0",
                   "--out", str(tmp_path / "bad2")])
