"""The corpus as an artefact (issue 51, 2): recipes.everyday.build_corpus builds the default's corpus
into files whose sha256 checkpoints/everyday-en-de/manifest.json records.

The unit suite pins each generator's output on a small n (the pins were taken from the code before
the generators moved from transformer/data to recipes/everyday, and again after: the same bytes),
a tiny mix's files, and the manifest's shape; the full build (about 30 s of generation and the real
Multi30k and Ding) is under the `shipped` marker."""
from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from recipes.everyday import build_corpus, caption_scenes, daily, daily_life, daily_talk, lexicon

from helpers import everyday_dirs

ROOT = Path(__file__).resolve().parents[1]
CK = ROOT / "checkpoints" / "everyday-en-de"
MANIFEST = CK / "manifest.json"
M30K = [("A dog runs in the park .", "Ein Hund rennt im Park ."),
        ("Two men play football .", "Zwei Männer spielen Fußball ."),
        ("A girl walks .", "Ein Mädchen geht ."),
        ("The cat sleeps .", "Die Katze schläft .")]
# sha256 (first 16 hex digits) of json [src, tgt, meta] lines of generate(3000, seed)
GENERATED = {
    (daily, 0): "4a1652e5689c0c7b", (daily, 7): "f8090c8a8fcc2aae", (daily, 43): "aadef94441b44c5c",
    (daily_talk, 0): "c60f08b99b74da16", (daily_talk, 7): "9f4ffcf5edcfe833",
    (daily_talk, 43): "4ed6e0f73979889a",
    (daily_life, 0): "fccf643625d0c4aa", (daily_life, 7): "78fade67868f43ff",
    (daily_life, 43): "0513f146861af41c",
    (caption_scenes, 0): "d3486e4df4654cf4", (caption_scenes, 7): "ba9f5f5cf226f542",
    (caption_scenes, 43): "2653bbbd05f85244",
}
TINY_OPTIONS = dict(m30k_repeat=3, daily=250, talk=120, pronouns=240, textbook=400, life=200,
                    scenes=300, lexicon=0)
TINY_SHA256 = "eff0df1bff097ec17df29cb904e3d0d3e89fa512190ce4af3804aeeec9524fe2"


def _h(examples) -> str:
    d = hashlib.sha256()
    for e in examples:
        d.update(json.dumps([e.src, e.tgt, e.meta], ensure_ascii=False, sort_keys=True).encode()
                 + b"\n")
    return d.hexdigest()[:16]


@pytest.mark.parametrize("module,seed", list(GENERATED), ids=lambda x: getattr(x, "__name__", x))
def test_each_generator_says_what_it_said_before(module, seed):
    assert _h(module.generate(3000, seed)) == GENERATED[(module, seed)]


def test_the_noun_frames_say_what_they_said_before():
    nouns = [lexicon.Noun("key", "Schlüssel", "m", 13), lexicon.Noun("ticket", "Fahrkarte", "f", 5),
             lexicon.Noun("phone", "Telefon", "n", 3), lexicon.Noun("boy", "Junge", "m", 3)]
    assert _h(lexicon.sentences(nouns, 200, 0)) == "c25b6b843e9de0d0"
    assert _h(lexicon.sentences(nouns, 200, 43)) == "267cafab2d6e6e9f"


@pytest.fixture
def tiny(tmp_path):
    """A Multi30k and Ding folder of a few lines, and a checkpoint folder whose config recorded a
    small everyday mix over them."""
    m, d = everyday_dirs(tmp_path, M30K,
                         (ROOT / "tests" / "data" / "ding_small.txt").read_text(encoding="utf-8"))
    ck = tmp_path / "ck"
    ck.mkdir()
    (ck / "config.json").write_text(json.dumps({"train": {
        "task": "everyday", "seed": 43,
        "extra": {"data_dir": str(m), "task_opts": dict(TINY_OPTIONS, ding_dir=str(d))}}}))
    return m, d, ck


def test_a_tiny_mix_builds_the_same_files(tiny):
    m, d, _ = tiny
    files, counts = build_corpus.build(str(m), 43, dict(TINY_OPTIONS, ding_dir=str(d)))
    assert sorted(files) == ["train.meta.jsonl", "train.tsv", "val/ding.meta.jsonl", "val/ding.tsv",
                             "val/multi30k.meta.jsonl", "val/multi30k.tsv",
                             "val/textbook.meta.jsonl", "val/textbook.tsv"]
    assert build_corpus.digest(files) == TINY_SHA256
    assert counts["train"] == sum(counts["train_by_source"].values()) == 1488
    assert counts["train_by_source"]["multi30k"] == 12 and counts["val"]["multi30k"] == 4
    first = files["train.tsv"].decode("utf-8").splitlines()[0]
    assert first == "A dog runs in the park .\tEin Hund rennt im Park ."


def test_the_command_writes_the_files_and_checks_a_manifest(tiny, tmp_path, capsys):
    m, d, ck = tiny
    out = tmp_path / "corpus"
    manifest = tmp_path / "manifest.json"
    manifest.write_text(json.dumps({"command": "old", "init_chain": [{"command": "x"}]}))
    assert build_corpus.main(["--out", str(out), "--checkpoint", str(ck),
                              "--write-manifest", str(manifest)]) == 0
    got = {str(p.relative_to(out)): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert build_corpus.digest(got) == TINY_SHA256
    rec = json.loads(manifest.read_text())
    assert rec["sha256"] == TINY_SHA256 and rec["seed"] == 43
    assert rec["init_chain"] == [{"command": "x"}]  # the other fields are kept
    assert rec["command"] == "python -m recipes.everyday.build_corpus --out {out}"
    assert set(rec["inputs"]) == {"multi30k/train.en", "multi30k/train.de", "multi30k/val.en",
                                  "multi30k/val.de", "ding/de-en.txt"}
    assert rec["files"]["train.tsv"] == hashlib.sha256(got["train.tsv"]).hexdigest()
    assert build_corpus.main(["--out", str(out), "--checkpoint", str(ck), "--check",
                              str(manifest)]) == 0
    manifest.write_text(json.dumps({"sha256": "0" * 64}))
    assert build_corpus.main(["--out", str(out), "--checkpoint", str(ck), "--check",
                              str(manifest)]) == 1
    assert "differs" in capsys.readouterr().err


def test_the_command_refuses_a_checkpoint_of_another_task(tmp_path):
    ck = tmp_path / "ck"
    ck.mkdir()
    (ck / "config.json").write_text(json.dumps({"train": {"task": "copy", "seed": 0}}))
    with pytest.raises(SystemExit) as e:
        build_corpus.main(["--out", str(tmp_path / "o"), "--checkpoint", str(ck)])
    assert e.value.code == 2


def test_the_manifest_says_how_to_rebuild_the_default():
    rec = json.loads(MANIFEST.read_text(encoding="utf-8"))
    cfg = json.loads((CK / "config.json").read_text(encoding="utf-8"))["train"]
    assert "{out}" in rec["command"] and rec["command"].startswith("python -m recipes.everyday.")
    assert re.fullmatch(r"[0-9a-f]{64}", rec["sha256"]) and re.fullmatch(r"[0-9a-f]{40}", rec["commit"])
    assert rec["seed"] == cfg["seed"]
    assert rec["options"] == cfg["extra"]["task_opts"]
    assert rec["counts"]["train"] == sum(rec["counts"]["train_by_source"].values())
    assert list(rec["files"]) == sorted(rec["files"])
    chain = [step["command"] for step in rec["init_chain"]]
    assert chain[0].startswith("python -m recipes.surgery.revocab --checkpoint checkpoints/classroom-en-de")
    assert chain[-1].split("   #")[0].endswith("--out checkpoints/everyday-en-de")
    # the last training command of the chain is the one the config records (its init and seed)
    assert any(f"--init {cfg['extra']['init'].split()[0]} " in c and f"--seed {cfg['seed']} " in c
               for c in chain)
    for step in rec["init_chain"]:  # today's launcher; what was run then beside it
        assert "python -m transformer.train " not in step["command"]
        if "as_run" in step:
            assert step["as_run"].replace("transformer.train", "recipes.everyday.train") == step["command"]


@pytest.mark.shipped
def test_the_full_build_is_the_manifests_corpus(tmp_path):
    """The command the manifest gives rebuilds the corpus whose sha256 it records (needs the real
    Multi30k and Ding; about a minute)."""
    rec = json.loads(MANIFEST.read_text(encoding="utf-8"))
    seed, options, data_dir = build_corpus.recorded(CK)
    if not Path(build_corpus._where(data_dir)).is_dir() or build_corpus.find_ding(
            build_corpus._where(options.get("ding_dir"))) is None:
        pytest.skip("Multi30k or Ding not found (../shared/data)")
    assert build_corpus.inputs_of(data_dir, options.get("ding_dir")) == rec["inputs"], \
        "an input file differs from the one the manifest recorded"
    files, counts = build_corpus.build(data_dir, seed, options)
    assert {rel: hashlib.sha256(b).hexdigest() for rel, b in sorted(files.items())} == rec["files"]
    assert build_corpus.digest(files) == rec["sha256"]
    assert counts == rec["counts"]
