"""Decoding: incremental equals teacher-forced, beam 1 equals greedy, the length penalty."""
from __future__ import annotations

import pytest
import torch

from helpers import peaked_model as _peaked_model
from transformer.core.decode import (beam_search, default_max_len, final_trace, greedy, greedy_batch,
                                     length_penalty, sample)
from transformer.core.masks import padding_mask


SRC = [5, 9, 11, 7, 2]


def test_incremental_decoding_equals_teacher_forcing():
    m = _peaked_model()
    res = greedy(m, SRC, max_len=10, topk=5)
    out = res.tokens
    assert len(out) >= 3
    src = torch.tensor([SRC])
    tgt = torch.tensor([[1] + out])
    with torch.no_grad():
        full = torch.softmax(m(src, tgt)[0], -1)  # (T,V)
    for t, step in enumerate(res.steps):
        assert step.chosen == int(full[t].argmax())
        assert abs(step.top_probs[0] - float(full[t].max())) < 1e-5
        # cached step logits vs full pass, position by position
    cache = m.new_cache()
    with torch.no_grad():
        mem = m.encode(src, padding_mask(src, 0))
        for t in range(tgt.size(1)):
            h = m.decode(tgt[:, t:t + 1], mem, padding_mask(src, 0), None, cache, start=t)
            step = torch.softmax(m.generator(h)[0, -1], -1)
            assert (step - full[t]).abs().max() < 1e-5


def test_beam_one_equals_greedy():
    m = _peaked_model()
    for seed in range(6):
        g = torch.Generator().manual_seed(seed)
        src = torch.randint(4, 30, (6,), generator=g).tolist() + [2]
        assert beam_search(m, src, beam=1, max_len=15).tokens == greedy(m, src, 15).tokens
        assert greedy_batch(m, [src], 15)[0] == greedy(m, src, 15).tokens


def test_beam_finds_at_least_greedys_score():
    m = _peaked_model()
    g = greedy(m, SRC, max_len=12)
    b = beam_search(m, SRC, beam=5, alpha=0.0, max_len=12)
    if g.finished and b.finished:
        assert b.score >= g.score - 1e-5


def test_greedy_batch_with_padding_matches_single():
    m = _peaked_model()
    batch = [SRC, [6, 7, 2], [8, 9, 10, 11, 12, 13, 2]]
    got = greedy_batch(m, batch, 10)
    assert got == [greedy(m, s, 10).tokens for s in batch]


def test_length_penalty_and_limits():
    assert length_penalty(1, 0.0) == 1.0
    assert abs(length_penalty(7, 0.6) - (12 / 6) ** 0.6) < 1e-12
    m = _peaked_model()
    assert default_max_len(m, 10) == 60
    with pytest.raises(ValueError):
        beam_search(m, SRC, beam=0)
    with pytest.raises(ValueError, match="empty"):
        greedy(m, [])


def test_sampling_is_seeded_and_top1_is_greedy():
    m = _peaked_model()
    a = sample(m, SRC, temperature=1.0, seed=4, max_len=10).tokens
    assert a == sample(m, SRC, temperature=1.0, seed=4, max_len=10).tokens
    assert sample(m, SRC, top_k=1, seed=9, max_len=10).tokens == greedy(m, SRC, 10).tokens
    with pytest.raises(ValueError):
        sample(m, SRC, temperature=0)


def test_trace_of_final_pass():
    m = _peaked_model()
    res = greedy(m, SRC, max_len=8, return_trace=True)
    w = res.trace["decoder.layers.0.cross_attn.weights"]
    assert w.shape == (1, 4, len(res.tokens) + 1, len(SRC))
    assert torch.equal(final_trace(m, SRC, res.tokens)["logits"], res.trace["logits"])
