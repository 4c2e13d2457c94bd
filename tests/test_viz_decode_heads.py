"""viz/decode.py and viz/heads.py against independent computations (tiny CPU models)."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest
import torch

from helpers import plotly_array
from viz import decode as V
from viz import heads as VH
from transformer.core import names as core_names
from transformer.core.names import KINDS
from transformer.probing.pronouns import pronoun_accuracy, pronoun_hit, translate_ids


@pytest.fixture
def model_tok(tokenizer):
    from helpers import tiny_config
    from transformer.core.model import Transformer

    torch.manual_seed(3)
    return Transformer(tiny_config(vocab_size=tokenizer.vocab_size, d_model=32)).eval(), tokenizer


def _ids(tok, text="A dog runs in the park ."):
    return tok.encode(text) + [2]


def _forward(model, src, tokens):
    with torch.inference_mode():
        return model(torch.tensor([src]), torch.tensor([[1] + list(tokens)]))[0]  # (T,V)


# -- decode ---------------------------------------------------------------------------------------
def test_softmax_and_topk_match_torch(model_tok):
    model, tok = model_tok
    logits = torch.randn(3, 50, dtype=torch.float64) * 4
    assert np.allclose(V.softmax(logits), torch.softmax(logits, -1).numpy(), atol=1e-12)
    table = V.topk_table(logits[0], lambda ids: [str(i) for i in ids], 7, chosen=5)
    p, i = torch.softmax(logits[0], -1).topk(7)
    assert table["id"].tolist() == i.tolist()
    assert np.allclose(table["p"], p.numpy())
    assert table["p"].sum() <= 1 + 1e-12 and table["rank"].tolist() == list(range(1, 8))
    assert table["chosen"].tolist() == [x == 5 for x in i.tolist()]


def test_topk_from_greedy_steps_equals_stepinfo(model_tok):
    """The page reads top-k from the final pass's logits; greedy's own StepInfo must agree."""
    from transformer.core.decode import greedy

    model, tok = model_tok
    src = _ids(tok)
    res = greedy(model, src, max_len=8, topk=5, return_trace=True)
    logits = res.trace["logits"][0]
    for t, info in enumerate(res.steps):
        table = V.topk_table(logits[t], tok.display, 5, chosen=info.chosen)
        assert table["id"].tolist() == info.top_ids
        assert np.allclose(table["p"], info.top_probs, atol=1e-5)


def test_sampling_probs_is_what_sample_draws_from():
    logits = torch.tensor([2.0, 1.0, 0.5, 0.5, -1.0, -3.0])
    p = V.sampling_probs(logits, 0.5, top_k=3)
    # independent: keep values >= 3rd largest (ties kept), softmax of logits / T
    kept = logits >= torch.sort(logits, descending=True).values[2]
    want = torch.where(kept, torch.exp(logits / 0.5), torch.zeros_like(logits))
    want = want / want.sum()
    assert np.allclose(p, want.numpy(), atol=1e-7)
    assert (p[~kept.numpy()] == 0).all() and kept.sum() == 4  # the tie at 0.5 is kept
    assert np.allclose(V.sampling_probs(logits, 1.0), torch.softmax(logits, -1).numpy())
    for bad in (0, -1, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="temperature"):
            V.sampling_probs(logits, bad)


def test_validate_catches_bad_settings():
    assert V.validate("greedy") == []
    assert V.validate("beam", beam=4, alpha=0.6) == []
    assert [k for k, _ in V.validate("beam", beam=0)] == ["bad_beam"]
    assert [k for k, _ in V.validate("beam", alpha=-1)] == ["bad_alpha"]
    assert [k for k, _ in V.validate("sample", temperature=0)] == ["bad_temperature"]
    assert [k for k, _ in V.validate("sample", temperature=float("nan"))] == ["bad_temperature"]
    assert [k for k, _ in V.validate("sample", top_k=-2)] == ["bad_top_k"]
    assert [k for k, _ in V.validate("greedy", shown_k=0)] == ["bad_shown_k"]
    assert [k for k, _ in V.validate("nope")] == ["bad_method"]


def test_beam_score_parts_undo_the_length_penalty(model_tok):
    from transformer.core.decode import beam_search

    model, tok = model_tok
    src = _ids(tok)
    res = beam_search(model, src, beam=3, alpha=0.6, max_len=10)
    parts = V.beam_score_parts(len(res.tokens), res.score, 0.6, res.finished)
    out = res.tokens + ([2] if res.finished else [])
    logp = torch.log_softmax(_forward(model, src, res.tokens).double(), -1)  # (T,V)
    raw = float(sum(logp[t, tok_id] for t, tok_id in enumerate(out)))
    assert parts["length"] == len(out)
    assert math.isclose(parts["lp"], ((5 + len(out)) / 6) ** 0.6)
    assert math.isclose(parts["raw"], raw, rel_tol=1e-4, abs_tol=1e-4)


def test_step_attention_equals_the_prefix_computation(model_tok):
    """Row t of the final pass = the last row of a pass over the prefix alone (what the
    incremental decoder computed at step t)."""
    from transformer.core.decode import greedy
    from transformer.core.trace import record

    model, tok = model_tok
    src = _ids(tok)
    res = greedy(model, src, max_len=6, return_trace=True)
    tr = {k: v for k, v in res.trace.items()}
    assert V.n_decoder_layers(tr) == 2
    for t in range(len(res.tokens) + 1):
        with torch.inference_mode(), record() as pre:
            model(torch.tensor([src]), torch.tensor([[1] + res.tokens[:t]]))
        for layer in range(2):
            cross = V.step_attention(tr, "cross", layer, t)
            selfw = V.step_attention(tr, "decoder_self", layer, t)
            assert cross.shape == (4, len(src)) and selfw.shape == (4, t + 1)
            want_c = pre[f"decoder.layers.{layer}.cross_attn.weights"][0, :, -1].numpy()
            want_s = pre[f"decoder.layers.{layer}.self_attn.weights"][0, :, -1].numpy()
            assert np.allclose(cross, want_c, atol=1e-5)
            assert np.allclose(selfw, want_s, atol=1e-5)
            assert np.allclose(cross.sum(-1), 1, atol=1e-5)
    with pytest.raises(ValueError):
        V.step_attention(tr, "cross", 0, 99)


def test_steps_table_reads_probabilities_and_ranks():
    logits = np.log(np.array([[0.7, 0.2, 0.1], [0.1, 0.3, 0.6]]))
    table = V.steps_table(logits, [0, 1], lambda ids: [f"t{i}" for i in ids], alternatives=1)
    assert table["token"].tolist() == ["t0", "t1"]
    assert np.allclose(table["p"], [0.7, 0.3]) and table["rank"].tolist() == [1, 2]
    assert table["runners_up"].tolist() == ["t1 0.200", "t2 0.600"]


def test_teacher_forcing_table_marks_divergence():
    disp = lambda ids: [f"w{i}" for i in ids]
    # 4 positions over a vocabulary of 5; the model's top guess is [1, 2, 4, 0]
    probs = np.array([[.1, .6, .1, .1, .1], [.1, .1, .5, .2, .1], [.1, .1, .1, .3, .4],
                      [.7, .1, .1, .05, .05]])
    target = [1, 2, 3, 0]
    free = [1, 2, 4, 3, 0]
    tab = V.teacher_forcing_table(np.log(probs), target, free, disp)
    assert tab["tf_ok"].tolist() == [True, True, False, True, False]
    assert np.allclose(tab["p_target"][:4], [.6, .5, .3, .7])
    assert tab["tf_top"].tolist()[:4] == ["w1", "w2", "w4", "w0"]
    assert tab["free_ok"].tolist() == [True, True, False, False, False]
    assert tab["diverged"].tolist() == [False, False, True, True, True]
    assert V.first_divergence(tab) == 2
    same = V.teacher_forcing_table(np.log(probs), target, target, disp)
    assert V.first_divergence(same) is None
    html = V.highlight_rows(tab).to_html()
    assert "rgba(214, 39, 40" in html and "rgba(44, 160, 44" in html
    fig = V.teacher_forcing_figure(tab)
    assert sum(len(d.y) for d in fig.data if d.type == "bar") == 4


def test_figures_carry_the_numbers():
    table = V.topk_table(np.log([0.5, 0.3, 0.2]), lambda ids: ["<s>", "a", "a"], 3, chosen=1)
    fig = V.topk_figure(table, title="t")
    d = json.loads(fig.to_json())["data"][0]
    assert np.allclose(plotly_array(d["x"]), [0.5, 0.3, 0.2])
    assert d["y"][0] == "&lt;s&gt;" and len(set(d["y"])) == 3  # escaped and distinct
    assert d["marker"]["color"][1] == V.CHOSEN_COLOR
    m = np.array([[0.2, 0.8], [0.5, 0.5]])
    hk = json.loads(V.heads_keys_figure(m, ["h0", "h1"], ["x", "y"]).to_json())["data"][0]
    assert np.allclose(plotly_array(hk["z"]), m)
    with pytest.raises(ValueError):
        V.heads_keys_figure(m, ["h0"], ["x", "y"])


# -- heads ----------------------------------------------------------------------------------------
def test_head_names_round_trip_and_ablate_map():
    from helpers import tiny_config

    names = VH.all_heads(tiny_config(n_encoder_layers=2, n_decoder_layers=3, n_heads=4))
    assert len(names) == (2 + 3 + 3) * 4 and names[0] == "enc L0 H0" and names[-1] == "cross L2 H3"
    for n in names:
        h = core_names.Head.parse(n, form="label")
        assert VH.head_label(h.kind, h.layer, h.head) == n
    assert core_names.ablate_map(core_names.parse_heads(
        ["cross L1 H2", "cross L1 H0", "enc L0 H3"], form="label")) == {
        "decoder.layers.1.cross_attn": [0, 2], "encoder.layers.0.self_attn": [3]}
    from transformer.core.names import attn_path

    for kind in KINDS:
        assert core_names.attn_path(kind, 1) == attn_path(kind, 1)
    with pytest.raises(ValueError):
        core_names.Head.parse("cross 1 2", form="label")


def test_best_cell_and_grid_figure():
    grids = {"encoder_self": np.array([[0.1, 0.2], [0.3, 0.4]]),
             "cross": np.array([[0.9, 0.0], [0.2, 0.9]]), "decoder_self": np.full((2, 2), np.nan)}
    assert VH.best_cell(grids) == ("cross", 0, 0, 0.9)
    assert VH.best_cell({"cross": np.full((1, 1), np.nan)}) is None
    fig = VH.grid_figure(grids["cross"], extra=np.ones((2, 2)), extra_name="w", best=(1, 1))
    d = json.loads(fig.to_json())
    assert np.allclose(plotly_array(d["data"][0]["z"]), grids["cross"])
    assert "%{z:.2f}" in d["data"][0]["texttemplate"]
    assert d["layout"]["shapes"][0]["x0"] == 0.5
    with pytest.raises(ValueError):
        VH.grid_figure(np.zeros(3))
    # eight heads in a narrow column: numbered ticks under one axis title, hover keeps the names
    wide = VH.grid_figure(np.zeros((3, 8)), head_name="head {n}")
    assert list(wide.layout.xaxis.ticktext) == [str(h) for h in range(8)]
    assert wide.layout.xaxis.title.text == "head" and list(wide.data[0].x)[7] == "head 7"


def test_probe_upload_errors_name_the_line(tmp_path):
    good = b'{"text": "The dog saw the cup because it was hungry .", "pronoun": 6, "antecedent": 1}\n'
    items = VH.read_probe_upload(good + b"\n" + good, "mine.jsonl")
    assert len(items) == 2 and items[0].pronoun == 6
    cases = [
        (good + b'{"text": "A b", "pronoun": 5, "antecedent": 0}\n', "mine.jsonl:2"),
        (good + b"not json\n", "mine.jsonl:2"),
        (b'{"text": "A b c", "antecedent": 0}\n', "mine.jsonl:1: missing field"),
        (b"\xff\xfe", "not UTF-8"),
        (b"\n\n", "no probe lines"),
    ]
    for data, msg in cases:
        with pytest.raises(ValueError, match=msg):
            VH.read_probe_upload(data, "mine.jsonl")
    with pytest.raises(ValueError, match="over the limit"):
        VH.read_probe_upload(good * 100, "big.jsonl", max_bytes=1000)
    with pytest.raises(ValueError, match="evil.jsonl"):  # a path in the name is dropped
        VH.read_probe_upload(b"x", "../../evil.jsonl")


def test_pronoun_hit():
    ref = "Der Hund sah den Becher , weil er hungrig war ."
    assert pronoun_hit(ref, ref, 7) is True
    assert pronoun_hit(ref.replace(" er ", " es "), ref, 7) is False
    assert pronoun_hit("Der Hund", ref, 7) is False  # too short
    assert pronoun_hit(ref, ref, None) is True  # position found from the reference
    assert pronoun_hit("x", None, 3) is None
    assert pronoun_hit("x", "Ein Hund rennt .", None) is None
    # agrees with the trainer's metric on the anaphora task
    from transformer.data.tasks import load_task
    from transformer.train.evaluation import pronoun_correct

    for ex in load_task("anaphora", "test", n=30):
        for hyp in (ex.tgt, ex.tgt.replace(" er ", " sie ").replace(" es ", " er ")):
            assert pronoun_hit(hyp, ex.tgt, ex.meta["tgt_pronoun_pos"]) == \
                pronoun_correct(hyp, ex.tgt, ex.meta)


def test_translate_and_accuracy_under_ablation(model_tok):
    from transformer.core.decode import greedy
    from transformer.probing.probe_items import ProbeItem
    from transformer.core.trace import ablation

    model, tok = model_tok
    texts = ["A dog runs in the park .", "The cat sleeps on the warm table ."]
    abl = core_names.ablate_map(
        core_names.parse_heads(["cross L0 H0", "cross L0 H1", "cross L1 H2"]))
    plain = translate_ids(model, tok, texts, max_len=8)
    off = translate_ids(model, tok, texts, abl, max_len=8)
    for text, p, o in zip(texts, plain, off):
        src = _ids(tok, text)
        assert p == greedy(model, src, max_len=8).tokens
        with ablation(abl):
            assert o == greedy(model, src, max_len=8).tokens
    # the shared model is untouched: no hooks, same outputs after the context
    assert translate_ids(model, tok, texts, max_len=8) == plain
    items = [ProbeItem(texts[0], 1, 0, tok.decode(plain[0]) + " er", None),
             ProbeItem(texts[1], 1, 0, None)]
    res = pronoun_accuracy(model, tok, items, max_len=8)
    assert res.hypotheses == [tok.decode(p) for p in plain]
    want = pronoun_hit(res.hypotheses[0], items[0].target, None)
    assert res.hits == [want, None] and res.n_scored == 1 and res.accuracy == float(want)
