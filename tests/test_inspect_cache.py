"""The one checkpoint cache (ui/inspect_cache.py): every page's computations share one bound,
keyed by (checkpoint path, models.stamp(path)); a new weights file is computed afresh; pages hold
no cached functions; the Positional-encoding page reads weights under the inference lock."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from ui import inspect_cache as IC
from ui import models

ROOT = Path(__file__).resolve().parents[1]
CALLS: list[tuple] = []


@IC.per_checkpoint
def _page_a(ck, i: int):
    CALLS.append(("a", i))
    return ("a", i)


@IC.per_checkpoint
def _page_b(ck, i: int):
    CALLS.append(("b", i))
    return ("b", i)


@pytest.fixture(autouse=True)
def empty_cache():
    IC.clear()
    CALLS.clear()
    yield
    IC.clear()


def test_one_bound_holds_across_pages(small_checkpoint, monkeypatch):
    """Every page's entries share one byte budget: two pages fill it together, and the least
    recently used entry goes first when a trace page's entry comes in."""
    from ui.serving.byte_cache import ByteCache

    def weigh(value):  # the pages' entries 1,000 bytes each, the rest nothing
        return 1_000 if isinstance(value, tuple) and value[0] in ("a", "b") else 0

    monkeypatch.setattr(IC, "CACHE", ByteCache(10_000, weigh=weigh, weigh_key=lambda k: 0))
    for i in range(5):  # two "pages" fill the one cache together: 10 entries of 1,000 bytes
        _page_a(small_checkpoint, i)
        _page_b(small_checkpoint, i)
    assert len(CALLS) == 10
    for i in range(5):  # all of them are held
        assert _page_a(small_checkpoint, i) == ("a", i) and _page_b(small_checkpoint, i) == ("b", i)
    assert len(CALLS) == 10
    _page_a(small_checkpoint, 99)  # one more entry than the budget holds
    _page_a(small_checkpoint, 0)  # the least recently used entry (page a's first) was dropped
    assert len(CALLS) == 12
    IC.clear()  # one clear empties every page's entries
    _page_b(small_checkpoint, 4)
    assert CALLS[-1] == ("b", 4)


def test_a_trace_is_served_from_the_cache_and_weighed(small_checkpoint):
    tr = IC.inspect(small_checkpoint, "a dog runs")
    again = IC.inspect(small_checkpoint, "a dog runs")
    key = "encoder.layers.0.self_attn.weights"
    assert again.trace[key] is tr.trace[key]  # the same tensors: computed once
    assert IC.CACHE.stats()["bytes"] >= sum(v.numel() * v.element_size()
                                            for v in tr.trace.values())


def test_a_new_weights_file_is_computed_afresh(small_checkpoint):
    weights = small_checkpoint / "model.safetensors"
    _page_a(small_checkpoint, 1)
    tr = IC.inspect(small_checkpoint, "a dog runs")
    _page_a(small_checkpoint, 1)
    assert len(CALLS) == 1
    st = os.stat(weights)
    try:
        os.utime(weights, (st.st_atime, st.st_mtime + 10))  # a retrained checkpoint: a new stamp
        assert models.stamp(small_checkpoint) != st.st_mtime
        _page_a(small_checkpoint, 1)
        assert len(CALLS) == 2
        key = "encoder.layers.0.self_attn.weights"
        assert IC.inspect(small_checkpoint, "a dog runs").trace[key] is not tr.trace[key]
    finally:
        os.utime(weights, (st.st_atime, st.st_mtime))


def test_pages_hold_no_cached_functions():
    for page in sorted((ROOT / "pages").glob("*.py")):
        assert not re.search(r"cache_data|cache_resource", page.read_text()), page.name
    for mod in sorted((ROOT / "ui").rglob("*.py")):  # checkpoint-keyed caching is in one place
        if mod.name not in ("inspect_cache.py", "models.py", "lesson_cache.py"):
            assert not re.search(r"cache_data|cache_resource", mod.read_text()), mod.name


def test_positional_rows_are_read_under_the_inference_lock(small_checkpoint, monkeypatch):
    from ui import positional_encoding_compute as PC

    seen = []

    def spy(fn, *args, **kwargs):
        seen.append(fn)
        return real(fn, *args, **kwargs)

    real = models.run_inference
    monkeypatch.setattr(models, "run_inference", spy)
    rows = PC.embedding_rows(small_checkpoint, "a dog runs")
    assert seen and rows["scaled"].shape == rows["pe"].shape
    assert len(rows["labels"]) == rows["scaled"].shape[0] and rows["notes"] == []
    long = PC.embedding_rows(small_checkpoint, "dog " * 500)
    cfg = models.get_checkpoint(str(small_checkpoint)).model_config
    assert [n.code for n in long["notes"]] == ["source_cut"] and long["notes"][0].params["n"] == cfg.max_len
