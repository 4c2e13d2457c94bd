"""The byte-bounded cache (ui/serving/byte_cache.py) and the compact, lazily completed trace behind
every page of a sentence (issue 48): the bound is in bytes, a trace keeps its weights and logits,
and any other key read from it equals the full recording's."""
from __future__ import annotations

import threading
import time

import numpy as np
import pytest
import torch

from transformer.core.checkpoint import load_checkpoint
from transformer.probing.inspect import (LazyTrace, compact, group_of, in_group, inspect_text,
                                         layer_groups, record_pass)
from ui.serving.byte_cache import ByteCache, nbytes


# -- weighing ---------------------------------------------------------------------------------------
def test_nbytes_counts_tensor_and_array_buffers_once():
    t = torch.zeros(1000, dtype=torch.float32)  # 4,000 bytes
    assert 4000 <= nbytes(t) < 4100
    assert 4000 <= nbytes({"a": t, "b": t[:10], "c": [t]}) < 5000  # views share one storage
    a = np.zeros((100, 10))  # 8,000 bytes
    assert 8000 <= nbytes([a, a[3:]]) < 8500
    big = {"x": torch.ones(256, 256), "y": np.ones(1000), "z": "é" * 10}
    assert nbytes(big) >= 256 * 256 * 4 + 8000 + 10


def test_nbytes_walks_dataclasses_and_objects():
    from dataclasses import dataclass

    @dataclass
    class Box:
        t: torch.Tensor
        more: list

    class Plain:
        def __init__(self):
            self.t = torch.zeros(500)

    assert nbytes(Box(torch.zeros(500), [torch.zeros(250)])) >= 3000
    assert nbytes(Plain()) >= 2000


# -- the cache --------------------------------------------------------------------------------------
def test_the_bound_is_bytes_and_the_least_recently_used_goes_first():
    c = ByteCache(10_000, weigh=lambda v: v, weigh_key=lambda k: 0)
    c.get_or_compute("a", lambda: 4000)
    c.get_or_compute("b", lambda: 4000)
    c.get_or_compute("a", lambda: pytest.fail("a is held"))  # a is now the most recent
    c.get_or_compute("c", lambda: 4000)  # 12,000 > 10,000: b goes
    assert "a" in c and "c" in c and "b" not in c
    assert c.bytes == 8000 and c.stats()["evictions"] == 1


def test_an_entry_larger_than_the_budget_is_returned_not_kept():
    c = ByteCache(1000, weigh=lambda v: v, weigh_key=lambda k: 0)
    c.get_or_compute("small", lambda: 500)
    assert c.get_or_compute("huge", lambda: 5000) == 5000
    assert "huge" not in c and "small" in c and c.stats()["too_big"] == 1


def test_errors_are_not_cached_and_reach_every_waiter():
    c = ByteCache(1000, weigh=lambda v: 1)
    calls = []

    def boom():
        calls.append(1)
        raise ValueError("bad text")

    for _ in range(2):
        with pytest.raises(ValueError):
            c.get_or_compute("k", boom)
    assert len(calls) == 2 and "k" not in c


def test_concurrent_callers_of_one_key_compute_once():
    c = ByteCache(1000, weigh=lambda v: 1)
    calls, out = [], []

    def slow():
        calls.append(1)
        time.sleep(0.2)
        return 42

    threads = [threading.Thread(target=lambda: out.append(c.get_or_compute("k", slow)))
               for _ in range(5)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert calls == [1] and out == [42] * 5


def test_budget_zero_keeps_nothing():
    c = ByteCache(0)
    assert c.get_or_compute("k", lambda: torch.zeros(10)).numel() == 10
    assert len(c) == 0


# -- the compact trace ------------------------------------------------------------------------------
def test_group_of_names_the_layer_or_the_outside():
    assert group_of("encoder.layers.2.self_attn.q") == "encoder.layers.2"
    assert group_of("decoder.layers.0.norm3.mean") == "decoder.layers.0"
    assert group_of("logits") == "" and group_of("encoder.pe") == ""
    assert in_group("decoder.layers.1")("decoder.layers.1.cross_attn.k")
    assert not in_group("decoder.layers.1")("decoder.layers.10.cross_attn.k")


@pytest.fixture(scope="module")
def copy_tiny():
    from pathlib import Path

    return load_checkpoint(Path(__file__).resolve().parents[1] / "checkpoints" / "copy-tiny")


def test_the_compact_trace_keeps_weights_and_logits_only(copy_tiny):
    ck = copy_tiny
    full = inspect_text(ck.model, ck.tokenizer, "a b c d")
    small = inspect_text(ck.model, ck.tokenizer, "a b c d", names=compact)
    assert set(small.trace) == {k for k in full.trace if k == "logits" or k.endswith(".weights")}
    for k in small.trace:
        assert torch.equal(small.trace[k], full.trace[k])
    full_bytes = sum(v.numel() * v.element_size() for v in full.trace.values())
    small_bytes = sum(v.numel() * v.element_size() for v in small.trace.values())
    assert small_bytes < full_bytes / 2


def test_a_lazy_trace_reads_every_key_as_the_full_recording_has_it(copy_tiny):
    ck = copy_tiny
    full = inspect_text(ck.model, ck.tokenizer, "a b c d")
    small = inspect_text(ck.model, ck.tokenizer, "a b c d", names=compact)
    loads = []

    def load(group):
        loads.append(group)
        return record_pass(ck.model, small.src_ids, small.tgt_ids, None, in_group(group))

    lazy = LazyTrace(small.trace, load, layer_groups(small.trace))
    for key, value in full.trace.items():
        assert key in lazy
        assert torch.equal(lazy[key], value), key
    assert sorted(loads) == sorted(layer_groups(small.trace))  # one pass per group, once
    assert "decoder.layers.9.self_attn.weights" not in lazy  # no such layer: no pass
    assert lazy.get("encoder.layers.9.self_attn.q") is None
    with pytest.raises(KeyError):
        lazy["decoder.layers.9.self_attn.q"]
    assert sorted(loads) == sorted(layer_groups(small.trace))
