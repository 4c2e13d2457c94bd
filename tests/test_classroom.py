"""transformer.data.classroom: caption-style pronoun pairs in Multi30k's vocabulary.

Positions, German agreement, position baselines, split hygiene and determinism run everywhere;
the vocabulary checks read Multi30k (skipped with a reason when it is absent).
"""
from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from transformer.data.classroom_lexicon import TAUGHT_EN

from transformer.data import classroom as C
from transformer.data.classroom_lexicon import ANIMALS, MIN_EN_COUNT, OBJ_VERBS, PARTS, PEOPLE, PLACES, PREP_VERBS, PRONOUNS, THINGS, _lexicon
from transformer.data.classroom_templates import TEMPLATE_NAMES
from transformer.data.splits import SPLITS
from transformer.data import gender_lexicon
from transformer.data import genders
from transformer.data.tasks import load_task
from transformer.data.tasks import main as data_main
from transformer.probing.probe_items import baselines
from transformer.probing.probe_items import generated_probe

MULTI30K = genders.find_multi30k()
needs_multi30k = pytest.mark.skipif(
    MULTI30K is None, reason="Multi30k not found ($ATTENTION_LAB_MULTI30K, ../shared/data/multi30k "
                             "or data/multi30k): the vocabulary checks count words in train.en / train.de")


@pytest.fixture(scope="module")
def sample():
    """A sample of every split (2000 + 1000 + 1000)."""
    return {s: C.generate(s, n, seed=3) for s, n in (("train", 2000), ("val", 1000), ("test", 1000))}


def test_lexicon_is_consistent():
    C.check_lexicon()


def _de_forms(noun) -> set[str]:
    """A noun's German forms: singular, plural, dative plural."""
    return {noun.de} | ({noun.de_pl, noun.de_form(True, "dat")} if noun.de_pl else set())


def test_positions_point_at_the_words(sample):
    noun_forms = {}
    for noun in ANIMALS + THINGS + PEOPLE + PLACES:
        noun_forms[noun.en] = noun
        if noun.en_pl:
            noun_forms[noun.en_pl] = noun
    for exs in sample.values():
        for ex in exs:
            m, src, tgt = ex.meta, ex.src.split(), ex.tgt.split()
            assert src[m["pronoun_pos"]] == m["pronoun"], ex
            assert src[m["antecedent_pos"]] == m["antecedent"], ex
            assert m["antecedent_pos"] in m["candidates_pos"] and m["other_pos"] in m["others_pos"]
            assert sorted(m["others_pos"] + [m["antecedent_pos"]]) == m["candidates_pos"]
            assert 2 <= len(m["candidates_pos"]) <= 4
            for p in m["candidates_pos"]:  # every candidate is one of the generator's nouns
                assert src[p] in noun_forms, (src[p], ex)
            assert m["nearest_pos"] == max(p for p in m["candidates_pos"] if p < m["pronoun_pos"])
            assert m["first_pos"] == m["candidates_pos"][0]
            # target side: the pronoun, the antecedent (any case form), every candidate noun
            assert tgt[m["tgt_pronoun_pos"]] == m["pronoun_de"], ex
            ante = noun_forms[m["antecedent"]]
            assert tgt[m["tgt_antecedent_pos"]] in _de_forms(ante), ex
            de_nouns = set().union(*map(_de_forms, noun_forms.values()))
            assert len(m["tgt_candidates_pos"]) == len(m["candidates_pos"])
            for p in m["tgt_candidates_pos"]:
                assert tgt[p] in de_nouns, (tgt[p], ex)
            # source and target list the nouns in the same roles
            assert sorted(m["tgt_others_pos"] + [m["tgt_antecedent_pos"]]) == m["tgt_candidates_pos"]


def test_candidates_have_different_genders(sample):
    for ex in sample["test"]:
        genders_ = [_lexicon()[en].gender for en in ex.meta["nouns"].values()]
        assert len(set(genders_)) == len(genders_), ex


POSS_ENDING = {  # (possessed gender or "pl", case) -> ending after sein / ihr, written out again
    ("m", "nom"): "", ("f", "nom"): "e", ("n", "nom"): "", ("pl", "nom"): "e",
    ("m", "acc"): "en", ("f", "acc"): "e", ("n", "acc"): "", ("pl", "acc"): "e",
    ("m", "dat"): "em", ("f", "dat"): "er", ("n", "dat"): "em", ("pl", "dat"): "en",
}
CASE_OF_PART = {"between": "acc", "person_verb": "acc", "part_state": "nom", "with_part": "dat"}


def test_subject_clause_frames_all_occur(sample):
    """", and it ..." / ", but it ..." / "while it ..." / "as it ..." (German ", während ... rollt")."""
    seen = Counter()
    for ex in sample["train"]:
        src, tgt, m = ex.src.split(), ex.tgt.split(), ex.meta
        if m["pronoun_case"] == "nom":
            frame = src[m["pronoun_pos"] - 1]
            seen[frame] += 1
            if frame in ("while", "as"):
                assert tgt[m["tgt_pronoun_pos"] - 2:m["tgt_pronoun_pos"]] == [",", "während"], ex
                assert src[m["pronoun_pos"] - 2] != ","
    assert {"and", "but", "while", "as"} <= set(seen), seen


def test_german_pronoun_agrees_with_the_antecedent(sample):
    seen = Counter()
    for exs in sample.values():
        for ex in exs:
            m = ex.meta
            g = "pl" if m["antecedent_plural"] else m["antecedent_gender"]
            assert g == "pl" or g == gender_lexicon.read_lexicon()[m["antecedent"]].gender
            word = m["pronoun_de"]
            if m["pronoun_case"] == "acc":  # "picks it up" / "hugs them": ihn sie es / sie
                assert word == {"m": "ihn", "f": "sie", "n": "es", "pl": "sie"}[g], ex
                assert (m["pronoun"] == "them") == (g == "pl") and m["template"] == "object"
            elif m["pronoun_case"] == "dat":  # "on top of it" / "with them": ihm ihr ihm / ihnen
                assert word == {"m": "ihm", "f": "ihr", "n": "ihm", "pl": "ihnen"}[g], ex
                assert (m["pronoun"] == "them") == (g == "pl") and m["template"] == "prep_object"
            elif m["pronoun"] in ("it", "they"):
                assert word == {"m": "er", "f": "sie", "n": "es", "pl": "sie"}[g], ex
                assert (m["pronoun"] == "they") == (g == "pl")
            else:
                base = "sein" if g in ("m", "n") else "ihr"
                part = PARTS[m["part"]]
                ending = POSS_ENDING[("pl" if part.plural else _lexicon()[part.en].gender,
                                      CASE_OF_PART[m["template"]])]
                assert word == base + ending, ex
                assert (m["pronoun"] == "their") == (g == "pl")
                nxt = ex.tgt.split()[m["tgt_pronoun_pos"] + 1]
                assert nxt.startswith(part.de), ex
            seen[(m["pronoun"], word)] += 1
    # every form is produced: er sie es, sein- / ihr- with several endings
    assert {w for (p, w) in seen if p == "it"} == {"er", "sie", "es", "ihn", "ihm", "ihr"}
    assert {w for (p, w) in seen if p == "them"} == {"sie", "ihnen"}
    assert {w for (p, w) in seen if p == "its"} >= {"sein", "seine", "seinen", "seinem", "ihr", "ihre", "ihren", "ihrem"}
    assert {w for (p, w) in seen if p in ("they", "their")} >= {"sie", "ihre"}


def test_meaning_decides_not_position(sample):
    exs = sample["test"]
    base = C.position_baselines(exs)
    assert base["nearest_noun"] <= 0.6 and base["first_noun"] <= 0.6, base
    # the antecedent is the first, second and third candidate, each in a fair share
    rank = Counter(ex.meta["candidates_pos"].index(ex.meta["antecedent_pos"]) for ex in exs)
    assert all(rank[r] >= 0.15 * len(exs) for r in (0, 1, 2)), rank
    # the animal and the thing are the antecedent about equally often, the place now and then
    kind = Counter(ex.meta["antecedent_kind"] for ex in exs)
    assert abs(kind["animal"] - kind["thing"]) <= 0.15 * len(exs), kind
    assert kind["place"] > 0
    # heads.baselines agrees on the probe items built from the same examples
    items = generated_probe(C.generate("test", 300, 3))
    got = baselines(items)
    assert {k: got[k] for k in ("nearest_noun", "first_noun")} == pytest.approx(
        C.position_baselines(C.generate("test", 300, 3)))


def test_pronouns_and_templates_all_occur(sample):
    exs = sample["train"]
    assert set(Counter(ex.meta["pronoun"] for ex in exs)) == set(PRONOUNS)
    assert set(Counter(ex.meta["template"] for ex in exs)) == set(TEMPLATE_NAMES)


def test_splits_are_disjoint_over_pairs(sample):
    by_split = {s: {tuple(ex.meta["pair"]) for ex in exs} for s, exs in sample.items()}
    assert not by_split["train"] & by_split["test"]
    assert not by_split["train"] & by_split["val"]
    assert not by_split["val"] & by_split["test"]
    all_pairs = {s: {(a.en, t.en) for a, t in C.pairs(s)} for s in SPLITS}
    for s in SPLITS:
        assert by_split[s] <= all_pairs[s]
    assert sum(map(len, all_pairs.values())) == len(set().union(*all_pairs.values()))
    # every animal and most things also occur in training (with other partners)
    train_nouns = {w for p in all_pairs["train"] for w in p}
    assert {a.en for a in ANIMALS} <= train_nouns


def test_deterministic_and_seeded():
    a = C.generate("val", 50, seed=1)
    b = C.generate("val", 50, seed=1)
    c = C.generate("val", 50, seed=2)
    assert [(x.src, x.tgt, x.meta) for x in a] == [(x.src, x.tgt, x.meta) for x in b]
    assert [x.src for x in a] != [x.src for x in c]
    assert C.generate("heldout", 5) [0].src == C.generate("test", 5)[0].src


def test_options_and_errors():
    only = C.generate("train", 40, templates=["part_state"], pronouns=["its"])
    assert {e.meta["template"] for e in only} == {"part_state"} and {e.meta["pronoun"] for e in only} == {"its"}
    assert C.generate("train", 0) == []
    for bad in (dict(n=-1), dict(n=1.5), dict(templates=["nope"]), dict(pronouns=["he"]),
                dict(templates=["with_part"], pronouns=["they"])):
        with pytest.raises(ValueError):
            C.generate("train", **{"n": 3, **bad})
    with pytest.raises(ValueError):
        C.generate("dev", 3)


def test_registered_as_a_task(capsys):
    exs = load_task("classroom_pronouns", "test", n=4, seed=0)
    assert [e.src for e in exs] == [e.src for e in C.generate("test", 4, 0)]
    assert data_main(["show", "classroom_pronouns", "--n", "2", "--split", "test"]) == 0
    out = capsys.readouterr().out
    assert out.count("  -> ") == 2 and "classroom_pronouns" in out


def test_cli_writes_tsv_and_jsonl(tmp_path, capsys):
    tsv, jl = tmp_path / "p.tsv", tmp_path / "p.jsonl"
    assert C.main(["--split", "val", "--n", "7", "--tsv", str(tsv)]) == 0
    lines = tsv.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 7 and all(line.count("\t") == 1 for line in lines)
    assert C.main(["--split", "val", "--n", "3", "--jsonl", str(jl)]) == 0
    rows = [json.loads(x) for x in jl.read_text(encoding="utf-8").splitlines()]
    assert rows[0]["src"] == lines[0].split("\t")[0] and "pronoun_pos" in rows[0]["meta"]
    assert C.main(["--split", "nope"]) == 2
    assert "error" in capsys.readouterr().err


# Hand-checked: the first three examples of every template in the test split (seed 0). The
# German of each was read and found right (word order, case, adjective endings, pronoun).
# If the generator changes, these change: read the new ones before pinning them.
HAND_CHECKED = [
    ('animal_first', 'A white horse stands next to a ball on the street as it is rolling .', 'Ein weißes Pferd steht neben einem Ball auf der Straße , während er rollt .'),
    ('animal_first', 'A small chicken stands next to a stick on the bridge , and it is crowded .', 'Ein kleines Huhn steht neben einem Stock auf der Brücke , und sie ist voller Menschen .'),
    ('animal_first', 'A horse jumps over a basket on the bridge , and it is crowded .', 'Ein Pferd springt über einen Korb auf der Brücke , und sie ist voller Menschen .'),
    ('thing_first', 'A skateboard lies next to a duck in the snow , but it is yellow .', 'Ein Skateboard liegt neben einer Ente im Schnee , aber es ist gelb .'),
    ('thing_first', 'A stick lies next to a chicken on the street , and it looks happy .', 'Ein Stock liegt neben einem Huhn auf der Straße , und es sieht glücklich aus .'),
    ('thing_first', 'A bike stands next to a goat on the sidewalk , and it is crowded .', 'Ein Fahrrad steht neben einer Ziege auf dem Gehweg , und er ist voller Menschen .'),
    ('place_first', 'On the bridge , a big horse watches a green ball , and it is broken .', 'Auf der Brücke beobachtet ein großes Pferd einen grünen Ball , und er ist kaputt .'),
    ('place_first', 'On the bridge , two horses jump over a big basket , but they are eating .', 'Auf der Brücke springen zwei Pferde über einen großen Korb , aber sie fressen .'),
    ('place_first', 'In the field , a goat stands next to a small stick while it is sleeping .', 'Auf dem Feld steht eine Ziege neben einem kleinen Stock , während sie schläft .'),
    ('between', 'A woman sits between a bird and a small motorcycle and looks at its wheels .', 'Eine Frau sitzt zwischen einem Vogel und einem kleinen Motorrad und betrachtet seine Räder .'),
    ('between', 'A man sits between a small skateboard and a duck and looks at its wheels .', 'Ein Mann sitzt zwischen einem kleinen Skateboard und einer Ente und betrachtet seine Räder .'),
    ('between', 'A little boy waits between a duck and a skateboard , but it is blue .', 'Ein kleiner Junge wartet zwischen einer Ente und einem Skateboard , aber es ist blau .'),
    ('person_verb', 'A girl watches a white cow next to a truck and cleans its wheels .', 'Ein Mädchen beobachtet eine weiße Kuh neben einem Lastwagen und putzt seine Räder .'),
    ('person_verb', 'A woman looks at a brown bird next to a motorcycle and touches its head .', 'Eine Frau betrachtet einen braunen Vogel neben einem Motorrad und berührt seinen Kopf .'),
    ('person_verb', 'A young woman washes a small cart next to a horse and cleans its head .', 'Eine junge Frau wäscht einen kleinen Wagen neben einem Pferd und putzt seinen Kopf .'),
    ('part_state', 'A big car and a white bird are on the bridge , and its roof is wet .', 'Ein großes Auto und ein weißer Vogel sind auf der Brücke , und sein Dach ist nass .'),
    ('part_state', 'A black cow and a white sled are on the grass , and its ears are white .', 'Eine schwarze Kuh und ein weißer Schlitten sind auf dem Gras , und ihre Ohren sind weiß .'),
    ('part_state', 'A horse and a big sled are on the street , and its mouth is open .', 'Ein Pferd und ein großer Schlitten sind auf der Straße , und sein Maul ist offen .'),
    ('with_part', 'A green truck stands next to a white cow with a bike on its roof .', 'Ein grüner Lastwagen steht neben einer weißen Kuh mit einem Fahrrad auf seinem Dach .'),
    ('with_part', 'A car stands next to a duck with a green basket on its roof .', 'Ein Auto steht neben einer Ente mit einem grünen Korb auf seinem Dach .'),
    ('with_part', 'A black train stands next to a small cat with a bike on its roof .', 'Ein schwarzer Zug steht neben einer kleinen Katze mit einem Fahrrad auf seinem Dach .'),
    ('object', 'A young woman looks at a horse next to a big ball and holds it .', 'Eine junge Frau betrachtet ein Pferd neben einem großen Ball und hält ihn .'),
    ('object', 'A yellow sled lies next to a white cow on the sidewalk , and a child washes it .', 'Ein gelber Schlitten liegt neben einer weißen Kuh auf dem Gehweg , und ein Kind wäscht sie .'),
    ('object', 'A young woman points at a cart next to a small horse in the park and pushes it .', 'Eine junge Frau zeigt auf einen Wagen neben einem kleinen Pferd im Park und schiebt ihn .'),
    ('prep_object', 'A big cow stands next to a truck on the street , and a young girl sits on top of it .', 'Eine große Kuh steht neben einem Lastwagen auf der Straße , und ein junges Mädchen sitzt oben auf ihm .'),
    ('prep_object', 'An old woman points at four blue motorcycles next to two birds on the street and plays with them .', 'Eine alte Frau zeigt auf vier blaue Motorräder neben zwei Vögeln auf der Straße und spielt mit ihnen .'),
    ('prep_object', 'A basket stands next to a brown duck , and a little girl plays with it .', 'Ein Korb steht neben einer braunen Ente , und ein kleines Mädchen spielt mit ihr .'),
]


def test_hand_checked_examples_are_what_the_generator_makes():
    made = [(t, e.src, e.tgt) for t in TEMPLATE_NAMES for e in C.generate("test", 3, 0, templates=[t])]
    assert made == HAND_CHECKED


def _words(lines, lower=True):
    out = Counter()
    for line in lines:
        out.update(re.findall(r"[^\W\d_]+", line.lower() if lower else line))
    return out


@pytest.fixture(scope="module")
def corpus_words():
    from transformer.data.tasks import load_multi30k

    pairs = load_multi30k(MULTI30K, "train")
    return _words(p.src for p in pairs), _words((p.tgt for p in pairs), lower=False)


@needs_multi30k
def test_every_english_word_is_frequent_in_multi30k(sample, objects, corpus_words):
    en, _ = corpus_words
    used = _words(ex.src for exs in (*sample.values(), *objects.values()) for ex in exs)
    rare = {w: en[w] for w in used if en[w] < MIN_EN_COUNT}
    assert not rare, f"English words rare in Multi30k train.en: {rare}"
    # with because=1 the taught words are used, and really are rare there (else they need no
    # exception); nothing else rare comes with them
    taught = _words(ex.src for ex in C.generate("train", 1500, seed=3, because=True))
    assert all(w in taught and en[w] < MIN_EN_COUNT for w in TAUGHT_EN)
    assert {w for w in taught if en[w] < MIN_EN_COUNT} == set(TAUGHT_EN)


@needs_multi30k
def test_every_german_word_occurs_in_multi30k(sample, objects, corpus_words):
    _, de = corpus_words
    missing = set()
    for exs in (*sample.values(), *objects.values()):
        for ex in exs:
            words = ex.tgt.split()
            words[0] = words[0][0].lower() + words[0][1:]  # "Ein", "Im", "Auf" at the start
            missing |= {w for w in words if w not in ",." and de[w] == 0}
    assert not missing, f"German words not in Multi30k train.de: {missing}"


# ------------------------------------------------------------------- object pronouns ("it" / "them")
ACC = {"m": "ihn", "f": "sie", "n": "es", "pl": "sie"}
DAT = {"m": "ihm", "f": "ihr", "n": "ihm", "pl": "ihnen"}


@pytest.fixture(scope="module")
def objects():
    """Object pronouns: accusative ("object") and after a dative preposition ("prep_object")."""
    return {s: C.generate(s, n, seed=4, templates=["object", "prep_object"]) for s, n in (("train", 2000), ("test", 800))}


def test_object_pronoun_is_the_accusative_or_dative_of_the_antecedent(objects):
    seen = Counter()
    for exs in objects.values():
        for ex in exs:
            m, src, tgt = ex.meta, ex.src.split(), ex.tgt.split()
            g = "pl" if m["antecedent_plural"] else _lexicon()[m["antecedent"]].gender
            assert m["pronoun"] == ("them" if g == "pl" else "it"), ex
            case = {"object": "acc", "prep_object": "dat"}[m["template"]]
            assert m["pronoun_case"] == case, ex
            assert tgt[m["tgt_pronoun_pos"]] == {"acc": ACC, "dat": DAT}[case][g] == m["pronoun_de"], ex
            # the verb (and preposition) come right before the pronoun on both sides
            verb = next(v for v in OBJ_VERBS + PREP_VERBS if v.key == m["verb"])
            assert verb.case == case
            v_en, v_de = verb.en.split(), verb.de.split()
            assert src[m["pronoun_pos"] - len(v_en):m["pronoun_pos"]] == v_en, ex
            assert tgt[m["tgt_pronoun_pos"] - len(v_de):m["tgt_pronoun_pos"]] == v_de, ex
            # a separable verb's particle closes the clause: "hebt ihn (vom Boden) auf ."
            if verb.de_after:
                assert tgt[-2:] == [verb.de_after, "."] and src[m["pronoun_pos"] + 1] == verb.en_after, ex
            # meaning decides: the verb fits the antecedent and no other noun "it" could mean
            nouns = m["nouns"]
            assert nouns[m["antecedent_role"]] in verb.fits, ex
            assert all(nouns[r] not in verb.fits for r in ("A", "T") if r != m["antecedent_role"]), ex
            # the person is a candidate, first (person_first) or last (person_last)
            h = m["candidates_pos"][0 if m["layout"] == "person_first" else -1]
            assert src[h] in {p.en for p in PEOPLE}, ex
            seen[(m["pronoun_de"], m["layout"], m["antecedent_kind"])] += 1
    assert {w for w, _, _ in seen} == {"ihn", "sie", "es", "ihm", "ihr", "ihnen"}
    assert {lay for _, lay, _ in seen} == {"person_first", "person_last"}
    assert {k for _, _, k in seen} == {"animal", "thing"}


def test_object_pronoun_hand_checked():
    """A few object sentences, read and found right (word order, case, endings, particle)."""
    got = {(e.src, e.tgt) for e in C.generate("train", 400, seed=7, templates=["object"])}
    for pair in [
        ("A young man watches a goat next to a red boat and carries it across the sand .",
         "Ein junger Mann beobachtet eine Ziege neben einem roten Boot und trägt sie über den Sand ."),
        ("A green hat lies next to a white duck , and a young girl throws it into the air .",
         "Ein grüner Hut liegt neben einer weißen Ente , und ein junges Mädchen wirft ihn in die Luft ."),
        ("A goat stands next to a blue tent in the park , and a man picks it up off the ground .",
         "Eine Ziege steht neben einem blauen Zelt im Park , und ein Mann hebt sie vom Boden auf ."),
        ("A young woman looks at a motorcycle next to two white dogs and holds them up .",
         "Eine junge Frau betrachtet ein Motorrad neben zwei weißen Hunden und hält sie hoch ."),
    ]:
        assert pair in got, pair


def test_object_baselines_and_share(objects):
    base = C.position_baselines(objects["test"])
    assert base["nearest_noun"] < 0.5 and base["first_noun"] < 0.5, base
    mix = Counter(ex.meta["pronoun_case"] for ex in C.generate("train", 3000, seed=1))
    assert 0.25 <= (mix["acc"] + mix["dat"]) / 3000 <= 0.35, mix
    assert mix["dat"] >= 0.03 * 3000, mix


def test_because_frames_only_when_asked():
    """Off by default (the default output is the one classroom-en-de trained on, byte for byte);
    with because=True, "because it ..." becomes ", weil ..." with the verb last, and the pronoun
    positions still point at the pronoun and its antecedent."""
    plain = C.generate("train", 400, seed=5)
    assert not any(" because " in e.src for e in plain)
    made = [e for e in C.generate("train", 400, seed=5, because=True) if " because " in e.src]
    assert len(made) > 10
    for e in made:
        de = e.tgt.split()
        assert ", weil" in e.tgt and de[e.meta["tgt_pronoun_pos"]] == e.meta["pronoun_de"]
        assert de[e.meta["tgt_pronoun_pos"] - 1] == "weil"
        assert e.src.split()[e.meta["pronoun_pos"]] in ("it", "they")
    with pytest.raises(ValueError, match="because"):
        C.generate("train", 5, because=2)
