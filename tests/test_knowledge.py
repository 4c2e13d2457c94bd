"""What a model knows (transformer/probing/knowledge.py): word lists, coverage numbers recomputed
independently, marks on a teacher's sentence, the shipped checkpoints' records."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from transformer.probing import knowledge
from transformer.core.tokenizer import Tokenizer

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def m30k_tok():
    return Tokenizer.load(ROOT / "checkpoints/multi30k-en-de/tokenizer.model")


def test_words_split_lowercase_and_keep_inner_apostrophes():
    assert knowledge.words("The animal didn't cross the street, because it was too tired .") == [
        "the", "animal", "didn't", "cross", "the", "street", "because", "it", "was", "too", "tired"]
    assert knowledge.words("  ... !! ") == []
    assert knowledge.words("Café ÜBER 3 Hunde") == ["café", "über", "3", "hunde"]


def test_coverage_numbers_match_an_independent_count(m30k_tok):
    corpus = ["A dog runs on the street .", "A dog and a dog .", "Zyzzyvas zyzzyva !"]
    rec = knowledge.build(m30k_tok, corpus, "multi30k")
    toks = [w.lower() for s in corpus for w in re.findall(r"[A-Za-z]+", s)]
    pieces = {w: len(m30k_tok.encode(w)) for w in set(toks)}
    assert rec["coverage"]["running_words"] == len(toks)
    assert rec["coverage"]["distinct_words"] == len(set(toks))
    one = sum(pieces[w] == 1 for w in toks) / len(toks)
    many = sum(pieces[w] >= 3 for w in toks) / len(toks)
    assert rec["coverage"]["one_piece_share"] == pytest.approx(one, abs=1e-4)
    assert rec["coverage"]["many_pieces_share"] == pytest.approx(many, abs=1e-4)
    assert pieces["zyzzyvas"] >= 3 and many > 0  # the test sees both kinds
    assert rec["seen_words"] == sorted(set(toks)) and rec["seen_words_complete"]
    assert "caption" in rec["domain"]["en"] and rec["domain"]["zh"]


def test_marks_a_teachers_sentence(m30k_tok):
    rec = knowledge.build(m30k_tok, ["The animal crossed the street .", "it was"], "multi30k")
    marks = {m.word: m for m in knowledge.mark(m30k_tok, rec, "The animal didn't cross the street "
                                                               "because it was too tired .")}
    assert not marks["animal"].marked and not marks["street"].marked
    assert marks["because"].seen is False and marks["because"].marked
    assert marks["because"].pieces == len(m30k_tok.encode("because")) >= 3
    # a checkpoint without a record: only the piece counts can mark
    bare = {m.word: m for m in knowledge.mark(m30k_tok, None, "a dog because")}
    assert bare["dog"].seen is None and not bare["dog"].marked
    assert bare["because"].marked  # three pieces
    # a truncated word list cannot call a word unseen
    cut = dict(rec, seen_words_complete=False)
    assert knowledge.mark(m30k_tok, cut, "because")[0].seen is None


def test_write_keeps_the_rest_of_history(tmp_path):
    (tmp_path / "history.json").write_text(json.dumps({"train": [[1, 2.0]], "eval": []}))
    knowledge.write(tmp_path, {"domain": {"en": "x", "zh": "y"}})
    h = json.loads((tmp_path / "history.json").read_text())
    assert h["train"] == [[1, 2.0]] and h["knowledge"]["domain"]["en"] == "x"
    assert not list(tmp_path.glob(".*tmp"))


@pytest.mark.parametrize("name", ["classroom-en-de", "multi30k-en-de", "anaphora-en-de", "copy-tiny", "reverse-tiny"])
def test_shipped_checkpoints_say_what_they_know(name):
    from transformer.core.checkpoint import load_checkpoint

    ck = load_checkpoint(ROOT / "checkpoints" / name)
    rec = ck.history["knowledge"]
    assert rec["domain"]["en"] and rec["domain"]["zh"]
    assert rec["coverage"]["distinct_words"] == len(rec["seen_words"])
    assert 4 <= len(rec["examples"]) <= 6
    seen = set(rec["seen_words"])
    for ex in rec["examples"]:  # offered sentences use only words the model saw
        assert all(w in seen for w in knowledge.words(ex)), ex


def test_multi30k_knows_the_classroom_words_but_not_because():
    from transformer.core.checkpoint import load_checkpoint

    ck = load_checkpoint(ROOT / "checkpoints/multi30k-en-de")
    marks = {m.word: m for m in knowledge.mark(ck.tokenizer, ck.history["knowledge"],
                                               "The animal crossed the street because it was tired")}
    for w in ("animal", "street", "the"):
        assert marks[w].pieces == 1 and marks[w].seen and not marks[w].marked
    assert marks["because"].marked


def test_the_trainer_records_knowledge(tmp_path):
    from transformer.train.cli import run
    from transformer.core.checkpoint import load_checkpoint

    out = tmp_path / "run"
    run(["--task", "copy", "--preset", "tiny", "--d-model", "16", "--heads", "2",
               "--layers", "1", "--d-ff", "32", "--steps", "3", "--eval-every", "3",
               "--checkpoint-every", "3", "--batch-tokens", "256", "--out", str(out),
               "--threads", "1"])
    ck = load_checkpoint(out / "checkpoints" / "last")
    rec = ck.history["knowledge"]
    assert "copy" in rec["domain"]["en"] and rec["seen_words"] and rec["examples"]


def test_init_fine_tunes_from_a_checkpoint(tmp_path, small_checkpoint):
    """--init starts from the checkpoint's weights, vocabulary and settings: with a learning rate
    of almost zero the saved weights equal the initial ones, and the tokenizer is the same."""

    from transformer.train.cli import run
    from transformer.train.corpus import UsageError
    from transformer.core.checkpoint import load_checkpoint

    out = tmp_path / "ft"
    run(["--task", "copy", "--init", str(small_checkpoint), "--steps", "2",
               "--lr-scale", "1e-12", "--eval-every", "2", "--checkpoint-every", "2",
               "--batch-tokens", "256", "--out", str(out), "--threads", "1"])
    a, b = load_checkpoint(small_checkpoint), load_checkpoint(out / "checkpoints" / "last")
    assert a.model_config == b.model_config
    assert a.tokenizer.to_bytes() == b.tokenizer.to_bytes()
    sa, sb = a.model.state_dict(), b.model.state_dict()
    assert max(float((sa[k] - sb[k]).abs().max()) for k in sa) < 1e-6
    assert b.train_config["extra"]["init"] == str(small_checkpoint)
    with pytest.raises(UsageError, match="--init"):
        run(["--task", "copy", "--init", str(tmp_path / "nope"), "--steps", "1",
                   "--out", str(tmp_path / "ft2")])


@pytest.mark.parametrize("lang,words", [("en", ("never saw", "`because`")),
                                        ("zh", ("从未见过", "`because`"))])
def test_attention_page_marks_unknown_words_and_offers_sentences(monkeypatch, tmp_path, lang,
                                                                 words):
    import shutil

    from app_helpers import no_errors, open_app

    d = tmp_path / "shipped"
    d.mkdir()
    shutil.copytree(ROOT / "checkpoints" / "multi30k-en-de", d / "multi30k-en-de")
    at = open_app(monkeypatch, d, tmp_path, page="pages/attention.py", lang=lang)
    no_errors(at)
    at.text_input(key="attention_text").set_value(
        "The animal didn't cross the street because it was too tired .").run()
    no_errors(at)
    warn = " ".join(w.value for w in at.warning)
    assert all(w in warn for w in words), warn
    assert "`street`" not in warn and "`animal`" not in warn  # known, one piece each
    # the offered sentences are the checkpoint's measured examples; choosing one fills the box
    rec = json.loads((d / "multi30k-en-de" / "history.json").read_text())["knowledge"]
    pills = at.button_group(key="attention_text__offer")
    pills.select(rec["examples"][1]).run()
    no_errors(at)
    assert at.text_input(key="attention_text").value == rec["examples"][1]
    assert not at.warning  # an offered sentence has no marked word


def test_examples_hold_only_seen_words():
    class Tok:
        vocab_size = 10

        def encode(self, w):
            return [1]

    rec = knowledge.build(Tok(), ["a dog runs", "a cat sleeps"], "multi30k",
                          examples=["a dog sleeps", "a snapshot of a dog"])
    assert rec["examples"] == ["a dog sleeps"]


# ---- issue 20: text a model cannot read gets a note, not silent word salad
def test_foreign_script_is_recognised():
    from transformer.probing.knowledge import foreign_script

    assert foreign_script("我不明白这个问题。") == "cjk"
    assert foreign_script("こんにちは、元気ですか") == "cjk"
    assert foreign_script("Привет, как дела ?") == "other"
    assert foreign_script("The dog 跑 in the park .") is None  # one Chinese letter in many
    assert foreign_script("Der Hund läuft über die Straße .") is None
    assert foreign_script("12 + 3 = 15 !") is None
    assert foreign_script("") is None


def test_everyday_knowledge_rebuilds_the_mix_the_checkpoint_recorded(tmp_path, small_checkpoint,
                                                                    monkeypatch, capsys):
    """`python -m recipes.everyday.knowledge --task everyday` builds the mix with the
    checkpoint's own recorded --task-opt values and seed: a word that only an optional source
    (life=N) or only that seed's draw holds must count as seen, so the call must carry both."""
    import shutil

    from transformer.data.example import Example

    ck = tmp_path / "ck"
    shutil.copytree(small_checkpoint, ck)
    cfg = json.loads((ck / "config.json").read_text())
    cfg["train"].update(seed=38, extra={"task_opts": {"life": 20000, "m30k_repeat": 3}})
    (ck / "config.json").write_text(json.dumps(cfg))
    calls = []

    def fake_build(data_dir, seed=0, **opts):
        calls.append((data_dir, seed, opts))
        return ([Example("Put the milk away .", "Stell die Milch weg .")],
                {"ding": [Example("A dog runs .", "Ein Hund rennt .")]}, "fake mix")

    from transformer.data import builders

    # the name a launcher registers (python -m recipes.everyday.knowledge: the real mix)
    monkeypatch.setattr(builders, "_REGISTERED", {"everyday": fake_build})
    assert knowledge.main(["--checkpoint", str(ck), "--task", "everyday",
                           "--data-dir", "somewhere", "--examples", "1"]) == 0
    assert calls == [("somewhere", 38, {"life": 20000, "m30k_repeat": 3})]
    rec = json.loads((ck / "history.json").read_text())["knowledge"]
    assert {"put", "milk", "away"} <= set(rec["seen_words"])
    assert "dog" not in rec["seen_words"]  # validation sentences are not the training mix

    # a record already there is kept: a second run is refused with one line, and --force replaces it
    before = (ck / "history.json").read_text()
    with pytest.raises(SystemExit) as e:
        knowledge.main(["--checkpoint", str(ck), "--task", "everyday", "--data-dir", "somewhere"],
                       prog="python -m recipes.everyday.knowledge")
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "python -m recipes.everyday.knowledge" in err and "already records what it knows" in err
    assert "--force" in err and (ck / "history.json").read_text() == before
    assert len(calls) == 1  # refused before building the mix
    assert knowledge.main(["--checkpoint", str(ck), "--task", "everyday", "--data-dir", "somewhere",
                           "--examples", "1", "--force"]) == 0
    assert len(calls) == 2
