"""The lesson-vocabulary generator (recipes/everyday/topic.py) and the everyday mix's ``topic``
option: German agreement on many outputs, word order, determinism, held-out exclusion, a pin."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from recipes.everyday import german as G, mix, topic
from transformer.data.ding import find_ding
from transformer.data.held_out_sets import key

from helpers import check_genders_against_ding, everyday_dirs

ROOT = Path(__file__).resolve().parents[1]
PIN_0, PIN_43 = "13a4d61104793108", "9e1d5e943e110f85"  # generate(300, seed) as _h spells it

N = 3000


@pytest.fixture(scope="module")
def pairs():
    return topic.generate(N, 0)


def _h(examples) -> str:
    d = hashlib.sha256()
    for e in examples:
        d.update(json.dumps([e.src, e.tgt, e.meta], ensure_ascii=False, sort_keys=True).encode() + b"\n")
    return d.hexdigest()[:16]


def test_the_table_is_well_formed():
    assert len(topic.NOUNS) + len(topic.VERBS) + len(topic.ADJS) >= 67
    for n in topic.NOUNS:
        assert n.gender in ("m", "f", "n") and n.de[0].isupper() and n.de_pl[0].isupper()
    for v in topic.VERBS:
        assert v.aux in ("haben", "sein") and v.case in ("acc", "dat", "auf")
        assert v.de.startswith(v.particle) and v.de_pp.startswith(v.particle)
    for w in ("attention", "robot", "word", "sentence", "meaning"):
        assert w in topic.BY_EN or any(w in v.en for v in topic.VERBS)
    assert {v.en for v in topic.VERBS} >= {"translate", "learn", "pay attention to", "understand"}


def test_it_is_deterministic_and_distinct(pairs):
    assert len(pairs) == N and len({e.src for e in pairs}) == N
    assert _h(topic.generate(N, 0)) == _h(pairs)
    assert _h(topic.generate(300, 1)) != _h(topic.generate(300, 0))


def test_the_first_outputs_are_pinned():
    assert _h(topic.generate(300, 0)) == PIN_0 and _h(topic.generate(300, 43)) == PIN_43


def _noun_sg_forms():
    return {n.de: n for n in topic.NOUNS} | {n.obl: n for n in topic.NOUNS}


ARTICLES = {a: {(case, g) for case in G.DEF for g in G.DEF[case] if G.DEF[case][g] == a}
            for a in {"der", "die", "das", "den", "dem"}}


def test_each_article_agrees_with_its_noun(pairs):
    """Every definite article right before a table noun (or before one adjective and the noun)
    is a form that noun's gender (or the plural) allows."""
    sg = _noun_sg_forms()
    pl = {n.de_pl for n in topic.NOUNS} | {n.de_pl + "n" for n in topic.NOUNS}
    checked = 0
    for e in pairs:
        w = e.tgt.split()
        for i, a in enumerate(w):
            art = a.lower()
            if art not in ARTICLES or (i and w[i - 1] == "aus"):  # "aus dem Englischen"
                continue
            j = i + 2 if i + 2 < len(w) and w[i + 1][0].islower() and w[i + 1] not in ("und", "nicht") else i + 1
            if j >= len(w) or not w[j][0].isupper():
                continue
            genders = {g for _, g in ARTICLES[art]}
            ok = (w[j] in sg and sg[w[j]].gender in genders) or (w[j] in pl and "pl" in genders)
            assert ok, (e.src, e.tgt, a, w[j])
            checked += 1
    assert checked > 2000


def test_its_meaning_agrees_with_the_antecedent(pairs):
    n = 0
    for e in pairs:
        if e.meta["frame"].startswith("meaning"):
            noun = topic.BY_EN[e.meta["antecedent"]]
            w = e.tgt.split()
            poss = w[w.index("Bedeutung") - 1]
            plural = " their meaning" in e.src
            assert poss == ("ihre" if plural or noun.gender == "f" else "seine"), (e.src, e.tgt)
            n += 1
    assert n > 100


def test_the_participle_and_the_infinitive_come_last(pairs):
    pps = {v.de_pp for v in topic.VERBS}
    infs = {v.de for v in topic.VERBS}
    modal_forms = {f for m in ("können", "wollen", "müssen") for f in G.MODALS[m]}
    perfect = modal = 0
    for e in pairs:
        w = e.tgt.split()
        frame = e.meta["frame"]
        if frame.endswith("perfect") and not frame.startswith("meaning"):
            assert w[-2] in pps and ({x.lower() for x in w[:4]} & (set(G.HAVE) | set(G.BE))), (e.src, e.tgt)
            aux = "ist" if w[-2] == "gefolgt" else None
            if aux and " has " in e.src:
                assert aux in w
            perfect += 1
        if frame.endswith("modal") and frame != "language_modal" or frame == "translate_question":
            assert w[-2] in infs and {x.lower() for x in w[:4]} & modal_forms, (e.src, e.tgt)
            modal += 1
    assert perfect > 300 and modal > 300


def test_negation_and_kein(pairs):
    for e in pairs:
        if e.meta["frame"].startswith("negation"):
            assert "nicht" in e.tgt.split() and (" not " in e.src or " cannot " in e.src)
        if e.meta["frame"].startswith("kein"):
            assert any(w.startswith("kein") for w in e.tgt.split())


def test_the_mix_leaves_held_out_and_near_sentences_out(monkeypatch, tmp_path):
    made = topic.generate(400, 0)
    banned = {key(made[3].src)}
    near = [made[5].src]
    monkeypatch.setattr(mix, "held_out_keys", lambda: banned)
    monkeypatch.setattr(mix, "lesson_sentences", lambda: near)
    monkeypatch.setattr(mix, "everyday_test_sentences", lambda: [])
    m, d = everyday_dirs(tmp_path, [("A dog runs .", "Ein Hund rennt .")],
                         (ROOT / "tests" / "data" / "ding_small.txt").read_text(encoding="utf-8"))
    opts = dict(daily=0, talk=0, pronouns=0, textbook=0, phrases=0, topic=400, ding_dir=str(d))
    train, _, desc = mix.build(str(m), 0, **opts)
    got = [e.src for e in train if e.meta.get("task") == topic.TASK]
    assert made[0].src in got and made[3].src not in got and made[5].src not in got
    assert 390 <= len(got) <= 398 and "lesson sentences" in desc
    opts["topic"] = 0
    assert not [e for e in mix.build(str(m), 0, **opts)[0] if e.meta.get("task") == topic.TASK]


def test_the_genders_are_dings():
    where = find_ding(None)
    if where is None:
        pytest.skip("Ding not found")
    check_genders_against_ding([n for n in topic.NOUNS if n.cls != "lang"], where, unmarked_at_most=3)


def test_the_option_defaults_to_nothing():
    assert mix.DEFAULTS["topic"] == 0 and "topic" in mix.OPTIONS
    assert mix.check_options({})["topic"] == 0
    with pytest.raises(ValueError):
        mix.check_options({"topic": -1})
