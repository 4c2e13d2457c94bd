"""--train-only (transformer/train/freeze.py): the frozen weights stay exactly the starting ones
through training and a resume, the named ones move, and a typo is told before any work."""
from __future__ import annotations

import pytest
import torch

from transformer.core.checkpoint import load_checkpoint
from transformer.train.freeze import freeze_except, parse_prefixes


def test_prefixes_are_split_trimmed_and_deduplicated():
    assert parse_prefixes(" encoder.layers.2 , decoder.layers.2.cross_attn.,encoder.layers.2") == [
        "encoder.layers.2", "decoder.layers.2.cross_attn"]
    with pytest.raises(ValueError, match="at least one"):
        parse_prefixes(" , ")


def test_a_prefix_names_whole_components_and_counts_add_up():
    net = torch.nn.ModuleDict({"layers": torch.nn.ModuleList(
        [torch.nn.Linear(2, 2) for _ in range(11)])})
    trainable, total = freeze_except(net, ["layers.1"])
    on = [n for n, p in net.named_parameters() if p.requires_grad]
    assert on == ["layers.1.weight", "layers.1.bias"]  # not layers.10
    assert (trainable, total) == (6, 66)
    with pytest.raises(ValueError, match="layers"):
        freeze_except(net, ["layer.1"])


def _run(argv):
    from transformer.train.cli import run
    return run(argv)


def _fine_tune_and_resume(out, start, train_only):
    """3 steps from START with --train-only TRAIN_ONLY, then a --resume to step 6; returns OUT."""
    common = ["--task", "copy", "--lr-scale", "5", "--warmup", "1", "--eval-every", "100",
              "--batch-tokens", "256", "--threads", "1", "--out", str(out)]
    _run(common + ["--init", str(start), "--steps", "3", "--checkpoint-every", "3",
                   "--train-only", train_only])
    _run(common + ["--resume", "--steps", "6", "--checkpoint-every", "3"])
    return out


def test_fine_tune_moves_only_the_named_part_and_resume_keeps_it(tmp_path, small_checkpoint):
    out = _fine_tune_and_resume(tmp_path / "ft", small_checkpoint, "encoder.layers.0")
    start = load_checkpoint(small_checkpoint).model.state_dict()
    end = load_checkpoint(out / "checkpoints" / "last")
    assert end.train_config["extra"]["train_only"] == "encoder.layers.0"
    sd = end.model.state_dict()
    moved = {k for k in start if not torch.equal(start[k], sd[k])}
    assert moved and all(k.startswith("encoder.layers.0.") for k in moved), sorted(moved)
    assert "encoder.layers.0.self_attn.in_proj.weight" in moved


def test_a_typo_is_a_usage_error_naming_the_real_names(tmp_path, small_checkpoint):
    from transformer.train.corpus import UsageError
    with pytest.raises(UsageError, match="no parameter is named 'encoder.layer.2'.*encoder"):
        _run(["--task", "copy", "--init", str(small_checkpoint), "--steps", "1",
              "--train-only", "encoder.layer.2", "--out", str(tmp_path / "x"), "--threads", "1"])


def _qk_rows(d_model, n_heads, head):
    dh = d_model // n_heads
    rows = set(range(head * dh, (head + 1) * dh)) | set(range(d_model + head * dh,
                                                              d_model + (head + 1) * dh))
    return sorted(rows)


def test_a_heads_qk_rows_alone_move_and_every_other_row_and_head_stays(tmp_path, small_checkpoint):
    """--train-only encoder_self:0:1:qk through a fine-tune and a resume: of the whole model only
    head 1's query and key rows of that in_proj change (its value rows, the other heads' rows and
    every other parameter stay bit for bit), so the other heads' attention on any sentence is the
    starting model's exactly and head 1's is not."""
    from transformer.probing.inspect import inspect_text

    out = _fine_tune_and_resume(tmp_path / "qk", small_checkpoint, "encoder_self:0:1:qk")
    first = load_checkpoint(small_checkpoint)
    end = load_checkpoint(out / "checkpoints" / "last")
    start, sd = first.model.state_dict(), end.model.state_dict()
    moved = {k for k in start if not torch.equal(start[k], sd[k])}
    name = "encoder.layers.0.self_attn.in_proj"
    assert moved <= {name + ".weight", name + ".bias"} and name + ".weight" in moved, moved
    cfg = first.model.cfg
    rows = _qk_rows(cfg.d_model, cfg.n_heads, 1)
    changed = [r for r in range(3 * cfg.d_model)
               if not torch.equal(start[name + ".weight"][r], sd[name + ".weight"][r])
               or not torch.equal(start[name + ".bias"][r], sd[name + ".bias"][r])]
    assert changed and set(changed) <= set(rows), (changed, rows)
    a = inspect_text(first.model.eval(), first.tokenizer, "A dog runs in the park .")
    b = inspect_text(end.model.eval(), end.tokenizer, "A dog runs in the park .")
    wa, wb = a.weights("encoder_self", 0), b.weights("encoder_self", 0)  # (H,T,S)
    for h in range(cfg.n_heads):
        assert torch.equal(wa[h], wb[h]) == (h != 1), h


def test_head_qk_counts_and_refusals(tmp_path, small_checkpoint):
    from transformer.core.model import Transformer
    from transformer.train.corpus import UsageError
    from helpers import tiny_config

    model = Transformer(tiny_config())
    cfg = model.cfg
    trainable, total = freeze_except(model, ["encoder_self:0:0:qk", "decoder.layers.0.ffn"])
    ffn = sum(p.numel() for n, p in model.named_parameters() if n.startswith("decoder.layers.0.ffn"))
    dh = cfg.d_model // cfg.n_heads
    assert trainable == 2 * dh * (cfg.d_model + 1) + ffn  # Q and K rows: weights and biases
    assert total == sum(p.numel() for p in model.parameters())
    with pytest.raises(ValueError, match="cross:0:99:qk is not a head of this model"):
        freeze_except(Transformer(tiny_config()), ["cross:0:99:qk"])
    with pytest.raises(UsageError, match="weight decay"):
        _run(["--task", "copy", "--init", str(small_checkpoint), "--steps", "1",
              "--train-only", "encoder_self:0:0:qk", "--weight-decay", "0.01",
              "--out", str(tmp_path / "wd"), "--threads", "1"])


def test_the_row_mask_puts_an_exact_zero_even_on_a_nan_gradient():
    from transformer.core.model import Transformer
    from helpers import tiny_config

    model = Transformer(tiny_config())
    freeze_except(model, ["encoder_self:0:1:qk"])
    p = model.encoder.layers[0].self_attn.in_proj.weight
    cfg = model.cfg
    rows = torch.zeros(3 * cfg.d_model, dtype=torch.bool)
    rows[_qk_rows(cfg.d_model, cfg.n_heads, 1)] = True
    poison = torch.where(rows[:, None], torch.ones_like(p), torch.full_like(p, float("nan")))
    (p * poison).sum().backward()  # d/dp = poison: NaN on every frozen row
    assert torch.equal(p.grad[~rows], torch.zeros_like(p.grad[~rows]))
    assert torch.equal(p.grad[rows], torch.ones_like(p.grad[rows]))


def test_new_ffn_units_alone_move_after_a_growth(tmp_path, small_checkpoint):
    """recipes.surgery.grow, then --train-only ffn:N+ through a fine-tune and a resume: only the new
    units' rows of w1 (and b1) and columns of w2 change, in every layer; every old unit, every
    attention weight and every other parameter stay bit for bit."""
    from recipes.surgery.grow import main as grow

    first = load_checkpoint(small_checkpoint)
    old_ff = first.model.cfg.d_ff
    grown = tmp_path / "grown"
    assert grow(["--checkpoint", str(small_checkpoint), "--d-ff", str(old_ff + 16),
                 "--out", str(grown)]) == 0
    out = _fine_tune_and_resume(tmp_path / "units", grown, f"ffn:{old_ff}+")
    start = load_checkpoint(grown).model.state_dict()
    sd = load_checkpoint(out / "checkpoints" / "last").model.state_dict()
    moved = {k for k in start if not torch.equal(start[k], sd[k])}
    assert moved and all(".ffn.w1." in k or k.endswith(".ffn.w2.weight") for k in moved), moved
    assert not any(k.endswith(".ffn.w2.bias") for k in moved)
    n_w2 = 0
    for k in start:
        a, b = start[k], sd[k]
        if k.endswith(".ffn.w1.weight") or k.endswith(".ffn.w1.bias"):
            assert torch.equal(a[:old_ff], b[:old_ff]), k
        elif k.endswith(".ffn.w2.weight"):
            assert torch.equal(a[:, :old_ff], b[:, :old_ff]), k
            n_w2 += int(not torch.equal(a[:, old_ff:], b[:, old_ff:]))
    assert n_w2 >= 2  # the new units began to write, in more than one layer


def test_ffn_unit_counts_and_refusals(tmp_path, small_checkpoint):
    from transformer.core.model import Transformer
    from transformer.train.corpus import UsageError
    from helpers import tiny_config

    model = Transformer(tiny_config(d_ff=32))
    cfg = model.cfg
    trainable, total = freeze_except(model, ["ffn:24+"])
    layers = cfg.n_encoder_layers + cfg.n_decoder_layers
    assert trainable == layers * 8 * (cfg.d_model + 1 + cfg.d_model)  # w1 rows, b1, w2 columns
    assert total == sum(p.numel() for p in model.parameters())
    for bad in ("ffn:0+", "ffn:32+", "ffn:99+"):
        with pytest.raises(ValueError, match="names no unit of this model's feed-forward"):
            freeze_except(Transformer(tiny_config(d_ff=32)), [bad])
    with pytest.raises(UsageError, match="weight decay"):
        _run(["--task", "copy", "--init", str(small_checkpoint), "--steps", "1",
              "--train-only", "ffn:4+", "--weight-decay", "0.01",
              "--out", str(tmp_path / "wd"), "--threads", "1"])
