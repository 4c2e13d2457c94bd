"""The shipped default model, checkpoints/everyday-en-de (issue 20): its card's claims re-measured.

The card's table is rendered from the scorecard recorded in history.json when the checkpoint was
made (transformer.scorecard); here the hand-written sets are scored again and must give the same
numbers, and the card must show them."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from transformer.probing import scorecard as S
from transformer.core.checkpoint import load_checkpoint
from transformer.core.names import Head

pytestmark = pytest.mark.shipped  # re-measures a shipped model's card or prose (tests/conftest.py)

CK = Path(__file__).resolve().parents[1] / "checkpoints" / "everyday-en-de"


@pytest.fixture(scope="module")
def ck():
    torch.set_num_threads(2)
    return load_checkpoint(CK)


@pytest.fixture(scope="module")
def recorded():
    return json.loads((CK / "history.json").read_text(encoding="utf-8"))["scorecard"]


def test_shipped_with_card_data_terms_and_size():
    card = (CK / "README.md").read_text(encoding="utf-8")
    for must in ("Ding", "GPL-2 or later", "trans-de-en", "Multi30k", "non-commercial",
                 "2-core CPU", "python -m transformer.train --task everyday"):
        assert must in card, must
    size = sum(f.stat().st_size for f in CK.iterdir())
    assert size <= 35 * 1000 * 1000
    from ui.shell import DEFAULT_CHECKPOINT

    assert DEFAULT_CHECKPOINT == "everyday-en-de"


def test_the_card_is_for_users_and_the_lineage_is_in_history():
    """Issue 51, 3: the card says what the model is for, its data and terms, what it does well and
    where it slips, how to rebuild it and which heads were taught, in at most 200 lines and without
    commit hashes; the lab diary it was (every chunk, rule and measurement) is
    recipes/everyday/HISTORY.md, and the card's commands are the diary's or the manifest's."""
    import re

    card = (CK / "README.md").read_text(encoding="utf-8")
    history = (CK.parents[1] / "recipes" / "everyday" / "HISTORY.md").read_text(encoding="utf-8")
    assert len(card.splitlines()) <= 200
    for section in ("## What it is for", "## Data and terms", "## The heads that were taught",
                    "## Scores", "**What it does well.**", "**Where it slips.**",
                    "## How to rebuild it"):
        assert section in card, section
    assert "manifest.json" in card and "recipes/everyday/HISTORY.md" in card
    assert not re.findall(r"(?<![0-9A-Za-z])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}"
                          r"(?![0-9A-Za-z])", card)
    assert len(re.findall(r"\bchunks?\b", card)) <= 2
    # every command the card gives is one the diary records or the manifest's chain, word for word
    chain = [step["command"] for step in
             json.loads((CK / "manifest.json").read_text(encoding="utf-8"))["init_chain"]]
    commands = [line.strip().split("   #")[0] for line in card.splitlines()
                if line.startswith("    python -m ")]
    assert len(commands) >= 8
    for command in commands:
        assert command in history or command in chain, command
    # the card's steps are the chain's last ones, in its order, down to the checkpoint itself
    at = [chain.index(c) for c in commands if c in chain]
    assert len(at) >= 6 and at == sorted(at) and at[-1] == len(chain) - 1, at
    # the diary: every chunk of the shipped lineage, the runs that did not ship, the rules
    listed = {int(n) for n in re.findall(r"^(\d+)\. steps", history, re.M)}
    assert listed == {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 33, 34, 43, 47, 48, 51}
    for tried in (11, 12, *range(14, 33), 36, 37, 38, 39, 40, 41, 42, 44, 45, 46, 49, 50):
        assert re.search(rf"\b[Cc]hunks? (?:\d+(?:,| and|-) ?)*{tried}\b", history), tried
    for version in ("seventh", "eighth", "ninth", "tenth", "twelfth", "thirteenth", "fourteenth"):
        assert f"How the {version} version was chosen" in history, version
    assert "The caption probe's 26 misses" in history  # the twelfth version's
    cp = json.loads((CK / "history.json").read_text(encoding="utf-8"))["scorecard"]["caption_probe"]
    misses = cp["misses"]  # and this version's, as recorded
    assert (f"The caption probe's {sum(misses.values())} misses: {misses['wrong_pronoun']} with the wrong "
            f"pronoun, {misses['no_pronoun']} with none at all") in " ".join(history.split())


def test_everyday_words_are_one_piece(ck):
    tok = ck.tokenizer
    for w in ("because", "didn't", "tired", "weather", "hungry", "street", "animal", "don't"):
        assert len(tok.encode(w)) == 1, w
    assert len(tok.encode(S.BLOG_PAIR[0][0])) <= 16


def test_card_shows_the_recorded_scorecard(recorded):
    card = (CK / "README.md").read_text(encoding="utf-8")
    lines = card.splitlines()
    for row in S.card_table(recorded).splitlines()[2:]:
        prefix = row.rstrip(" |")
        assert any(line.startswith(prefix) for line in lines), row


def test_minimal_pairs_and_heads_re_measured(ck, recorded):
    from transformer.probing.probe_items import read_probe_file

    heads = [Head.parse(h, form="cli") for h in recorded["heads"]]
    got = S.probe_scores(ck.model.eval(), ck.tokenizer, read_probe_file(S.MINIMAL_PAIRS), heads)
    want = recorded["minimal_pairs"]
    assert got["pairs"] == want["pairs"] == 100
    assert got["pairs_by_pronoun"] == pytest.approx(want["pairs_by_pronoun"], abs=1e-9)
    assert got["pair_baselines"] == want["pair_baselines"] == {"first_noun": 0.0, "nearest_noun": 0.0}
    for name, row in want["heads"].items():
        for key, value in row.items():
            assert got["heads"][name][key] == pytest.approx(value, abs=1e-9), (name, key)
    # the card's claims: far above the first-noun rule, and both heads are causal: switching
    # either off costs at least 4 of the 200 sentences (issue 20: "measurably")
    assert got["pairs_by_pronoun"] >= 0.35
    for name in recorded["heads"]:
        assert got["heads"][name]["pairs_by_pronoun_off"] < got["pairs_by_pronoun"], name
        lost = round((got["pronoun_accuracy"] - got["heads"][name]["pronoun_accuracy_off"]) * got["n"])
        assert lost >= 4, (name, lost)


def test_everyday_set_and_caption_probe_re_measured(ck, recorded):
    from transformer.probing.probe_items import read_probe_file

    ev = S.translation_scores(ck.model.eval(), ck.tokenizer, S.EVERYDAY, 0)
    assert ev["chrf"] == pytest.approx(recorded["everyday"]["chrf"], abs=1e-6)
    assert ev["bleu"] == pytest.approx(recorded["everyday"]["bleu"], abs=1e-6)
    heads = [Head.parse(h, form="cli") for h in recorded["heads"]]
    cp = S.probe_scores(ck.model.eval(), ck.tokenizer, read_probe_file(S.CAPTIONS), heads)
    assert cp["pronoun_accuracy"] == pytest.approx(recorded["caption_probe"]["pronoun_accuracy"])
    # the card's reading of the misses, as recorded: so many with the wrong pronoun, so many with none
    misses = round((1 - cp["pronoun_accuracy"]) * cp["n"])
    assert cp["misses"] == recorded["caption_probe"]["misses"]
    assert sum(cp["misses"].values()) == misses
    card = " ".join((CK / "README.md").read_text(encoding="utf-8").split())
    assert (f"caption probe's {misses} misses: {cp['misses']['wrong_pronoun']} with the wrong pronoun, "
            f"{cp['misses']['no_pronoun']} with none at all") in card
    for h in recorded["heads"]:
        assert cp["heads"][h]["accuracy"] == pytest.approx(recorded["caption_probe"]["heads"][h]["accuracy"])
    # the card's claim against issue 20: the caption probe's pronoun and both featured heads pass 0.85
    assert min([cp["pronoun_accuracy"], *(cp["heads"][h]["accuracy"] for h in recorded["heads"])]) >= 0.85


def test_the_fresh_caption_probe_re_measured(ck, recorded):
    """The blind caption probe (100 sentences by an author who opened no project file): the
    recorded pronoun and head accuracies come back, and they hold the card's claim that the
    caption scenes did not only fit the probe they were written after (all three 0.85 or more)."""
    from transformer.probing.probe_items import read_probe_file

    heads = [Head.parse(h, form="cli") for h in recorded["heads"]]
    got = S.probe_scores(ck.model.eval(), ck.tokenizer, read_probe_file(S.FRESH_CAPTIONS), heads)
    want = recorded["fresh_caption_probe"]
    assert got["n"] == want["n"] == 100
    assert got["pronoun_accuracy"] == pytest.approx(want["pronoun_accuracy"], abs=1e-9)
    for name in recorded["heads"]:
        assert got["heads"][name]["accuracy"] == pytest.approx(want["heads"][name]["accuracy"], abs=1e-9)
    assert min([got["pronoun_accuracy"], *(got["heads"][n]["accuracy"] for n in recorded["heads"])]) >= 0.85


def test_the_generators_held_out_pairs_re_measured(ck, recorded):
    """The card's row for the generator's own held-out pairs: recorded for today's generator (a
    generator change that moves it fails here, and the record is measured again)."""
    heads = [Head.parse(h, form="cli") for h in recorded["heads"]]
    got = S.probe_scores(ck.model.eval(), ck.tokenizer, S.generated_pairs(S.GENERATED_N), heads)
    want = recorded["generated_pairs"]
    assert got["pairs"] == want["pairs"] and got["n"] == want["n"]
    assert got["pairs_by_pronoun"] == pytest.approx(want["pairs_by_pronoun"], abs=1e-9)
    for name, row in want["heads"].items():
        assert got["heads"][name]["pair_accuracy"] == pytest.approx(row["pair_accuracy"], abs=1e-9)
    # the card's reading: the heads find the antecedent in far more of these than of the written pairs
    assert min(r["pair_accuracy"] for r in want["heads"].values()) > 0.9


def test_the_blind_everyday_set_re_measured(ck, recorded):
    fe = S.translation_scores(ck.model.eval(), ck.tokenizer, S.FRESH_EVERYDAY, 0, beam=1)
    assert fe["n"] == recorded["fresh_everyday"]["n"] == 100
    assert fe["chrf"] == pytest.approx(recorded["fresh_everyday"]["chrf"], abs=1e-6)
    assert fe["bleu"] == pytest.approx(recorded["fresh_everyday"]["bleu"], abs=1e-6)
    # the card's claim: the daily-life grammar lifted the blind set over the fifth version's 52.50
    assert fe["chrf"] > 52.5


def test_the_third_everyday_set_re_measured(ck, recorded):
    """The set written by an author who read no file of the project (2026-11-27): its recorded
    greedy scores come back (beam 4 is the scorecard's, too slow to repeat here)."""
    te = S.translation_scores(ck.model.eval(), ck.tokenizer, S.THIRD_EVERYDAY, 0, beam=1)
    want = recorded["third_everyday"]
    assert te["n"] == want["n"] == 100
    for k in ("chrf", "bleu"):
        assert te[k] == pytest.approx(want[k], abs=1e-6), k


def test_the_blog_pair(ck, recorded):
    enc = Head.parse(recorded["heads"][0], form="cli")
    rows = S.blog(ck.model.eval(), ck.tokenizer, enc)
    assert [r["pronouns"] for r in rows] == [["es"], ["sie"]]
    assert all(r["pronoun_right"] and r["head_right"] for r in rows)
    assert [r["translation"] for r in rows] == [r["translation"] for r in recorded["blog_pair"]]
    # the head moves: "The animal" (words 0-1), then "the street" (words 4-5)
    assert rows[0]["head_pos"] in (0, 1) and rows[1]["head_pos"] in (4, 5)


def test_the_swap_test_re_measured(ck, recorded):
    """The card's swap-test row: the encoder head's output at "it" exchanged between the two
    sentences of each of the 100 own pairs (about 8 s), and the claim the card makes of it: the
    pronoun runs through this head (the eighth version's swap moved 0.006 of the right pronouns)."""
    from transformer.probing.probe_items import read_probe_file
    from transformer.probing.swap import swap_test

    enc = Head.parse(recorded["heads"][0], form="cli")
    want = recorded["minimal_pairs"]["swap"]
    got = swap_test(ck.model.eval(), ck.tokenizer, read_probe_file(S.MINIMAL_PAIRS), enc)
    for key in ("pairs", "sentences", "right_unswapped", "flip_rate", "pairs_flipped"):
        assert got[key] == want[key], key
    assert got["examples"] == want["examples"]
    assert want["flip_rate"] > 0.85  # the card: the pronoun follows the head


def test_the_held_out_sets_re_measured(ck):
    """Issue 50: the card records the held-out sets no generator wrote (history.json "heldout",
    transformer.heldout). The lesson and seed sentences are decoded again (greedy) and give the
    recorded chrF; the card's table is the record's, and its words on the goals follow the numbers."""
    from transformer.data import tasks as data
    from transformer.probing import heldout as H

    hist = json.loads((CK / "history.json").read_text(encoding="utf-8"))
    rec = hist["heldout"]  # and the version it replaced, measured by the same command
    assert rec["weights_sha256"] == H.weights_sha256(CK)
    assert hist["heldout_before"]["weights_sha256"] != rec["weights_sha256"]
    for name, path in (("lesson", H.LESSON), ("seeds", H.SEEDS)):
        exs = data.load_tsv(path)
        got, _, _ = H.score(ck.model.eval(), ck.tokenizer, exs, beam=1)
        assert got["n"] == rec[name]["n"] == len(exs)
        assert got["chrf"] == pytest.approx(rec[name]["chrf"], abs=1e-6), name
    card = (CK / "README.md").read_text(encoding="utf-8")
    for row in H.card_heldout_table(rec, before=hist["heldout_before"], goals=H.GOALS).splitlines():
        assert row in card, row
    met = {k: max(rec[k]["chrf"], rec[k]["chrf_beam"]) >= 65 for k in ("lesson", "ding")}
    assert ("Neither goal is met" in card) == (not any(met.values()))
