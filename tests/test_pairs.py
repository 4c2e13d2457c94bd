"""transformer.probing.pairs: pair accuracy (both sentences of a minimal pair right), recomputed here by
hand from the head finder's per-item choices and the pronoun hits."""
from __future__ import annotations

import json

import pytest
import torch

from transformer.probing.pairs import baseline_pairs, head_pair_accuracy, pair_groups, pair_share
from transformer.probing.probe_items import ProbeItem, noun_phrase, read_probe_file


def _item(pair, text, pron, ante, cands, target=None, tp=None, ta=None):
    return ProbeItem(text, pron, ante, target, tp, ta, candidates=cands, pair=pair,
                     antecedent_span=noun_phrase(text.split(), ante),
                     tgt_antecedent_span=noun_phrase(target.split(), ta) if target else None)


ITEMS = [
    _item(0, "The dog ate the cake because it was hungry .", 6, 1, [1, 4],
          "Der Hund fraß den Kuchen , weil er hungrig war .", 7, 1),
    _item(0, "The dog ate the cake because it was sweet .", 6, 4, [1, 4],
          "Der Hund fraß den Kuchen , weil er süß war .", 7, 4),
    _item(1, "The cat chased the ball because it was bored .", 6, 1, [1, 4],
          "Die Katze jagte den Ball , weil sie gelangweilt war .", 7, 1),
    _item(1, "The cat chased the ball because it was rolling .", 6, 4, [1, 4],
          "Die Katze jagte den Ball , weil er rollte .", 7, 4),
    _item(None, "A dog runs with its ball .", 4, 1, [1, 5]),  # no pair: not counted
]


def test_groups_are_the_ids_held_by_two_items():
    assert pair_groups(ITEMS) == [(0, 1), (2, 3)]
    assert pair_groups(ITEMS + [_item(7, "x it y .", 1, 0, [0])]) == [(0, 1), (2, 3)]


def test_pair_share_counts_pairs_with_both_right():
    assert pair_share([True, True, True, False, True], [(0, 1), (2, 3)]) == 0.5
    assert pair_share([True, None, True, True, None], [(0, 1), (2, 3)]) == 0.5  # unscored = miss
    assert pair_share([True, True], []) is None


def test_first_and_nearest_noun_get_no_pair():
    assert baseline_pairs(ITEMS) == {"first_noun": 0.0, "nearest_noun": 0.0}


def test_head_pair_accuracy_against_a_hand_count():
    # tops: (items, layers=1, heads=3): head 0 always says word 1, head 1 is right everywhere,
    # head 2 right on pair 0 only. Encoder keys: "The dog" is words 0-1, "the cake" 3-4.
    tops = torch.tensor([[[1, 1, 1]], [[1, 4, 4]], [[1, 1, 4]], [[1, 4, 4]], [[1, 1, 1]]])
    got = head_pair_accuracy(ITEMS, {"encoder_self": tops})["encoder_self"]
    # head 0: item 1's antecedent span is (3, 4), top 1 misses -> both pairs miss
    # head 1: all four right -> 1.0; head 2: pair 0 right, item 2 (top 4, span 0-1) wrong -> 0.5
    assert got.tolist() == [[0.0, 1.0, 0.5]]
    # an article counts as the noun phrase (the head finder's rule): word 0 "The" for item 0
    tops2 = tops.clone()
    tops2[0, 0, 1] = 0
    assert head_pair_accuracy(ITEMS, {"encoder_self": tops2})["encoder_self"][0, 1] == 1.0
    # unscored items (-1) miss
    tops2[0, 0, 1] = -1
    assert head_pair_accuracy(ITEMS, {"encoder_self": tops2})["encoder_self"][0, 1] == 0.5


def test_decoder_heads_are_judged_on_the_german_side():
    tops = torch.tensor([[[1]], [[4]], [[1]], [[4]], [[0]]])  # German: "Der Hund" 0-1, "den Kuchen" 3-4
    assert head_pair_accuracy(ITEMS, {"decoder_self": tops})["decoder_self"].item() == 1.0


def test_probe_file_reads_pair_ids_and_refuses_bad_ones(tmp_path):
    f = tmp_path / "p.jsonl"
    line = {"text": "The dog ate the cake because it was hungry .", "pronoun": 6, "antecedent": 1}
    f.write_text(json.dumps({**line, "pair": 3}) + "\n" + json.dumps({**line, "pair": "a"}) + "\n",
                 encoding="utf-8")
    assert [it.pair for it in read_probe_file(f)] == [3, "a"]
    f.write_text(json.dumps({**line, "pair": [1]}) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"p.jsonl:1: pair must be"):
        read_probe_file(f)


KEYS = ["pair", "text", "pronoun", "antecedent", "candidates", "target", "tgt_pronoun",
        "tgt_antecedent"]
FORBIDDEN = {"trophy", "suitcase", "street", "cross"}  # the public tests' words (and frame)


def _minimal_pair_file(name):
    from transformer.data.held_out_sets import PROBES

    return PROBES / name


@pytest.mark.parametrize("name, least", [("minimal_pairs_en.jsonl", 60),
                                         ("minimal_pairs_fresh_en.jsonl", 40)])
def test_shipped_minimal_pairs_are_well_formed(name, least):
    from transformer.probing.probe_items import ARTICLES
    from transformer.probing.pronouns import pronoun_class

    path = _minimal_pair_file(name)
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    assert all(list(d) == KEYS for d in lines), "keys and their order"
    # pair ids 0..N-1, two consecutive lines each
    assert [d["pair"] for d in lines] == [i // 2 for i in range(len(lines))]
    items = read_probe_file(path)
    groups = pair_groups(items)
    assert len(groups) >= least and 2 * len(groups) == len(items)
    assert baseline_pairs(items)["first_noun"] == 0.0
    for it in items:
        words, german = it.text.split(), it.target.split()
        low = [w.lower() for w in words]
        # the pronoun is the sentence's only "it" / "its"; the antecedent is one of two nouns
        assert low[it.pronoun] in ("it", "its") and low.count("it") + low.count("its") == 1, it.text
        assert len(it.candidates) == 2 and it.candidates[0] < it.candidates[1], it.text
        assert it.antecedent in it.candidates, it.text
        for c in it.candidates:  # a noun after its article, not a name
            assert low[c - 1] in ("the", "a", "an") and words[c].isalpha(), (it.text, words[c])
        # German: the pronoun shows a gender, the antecedent is a capitalised noun
        assert pronoun_class(german[it.tgt_pronoun]), (it.target, german[it.tgt_pronoun])
        ante = german[it.tgt_antecedent]
        assert ante[0].isupper() and ante.isalpha() and ante.lower() not in ARTICLES, it.target
        assert not FORBIDDEN & set(low) and not {"animal", "road"} <= set(low), it.text
    for i, j in groups:
        a, b = items[i], items[j]
        wa, wb = a.text.split(), b.text.split()
        assert len(wa) == len(wb) and sum(x != y for x, y in zip(wa, wb)) == 1, a.text
        assert a.candidates == b.candidates and a.pronoun == b.pronoun, a.text
        assert a.antecedent != b.antecedent
        # the two German antecedents are the two candidate nouns, so their genders differ
        assert a.target.split()[a.tgt_antecedent] != b.target.split()[b.tgt_antecedent], a.target
        pa = pronoun_class(a.target.split()[a.tgt_pronoun])
        pb = pronoun_class(b.target.split()[b.tgt_pronoun])
        assert pa and pb and pa != pb, (a.target, b.target)


def _sentences_and_noun_pairs(name):
    from transformer.data.held_out_sets import key as _key

    items = read_probe_file(_minimal_pair_file(name))
    keys = [_key(it.text) for it in items]
    nouns = [frozenset(it.text.lower().split()[c] for c in it.candidates) for it in items]
    return keys, nouns


def test_fresh_minimal_pairs_share_nothing_with_the_first_set():
    old_keys, old_nouns = _sentences_and_noun_pairs("minimal_pairs_en.jsonl")
    new_keys, new_nouns = _sentences_and_noun_pairs("minimal_pairs_fresh_en.jsonl")
    assert not set(new_keys) & set(old_keys)
    assert not set(new_nouns) & set(old_nouns)
    assert len(set(new_keys)) == len(new_keys)  # no sentence twice
    assert len(set(new_nouns)) == len(new_nouns) // 2  # each noun pair is one pair's


def test_heads_cli_reports_pair_accuracy(small_checkpoint, tmp_path, capsys):
    from transformer.probing.heads import main

    f = tmp_path / "pairs.jsonl"
    f.write_text("".join(json.dumps({"pair": it.pair, "text": it.text, "pronoun": it.pronoun,
                                     "antecedent": it.antecedent, "candidates": it.candidates,
                                     "target": it.target, "tgt_pronoun": it.tgt_pronoun,
                                     "tgt_antecedent": it.tgt_antecedent}) + "\n"
                         for it in ITEMS[:4]), encoding="utf-8")
    assert main(["--checkpoint", str(small_checkpoint), "--probe", str(f), "--json",
                 "--threads", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    pr = out["pairs"]
    assert pr["n"] == 2 and pr["baselines"] == {"first_noun": 0.0, "nearest_noun": 0.0}
    assert pr["by_pronoun"] in (0.0, 0.5, 1.0)
    best = pr["best_head"]
    assert best["pair_accuracy"] == max(max(max(r) for r in v) for v in pr["heads"].values())
