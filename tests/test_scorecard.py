"""transformer.scorecard: issue 20's numbers in one command (run here on a tiny checkpoint and a
few items; the shipped model's claims are re-measured in tests/test_shipped.py)."""
from __future__ import annotations

import json

from transformer.probing import scorecard as S
from transformer.probing.pronouns import pronoun_class


def test_blog_items_name_their_words():
    a, b = S.blog_items()
    assert a.text.split()[a.pronoun] == b.text.split()[b.pronoun] == "it"
    assert a.text.split()[a.antecedent] == "animal" and b.text.split()[b.antecedent] == "street"
    assert a.target.split()[a.tgt_pronoun] == "es" and b.target.split()[b.tgt_pronoun] == "sie"
    assert a.target.split()[a.tgt_antecedent] == "Tier"
    assert b.target.split()[b.tgt_antecedent] == "Straße"
    assert pronoun_class("es") != pronoun_class("sie")


def test_cli_json_on_a_tiny_checkpoint(small_checkpoint, capsys):
    assert S.main(["--checkpoint", str(small_checkpoint), "--limit", "4", "--json",
                   "--encoder-head", "encoder_self:1:0", "--threads", "1"]) == 0
    r = json.loads(capsys.readouterr().out)
    mp = r["minimal_pairs"]
    assert mp["n"] == 4 and mp["pairs"] == 2 and mp["pair_baselines"]["first_noun"] == 0.0
    assert r["heads"] == ["encoder_self:1:0"]
    fp = r["fresh_pairs"]  # the 40 pairs written blind to the generator, the same measures
    assert fp["n"] == 4 and fp["pairs"] == 2 and 0.0 <= fp["pairs_by_pronoun"] <= 1.0
    assert "fresh minimal pairs" in S.card_table(r)
    gp = r["generated_pairs"]  # the generator's held-out pairs: whole pairs only
    assert gp["n"] == 4 and gp["pairs"] == 2 and 0.0 <= gp["pairs_by_pronoun"] <= 1.0
    assert "generated minimal pairs" in S.card_table(r)
    row = mp["heads"]["encoder_self:1:0"]
    assert 0.0 <= row["pair_accuracy"] <= 1.0 and 0.0 <= row["accuracy"] <= 1.0
    assert r["everyday"]["n"] == 4 and 0.0 <= r["everyday"]["chrf"] <= 100.0
    assert 0.0 <= r["everyday"]["chrf_beam"] <= 100.0 and r["everyday"]["beam"] == 4
    assert len(r["blog_pair"]) == 2 and {"translation", "pronouns", "head_word"} <= set(r["blog_pair"][0])
    assert "multi30k_test2016" not in r  # no --data-dir
    cp = r["caption_probe"]  # every miss is one of the two kinds
    assert cp["misses"]["wrong_pronoun"] + cp["misses"]["no_pronoun"] <= cp["n"]
    fc = r["fresh_caption_probe"]  # the 100 written blind, the same measures, first 4 here
    assert fc["n"] == 4 and 0.0 <= fc["pronoun_accuracy"] <= 1.0
    assert 0.0 <= fc["heads"]["encoder_self:1:0"]["accuracy"] <= 1.0
    assert "fresh caption probe" in S.card_table(r)


def test_the_fresh_caption_probe_is_well_formed():
    """The 100 caption sentences written blind (caption_pronouns_fresh_en.jsonl): each pronoun
    position holds an English pronoun and its German one a German pronoun or possessive, the
    antecedent is one of the candidates, no sentence repeats, and none is in the first probe."""
    from transformer.probing.probe_items import read_probe_file

    items = read_probe_file(S.FRESH_CAPTIONS)
    first = {it.text for it in read_probe_file(S.CAPTIONS)}
    assert len(items) == 100 and len({it.text for it in items}) == 100
    assert not first & {it.text for it in items}
    english = {"it", "its", "they", "them", "their", "his", "her"}
    for it in items:
        assert it.text.split()[it.pronoun].lower() in english, it.text
        assert it.antecedent in it.candidates, it.text
        assert pronoun_class(it.target.split()[it.tgt_pronoun]), it.target


def test_bad_arguments_are_one_line_errors(small_checkpoint, capsys):
    import pytest

    for argv in (["--encoder-head", "nope"], ["--limit", "-1"]):
        with pytest.raises(SystemExit) as e:
            S.main(["--checkpoint", str(small_checkpoint), *argv])
        assert e.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err


def test_misses_split_into_wrong_pronoun_and_none():
    from transformer.probing.pronouns import miss_kinds

    hyps = ["Ein Hund rennt mit heraushängender Zunge .",  # missed, no pronoun
            "Eine Frau betrachtet ein Gemälde , weil sie alt ist .",  # missed, wrong gender
            "Der Ball passt nicht , weil er zu groß ist .",  # right
            "Ein Mann malt einen Zaun .",  # not scored (None): not counted
            "Die Spieler heben die Arme , sich freuend ."]  # missed: "sich" is not a pronoun of the probe
    hits = [False, False, True, None, False]
    assert miss_kinds(hyps, hits) == {"wrong_pronoun": 1, "no_pronoun": 2}
    assert miss_kinds([], []) == {"wrong_pronoun": 0, "no_pronoun": 0}
    assert miss_kinds(["Seine Katze schläft ."], [False]) == {"wrong_pronoun": 1, "no_pronoun": 0}


def test_generated_pairs_are_whole_held_out_pairs():
    from collections import Counter

    from transformer.data import textbook

    items = S.generated_pairs(60)
    assert len(items) % 2 == 0 and 0 < len(items) <= 60
    assert all(c == 2 for c in Counter(it.pair for it in items).values())
    for a, b in zip(items[::2], items[1::2]):  # side by side, one word apart, pronouns differ
        assert a.pair == b.pair and a.text != b.text
        assert a.text.split()[a.pronoun].lower() == b.text.split()[b.pronoun].lower()
        assert a.target.split()[a.tgt_pronoun] != b.target.split()[b.tgt_pronoun]
    trained = {ex.meta["pair"] for ex in textbook.generate("train", 2000)}
    assert not trained & {it.pair for it in items}  # noun pairs never trained on
