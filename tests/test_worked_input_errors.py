"""The worked examples' input errors are codes with parameters (issue 13): English byte-identical
to the messages raised before, Chinese from the same strings table, no regular expressions."""
import re

import pytest

from transformer.worked.wording import InputError
from ui import i18n
from ui.worked_text import error_text
from ui.strings import worked_examples as S
from viz import worked as V

CODES = sorted(k[len("v_"):] for k in S.EN if k.startswith("v_err_") and k != "v_err_name_mask")
SAMPLE = dict(n="W_Q", i=2, j=1, v="'x'", a=3, b=4, m=8, t=2, s=3, d=4, w=2, c=5, h=3)
NAMES = {"Q", "K", "V", "X", "W_Q", "d_k", "NaN", "inf"}


def _params(code):
    return {k: v for k, v in SAMPLE.items() if "{" + k + "}" in S.EN["v_" + code]}


@pytest.mark.parametrize("code", CODES)
def test_every_code_renders_in_both_languages(code):
    assert "v_" + code in i18n.sentences(S, "zh")
    e = InputError(code, **_params(code))
    assert isinstance(e, ValueError) and str(e).startswith(code)  # the core's message is the code
    zh = error_text(e, "zh")
    assert "{" not in zh and zh != error_text(e, "en")
    words = [w for w in re.findall(r"[A-Za-z_]{3,}", zh) if w not in NAMES]
    assert not words, (code, zh)


@pytest.mark.parametrize("raise_it, old", [
    (lambda: V.parse_matrix("1 2\n3", "Q"), "Q: every row needs the same number of entries, got [1, 2]"),
    (lambda: V.parse_matrix("1 x", "K"), "K, row 1: 'x' is not a number"),
    (lambda: V.parse_mask("1 0\n1 1", 3, 2), "the mask must be 3×2 (queries × keys), got 2×2"),
    (lambda: V.parse_mask("1 -inf\n1 0", 2, 2), "an additive mask may only hold 0 (keep) and -inf (masked)"),
    (lambda: V.parse_matrix("", "V"), "V is empty: type one row per line, numbers separated by spaces"),
])
def test_english_is_the_old_message(raise_it, old):
    with pytest.raises(InputError) as info:
        raise_it()
    assert error_text(info.value) == old


def test_the_old_blank_identity_message_and_the_mask_named_in_chinese():
    e = InputError("err_blank_identity", n="W_K", d=4, h=3)
    assert error_text(e) == ("W_K is blank, so it is the 4×4 identity, whose 4 columns cannot be split into 3 equal "
                      "blocks: type W_K, or choose a number of heads that divides 4")
    with pytest.raises(InputError) as info:
        V.parse_mask("1 y", 1, 2)
    assert error_text(info.value) == "mask, row 1: 'y' is not a number"
    assert error_text(info.value, "zh") == "掩码 第 1 行：'y' 不是数字"


def test_other_value_errors_are_shown_as_raised():
    assert error_text(ValueError("plain"), "zh") == "plain"
