"""Plain helpers shared by the tests (import them from here; conftest.py holds only fixtures)."""
from __future__ import annotations

CORPUS = [
    "A dog runs in the park .", "Ein Hund rennt im Park .",
    "Two men play football on the grass .", "Zwei Männer spielen Fußball auf dem Rasen .",
    "A girl in a red dress walks .", "Ein Mädchen in einem roten Kleid geht .",
    "The cat sleeps on the warm table .", "Die Katze schläft auf dem warmen Tisch .",
]


def tiny_config(vocab_size: int = 40, **kw):
    """A ModelConfig small enough for CPU tests (d_model 16, 4 heads, 2+2 layers)."""
    from transformer.config import ModelConfig

    base = dict(vocab_size=vocab_size, d_model=16, n_heads=4, n_encoder_layers=2,
                n_decoder_layers=2, d_ff=32, dropout=0.0, max_len=128)
    base.update(kw)
    return ModelConfig(**base)


class FakeClock:
    """A clock the tests move by hand (ui.roles.CLOCK), so backoffs need no sleeping."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now
