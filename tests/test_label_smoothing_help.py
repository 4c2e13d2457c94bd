"""The Train page's help for label smoothing states what the trainer's loss does.

The statement (English and Chinese): epsilon is spread over the whole vocabulary, the correct token
included: every one of the V tokens gets eps/V and the correct one 1 - eps + eps/V. The trainer's
loss (transformer.train.label_smoothed_loss) is cross-entropy against some target distribution q;
its gradient with respect to the logits is softmax(z) - q, so q can be read off the gradient, and
the loss must equal -sum(q * log softmax(z)). Both are checked against the formulas the help text
prints, evaluated from the text itself.
"""
from __future__ import annotations

import re

import pytest
import torch

from transformer.train.loop import label_smoothed_loss
from ui import i18n
from ui.strings import train as S


def _formulas(help_text: str) -> tuple[str, str]:
    """The two formulas the help prints: what every token gets and what the correct one gets."""
    assert "ε/V" in help_text, help_text
    m = re.search(r"1 − ε \+ ε/V", help_text)
    assert m, help_text
    return "eps / V", "1 - eps + eps / V"


def _implied_target(eps: float, V: int = 11, target: int = 4, pad: int = 0):
    torch.manual_seed(0)
    z = torch.randn(1, 1, V, dtype=torch.float64, requires_grad=True)  # (B,T,V)
    loss = label_smoothed_loss(z, torch.tensor([[target]]), pad_id=pad, smoothing=eps)
    loss.backward()
    p = torch.softmax(z.detach()[0, 0], -1)
    q = p - z.grad[0, 0]  # d loss / d z = softmax(z) - q, for one row
    return z.detach()[0, 0], q, float(loss.detach())


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("eps", [0.1, 0.3])
def test_the_help_states_the_smoothed_target_the_loss_uses(lang, eps):
    text = i18n.text(S, "h_label_smoothing", lang)
    every, correct = _formulas(text)
    V, target, pad = 11, 4, 0
    z, q, loss = _implied_target(eps, V, target, pad)
    want_every = eval(every, {"eps": eps, "V": V})
    want_correct = eval(correct, {"eps": eps, "V": V})
    # the loss runs in float32: 1e-6
    for i in range(V):  # the pad column (a special token) gets its share too
        assert q[i].item() == pytest.approx(want_correct if i == target else want_every, abs=1e-6)
    assert q.sum().item() == pytest.approx(1.0, abs=1e-6)
    # the value: cross-entropy against that distribution, computed independently
    logp = z - torch.logsumexp(z, -1)
    qq = torch.full((V,), want_every, dtype=torch.float64)
    qq[target] = want_correct
    assert loss == pytest.approx(float(-(qq * logp).sum()), abs=1e-6)


def test_the_old_wrong_statement_is_gone():
    """The help used to say eps went to 'all other tokens' (the target would get exactly 1 - eps)."""
    assert "other tokens" not in S.EN["h_label_smoothing"]
    assert "其他所有词元" not in i18n.text(S, "h_label_smoothing", "zh")
    _, q, _ = _implied_target(0.1)
    assert q[4].item() != pytest.approx(0.9, abs=1e-6)  # the target keeps more than 1 - eps
