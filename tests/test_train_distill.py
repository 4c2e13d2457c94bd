"""--distill-from (transformer/train/distill.py): the KL term against an independent computation,
zero and without pull at the teacher, and the CLI's wiring and refusals."""
from __future__ import annotations

import math

import pytest
import torch

from transformer.train.distill import distill_loss, frozen


def _kl_by_hand(s, t, target, pad):
    total, n = 0.0, 0
    for b in range(s.shape[0]):
        for i in range(s.shape[1]):
            if int(target[b, i]) == pad:
                continue
            ps = [math.exp(x) for x in s[b, i].tolist()]
            pt = [math.exp(x) for x in t[b, i].tolist()]
            zs, zt = sum(ps), sum(pt)
            total += sum((q / zt) * (math.log(q / zt) - math.log(p / zs)) for p, q in zip(ps, pt))
            n += 1
    return total / n


def test_kl_matches_a_hand_computation_and_skips_padding():
    g = torch.Generator().manual_seed(3)
    s, t = torch.randn(2, 4, 7, generator=g), torch.randn(2, 4, 7, generator=g)
    target = torch.tensor([[5, 6, 0, 0], [1, 2, 3, 0]])
    got = float(distill_loss(s, t, target, pad_id=0))
    assert got == pytest.approx(_kl_by_hand(s, t, target, 0), rel=1e-5)
    assert got > 0
    assert float(distill_loss(t, t, target, pad_id=0)) == pytest.approx(0.0, abs=1e-6)
    assert float(distill_loss(s, t, torch.zeros(2, 4, dtype=torch.long), pad_id=0)) == 0.0


def test_no_pull_at_the_teacher_and_a_pull_toward_it_elsewhere():
    t = torch.randn(1, 3, 5)
    s = t.clone().requires_grad_(True)
    distill_loss(s, t, torch.ones(1, 3, dtype=torch.long), pad_id=0).backward()
    assert float(s.grad.abs().max()) < 1e-6
    s2 = torch.zeros(1, 3, 5, requires_grad=True)
    loss = distill_loss(s2, t, torch.ones(1, 3, dtype=torch.long), pad_id=0)
    loss.backward()
    with torch.no_grad():  # a small step against the gradient lowers the KL
        assert float(distill_loss(s2 - 0.1 * s2.grad, t, torch.ones(1, 3, dtype=torch.long), 0)) < float(loss)


def test_teacher_is_frozen_and_in_eval_mode():
    m = frozen(torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Dropout(0.5)))
    assert not m.training and not any(p.requires_grad for p in m.parameters())


def test_cli_hands_the_trainer_a_frozen_teacher_records_it_and_resumes_it(tmp_path,
                                                                         small_checkpoint):
    """The teacher reaches the Trainer frozen with its weight; the run's config records the
    setting, and --resume loads the teacher again."""
    from transformer.core.checkpoint import load_checkpoint
    from transformer.train.cli import run
    seen = []
    out = tmp_path / "d"
    common = ["--task", "copy", "--eval-every", "100", "--batch-tokens", "256", "--threads", "1",
              "--out", str(out), "--checkpoint-every", "2"]
    run(common + ["--init", str(small_checkpoint), "--steps", "2", "--distill-from",
                  str(small_checkpoint), "--distill-weight", "0.5"],
        callbacks={"on_start": [lambda tr: seen.append(tr.teacher)]})
    teacher, weight = seen[0]
    assert weight == 0.5 and not teacher.training
    ck = load_checkpoint(out / "checkpoints" / "last")
    assert ck.train_config["extra"]["distill"] == {"checkpoint": str(small_checkpoint), "weight": 0.5}
    seen.clear()
    run(common + ["--resume", "--steps", "4"], callbacks={"on_start": [lambda tr: seen.append(tr.teacher)]})
    assert seen[0] is not None and seen[0][1] == 0.5


def test_cli_refuses_another_vocabulary_a_missing_teacher_and_a_bad_weight(tmp_path, small_checkpoint,
                                                                            trained_checkpoint):
    from transformer.train.cli import run
    from transformer.train.corpus import UsageError
    base = ["--task", "copy", "--steps", "1", "--threads", "1", "--init", str(small_checkpoint)]
    with pytest.raises(UsageError, match="another vocabulary"):
        run(base + ["--distill-from", str(trained_checkpoint), "--out", str(tmp_path / "a")])
    with pytest.raises(UsageError, match="--distill-from"):
        run(base + ["--distill-from", str(tmp_path / "nope"), "--out", str(tmp_path / "b")])
    with pytest.raises(UsageError, match="distill-weight"):
        run(base + ["--distill-from", str(small_checkpoint), "--distill-weight", "-1",
                    "--out", str(tmp_path / "c")])
