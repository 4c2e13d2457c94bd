"""The model: fused and explicit paths agree, equivalence with torch.nn, masks, causality."""
from __future__ import annotations

import math
import threading

import pytest
import torch
import torch.nn as nn

from transformer.core.attention import MultiHeadAttention, attention
from transformer.core.config import ModelConfig, preset
from transformer.core.masks import causal_mask, decoder_mask, padding_mask
from transformer.core.model import DecoderLayer, EncoderLayer, Transformer, sinusoidal_table
from transformer.core.trace import ablation, record

from helpers import tiny_config


def _batch(vocab=40, pad=0, seed=0):
    g = torch.Generator().manual_seed(seed)
    src = torch.randint(4, vocab, (3, 9), generator=g)
    tgt = torch.randint(4, vocab, (3, 7), generator=g)
    src[1, 6:] = pad  # padding in the source
    src[2, 3:] = pad
    tgt[1, 5:] = pad  # and in the target
    return src, tgt


@pytest.mark.parametrize("norm_first", [False, True])
@pytest.mark.parametrize("mode", ["eval", "train"])
def test_fused_and_explicit_paths_agree(norm_first, mode):
    torch.manual_seed(0)
    model = Transformer(tiny_config(norm_first=norm_first))
    model.train(mode == "train")  # train mode with dropout 0: same function
    src, tgt = _batch()
    with torch.no_grad():
        fused = model(src, tgt)
        with record() as tr:
            explicit = model(src, tgt)
    assert (fused - explicit).abs().max().item() <= 1e-5
    # every attention kind was taken through the explicit path and recorded
    for name in ("encoder.layers.1.self_attn.weights", "decoder.layers.0.self_attn.weights",
                 "decoder.layers.1.cross_attn.weights"):
        assert name in tr
    assert torch.equal(tr["logits"], explicit)


def test_attention_function_paths_agree_with_masks():
    g = torch.Generator().manual_seed(3)
    q, k, v = (torch.randn(2, 3, 5, 8, generator=g) for _ in range(3))
    mask = torch.rand(2, 1, 5, 5, generator=g) > 0.3
    mask[..., 0] = True  # no fully masked rows here (the fused kernel's convention differs)
    fused, none = attention(q, k, v, mask)
    explicit, w = attention(q, k, v, mask, explicit=True)
    assert none is None
    assert (fused - explicit).abs().max() <= 1e-5
    # independent computation
    s = (q @ k.transpose(-1, -2)) / math.sqrt(8)
    s = s.masked_fill(~mask, float("-inf"))
    ref = torch.softmax(s, -1) @ v
    assert torch.allclose(explicit, ref, atol=1e-6)


def test_fully_masked_row_gives_zeros_not_nan():
    q = k = v = torch.randn(1, 1, 3, 4)
    mask = torch.ones(1, 1, 3, 3, dtype=torch.bool)
    mask[0, 0, 1] = False  # query 1 may see nothing
    with record() as tr:
        out, w = attention(q, k, v, mask, path="x")
    assert not torch.isnan(w).any() and not torch.isnan(out).any()
    assert torch.equal(w[0, 0, 1], torch.zeros(3))
    assert torch.isinf(tr["x.masked"][0, 0, 1]).all()  # -inf before softmax


def test_multihead_attention_equals_torch(tiny_model):
    torch.manual_seed(0)
    d, h = 16, 4
    ours = MultiHeadAttention(d, h).eval()
    ref = nn.MultiheadAttention(d, h, batch_first=True).eval()
    with torch.no_grad():
        ref.in_proj_weight.copy_(ours.in_proj.weight)
        ref.in_proj_bias.copy_(ours.in_proj.bias)
        ref.out_proj.weight.copy_(ours.out_proj.weight)
        ref.out_proj.bias.copy_(ours.out_proj.bias)
    x = torch.randn(2, 5, d)
    mem = torch.randn(2, 7, d)
    keep = torch.ones(2, 7, dtype=torch.bool)
    keep[1, 4:] = False
    with torch.no_grad():
        ours.trace_path = "m"
        with record() as tr:
            a = ours(x, mem, mask=keep[:, None, None, :])
        b, wb = ref(x, mem, mem, key_padding_mask=~keep, need_weights=True,
                    average_attn_weights=False)
        c = ours(x)  # self-attention
        d_, _ = ref(x, x, x, need_weights=False)
    assert (a - b).abs().max() <= 1e-5
    assert (tr["m.weights"] - wb).abs().max() <= 1e-6
    assert (c - d_).abs().max() <= 1e-5


def _copy_attn(ours: MultiHeadAttention, ref: nn.MultiheadAttention):
    ref.in_proj_weight.copy_(ours.in_proj.weight)
    ref.in_proj_bias.copy_(ours.in_proj.bias)
    ref.out_proj.weight.copy_(ours.out_proj.weight)
    ref.out_proj.bias.copy_(ours.out_proj.bias)


def _copy_common(ours, ref):
    ref.linear1.weight.copy_(ours.ffn.w1.weight)
    ref.linear1.bias.copy_(ours.ffn.w1.bias)
    ref.linear2.weight.copy_(ours.ffn.w2.weight)
    ref.linear2.bias.copy_(ours.ffn.w2.bias)
    for i, sub in enumerate(ours.sublayers):
        norm = getattr(ref, f"norm{i + 1}")
        norm.weight.copy_(sub.norm.weight)
        norm.bias.copy_(sub.norm.bias)


@pytest.mark.parametrize("norm_first", [False, True])
def test_encoder_layer_equals_torch(norm_first):
    torch.manual_seed(0)
    cfg = tiny_config(norm_first=norm_first)
    ours = EncoderLayer(cfg).eval()
    for p in ours.parameters():  # non-trivial norms and biases
        nn.init.normal_(p, std=0.3)
    ref = nn.TransformerEncoderLayer(16, 4, 32, dropout=0.0, batch_first=True,
                                     norm_first=norm_first).eval()
    with torch.no_grad():
        _copy_attn(ours.self_attn, ref.self_attn)
        _copy_common(ours, ref)
        x = torch.randn(2, 6, 16)
        keep = torch.ones(2, 6, dtype=torch.bool)
        keep[0, 4:] = False
        a = ours(x, keep[:, None, None, :])
        b = ref(x, src_key_padding_mask=~keep)
    # nn's fast path may return zeros at padded positions: compare real tokens.
    assert (a - b)[keep].abs().max() <= 1e-5


@pytest.mark.parametrize("norm_first", [False, True])
def test_decoder_layer_equals_torch(norm_first):
    torch.manual_seed(0)
    cfg = tiny_config(norm_first=norm_first)
    ours = DecoderLayer(cfg).eval()
    for p in ours.parameters():
        nn.init.normal_(p, std=0.3)
    ref = nn.TransformerDecoderLayer(16, 4, 32, dropout=0.0, batch_first=True,
                                     norm_first=norm_first).eval()
    with torch.no_grad():
        _copy_attn(ours.self_attn, ref.self_attn)
        _copy_attn(ours.cross_attn, ref.multihead_attn)
        _copy_common(ours, ref)
        x, mem = torch.randn(2, 5, 16), torch.randn(2, 7, 16)
        mem_keep = torch.ones(2, 7, dtype=torch.bool)
        mem_keep[1, 5:] = False
        a = ours(x, mem, mem_keep[:, None, None, :], causal_mask(5))
        b = ref(x, mem, tgt_mask=nn.Transformer.generate_square_subsequent_mask(5),
                memory_key_padding_mask=~mem_keep)
    assert (a - b).abs().max() <= 1e-5


def test_weights_rows_sum_to_one_and_masked_entries_are_zero(tiny_model):
    src, tgt = _batch()
    with torch.no_grad(), record() as tr:
        tiny_model(src, tgt)
    for name, t in tr.items():
        if not name.endswith(".weights"):
            continue
        mask = tr[name[: -len("weights")] + "mask"]
        assert torch.equal(t[~mask], torch.zeros_like(t[~mask])), name  # exactly 0
        sums = t.sum(-1)
        has_key = mask.any(-1)
        assert torch.allclose(sums[has_key], torch.ones_like(sums[has_key]), atol=1e-6), name
        assert torch.equal(sums[~has_key], torch.zeros_like(sums[~has_key])), name


def test_future_target_tokens_do_not_change_earlier_positions(tiny_model):
    src, tgt = _batch()
    with torch.no_grad():
        a = tiny_model(src, tgt)
        tgt2 = tgt.clone()
        tgt2[:, 4] = 7  # change position 4 ...
        b = tiny_model(src, tgt2)
    assert torch.equal(a[:, :4], b[:, :4])  # ... positions 0..3 are untouched
    assert not torch.allclose(a[0, 4:], b[0, 4:])


def test_masks():
    ids = torch.tensor([[5, 6, 0], [7, 0, 0]])
    pm = padding_mask(ids, 0)
    assert pm.shape == (2, 1, 1, 3)
    assert pm[0, 0, 0].tolist() == [True, True, False]
    cm = causal_mask(3)
    assert cm[0, 0].tolist() == [[True, False, False], [True, True, False], [True, True, True]]
    dm = decoder_mask(ids, 0)
    assert dm.shape == (2, 1, 3, 3)
    assert dm[1, 0, 2].tolist() == [True, False, False]


def test_positional_table_matches_formula():
    pe = sinusoidal_table(50, 6)
    for pos in (0, 3, 49):
        for i in range(6):
            angle = pos / 10000 ** ((i - i % 2) / 6)
            want = math.sin(angle) if i % 2 == 0 else math.cos(angle)
            assert abs(pe[pos, i].item() - want) < 1e-6
    odd = sinusoidal_table(4, 5)  # odd d_model still works
    assert odd.shape == (4, 5)


def test_tied_embeddings_and_scaling():
    m = Transformer(tiny_config())
    assert m.generator.weight is m.src_embed.token.weight is m.tgt_embed.token.weight
    src = torch.tensor([[5, 6, 2]])
    with torch.no_grad(), record() as tr:
        m.eval()(src, torch.tensor([[1, 5]]))
    emb = m.src_embed.token.weight[src[0]] * math.sqrt(16)
    assert torch.allclose(tr["src_embed.tokens"][0], emb)
    untied = Transformer(tiny_config(tie_embeddings=False))
    assert untied.generator.weight is not untied.src_embed.token.weight


def test_learned_positions_option():
    m = Transformer(tiny_config(positional="learned")).eval()
    src, tgt = _batch()
    with torch.no_grad():
        assert m(src, tgt).shape == (3, 7, 40)
    with pytest.raises(ValueError, match="max_len"):
        m(torch.ones(1, 200, dtype=torch.long), torch.ones(1, 2, dtype=torch.long))


@pytest.mark.parametrize("field,value,rule", [
    ("d_model", 30, "divisible"), ("n_encoder_layers", 0, "at least 1"),
    ("dropout", 1.0, r"\[0, 1\)"), ("dropout", -0.1, r"\[0, 1\)"),
    ("positional", "rope", "sinusoidal"), ("vocab_size", 3, "at least"),
    ("n_heads", 0, "at least 1"), ("dropout", float("nan"), r"\[0, 1\)"),
])
def test_impossible_config_names_field_and_rule(field, value, rule):
    with pytest.raises(ValueError, match=rule) as e:
        tiny_config(**{field: value})
    assert str(e.value).startswith(field)


def test_presets_and_round_trip():
    cfg = preset("small", vocab_size=8000)
    assert ModelConfig.from_dict(cfg.to_dict()) == cfg
    with pytest.raises(ValueError, match="unknown field"):
        ModelConfig.from_dict({**cfg.to_dict(), "bogus": 1})
    with pytest.raises(ValueError, match="preset"):
        preset("huge")


def test_trace_records_every_documented_intermediate(tiny_model):
    src, tgt = _batch()
    with torch.no_grad(), record() as tr:
        tiny_model(src, tgt)
    b, s, t, h, d, dk = 3, 9, 7, 4, 16, 4
    for stack, n_sub, attns in (("encoder", 2, [("self_attn", s, s)]),
                                ("decoder", 3, [("self_attn", t, t), ("cross_attn", t, s)])):
        for layer in range(2):
            p = f"{stack}.layers.{layer}"
            for attn, nq, nk in attns:
                a = f"{p}.{attn}"
                assert tr[f"{a}.q"].shape == (b, h, nq, dk)
                assert tr[f"{a}.k"].shape == (b, h, nk, dk)
                assert tr[f"{a}.v"].shape == (b, h, nk, dk)
                for name in ("scores", "scaled", "mask", "masked", "weights"):
                    assert tr[f"{a}.{name}"].shape == (b, h, nq, nk), name
                assert torch.allclose(tr[f"{a}.scaled"], tr[f"{a}.scores"] / math.sqrt(dk))
                assert tr[f"{a}.head_out"].shape == (b, h, nq, dk)
                assert tr[f"{a}.concat"].shape == (b, nq, d)
                assert tr[f"{a}.output"].shape == (b, nq, d)
                # concat is the heads side by side
                assert torch.equal(tr[f"{a}.concat"][..., dk:2 * dk], tr[f"{a}.head_out"][:, 1])
            for n in range(1, n_sub + 1):
                x = tr[f"{p}.residual{n}"]
                assert torch.allclose(tr[f"{p}.norm{n}.mean"], x.mean(-1))
                std = torch.sqrt(x.var(-1, unbiased=False) + 1e-5)
                assert torch.allclose(tr[f"{p}.norm{n}.std"], std)
            assert tr[f"{p}.ffn.hidden_pre"].shape[-1] == 32
            assert torch.equal(tr[f"{p}.ffn.hidden"], tr[f"{p}.ffn.hidden_pre"].clamp(min=0))
    assert tr["logits"].shape == (b, t, 40)


def test_recording_leaves_nothing_on_the_model(tiny_model):
    before = {k: v.clone() for k, v in tiny_model.state_dict().items()}
    attrs = {n: sorted(vars(m)) for n, m in tiny_model.named_modules()}
    src, tgt = _batch()
    with torch.no_grad(), record():
        tiny_model(src, tgt)
    assert attrs == {n: sorted(vars(m)) for n, m in tiny_model.named_modules()}
    assert all(torch.equal(before[k], v) for k, v in tiny_model.state_dict().items())
    assert not tiny_model._forward_hooks and not tiny_model._forward_pre_hooks


def test_eight_threads_inspect_one_model_concurrently(tiny_model):
    inputs = [_batch(seed=i) for i in range(8)]
    with torch.no_grad():
        expected = []
        for src, tgt in inputs:
            with record() as tr:
                tiny_model(src, tgt)
            expected.append(tr["decoder.layers.1.cross_attn.weights"].clone())
    results: dict[int, torch.Tensor] = {}
    errors: list[BaseException] = []
    barrier = threading.Barrier(8)

    def work(i):
        try:
            src, tgt = inputs[i]
            barrier.wait()
            for _ in range(5):
                with torch.no_grad(), record() as tr:
                    tiny_model(src, tgt)
            results[i] = tr["decoder.layers.1.cross_attn.weights"]
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for i in range(8):
        assert torch.allclose(results[i], expected[i], atol=1e-6)


def test_ablation_zeroes_chosen_heads(tiny_model):
    src, tgt = _batch()
    path = "decoder.layers.1.cross_attn"
    with torch.no_grad():
        base = tiny_model(src, tgt)
        with record({path: [0, 2]}) as tr:
            abl = tiny_model(src, tgt)
        with ablation({path: [0, 2]}):
            fused_abl = tiny_model(src, tgt)
    ho = tr[f"{path}.head_out"]
    assert ho[:, [0, 2]].abs().max() == 0 and ho[:, 1].abs().max() > 0
    assert not torch.allclose(base, abl)
    assert (abl - fused_abl).abs().max() <= 1e-5


# -- hook points (transformer.core.trace.hook): one call serves recording, ablation, capture ------
def _old_zeroing(heads: torch.Tensor, off, n_heads: int) -> torch.Tensor:
    """The special case MultiHeadAttention.forward had before hook points (issue 21)."""
    keep = torch.ones(n_heads, device=heads.device, dtype=heads.dtype)
    keep[[h for h in off if h < n_heads]] = 0
    return heads * keep[None, :, None, None]


def test_hook_ablation_equals_the_old_zeroing(tiny_model, monkeypatch):
    """Ablation through the head_out hook point gives bit for bit what the old zeroing inside
    MultiHeadAttention gave, fused and explicit, including a head index past the model's."""
    from transformer.core import attention as A
    from transformer.core import trace

    src, tgt = _batch()
    ab = {"encoder.layers.0.self_attn": [1, 3], "decoder.layers.1.cross_attn": [0, 9]}
    with torch.no_grad():
        with ablation(ab):
            fused_new = tiny_model(src, tgt)
        with record(ab) as tr:
            explicit_new = tiny_model(src, tgt)
    # the old way: no ablation context, the heads zeroed in forward right after attention
    real_hook = trace.hook

    def old_hook(path, name, x):
        if name == "head_out" and path in ab:
            x = _old_zeroing(x, ab[path], x.size(1))
        return real_hook(path, name, x)

    monkeypatch.setattr(A.trace, "hook", old_hook)
    with torch.no_grad():
        fused_old = tiny_model(src, tgt)
        with record() as tr_old:
            explicit_old = tiny_model(src, tgt)
    assert torch.equal(fused_new, fused_old) and torch.equal(explicit_new, explicit_old)
    assert torch.equal(tr["encoder.layers.0.self_attn.head_out"],
                       tr_old["encoder.layers.0.self_attn.head_out"])
    assert tr["encoder.layers.0.self_attn.head_out"][:, [1, 3]].abs().max() == 0


def test_zero_heads_is_the_old_zeroing():
    from transformer.core.trace import zero_heads

    x = torch.randn(2, 4, 3, 5)
    for off in ({0}, {1, 3}, {2, 7}, {9}):
        assert torch.equal(zero_heads(frozenset(off))(x), _old_zeroing(x, off, 4))


def test_hook_point_is_the_identity_outside_a_context_and_records_inside():
    from transformer.core import trace

    x = torch.randn(2, 3)
    assert trace.active() is None and trace.hook("encoder.layers.0.ffn", "hidden", x) is x
    assert not trace.explicit("encoder.layers.0.self_attn", ("weights",))
    with record() as tr:
        y = trace.hook("encoder.layers.0.ffn", "hidden", x)
        assert trace.explicit("encoder.layers.0.self_attn", ("weights",))
    assert y is x and torch.equal(tr["encoder.layers.0.ffn.hidden"], x)
    with trace.capture({"decoder.layers.0.self_attn"}):  # only the captured path goes explicit
        assert trace.explicit("decoder.layers.0.self_attn", ("weights",))
        assert not trace.explicit("decoder.layers.1.self_attn", ("weights",))
    with ablation({"decoder.layers.0.self_attn": [1]}):  # ablation keeps the fused kernel
        assert not trace.explicit("decoder.layers.0.self_attn", ("weights",))


def test_every_recorded_name_is_a_hook_point_of_the_model(tiny_model):
    """What a recording holds is exactly what passed through trace.hook: the documented names."""
    from transformer.core import trace

    seen = []
    real_hook = trace.hook

    def spy(path, name, x):
        seen.append(trace.point(path, name))
        return real_hook(path, name, x)

    src, tgt = _batch()
    import transformer.core.attention as A
    import transformer.core.model as M

    try:
        A.trace.hook = M.trace.hook = spy
        with torch.no_grad(), record() as tr:
            tiny_model(src, tgt)
    finally:
        A.trace.hook = M.trace.hook = real_hook
    assert list(tr) == seen


def test_nested_contexts_keep_the_outer_ablation_only(tiny_model):
    """An inner context keeps the outer ablation (the model is changed) but not the outer
    recording or capture."""
    from transformer.core import trace

    src, tgt = _batch()
    path = "encoder.layers.0.self_attn"
    with torch.no_grad(), record() as outer, ablation({path: [0]}):
        with record() as inner:
            tiny_model(src, tgt)
    assert not outer and inner[f"{path}.head_out"][:, 0].abs().max() == 0
    with trace.capture({path}) as cap, record() as tr:
        tiny_model(src, tgt)
    assert cap[path] is None and f"{path}.weights" in tr
