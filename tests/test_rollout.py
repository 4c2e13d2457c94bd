"""transformer.probing.rollout: attention rollout through an encoder-decoder, recomputed here with plain
loops, and the occlusion check; viz.flow's word-level matrix."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from transformer.probing.inspect import inspect_text, to_json
from transformer.probing.rollout import occlusion, rollout
from viz.flow import word_flow


@pytest.fixture(scope="module")
def ins_ck(small_checkpoint):
    from transformer.core.checkpoint import load_checkpoint

    ck = load_checkpoint(small_checkpoint)
    return inspect_text(ck.model, ck.tokenizer, "A dog runs in the park ."), ck


def _mix_loops(a):
    """½ head mean + ½ I, rows renormalised, with loops."""
    h, q, k = a.shape
    out = np.zeros((q, k))
    for i in range(q):
        for j in range(k):
            out[i, j] = 0.5 * sum(a[x, i, j] for x in range(h)) / h + (0.5 if i == j else 0.0)
        out[i] /= out[i].sum()
    return out


def test_rollout_equals_a_loop_recomputation(ins_ck):
    ins, _ = ins_ck
    r = rollout(ins)
    enc = [w[0].double().numpy() for w in ins.trace.layers("encoder_self", "weights")]
    s = enc[0].shape[-1]
    r_enc = np.eye(s)
    for a in enc:
        r_enc = _mix_loops(a) @ r_enc
    np.testing.assert_allclose(r.encoder.numpy(), r_enc, atol=1e-10)
    selfs = [w[0].double().numpy() for w in ins.trace.layers("decoder_self", "weights")]
    cross = [w[0].double().numpy() for w in ins.trace.layers("cross", "weights")]
    t = selfs[0].shape[-1]
    dd, ds = np.eye(t), np.zeros((t, s))
    for a, c in zip(selfs, cross):
        m = _mix_loops(a)
        dd, ds = m @ dd, m @ ds
        dd, ds = dd / 2, ds / 2 + c.mean(0) @ r_enc / 2
    np.testing.assert_allclose(r.to_source.numpy(), ds, atol=1e-10)
    np.testing.assert_allclose(r.to_target.numpy(), dd, atol=1e-10)
    # every row of [to_target | to_source] sums to 1
    np.testing.assert_allclose(dd.sum(-1) + ds.sum(-1), 1.0, atol=1e-10)
    assert r.normalised().sum(-1).allclose(torch.ones(t, dtype=torch.float64))


def test_inspect_json_carries_the_rollout(ins_ck):
    ins, _ = ins_ck
    j = to_json(ins)["rollout"]
    assert len(j["to_source"]) == len(ins.tgt_ids) and len(j["to_source"][0]) == len(ins.src_ids)
    assert "rollout" in j["method"]


def test_occlusion_measures_a_drop_per_word(ins_ck):
    ins, ck = ins_ck
    groups = ck.tokenizer.words(ins.src_ids)
    drops = occlusion(ck.model, ins.src_ids, ins.tgt_ids, 0, groups)
    assert len(drops) == len(groups)
    # independently: remove word 1 by hand and compare probabilities
    src = list(ins.src_ids)
    for i in groups[1]:
        src[i] = ck.model.cfg.pad_id
    with torch.inference_mode():
        full = torch.softmax(ck.model(torch.tensor([ins.src_ids]), torch.tensor([ins.tgt_ids]))[0, 0].double(), -1)
        cut = torch.softmax(ck.model(torch.tensor([src]), torch.tensor([ins.tgt_ids]))[0, 0].double(), -1)
    want = ins.tgt_ids[1]
    assert drops[1] == pytest.approx(float(full[want] - cut[want]), abs=1e-9)
    assert occlusion(ck.model, ins.src_ids, ins.tgt_ids, 0, [[]]) == [pytest.approx(0.0, abs=1e-12)]


def test_word_flow_sums_pieces_and_renormalises():
    a = np.array([[0.2, 0.1, 0.1], [0.0, 0.3, 0.1], [0.4, 0.0, 0.0]])
    m = word_flow(a, [[0], [1, 2]], [[0, 1], [2]])
    # word 0 = row 0: (0.3, 0.1) / 0.4; word 1 = mean of rows 1, 2: (0.35, 0.05) / 0.4
    np.testing.assert_allclose(m, [[0.75, 0.25], [0.875, 0.125]])
    assert word_flow(np.zeros((1, 2)), [[0]], [[0], [1]]).tolist() == [[0.0, 0.0]]
