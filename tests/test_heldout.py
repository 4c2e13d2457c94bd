"""Issue 50's held-out sets: Ding's 1,000 pairs split off by sentence (transformer/data/
ding_heldout.py, the ids in transformer/probes/ding_heldout_ids.txt), the hand-written lesson and
seed sentences (lesson_en_de.tsv, seeds_en_de.tsv), and `python -m transformer.heldout`."""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from recipes.everyday import mix
from transformer.data import ding, ding_heldout
from transformer.data import held_out_sets as hs
from transformer.data.example import Example
from transformer.probing import heldout

ROOT = Path(__file__).resolve().parents[1]
PROBES = ROOT / "transformer" / "probes"
LESSON_WORDS = ("attention", "attend", "word", "sentence", "meaning", "mean", "robot", "translat",
                "learn", "teacher", "student", "model", "language", "question", "answer", "example",
                "head", "layer", "pronoun", "verb", "noun", "lesson", "class", "german", "english")


def _ding_dir():
    return ding.find_ding()


def _multi30k_dir():
    d = ROOT.parent / "shared" / "data" / "multi30k"
    return d if (d / "train.en").is_file() or any(d.glob("train*")) else None


def _fake_pairs(n=300):
    return [Example(f"Sentence number {i} is here .", f"Satz Nummer {i} ist hier .") for i in range(n)]


def test_normalise_ignores_case_spacing_and_punctuation_and_ids_are_sha1():
    assert ding_heldout.normalise("It's late, isn't it?") == ding_heldout.normalise(
        "it’s  late , isn't it ?") == "it's late isn't it"
    # the committed identity must not change between machines or versions of Python
    assert ding_heldout.sentence_id("I haven't the faintest idea .") == ding_heldout.sentence_id(
        "i haven't the faintest idea") == "63981529c3f61b3fe3994f91f235079cdb54aa95"


def test_the_rule_is_deterministic_order_free_and_counts_a_sentence_once():
    pairs = _fake_pairs()
    # the same sentence spelt twice (and with another German) is one sentence
    pairs.append(Example("sentence number 7 is here.", "Das ist Satz sieben ."))
    a = ding_heldout.select(pairs, 50)
    assert a == ding_heldout.select(pairs, 50)
    shuffled = pairs[:]
    random.Random(3).shuffle(shuffled)
    b = ding_heldout.select(shuffled, 50)
    keys = [ding_heldout.normalise(p.src) for p in a]
    assert len(a) == len(set(keys)) == 50
    assert set(keys) == {ding_heldout.normalise(p.src) for p in b}
    assert [pairs.index(p) for p in a] == sorted(pairs.index(p) for p in a)  # file order
    assert len(ding_heldout.select(pairs, 10_000)) == 300


def test_the_split_keeps_every_pair_sharing_a_side_out_of_training():
    pairs = _fake_pairs(20) + [
        Example("Sentence number 3 is here !", "Ein anderer Satz ."),  # same English, normalised
        Example("Another English sentence .", "Satz Nummer 3 ist hier ."),  # same German
    ]
    ids = {ding_heldout.sentence_id(pairs[3].src)}
    s = ding_heldout.split(pairs, ids)
    assert s.heldout == [pairs[3]]
    assert pairs[3] not in s.rest and pairs[-1] not in s.rest and pairs[-2] not in s.rest
    assert len(s.rest) == 19
    assert ding_heldout.split(pairs, set()).rest == pairs


def test_the_ids_file_holds_1000_sorted_sha1s():
    lines = [x for x in ding_heldout.IDS_FILE.read_text(encoding="utf-8").splitlines()
             if not x.startswith("#")]
    assert len(lines) == len(set(lines)) == ding_heldout.SIZE == 1000
    assert lines == sorted(lines)
    assert all(re.fullmatch(r"[0-9a-f]{40}", x) for x in lines)
    assert ding_heldout.read_ids() == set(lines)


def test_the_ids_file_is_the_rule_applied_to_the_real_dictionary():
    where = _ding_dir()
    if where is None:
        pytest.skip("Ding's de-en.txt is not here (../shared/data/ding): the rule cannot be re-run")
    pairs = ding.sentence_pairs(where)
    chosen = ding_heldout.select(pairs)
    assert {ding_heldout.sentence_id(p.src) for p in chosen} == ding_heldout.read_ids()
    s = ding_heldout.split(pairs)
    assert s.heldout == chosen
    # deterministic: a second read of the file gives the same split
    assert ding_heldout.split(ding.sentence_pairs(where)).heldout == chosen


def test_the_everyday_mix_trains_on_no_held_out_ding_pair():
    where, m30k = _ding_dir(), _multi30k_dir()
    if where is None or m30k is None:
        pytest.skip("Ding (../shared/data/ding) or Multi30k (../shared/data/multi30k) is not here: "
                    "the mix cannot be built on the real data")
    train, val, desc = mix.build(str(m30k), 0, ding_dir=str(where), phrases=3000,
                                      pronouns=500, textbook=500, daily=1000, talk=1000, life=1000,
                                      scenes=500, lexicon=500)
    s = ding_heldout.split(ding.sentence_pairs(where))
    assert len(s.heldout) == 1000
    bad = [ex.src for ex in train if not s.keeps(ex)]
    assert not bad, bad[:5]
    assert sum(1 for ex in train if ex.meta.get("source") == "ding") > 20_000  # 2 x ~13,700
    assert "1000 held out for testing" in desc
    assert len(val["ding"]) > 400  # the validation split is left as it was


def _rows(name):
    return [line.split("\t") for line in (PROBES / name).read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("name", ["lesson_en_de.tsv", "seeds_en_de.tsv"])
def test_the_hand_written_files_are_two_clean_columns_without_duplicates(name):
    rows = _rows(name)
    assert all(len(r) == 2 and r[0].strip() == r[0] and r[1].strip() == r[1] and r[0] and r[1]
               for r in rows), name
    keys = [hs.key(en) for en, _ in rows]
    assert len(keys) == len(set(keys))
    assert len({de for _, de in rows}) == len(rows)
    for en, de in rows:
        for text in (en, de):  # tokenised like the other probe files: punctuation stands alone
            assert text[-2:] in (" .", " ?", " !"), text
            assert not re.search(r"[^\s][,;:?!]", text), text


def test_the_lesson_set_has_100_plus_lesson_sentences_of_5_to_15_words():
    rows = _rows("lesson_en_de.tsv")
    assert len(rows) >= 100
    for en, _ in rows:
        words = [w for w in en.split() if any(c.isalnum() for c in w)]
        assert 5 <= len(words) <= 15, en
        assert any(w in en.lower() for w in LESSON_WORDS), en


def test_the_seeds_set_has_the_two_named_sentences():
    english = [en for en, _ in _rows("seeds_en_de.tsv")]
    assert "I drink and I know things ." in english
    assert "The law will never be perfect , but its application should be just ." in english
    for src, _ in heldout.KEEPS:
        assert src in english


def _other_probe_keys() -> set[str]:
    keys = set()
    for path in PROBES.iterdir():
        if path.name in ("lesson_en_de.tsv", "seeds_en_de.tsv"):
            continue
        if path.suffix == ".tsv":
            keys |= {hs.key(line.split("\t")[0]) for line in
                     path.read_text(encoding="utf-8").splitlines() if "\t" in line}
        elif path.suffix == ".jsonl":
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    item = json.loads(line)
                    keys.add(hs.key(item.get("text") or item.get("src")))
    return keys


def test_no_lesson_sentence_is_a_sentence_of_another_probe_file_or_the_seeds_set():
    others = _other_probe_keys()
    assert len(others) > 700
    lesson = {hs.key(en) for en, _ in _rows("lesson_en_de.tsv")}
    seeds = {hs.key(en) for en, _ in _rows("seeds_en_de.tsv")}
    assert not lesson & others
    assert not lesson & seeds
    # the seeds set shares one sentence, on purpose: dropped_words_en_de.jsonl's own:1
    assert seeds & others == {hs.key("I drink and I know things .")}


def test_no_generator_writes_a_lesson_or_seed_sentence():
    from recipes.everyday import caption_scenes, daily, daily_life, daily_talk
    from transformer.data import textbook
    from transformer.data import tasks

    made = (daily.generate(3000, 0) + daily_talk.generate(3000, 0) + daily_life.generate(3000, 0)
            + textbook.generate("train", n=3000, seed=0) + caption_scenes.generate(2000, 0)
            + tasks.load_task("classroom_pronouns", "train", n=2000, seed=0))
    made_keys = {hs.key(ex.src) for ex in made}
    ours = {hs.key(en) for name in ("lesson_en_de.tsv", "seeds_en_de.tsv")
            for en, _ in _rows(name)}
    assert not made_keys & ours


def test_lesson_and_seed_sentences_are_held_out_of_every_training_mix():
    assert PROBES / "lesson_en_de.tsv" in hs.EVERYDAY_FILES
    assert PROBES / "seeds_en_de.tsv" in hs.EVERYDAY_FILES
    keys = hs.held_out_keys()
    for name in ("lesson_en_de.tsv", "seeds_en_de.tsv"):
        for en, _ in _rows(name):
            assert hs.key(en) in keys, en


def test_the_command_scores_a_tiny_checkpoint_and_prints_the_keys(capsys, tmp_path):
    ck = ROOT / "checkpoints" / "copy-tiny"
    rc = heldout.main(["--checkpoint", str(ck), "--limit", "3", "--beam", "2", "--threads", "1"])
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    assert set(heldout.SETS) <= set(out) and "keeps" in out
    for name in ("lesson", "seeds"):
        r = out[name]
        assert r["n"] == 3 and r["beam"] == 2
        assert {"chrf", "chrf_beam", "bleu", "bleu_beam", "examples"} <= set(r)
    if "skipped" not in out["ding"]:
        assert out["ding"]["n"] == 3 and "chrf_beam" in out["ding"]
        assert "in_ding_validation" in out["ding"]
        # no text of the GPL dictionary in the record
        assert all(set(x) == {"line", "greedy", "beam"} for x in out["ding"]["examples"])
    assert [k["src"] for k in out["keeps"]] == [s for s, _ in heldout.KEEPS]
    assert set(out["keeps"][0]["keeps_greedy"]) == {"drink"}
    assert set(out["keeps"][1]["keeps_beam"]) == {"law", "application"}
    assert out["weights_sha256"] and len(out["weights_sha256"]) == 64

    # without the dictionary the Ding set says why, and the others are still scored
    rc = heldout.main(["--checkpoint", str(ck), "--limit", "2", "--beam", "2", "--sets",
                       "ding,seeds", "--ding-dir", str(tmp_path)])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and "skipped" in out["ding"] and out["seeds"]["n"] == 2 and "lesson" not in out


def test_kept_words_matches_german_stems():
    assert heldout.kept_words("Ich trinke und ich weiß Dinge .", heldout.KEEPS[0][1]) == {"drink": True}
    assert heldout.kept_words("Das Recht wird nie perfekt sein , aber seine Anwendung ...",
                              heldout.KEEPS[1][1]) == {"law": False, "application": True}


def test_the_command_refuses_bad_arguments(capsys):
    assert heldout.main(["--checkpoint", str(ROOT / "checkpoints" / "copy-tiny"),
                         "--sets", "nope"]) == 2
    assert "unknown set" in capsys.readouterr().err
    assert heldout.main([]) == 2


def test_the_launcher_runs_the_command():
    import os
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "transformer.heldout", "--checkpoint",
                        str(ROOT / "checkpoints" / "copy-tiny"), "--sets", "seeds", "--limit", "1",
                        "--beam", "2", "--threads", "1"], capture_output=True, text=True, cwd=ROOT,
                       env={**os.environ, "OMP_NUM_THREADS": "1"})
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["seeds"]["n"] == 1 and "keeps" in out


def test_the_cards_held_out_table_reads_each_set_from_the_record():
    """card_heldout_table: one row per set the record holds, chrF greedy / beam to two places from
    the record itself, the other checkpoint's cell and the goal beside it; a set not scored is
    left out, and the Ding validation row reads the nested subset."""
    from transformer.probing.heldout import card_heldout_table

    rec = {"decoding": {"beam": 5},
           "lesson": {"n": 120, "chrf": 69.641, "chrf_beam": 71.049},
           "ding": {"n": 1000, "chrf": 44.75, "chrf_beam": 47.58,
                    "in_ding_validation": {"n": 38, "chrf": 29.67, "chrf_beam": 30.3}}}
    before = {"lesson": {"n": 120, "chrf": 56.67, "chrf_beam": 59.18}}
    lines = card_heldout_table(rec, before, {"lesson": ">= 65"}).splitlines()
    assert lines[0] == "| held-out set: chrF greedy / beam 5 | this model | before | goal |"
    assert lines[2] == "| lesson sentences (120) | 69.64 / 71.05 | 56.67 / 59.18 | >= 65 |"
    assert lines[3].startswith("| Ding's held-out sentence pairs (1,000) | 44.75 / 47.58 |  |")
    assert "(38) | 29.67 / 30.30 |" in lines[4]
    assert len(lines) == 5 and not any("seed" in line for line in lines)
    alone = card_heldout_table(rec).splitlines()
    assert alone[0].endswith("| this model |") and alone[2] == "| lesson sentences (120) | 69.64 / 71.05 |"
