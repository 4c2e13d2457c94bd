"""transformer.evaluate reports chrF beside BLEU (issue 20's everyday set is scored by chrF)."""
from __future__ import annotations

import json

from transformer.probing import evaluate as ev


def test_chrf_is_100_when_the_output_is_the_reference_and_0_when_nothing_matches(
        small_checkpoint, monkeypatch):
    from transformer.core.checkpoint import load_checkpoint

    ck = load_checkpoint(small_checkpoint)
    refs = ["Ein Hund rennt im Park .", "Zwei Männer spielen Fußball ."]
    monkeypatch.setattr("transformer.core.decode.translate", lambda *a, **k: list(refs))
    res = ev.evaluate(ck.model, ck.tokenizer, ["a", "b"], refs)
    assert res["chrf"] == 100.0 and res["bleu"] == 100.0
    assert res["signature_chrf"].startswith("nrefs:1")
    monkeypatch.setattr("transformer.core.decode.translate", lambda *a, **k: ["xq", "zv"])
    assert ev.evaluate(ck.model, ck.tokenizer, ["a", "b"], refs)["chrf"] == 0.0


def test_cli_prints_chrf_for_a_tsv(small_checkpoint, tmp_path, capsys):
    f = tmp_path / "set.tsv"
    f.write_text("A dog runs in the park .\tEin Hund rennt im Park .\n", encoding="utf-8")
    assert ev.main(["--checkpoint", str(small_checkpoint), "--tsv", str(f), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert 0.0 <= out["chrf"] <= 100.0 and out["sentences"] == 1


def test_cli_splits_a_tsv_by_the_models_certainty(small_checkpoint, tmp_path, capsys):
    """--by-certainty: the Attention page's split (two or more guessed words or not), scored per
    group, in JSON and in words; its numbers are transformer.probing.certainty's."""
    from transformer.core.checkpoint import load_checkpoint
    from transformer.probing import certainty

    f = tmp_path / "set.tsv"
    rows = [("A dog runs in the park .", "Ein Hund rennt im Park ."),
            ("Two men play football .", "Zwei Männer spielen Fußball .")]
    f.write_text("".join(f"{a}\t{b}\n" for a, b in rows), encoding="utf-8")
    argv = ["--checkpoint", str(small_checkpoint), "--tsv", str(f), "--by-certainty"]
    assert ev.main(argv + ["--json"]) == 0
    got = json.loads(capsys.readouterr().out)["by_certainty"]
    ck = load_checkpoint(small_checkpoint)
    assert got == certainty.split_by_guesses(ck.model, ck.tokenizer, *map(list, zip(*rows)))
    assert got["guessed"]["n"] + got["sure"]["n"] == 2
    assert ev.main(argv) == 0
    text = capsys.readouterr().out
    assert f"guessed    {got['guessed']['n']} sentences (2+ words under p 0.2)" in text
