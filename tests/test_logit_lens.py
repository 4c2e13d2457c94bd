"""The logit lens (transformer/probing/logit_lens.py, issue 52): the last decoder layer's top
pieces are the model's own greedy output, on every shipped translation model and on copy-tiny;
the shape of its JSON."""
from __future__ import annotations

from pathlib import Path

import pytest

from transformer.core.checkpoint import load_checkpoint
from transformer.probing.inspect import inspect_text
from transformer.probing.logit_lens import logit_lens

CHECKPOINTS = Path(__file__).resolve().parents[1] / "checkpoints"
SHIPPED = {"anaphora-en-de": "The dog saw the cup because it was hungry .",
           "classroom-en-de": "A woman reads a newspaper because she is bored .",
           "everyday-en-de": "I get up at seven o'clock every day .",
           "multi30k-en-de": "A man in a blue shirt is riding a bike down the street .",
           "copy-tiny": "a b c d e"}


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_last_layer_is_the_greedy_output(name):
    path = CHECKPOINTS / name
    if not (path / "model.safetensors").is_file():
        pytest.skip(f"{name} is not shipped here")
    ck = load_checkpoint(path)
    ins = inspect_text(ck.model, ck.tokenizer, SHIPPED[name])  # greedy output, then one pass
    lens = logit_lens(ck.model, ck.tokenizer, ins, k=5)
    cfg = ck.model.cfg
    assert len(lens) == cfg.n_decoder_layers
    assert all(len(layer) == len(ins.tgt_ids) for layer in lens)
    pieces = ins.tgt_ids[1:]  # decoder position t writes output piece t
    top = [pos[0]["id"] for pos in lens[-1]]
    assert top[:len(pieces)] == pieces
    if len(pieces) < cfg.max_len - 2:  # greedy stopped on </s>: the last position writes it
        assert top[len(pieces)] == cfg.eos_id
    assert [pos[0]["piece"] for pos in lens[-1]][:len(pieces)] == ck.tokenizer.display(pieces)
    for layer in lens:
        for pos in layer:
            assert 1 <= len(pos) <= 5
            probs = [p["prob"] for p in pos]
            assert probs == sorted(probs, reverse=True) and 0 <= probs[-1] and probs[0] <= 1


def test_k_and_plain_ids(tiny_model):

    class Tok:
        def display(self, ids):
            return [f"t{i}" for i in ids]

    lens = logit_lens(tiny_model, Tok(), ([5, 6, 7, 2], [1, 8, 9]), k=2)
    assert len(lens) == 2 and len(lens[0]) == 3 and len(lens[0][0]) == 2
    assert set(lens[0][0][0]) == {"piece", "id", "prob"}
    with pytest.raises(ValueError):
        logit_lens(tiny_model, Tok(), ([5, 2], [1]), k=6)


def test_pre_ln_goes_through_the_final_norm():
    """A pre-LN model's last layer, through the final norm and the generator, is its logits."""
    import torch

    from helpers import tiny_config
    from transformer.core.model import Transformer
    from transformer.probing.logit_lens import lens_probs

    torch.manual_seed(0)
    model = Transformer(tiny_config(norm_first=True)).eval()
    src, tgt = [5, 6, 7, 2], [1, 8, 9, 10]
    probs = lens_probs(model, src, tgt)
    with torch.inference_mode():
        want = torch.softmax(model(torch.tensor([src]), torch.tensor([tgt]))[0], -1)
    assert torch.allclose(probs[-1], want, atol=1e-5)


def test_inspect_json_carries_the_logit_lens():
    """`python -m transformer.inspect --json` has "logit_lens": per decoder layer, per output
    position, the top pieces with probabilities; its last layer's top pieces are the output."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-m", "transformer.inspect", "--checkpoint",
                          str(root / "checkpoints" / "copy-tiny"), "--text", "a b c d", "--json"],
                         cwd=root, capture_output=True, text=True, check=True).stdout
    got = json.loads(out)
    lens = got["logit_lens"]
    assert len(lens) == 2  # copy-tiny: two decoder layers
    last = lens[-1]
    tops = [row[0]["piece"] for row in last]
    assert all(0 <= e["prob"] <= 1 for row in last for e in row)
    assert tops[:len(got["target_tokens"]) - 1] == got["target_tokens"][1:len(tops) + 1]
