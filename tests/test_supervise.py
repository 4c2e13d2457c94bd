"""Attention supervision (transformer/probing/supervise.py): target positions recomputed from the pieces,
the spec parser, the loss against a hand computation, and a short anaphora run in which the
supervised head becomes the pronoun head."""
from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest
import torch

from transformer.probing import supervise
from transformer.core import trace
from transformer.core.names import Head, ablate_map
from transformer.data.tasks import load_task


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


def test_source_targets_point_at_the_english_pronoun_and_antecedent_pieces(tokenizer):
    exs = load_task("anaphora", "train", n=20)
    got = supervise.source_targets(tokenizer, [e.src for e in exs], [e.meta for e in exs])
    assert all(got)
    for ex, (q, keys) in zip(exs, got):
        words = ex.src.split()
        ids = tokenizer.encode(ex.src)  # the encoder input: pieces (+ EOS after them)
        assert words[ex.meta["pronoun_pos"]].startswith(tokenizer.decode([ids[q]]).strip())
        ante = ex.meta["antecedent_pos"]
        assert tokenizer.decode([ids[k] for k in keys]) == " ".join(words[ante - 1: ante + 1])
        assert q not in keys
    # the antecedent may follow the pronoun: the encoder sees the whole sentence
    text = "Near its owner , a dog sleeps ."
    meta = {"pronoun_pos": 1, "antecedent_pos": 5}
    (q, keys), = supervise.source_targets(tokenizer, [text], [meta])
    ids = tokenizer.encode(text)
    assert min(keys) > q and tokenizer.decode([ids[k] for k in keys]) == "a dog"
    assert supervise.source_targets(tokenizer, ["A dog ."], [{}]) == [None]


def test_a_noun_span_keeps_the_noun_and_drops_the_article(tokenizer):
    """--supervise-source-span noun: the keys are the antecedent noun's pieces only ("dog", not
    "a dog"); the query is the same pronoun piece as with the phrase."""
    exs = load_task("anaphora", "train", n=20)
    src, metas = [e.src for e in exs], [e.meta for e in exs]
    phrase = supervise.source_targets(tokenizer, src, metas)
    noun = supervise.source_targets(tokenizer, src, metas, span="noun")
    assert all(noun)
    for ex, (q, keys), (q2, keys2) in zip(exs, noun, phrase):
        ids = tokenizer.encode(ex.src)
        assert q == q2 and set(keys) < set(keys2)  # fewer keys: the article's are gone
        assert tokenizer.decode([ids[k] for k in keys]) == ex.src.split()[ex.meta["antecedent_pos"]]
    with pytest.raises(ValueError, match="span must be one of phrase, noun"):
        supervise.source_targets(tokenizer, src[:1], metas[:1], span="article")


def test_the_source_span_is_recorded_only_when_given_and_needs_a_head():
    from transformer.train.settings import UsageError, build_parser, resolve_settings

    def extra(*argv):
        return resolve_settings(build_parser().parse_args(["--out", "-", *argv]))[1].extra

    assert "supervise_source_span" not in extra("--supervise-head", "encoder_self:1:0")
    got = extra("--supervise-head", "encoder_self:1:0", "--supervise-source-span", "noun")
    assert got["supervise_source_span"] == "noun"
    with pytest.raises(UsageError, match="an encoder_self head too"):
        extra("--supervise-source-span", "noun")
    with pytest.raises(UsageError, match="an encoder_self head too"):  # a decoder head alone
        extra("--supervise-head", "decoder_self:1:0", "--supervise-source-span", "noun")
    with pytest.raises(SystemExit):  # argparse: not one of the choices
        extra("--supervise-head", "encoder_self:1:0", "--supervise-source-span", "the")


def test_parse_and_refuse():
    h = supervise.HeadTarget.parse("decoder_self:2:5", 0.5)
    assert (h.layer, h.head, h.weight, h.path) == (2, 5, 0.5, "decoder.layers.2.self_attn")
    e = supervise.HeadTarget.parse("encoder_self:1:3", 1.0)
    assert (e.kind, e.layer, e.head, e.path) == ("encoder_self", 1, 3, "encoder.layers.1.self_attn")
    both = supervise.HeadTarget.parse_many("decoder_self:2:6, encoder_self:2:0", 2.0)
    assert [(h.cli, h.weight) for h in both] == [("decoder_self:2:6", 2.0), ("encoder_self:2:0", 2.0)]
    # a supervised head is a names.Head plus a weight: its path, its ablation map, its label
    assert isinstance(h, Head) and Head.parse(h.cli) == Head("decoder_self", 2, 5)
    assert ablate_map([e]) == {"encoder.layers.1.self_attn": [3]} and e.label == "enc L1 H3"
    for bad in ["cross:0:1", "decoder_self:1", "decoder_self:a:1", ""]:
        with pytest.raises(ValueError):
            supervise.HeadTarget.parse(bad, 1.0)
    for bad in ["decoder_self:0:0,decoder_self:0:0", "decoder_self:0:0,", "encoder_self:0:0,cross:0:0"]:
        with pytest.raises(ValueError):
            supervise.HeadTarget.parse_many(bad, 1.0)
    for w in (0.0, -1.0, float("nan")):
        with pytest.raises(ValueError):
            supervise.HeadTarget.parse("decoder_self:0:0", w)


def test_loss_is_minus_log_of_the_span_weight():
    w = torch.softmax(torch.randn(2, 3, 4, 4), -1)
    rows = [(0, (3, [1, 2])), (1, (2, [0]))]
    want = -(math.log(float(w[0, 1, 3, 1] + w[0, 1, 3, 2])) + math.log(float(w[1, 1, 2, 0]))) / 2
    assert float(supervise.loss(w, 1, rows)) == pytest.approx(want, rel=1e-5)


def test_loss_matches_a_row_by_row_sum_and_its_gradient():
    """The one-gather loss against the plain definition, row by row, value and gradient."""
    torch.manual_seed(0)
    logits = torch.randn(5, 4, 7, 9, requires_grad=True)
    w = torch.softmax(logits, -1)  # (B,H,T,S)
    rows = [(0, (6, [0, 1])), (2, (3, [4])), (4, (0, [2, 3, 5])), (1, (5, [8]))]
    got = supervise.loss(w, 2, rows)
    (g_got,) = torch.autograd.grad(got, logits, retain_graph=True)
    want = torch.stack([-torch.log(sum(w[r, 2, q, k] for k in keys)) for r, (q, keys) in rows]).mean()
    (g_want,) = torch.autograd.grad(want, logits)
    assert float(got) == pytest.approx(float(want), rel=1e-6)
    assert torch.allclose(g_got, g_want, atol=1e-7)


def test_capture_keeps_one_paths_weights_with_gradient(tiny_model):
    src = torch.tensor([[5, 6, 7, 2]])
    tgt = torch.tensor([[1, 8, 9]])
    tiny_model.train()
    with trace.capture({"decoder.layers.1.self_attn"}) as cap:
        out = tiny_model(src, tgt)
    w = cap["decoder.layers.1.self_attn"]
    assert w.shape == (1, 4, 3, 3) and w.requires_grad
    assert torch.allclose(w.sum(-1), torch.ones(1, 4, 3))
    tiny_model.eval()
    with torch.no_grad():  # the same function as without the capture
        ref = tiny_model(src, tgt)
        with trace.capture({"decoder.layers.1.self_attn"}):
            again = tiny_model(src, tgt)
    assert torch.allclose(ref, again, atol=1e-6) and out.shape == ref.shape


def test_a_supervised_anaphora_run_makes_that_head_the_pronoun_head(tmp_path):
    from transformer.train.cli import run
    from transformer.train.corpus import UsageError

    out = tmp_path / "sup"
    run(["--task", "anaphora", "--steps", "200", "--supervise-head", "decoder_self:1:2",
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
    for spec in ("decoder_self:7:0", "decoder_self:1:2,encoder_self:9:0"):
        with pytest.raises(UsageError, match="not in this model"):
            run(["--task", "anaphora", "--steps", "1", "--supervise-head", spec,
                       "--out", str(tmp_path / "bad")])
    with pytest.raises(UsageError, match="pronoun"):
        run(["--task", "copy", "--steps", "1", "--supervise-head", "decoder_self:0:0",
                   "--out", str(tmp_path / "bad2")])


def test_an_encoder_head_and_a_decoder_head_supervised_together_both_find_the_antecedent(tmp_path):
    """Two heads named at once: each becomes a pronoun head of its own side, measured by the head
    finder on held-out sentences (the encoder head from the English pronoun, the decoder head from
    the position that writes the German one)."""
    from transformer.train.cli import run

    out = tmp_path / "both"
    run(["--task", "anaphora", "--steps", "300", "--supervise-head",
               "decoder_self:1:2,encoder_self:1:0", "--eval-every", "300",
               "--checkpoint-every", "300", "--out", str(out), "--threads", "1"])
    r = subprocess.run([sys.executable, "-m", "transformer.heads", "--checkpoint",
                        str(out / "checkpoints" / "last"), "--n", "60", "--threads", "1",
                        "--json"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    heads = json.loads(r.stdout)["heads"]
    assert heads["decoder_self"]["accuracy"][1][2] >= 0.9, heads["decoder_self"]["accuracy"]
    enc = heads["encoder_self"]["accuracy"]
    assert enc[1][0] >= 0.9, enc
    # the other encoder heads were not taught: none of them does the job as well
    assert max(a for l, row in enumerate(enc) for h, a in enumerate(row) if (l, h) != (1, 0)) < enc[1][0]


def test_a_noun_span_run_puts_the_encoder_heads_weight_on_the_noun_not_the_article(tmp_path):
    """Trained with --supervise-source-span noun, the encoder head's strongest weight from "it"
    lands on the noun ("dog"), not its article, on held-out sentences (the head finder's own
    split of its hits into article and noun): the span the flag promises."""
    from transformer.core.checkpoint import load_checkpoint
    from transformer.probing.heads import score_anaphora
    from transformer.probing.probe_items import anaphora_probe
    from transformer.train.cli import run

    out = tmp_path / "noun"
    run(["--task", "anaphora", "--steps", "300", "--supervise-head", "encoder_self:1:0",
         "--supervise-source-span", "noun", "--eval-every", "300", "--checkpoint-every", "300",
         "--out", str(out), "--threads", "1"])
    ck = load_checkpoint(out / "checkpoints" / "last")
    assert ck.train_config["extra"]["supervise_source_span"] == "noun"
    enc = score_anaphora(ck.model.eval(), ck.tokenizer, anaphora_probe("test", n=60))["encoder_self"]
    assert enc.on_noun[1, 0] >= 0.8, enc.on_noun[1, 0]
    assert enc.on_article[1, 0] <= 0.1, enc.on_article[1, 0]
