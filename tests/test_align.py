"""The alignment leaderboard (transformer/probing/align.py, issue 52): its numbers against a hand
computation of the issue's definitions on a tiny model and a two-sentence gold file; malformed
gold files name their line; the command's JSON."""
from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from transformer.core.checkpoint import load_checkpoint
from transformer.core.trace import record
from transformer.probing import align as AL

GOLD = ("A dog runs in the park .\tEin Hund rennt im Park .\t0-0 1-1 2-2 3-3 4-3 5-4 6-5\n"
        "The cat sleeps on the warm table .\tDie Katze schläft auf dem warmen Tisch .\t"
        "0-0 1-1 2-2 3-3 4-4 5-5 6-6 7-7\n")


def _hand_groups(tokenizer, ids):
    """Positions grouped into words by hand: a word starts at a piece beginning with '▁'."""
    groups = []
    for p, i in enumerate(ids):
        if tokenizer.id_to_piece(i).startswith("\u2581") or not groups:
            groups.append([p])
        else:
            groups[-1].append(p)
    return groups


def _hand(model, tokenizer, pairs):
    """The issue's definitions, written out with loops: {(mode, layer, head): AER}, diagonal."""
    cfg = model.cfg
    counts = {}
    diag_hit = diag_a = s_total = 0
    for pair in pairs:
        s_ids = tokenizer.encode(" ".join(pair.src_words))
        t_ids = tokenizer.encode(" ".join(pair.tgt_words))
        sg, tg = _hand_groups(tokenizer, s_ids), _hand_groups(tokenizer, t_ids)
        assert len(sg) == len(pair.src_words) and len(tg) == len(pair.tgt_words)
        src = torch.tensor([s_ids + [cfg.eos_id]])
        tgt = torch.tensor([[cfg.bos_id] + t_ids])  # BOS + pieces: position k writes piece k
        with torch.inference_mode(), record() as tr:
            model(src, tgt)
        s_total += len(pair.sure)
        I, J = len(sg), len(tg)
        for j in range(J):
            i = round(j * (I - 1) / (J - 1))
            diag_a += 1
            diag_hit += (i, j) in pair.sure
        for layer in range(cfg.n_decoder_layers):
            w = tr[f"decoder.layers.{layer}.cross_attn.weights"][0]  # (H,T,S)
            for h in range(cfg.n_heads):
                for mode, shift in (("writes", 0), ("reads", 1)):
                    hit = n = 0
                    for j, pieces_j in enumerate(tg):
                        scores = []
                        for pieces_i in sg:
                            total = 0.0
                            for k in pieces_j:
                                total += sum(float(w[h, k + shift, s]) for s in pieces_i)
                            scores.append(total / len(pieces_j))
                        best = max(range(I), key=lambda i: (scores[i], -i))
                        n += 1
                        hit += (best, j) in pair.sure
                    c = counts.setdefault((mode, layer, h), [0, 0])
                    c[0] += hit
                    c[1] += n
    out = {k: 1 - 2 * hit / (n + s_total) for k, (hit, n) in counts.items()}
    return out, 1 - 2 * diag_hit / (diag_a + s_total)


def test_leaderboard_matches_the_hand_computation(small_checkpoint):
    ck = load_checkpoint(small_checkpoint)
    pairs = AL.parse_gold(GOLD)
    assert len(pairs) == 2 and (4, 3) in pairs[0].sure
    res = AL.alignment(ck.model, ck.tokenizer, pairs, digits=None)
    want, diag = _hand(ck.model, ck.tokenizer, pairs)
    assert res["sentences"] == 2
    assert res["diagonal"] == pytest.approx(diag, abs=1e-6)
    cfg = ck.model.cfg
    assert len(res["heads"]) == cfg.n_decoder_layers * cfg.n_heads
    for h in res["heads"]:
        assert h["kind"] == "cross"
        assert h["aer"] == pytest.approx(want[("writes", h["layer"], h["head"])], abs=1e-6)
        assert h["aer_shifted"] == pytest.approx(want[("reads", h["layer"], h["head"])], abs=1e-6)
    best = res["best"]
    low = min(min(h["aer"], h["aer_shifted"]) for h in res["heads"])
    assert best[AL.MODE_KEY[best["mode"]]] == pytest.approx(low)


def test_word_weights_by_hand():
    a = np.array([[0.5, 0.25, 0.25],   # position 0 (BOS): writes piece 0
                  [0.1, 0.6, 0.3],     # position 1: writes piece 1, reads piece 0
                  [0.7, 0.2, 0.1]])    # position 2: reads piece 1
    src_groups, tgt_groups = [[0, 1], [2]], [[0, 1]]  # English words: pieces 0-1, 2; one German
    w = AL.word_weights(a, src_groups, tgt_groups, "writes")
    assert np.allclose(w, [[(0.75 + 0.7) / 2, (0.25 + 0.3) / 2]])
    r = AL.word_weights(a, src_groups, tgt_groups, "reads")
    assert np.allclose(r, [[(0.7 + 0.9) / 2, (0.3 + 0.1) / 2]])
    assert AL.links(w) == {(0, 0)}
    assert AL.diagonal_links(5, 3) == {(0, 0), (2, 1), (4, 2)}
    assert AL.diagonal_links(4, 1) == {(0, 0)}
    assert AL.aer([{(0, 0), (1, 1)}], [{(0, 0), (2, 1)}]) == pytest.approx(0.5)


@pytest.mark.parametrize("line, where", [
    ("A dog .\tEin Hund .", "line 2: expected 3 tab-separated fields"),
    ("A dog .\tEin Hund .\t0-0 1-x", "line 2: '1-x' is not a link"),
    ("A dog .\tEin Hund .\t0-0 3-1", "line 2: link 3-1 points past the sentence"),
    ("\tEin Hund .\t0-0", "line 2: the English sentence is empty"),
])
def test_malformed_gold_names_the_line(tmp_path, line, where):
    f = tmp_path / "mine.tsv"
    f.write_text("A cat .\tEine Katze .\t0-0 1-1 2-2\n" + line + "\n", encoding="utf-8")
    with pytest.raises(AL.GoldError) as e:
        AL.read_gold(f)
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("mine.tsv " + where), msg


def test_cli_json_and_one_line_errors(small_checkpoint, tmp_path, capsys):
    f = tmp_path / "gold.tsv"
    f.write_text(GOLD, encoding="utf-8")
    assert AL.main(["--checkpoint", str(small_checkpoint), "--gold", str(f), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) >= {"sentences", "diagonal", "heads", "best"}
    assert out["sentences"] == 2 and len(out["heads"]) == 2 * 4
    assert all(set(h) >= {"kind", "layer", "head", "aer", "aer_shifted"} for h in out["heads"])
    assert set(out["best"]) >= {"kind", "layer", "head", "aer", "aer_shifted"}
    bad = tmp_path / "bad.tsv"
    bad.write_text(GOLD + "oops\n", encoding="utf-8")
    with pytest.raises(SystemExit) as e:
        AL.main(["--checkpoint", str(small_checkpoint), "--gold", str(bad), "--json"])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "bad.tsv line 3" in err


def test_shipped_gold_file_reads():
    from pathlib import Path

    gold = Path(__file__).resolve().parents[2] / "shared/data/alignments/en_de_gold.tsv"
    if not gold.is_file():
        pytest.skip("the shared gold file is not here")
    pairs = AL.read_gold(gold)
    assert len(pairs) == 59 and all(p.sure for p in pairs)
