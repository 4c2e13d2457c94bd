"""Word merging and special-token hiding against hand computations; figure builders' shape."""
from __future__ import annotations

import json

import numpy as np
import pytest
from helpers import plotly_array

from viz import attention as figs
from viz import labels as L
from viz import tokens as tv

# 3 query pieces x 4 key pieces; rows sum to 1.
A = np.array([[0.1, 0.2, 0.3, 0.4],
              [0.5, 0.1, 0.1, 0.3],
              [0.0, 0.6, 0.2, 0.2]])
Q = ["<s>", "Hund", "e"]   # queries: <s> alone, "Hund"+"e" one word
K = ["Der", "Hu", "nd", "</s>"]  # keys: "Hu"+"nd" one word


def test_merge_words_sums_keys_and_averages_queries():
    v = tv.merge_words(A, Q, K, [[0], [1, 2]], [[0], [1, 2], [3]], q_words=["<s>", "Hunde"])
    expected = np.array([
        [0.1, 0.2 + 0.3, 0.4],  # <s>: keys Hu+nd summed
        [(0.5 + 0.0) / 2, ((0.1 + 0.1) + (0.6 + 0.2)) / 2, (0.3 + 0.2) / 2],  # Hund|e averaged
    ])
    np.testing.assert_allclose(v.matrix, expected)
    np.testing.assert_allclose(v.matrix.sum(-1), 1.0)
    assert v.q_labels == ["<s>", "Hunde"] and v.k_labels == ["Der", "Hund", "</s>"]
    assert v.q_special == [True, False] and v.k_special == [False, False, True]
    assert A[0, 0] == 0.1  # input untouched


def test_merge_works_on_a_layer_head_stack():
    stack = np.stack([np.stack([A, A[::-1]])] * 2)  # (2 layers, 2 heads, 3, 4)
    v = tv.merge_words(stack, Q, K, [[0], [1, 2]], [[0], [1, 2], [3]])
    assert v.matrix.shape == (2, 2, 2, 3)
    single = tv.merge_words(A[::-1], Q, K, [[0], [1, 2]], [[0], [1, 2], [3]]).matrix
    np.testing.assert_allclose(v.matrix[1, 1], single)


def test_hide_specials_renormalises_rows():
    v = tv.hide_specials(A, Q, K)
    # <s> row removed; </s> column removed; rows divided by what is left.
    expected = np.array([[0.5, 0.1, 0.1], [0.0, 0.6, 0.2]])
    expected = expected / expected.sum(1, keepdims=True)  # 0.7 and 0.8
    np.testing.assert_allclose(v.matrix, expected)
    np.testing.assert_allclose(v.matrix[0], [0.5 / 0.7, 0.1 / 0.7, 0.1 / 0.7])
    assert v.q_labels == ["Hund", "e"] and v.k_labels == ["Der", "Hu", "nd"]


def test_hide_specials_row_with_no_weight_left_is_zero_not_nan():
    m = np.array([[0.0, 1.0], [0.5, 0.5]])
    v = tv.hide_specials(m, ["a", "b"], ["x", "</s>"])
    assert np.isfinite(v.matrix).all()
    np.testing.assert_allclose(v.matrix, [[0.0], [1.0]])


def test_view_merges_then_hides():
    v = tv.view(A, Q, K, merge=True, hide=True, q_groups=[[0], [1, 2]],
                k_groups=[[0], [1, 2], [3]])
    merged_row = np.array([0.25, 0.5])  # "Hund"+"e" row over Der, Hund (0.25 on </s> dropped)
    np.testing.assert_allclose(v.matrix, [merged_row / merged_row.sum()])
    assert v.q_labels == ["Hunde"] and v.k_labels == ["Der", "Hund"]
    with pytest.raises(ValueError, match="groups"):
        tv.view(A, Q, K, merge=True)


def test_bad_groups_and_labels_are_refused():
    with pytest.raises(ValueError, match="partition"):
        tv.merge_words(A, Q, K, [[0], [1]], [[0], [1, 2], [3]])
    with pytest.raises(ValueError, match="labels"):
        tv.hide_specials(A, Q[:2], K)


def test_escape_and_unique_labels():
    assert tv.escape_markdown("**<b>") == r"\*\*\<b\>"
    labels = tv.unique_labels(["the", "dog", "the", "the\u200b"])
    assert len(set(labels)) == 4 and labels[0] == "the" and labels[2].strip("\u200b") == "the"


def _fig_json(fig) -> dict:
    return json.loads(fig.to_json())


def test_heatmap_hover_labels_are_escaped_and_distinct():
    fig = figs.heatmap(A, Q, K, title="t")
    d = _fig_json(fig)["data"][0]
    assert d["y"] == ["0 &lt;s&gt;", "1 Hund", "2 e"] and d["x"][3] == "3 &lt;/s&gt;"
    assert d["hovertemplate"] == "%{y} → %{x}: %{z:.2f}<extra></extra>"
    rep = figs.heatmap(np.eye(2), ["the", "the"], ["a", "a"])
    assert _fig_json(rep)["data"][0]["y"] == ["0 the", "1 the"]


def test_lesson_query_finds_the_pronoun_row():
    words = ["The", "dog", "saw", "the", "book", "because", "it", "was", "hungry", ".", "</s>"]
    assert tv.lesson_query(words, "encoder_self") == 6
    de = ["<s>", "Der", "Hund", "sah", "das", "Buch", ",", "weil", "er", "hungrig"]
    # the decoder input BEFORE the pronoun writes it
    assert tv.lesson_query(de, "decoder_self") == 7 and tv.lesson_query(de, "cross") == 7
    assert tv.lesson_query(["<s>", "A", "dog"], "decoder_self") == 1  # no pronoun: first word
    assert tv.lesson_query(["<s>", "</s>"], "cross") == 0


def test_model_view_is_one_trace_with_a_shared_scale():
    stack = np.random.default_rng(0).dirichlet(np.ones(4), size=(2, 3, 3))  # (2,3,3,4)
    fig = figs.model_view(stack, Q, K, row_titles=["L0", "L1"], col_titles=["H0", "H1", "H2"])
    d = _fig_json(fig)
    assert len(d["data"]) == 1 and d["data"][0]["coloraxis"] == "coloraxis"
    assert d["layout"]["coloraxis"]["cmin"] == 0 and d["layout"]["coloraxis"]["cmax"] == 1


def test_model_view_tiles_carry_exactly_each_heads_weights():
    """Cell (layer l, head h, query i, key j) of the grid, found by its row and column names
    (not by the builder's offsets), holds stack[l, h, i, j] rounded to 3 decimals; every other
    cell is a blank gap; the hover names layer, query, head and key."""
    rng = np.random.default_rng(1)
    stack = rng.dirichlet(np.ones(4), size=(2, 3, 3))  # (layers 2, heads 3, queries 3, keys 4)
    rows, cols = ["L0", "L1"], ["H0", "H1", "H2"]
    d = _fig_json(figs.model_view(stack, Q, K, row_titles=rows, col_titles=cols))["data"][0]
    z = plotly_array(d["z"])
    assert z.shape == (len(d["y"]), len(d["x"])) == (2 * 3 + 1, 3 * 4 + 2)
    seen = np.zeros(z.shape, dtype=bool)
    for li in range(2):
        for hi in range(3):
            for i, q in enumerate(Q):
                for j, k in enumerate(K):
                    r = d["y"].index(f"{rows[li]} · {i} {L.text(q)}")
                    c = d["x"].index(f"{cols[hi]} · {j} {L.text(k)}")
                    assert z[r, c] == np.round(stack[li, hi, i, j], 3)
                    seen[r, c] = True
    assert np.isnan(z[~seen]).all() and seen.sum() == stack.size
    assert len(set(d["y"])) == len(d["y"]) and len(set(d["x"])) == len(d["x"])  # distinct
    assert d["hovertemplate"] == "%{y} → %{x}: %{z:.2f}<extra></extra>"
    assert d["hoverongaps"] is False


def test_head_view_trace_count_is_bounded():
    rng = np.random.default_rng(0)
    w = rng.dirichlet(np.ones(40), size=(4, 40))  # 4 heads, 40 x 40
    fig = figs.head_view(w, [f"t{i}" for i in range(40)], [f"t{i}" for i in range(40)])
    assert len(fig.data) <= 4 * 10 + 2
    one = figs.head_view(w, [f"t{i}" for i in range(40)], [f"t{i}" for i in range(40)], selected=3)
    line_pairs = sum(len([x for x in tr.x if x is not None]) // 2 for tr in one.data if tr.mode == "lines")
    assert line_pairs <= 4 * 40  # only token 3's lines


def test_head_view_draws_chosen_heads_and_hovers_with_positions():
    w = np.stack([A, A[::-1], A[[1, 2, 0]]])  # 3 heads, 3 x 4
    fig = figs.head_view(w, Q, K, heads=[2], head_names=["h0", "h1", "h2"], selected=1)
    legend = [tr for tr in fig.data if tr.mode == "lines" and tr.x == (None,)]
    assert [tr.name for tr in legend] == ["h2"]  # only the chosen head, one colour
    pts = [tr for tr in fig.data if tr.mode == "markers"]
    assert len(pts) == 1
    # head 2's row 1 is A's row 2: [0.0, 0.6, 0.2, 0.2]; 0.0 is under the 0.02 threshold
    assert list(pts[0].hovertext) == ["1 Hund → 1 Hu: 0.60 · h2", "1 Hund → 2 nd: 0.20 · h2",
                                      "1 Hund → 3 &lt;/s&gt;: 0.20 · h2"]
    with pytest.raises(ValueError, match="labels"):
        figs.head_view(w, Q[:2], K)


def test_lesson_position_finds_a_pronoun_split_into_pieces():
    # pieces: <s> Der Hu nd , weil e r </s>; words: <s> Der Hund , weil er </s>
    words = ["<s>", "Der", "Hund", ",", "weil", "er", "</s>"]
    groups = [[0], [1], [2, 3], [4], [5], [6, 7], [8]]
    special = [True, False, False, False, False, False, True]
    # the input that writes "e" (the pronoun's first piece) is position 5, "weil"
    assert tv.lesson_position(words, groups, "decoder_self", special) == 5
    en = ["The", "dog", "because", "it", "was", "</s>"]
    en_groups = [[0], [1, 2], [3, 4, 5], [6, 7], [8], [9]]
    assert tv.lesson_position(en, en_groups, "encoder_self") == 6
    assert tv.lesson_position(["<s>", "A"], [[0], [1, 2]], "cross", [True, False]) == 1
    with pytest.raises(ValueError):
        tv.lesson_position(en, en_groups[:2], "encoder_self")


# ---- issue 20: every German pronoun form, and the row that writes the pronoun never averaged away
def test_every_german_pronoun_form_is_found_with_punctuation_attached():
    for w in ("er", "sie", "es", "ihn", "ihm", "ihnen", "sein", "seinen", "seinem", "ihre", "ihrer",
              "es.", "ihn,", "Sie", "SEINE!", "„es“"):
        assert tv.is_pronoun_de(w), w
    for w in ("der", "seit", "ihrerseits", "sein-", "ist", "essen", "sieht", ""):
        assert not tv.is_pronoun_de(w), w
    assert tv.is_pronoun_en("it.") and tv.is_pronoun_en("Its") and not tv.is_pronoun_en("item")
    de = ["<s>", "Der", "Hund", "fängt", "den", "Ball", "und", "bringt", "ihn."]
    assert tv.lesson_query(de, "decoder_self") == 7
    assert tv.lesson_query(["<s>", "Der", "Mann", "sieht", "seinen", "Hund"], "cross") == 3
    assert tv.lesson_query(["<s>", "Er", "sieht", "ihn"], "cross") == 0  # <s> writes "Er"
    assert tv.lesson_query(["The", "dog", "drops", "it."], "encoder_self") == 3


def test_the_word_before_a_pronoun_keeps_its_last_pieces_row():
    # decoder input pieces: <s> Ball en fängt es ; the word "Ballen" = pieces 1, 2 precedes "es"
    rng = np.random.default_rng(0)
    a = rng.random((5, 5))
    a /= a.sum(-1, keepdims=True)
    groups = [[0], [1, 2], [3], [4]]
    words = ["<s>", "Ballen", "fängt", "es"]
    assert tv.pronoun_writers(words) == [2]  # "fängt" writes "es"
    words2 = ["<s>", "Ballen", "es"]
    groups2 = [[0], [1, 2], [3, 4]]
    v = tv.merge_words(a, list("abcde"), list("abcde"), groups2, groups2, words2, words2,
                       last_piece_rows=tv.pronoun_writers(words2))
    # independently: row of piece 2 (the last piece of "Ballen"), keys summed per word
    want = [a[2, 0], a[2, 1] + a[2, 2], a[2, 3] + a[2, 4]]
    np.testing.assert_allclose(v.matrix[1], want)
    plain = tv.merge_words(a, list("abcde"), list("abcde"), groups2, groups2, words2, words2)
    np.testing.assert_allclose(plain.matrix[1], (np.array(want) + [a[1, 0], a[1, 1] + a[1, 2],
                                                               a[1, 3] + a[1, 4]]) / 2)
    np.testing.assert_allclose(v.matrix.sum(-1), 1.0)
    del groups, words


def test_heatmap_margins_make_room_for_the_labels_without_plotly_automargin():
    """The heatmap lays itself out (plotly's automargin would lay it out twice in the browser):
    longer labels and axis titles get wider margins, short ones stay compact."""
    short = figs.heatmap(np.eye(3), ["a", "b", "c"], ["a", "b", "c"])
    long = ["Donaudampfschifffahrtsgesellschaft", "b", "c"]
    wide = figs.heatmap(np.eye(3), long, long, x_title="keys", y_title="queries", title="t")
    for fig in (short, wide):
        assert fig.layout.xaxis.automargin is False and fig.layout.yaxis.automargin is False
    s, w = short.layout.margin, wide.layout.margin
    assert w.l > s.l + 150 and w.b > s.b + 100  # the 36-character label, at -45 degrees below
    assert w.t > s.t  # room for the title
    assert w.l >= L.text_width("0 " + long[0], 12)  # the widest y label fits
    assert w.b >= 0.7 * L.text_width("0 " + long[0], 12)  # and the slanted x label


def test_heatmap_writes_cell_numbers_only_when_asked():
    on = _fig_json(figs.heatmap(A, Q, K))["data"][0]
    off = _fig_json(figs.heatmap(A, Q, K, cell_text=False))["data"][0]
    assert on["texttemplate"] == "%{z:.2f}" and "texttemplate" not in off
    assert off["hovertemplate"] == on["hovertemplate"]  # the number is still in the hover
    big = np.full((20, 20), 0.05)
    assert "texttemplate" not in _fig_json(figs.heatmap(big, [f"q{i}" for i in range(20)],
                                                        [f"k{i}" for i in range(20)]))["data"][0]
