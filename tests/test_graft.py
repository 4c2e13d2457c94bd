"""recipes.surgery.graft: one head's query and key rows from a donor, every other weight the base's."""
from __future__ import annotations

import pytest
import torch

from helpers import CORPUS, tiny_config
from transformer.core.checkpoint import load_checkpoint, save_checkpoint
from transformer.core.model import Transformer
from transformer.core.names import Head
from transformer.core.tokenizer import Tokenizer
from recipes.surgery.graft import graft_head_qk, main

D, H = 16, 4  # tiny_config's d_model and heads: head size 4


def _model(seed: int, vocab_size: int = 60, **kw) -> Transformer:
    torch.manual_seed(seed)
    model = Transformer(tiny_config(vocab_size=vocab_size, **kw))
    with torch.no_grad():
        for p in model.parameters():
            p.add_(0.3 * torch.randn_like(p))
    return model.eval()


def _rows(head: int) -> list[int]:
    """in_proj rows of one head's queries and keys, written out by hand: W_Q rows come first
    (D of them, 4 per head), then W_K's, then W_V's."""
    q = list(range(4 * head, 4 * head + 4))
    return q + [D + r for r in q]


@pytest.mark.parametrize("spec", ["encoder_self:1:2", "decoder_self:0:3", "cross:1:0"])
def test_only_the_heads_query_and_key_rows_come_from_the_donor(spec):
    head = Head.parse(spec, form="cli")
    base, donor = _model(0), _model(1)
    before = {k: v.clone() for k, v in base.state_dict().items()}
    out = graft_head_qk(base, donor, head).state_dict()
    dn = donor.state_dict()
    rows = _rows(head.head)
    others = [r for r in range(3 * D) if r not in rows]  # every other head's Q/K and all V rows
    for name, value in out.items():
        if name.startswith(head.path + ".in_proj."):
            assert torch.equal(value[rows], dn[name][rows])
            assert torch.equal(value[others], before[name][others])
            assert not torch.equal(value, before[name])
        else:
            assert torch.equal(value, before[name]), name


def test_a_donor_that_differs_only_there_makes_the_base_the_donor():
    """The graft's point: a run that trained only a head's Q/K rows hands over all it learned."""
    head = Head.parse("encoder_self:1:1", form="cli")
    base, donor = _model(0), _model(0)
    with torch.no_grad():
        donor.state_dict()[head.path + ".in_proj.weight"][_rows(1)] += 0.5
    g = torch.Generator().manual_seed(3)
    src, tgt = torch.randint(4, 60, (2, 7), generator=g), torch.randint(4, 60, (2, 5), generator=g)
    with torch.no_grad():
        assert not torch.allclose(base(src, tgt), donor(src, tgt))
        graft_head_qk(base, donor, head)
        torch.testing.assert_close(base(src, tgt), donor(src, tgt), rtol=0, atol=0)


def test_a_head_outside_the_model_and_another_shape_are_refused():
    with pytest.raises(ValueError, match="not a head of this model"):
        graft_head_qk(_model(0), _model(1), Head.parse("encoder_self:2:0", form="cli"))
    with pytest.raises(ValueError, match="model shape differs"):
        graft_head_qk(_model(0), _model(1, d_ff=64), Head.parse("encoder_self:0:0", form="cli"))


def test_the_command_keeps_float16_weights_bit_for_bit(tmp_path, capsys):
    tok = Tokenizer.train(CORPUS, vocab_size=60)
    base, donor = _model(0, tok.vocab_size), _model(1, tok.vocab_size)
    train = {"task": "copy", "extra": {}}
    save_checkpoint(tmp_path / "base", base, tok, train_config=train, weights_dtype="float16")
    save_checkpoint(tmp_path / "donor", donor, tok, train_config=train, weights_dtype="float16")
    assert main(["--base", str(tmp_path / "base"), "--donor", str(tmp_path / "donor"),
                 "--head", "encoder_self:0:1", "--out", str(tmp_path / "g")]) == 0
    out = capsys.readouterr().out
    assert "(float16)" in out
    # the message names the folders as given (two runs' averages often share a last name)
    assert f"{tmp_path / 'base'} with encoder_self:0:1's query and key rows from {tmp_path / 'donor'}" in out
    b, d, g = (load_checkpoint(tmp_path / n) for n in ("base", "donor", "g"))
    name = "encoder.layers.0.self_attn.in_proj.weight"
    gs, bs, ds = g.model.state_dict(), b.model.state_dict(), d.model.state_dict()
    assert torch.equal(gs[name][_rows(1)], ds[name][_rows(1)])
    bias = "encoder.layers.0.self_attn.in_proj.bias"
    assert torch.equal(gs[bias][_rows(1)], ds[bias][_rows(1)])
    assert all(torch.equal(gs[k], bs[k]) for k in gs if k not in (name, bias))
    assert g.train_config["extra"]["grafted"] == {"donor": str(tmp_path / "donor"),
                                                  "head": "encoder_self:0:1"}
    assert "python -m recipes.surgery.graft" in g.card
    assert '"weights_dtype": "float16"' in (tmp_path / "g" / "config.json").read_text()


def test_a_donor_with_another_vocabulary_is_refused_in_one_line(tmp_path, capsys):
    tok, other = Tokenizer.train(CORPUS, vocab_size=60), Tokenizer.train(CORPUS, vocab_size=50)
    save_checkpoint(tmp_path / "base", _model(0, tok.vocab_size), tok)
    save_checkpoint(tmp_path / "donor", _model(1, other.vocab_size), other)
    with pytest.raises(SystemExit) as e:
        main(["--base", str(tmp_path / "base"), "--donor", str(tmp_path / "donor"),
              "--head", "encoder_self:0:1", "--out", str(tmp_path / "g")])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "vocabulary differs" in err and "Traceback" not in err
    assert not (tmp_path / "g").exists()


def test_the_launcher_runs_the_command(tmp_path):
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "recipes.surgery.graft", "--base", str(tmp_path / "nope"),
                        "--donor", str(tmp_path / "nope"), "--head", "encoder_self:0:0",
                        "--out", str(tmp_path / "x")], capture_output=True, text=True)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
    assert r.stderr.startswith("python -m recipes.surgery.graft: error:")
