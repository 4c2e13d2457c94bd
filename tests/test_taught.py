"""transformer.probing.taught reads which heads were taught from a checkpoint's config."""
from __future__ import annotations

import json
from pathlib import Path

from transformer.core.names import Head
from transformer.probing.taught import how_taught, taught

ROOT = Path(__file__).resolve().parents[1]


def _train(name: str) -> dict:
    return json.loads((ROOT / "checkpoints" / name / "config.json").read_text())["train"]


def test_the_default_models_taught_heads_are_read_from_its_config():
    got = taught(_train("everyday-en-de"))
    assert got == {Head("decoder_self", 2, 6): ("supervised", "interchange"),
                   Head("encoder_self", 2, 0): ("supervised", "interchange")}
    assert how_taught(_train("everyday-en-de"), "encoder_self", 2, 0) == ("supervised", "interchange")
    assert how_taught(_train("everyday-en-de"), "cross", 0, 0) == ()


def test_supervision_alone_and_the_untrained_control():
    assert taught(_train("anaphora-en-de")) == {Head("decoder_self", 1, 3): ("supervised",)}
    assert taught(_train("multi30k-en-de")) == {}
    assert taught(None) == {} and taught({}) == {}


def test_unreadable_specs_are_skipped():
    cfg = {"extra": {"supervise": {"head": "cross:1:2, nonsense ,encoder_self:x:1"},
                     "interchange": "not a dict"}}
    assert taught(cfg) == {Head("cross", 1, 2): ("supervised",)}
