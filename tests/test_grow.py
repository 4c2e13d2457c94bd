"""recipes.surgery.grow: wider feed-forward layers that change no output until they are trained."""
from __future__ import annotations

import pytest
import torch

from helpers import CORPUS, tiny_config
from transformer.core.checkpoint import load_checkpoint, save_checkpoint
from transformer.core.model import Transformer
from transformer.core.tokenizer import Tokenizer
from recipes.surgery.grow import main, widen_ffn


def _trained_looking_model(seed: int = 0, vocab_size: int = 60) -> Transformer:
    """A tiny model whose every weight, biases and norms included, is random, so that nothing
    happens to be zero where the growth needs it to be."""
    torch.manual_seed(seed)
    model = Transformer(tiny_config(vocab_size=vocab_size))
    with torch.no_grad():
        for p in model.parameters():
            p.add_(0.3 * torch.randn_like(p))
    return model.eval()


def _batch(seed: int = 1):
    g = torch.Generator().manual_seed(seed)
    src = torch.randint(4, 60, (3, 9), generator=g)
    tgt = torch.randint(4, 60, (3, 6), generator=g)
    src[0, 7:] = 0  # padding, so the masks take part
    return src, tgt


def test_the_grown_model_computes_exactly_what_the_old_one_did():
    old = _trained_looking_model()
    new = widen_ffn(old, 80, seed=3)
    assert new.cfg.d_ff == 80 and old.cfg.d_ff == 32
    src, tgt = _batch()
    with torch.no_grad():
        torch.testing.assert_close(new(src, tgt), old(src, tgt), rtol=0, atol=1e-5)
    # and the attention a student sees is the same, layer by layer
    for a, b in zip(old.encoder.layers, new.encoder.layers):
        torch.testing.assert_close(b.self_attn.in_proj.weight, a.self_attn.in_proj.weight)


def test_old_units_are_kept_and_new_units_start_silent_but_not_dead():
    old = _trained_looking_model()
    new = widen_ffn(old, 48, seed=3)
    a, b = old.state_dict(), new.state_dict()
    n_ffn = 0
    for name, v in a.items():
        w = b[name]
        if name.endswith("ffn.w1.weight"):
            torch.testing.assert_close(w[:32], v)
            assert w[32:].abs().sum() > 0  # fresh input weights: the units see the input
            n_ffn += 1
        elif name.endswith("ffn.w2.weight"):
            torch.testing.assert_close(w[:, :32], v)
            assert torch.count_nonzero(w[:, 32:]) == 0
        elif name.endswith("ffn.w1.bias"):
            torch.testing.assert_close(w[:32], v)
            assert torch.count_nonzero(w[32:]) == 0
        else:
            torch.testing.assert_close(w, v)
    assert n_ffn == 4  # 2 encoder + 2 decoder layers
    # one backward pass reaches the new units' output weights, so training can switch them on
    src, tgt = _batch()
    new.train()
    new(src, tgt).logsumexp(-1).mean().backward()
    grad = new.encoder.layers[0].ffn.w2.weight.grad
    assert grad[:, 32:].abs().sum() > 0


@pytest.mark.parametrize("d_ff", [32, 16, 10**6])
def test_a_width_that_is_not_a_growth_is_refused(d_ff):
    with pytest.raises(ValueError, match="--d-ff: must be larger than the model's 32"):
        widen_ffn(_trained_looking_model(), d_ff)


def test_the_command_writes_a_checkpoint_that_loads_and_says_what_it_is(tmp_path, capsys):
    tok = Tokenizer.train(CORPUS, vocab_size=60)
    old = _trained_looking_model(vocab_size=tok.vocab_size)
    save_checkpoint(tmp_path / "old", old, tok, train_config={"task": "copy", "extra": {}})
    assert main(["--checkpoint", str(tmp_path / "old"), "--d-ff", "64",
                 "--out", str(tmp_path / "new")]) == 0
    assert "d_ff 32 -> 64" in capsys.readouterr().out
    ck = load_checkpoint(tmp_path / "new")
    assert ck.model.cfg.d_ff == 64
    assert ck.train_config["extra"]["grown_from"]["d_ff"] == 32
    assert "width 64 (was 32" in ck.card and "python -m recipes.surgery.grow" in ck.card
    src, tgt = _batch()
    with torch.no_grad():
        torch.testing.assert_close(ck.model(src, tgt), old(src, tgt), rtol=0, atol=1e-5)


def test_the_command_refuses_a_missing_checkpoint_in_one_line(tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        main(["--checkpoint", str(tmp_path / "nope"), "--d-ff", "64", "--out", str(tmp_path / "x")])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "not a checkpoint directory" in err and "Traceback" not in err
    assert not (tmp_path / "x").exists()


def test_the_launcher_runs_the_command(tmp_path):
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "recipes.surgery.grow", "--checkpoint",
                        str(tmp_path / "nope"), "--d-ff", "64", "--out", str(tmp_path / "x")],
                       capture_output=True, text=True)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
    assert r.stderr.startswith("python -m recipes.surgery.grow: error:")
