"""Shared fixtures: tiny CPU models (d_model 16-32) and a small checkpoint saved once."""
from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "2")

import pytest
import torch

torch.set_num_threads(2)

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


CORPUS = [
    "A dog runs in the park .", "Ein Hund rennt im Park .",
    "Two men play football on the grass .", "Zwei Männer spielen Fußball auf dem Rasen .",
    "A girl in a red dress walks .", "Ein Mädchen in einem roten Kleid geht .",
    "The cat sleeps on the warm table .", "Die Katze schläft auf dem warmen Tisch .",
]


@pytest.fixture(scope="session")
def tokenizer():
    from transformer.tokenizer import Tokenizer

    return Tokenizer.train(CORPUS * 4, vocab_size=300)


def tiny_config(vocab_size: int = 40, **kw):
    from transformer.config import ModelConfig

    base = dict(vocab_size=vocab_size, d_model=16, n_heads=4, n_encoder_layers=2,
                n_decoder_layers=2, d_ff=32, dropout=0.0, max_len=128)
    base.update(kw)
    return ModelConfig(**base)


@pytest.fixture
def tiny_model():
    from transformer.model import Transformer

    torch.manual_seed(0)
    return Transformer(tiny_config()).eval()


@pytest.fixture(scope="session")
def small_checkpoint(tmp_path_factory, tokenizer):
    """A checkpoint with a real tokenizer; untrained weights are enough for format tests."""
    from transformer.checkpoint import save_checkpoint
    from transformer.model import Transformer

    torch.manual_seed(1)
    model = Transformer(tiny_config(vocab_size=tokenizer.vocab_size, d_model=32)).eval()
    path = tmp_path_factory.mktemp("ck") / "tiny"
    save_checkpoint(path, model, tokenizer, train_config={"task": "test"},
                    history={"loss": [1.0, 0.5]})
    return path
