"""transformer.data.genders: German genders read from the corpus, checked by hand.

The rule tests run on a handful of made-up captions; the hand check re-derives the 124 nouns of
transformer/probes/genders_checked.tsv from Multi30k (skipped with a reason when it is absent).
"""
from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from transformer.data.classroom_lexicon import lexicon_nouns
from transformer.data import gender_lexicon
from transformer.data import genders

CHECKED = Path(genders.__file__).parents[1] / "probes" / "genders_checked.tsv"
MULTI30K = genders.find_multi30k()
needs_multi30k = pytest.mark.skipif(
    MULTI30K is None, reason="Multi30k not found ($ATTENTION_LAB_MULTI30K, ../shared/data/multi30k "
                             "or data/multi30k): the derivation reads train.en / train.de")

EN = ["A dog runs .", "The dog sleeps on a bench .", "Two dogs run .", "A cat sits .",
      "A man sees a cat .", "The horse runs .", "A man has a dog .", "A black dog runs .",
      "The dogs sit on a bench ."]
DE = ["Ein Hund rennt .", "Der Hund schläft auf einer Bank .", "Die Hunde rennen .", "Eine Katze sitzt .",
      "Ein Mann sieht eine Katze .", "Das Pferd rennt .", "Ein Mann hat einen Hund .",
      "Ein schwarzer Hund rennt .", "Die Hunde sitzen auf einer Bank ."]


@pytest.fixture(scope="module")
def tiny():
    return genders.Corpus(EN, DE)


def test_article_evidence(tiny):
    ev = tiny.evidence("Hund")
    # "Der Hund" at the start, "einen Hund", "ein schwarzer Hund": masculine; "Ein Hund": m or n
    assert (ev["m"], ev["f"], ev["n"], ev["mn"]) == (3, 0, 0, 1)
    assert tiny.gender("Hund")[0] == "m"
    assert tiny.gender("Katze")[:2] == ("f", 1.0)  # "Eine Katze", "eine Katze"
    assert tiny.gender("Pferd")[0] == "n"  # "Das Pferd"
    assert tiny.gender("Bank")[0] == "f"  # "einer Bank"


def test_plural_die_is_not_feminine(tiny):
    # "Die Hunde" twice: no evidence at all, never feminine
    assert tiny.evidence("Hunde") == {}
    assert tiny.gender("Hunde")[0] == "?"


def test_feminine_needs_eine_not_die():
    c = genders.Corpus(["The boots .", "The boots ."], ["Die Stiefel stehen .", "Die Stiefel stehen ."])
    assert c.gender("Stiefel")[0] == "?"


def test_den_before_a_dative_plural_form_is_not_masculine():
    # "den Mädchen" (dative plural) must not make Mädchen masculine; "das Mädchen" does decide
    c = genders.Corpus(["x"] * 3, ["Er gibt den Mädchen Brot .", "Er gibt den Mädchen Brot .",
                                   "Das Mädchen lacht ."])
    assert c.gender("Mädchen")[0] == "n"


def test_alignment_by_dice():
    five = genders.Corpus(EN * 5, DE * 5)  # pairs seen together fewer than MIN_PAIR times don't count
    assert [g for g, _, _ in five.align("dog", top=3)][:1] == ["Hund"]
    assert five.align("cat")[0][0] == "Katze"  # not "Mann", which "cat" meets once as often
    assert five.entry("dog").gender == "m"
    assert genders.Corpus(EN, DE).align("dog") == []  # 4 captions together < MIN_PAIR
    assert five.entry("zebra") is None


def test_words_drop_punctuation():
    assert genders.words("Ein Hund, der rennt.") == ["Ein", "Hund", "der", "rennt"]


def test_committed_lexicon_covers_the_generator():
    lex = gender_lexicon.read_lexicon()
    assert set(lexicon_nouns()) <= set(lex)
    assert all(e.gender in "mfn" for e in lex.values())
    doc = json.loads(gender_lexicon.LEXICON_PATH.read_text(encoding="utf-8"))
    assert len(doc["nouns"]) <= 300  # derived data, small


def _checked_rows() -> list[dict]:
    lines = [ln for ln in CHECKED.read_text(encoding="utf-8").splitlines() if not ln.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))


def test_checked_file_is_well_formed():
    rows = _checked_rows()
    assert len(rows) >= 40
    assert len({r["en"] for r in rows}) == len(rows)
    for r in rows:
        assert r["gender_correct"] in ("m", "f", "n"), r
        assert r["gender_derived"] in ("m", "f", "n", "?"), r
        assert r["de_ok"] == ("yes" if r["de_derived"] == r["de_correct"] else "no"), r
        assert r["de_ok"] == "no" or r["gender_of_derived_word"] == r["gender_correct"], r
        assert r["sample"], r
    # the generator's nouns were all checked, and all are right
    gen = {r["en"]: r for r in rows if "generator" in r["sample"]}
    assert set(gen) == set(lexicon_nouns())
    assert all(r["gender_derived"] == r["gender_correct"] and r["de_ok"] == "yes" for r in gen.values())


def agreement(rows: list[dict]) -> dict[str, int]:
    """Hand-check counts: the derived gender right for the German word chosen, no verdict ("?"),
    wrong; and whole entries right (the German word and its gender)."""
    right = sum(r["gender_derived"] == r["gender_of_derived_word"] for r in rows)
    none = sum(r["gender_derived"] == "?" for r in rows)
    return {"n": len(rows), "gender_right": right, "no_verdict": none, "gender_wrong": len(rows) - right - none,
            "entry_right": sum(r["de_ok"] == "yes" and r["gender_derived"] == r["gender_correct"] for r in rows)}


def test_agreement_numbers():
    """The numbers reported for the hand check (they follow from the file; the derivation is
    re-run against the file in the next test)."""
    rows = _checked_rows()
    by = {s: agreement([r for r in rows if s in r["sample"].split("+")]) for s in ("generator", "frequent", "other")}
    assert by["generator"] == {"n": 59, "gender_right": 59, "no_verdict": 0, "gender_wrong": 0, "entry_right": 59}
    assert by["frequent"] == {"n": 60, "gender_right": 56, "no_verdict": 4, "gender_wrong": 0, "entry_right": 54}
    assert by["other"] == {"n": 27, "gender_right": 19, "no_verdict": 7, "gender_wrong": 1, "entry_right": 17}


@needs_multi30k
def test_hand_check_rederived_from_multi30k():
    corpus = genders.Corpus.from_dir(MULTI30K)
    rows = _checked_rows()
    for r in rows:
        e = corpus.entry(r["en"])
        assert e is not None, r["en"]
        assert (e.de, e.gender) == (r["de_derived"], r["gender_derived"]), (r["en"], e)
    # and the committed lexicon is what the derivation gives today
    lex = gender_lexicon.read_lexicon()
    for en, entry in lex.items():
        assert corpus.entry(en) == entry, en


def test_cli_without_corpus_is_an_error(tmp_path, capsys):
    assert genders.main(["--data-dir", str(tmp_path / "missing"), "dog"]) == 2
    assert "error" in capsys.readouterr().err


@needs_multi30k
def test_cli_looks_up_nouns(capsys):
    assert genders.main(["--data-dir", str(MULTI30K), "--json", "dog", "cat"]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(o["de"], o["gender"]) for o in out] == [("Hund", "m"), ("Katze", "f")]
