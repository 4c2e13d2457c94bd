"""The Q-K map (transformer/probing/qk.py, issue 52): AttentionViz's key translation and scaling,
the map's points, the distance / dot-product rank correlation on a constructed case, the command's
JSON and its one-line errors."""
from __future__ import annotations

import json

import numpy as np
import pytest

from transformer.core.names import Head
from transformer.probing import qk as QK


def test_align_keys_keeps_each_querys_ranking():
    rng = np.random.default_rng(0)
    q, k = rng.normal(size=(6, 4)) * 3, rng.normal(size=(5, 4)) + 2
    q2, k2 = QK.align_keys(q, k)
    # translated onto the queries' mean, then scaled: the two means are parallel
    ratio = q2.mean(0) / k2.mean(0)
    assert np.allclose(ratio, ratio[0]) and ratio[0] > 0
    assert np.isclose(np.linalg.norm(q2, axis=1).mean(), np.linalg.norm(k2, axis=1).mean())
    # for each query, the keys' order by dot product is unchanged (a constant per query)
    for a, b in zip(q @ k.T, q2 @ k2.T):
        assert (np.argsort(a) == np.argsort(b)).all()


def test_spearman_by_hand():
    assert QK.spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert QK.spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    # ties: ranks averaged (1, 2.5, 2.5, 4) against (1, 2, 3, 4)
    r = (np.array([1, 2.5, 2.5, 4]) - 2.5)
    want = (r * (np.arange(1, 5) - 2.5)).sum() / np.sqrt((r ** 2).sum() * 5)
    assert QK.spearman([0, 1, 1, 2], [0, 1, 2, 3]) == pytest.approx(want)
    assert QK.spearman([1, 1, 1], [1, 2, 3]) is None


def test_constructed_case():
    """Two-dimensional queries and keys of equal norms: the map is the vectors themselves (up to a
    rotation), and distance is a decreasing function of q . k: rank correlation -1."""
    angles_q = [[0.1, 1.2], [2.0, 2.9]]
    angles_k = [[0.0, 0.7, 1.5], [2.5, 3.3, 4.0]]
    unit = lambda a: np.stack([np.cos(a), np.sin(a)], -1)  # noqa: E731
    qs = [unit(np.array(a)) for a in angles_q]
    ks = [unit(np.array(a)) for a in angles_k]
    # keys centred on the queries' mean already: shift both so translation does nothing
    mq = np.concatenate(qs).mean(0)
    mk = np.concatenate(ks).mean(0)
    ks = [k - mk + mq for k in ks]
    qs2, ks2, _ = QK.layout(qs, ks, [np.ones((2, 3), bool)] * 2)
    # distances on the map equal distances between the (normalised) vectors
    q_all, k_all = QK.align_keys(np.concatenate(qs), np.concatenate(ks))
    for s in range(2):
        d_map = np.linalg.norm(qs2[s][:, None] - ks2[s][None], axis=-1)
        d_vec = np.linalg.norm(q_all[2 * s:2 * s + 2][:, None] - k_all[3 * s:3 * s + 3][None],
                               axis=-1)
        assert np.allclose(d_map, d_vec)
    # with the raw unit vectors (no translation needed), distance is monotone in q . k
    qs3, ks3, rho = QK.layout([unit(np.array(a)) for a in angles_q],
                              [unit(np.array(a)) for a in angles_k],
                              [np.ones((2, 3), bool)] * 2)
    d = np.concatenate([np.linalg.norm(a[:, None] - b[None], axis=-1).ravel()
                        for a, b in zip(qs3, ks3)])
    dots = np.concatenate([(unit(np.array(a)) @ unit(np.array(b)).T).ravel()
                           for a, b in zip(angles_q, angles_k)])
    assert rho == pytest.approx(QK.spearman(d, dots))
    # masked pairs are left out
    m = [np.array([[1, 0, 0], [1, 1, 0]], bool), np.ones((2, 3), bool)]
    assert QK.layout(qs, ks, m)[2] is not None


def test_map_points(small_checkpoint):
    from transformer.core.checkpoint import load_checkpoint

    ck = load_checkpoint(small_checkpoint)
    sents = [("A dog runs in the park .", None), ("The cat sleeps on the warm table .", None),
             ("Two men play football on the grass .", "Zwei Männer spielen Fußball .")]
    for spec in ("encoder_self:1:2", "decoder_self:0:1", "cross:1:0"):
        res = QK.qk_map(ck.model, ck.tokenizer, Head.parse(spec), sents, "test")
        pts = res["points"]
        assert {p["role"] for p in pts} == {"query", "key"}
        assert {p["sentence"] for p in pts} == {0, 1, 2}
        assert all(set(p) >= {"role", "sentence", "position", "token", "x", "y"} for p in pts)
        rho = res["distance_dot_spearman"]
        assert rho is None or -1 <= rho <= 1
        n_src = len(ck.tokenizer.encode(sents[0][0])) + 1
        keys0 = [p for p in pts if p["role"] == "key" and p["sentence"] == 0]
        if spec.startswith("encoder") or spec.startswith("cross"):
            assert len(keys0) == n_src
    # the teacher-forced target is used where given
    cross = QK.qk_map(ck.model, ck.tokenizer, Head.parse("cross:0:0"), sents[2:], "t")
    n_tgt = len(ck.tokenizer.encode("Zwei Männer spielen Fußball .")) + 1
    assert sum(p["role"] == "query" for p in cross["points"]) == n_tgt
    with pytest.raises(ValueError):
        QK.qk_map(ck.model, ck.tokenizer, Head.parse("cross:5:0"), sents, "t")


def test_sentence_file_and_cli(small_checkpoint, tmp_path, capsys):
    f = tmp_path / "mine.txt"
    f.write_text("A dog runs .\nThe cat sleeps .\tDie Katze schläft .\n\n"
                 '{"text": "Two men play ."}\n', encoding="utf-8")
    assert QK.read_sentences(f) == [("A dog runs .", None),
                                    ("The cat sleeps .", "Die Katze schläft ."),
                                    ("Two men play .", None)]
    assert QK.main(["--checkpoint", str(small_checkpoint), "--head", "encoder_self:0:1",
                    "--probe", str(f), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) >= {"points", "distance_dot_spearman"} and out["head"] == "encoder_self:0:1"
    bad = tmp_path / "bad.txt"
    bad.write_text("A dog .\n{not json\n", encoding="utf-8")
    with pytest.raises(SystemExit) as e:
        QK.main(["--checkpoint", str(small_checkpoint), "--head", "cross:0:0", "--probe", str(bad)])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "bad.txt line 2" in err
    with pytest.raises(SystemExit):
        QK.main(["--checkpoint", str(small_checkpoint), "--head", "cross L0 H0"])


def test_default_sentences_are_enough():
    source, sents = QK.default_sentences("everyday")
    assert len(sents) >= 200 and "test" in source
