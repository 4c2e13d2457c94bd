"""The warmup schedule and the token-budget batcher."""

import pytest
import torch

from transformer.train.batching import TokenBatcher, collate, plan_batches
from transformer.train.schedule import curve, lambda_for, noam_lr, peak_lr


def test_noam_formula_and_peak():
    d, w = 512, 4000
    for step in (1, 10, 3999, 4000, 4001, 100000):
        want = d ** -0.5 * min(step ** -0.5, step * w ** -1.5)
        assert noam_lr(step, d, w) == pytest.approx(want, rel=1e-12)
    assert noam_lr(0, d, w) == noam_lr(1, d, w)  # step counts from 1
    assert peak_lr(d, w) == pytest.approx((d * w) ** -0.5)
    assert noam_lr(2 * w, d, w, lr_scale=2.0) == pytest.approx(2 * noam_lr(2 * w, d, w))


def test_schedule_rises_linearly_then_decays_as_inverse_sqrt():
    d, w = 64, 100
    rates = [noam_lr(s, d, w) for s in range(1, 400)]
    peak = max(range(len(rates)), key=rates.__getitem__) + 1
    assert peak == w
    assert noam_lr(50, d, w) == pytest.approx(noam_lr(25, d, w) * 2)
    assert noam_lr(400, d, w) == pytest.approx(noam_lr(100, d, w) / 2)


def test_lambda_lr_matches_manual():
    model = torch.nn.Linear(2, 2)
    opt = torch.optim.Adam(model.parameters(), lr=1.0)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda_for(32, 10, 0.5))
    for step in range(1, 30):
        assert opt.param_groups[0]["lr"] == pytest.approx(noam_lr(step, 32, 10, 0.5))
        opt.step()
        sched.step()


def test_curve_and_bad_values():
    steps, rates = curve(1000, 64, 100)
    assert steps[0] == 1 and steps[-1] == 1000 and 100 in steps
    assert max(rates) == pytest.approx(peak_lr(64, 100))
    with pytest.raises(ValueError, match="warmup"):
        curve(10, 64, 0)
    with pytest.raises(ValueError, match="lr_scale"):
        curve(10, 64, 10, lr_scale=-1)


def test_batches_respect_budget_cover_everything_and_group_lengths():
    g = torch.Generator().manual_seed(0)
    src = torch.randint(1, 30, (500,), generator=g).tolist()
    tgt = torch.randint(1, 30, (500,), generator=g).tolist()
    plan = plan_batches(src, tgt, 256, seed=3, epoch=0)
    assert sorted(i for b in plan for i in b) == list(range(500))
    for b in plan:
        cost = len(b) * (max(src[i] for i in b) + max(tgt[i] for i in b) + 1)
        assert cost <= 256 or len(b) == 1
        assert max(src[i] for i in b) - min(src[i] for i in b) <= 2  # similar lengths
    assert plan == plan_batches(src, tgt, 256, seed=3, epoch=0)
    assert plan != plan_batches(src, tgt, 256, seed=3, epoch=1)  # reshuffled per epoch


def test_batcher_state_restores_position_and_shards_ranks():
    lens = [3, 5, 7, 9, 4, 6, 8, 2] * 10
    a = TokenBatcher(lens, lens, 64, seed=1)
    first = [next(a) for _ in range(25)]  # crosses an epoch boundary
    state = a.state_dict()
    rest = [next(a) for _ in range(10)]
    b = TokenBatcher(lens, lens, 64, seed=1)
    b.load_state_dict(state)
    assert [next(b) for _ in range(10)] == rest
    r0 = TokenBatcher(lens, lens, 64, seed=1, rank=0, world_size=2)
    r1 = TokenBatcher(lens, lens, 64, seed=1, rank=1, world_size=2)
    assert r0.batches_per_epoch() == r1.batches_per_epoch()
    s0 = {i for _ in range(r0.batches_per_epoch()) for i in next(r0)}
    s1 = {i for _ in range(r1.batches_per_epoch()) for i in next(r1)}
    assert not s0 & s1
    assert first


def test_collate_shifts_targets_and_pads():
    src, tgt = [[5, 6, 7, 2], [8, 2]], [[9, 10], [11, 12, 13]]
    b = collate(src, tgt, [0, 1], pad_id=0, bos_id=1, eos_id=2)
    assert b.src.tolist() == [[5, 6, 7, 2], [8, 2, 0, 0]]
    assert b.tgt_in.tolist() == [[1, 9, 10, 0], [1, 11, 12, 13]]
    assert b.tgt_out.tolist() == [[9, 10, 2, 0], [11, 12, 13, 2]]
    assert b.src_tokens == 6 and b.tgt_tokens == 7
