"""Issue 13, defect: the training code took the special ids as literals (pad 0, bos 1, eos 2).
encode_pairs and the Evaluator now have no default for them: the run passes its model config's."""
from __future__ import annotations

import inspect

import pytest

import transformer.train.cli as cli
from transformer.train import corpus, evaluation
from transformer.core.config import ModelConfig
from transformer.train.evaluation import Evaluator
from transformer.train.corpus import encode_pairs
from transformer.train.cli import run


class Pieces:
    """A stand-in tokenizer: one id per character, above the special ids."""

    def encode_batch(self, texts):
        return [[10 + ord(c) - ord("a") for c in t] for t in texts]


def test_no_literal_special_id_defaults():
    assert inspect.signature(encode_pairs).parameters["eos_id"].default is inspect.Parameter.empty
    assert inspect.signature(Evaluator).parameters["ids"].default is inspect.Parameter.empty
    with pytest.raises(TypeError):
        encode_pairs(Pieces(), ["ab"], ["ba"], 8)


def test_the_given_ids_are_used():
    cfg = ModelConfig(vocab_size=40, pad_id=5, bos_id=6, eos_id=7, unk_id=8)
    src, tgt, dropped = encode_pairs(Pieces(), ["ab", "abcdefghij"], ["ba", "x"], 8,
                                     eos_id=cfg.eos_id)
    assert src == [[10, 11, 7]] and tgt == [[11, 10]] and dropped == 1
    ev = Evaluator(None, Pieces(), [[10, 11, 7], [12, 7]], [[11, 10], [12]], [0, 1],
                   batch_tokens=100, max_sentences=2, ids=(cfg.pad_id, cfg.bos_id, cfg.eos_id))
    [b] = ev.batches
    assert b.tgt_in[:, 0].tolist() == [6, 6]  # bos
    assert sorted(b.tgt_out.tolist()) == [[11, 10, 7], [12, 7, 5]]  # eos, then pad
    assert sorted(b.src.tolist()) == [[10, 11, 7], [12, 7, 5]]


def test_a_run_passes_its_model_configs_ids(tmp_path, monkeypatch):
    import torch

    seen = {}
    real_encode, real_eval = corpus.encode_pairs, evaluation.Evaluator

    def encode(*a, **k):
        seen["eos_id"] = k["eos_id"]
        return real_encode(*a, **k)

    def evaluator(*a, **k):
        seen["ids"] = k["ids"]
        return real_eval(*a, **k)

    def new_model(*a, **k):
        tokenizer, model = real_new_model(*a, **k)
        seen["cfg"] = model.cfg
        return tokenizer, model

    real_new_model = cli.new_model
    monkeypatch.setattr(cli, "encode_pairs", encode)
    monkeypatch.setattr(cli, "Evaluator", evaluator)
    monkeypatch.setattr(cli, "new_model", new_model)
    threads = torch.get_num_threads()
    try:
        assert run(["--out", str(tmp_path / "r"), "--task", "copy", "--task-opt", "n=40",
                    "--d-model", "16", "--heads", "2", "--layers", "1", "--d-ff", "32",
                    "--steps", "1", "--threads", "1", "--eval-every", "1",
                    "--eval-sentences", "2"]) == "finished"
    finally:
        torch.set_num_threads(threads)
    cfg = seen["cfg"]
    assert seen["eos_id"] == cfg.eos_id
    assert seen["ids"] == (cfg.pad_id, cfg.bos_id, cfg.eos_id)
