"""recipes.everyday.daily_talk: the way, what / who questions, numbers, clock times, comparisons.

Expected German is written out here by hand, not derived from the module's tables."""
from __future__ import annotations

import itertools

import pytest

from recipes.everyday import daily_talk

from recipes.everyday.daily_lexicon import COUNTED, PLACES, Noun
from transformer.data.ding import find_ding

from helpers import check_generated_sample, check_mix_option


@pytest.fixture(scope="module")
def sample():
    return daily_talk.generate(8000, seed=1)


def test_sentences_are_well_formed_distinct_seeded_and_every_frame_occurs(sample):
    assert len(sample) == 8000
    check_generated_sample(sample, daily_talk.generate, 1, 60, (" .", " ?"))
    frames = {ex.meta["frame"]: 0 for ex in sample}
    for ex in sample:
        frames[ex.meta["frame"]] += 1
    assert set(frames) == set(daily_talk.FRAMES)
    # no frame more than 1.5 times its share (comparisons would fill the rest)
    assert all(c <= 1.5 * daily_talk.FRAMES[f] * len(sample) + 1 for f, c in frames.items()), frames


# Each English sentence below, if the grammar says it, must come out as this German (read by hand).
HAND_WRITTEN = {
    "Where is the station ?": "Wo ist der Bahnhof ?",
    "How do I get to the post office ?": "Wie komme ich zur Post ?",
    "How do we get to the airport ?": "Wie kommen wir zum Flughafen ?",
    "Is there a pharmacy near here ?": "Gibt es hier in der Nähe eine Apotheke ?",
    "Is there an airport near here ?": "Gibt es hier in der Nähe einen Flughafen ?",
    "The bank is next to the bakery .": "Die Bank ist neben der Bäckerei .",
    "The hotel is opposite the station .": "Das Hotel ist gegenüber dem Bahnhof .",
    "She is looking for the hospital .": "Sie sucht das Krankenhaus .",
    "I went to the bank yesterday .": "Ich bin gestern zur Bank gegangen .",
    "What did you buy yesterday ?": "Was hast du gestern gekauft ?",
    "What are you reading ?": "Was liest du ?",
    "What are you reading now ?": "Was liest du jetzt ?",
    "What did you lose ?": "Was hast du verloren ?",
    "Who are you waiting for ?": "Auf wen wartest du ?",
    "Who did you help ?": "Wem hast du geholfen ?",
    "Who did she talk to ?": "Mit wem hat sie gesprochen ?",
    "Who will you call tomorrow ?": "Wen wirst du morgen anrufen ?",
    "What do you do at the weekend ?": "Was machst du am Wochenende ?",
    "I have two brothers .": "Ich habe zwei Brüder .",
    "She has one dog .": "Sie hat einen Hund .",
    "We need a pen .": "Wir brauchen einen Stift .",
    "We need six eggs .": "Wir brauchen sechs Eier .",
    "How many sisters do you have ?": "Wie viele Schwestern hast du ?",
    "I am twelve years old .": "Ich bin zwölf Jahre alt .",
    "How old is your brother ?": "Wie alt ist dein Bruder ?",
    "What time is it ?": "Wie spät ist es ?",
    "It is half past six .": "Es ist halb sieben .",
    "It is quarter to nine .": "Es ist Viertel vor neun .",
    "The train leaves at eight o'clock .": "Der Zug fährt um acht Uhr ab .",
    "When does the film start ?": "Wann beginnt der Film ?",
    "What time does the shop open ?": "Um wie viel Uhr öffnet das Geschäft ?",
    "My brother is older than me .": "Mein Bruder ist älter als ich .",
    "She is taller than her brother .": "Sie ist größer als ihr Bruder .",
    "I am not as tall as my sister .": "Ich bin nicht so groß wie meine Schwester .",
    "My room is bigger than your room .": "Mein Zimmer ist größer als dein Zimmer .",
    "Do you have two sisters ?": "Hast du zwei Schwestern ?",
    "Did you buy three apples yesterday ?": "Hast du gestern drei Äpfel gekauft ?",
    "Are you nine years old ?": "Bist du neun Jahre alt ?",
}


def test_hand_written_sentences_are_said_exactly():
    said = {ex.src: ex.tgt for seed in (0, 1, 2) for ex in daily_talk.generate(30000, seed=seed)}
    found = {en: said[en] for en in HAND_WRITTEN if en in said}
    assert {en: HAND_WRITTEN[en] for en in found} == found
    assert len(found) >= 20, sorted(set(HAND_WRITTEN) - set(found))


def test_what_a_reviewer_found_odd_stays_out(sample):
    """A bilingual review of 150 sentences found no German errors and these sense slips: "What
    will he lose ?", "You have seven sisters .", "I am older than our parents .", "How old is my
    sister ?", "Your bike is better than my laptop .", "The airport is next to the library ."."""
    for ex in sample:
        words, frame = ex.src.rstrip(" .?").split(), ex.meta["frame"]
        if frame == "what" and set(words) & {"find", "lose", "forget"}:
            assert words[1] == "did", ex.src
        if frame == "what":
            assert not set(words) & {"open", "close", "speak"} and words[2] != "I", ex.src
            assert "put on" not in ex.src, ex.src
        if frame == "count":
            assert not ex.src.startswith("You ") and "last year" not in ex.src, ex.src
            assert not ex.src.startswith(("How old is my", "How old is our")), ex.src
        if frame == "compare" and " than " in ex.src:
            first, second = ex.src.rstrip(" .?").split(" than ")
            assert not (first.startswith(("I ", "We ")) and
                        set(second.split()) & {"parents", "grandparents", "grandma", "grandpa",
                                               "mother", "father"}), ex.src
        if frame == "way" and set(words) & {"next", "opposite", "behind", "front"}:
            assert not set(words) & {"airport", "beach", "toilet"}, ex.src


def test_things_are_compared_with_the_same_thing(sample):
    from recipes.everyday.daily_lexicon import COMPARED_NOUNS
    nouns = {n for ns in COMPARED_NOUNS.values() for n in ns}
    checked = 0
    for ex in sample:
        if ex.meta["frame"] != "compare":
            continue
        words = ex.src.rstrip(" .?").split()
        things = [w for w in words if w in nouns]
        if things:
            assert len(things) == 2 and things[0] == things[1], ex.src
            checked += 1
    assert checked > 100


def test_zum_and_zur_follow_the_places_gender(sample):
    by_de = {p.de: p.gender for p in PLACES}
    seen = set()
    for ex in sample:
        words = ex.tgt.split()
        for art, noun in zip(words, words[1:]):
            if art in ("zum", "zur") and noun in by_de:
                assert art == ("zur" if by_de[noun] == "f" else "zum"), ex.tgt
                seen.add(art)
    assert seen == {"zum", "zur"}


def test_numbers_take_the_plural_and_one_takes_ein(sample):
    plural = {many.split()[0] for group in COUNTED.values() for _, _, _, many, _ in group}
    counted = [ex for ex in sample if ex.meta["frame"] == "count"
               and not {"alt", "viele"} & set(ex.tgt.split())]
    assert counted
    for ex in counted:
        words = ex.tgt.split()
        if any(w in ("einen", "eine", "ein") for w in words):
            assert {"one", "a", "an"} & set(ex.src.split()), ex
        else:
            assert any(w in plural for w in words), ex.tgt


def test_half_past_names_the_next_hour():
    hours = "zwei drei vier fünf sechs sieben acht neun zehn elf zwölf".split()
    english = "two three four five six seven eight nine ten eleven twelve".split()
    for ex in daily_talk.generate(6000, seed=4):
        if "half past" in ex.src:
            h = ex.src.split("half past ")[1].split()[0]
            de = ex.tgt.split("halb ")[1].split()[0]
            assert hours.index(de) == english.index(h) + 1, ex


def test_als_keeps_the_nominative(sample):
    """"than me" is "als ich", "than him" "als er": the object pronoun's English, German's nominative."""
    nominative = {"me": "ich", "him": "er", "us": "wir", "them": "sie", "her": "sie", "you": "du"}
    checked = 0
    for ex in sample:
        if ex.meta["frame"] == "compare" and " than " in ex.src:
            after = ex.src.split(" than ")[1].split()
            if len(after) == 2 and after[0] in nominative:  # "than her ." (not "than her parents")
                after = after[0]
                assert ex.tgt.split(" als ")[1].split()[0] == nominative[after], ex
                checked += 1
            assert not ex.src.startswith("I ") or " than me " not in ex.src, ex.src
    assert checked > 50


def test_place_genders_agree_with_dings_marks():
    ding = find_ding()
    if ding is None:
        pytest.skip("Ding not found ($ATTENTION_LAB_DING, ../shared/data/ding or data/ding): "
                    "the places' genders are not checked against its marks")
    from helpers import check_genders_against_ding

    counted = [Noun(one_en, one_de, g, "count") for one_en, _, one_de, _, g in
               itertools.chain(*COUNTED.values()) if " " not in one_de]
    check_genders_against_ding([*PLACES, *counted], ding, 3)


def test_the_everyday_mix_takes_them_only_when_asked_and_holds_out_the_test_sets(
        tmp_path, monkeypatch):
    check_mix_option(tmp_path, monkeypatch, daily_talk.generate, "talk", "daily_talk", "clock",
                     "way, question, number, clock and comparison sentences", held=3)
