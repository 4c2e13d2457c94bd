"""The Decode page's runners-up column: a trained model gives its runners-up tiny probabilities,
which two decimals wrote as "0.00" on every row (issue 11). Checked on the shipped copy model
against probabilities computed independently from the model's logits."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import torch

from transformer.core.checkpoint import load_checkpoint
from transformer.core.decode import final_trace, greedy
from transformer.core.text import source_ids
from viz import decode as V

CK = Path(__file__).resolve().parents[1] / "checkpoints" / "copy-tiny"


def test_format_p():
    assert V.format_p(0.41234) == "0.412" and V.format_p(0.01) == "0.010"
    assert V.format_p(0.00123) == "1.2e-03"
    assert V.format_p(0.000321) == "3.2e-04" and V.format_p(3.2e-9) == "3.2e-09"
    assert V.format_p(0) == "0" and V.format_p(1.0) == "1.000"


def test_runners_up_of_a_confident_model_are_not_all_zero():
    ck = load_checkpoint(CK)
    src = source_ids(ck.tokenizer, "g s j a c e", ck.model.cfg.max_len)[0]
    res = greedy(ck.model, src)
    assert res.finished
    out_ids = res.tokens + [ck.model.cfg.eos_id]
    logits = final_trace(ck.model, src, res.tokens)["logits"][0]  # (T,V)
    table = V.steps_table(logits, out_ids, ck.tokenizer.display)
    # independent: the model's forward pass, softmax in float64
    with torch.inference_mode():
        z = ck.model(torch.tensor([src]), torch.tensor([[ck.model.cfg.bos_id] + res.tokens]))[0]
    probs = torch.softmax(z.double(), -1)
    values = []
    for t, cell in enumerate(table["runners_up"]):
        parts = re.findall(r"(\S+) (\d\.\d+(?:e-\d+)?|0)(?:, |$)", cell)
        assert len(parts) == 3, cell
        order = [i for i in torch.argsort(probs[t], descending=True, stable=True).tolist()
                 if i != out_ids[t]][:3]
        for (label, shown), i in zip(parts, order):
            assert label == ck.tokenizer.display([i])[0]
            want = float(probs[t, i])
            assert float(shown) == pytest.approx(want, rel=0.06, abs=5e-4), (cell, want)
            values.append(shown)
    assert table["p"].min() > 0.85  # the model is sure of every token it writes ...
    assert any(f"{float(v):.2f}" == "0.00" for v in values)  # (two decimals hid these) ...
    assert not any(v in ("0.00", "0.000", "0") for v in values)  # ... yet its runners-up show
