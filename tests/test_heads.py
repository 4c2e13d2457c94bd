"""The head finder: word-level attention, the hit rule, baselines, probe files, the CLI."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
import torch

from transformer.core import trace
from transformer.probing.probe_items import ProbeItem, anaphora_probe, baselines, read_probe_file
from transformer.probing.heads import best_head, relation_scores, score_anaphora, word_attention


def test_word_attention_sums_keys_and_averages_queries():
    w = torch.tensor([[0.1, 0.2, 0.3, 0.4],
                      [0.4, 0.3, 0.2, 0.1],
                      [0.25, 0.25, 0.25, 0.25]])
    q_owner = [0, 0, 1]  # tokens 0,1 are word 0; token 2 is word 1
    k_owner = [0, 1, 1, -1]  # key 3 is a special token
    ww = word_attention(w, q_owner, k_owner, 2, 2)
    want = torch.tensor([[(0.1 + 0.4) / 2, (0.5 + 0.5) / 2], [0.25, 0.5]])
    assert torch.allclose(ww, want)


class OracleModel(torch.nn.Module):
    """Emits an encoder self-attention trace in which head 1 of layer 0 puts all weight from
    every token on the antecedent's first piece, and every other head looks at token 0."""

    def __init__(self, cfg, tokenizer, items):
        super().__init__()
        self.cfg = cfg
        self.tok = tokenizer
        self.items = items
        self.p = torch.nn.Parameter(torch.zeros(1))

    def forward(self, src, tgt):
        b, s = src.shape
        w = torch.zeros(b, 2, s, s)
        w[:, 0, :, 0] = 1.0
        for i in range(b):
            ids = src[i].tolist()
            groups = [g for g in self.tok.words([x for x in ids if x != 0])]
            ante = groups[self.items[self.offset + i].antecedent][0]
            w[i, 1, :, ante] = 1.0
        trace.hook("encoder.layers.0.self_attn", "weights", w)
        return torch.zeros(b, tgt.size(1), self.cfg.vocab_size)


def test_oracle_head_is_found(tokenizer):
    from helpers import tiny_config

    items = [ProbeItem("The dog saw the cup because it was hungry .", 6, 1, candidates=[1, 4]),
             ProbeItem("The dog saw the cup because it was empty .", 6, 4, candidates=[1, 4]),
             ProbeItem("A girl in a red dress walks .", 0, 5, candidates=[1, 5])]
    model = OracleModel(tiny_config(vocab_size=tokenizer.vocab_size), tokenizer, items)
    model.offset = 0
    scores = score_anaphora(model, tokenizer, items, batch_size=8)
    enc = scores["encoder_self"]
    assert enc.n == 3
    assert enc.accuracy[0, 1] == 1.0 and enc.accuracy[0, 0] < 1.0
    assert torch.allclose(enc.mean_weight[0, 1], torch.tensor(1.0))
    assert best_head(scores)[:3] == ("encoder_self", 0, 1)
    # nearest candidate before the pronoun: items 2 and 3 (no candidate before: all count)
    # random candidate: 1 of 2 each; random word: the antecedent (no span given: one word) out
    # of every word but the pronoun (10 - 1, 10 - 1 and 8 - 1 words)
    assert baselines(items) == {"nearest_noun": pytest.approx(2 / 3),
                                "first_noun": pytest.approx(1 / 3),
                                "random_noun": pytest.approx(1 / 2),
                                "random_word": pytest.approx((1 / 9 + 1 / 9 + 1 / 7) / 3)}
    with_spans = [ProbeItem(it.text, it.pronoun, it.antecedent, candidates=it.candidates,
                            antecedent_span=(it.antecedent - 1, it.antecedent)) for it in items]
    assert baselines(with_spans)["random_word"] == pytest.approx((2 / 9 + 2 / 9 + 2 / 7) / 3)
    # a probe without candidate nouns still gets the random-word baseline
    bare = [ProbeItem("A dog eats its food .", 3, 1)]
    assert baselines(bare) == {"random_word": pytest.approx(1 / 5)}


def test_anaphora_probe_has_positions_and_balanced_baselines():
    items = anaphora_probe(n=200)
    for it in items[:20]:
        words = it.text.split()
        assert words[it.pronoun] == "it"
        assert it.antecedent in it.candidates
        assert it.target.split()[it.tgt_pronoun] in ("er", "sie", "es")
    b = baselines(items)
    assert 0.35 < b["nearest_noun"] < 0.65 and 0.35 < b["first_noun"] < 0.65


def test_probe_file_errors(tmp_path):
    p = tmp_path / "probe.jsonl"
    p.write_text('{"text": "The cat saw it .", "pronoun": 3, "antecedent": 1}\n'
                 '{"text": "x y", "pronoun": 7, "antecedent": 0}\n')
    with pytest.raises(ValueError, match=r"probe.jsonl:2: pronoun"):
        read_probe_file(p)
    p.write_text('{"text": "a b"\n')
    with pytest.raises(ValueError, match=r":1:"):
        read_probe_file(p)
    p.write_bytes(b'{"text": "\xff"}')
    with pytest.raises(ValueError, match="UTF-8"):
        read_probe_file(p)
    p.write_text("\n\n")
    with pytest.raises(ValueError, match="no probe lines"):
        read_probe_file(p)
    p.write_text('{"text": "The cat saw it .", "pronoun": 3, "antecedent": 1}\n')
    assert read_probe_file(p)[0].antecedent == 1


def test_relation_scores_shape_and_range(small_checkpoint):
    from transformer.core.checkpoint import load_checkpoint

    ck = load_checkpoint(small_checkpoint)
    pairs = [("A dog runs in the park .", "Ein Hund rennt im Park .")] * 3
    for rel in ("previous_token", "first_token", "eos_sink", "diagonal"):
        s = relation_scores(ck.model, ck.tokenizer, pairs, rel, "cross" if rel == "diagonal"
                            else "encoder_self")
        assert s.shape == (2, 4) and (s >= 0).all() and (s <= 1).all()
    with pytest.raises(ValueError):
        relation_scores(ck.model, ck.tokenizer, pairs, "nonsense", "cross")


def test_heads_cli(small_checkpoint, tmp_path):
    r = subprocess.run([sys.executable, "-m", "transformer.heads", "--checkpoint",
                        str(small_checkpoint), "--n", "20", "--json"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["n"] == 20 and set(out["baselines"]) == {"nearest_noun", "first_noun",
                                                            "random_noun", "random_word"}
    assert len(out["heads"]["encoder_self"]["accuracy"]) == 2
    bad = subprocess.run([sys.executable, "-m", "transformer.heads", "--checkpoint",
                          str(small_checkpoint), "--probe", str(tmp_path / "none.jsonl")],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


def test_antecedent_is_scored_as_its_noun_phrase():
    from transformer.probing.probe_items import noun_phrase

    words = "Der Hund sah den Becher , weil er hungrig war .".split()
    assert noun_phrase(words, 1) == (0, 1) and noun_phrase(words, 4) == (3, 4)
    assert noun_phrase("dogs bark".split(), 0) == (0, 0)
    it = anaphora_probe(n=5)[0]
    s, e = it.span(True)
    tw = it.target.split()
    assert e == it.tgt_antecedent and tw[s].lower() in ("der", "die", "das", "den")


def test_heads_cli_ablation_arguments(small_checkpoint):
    r = subprocess.run([sys.executable, "-m", "transformer.heads", "--checkpoint",
                        str(small_checkpoint), "--n", "5", "--ablate", "decoder:1"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "--ablate: expected KIND:LAYER:HEAD" in r.stderr
    r = subprocess.run([sys.executable, "-m", "transformer.heads", "--checkpoint",
                        str(small_checkpoint), "--n", "5", "--ablate", "cross:7:0"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "not in this model" in r.stderr
    r = subprocess.run([sys.executable, "-m", "transformer.heads", "--checkpoint",
                        str(small_checkpoint), "--n", "8", "--ablate", "cross:1:0", "--json"],
                       capture_output=True, text=True, timeout=120)
    out = json.loads(r.stdout)
    assert 0 <= out["ablation"]["pronoun_accuracy"] <= 1 and "pronoun_accuracy" in out


def test_pronoun_hit_by_gender_for_free_translations():
    from transformer.probing.pronouns import pronoun_class, pronoun_hit

    assert [pronoun_class(w) for w in ["er", "Es", "sie", "ihren", "seinem", "sein.", "seine",
                                       "Seite", "ihrer", "Hund", "ihm", "ihn"]] == \
        ["m", "n", "f/pl", "f/pl", "m/n", "m/n", "m/n", None, "f/pl", None, "m/n", "m"]
    ref = "Ein Hund trägt einen Stock in seinem Maul ."
    assert pronoun_hit("Ein Hund hat einen Stock im Maul und seinen Ball .", ref, None)
    assert not pronoun_hit("Ein Hund trägt einen Stock in ihrem Maul .", ref, None)
    assert not pronoun_hit("Ein Hund trägt einen Stock im Maul .", ref, None)  # no pronoun at all
    ref_f = "Die Katze schläft , weil sie müde ist ."
    assert pronoun_hit("Eine Katze schläft , denn sie ist müde .", ref_f, None)
    assert not pronoun_hit("Eine Katze schläft , denn er ist müde .", ref_f, None)
    assert pronoun_hit("x", "Ein Hund läuft .", None) is None  # reference without a pronoun
    # two pronouns in the reference: the other one may appear, a wrong gender may not
    ref2 = "Ein Mädchen wirft ein Frisbee und ihr Bruder fängt es ."
    assert pronoun_hit(ref2, ref2, None)
    assert not pronoun_hit("Ein Mädchen wirft ein Frisbee und ihr Bruder fängt ihn .", ref2, None)
    assert not pronoun_hit("Ein Mädchen wirft ein Frisbee und ihr Bruder fängt .", ref2, None)
    assert not pronoun_hit("Ein Mädchen wirft ein Frisbee und er fängt es .", ref2, None)


def test_every_hand_written_reference_scores_itself():
    from transformer.probing.probe_items import CLASSROOM_PROBE, read_probe_file
    from transformer.probing.pronouns import pronoun_hit

    items = read_probe_file(CLASSROOM_PROBE)
    assert all(pronoun_hit(it.target, it.target, None) is True for it in items)
    # with a position, the word at that position decides (generated data)
    assert pronoun_hit("Der Hund sah den Becher , weil er hungrig war .",
                       "Der Hund sah den Becher , weil er hungrig war .", 7)
    assert not pronoun_hit("Der Hund sah den Becher , er war hungrig .",
                           "Der Hund sah den Becher , weil er hungrig war .", 7)


def test_probe_file_target_positions(tmp_path):
    p = tmp_path / "p.jsonl"
    p.write_text(json.dumps({"text": "A dog carries a stick in its mouth .", "pronoun": 6,
                             "antecedent": 1, "candidates": [1, 4, 7],
                             "target": "Ein Hund trägt einen Stock in seinem Maul .",
                             "tgt_pronoun": 6, "tgt_antecedent": 1}) + "\n")
    it = read_probe_file(p)[0]
    assert (it.tgt_pronoun, it.tgt_antecedent, it.tgt_antecedent_span) == (6, 1, (0, 1))
    assert it.exact_position is False
    p.write_text(json.dumps({"text": "A dog eats .", "pronoun": 2, "antecedent": 1,
                             "target": "Ein Hund frisst .", "tgt_pronoun": 9,
                             "tgt_antecedent": 1}) + "\n")
    with pytest.raises(ValueError, match="tgt_pronoun"):
        read_probe_file(p)
