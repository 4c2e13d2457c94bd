"""Pronoun labels on Multi30k's German captions (transformer/train/corpus_pronouns.py): the rule on
written cases with a small gender table, and on the real corpus where it is at hand."""
from __future__ import annotations

import pytest

from transformer.train import corpus_pronouns as CP

GENDERS = {"Frau": "f", "Mann": "m", "Hund": "m", "Leine": "f", "Ball": "m", "Auto": "n",
           "Junge": "m", "Katze": "f", "Tasche": "f", "Gebäude": "n", "Zaun": "m", "Handy": "n",
           "Mädchen": "n", "Felswand": "f", "Hunde": None, "Straße": "f"}


@pytest.fixture
def lab():
    return CP.Labeller(lambda w: w in GENDERS, lambda w: GENDERS.get(w))


@pytest.mark.parametrize("src,tgt,want", [
    # ihrer: f or pl; Frau is the only feminine noun before it (Hund is masculine)
    ("A woman walks a dog on her leash .", "Eine Frau führt einen Hund an ihrer Leine .", (6, 1)),
    # seinem: m or n; the masculine noun before it is the one
    ("A man talks on his phone .", "Ein Mann telefoniert mit seinem Handy .", (4, 1)),
    # er after two nouns, one masculine
    ("A woman watches a dog as he runs .", "Eine Frau beobachtet einen Hund , während er rennt .",
     (7, 4)),
    # plural after a numeral: ihre -> Hunde (Katze is feminine too: two agree, no label)
    ("Two dogs and their ball .", "Zwei Hunde spielen mit ihrem Ball .", (4, 1)),
    ("A cat watches two dogs and their ball .", "Eine Katze beobachtet zwei Hunde mit ihrem Ball .",
     None),
    # two masculine nouns: sein- could be either
    ("A man throws a ball to his dog .", "Ein Mann wirft einen Ball zu seinem Hund .", None),
    # es is skipped (often expletive); no other pronoun
    ("A car is parked and it is red .", "Ein Auto parkt und es ist rot .", None),
    # natural gender: das Mädchen ... ihr Handy (agreement would pick the Felswand)
    ("A girl on a rock wall looks at her phone .",
     "Ein Mädchen auf einer Felswand schaut auf ihr Handy .", None),
    # "und" opening a noun phrase: ihre is both people's
    ("A man and a woman carry their bag .", "Ein Mann und eine Frau tragen ihre Tasche .", None),
    # ... but a clause "und" before a verb is fine
    ("A woman stands and holds her bag .", "Eine Frau steht und hält ihre Tasche .", (5, 1)),
    # a noun of unknown gender before the pronoun: skipped
    ("Dogs and a man with his ball .", "Hunde sind bei einem Mann mit seinem Ball .", None),
    # no English pronoun: skipped
    ("A woman with a bag .", "Eine Frau mit ihrer Tasche .", None),
    # sentence-initial Sie (formal or plural): not a query
    ("They walk down the street .", "Sie gehen die Straße entlang .", None),
])
def test_the_rule_on_written_cases(lab, src, tgt, want):
    assert lab.label(src, tgt) == want


def test_label_pairs_gives_the_positions_supervision_reads(lab, tokenizer):
    from transformer.probing import supervise

    tgts = ["Eine Frau führt einen Hund an ihrer Leine .", "Ein Hund ."]
    metas = CP.label_pairs(["A woman walks a dog on her leash .", "A dog ."], tgts, lab)
    assert metas[0] == {"tgt_pronoun_pos": 6, "tgt_antecedent_pos": 1, "pronoun_source": "multi30k"}
    assert metas[1] == {}
    (q, keys), none = supervise.targets(tokenizer, tgts, metas)
    assert none is None
    ids = tokenizer.encode(tgts[0])  # decoder input = [BOS] + ids: key k holds piece k - 1
    assert tokenizer.decode([ids[k - 1] for k in keys]) == "Eine Frau"
    assert "ihrer".startswith(tokenizer.decode([ids[q]]).strip())


def test_on_multi30k_the_labels_agree_and_are_about_a_thousand():
    from transformer.data import genders
    from transformer.data.tasks import load_multi30k
    from transformer.probing.pronouns import pronoun_class

    root = genders.find_multi30k()
    if root is None:
        pytest.skip("Multi30k not at hand (../shared/data/multi30k)")
    pairs = load_multi30k(root, "train")
    src, tgt = [p.src for p in pairs], [p.tgt for p in pairs]
    corpus = genders.Corpus(src, tgt)
    lab = CP.from_corpus(corpus)
    metas = CP.label_pairs(src, tgt, lab)
    got = [(t, m) for t, m in zip(tgt, metas) if m]
    assert 800 <= len(got) <= 2000, len(got)
    for t, m in got:
        words = t.split()
        cls = pronoun_class(words[m["tgt_pronoun_pos"]])
        ante = m["tgt_antecedent_pos"]
        assert ante < m["tgt_pronoun_pos"]
        assert lab.noun_class(words, ante) in CP.AGREES[cls], (t, m)


def test_the_classroom_corpus_carries_the_labels_only_when_asked(tmp_path):
    """--task classroom --task-opt corpus_labels=1: Multi30k's pairs carry the labels that
    supervise.targets reads; without it they carry none (the shipped recipe's data)."""
    from transformer.data import genders
    from transformer.train.corpus import UsageError
    from transformer.train.corpus import CorpusSpec, load_corpus

    root = genders.find_multi30k()
    if root is None:
        pytest.skip("Multi30k not at hand (../shared/data/multi30k)")
    plain = load_corpus(CorpusSpec("classroom", 0, {"n": 50}, data_dir=str(root)))
    labelled = load_corpus(CorpusSpec("classroom", 0, {"n": 50, "corpus_labels": 1}, data_dir=str(root)))
    n_m30k = len(plain.train_src) - 50
    assert plain.train_src == labelled.train_src and plain.train_tgt == labelled.train_tgt
    assert not any("tgt_pronoun_pos" in m for m in plain.train_meta[:n_m30k])
    got = [m for m in labelled.train_meta[:n_m30k] if "tgt_pronoun_pos" in m]
    assert 800 <= len(got) <= 2000 and all(m["pronoun_source"] == "multi30k" for m in got)
    assert labelled.train_meta[n_m30k:] == plain.train_meta[n_m30k:]  # the generated pairs' own
    assert "with a pronoun label" in labelled.description
    with pytest.raises(UsageError, match="corpus_labels"):
        load_corpus(CorpusSpec("classroom", 0, {"n": 50, "corpus_labels": 2}, data_dir=str(root)))
