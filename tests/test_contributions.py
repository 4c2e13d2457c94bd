"""transformer.probing.contributions: ALTI+ and norm-based contributions, checked against the
model's own modules in float64, recomputed by hand, and in `inspect --json`."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from helpers import tiny_config
from transformer.core.masks import decoder_mask, padding_mask
from transformer.core.model import Transformer
from transformer.probing import contributions as CB
from transformer.probing.inspect import inspect_text, main
from transformer.probing.rollout import rollout

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT / "checkpoints" / "everyday-en-de"
SRC, TGT = [5, 9, 7, 11, 2], [1, 6, 8, 12, 10]


def _model(norm_first: bool, seed: int = 3) -> Transformer:
    torch.manual_seed(seed)
    m = Transformer(tiny_config(vocab_size=20, norm_first=norm_first)).eval()
    with torch.no_grad():  # LayerNorm's gain and bias away from 1 and 0, so they are exercised
        for mod in m.modules():
            if isinstance(mod, torch.nn.LayerNorm):
                mod.weight.uniform_(0.5, 1.5)
                mod.bias.uniform_(-0.3, 0.3)
    return m.double()


@pytest.fixture(scope="module")
def ins_ck(small_checkpoint):
    from transformer.core.checkpoint import load_checkpoint

    ck = load_checkpoint(small_checkpoint)
    return inspect_text(ck.model, ck.tokenizer, "A dog runs in the park ."), ck


@pytest.mark.parametrize("method", sorted(CB.METHODS))
def test_source_and_target_shares_sum_to_one_per_output_token(ins_ck, method):
    ins, ck = ins_ck
    c = CB.contributions(ck.model, ins.src_ids, ins.tgt_ids, method)
    t, s = len(ins.tgt_ids), len(ins.src_ids)
    assert c.to_source.shape == (t, s) and c.to_target.shape == (t, t)
    total = c.source_share + c.target_share
    assert torch.allclose(total, torch.ones(t, dtype=torch.float64), atol=1e-5)
    assert (c.to_source >= 0).all() and (c.to_target >= 0).all()
    # a decoder position draws only on the target prefix it can see
    assert torch.all(c.to_target.triu(1) == 0)
    assert torch.allclose(c.normalised().sum(-1), torch.ones(t, dtype=torch.float64), atol=1e-9)


@pytest.mark.parametrize("norm_first", [False, True])
def test_block_vectors_sum_to_the_blocks_own_output_in_float64(norm_first):
    """Independent of the decomposition: the model's own sublayers (residual, attention,
    LayerNorm) run in float64 give what the vectors plus the bias add up to."""
    m = _model(norm_first)
    src, tgt = torch.tensor([SRC]), torch.tensor([TGT])
    src_mask, tgt_mask = padding_mask(src, 0), decoder_mask(tgt, 0, 1)
    with torch.no_grad():
        x = m.src_embed(src)
        enc = m.encoder.layers[0]
        ref = enc.sublayers[0](x, lambda y: enc.self_attn(y, mask=src_mask))[0]
        vec, bias = CB.block_vectors(enc.self_attn, enc.sublayers[0].norm, x[0], None,
                                     src_mask[0, 0], norm_first)
        assert vec.dtype == torch.float64 and vec.shape == (len(SRC), len(SRC), 16)
        torch.testing.assert_close(vec.sum(1) + bias, ref, atol=1e-12, rtol=0)
        memory = m.encode(src, src_mask)
        y = m.tgt_embed(tgt)
        dec = m.decoder.layers[0]
        y1 = dec.sublayers[0](y, lambda z: dec.self_attn(z, mask=tgt_mask))
        vec, bias = CB.block_vectors(dec.self_attn, dec.sublayers[0].norm, y[0], None,
                                     tgt_mask[0, 0], norm_first)
        torch.testing.assert_close(vec.sum(1) + bias, y1[0], atol=1e-12, rtol=0)
        assert torch.all(vec.norm(dim=-1).triu(1) == 0)  # no vector from a future token
        ref = dec.sublayers[1](y1, lambda z: dec.cross_attn(z, memory, mask=src_mask))[0]
        vec, bias = CB.block_vectors(dec.cross_attn, dec.sublayers[1].norm, y1[0], memory[0],
                                     src_mask[0, 0], norm_first)
        assert vec.shape == (len(TGT), 1 + len(SRC), 16)  # the residual, then the source
        torch.testing.assert_close(vec.sum(1) + bias, ref, atol=1e-12, rtol=0)
        # a row's chunks give the same vectors as the whole
        part, _ = CB.block_vectors(dec.cross_attn, dec.sublayers[1].norm, y1[0], memory[0],
                                   src_mask[0, 0], norm_first, rows=slice(2, 4))
        torch.testing.assert_close(part, vec[2:4], atol=1e-12, rtol=0)


@pytest.mark.parametrize("norm_first", [False, True])
def test_its_forward_pass_is_the_models(norm_first, monkeypatch):
    m = _model(norm_first)
    monkeypatch.setattr(CB, "CHUNK", 2)  # several chunks per block
    _, logits = CB.contributions(m, SRC, TGT, with_logits=True)
    with torch.no_grad():
        ref = m(torch.tensor([SRC]), torch.tensor([TGT]))[0]
    torch.testing.assert_close(logits, ref, atol=1e-10, rtol=0)


def test_alti_scores_by_hand():
    """ALTI: share of j = max(0, ||y||_1 - ||y - T(x_j)||_1), normalised; norm: ||T(x_j)||_2."""
    torch.manual_seed(0)
    vec = torch.randn(3, 4, 5, dtype=torch.float64)
    vec[0, 2] = -0.1 * vec[0, [0, 1, 3]].sum(0)  # pointing away from the others' sum: share 0
    got = CB.scores(vec, "alti+")
    for i in range(3):
        y = [sum(float(vec[i, j, d]) for j in range(4)) for d in range(5)]
        raw = []
        for j in range(4):
            dist = sum(abs(y[d] - float(vec[i, j, d])) for d in range(5))
            raw.append(max(0.0, sum(abs(v) for v in y) - dist))
        for j in range(4):
            assert float(got[i, j]) == pytest.approx(raw[j] / sum(raw), abs=1e-12)
    assert float(got[0, 2]) == 0.0
    norm = CB.scores(vec, "norm")
    want = vec.norm(dim=-1) / vec.norm(dim=-1).sum(-1, keepdim=True)
    torch.testing.assert_close(norm, want)
    with pytest.raises(ValueError, match="method"):
        CB.scores(vec, "lrp")


def test_the_decoder_rollout_by_hand(monkeypatch):
    """The combination rule, recomputed from the per-block matrices with loops."""
    m = _model(False)
    mats = []
    real = CB._block

    def spy(*a):
        out, c = real(*a)
        mats.append(c.clone())
        return out, c
    monkeypatch.setattr(CB, "_block", spy)
    c = CB.contributions(m, SRC, TGT)
    s, t = len(SRC), len(TGT)
    enc = torch.eye(s, dtype=torch.float64)
    for k in range(2):
        enc = mats[k] @ enc
    torch.testing.assert_close(c.encoder, enc)
    r = [[0.0] * s + [1.0 if i == j else 0.0 for j in range(t)] for i in range(t)]
    for layer in range(2):
        cs, cx = mats[2 + 2 * layer], mats[3 + 2 * layer]
        r = [[sum(float(cs[i, k]) * r[k][j] for k in range(t)) for j in range(s + t)]
             for i in range(t)]
        r = [[float(cx[i, 0]) * r[i][j]
              + (sum(float(cx[i, 1 + k]) * float(enc[k, j]) for k in range(s)) if j < s else 0.0)
              for j in range(s + t)] for i in range(t)]
    want = torch.tensor(r, dtype=torch.float64)
    torch.testing.assert_close(c.to_source, want[:, :s], atol=1e-12, rtol=0)
    torch.testing.assert_close(c.to_target, want[:, s:], atol=1e-12, rtol=0)


def test_shares_vary_with_the_token_where_rollouts_are_one_constant(ins_ck):
    ins, ck = ins_ck
    r = rollout(ins)
    assert torch.allclose(r.source_share, torch.full_like(r.source_share, 1 - 0.5 ** 2))
    c = CB.contributions(ck.model, ins.src_ids, ins.tgt_ids)
    assert float(c.source_share.max() - c.source_share.min()) > 0.01


@pytest.mark.skipif(not (DEFAULT / "model.safetensors").is_file(), reason="no default model")
def test_on_the_default_model_shares_follow_the_sentence():
    """The issue's sentences: rollout says 0.875 for every token of both; ALTI+'s shares differ
    from token to token and sentence to sentence."""
    from transformer.core.checkpoint import load_checkpoint

    ck = load_checkpoint(DEFAULT)
    shares = []
    for text in ("The horse couldn't jump over the fence because it was too tired .",
                 "I drink and I know things ."):
        ins = inspect_text(ck.model, ck.tokenizer, text)
        c = CB.contributions(ck.model, ins.src_ids, ins.tgt_ids)
        assert torch.allclose(c.source_share + c.target_share,
                              torch.ones(len(ins.tgt_ids), dtype=torch.float64), atol=1e-5)
        shares += c.source_share.tolist()
    assert max(shares) - min(shares) > 0.2
    assert len({round(s, 3) for s in shares}) > len(shares) // 2


def test_inspect_json_carries_contributions_and_dropped(small_checkpoint, capsys):
    assert main(["--checkpoint", str(small_checkpoint), "--text", "A dog runs .", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    c = out["contributions"]
    assert c["method"] == "alti+" and "Ferrando" in c["paper"]
    n_tgt, n_src = len(out["target_tokens"]), len(out["source_tokens"])
    assert len(c["source_share"]) == n_tgt
    assert len(c["to_source"]) == n_tgt and all(len(row) == n_src for row in c["to_source"])
    for share, row in zip(c["source_share"], c["to_source"]):
        assert sum(row) == pytest.approx(share, abs=1e-5) and 0 <= share <= 1
    assert isinstance(out["dropped"], list)
    assert set(out["dropped"]) <= set("A dog runs .".split())
    assert "rollout" in out  # beside, not instead
