"""Shared fixtures: tiny CPU models (d_model 16-32), a small checkpoint saved once, and a small
trained anaphora checkpoint (trained once per session, only when a test asks for it).
Plain helpers (CORPUS, tiny_config, ...) live in helpers.py: import them from there.
Tests that re-measure a shipped checkpoint's card or prose claims carry the `shipped` marker
(registered below): `python -m pytest -m shipped` runs the shipped-model checks alone,
`python -m pytest -m "not shipped"` the unit suite."""
from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "2")

import pytest
import torch
from helpers import CORPUS, shipped_folder, tiny_config, train_tiny_anaphora

torch.set_num_threads(2)


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "shipped: re-measures a shipped checkpoint's card or prose claims")


@pytest.fixture(autouse=True)
def _keep_main_module():
    """Streamlit's AppTest runs app.py as `__main__` and leaves it in sys.modules: a later
    multiprocessing child (the fault tests' forkserver) would then import app.py as its main
    module and die before training. Put the real one back after every test."""
    import sys

    main = sys.modules.get("__main__")
    yield
    if main is not None:
        sys.modules["__main__"] = main


@pytest.fixture(scope="session")
def tokenizer():
    from transformer.core.tokenizer import Tokenizer

    return Tokenizer.train(CORPUS * 4, vocab_size=300)


@pytest.fixture
def tiny_model():
    from transformer.core.model import Transformer

    torch.manual_seed(0)
    return Transformer(tiny_config()).eval()


@pytest.fixture(scope="session")
def small_checkpoint(tmp_path_factory, tokenizer):
    """A checkpoint with a real tokenizer; untrained weights are enough for format tests."""
    from transformer.core.checkpoint import save_checkpoint
    from transformer.core.model import Transformer

    torch.manual_seed(1)
    model = Transformer(tiny_config(vocab_size=tokenizer.vocab_size, d_model=32)).eval()
    path = tmp_path_factory.mktemp("ck") / "tiny"
    save_checkpoint(path, model, tokenizer, train_config={"task": "test"},
                    history={"loss": [1.0, 0.5]})
    return path


@pytest.fixture
def ck_dir(tmp_path, small_checkpoint):
    """A shipped-checkpoints folder holding a copy of the small checkpoint as "tiny-test"."""
    return shipped_folder(tmp_path, small_checkpoint, "tiny-test")


@pytest.fixture(scope="session")
def trained_checkpoint(tmp_path_factory):
    """Path of a small trained anaphora checkpoint (helpers.train_tiny_anaphora; read-only: copy
    it before changing anything)."""
    out = tmp_path_factory.mktemp("trained") / "run"
    ck, _ = train_tiny_anaphora(out)
    return ck


@pytest.fixture
def trained_dir(tmp_path, trained_checkpoint):
    """A shipped-checkpoints folder holding a copy of the trained checkpoint as 'anaphora-tiny'."""
    return shipped_folder(tmp_path, trained_checkpoint, "anaphora-tiny")


@pytest.fixture
def server(monkeypatch, tmp_path):
    """A server with a teacher token (tests' TOKEN, or the default below), runs under tmp_path,
    and a fake clock (no sleeping); role and audit-limit state reset before and after."""
    from helpers import FakeClock
    from ui.serving import roles, sign_in

    monkeypatch.setenv(roles.TOKEN_ENV, "correct horse battery staple")
    monkeypatch.setenv("ATTENTION_LAB_RUNS", str(tmp_path / "runs"))
    monkeypatch.setenv("ATTENTION_LAB_UPLOADS", str(tmp_path / "uploads"))
    clock = FakeClock()
    monkeypatch.setattr(roles, "CLOCK", clock)
    sign_in.reset_global()
    roles.reset_audit_limits()
    yield clock
    sign_in.reset_global()
    roles.reset_audit_limits()
