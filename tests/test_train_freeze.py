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


def test_fine_tune_moves_only_the_named_part_and_resume_keeps_it(tmp_path, small_checkpoint):
    out = tmp_path / "ft"
    common = ["--task", "copy", "--lr-scale", "5", "--warmup", "1", "--eval-every", "100",
              "--batch-tokens", "256", "--threads", "1", "--out", str(out)]
    _run(common + ["--init", str(small_checkpoint), "--steps", "3", "--checkpoint-every", "3",
                   "--train-only", "encoder.layers.0"])
    _run(common + ["--resume", "--steps", "6", "--checkpoint-every", "3"])
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
