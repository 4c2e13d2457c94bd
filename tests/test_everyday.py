"""recipes.everyday.mix: the training mix of issue 20, on small fixtures (a 4-pair Multi30k
folder and a hand-written Ding file); the hand-written test sets it holds out
(transformer.data.held_out_sets); and the trainer's --task everyday (registered by the recipe's
launcher) end to end, tiny."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from recipes.everyday import mix
from transformer.data import held_out_sets as hs
from transformer.data import textbook
from transformer.train.corpus import CorpusSpec, UsageError, load_corpus

from helpers import everyday_dirs

DING = Path(__file__).parent / "data"  # ding_small.txt, copied to de-en.txt below
M30K = [("A dog runs in the park .", "Ein Hund rennt im Park ."),
        ("Two men play football .", "Zwei Männer spielen Fußball ."),
        ("A girl walks .", "Ein Mädchen geht ."),
        ("The cat sleeps .", "Die Katze schläft .")]


@pytest.fixture
def dirs(tmp_path):
    return everyday_dirs(tmp_path, M30K, (DING / "ding_small.txt").read_text(encoding="utf-8"))


def test_mix_holds_every_source_in_its_proportion(dirs):
    m, d = dirs
    train, val, desc = mix.build(str(m), 0, ding_dir=str(d), ding_repeat=3, phrases=5,
                                      pronouns=10, textbook=20, daily=0, talk=0)
    sources = [ex.meta.get("source") or ex.meta.get("task") or "multi30k" for ex in train]
    assert sources.count("multi30k") == 4
    n_ding = sum(1 for ex in train if ex.meta.get("source") == "ding")
    assert n_ding == 3 * len({ex.src for ex in train if ex.meta.get("source") == "ding"})
    assert sources.count("classroom_pronouns") == 10
    assert 0 < sources.count("textbook") <= 20
    assert "Ding" in desc and "textbook" in desc and "Multi30k" in desc
    assert set(val) == {"multi30k", "ding", "textbook"}
    # a held-out Ding sentence is never trained on
    trained = {ex.src for ex in train}
    assert not any(ex.src in trained for ex in val["ding"])


def test_project_test_sentences_and_their_noun_pairs_are_not_trained(dirs, monkeypatch, tmp_path):
    m, d = dirs
    probe = tmp_path / "pairs.jsonl"
    gen = textbook.generate("train", n=20, seed=0)
    held = gen[0]
    probe.write_text(json.dumps({"pair": 0, "text": held.src, "pronoun": held.meta["pronoun_pos"],
                                 "antecedent": held.meta["antecedent_pos"],
                                 "candidates": held.meta["candidates_pos"]}) + "\n",
                     encoding="utf-8")
    tsv = tmp_path / "everyday.tsv"
    tsv.write_text("The weather is nice today .\tDas Wetter ist heute schön .\n", encoding="utf-8")
    monkeypatch.setattr(hs, "MINIMAL_PAIR_FILES", (probe,))
    monkeypatch.setattr(hs, "EVERYDAY_FILES", (tsv,))
    train, _, desc = mix.build(str(m), 0, ding_dir=str(d), textbook=20, pronouns=0,
                                    daily=0, talk=0)
    nouns = mix.generated_pair_nouns(held)
    assert not any(ex.src == held.src for ex in train)
    assert not any(mix.generated_pair_nouns(ex) == nouns for ex in train
                   if ex.meta.get("task") == "textbook")
    assert not any("weather is nice today" in ex.src for ex in train)  # from Ding, held out
    assert "1 removed" in desc


def test_multi30k_can_be_repeated_and_says_so(dirs):
    m, d = dirs
    train, _, desc = mix.build(str(m), 0, ding_dir=str(d), m30k_repeat=3, phrases=0,
                                    pronouns=0, textbook=0, daily=0, talk=0)
    captions = [ex.src for ex in train if not ex.meta.get("source") and not ex.meta.get("task")]
    assert sorted(captions) == sorted([src for src, _ in M30K] * 3)
    assert "(4 pairs x 3)" in desc
    _, _, plain = mix.build(str(m), 0, ding_dir=str(d), phrases=0, pronouns=0, textbook=0,
                                    daily=0, talk=0)
    assert "(4 pairs)" in plain
    with pytest.raises(ValueError, match="m30k_repeat"):
        mix.check_options({"m30k_repeat": -1})


def test_shipped_test_sets_are_held_out_by_default():
    keys = hs.held_out_keys()
    assert hs.key("I don't understand the question .") in keys
    fresh = hs.PROBES / "everyday_fresh_en_de.tsv"
    assert fresh in hs.EVERYDAY_FILES
    first_fresh = fresh.read_text(encoding="utf-8").splitlines()[0].split("\t")[0]
    assert hs.key(first_fresh) in keys
    assert len(keys) >= 126 + 100 + 2 * 60
    assert len(hs.held_out_noun_pairs()) >= 60
    # issue 50's hand-written held-out sets (tests/test_heldout.py checks every line)
    for name in ("lesson_en_de.tsv", "seeds_en_de.tsv"):
        path = hs.PROBES / name
        assert path in hs.EVERYDAY_FILES
        first = path.read_text(encoding="utf-8").splitlines()[0].split("\t")[0]
        assert hs.key(first) in keys


def test_the_third_everyday_set_is_held_out_and_shares_no_sentence_with_the_others():
    """everyday_third_en_de.tsv (written by an author who read no file of the project) is held out
    like the others, and none of its 100 English sentences is one of the first two sets'."""
    third = hs.PROBES / "everyday_third_en_de.tsv"
    assert third in hs.EVERYDAY_FILES
    keys = hs.held_out_keys()

    def english(name):
        lines = (hs.PROBES / name).read_text(encoding="utf-8").splitlines()
        return [hs.key(x.split("\t")[0]) for x in lines if x.strip()]
    third_keys = english("everyday_third_en_de.tsv")
    assert len(third_keys) == len(set(third_keys)) == 100
    assert set(third_keys) <= keys
    assert not set(third_keys) & set(english("everyday_en_de.tsv") + english("everyday_fresh_en_de.tsv"))


def test_every_minimal_pair_file_is_held_out():
    names = [p.name for p in hs.MINIMAL_PAIR_FILES]
    assert "minimal_pairs_en.jsonl" in names and "minimal_pairs_fresh_en.jsonl" in names
    assert hs.MINIMAL_PAIRS in hs.MINIMAL_PAIR_FILES
    fresh = [json.loads(x) for x in (hs.PROBES / "minimal_pairs_fresh_en.jsonl")
             .read_text(encoding="utf-8").splitlines() if x.strip()]
    assert len(fresh) >= 80
    pairs, keys = hs.held_out_noun_pairs(), hs.held_out_keys()
    for item in fresh:
        words = item["text"].lower().split()
        assert frozenset(words[i] for i in item["candidates"]) in pairs, item["text"]
        assert hs.key(item["text"]) in keys, item["text"]
    assert frozenset({"goose", "bread"}) in pairs  # the fresh set's first pair
    assert frozenset({"dog", "milk"}) in pairs  # and the first set's still


def test_the_defaults_are_the_shipped_models_mix():
    """`--task everyday` without options is the mix the default model read (its card's chunk 10)."""
    card = (Path(__file__).resolve().parents[1] / "checkpoints" / "everyday-en-de" / "README.md"
            ).read_text(encoding="utf-8")
    for key in ("daily", "talk", "pronouns", "textbook"):
        assert f"--task-opt {key}={mix.DEFAULTS[key]}" in card, key


def test_bad_options_and_missing_ding_say_so(dirs, monkeypatch):
    m, d = dirs
    with pytest.raises(ValueError, match="unknown option 'nope'"):
        mix.build(str(m), 0, ding_dir=str(d), nope=1)
    with pytest.raises(ValueError, match="phrases must be a non-negative integer"):
        mix.build(str(m), 0, ding_dir=str(d), phrases=-3)
    monkeypatch.setattr(mix, "find_ding", lambda given=None: None)
    with pytest.raises(ValueError, match="ding_dir=DIR"):
        mix.build(str(m), 0)


@pytest.fixture
def registered(monkeypatch):
    """The task name "everyday" registered as the launchers do, for this test only."""
    from transformer.data import builders

    monkeypatch.setattr(builders, "_REGISTERED", {})
    mix.register()


def test_trainer_loads_the_everyday_task_with_its_usage_errors(dirs, registered):
    m, d = dirs
    c = load_corpus(CorpusSpec("everyday", 0, {"ding_dir": str(d), "phrases": 2, "textbook": 10,
                                               "pronouns": 4, "daily": 6, "talk": 0}, data_dir=str(m)))
    assert c.kind == "translation" and len(c.train_src) == len(c.train_meta)
    assert any("pronoun_pos" in meta for meta in c.train_meta)  # supervision targets survive
    assert c.heldout is not None
    with pytest.raises(UsageError, match="--data-dir"):
        load_corpus(CorpusSpec("everyday", 0, {"ding_dir": str(d)}))
    with pytest.raises(UsageError, match="unknown option"):
        load_corpus(CorpusSpec("everyday", 0, {"bogus": 1}, data_dir=str(m)))


def test_contractions_are_one_piece_each():
    from transformer.core.tokenizer import Tokenizer

    texts = [src for src, _ in M30K] + ["I didn't know .", "It's late , isn't it ?",
                                        "Don't go ! We can't stay ."] * 5
    tok = Tokenizer.train(texts, vocab_size=200, user_defined_symbols=mix.CONTRACTION_PIECES)
    for word in ("didn't", "isn't", "Don't", "can't", "It's"):
        assert len(tok.encode(word)) == 1, word
    assert tok.decode(tok.encode("Don't go ! We can't stay .")) == "Don't go ! We can't stay ."


def test_caption_scenes_join_the_mix_with_positions_and_never_near_a_caption_probe_sentence(
        dirs, monkeypatch, tmp_path):
    """scenes=N adds the caption-scene generator's pairs (with their pronoun positions, which
    attention supervision reads), leaves out any scene within 6 in 10 words of a caption-probe
    sentence, and says how many it left out."""
    from recipes.everyday import caption_scenes

    m, d = dirs
    made = caption_scenes.generate(300, 0)
    # a "probe" made of one generated scene with one word changed: that scene (and any other as
    # close) must be left out
    words = made[5].src.split()
    words[1] = "tall" if words[1] != "tall" else "small"
    probe = tmp_path / "captions.jsonl"
    probe.write_text(json.dumps({"text": " ".join(words), "pronoun": made[5].meta["pronoun_pos"],
                                 "antecedent": made[5].meta["antecedent_pos"]}) + "\n",
                     encoding="utf-8")
    monkeypatch.setattr(hs, "CAPTION_PROBES", (probe,))
    train, _, desc = mix.build(str(m), 0, ding_dir=str(d), phrases=0, pronouns=0,
                                    textbook=0, daily=0, talk=0, scenes=300)
    scenes = [ex for ex in train if ex.meta.get("task") == "caption_scenes"]
    assert made[5].src not in {ex.src for ex in scenes}
    left_out = 300 - len(scenes)
    assert 1 <= left_out < 30
    assert f"{len(scenes)} caption scenes with a pronoun ({left_out} near a test sentence left out)" in desc
    for ex in scenes:
        assert ex.src.split()[ex.meta["pronoun_pos"]].lower() in {
            "it", "its", "they", "them", "their", "his", "her"}
        assert ex.tgt.split()[ex.meta["tgt_pronoun_pos"]] == ex.meta["pronoun_de"]
    assert hs.caption_probe_sentences() == [" ".join(words)]
    assert mix.DEFAULTS["scenes"] == 0  # the shipped mix's default is unchanged


def test_both_real_caption_probes_are_among_the_scene_test_sentences():
    sizes = []
    for probe in hs.CAPTION_PROBES:
        texts = [json.loads(line)["text"] for line in probe.read_text(encoding="utf-8").splitlines()
                 if line.strip()]
        sizes.append(len(texts))
        assert set(texts) <= set(hs.scene_test_sentences())
    assert sizes == [186, 100]


def test_without_its_launcher_everyday_names_the_launcher(dirs, monkeypatch):
    """The library never imports recipes/: `python -m transformer.train --task everyday` (or a
    --resume of such a run) says which launcher registers the task."""
    from transformer.data import builders

    monkeypatch.setattr(builders, "_REGISTERED", {})
    m, d = dirs
    with pytest.raises(UsageError, match="python -m recipes.everyday.train"):
        load_corpus(CorpusSpec("everyday", 0, {"ding_dir": str(d)}, data_dir=str(m)))


def test_the_library_trainer_refuses_everyday_before_loading_init(tmp_path, monkeypatch, capsys):
    """`python -m transformer.train --task everyday --init DIR` names the launcher at once: the
    --init model is not loaded first (a folder that is no checkpoint would otherwise be the error)."""
    from transformer.data import builders
    from transformer.train.cli import main

    monkeypatch.setattr(builders, "_REGISTERED", {})
    not_a_checkpoint = tmp_path / "nothing-here"
    code = main(["--task", "everyday", "--init", str(not_a_checkpoint), "--steps", "1",
                 "--out", str(tmp_path / "run")])
    err = capsys.readouterr().err
    assert code == 2
    assert "python -m recipes.everyday.train" in err and "--init" not in err.splitlines()[-1]


def test_the_library_trainer_refuses_to_resume_everyday_before_loading_the_run(tmp_path, monkeypatch,
                                                                                capsys):
    """`python -m transformer.train --resume` of an everyday run names the launcher from the run's
    config.json before its weights are read (here there are none to read: the load would fail)."""
    import json

    from transformer.data import builders
    from transformer.train.cli import main

    from helpers import tiny_config
    from transformer.core.checkpoint import FORMAT

    monkeypatch.setattr(builders, "_REGISTERED", {})
    last = tmp_path / "run" / "checkpoints" / "last"
    last.mkdir(parents=True)
    (last / "config.json").write_text(json.dumps(
        {"format": FORMAT, "model": tiny_config().to_dict(), "train": {"task": "everyday", "steps": 1}}))
    code = main(["--resume", "--out", str(tmp_path / "run")])
    err = capsys.readouterr().err
    assert code == 2
    assert "python -m recipes.everyday.train" in err.splitlines()[-1]


def test_the_mix_as_module_function_is_the_same_text(dirs, registered):
    """--task recipes.everyday.mix:build (the generic way: your own corpus builder) reads the same
    text as the registered name, and takes the contraction pieces with it."""
    from transformer.train.cli import tokenizer_symbols

    m, d = dirs
    opts = {"ding_dir": str(d), "phrases": 2, "textbook": 10, "pronouns": 4, "daily": 6, "talk": 3}
    a = load_corpus(CorpusSpec("everyday", 0, opts, data_dir=str(m)))
    b = load_corpus(CorpusSpec("recipes.everyday.mix:build", 0, opts, data_dir=str(m)))
    assert (a.train_src, a.train_tgt, a.val_src, a.heldout) == (b.train_src, b.train_tgt, b.val_src,
                                                                b.heldout)
    assert a.description == b.description
    assert tokenizer_symbols("everyday") == tokenizer_symbols("recipes.everyday.mix:build") \
        == mix.CONTRACTION_PIECES
    assert tokenizer_symbols("copy") == ()


def test_the_launcher_trains_and_resumes_an_everyday_run(dirs, tmp_path, monkeypatch):
    """python -m recipes.everyday.train: a tiny everyday run, then its --resume (the run's config
    says task "everyday"); without the launcher the resume says where to go."""
    from recipes.everyday.train import run
    from transformer.data import builders
    from transformer.train.cli import main

    monkeypatch.setattr(builders, "_REGISTERED", {})
    m, d = dirs
    out = tmp_path / "run"
    tiny = ["--data-dir", str(m), "--vocab-size", "120", "--d-model", "16", "--heads", "2",
            "--layers", "1", "--d-ff", "32", "--batch-tokens", "256", "--warmup", "2",
            "--eval-every", "1000", "--eval-sentences", "2", "--threads", "1", "--out", str(out)]
    opts = ["--task-opt", f"ding_dir={d}", "--task-opt", "phrases=2", "--task-opt", "pronouns=4",
            "--task-opt", "textbook=6", "--task-opt", "daily=6", "--task-opt", "talk=0"]
    assert run(["--task", "everyday", *opts, "--steps", "2", *tiny]) == 0
    cfg = json.loads((out / "checkpoints" / "last" / "config.json").read_text(encoding="utf-8"))
    assert cfg["train"]["task"] == "everyday"
    monkeypatch.setattr(builders, "_REGISTERED", {})
    assert main(["--resume", "--steps", "3", *tiny]) == 2  # the library alone: a usage error
    assert run(["--resume", "--steps", "3", *tiny]) == 0
    status = json.loads((out / "status.json").read_text(encoding="utf-8"))
    assert status["step"] == 3


def test_the_launchers_usage_names_the_launcher(capsys):
    """A recipe's launcher is the trainer under its own name: a bad flag's usage line names the
    command the user typed, not python -m transformer.train."""
    from recipes.everyday.train import run

    with pytest.raises(SystemExit) as e:
        run(["--no-such-flag"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: python -m recipes.everyday.train") and "transformer.train" not in err
