"""ui/warmup.py: the per-checkpoint numbers a class asks for first are measured once, in the
background, through the same cached calls the pages make, so the pages find them."""
from __future__ import annotations

import json
import shutil
import time

import pytest

from ui import heads_compute, inspect_cache, warmup


def test_jobs_of_the_default_model_are_what_its_pages_ask_for():
    path = "checkpoints/everyday-en-de"
    jobs = warmup.jobs(path)
    # the callout: the model whole, then each pronoun head the card names switched off
    assert jobs[0] == ("pronoun_accuracy", ())
    assert ("pronoun_accuracy", ("enc L2 H0",)) in jobs
    assert ("pronoun_accuracy", ("dec L2 H6",)) in jobs
    # the Heads page's opening sweep: the hand-written sentences, as the page opens
    assert jobs[-1] == ("anaphora", (heads_compute.default_source("everyday"), 0, "everyday"))
    assert heads_compute.default_source("everyday") == "natural"
    assert heads_compute.default_source("anaphora") == "heldout"


def test_a_model_without_pronouns_has_nothing_to_warm():
    assert warmup.jobs("checkpoints/copy-tiny") == []


def test_after_the_warm_up_the_pages_calls_measure_nothing(monkeypatch, tmp_path,
                                                           trained_checkpoint):
    """Run on an anaphora model with a featured head: afterwards the callout's and the Heads
    page's calls are cache hits (the measuring functions are not called again), and the callout
    (no n) and the Heads page (the default n) share one measurement."""
    from transformer.probing import heads as H
    from transformer.probing import pronouns

    ck = tmp_path / "anaphora-tiny"
    shutil.copytree(trained_checkpoint, ck)
    hist = json.loads((ck / "history.json").read_text())
    hist["featured_head"] = {"kind": "encoder_self", "layer": 0, "head": 1,
                             "also": [{"kind": "decoder_self", "layer": 1, "head": 0}]}
    (ck / "history.json").write_text(json.dumps(hist))
    path = str(ck)
    assert warmup.run(path) == 4  # whole, two heads off, the sweep
    calls = {"acc": 0, "sweep": 0}
    real_acc, real_sweep = pronouns.pronoun_accuracy, H.score_anaphora

    def counting_acc(*a, **k):
        calls["acc"] += 1
        return real_acc(*a, **k)

    def counting_sweep(*a, **k):
        calls["sweep"] += 1
        return real_sweep(*a, **k)

    monkeypatch.setattr(pronouns, "pronoun_accuracy", counting_acc)
    monkeypatch.setattr(H, "score_anaphora", counting_sweep)
    whole = inspect_cache.pronoun_accuracy(path)
    assert inspect_cache.pronoun_accuracy(path, inspect_cache.PROBE_N) is whole
    inspect_cache.pronoun_accuracy(path, ablate=("enc L0 H1",))
    inspect_cache.pronoun_accuracy(path, ablate=("dec L1 H0",))
    heads_compute.anaphora(path, "heldout", heads_compute.DEFAULT_N, None, None, "anaphora")
    assert calls == {"acc": 0, "sweep": 0}
    inspect_cache.pronoun_accuracy(path, ablate=("enc L0 H0",))  # not warmed: measured now
    assert calls["acc"] == 1


def test_started_once_per_weights_file(monkeypatch, tmp_path):
    ran = []
    monkeypatch.setattr(warmup, "_run_logged", lambda p: ran.append(p))
    monkeypatch.setattr(warmup, "_started", set())
    assert warmup.start("checkpoints/copy-tiny")
    assert not warmup.start("checkpoints/copy-tiny")
    assert not warmup.start(None)
    deadline = time.monotonic() + 10
    while not ran and time.monotonic() < deadline:
        time.sleep(0.01)
    assert ran == ["checkpoints/copy-tiny"]


def test_a_failed_warm_up_is_logged_not_raised(monkeypatch, caplog):
    def broken(path):
        raise RuntimeError("no such model")

    monkeypatch.setattr(warmup, "run", broken)
    with caplog.at_level("WARNING"):
        warmup._run_logged("nowhere")
    assert "warm-up of nowhere failed" in caplog.text
