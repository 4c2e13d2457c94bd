"""`python -m transformer.inspect`: its JSON shape and its error exits."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
import torch

from transformer.core import notes as N
from transformer.core.checkpoint import load_checkpoint
from transformer.probing.inspect import inspect_text


def _run(*args):
    return subprocess.run([sys.executable, "-m", "transformer.inspect", *args],
                          capture_output=True, text=True, timeout=120)


def test_inspect_cli_json(small_checkpoint):
    r = _run("--checkpoint", str(small_checkpoint), "--text", "A dog runs .", "--target",
             "Ein Hund rennt .", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["teacher_forced"] is True
    src, tgt = out["source_tokens"], out["target_tokens"]
    assert src[-1] == "</s>" and tgt[0] == "<s>"
    enc = out["attention"]["encoder_self"]["layers"]
    cross = out["attention"]["cross"]["layers"]
    assert len(enc) == 2 and len(enc[0]) == 4  # layers x heads
    assert len(cross[1][3]) == len(tgt) and len(cross[1][3][0]) == len(src)
    dec = out["attention"]["decoder_self"]["layers"][0][0]
    assert dec[0][1:] == [0.0] * (len(tgt) - 1)  # causal
    for row in cross[0][0]:
        assert abs(sum(row) - 1) < 1e-4


def test_inspect_cli_greedy_output(small_checkpoint):
    r = _run("--checkpoint", str(small_checkpoint), "--text", "Zwei Männer 🙂", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["teacher_forced"] is False and isinstance(out["output"], str)


@pytest.mark.parametrize("args", [
    ["--checkpoint", "/nonexistent", "--text", "hi"],
    ["--text", "hi"],
    ["--checkpoint", "CK", "--text", "   "],
])
def test_inspect_cli_errors(small_checkpoint, args):
    args = [str(small_checkpoint) if a == "CK" else a for a in args]
    r = _run(*args)
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0 and "error" in r.stderr
    assert "Traceback" not in r.stderr


def test_inspect_text_truncates_long_input(small_checkpoint):
    ck = load_checkpoint(small_checkpoint)
    ins = inspect_text(ck.model, ck.tokenizer, "dog " * 500, target="Hund")
    assert len(ins.src_ids) == ck.model.cfg.max_len
    # a code with its numbers, no prose: the limit, and how many of the 500 words were read
    # (independently: one piece a word here, so max_len - 1 words fit before </s>)
    groups = ck.tokenizer.words(ck.tokenizer.encode("dog " * 500))
    fit = sum(1 for g in groups if max(g) < ck.model.cfg.max_len - 1)
    assert N.source_cut_words(ck.model.cfg.max_len, fit, 500) in ins.notes
    assert ins.notes[0].params == {"n": ck.model.cfg.max_len, "words": fit, "total": 500}
    assert 0 < fit < 500
    from transformer.probing.inspect import cli_text

    assert "source truncated to" in cli_text(ins.notes[0])  # the CLI's English
    w = ins.weights("cross", 0)
    assert torch.allclose(w.sum(-1), torch.ones(w.shape[:-1]), atol=1e-5)
