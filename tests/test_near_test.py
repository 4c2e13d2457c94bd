"""recipes.everyday.near_test: a generated sentence one word away from a test sentence is left out
of training; an unrelated one, or a longer one that merely contains the test's words, is kept."""
import pytest

from transformer.data.held_out_sets import key as _key
from transformer.data.example import Example
from recipes.everyday.near_test import NearTest

TESTS = ["Put the milk back in the fridge , please .", "What time is it ?"]


def test_one_word_away_is_near_and_other_sentences_are_not():
    near = NearTest(TESTS, _key)
    assert near.nearest("Put the milk in the fridge , please !") == TESTS[0]  # 6 of 7 words
    assert near.nearest("put the MILK back in the fridge please") == TESTS[0]  # case, punctuation
    assert near.nearest("What time is it now ?") == TESTS[1]
    assert near.nearest("Put the butter on the table .") is None  # 2 of 7 words
    assert near.nearest("What is it ?") is None  # 3 of 4 words: under 0.8
    # all the test's words, but many more of its own: a different sentence
    assert near.nearest("What time is it in Berlin when the bus leaves Hamburg ?") is None


def test_share_and_extra_are_the_thresholds():
    assert NearTest(TESTS, _key, share=0.7).nearest("What is it ?") == TESTS[1]
    assert NearTest(TESTS, _key, extra=10).nearest(
        "What time is it in Berlin when the bus leaves Hamburg ?") == TESTS[1]
    with pytest.raises(ValueError, match="share"):
        NearTest(TESTS, _key, share=0)


def test_keep_drops_exactly_the_near_examples():
    exs = [Example("Put the milk in the fridge , please !", "Stell die Milch bitte in den Kühlschrank !", {}),
           Example("I like tea .", "Ich mag Tee .", {}),
           Example("What time is it ?", "Wie spät ist es ?", {})]
    kept = NearTest(TESTS, _key).keep(exs)
    assert [e.src for e in kept] == ["I like tea ."]
    assert NearTest([], _key).keep(exs) == exs
