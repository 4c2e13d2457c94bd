"""transformer.probing.dropped: the dropped-word alarm on hand-made cases, its measurement
(precision, recall, the operating point, cross-validation), and the labelled set held out of
training."""
from __future__ import annotations

import json

import pytest
import torch

from transformer.data import held_out_sets as hs
from transformer.probing import contributions as CB
from transformer.probing import dropped as D
from transformer.probing.inspect import inspect_text


def test_draws_on_hand_made_shares():
    # 3 output words over 4 source words; nobody draws on word 2, word 0 is one word's source
    m = torch.tensor([[0.8, 0.1, 0.0, 0.1],
                      [0.1, 0.5, 0.0, 0.4],
                      [0.2, 0.2, 0.0, 0.2]])  # row 3 sums to 0.6: scaled to 1 first
    d = D.draws(m)
    assert d[2] == 0.0
    assert d[0] == pytest.approx(0.8 * 4)
    assert d[1] == pytest.approx(max(0.1, 0.5, 0.2 / 0.6) * 4)
    even = D.draws(torch.full((2, 5), 0.1))
    assert even == pytest.approx([1.0] * 5)  # an even share is 1
    assert D.draws(torch.zeros(2, 3)) == [0.0, 0.0, 0.0]


def test_the_alarm_marks_words_under_the_threshold_never_punctuation():
    a = D.Alarm(["I", "drink", "and", "know", "things", "."], [1.5, 0.05, 0.9, 1.2, 0.2, 0.01],
                ["Ich", "weiß", "."], [0.8, 0.3, 0.6], threshold=0.25)
    assert [a.src_words[i] for i in a.dropped] == ["drink", "things"]  # "." is never marked
    assert [a.out_words[i] for i in a.little_source] == ["weiß"]
    assert D.Alarm(a.src_words, a.draw, a.out_words, a.source_share, None).dropped == []
    assert D.is_punct(",") and D.is_punct("?!") and not D.is_punct("it's")


def test_precision_recall_and_the_operating_point():
    gold = [True, True, False, True, False, False, False, False]
    score = [0.1, 0.2, 0.25, 0.3, 0.5, 0.6, 0.7, 0.9]
    pr = D.precision_recall([s < 0.35 for s in score], gold)
    assert (pr["tp"], pr["fp"], pr["fn"]) == (3, 1, 0)
    assert pr["precision"] == 0.75 and pr["recall"] == 1.0
    # best recall with precision >= 0.7: all three positives, one false alarm (0.75)
    t = D.choose_threshold(score, gold, 0.7)
    assert 0.3 < t <= 0.5
    # precision >= 0.9: only the first two
    t = D.choose_threshold(score, gold, 0.9)
    assert 0.2 < t < 0.25
    assert D.choose_threshold([0.1, 0.2], [False, False], 0.7) is None
    assert D.precision_recall([False, False], [False, False])["precision"] is None


def test_cross_validation_chooses_each_folds_threshold_on_the_others():
    # 10 sentences; in each, a dropped word scores 0.1 and translated words 0.5 and 0.9
    groups = [[(0.1, True), (0.5, False), (0.9, False)] for _ in range(10)]
    cv = D.cross_validated(groups, folds=5)
    assert cv["precision"] == 1.0 and cv["recall"] == 1.0 and len(cv["thresholds"]) == 5
    assert all(0.1 < t < 0.5 for t in cv["thresholds"])
    # nothing separates the classes: no fold reaches precision 0.7, nothing is marked
    flat = [[(0.5, True), (0.5, False), (0.5, False)] for _ in range(10)]
    cv = D.cross_validated(flat, folds=5)
    assert cv["marked"] == 0 and cv["thresholds"] == [None] * 5


def test_the_alarm_on_a_model_lists_every_source_word(small_checkpoint):
    from transformer.core.checkpoint import load_checkpoint

    ck = load_checkpoint(small_checkpoint)
    text = "A dog runs in the park ."
    ins = inspect_text(ck.model, ck.tokenizer, text)
    a = D.alarm(ck.model, ck.tokenizer, ins.src_ids, ins.tgt_ids, threshold=0.5)
    assert a.src_words == text.split()
    assert len(a.draw) == len(a.src_words) and all(d >= 0 for d in a.draw)
    assert len(a.source_share) == len(a.out_words)
    # the same contributions passed in give the same alarm; a huge threshold marks every word
    c = CB.contributions(ck.model, ins.src_ids, ins.tgt_ids, D.METHOD)
    again = D.alarm(ck.model, ck.tokenizer, ins.src_ids, ins.tgt_ids, threshold=0.5, c=c)
    assert again.draw == pytest.approx(a.draw)
    everything = D.alarm(ck.model, ck.tokenizer, ins.src_ids, ins.tgt_ids, threshold=1e9, c=c)
    if everything.out_words:
        assert [everything.src_words[i] for i in everything.dropped] == text.split()[:-1]


def test_a_labelled_jsonl_is_held_out_of_training(tmp_path, monkeypatch):
    labelled = tmp_path / "dropped_words_en_de.jsonl"
    src = "I drink and I know things ."
    row = {"src": src, "output": "Ich weiß und ich weiß .",
           "words": [{"word": w, "label": "translated"} for w in src.split()]}
    labelled.write_text(json.dumps(row) + "\n", encoding="utf-8")
    tsv = tmp_path / "everyday_en_de.tsv"
    tsv.write_text("The weather is nice today .\tDas Wetter ist heute schön .\n", encoding="utf-8")
    monkeypatch.setattr(hs, "EVERYDAY_FILES", (tsv, labelled))
    keys = hs.held_out_keys()
    assert hs.key(row["src"]) in keys
    assert hs.key("The weather is nice today .") in keys
    assert row["src"] in hs.everyday_test_sentences()
    assert D.read_labelled(labelled) == [row]


def test_the_shipped_labelled_set_is_in_the_held_out_list():
    assert D.LABELLED in hs.EVERYDAY_FILES
    if not D.LABELLED.is_file():
        pytest.skip("the labelled set is not written yet")
    keys = hs.held_out_keys()
    rows = D.read_labelled()
    assert rows and all(hs.key(r["src"]) in keys for r in rows)
    for r in rows:  # the format the bench reads
        assert [w["word"] for w in r["words"]] == r["src"].split()
        assert {w["label"] for w in r["words"]} <= {"translated", "dropped"}


def test_the_operating_point_is_shown_only_with_precision_at_least_0_7():
    m = D.MEASURED
    if D.THRESHOLD is not None:
        assert m["tp"] / m["marked"] >= 0.7
    assert m["sure_ok"] <= m["sure_n"] and m["guess_ok"] <= m["guess_n"]
