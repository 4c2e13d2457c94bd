"""Corpora: deterministic synthetic tasks, the anaphora task's guarantees, readers' errors, fetch."""
from __future__ import annotations

import gzip
from collections import Counter
from pathlib import Path

import pytest

from transformer.data import anaphora
from transformer.data.tasks import (CorpusError, fetch_multi30k, load_multi30k, load_parallel,
                                    load_task, load_tsv, main)
from transformer.data.example import Example

SHARED_MULTI30K = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "multi30k"


# ----------------------------------------------------------------------------- synthetic
@pytest.mark.parametrize("name", ["copy", "reverse", "sort", "anaphora"])
def test_tasks_are_deterministic_per_split_and_seed(name):
    a = load_task(name, "train", n=50, seed=3)
    assert a == load_task(name, "train", n=50, seed=3)
    assert a != load_task(name, "train", n=50, seed=4)
    assert a != load_task(name, "val", n=50, seed=3)
    assert all(isinstance(e, Example) and e.src and e.tgt for e in a)


@pytest.mark.parametrize("name", ["copy", "reverse", "sort"])
def test_symbol_task_splits_are_disjoint(name):
    seen = {s: {e.src for e in load_task(name, s, n=300, seed=0)} for s in ("train", "val", "test")}
    assert not seen["train"] & seen["val"] and not seen["train"] & seen["test"] and not seen["val"] & seen["test"]


def test_symbol_task_targets_and_options():
    for e in load_task("copy", "train", n=20):
        assert e.src == e.tgt
    for e in load_task("reverse", "train", n=20):
        assert e.tgt.split() == e.src.split()[::-1]
    for e in load_task("sort", "train", n=20, vocab=30):  # past z: two-letter symbols, vocab order
        order = [chr(97 + i) for i in range(26)] + ["aa", "ab", "ac", "ad"]
        assert e.tgt.split() == sorted(e.src.split(), key=order.index)
    lengths = {len(e.src.split()) for e in load_task("copy", "train", n=200, min_len=2, max_len=3, vocab=5)}
    assert lengths == {2, 3}
    assert len({w for e in load_task("copy", "train", n=200) for w in e.src.split()}) == 20


def test_task_argument_errors():
    with pytest.raises(ValueError, match="unknown task"):
        load_task("nope", "train")
    with pytest.raises(ValueError, match="unknown split"):
        load_task("copy", "dev")
    with pytest.raises(ValueError, match="min_len"):
        load_task("copy", "train", n=1, min_len=5, max_len=2)
    with pytest.raises(ValueError, match="too few distinct"):
        load_task("copy", "test", n=5, min_len=1, max_len=1, vocab=2)
    with pytest.raises(TypeError):
        load_task("copy", "train", n=1, colour="red")


# ------------------------------------------------------------------------------ anaphora
@pytest.fixture(scope="module")
def train_examples():
    return load_task("anaphora", "train", n=1000, seed=0)


def test_lexicon_is_well_formed():
    anaphora.check_lexicon()
    assert sum(n.animate for n in anaphora.ANIMATE) >= 20 and len(anaphora.INANIMATE) >= 20


def test_antecedent_first_and_nearest_baseline_are_near_half(train_examples):
    first = sum(e.meta["antecedent_first"] for e in train_examples) / len(train_examples)
    assert 0.4 <= first <= 0.6
    assert 0.4 <= anaphora.nearest_noun_accuracy(train_examples) <= 0.6
    assert set(Counter(e.meta["template"] for e in train_examples)) == {t.name for t in anaphora.TEMPLATES}


def test_meta_positions_point_at_the_words(train_examples):
    by_en = {n.en: n for n in anaphora.ANIMATE + anaphora.INANIMATE}
    for e in train_examples:
        m, src, tgt = e.meta, e.src.split(), e.tgt.split()
        assert src[m["pronoun_pos"]] == "it"
        assert src[m["antecedent_pos"]] == m["antecedent"] and src[m["other_pos"]] == m["other"]
        assert m["antecedent_first"] == (m["antecedent_pos"] < m["other_pos"])
        ante, other = by_en[m["antecedent"]], by_en[m["other"]]
        assert ante.gender != other.gender == m["other_gender"]
        assert m["pronoun_de"] == {"m": "er", "f": "sie", "n": "es"}[ante.gender]
        assert tgt[m["tgt_pronoun_pos"]] == m["pronoun_de"]
        assert tgt[m["tgt_antecedent_pos"]] in (ante.de, ante.de_acc)
        assert tgt[m["tgt_other_pos"]] in (other.de, other.de_acc)
        pred = next(p for p in anaphora.PREDICATES if p.en == m["predicate"])
        assert pred.fits(ante) and not pred.fits(other)


def test_heldout_pairs_never_seen_in_training():
    train = set(anaphora.pairs("train"))
    test, val = set(anaphora.pairs("heldout")), set(anaphora.pairs("val"))
    assert test and val and not train & test and not train & val and not val & test
    used = {e.meta["pair"] for e in load_task("anaphora", "test", n=300)}
    assert used and not used & {(a.en, t.en) for a, t in train}
    # individual nouns are shared: every noun has training partners
    assert {n for p in train for n in p} == set(anaphora.ANIMATE + anaphora.INANIMATE)
    assert {(a.gender, t.gender) for a, t in test} == {(x, y) for x in "mfn" for y in "mfn" if x != y}


@pytest.mark.parametrize("template, src, tgt", [
    ("because", "The dog saw the cup because it was hungry .",
     "Der Hund sah den Becher , weil er hungrig war ."),
    ("when", "When the cat found the ball , it was broken .",
     "Als die Katze den Ball fand , war er kaputt ."),
    ("but", "The horse watched the bottle , but it was empty .",
     "Das Pferd beobachtete die Flasche , aber sie war leer ."),
    ("and", "The bottle and the horse were in the barn , and it was tired .",
     "Die Flasche und das Pferd waren in der Scheune , und es war müde ."),
])
def test_german_checked_by_hand(template, src, tgt):
    """Generate until the rng picks these words; the German is what a native speaker writes."""
    import random

    words = src.split()
    nouns = {n.en: n for n in anaphora.ANIMATE + anaphora.INANIMATE}
    pair = tuple(sorted((nouns[w] for w in words if w in nouns), key=lambda n: not n.animate))
    tpl = next(t for t in anaphora.TEMPLATES if t.name == template)
    for seed in range(20000):
        got_src, got_tgt, _ = anaphora.make_example(random.Random(seed), pair, tpl)
        if got_src == src:
            assert got_tgt == tgt
            return
    pytest.fail(f"never generated {src!r}")


def test_anaphora_template_option():
    assert {e.meta["template"] for e in load_task("anaphora", "val", n=30, templates=["when"])} == {"when"}
    with pytest.raises(ValueError, match="unknown templates"):
        load_task("anaphora", "val", n=3, templates=["nope"])


# -------------------------------------------------------------------------------- readers
def _write(path: Path, data: str | bytes) -> Path:
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return path


def test_tsv_reads_skips_blank_lines_and_strips(tmp_path):
    p = _write(tmp_path / "c.tsv", "\ufeffhello\thallo\n\n  big dog \t großer Hund\r\n")
    ex = load_tsv(p)
    assert [(e.src, e.tgt) for e in ex] == [("hello", "hallo"), ("big dog", "großer Hund")]
    assert ex[1].meta["line"] == 3


@pytest.mark.parametrize("content, line, message", [
    ("a\tb\nno tab here\n", 2, "no tab"),
    ("a\tb\tc\n", 1, "2 tabs"),
    ("a\tb\n\t target only\n", 2, "empty source"),
    (b"a\tb\nc\t\xff\xfe\n", 2, "not UTF-8"),
    ("", None, "empty"),
    ("\n \n", None, "empty"),
])
def test_tsv_errors_name_file_and_line(tmp_path, content, line, message):
    p = _write(tmp_path / "bad.tsv", content)
    with pytest.raises(CorpusError, match=message) as err:
        load_tsv(p)
    assert str(p) in str(err.value) and err.value.line == line
    if line:
        assert f"{p}:{line}:" in str(err.value)


def test_missing_file_is_one_line_error(tmp_path):
    with pytest.raises(CorpusError, match="not found") as err:
        load_tsv(tmp_path / "nope.tsv")
    assert "\n" not in str(err.value)


def test_parallel_files(tmp_path):
    s = _write(tmp_path / "s.txt", "one\n\ntwo\n")
    t = _write(tmp_path / "t.txt", "eins\n\nzwei\n")
    assert [(e.src, e.tgt, e.meta["line"]) for e in load_parallel(s, t)] == [("one", "eins", 1), ("two", "zwei", 3)]


def test_parallel_errors(tmp_path):
    s = _write(tmp_path / "s.txt", "one\ntwo\nthree\n")
    t = _write(tmp_path / "t.txt", "eins\nzwei\n")
    with pytest.raises(CorpusError, match="3 lines in .* but 2") as err:
        load_parallel(s, t)
    assert err.value.line == 3
    _write(t, "eins\n\ndrei\n")
    with pytest.raises(CorpusError, match="blank line") as err:
        load_parallel(s, t)
    assert f"{t}:2:" in str(err.value)
    _write(t, b"eins\nzw\xc3ei\ndrei\n")
    with pytest.raises(CorpusError, match="not UTF-8") as err:
        load_parallel(s, t)
    assert f"{t}:2:" in str(err.value)


def _fake_multi30k(root: Path) -> Path:
    root.mkdir()
    _write(root / "val.en", "A man &amp; a dog.\nTwo\t cats .\n")
    _write(root / "val.de", "Ein Mann &amp; ein Hund.\nZwei Katzen .\n")
    (root / "test_2016_flickr.en.gz").write_bytes(gzip.compress(b"A cat.\n"))
    _write(root / "test_2016_flickr.de", "Eine Katze.\n")
    _write(root / "bad.en", "a\nb\n")
    _write(root / "bad.de", "a\n")
    return root


def test_multi30k_reader_cleans_and_validates(tmp_path):
    root = _fake_multi30k(tmp_path / "m30k")
    ex = load_multi30k(root, "val")
    assert [(e.src, e.tgt) for e in ex] == [("A man & a dog.", "Ein Mann & ein Hund."), ("Two cats .", "Zwei Katzen .")]
    assert ex[1].meta["line"] == 2
    assert load_multi30k(root, "test_2016_flickr")[0].src == "A cat."
    assert load_multi30k(root, "val", src_lang="de", tgt_lang="en")[0].src == "Ein Mann & ein Hund."
    with pytest.raises(CorpusError, match="2 lines in .* but 1"):
        load_multi30k(root, "bad")
    with pytest.raises(CorpusError, match="not found"):
        load_multi30k(root, "train")
    with pytest.raises(CorpusError, match="directory not found"):
        load_multi30k(tmp_path / "none", "val")


@pytest.mark.skipif(not SHARED_MULTI30K.is_dir(), reason="shared Multi30k copy not on this machine")
def test_real_multi30k_val():
    ex = load_multi30k(SHARED_MULTI30K, "val")
    assert len(ex) == 1014 and all(e.src and e.tgt and "\t" not in e.tgt for e in ex)


# ---------------------------------------------------------------------------------- fetch
def _fake_remote(root: Path, langs=("en", "de", "fr")) -> str:
    root.mkdir()
    for split in ("train", "val", "test_2016_flickr", "test_2017_flickr", "test_2018_flickr"):
        for lang in langs:
            text = f"{split} {lang} one\n{split} {lang} &amp; two\n".encode()
            if split == "val":  # plain files are accepted too
                (root / f"{split}.{lang}").write_bytes(text)
            else:
                (root / f"{split}.{lang}.gz").write_bytes(gzip.compress(text))
    return root.as_uri() + "/"


def test_fetch_from_file_url(tmp_path, capsys):
    source = _fake_remote(tmp_path / "remote")
    dest = tmp_path / "out"
    assert main(["fetch", "multi30k", "--to", str(dest), "--source", source]) == 0
    assert sorted(p.name for p in dest.iterdir()) == sorted(
        f"{s}.{lang}" for s in ("train", "val", "test_2016_flickr", "test_2017_flickr", "test_2018_flickr")
        for lang in ("en", "de", "fr"))
    assert load_multi30k(dest, "train")[1].src == "train en & two"
    assert "non-commercial" in capsys.readouterr().out


def test_fetch_failure_is_one_line_exit_2_and_leaves_nothing(tmp_path, capsys):
    source = _fake_remote(tmp_path / "remote", langs=("en", "de"))  # no French files
    dest = tmp_path / "out"
    assert main(["fetch", "multi30k", "--to", str(dest), "--source", source]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("error: download failed") and "train.fr" in err[-1]
    assert list(dest.iterdir()) == []  # temp directory removed, no partial files


def test_fetch_function_checks_line_counts(tmp_path):
    remote = tmp_path / "remote"
    source = _fake_remote(remote)
    (remote / "val.de").write_text("only one line\n")
    with pytest.raises(CorpusError, match="different line counts"):
        fetch_multi30k(tmp_path / "out", source)


def test_show_cli(capsys):
    assert main(["show", "anaphora", "--n", "2"]) == 0
    out = capsys.readouterr().out
    assert out.count("->") == 2 and "pronoun_pos" in out


def test_anaphora_word_positions_survive_tokenization(train_examples):
    """The Figure 4 page maps meta word positions to token positions through Tokenizer.words."""
    from transformer.core.tokenizer import Tokenizer

    sample = train_examples[:200]
    tok = Tokenizer.train([e.src for e in sample] + [e.tgt for e in sample], vocab_size=40)
    for e in sample:
        assert tok.word_strings(tok.encode(e.src)) == e.src.split()
        assert tok.word_strings(tok.encode(e.tgt)) == e.tgt.split()
