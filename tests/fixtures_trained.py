"""A small trained anaphora checkpoint for page tests (decode, heads, ablation).

Trained once per test session, in-process, through `transformer.train.run` (the CLI's Python entry
point) on one thread: a d_model-32 model for a few hundred steps, ~20-40 s on the shared CPU. It is
not good at the task, but it has learned enough that its outputs depend on its attention heads
(ablating every cross-attention head changes them), which is what the tests need.

Use from a test module:  `from fixtures_trained import trained_checkpoint  # noqa: F401`
"""
from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

STEPS = int(os.environ.get("ATTENTION_LAB_FIXTURE_STEPS", "400"))
ARGS = ["--task", "anaphora", "--d-model", "32", "--heads", "4", "--layers", "2", "--d-ff", "64",
        "--dropout", "0", "--vocab-size", "200", "--batch-tokens", "1024", "--warmup", "150",
        "--lr-scale", "1.0", "--eval-every", "100000", "--checkpoint-every", "100000",
        "--eval-sentences", "20", "--log-every", "100", "--threads", "1", "--device", "cpu",
        "--seed", "0"]


def train_tiny_anaphora(out: Path, steps: int = STEPS) -> tuple[Path, float]:
    """Train into run directory `out`; returns (checkpoint dir, seconds)."""
    import contextlib
    import io

    import torch

    from transformer import train

    threads = torch.get_num_threads()
    t0 = time.time()
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            state = train.run(ARGS + ["--steps", str(steps), "--out", str(out)])
    finally:
        torch.set_num_threads(threads)
    ck = out / "checkpoints" / "last"
    assert (ck / "model.safetensors").is_file(), f"training ended in state {state}, no checkpoint"
    return ck, time.time() - t0


@pytest.fixture(scope="session")
def trained_checkpoint(tmp_path_factory) -> Path:
    """Path of the trained checkpoint (read-only: copy it before changing anything)."""
    out = tmp_path_factory.mktemp("trained") / "run"
    ck, _ = train_tiny_anaphora(out)
    return ck


@pytest.fixture
def trained_dir(tmp_path, trained_checkpoint) -> Path:
    """A shipped-checkpoints folder holding a copy of the trained checkpoint as 'anaphora-tiny'."""
    d = tmp_path / "shipped"
    d.mkdir()
    shutil.copytree(trained_checkpoint, d / "anaphora-tiny")
    return d
