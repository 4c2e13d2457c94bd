"""transformer.data.ding: the Ding dictionary reader, on a hand-written fixture in its format (and on
the real file when ../shared/data/ding is there)."""
from __future__ import annotations

from pathlib import Path

import pytest

from transformer.data import ding
from transformer.data.ding import find_ding

FIXTURE = Path(__file__).parent / "data" / "ding_small.txt"
REAL = find_ding()


def test_entries_skip_comments_and_keep_parts_aligned():
    entries = ding.read_entries(FIXTURE)
    assert len(entries) == 12
    assert entries[0].line == 3 and entries[0].de[0] == "Hund {m}"
    assert all(len(e.de) == len(e.en) for e in entries)


def test_sentence_pairs_are_whole_sentences_with_punctuation_spaced():
    got = {(e.src, e.tgt) for e in ding.sentence_pairs(FIXTURE)}
    assert ("The dog barks loudly .", "Der Hund bellt laut .") in got
    assert ("The weather is nice today .", "Das Wetter ist heute schön .") in got
    assert ("Don't talk so loud !", "Rede nicht so laut !") in got  # curly apostrophe straightened
    assert ("Are you coming along ?", "Kommst du mit ?") in got
    assert ("I didn't catch the sentence .", "Ich habe den Satz nicht verstanden .") in got
    # "I didn't hear him." stands beside a placeholder headword but is itself a sentence
    assert ("I didn't hear him .", "Ich habe ihn nicht verstanden .") in got
    assert not any(s.startswith("Yes") for s, _ in got)  # too short
    assert ("The animal is very tired .", "Das Tier ist sehr müde .") in got
    assert len(got) == 7


def test_phrases_drop_placeholders_infinitives_and_marks():
    got = {(e.src, e.tgt) for e in ding.phrase_pairs(FIXTURE)}
    assert ("cold coffee", "kalter Kaffee") in got
    assert ("fine weather", "schönes Wetter") in got
    assert ("a big favour", "eine große Bitte") in got
    assert ("pick-up point", "Abholstelle") not in got  # one German word: not a phrase
    assert not any("sth." in s or "etw." in t or s.startswith("to ") for s, t in got)
    assert not any("[" in s + t or "{" in s + t for s, t in got)


def test_noun_genders_read_the_marks():
    g = ding.noun_genders(FIXTURE)
    assert g["Hund"] == {"m"} and g["Straße"] == {"f"} and g["Tier"] == {"n"}
    assert g["Abholstelle"] == {"f"}
    assert "Hunde" not in g  # plural forms are marked {pl}, not a gender


@pytest.mark.parametrize("text, why", [
    ("Hund {m} | Hunde {pl} :: dog\n", "1 English parts"),
    ("kein Trenner hier\n", "no ' :: '"),
])
def test_malformed_lines_name_the_line(tmp_path, text, why):
    f = tmp_path / "de-en.txt"
    f.write_text("# comment\n" + text, encoding="utf-8")
    with pytest.raises(ding.DingError, match=rf"de-en.txt:2: .*{why}"):
        ding.read_entries(tmp_path)


def test_missing_empty_and_binary_files_say_what_is_wrong(tmp_path):
    with pytest.raises(ding.DingError, match="trans-de-en"):
        ding.read_entries(tmp_path)
    (tmp_path / "de-en.txt").write_text("# only a comment\n", encoding="utf-8")
    with pytest.raises(ding.DingError, match="no entries"):
        ding.read_entries(tmp_path)
    (tmp_path / "de-en.txt").write_bytes(b"Hund :: dog\n\xff\xfe\n")
    with pytest.raises(ding.DingError, match="not UTF-8"):
        ding.read_entries(tmp_path)


@pytest.mark.skipif(REAL is None, reason="Ding not found ($ATTENTION_LAB_DING, ../shared/data/ding "
                    "or data/ding): the counts on the real dictionary are not checked")
def test_real_dictionary_counts():
    entries = ding.read_entries(REAL)
    assert len(entries) == 206233
    sentences = ding.sentence_pairs(REAL, entries)
    assert 14000 <= len(sentences) <= 16000
    assert all(s.src[-1] in ".?!" and s.tgt[-1] in ".?!" for s in sentences)
    genders = ding.noun_genders(REAL, entries)
    assert genders["Hund"] == {"m"} and genders["Katze"] == {"f"} and genders["Pferd"] == {"n"}
