"""Checkpoint averaging (the paper's last-5 average): the mean of the weights, nothing else."""
from __future__ import annotations

import subprocess
import sys

import pytest
import torch

from helpers import tiny_config
from transformer.train.average import average_checkpoints, main
from transformer.core.checkpoint import CheckpointError, load_checkpoint, save_checkpoint
from transformer.core.model import Transformer


def _variants(tmp_path, small_checkpoint, n=3):
    ck = load_checkpoint(small_checkpoint)
    paths, states = [], []
    for i in range(n):
        torch.manual_seed(10 + i)
        m = Transformer(ck.model_config).eval()
        p = tmp_path / f"step-{i}"
        save_checkpoint(p, m, ck.tokenizer, train_config={"task": "test"}, history={"i": i})
        paths.append(p)
        states.append({k: v.clone() for k, v in m.state_dict().items()})
    return ck, paths, states


def test_average_is_the_elementwise_mean_and_keeps_ties(tmp_path, small_checkpoint):
    ck, paths, states = _variants(tmp_path, small_checkpoint)
    out = tmp_path / "avg"
    assert main([*map(str, paths), "--out", str(out)]) == 0
    avg = load_checkpoint(out)
    for k, v in avg.model.state_dict().items():
        want = sum(s[k].double() for s in states) / len(states)  # independent mean
        assert torch.allclose(v.double(), want, atol=1e-6), k
    assert avg.model.generator.weight is avg.model.src_embed.token.weight  # tied after load
    assert avg.history["averaged_from"] == [str(p) for p in paths]
    # the averaged model is a working model: its logits are those of a model given the mean
    ref = Transformer(ck.model_config).eval()
    ref.load_state_dict({k: (sum(s[k] for s in states) / len(states)) for k in states[0]})
    src, tgt = torch.tensor([[5, 9, 12, 2]]), torch.tensor([[1, 7, 8]])
    with torch.no_grad():
        assert torch.allclose(avg.model(src, tgt), ref(src, tgt), atol=1e-5)


def test_mismatched_checkpoints_are_refused(tmp_path, small_checkpoint, tokenizer):
    other = tmp_path / "other"
    save_checkpoint(other, Transformer(tiny_config(vocab_size=tokenizer.vocab_size, d_model=16)),
                    tokenizer)
    with pytest.raises(CheckpointError, match="different model shape"):
        average_checkpoints([small_checkpoint, other])
    with pytest.raises(CheckpointError, match="at least two"):
        average_checkpoints([small_checkpoint])


def test_cli_errors_are_one_line_with_exit_2(tmp_path, small_checkpoint):
    r = subprocess.run([sys.executable, "-m", "transformer.average", str(small_checkpoint),
                        str(tmp_path / "missing"), "--out", str(tmp_path / "x")],
                       capture_output=True, text=True)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists()


def test_float16_halves_the_file_and_one_checkpoint_may_be_restored(tmp_path, small_checkpoint):
    ck, paths, states = _variants(tmp_path, small_checkpoint, n=2)
    assert main([str(paths[0]), "--out", str(tmp_path / "half"), "--weights-dtype", "float16"]) == 0
    half = load_checkpoint(tmp_path / "half")
    full_bytes = (paths[0] / "model.safetensors").stat().st_size
    half_bytes = (tmp_path / "half" / "model.safetensors").stat().st_size
    assert half_bytes < 0.55 * full_bytes
    assert "averaged_from" not in half.history and half.history["i"] == 0
    for k, v in half.model.state_dict().items():
        assert v.dtype == torch.float32  # loaded back as float32, rounded once to float16
        torch.testing.assert_close(v, states[0][k].half().float(), rtol=0, atol=0)
    # two checkpoints in float16: their mean, rounded to float16
    assert main([*map(str, paths), "--out", str(tmp_path / "avg16"), "--weights-dtype", "float16"]) == 0
    avg = load_checkpoint(tmp_path / "avg16")
    k = "encoder.layers.0.ffn.w1.weight"
    want = ((states[0][k].double() + states[1][k].double()) / 2).float().half().float()
    torch.testing.assert_close(avg.model.state_dict()[k], want, rtol=0, atol=0)


def test_one_checkpoint_without_float16_is_still_refused(tmp_path, small_checkpoint):
    with pytest.raises(SystemExit) as e:
        main([str(small_checkpoint), "--out", str(tmp_path / "x")])
    assert e.value.code == 2 and not (tmp_path / "x").exists()
