"""GNMT's coverage penalty in beam search (issue 50; Wu et al. 2016, eq. 14):
cp(X;Y) = beta * sum_i log(min(sum_j p_ij, 1)) over the real source pieces, p_ij the mean over the
heads of the last decoder layer's cross-attention, added to logp / lp(Y).

(a) the penalty against numpy on a hand-made attention matrix (the clip at 1, padding, EOS);
(b) beta=0 changes nothing and computes nothing extra; (c) beam search's score equals
logp / lp + cp recomputed from one teacher-forced pass of the chosen tokens; (d) a bad beta is a
ValueError, and the two command lines print one line and exit 2."""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
import torch

from helpers import peaked_model as _peaked_model
from transformer.core import decode
from transformer.core.checkpoint import load_checkpoint
from transformer.core.decode import (beam_search, check_coverage, coverage_penalty,
                                     length_penalty, real_source, translate)
from transformer.core.text import source_ids
from transformer.core.trace import record

ROOT = Path(__file__).resolve().parents[1]
COPY_TINY = ROOT / "checkpoints" / "copy-tiny"


def _numpy_cp(weights: np.ndarray, src: list[int], beta: float, special=(0, 1, 2)) -> float:
    """weights (T,S): one hypothesis' attention, target step by source position."""
    total = 0.0
    for i, tok in enumerate(src):
        if tok in special:  # pad, BOS, EOS
            continue
        total += math.log(min(float(np.sum(weights[:, i], dtype=np.float64)), 1.0))
    return beta * total


# -- (a) the penalty itself -------------------------------------------------------------------
def test_penalty_matches_numpy_with_the_clip_padding_and_eos():
    from helpers import tiny_config

    cfg = tiny_config()  # pad 0, bos 1, eos 2
    # two hypotheses' coverage over a source of 4 pieces + EOS + 2 pads
    src = torch.tensor([[7, 8, 9, 10, 2, 0, 0]])  # (1,S)
    w = np.array([  # (T=3, S=7) attention of hypothesis 0, rows sum to 1 over the real keys
        [0.70, 0.10, 0.05, 0.05, 0.10, 0.0, 0.0],
        [0.50, 0.30, 0.10, 0.05, 0.05, 0.0, 0.0],  # position 0 reaches 1.2: clipped to 1
        [0.10, 0.10, 0.30, 0.00, 0.50, 0.0, 0.0],  # position 3 stays at 0.1; EOS gets 0.65
    ], dtype=np.float32)
    w2 = np.full((3, 7), 0.0, dtype=np.float32)
    w2[:, :5] = 0.2  # hypothesis 1: even attention
    cov = torch.tensor(np.stack([w.sum(0), w2.sum(0)]))  # (2,S)
    real = real_source(cfg, src[0])
    assert real.tolist() == [True, True, True, True, False, False, False]
    for beta in (0.2, 1.0):
        got = coverage_penalty(cov, real, beta)
        want = [_numpy_cp(w, src[0].tolist(), beta), _numpy_cp(w2, src[0].tolist(), beta)]
        assert got.shape == (2,)
        assert got.tolist() == pytest.approx(want, abs=1e-6)
    # by hand for hypothesis 0: log(min(1.3, 1)) + log(0.5) + log(0.45) + log(0.1)
    assert float(coverage_penalty(cov, real, 1.0)[0]) == pytest.approx(
        math.log(0.5) + math.log(0.45) + math.log(0.1), abs=1e-6)
    # every real piece covered with weight >= 1: no penalty; padding never counts, even at 0
    full = torch.tensor([[1.0, 2.0, 1.5, 1.0, 0.0, 0.0, 0.0]])
    assert float(coverage_penalty(full, real, 1.0)[0]) == 0.0
    # BOS in the source (a converted model's) does not count either; only EOS: cp = 0
    assert real_source(cfg, torch.tensor([1, 7, 2])).tolist() == [False, True, False]
    assert float(coverage_penalty(torch.zeros(1, 1), real_source(cfg, torch.tensor([2])),
                                  1.0)[0]) == 0.0


# -- (b) beta = 0 -----------------------------------------------------------------------------
# HEAD's beam search before the coverage penalty, on the shipped copy-tiny (recorded with the code
# of commit acd68fc; this machine gave the same bits for coverage=0, the 1e-6 allows another BLAS)
BEFORE = [
    ("a b c d e", [270, 264, 261, 275, 272], -0.4602587761855198,
     [270, 264, 261, 275, 272], -0.1103558639685313),
    ("the cat sat on the mat", [267, 260, 277, 261, 262, 267], -5.648421561604902,
     [267, 260, 277, 261, 262, 267, 279, 270, 260, 274, 262, 267], -0.9009514588576096),
    ("x y z x y z x y", [262, 260, 267, 262, 267], -4.773217075915622,
     [262, 260, 267, 262, 267], -1.144471009572347),
]


def test_beta_zero_gives_the_results_of_before(monkeypatch):
    ck = load_checkpoint(COPY_TINY, device="cpu")
    m = ck.model.eval()

    def no_capture(*a, **k):
        raise AssertionError("coverage=0 must not capture the attention")

    monkeypatch.setattr(decode, "capture", no_capture)
    for text, toks, score, toks_len, score_len in BEFORE:
        ids = source_ids(ck.tokenizer, text, m.cfg.max_len)[0]
        a = beam_search(m, ids, 4, 0.6, coverage=0.0)
        assert a.tokens == toks and a.score == pytest.approx(score, abs=1e-6)
        assert beam_search(m, ids, 4, 0.6).score == a.score  # the default is 0, bit for bit
        b = beam_search(m, ids, 3, 1.0, lp="length", early_stopping=False, coverage=0)
        assert b.tokens == toks_len and b.score == pytest.approx(score_len, abs=1e-6)


# -- (c) the score is logp / lp + cp of the chosen tokens -------------------------------------
def _recomputed(m, src: list[int], tokens: list[int], ended: bool, alpha: float, lp: str,
                beta: float) -> float:
    """One teacher-forced pass over [BOS] + tokens with the trace recording: the chosen tokens'
    log-probabilities and the last decoder layer's cross-attention, in numpy."""
    inputs = [m.cfg.bos_id] + tokens if ended else [m.cfg.bos_id] + tokens[:-1]
    targets = tokens + [m.cfg.eos_id] if ended else tokens
    key = f"decoder.layers.{m.cfg.n_decoder_layers - 1}.cross_attn.weights"
    with torch.inference_mode(), record(names=lambda k: k in (key, "logits")) as tr:
        m(torch.tensor([src]), torch.tensor([inputs]))
    logits = tr["logits"][0].double().numpy()  # (T,V)
    logz = np.log(np.exp(logits - logits.max(-1, keepdims=True)).sum(-1)) + logits.max(-1)
    logp = float(sum(logits[j, t] - logz[j] for j, t in enumerate(targets)))
    w = tr[key][0].double().numpy().mean(0)  # (H,T,S) -> (T,S): the heads' mean
    return logp / length_penalty(len(targets), alpha, lp) + _numpy_cp(w, src, beta)


@pytest.mark.parametrize("beta", [0.0, 0.3, 2.0])
@pytest.mark.parametrize("alpha,lp,early", [(0.6, "gnmt", True), (1.0, "length", False)])
def test_score_equals_a_teacher_forced_recomputation(beta, alpha, lp, early):
    m = _peaked_model()
    checked = 0
    for seed in range(6):
        g = torch.Generator().manual_seed(seed)
        src = torch.randint(4, 30, (5 + seed,), generator=g).tolist() + [2]
        for max_len in (4, 20):  # 4: the hypotheses may stop unfinished at max_len
            res = beam_search(m, src, beam=4, alpha=alpha, max_len=max_len, lp=lp,
                              early_stopping=early, coverage=beta)
            want = _recomputed(m, src, res.tokens, res.finished, alpha, lp, beta)
            assert res.score == pytest.approx(want, abs=1e-5), (seed, max_len, res)
            checked += 1
    assert checked == 12


def test_a_large_beta_prefers_the_hypothesis_that_covers_the_source():
    """The penalty takes part in the ranking: some source where it changes the output, and there
    the output it picks has the higher cp."""
    m = _peaked_model()
    changed = 0
    for seed in range(20):
        g = torch.Generator().manual_seed(seed)
        src = torch.randint(4, 30, (8,), generator=g).tolist() + [2]
        plain = beam_search(m, src, beam=4, max_len=20)
        cov = beam_search(m, src, beam=4, max_len=20, coverage=5.0)
        if cov.tokens != plain.tokens:
            changed += 1
            cp = [_recomputed(m, src, r.tokens, r.finished, 0.6, "gnmt", 1.0)
                  - _recomputed(m, src, r.tokens, r.finished, 0.6, "gnmt", 0.0)
                  for r in (plain, cov)]
            assert cp[1] > cp[0]
    assert changed


def test_translate_passes_coverage_on():
    ck = load_checkpoint(COPY_TINY, device="cpu")
    m, tok = ck.model.eval(), ck.tokenizer
    texts = ["the cat sat on the mat", "a b c"]
    want = [tok.decode(beam_search(m, source_ids(tok, t, m.cfg.max_len)[0], 4, 0.6,
                                   coverage=1.0).tokens) for t in texts]
    assert translate(m, tok, texts, beam=4, coverage=1.0) == want


# -- (d) bad betas ----------------------------------------------------------------------------
@pytest.mark.parametrize("bad", [-0.1, float("nan"), float("inf"), "0.2", None])
def test_a_bad_beta_is_a_value_error(bad):
    with pytest.raises(ValueError, match=r"coverage: must be a finite number >= 0"):
        check_coverage(bad)
    m = _peaked_model()
    with pytest.raises(ValueError, match="coverage"):
        beam_search(m, [5, 6, 2], coverage=bad)
    with pytest.raises(ValueError, match="coverage"):
        translate(m, None, ["x"], beam=1, coverage=bad)  # checked before anything is decoded
    assert check_coverage(0) == 0.0 and check_coverage(0.25) == 0.25


@pytest.mark.parametrize("bad", ["-1", "nan", "inf"])
def test_the_command_lines_refuse_a_bad_beta_in_one_line(bad, capsys, tmp_path):
    from transformer.probing import evaluate, heldout

    tsv = tmp_path / "pairs.tsv"
    tsv.write_text("a b c\ta b c\n", encoding="utf-8")
    for main, argv in ((evaluate.main, ["--checkpoint", str(COPY_TINY), "--tsv", str(tsv)]),
                       (heldout.main, ["--checkpoint", str(COPY_TINY), "--sets", "seeds"])):
        assert main(argv + [f"--coverage={bad}"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("error: --coverage: must be a finite"), err


def test_the_command_lines_record_beta(capsys, tmp_path):
    from transformer.probing import evaluate, heldout

    tsv = tmp_path / "pairs.tsv"
    tsv.write_text("a b c\ta b c\nthe cat\tt h e c a t\n", encoding="utf-8")
    assert evaluate.main(["--checkpoint", str(COPY_TINY), "--tsv", str(tsv), "--beam", "3",
                          "--coverage", "0.4", "--json", "--threads", "1"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["coverage"] == 0.4 and res["alpha"] == 0.6 and "coverage 0.4" in res["decoding"]
    assert heldout.main(["--checkpoint", str(COPY_TINY), "--sets", "seeds", "--limit", "2",
                         "--beam", "3", "--coverage", "0.4", "--threads", "1"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["decoding"]["coverage"] == 0.4 and res["seeds"]["coverage"] == 0.4
