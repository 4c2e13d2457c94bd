"""Tokenizer: exact round trips in any script, fixed specials, display labels, word grouping."""
from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from transformer.core.tokenizer import BOS_ID, EOS_ID, PAD_ID, UNK_ID, Tokenizer

TEXTS = [
    "The dog saw the cup because it was hungry .",
    "Der Hund sah den Becher , weil er hungrig war .",
    "Die Straße ist groß und die Bäume sind grün .",
    "Zwei Männer spielen Fußball auf dem Rasen .",
] * 10

ROUND_TRIPS = [
    "The dog saw the cup .",
    "Größe, Straße, Übermaß: äöü ÄÖÜ ß",
    "中文分词测试",
    "emoji 😀👍🏽 and a family 👨‍👩‍👧",
    "mixed: Der Hund 狗 🐕 dog",
    "  leading, double  and trailing spaces  ",
    "tab\tnewline\ncarriage\r\n",
    "ligature ﬁ and combining e\u0301 stay as typed",
    "a literal \u2581 marker, ▁▁ twice",
    "",
]


@pytest.fixture(scope="module")
def tok() -> Tokenizer:
    return Tokenizer.train(TEXTS, vocab_size=400)


@pytest.mark.parametrize("text", ROUND_TRIPS)
def test_round_trip(tok, text):
    assert tok.decode(tok.encode(text)) == text


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=40))
def test_round_trip_any_unicode(tok, text):
    assert tok.decode(tok.encode(text)) == text


def test_specials_have_fixed_ids(tok):
    assert [tok.id_to_piece(i) for i in (PAD_ID, BOS_ID, EOS_ID, UNK_ID)] == ["<pad>", "<s>", "</s>", "<unk>"]
    assert (tok.pad_id, tok.bos_id, tok.eos_id, tok.unk_id) == (0, 1, 2, 3)


def test_encode_has_no_bos_eos_and_decode_skips_them(tok):
    ids = tok.encode("The dog")
    assert ids and BOS_ID not in ids and EOS_ID not in ids
    assert tok.decode([BOS_ID, *ids, EOS_ID, PAD_ID, PAD_ID]) == "The dog"
    assert tok.encode("") == [] and tok.decode([]) == ""


def test_frequent_words_are_single_pieces(tok):
    assert tok.pieces(tok.encode("The dog")) == ["▁The", "▁dog"]


def test_tiny_corpus_raises_vocab_to_minimum_and_learns_symbols():
    tiny = Tokenizer.train(["a b c d", "d c b a", "e f g"] * 5, vocab_size=30)
    assert tiny.requested_vocab_size == 30
    assert 260 < tiny.vocab_size <= 260 + 8 + 30  # bytes + specials + chars + a few merges
    assert tiny.pieces(tiny.encode("a b g")) == ["▁a", "▁b", "▁g"]
    assert tiny.decode(tiny.encode("zebra 🦓")) == "zebra 🦓"


def test_save_load_bytes_and_pickle(tok, tmp_path):
    path = tok.save(tmp_path / "sub" / "spm.model")
    assert [p.name for p in path.parent.iterdir()] == ["spm.model"]  # no temp file left
    for other in (Tokenizer.load(path), Tokenizer.from_bytes(tok.to_bytes()), pickle.loads(pickle.dumps(tok))):
        assert other == tok and other.encode("Der Hund 狗") == tok.encode("Der Hund 狗")


def test_train_files(tmp_path):
    (tmp_path / "a.en").write_text("the dog\nthe cat\n" * 5, encoding="utf-8")
    (tmp_path / "a.de").write_text("der Hund\ndie Katze\n" * 5, encoding="utf-8")
    t = Tokenizer.train_files([tmp_path / "a.en", tmp_path / "a.de"], vocab_size=50)
    assert t.pieces(t.encode("die Katze")) == ["▁die", "▁Katze"]
    with pytest.raises(FileNotFoundError):
        Tokenizer.train_files([tmp_path / "missing"])


def test_display_specials_words_and_bytes(tok):
    ids = [BOS_ID, *tok.encode("The dog 中"), EOS_ID, PAD_ID]
    assert tok.display(ids) == ["<s>", "The", "dog", "▁", "中 1/3", "中 2/3", "中 3/3", "</s>", "<pad>"]
    assert tok.pieces(ids)[4:7] == ["<0xE4>", "<0xB8>", "<0xAD>"]
    lone = tok.piece_to_id("<0xE4>")
    assert tok.display([lone]) == ["0xE4"]  # a byte that makes no complete character
    assert tok.display(tok.encode("\t"))[-1] == "\\t"
    assert tok.display([UNK_ID]) == ["<unk>"]


def test_words_group_positions(tok):
    ids = [BOS_ID, *tok.encode("The dogs 狗 ok"), EOS_ID, PAD_ID]
    groups = tok.words(ids)
    assert groups[0] == [0] and groups[-2:] == [[len(ids) - 2], [len(ids) - 1]]
    assert sorted(p for g in groups for p in g) == list(range(len(ids)))
    assert tok.word_strings(ids) == ["<s>", "The", "dogs", "狗", "ok", "</s>", "<pad>"]


def test_words_after_special_starts_new_word(tok):
    ids = tok.encode("dogs")
    cont = ids[-1]  # a continuation piece placed right after bos still starts a word
    assert tok.words([BOS_ID, cont]) == [[0], [1]]


@pytest.mark.parametrize("bad", [None, 5, b"bytes", ["list"]])
def test_encode_rejects_non_strings(tok, bad):
    with pytest.raises(TypeError, match="must be a str"):
        tok.encode(bad)


def test_bad_ids_and_arguments(tok):
    with pytest.raises(ValueError, match="outside the vocabulary"):
        tok.decode([tok.vocab_size])
    with pytest.raises(TypeError):
        tok.decode(None)
    with pytest.raises(TypeError):
        tok.decode(["a"])
    with pytest.raises(ValueError, match="no training text"):
        Tokenizer.train(["", "   "], vocab_size=10)
    with pytest.raises(TypeError):
        Tokenizer.train("one string", vocab_size=10)
    with pytest.raises(ValueError, match="SentencePiece"):
        Tokenizer.from_bytes(b"not a model")


def test_accepts_tensor_ids(tok):
    torch = pytest.importorskip("torch")
    ids = tok.encode("The dog")
    assert tok.decode(torch.tensor(ids)) == "The dog"
