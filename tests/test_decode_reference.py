"""The Decode page's reference for the symbol tasks is the task's own target.

The sort task (transformer.data.tasks.TASKS["sort"]) orders symbols by their index in the task's
alphabet: a..z, then aa, ab, ... With a vocabulary over 26 this is not alphabetical ("aa" comes
after "z"); the page used to sort alphabetically. Checked against the generator's own targets.
"""
from __future__ import annotations

import pytest
import torch

from app_helpers import no_errors, open_pinned, rerun
from transformer.data.tasks import load_task
from viz import decode as V


@pytest.mark.parametrize("task", ["copy", "reverse", "sort"])
@pytest.mark.parametrize("vocab", [None, 20, 40, 80])
def test_reference_is_the_generators_target(task, vocab):
    opts = {} if vocab is None else {"vocab": vocab}
    held = load_task(task, "test", n=300, **opts)
    for e in held:
        assert V.task_reference(task, e.src, opts) == e.tgt, (e.src, e.tgt)


def test_sort_is_not_alphabetical_past_26_symbols():
    """The case the alphabetical reference got wrong, found in the generator's own data."""
    held = load_task("sort", "test", n=300, vocab=40)
    differs = [e for e in held if " ".join(sorted(e.src.split())) != e.tgt]
    assert differs  # so the check above would have caught an alphabetical reference
    assert V.task_reference("sort", "b aa z a", {"vocab": 40}) == "a b z aa"


def test_reference_edge_cases():
    assert V.task_reference("sort", "c hello a b", {}) == "a b c hello"  # unknown word last
    assert V.task_reference("sort", "b a", {"vocab": "many"}) == "a b"  # malformed: the default
    assert V.task_reference("sort", "b a", {"vocab": 10 ** 6}) == "a b"
    assert V.task_reference("anaphora", "The dog saw it .", {}) is None
    assert V.task_reference(None, "x", None) is None
    assert V.task_options({"extra": {"task_opts": {"vocab": 40}}}) == {"vocab": 40}
    for bad in (None, {}, {"extra": None}, {"extra": []}, {"extra": {"task_opts": [1]}}, []):
        assert V.task_options(bad) == {}


@pytest.fixture
def sort_dir(tmp_path, tokenizer):
    """An (untrained) sort checkpoint trained with --task-opt vocab=40, as the page sees it."""
    from helpers import tiny_config
    from transformer.core.checkpoint import save_checkpoint
    from transformer.core.model import Transformer

    torch.manual_seed(0)
    model = Transformer(tiny_config(vocab_size=tokenizer.vocab_size, max_len=64)).eval()
    d = tmp_path / "shipped"
    save_checkpoint(d / "sort-tiny", model, tokenizer,
                    train_config={"task": "sort", "extra": {"task_opts": {"vocab": 40}}})
    return d


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_offers_the_tasks_sorted_target(monkeypatch, tmp_path, sort_dir, lang):
    at = open_pinned(monkeypatch, sort_dir, tmp_path, "pages/decode.py", lang=lang)
    no_errors(at)
    at.text_input(key="decode_text").set_value("b aa z a")
    rerun(at)
    no_errors(at)
    assert at.text_input(key="decode_target").value == "a b z aa"
