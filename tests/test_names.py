"""transformer.core.names: heads read and written in both forms, and trace keys equal to what a model
records."""
from __future__ import annotations

import pytest
import torch

from transformer.core import names as N
from transformer.core.config import ModelConfig
from transformer.core.model import Transformer
from transformer.core.trace import record


@pytest.mark.parametrize("kind", N.KINDS)
def test_head_round_trips_in_both_forms(kind):
    for layer, head in ((0, 0), (1, 2), (11, 15)):
        h = N.Head(kind, layer, head)
        assert N.Head.parse(h.cli) == h
        assert N.Head.parse(h.label) == h
        assert N.Head.parse(h.cli, form="cli") == h
        assert N.Head.parse(h.label, form="label") == h
        assert str(h) == h.label


def test_the_written_forms():
    assert N.Head("cross", 0, 2).cli == "cross:0:2"
    assert N.Head("decoder_self", 1, 1).cli == "decoder_self:1:1"
    assert N.Head("encoder_self", 3, 0).label == "enc L3 H0"
    assert N.Head("decoder_self", 1, 2).label == "dec L1 H2"
    assert N.Head("cross", 1, 2).label == "cross L1 H2"
    assert N.Head.parse("  dec L1 H2 ") == N.Head("decoder_self", 1, 2)


@pytest.mark.parametrize("spec", [
    "", "cross", "cross:1", "cross:1:2:3", "decoder:1:1", "cross:-1:2", "cross:a:2", "cross:1.0:2",
    "cross L1", "cross 1 2", "xattn L1 H2", "enc L1 H-2", "Cross L1 H2", "cross:²:1", None, 3])
def test_bad_specs_give_one_clear_value_error(spec):
    with pytest.raises(ValueError, match="KIND:LAYER:HEAD .*'cross L1 H2'"):
        N.Head.parse(spec)


def test_a_form_reads_only_its_own_form():
    want = r"^expected KIND:LAYER:HEAD with KIND one of encoder_self, decoder_self, cross "
    with pytest.raises(ValueError, match=want + r"\(got 'cross L1 H2'\)$"):
        N.Head.parse("cross L1 H2", form="cli")
    with pytest.raises(ValueError, match=r"^not a head name like 'cross L1 H2': 'cross:1:2'$"):
        N.Head.parse("cross:1:2", form="label")
    with pytest.raises(ValueError, match="form"):
        N.Head.parse("cross:1:2", form="ui")


def test_heads_are_checked_when_built():
    for bad in (("self", 0, 0), ("cross", -1, 0), ("cross", 0, -1), ("cross", 0.0, 1),
                ("cross", True, 1)):
        with pytest.raises(ValueError):
            N.Head(*bad)


def test_a_head_from_history_json():
    assert N.Head.from_dict({"kind": "decoder_self", "layer": 2, "head": 6, "en": "note"}) == \
        N.Head("decoder_self", 2, 6)
    for bad in (None, [], "cross:1:2", {"kind": "cross", "layer": 1}, {"kind": "x", "layer": 0,
                                                                        "head": 0}):
        with pytest.raises(ValueError):
            N.Head.from_dict(bad)


def test_the_other_pronoun_heads_of_a_featured_head():
    from ui.page_kit import also_heads

    fh = {"kind": "encoder_self", "layer": 2, "head": 0,
          "also": [{"kind": "decoder_self", "layer": 2, "head": 6}, {"kind": "nope"}, "cross:1:1"]}
    assert also_heads(fh) == [N.Head("decoder_self", 2, 6)]  # malformed entries skipped
    assert also_heads({"also": "decoder_self:2:6"}) == also_heads(None) == []


def test_ablate_map_merged_and_sorted():
    heads = [N.Head.parse(s) for s in ("cross L1 H2", "cross:1:0", "enc L0 H3", "cross L1 H2")]
    assert N.ablate_map(heads) == {"decoder.layers.1.cross_attn": [0, 2],
                                   "encoder.layers.0.self_attn": [3]}


def test_paths_and_keys():
    assert N.attn_path("encoder_self", 0) == "encoder.layers.0.self_attn"
    assert N.attn_path("decoder_self", 2) == "decoder.layers.2.self_attn"
    assert N.attn_path("cross", 1) == "decoder.layers.1.cross_attn"
    assert N.trace_key("cross", 1, "weights") == "decoder.layers.1.cross_attn.weights"
    assert N.layer_key("encoder", 0, "norm1.mean") == "encoder.layers.0.norm1.mean"
    assert N.Head("cross", 1, 2).key("q") == "decoder.layers.1.cross_attn.q"
    assert [N.stack_of(k) for k in N.KINDS] == ["encoder", "decoder", "decoder"]
    with pytest.raises(ValueError, match="kind"):
        N.attn_path("decoder", 0)
    with pytest.raises(ValueError, match="stack"):
        N.layer_key("cross", 0, "residual1")


@pytest.mark.parametrize("norm_first", [False, True])
def test_keys_are_what_the_model_records(norm_first):
    n_enc, n_dec = 2, 3
    cfg = ModelConfig(vocab_size=30, d_model=8, n_heads=2, n_encoder_layers=n_enc,
                      n_decoder_layers=n_dec, d_ff=16, dropout=0.0, max_len=16,
                      norm_first=norm_first)
    torch.manual_seed(0)
    model = Transformer(cfg).eval()
    with torch.inference_mode(), record() as trace:
        model(torch.tensor([[5, 6, 7, 2]]), torch.tensor([[1, 8, 9]]))
    built = set()
    for kind in N.KINDS:
        n = n_enc if kind == "encoder_self" else n_dec
        assert N.count_layers(trace, kind) == n
        built |= {N.trace_key(kind, layer, name) for layer in range(n) for name in N.ATTN_NAMES}
    for stack, n, sublayers in (("encoder", n_enc, 2), ("decoder", n_dec, 3)):
        for layer in range(n):
            built |= {N.layer_key(stack, layer, f"residual{s}") for s in range(1, sublayers + 1)}
            built |= {N.layer_key(stack, layer, f"norm{s}.{x}") for s in range(1, sublayers + 1)
                      for x in ("input", "mean", "std", "output")}
            built |= {N.layer_key(stack, layer, f"ffn.{x}") for x in ("hidden_pre", "hidden",
                                                                       "output")}
    layered = {k for k in trace if ".layers." in k}
    assert built == layered


def test_a_recording_is_a_trace_with_accessors_and_still_a_dict():
    cfg = ModelConfig(vocab_size=30, d_model=8, n_heads=2, n_encoder_layers=1, n_decoder_layers=2,
                      d_ff=16, dropout=0.0, max_len=16)
    torch.manual_seed(0)
    model = Transformer(cfg).eval()
    with torch.inference_mode(), record() as trace:
        model(torch.tensor([[5, 6, 2]]), torch.tensor([[1, 8]]))
    assert isinstance(trace, N.Trace) and isinstance(trace, dict)
    w = trace["decoder.layers.1.cross_attn.weights"]
    assert trace.get("cross", 1, "weights") is w
    assert trace.get("decoder.layers.1.cross_attn.weights") is w  # dict.get
    assert trace.get("no such key") is None and trace.get("no such key", 7) == 7
    assert trace.layer("encoder", 0, "norm1.mean") is trace["encoder.layers.0.norm1.mean"]
    assert [trace.n_layers(k) for k in N.KINDS] == [1, 2, 2]
    assert trace.layers("decoder_self") == [trace.get("decoder_self", i, "weights") for i in (0, 1)]
    with pytest.raises(KeyError):
        trace.get("cross", 2, "weights")
    assert N.Trace(trace) == dict(trace)


@pytest.mark.parametrize("norm_first", [False, True])
def test_residual_and_norm_stats_are_the_recorded_tensors(norm_first):
    cfg = ModelConfig(vocab_size=30, d_model=8, n_heads=2, n_encoder_layers=1, n_decoder_layers=2,
                      d_ff=16, dropout=0.0, max_len=16, norm_first=norm_first)
    torch.manual_seed(0)
    model = Transformer(cfg).eval()
    with torch.inference_mode(), record() as trace:
        model(torch.tensor([[5, 6, 2]]), torch.tensor([[1, 8]]))
    for stack, n_layers, n_sub in (("encoder", 1, 2), ("decoder", 2, 3)):
        for layer in range(n_layers):
            for n in range(1, n_sub + 1):
                raw = f"{stack}.layers.{layer}"
                assert trace.residual(stack, layer, n) is trace[f"{raw}.residual{n}"]
                stats = trace.norm_stats(stack, layer, n)
                assert list(stats) == ["mean", "std", "output"]
                for x in ("mean", "std", "output"):
                    assert stats[x] is trace[f"{raw}.norm{n}.{x}"]
                # the statistics are those of the LayerNorm's input, row by row
                x_in = trace[f"{raw}.norm{n}.input"].double()
                torch.testing.assert_close(stats["mean"].double(), x_in.mean(-1))
                eps = cfg.layer_norm_eps
                torch.testing.assert_close(stats["std"].double(),
                                           torch.sqrt(x_in.var(-1, unbiased=False) + eps))
    with pytest.raises(KeyError):
        trace.residual("decoder", 2, 1)
    with pytest.raises(KeyError):
        trace.norm_stats("encoder", 0, 3)


# -- one place for each kind's sides and layer count (issue 21) ----------------------------------
def test_attention_kind_agrees_with_a_config():
    cfg = ModelConfig(vocab_size=30, d_model=16, n_heads=4, n_encoder_layers=3, n_decoder_layers=2,
                      d_ff=32, max_len=20)
    got = {k: N.attention_kind(k, cfg) for k in N.KINDS}
    assert [(g.stack, g.query, g.key, g.n_layers) for g in got.values()] == [
        ("encoder", "source", "source", 3), ("decoder", "target", "target", 2),
        ("decoder", "target", "source", 2)]
    assert N.attention_kind("cross").n_layers is None  # without a config: sides only
    assert got["cross"].pick("src", "tgt") == ("tgt", "src")
    assert got["encoder_self"].pick("src", "tgt") == ("src", "src")
    assert got["decoder_self"].pick("src", "tgt") == ("tgt", "tgt")
    with pytest.raises(ValueError, match="kind"):
        N.attention_kind("decoder", cfg)
    # the model built from that config holds exactly those layers, and records them
    torch.manual_seed(0)
    model = Transformer(cfg).eval()
    with torch.no_grad(), record() as tr:
        model(torch.tensor([[5, 6, 2]]), torch.tensor([[1, 7]]))
    for k, g in got.items():
        assert tr.n_layers(k) == g.n_layers
        w = tr.get(k, 0, "weights")  # (B,H,T,S): queries and keys from the sides it names
        assert w.shape[-2:] == g.pick((3,), (2,))[0] + g.pick((3,), (2,))[1]
    heads = N.model_heads(cfg)
    assert len(heads) == (3 + 2 + 2) * 4 and len(set(heads)) == len(heads)
    assert heads[0] == N.Head("encoder_self", 0, 0) and heads[-1] == N.Head("cross", 1, 3)


def test_ablate_map_takes_heads_only():
    assert N.ablate_map([]) == {}
    for bad in ("cross:1:2", ("cross", 1, 2), {"kind": "cross", "layer": 1, "head": 2}):
        with pytest.raises(TypeError, match="Head"):
            N.ablate_map([bad])
    assert N.parse_heads(["cross:1:2", "dec L0 H1"]) == [N.Head("cross", 1, 2),
                                                         N.Head("decoder_self", 0, 1)]
    with pytest.raises(ValueError):
        N.parse_heads(["cross:1:2"], form="label")


@pytest.mark.parametrize("bad", ["", "cross", "cross:1", "cross:1:2:3", "cross:-1:2", "cross:a:2",
                                 "encoder:0:0", "CROSS:1:2", "cross L1", "xattn L1 H2", "cross:1 :2"])
def test_head_parse_refuses_bad_labels(bad):
    with pytest.raises(ValueError):
        N.Head.parse(bad)
