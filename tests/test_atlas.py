"""transformer.atlas: every head labelled, each score beside its chance level (issue 49, 1). The
synthetic models are the ground truth: copying needs diagonal cross-attention, reversing
anti-diagonal, and anaphora-en-de's taught head is a pronoun head; a model trained for one step
has nothing to find, and gets no label beyond "none" or "broad"."""
from __future__ import annotations

import contextlib
import io
import json
from collections import Counter
from pathlib import Path

import pytest
import torch

from transformer.probing import atlas as A
from transformer.probing import atlas_null as N
from transformer.core.checkpoint import load_checkpoint

SHIPPED = Path(__file__).resolve().parents[1] / "checkpoints"


def _report(path, n=A.N_DEFAULT):
    ck = load_checkpoint(path)
    inp = A.inputs_for(ck, n)
    with torch.inference_mode():
        return A.atlas_report(ck.model.eval(), ck.tokenizer, inp.sentences, inp.probe,
                              train_config=ck.train_config)


@pytest.mark.parametrize("name,behaviour,other", [("copy-tiny", "diagonal", "reversed"),
                                                  ("reverse-tiny", "reversed", "diagonal")])
def test_last_layer_cross_heads_align_far_above_chance(name, behaviour, other):
    rep = _report(SHIPPED / name)
    cross = [r for r in rep.roles if r.kind == "cross"]
    last = [r for r in cross if r.layer == max(c.layer for c in cross)]
    assert last and all(r.label == behaviour for r in last), [(r.head, r.label) for r in last]
    for r in last:
        assert r.p[behaviour] == pytest.approx(1 / (rep.n_perm + 1))  # no shuffle reached it
        assert r.p_holm[behaviour] < A.ALPHA
        assert r.chance[behaviour] < 0.2 and r.scores[behaviour] - r.chance[behaviour] > 0.3
    assert not any(r.label == other for r in cross)
    # the smallest attainable p passes Holm over every test: enough permutations
    assert rep.n_perm >= 2 * rep.tests / A.ALPHA


def test_a_model_trained_one_step_has_no_finding(tmp_path):
    """The issue's model (`--task copy --preset tiny --steps 1`): near-uniform rows once got all
    8 cross heads labelled monotonic (0.94-0.98). Against chance nothing is found."""
    from transformer.train.cli import run

    threads = torch.get_num_threads()
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            run(["--task", "copy", "--preset", "tiny", "--steps", "1", "--out", str(tmp_path / "one"),
                 "--threads", "1", "--device", "cpu", "--seed", "0", "--eval-every", "100000",
                 "--checkpoint-every", "100000"])
    finally:
        torch.set_num_threads(threads)
    rep = _report(tmp_path / "one" / "checkpoints" / "last")
    assert {r.label for r in rep.roles} <= {"none", "broad"}, \
        [(r.kind, r.layer, r.head, r.label) for r in rep.roles if r.label not in ("none", "broad")]
    assert all(not r.taught for r in rep.roles)


def test_the_taught_pronoun_head_is_found_and_said_taught():
    rep = _report(SHIPPED / "anaphora-en-de")
    roles = rep.roles
    head = next(r for r in roles if (r.kind, r.layer, r.head) == ("decoder_self", 1, 3))
    assert head.label == "pronoun" and head.score >= 0.9
    assert head.score - head.chance["pronoun"] >= A.MARGIN and head.p_holm["pronoun"] < A.ALPHA
    assert head.taught == ["supervised"]
    assert all(r.taught == [] for r in roles if r is not head)
    assert all(0.0 <= s <= 1.0 for r in roles for s in r.scores.values())
    assert {r.kind for r in roles} == {"encoder_self", "decoder_self", "cross"}


def test_scores_on_a_hand_made_matrix():
    # one layer, three heads over 4 source tokens (a b , </s>): previous, next, uniform
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


def test_rows_without_a_choice_are_left_out():
    """The decoder's first row sees only itself: it made every head "diagonal" and "sink" there
    (0.518 -> 0.468 on everyday-en-de). Rows with one allowed key count nowhere."""
    n = 4
    diag = torch.eye(n)  # every row on itself: row 0 has no choice
    first = torch.zeros(n, n)
    first[:, 0] = 1.0  # every row on <s>
    w = torch.stack([diag, first]).unsqueeze(0).double()  # (1 layer, 2 heads, Q, K)
    tok = ["<s>", "x", "y", "z"]
    special = [True, False, False, False]
    s = A._sums(w, "decoder_self", tok, tok, special, special)
    assert s["_rows"][0, 0].item() == 3  # rows 1, 2, 3
    assert s["diagonal"][0].tolist() == pytest.approx([3.0, 0.0])
    assert s["sink"][0].tolist() == pytest.approx([0.0, 3.0])
    assert s["previous"][0].tolist() == pytest.approx([0.0, 1.0])  # row 1's previous is <s>
    assert s["broad"][0].tolist() == pytest.approx([0.0, 0.0], abs=1e-6)  # one-hot rows
    lay = A._layout(w, "decoder_self", tok, special, special)
    assert lay.rows == [1, 2, 3] and lay.allowed == [2, 3, 4]


def test_a_cross_sink_is_end_or_punctuation_not_the_first_word():
    src = ["The", "dog", ".", "</s>"]
    special = [False, False, False, True]
    heads = []
    for k in range(4):  # a head resting on each source key
        h = torch.zeros(3, 4)
        h[:, k] = 1.0
        heads.append(h)
    w = torch.stack(heads).unsqueeze(0).double()  # (1, 4, Q=3, K=4)
    q = ["<s>", "Der", "Hund"]
    s = A._sums(w, "cross", q, src, [True, False, False], special)
    assert s["sink"][0].tolist() == pytest.approx([0.0, 0.0, 3.0, 3.0])
    assert s["punctuation"][0].tolist() == pytest.approx([0.0, 0.0, 3.0, 0.0])
    # encoder self-attention keeps its first-token sink
    e = A._sums(torch.stack(heads[:1] * 1).unsqueeze(0).double()[:, :, :3], "encoder_self", src,
                src, special, special)
    assert e["sink"][0, 0].item() == pytest.approx(3.0)


def test_the_null_and_the_correction():
    gen = torch.Generator().manual_seed(0)
    # two rows over 4 keys; head 0 on the behaviour's key, head 1 uniform
    w = torch.zeros(2, 4, 2, dtype=torch.float64)
    w[:, 1, 0] = 1.0
    w[:, :, 1] = 0.25
    keys = {"diagonal": torch.tensor([[False, True, False, False]] * 2)}
    null = N.keyed_null(w, torch.tensor([4, 4]), keys, 4000, gen)["diagonal"]
    assert null[:, 0].mean().item() == pytest.approx(0.5, abs=0.05)  # 2 rows x 1/4
    assert torch.all(null[:, 1] == 0.5)  # uniform rows: any shuffle gives the same
    obs = torch.tensor([2.0, 0.5], dtype=torch.float64)
    p = N.p_value(null, obs)
    assert p[1].item() == 1.0  # a tie is not evidence
    assert p[0].item() == pytest.approx((1 + (null[:, 0] >= 2.0).sum().item()) / 4001)
    assert N.holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    # monotonic: a strongest word that never moves is no evidence either way
    still = [torch.zeros(1, 6, dtype=torch.long)]
    assert N.monotonic_null(still, 10, gen).abs().sum().item() == 0.0
    assert A._sums(torch.full((1, 1, 5, 4), 0.25, dtype=torch.float64), "cross",
                   ["<s>", "a", "b", "c", "d"], ["A", "B", "C", "</s>"], [True] + [False] * 4,
                   [False] * 3 + [True])["monotonic"].item() == 0.0


def test_labels_need_the_bar_the_margin_and_significance():
    sig = {"monotonic": 0.001, "diagonal": 0.001, "pronoun": 0.001, "sink": 0.001,
           "previous": 0.001, "broad": None}
    low = {b: 0.1 for b in sig}
    assert A.label({"monotonic": 0.99, "diagonal": 0.7, "broad": 0.2}, low, sig) == ("diagonal", 0.7)
    assert A.label({"sink": 0.6, "pronoun": 0.55}, low, sig) == ("pronoun", 0.55)
    assert A.label({"broad": 0.9, "previous": 0.3}, low, sig) == ("broad", 0.9)
    assert A.label({"broad": 0.3, "previous": 0.4}, low, sig) == (A.NO_ROLE, 0.4)
    # at its chance level (a head that lands on the same word in both sentences of every pair)
    assert A.label({"pronoun": 0.5, "broad": 0.7}, {"pronoun": 0.5}, sig) == ("broad", 0.7)
    # not significant after the correction
    assert A.label({"diagonal": 0.8}, low, {"diagonal": 0.2})[0] == A.NO_ROLE
    # broad is never a finding, whatever its p
    assert A.label({"broad": 0.4}, {"broad": 0.0}, {"broad": 0.0})[0] == A.NO_ROLE


def test_cli_json_and_bad_arguments(capsys):
    assert A.main(["--checkpoint", str(SHIPPED / "copy-tiny"), "--n", "4", "--json",
                   "--threads", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["sentences"] == 4 and out["source"] == "task" and len(out["heads"]) == 3 * 2 * 4
    assert out["null"]["correction"] == "Holm" and out["null"]["permutations"] >= 1000
    for h in out["heads"]:
        assert h["label"] in A.BEHAVIOURS + (A.NO_ROLE,)
        assert set(h["scores"]) == set(h["chance"]) == set(h["p"]) == set(h["p_holm"])
        assert set(h["scores"]) == set(A.APPLIES[h["kind"]]) - {"pronoun"}
        assert h["p"]["broad"] is None and h["chance"]["broad"] == h["scores"]["broad"]
        assert all(0 < v <= 1 for b, v in h["p"].items() if b != "broad")
        assert h["taught"] == []
    with pytest.raises(SystemExit) as e:
        A.main(["--checkpoint", str(SHIPPED / "copy-tiny"), "--n", "0"])
    assert e.value.code == 2


def test_cli_and_page_measure_the_same_sentences(capsys):
    """The page's atlas (ui/atlas_view) and the CLI's default: the same sentences, the same labels."""
    from ui import atlas_view

    assert atlas_view.N_SENTENCES == A.N_DEFAULT
    ck = load_checkpoint(SHIPPED / "copy-tiny")
    res = atlas_view._roles.compute(ck, atlas_view.N_SENTENCES)
    assert res["sentences"] == A.sentences_for(ck) and res["source"] == "task"
    assert A.main(["--checkpoint", str(SHIPPED / "copy-tiny"), "--json", "--threads", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [h["label"] for h in out["heads"]] == [r.label for r in res["roles"]]
    # the everyday models: half minimal pairs (also the pronoun probe), half shipped sentences
    every = A.inputs_for(load_checkpoint(SHIPPED / "everyday-en-de"))
    assert every.source == "probe" and len(every.probe) == A.N_DEFAULT
    assert every.sentences[: A.N_DEFAULT // 2] == [it.text for it in every.probe][: A.N_DEFAULT // 2]
    assert Counter(every.sentences).most_common(1)[0][1] <= 2
