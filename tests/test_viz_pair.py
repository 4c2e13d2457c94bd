"""viz/pair.py: the word-level diff, the pronoun's row (against the row recomputed from the trace
with plain loops), the verdict, and the figure's data and labels."""
from __future__ import annotations

import numpy as np
import pytest

from viz import pair as VP

A = "The animal didn't cross the street because it was too tired ."
B = "The animal didn't cross the street because it was too wide ."


def test_diff_one_word():
    d = VP.diff_words(A.split(), B.split())
    assert d.a == [10] and d.b == [10] and d.minimal and not d.same
    assert d.pairs == {i: i for i in range(12) if i != 10}


def test_diff_same_and_longer_and_many():
    d = VP.diff_words(["a", "b"], ["a", "b"])
    assert d.same and not d.minimal and d.a == [] and d.b == [] and d.pairs == {0: 0, 1: 1}
    # one word inserted: not minimal, the words after it still matched, shifted
    d = VP.diff_words("the dog ran .".split(), "the big dog ran .".split())
    assert d.a == [] and d.b == [1] and not d.minimal and d.pairs == {0: 0, 1: 2, 2: 3, 3: 4}
    # two words changed
    d = VP.diff_words("a b c d".split(), "a x c y".split())
    assert d.a == [1, 3] and d.b == [1, 3] and not d.minimal
    # one word replaced by two
    d = VP.diff_words("a b c".split(), "a x y c".split())
    assert d.a == [1] and d.b == [1, 2] and not d.minimal
    # case counts
    assert VP.diff_words(["It"], ["it"]).minimal
    assert VP.diff_words([], []).same


def test_sentence_words():
    assert VP.sentence_words("  The  dog\tran . ") == ["The", "dog", "ran", "."]


def test_pronoun_row_encoder_and_decoder():
    m = np.arange(16, dtype=float).reshape(4, 4)
    m /= m.sum(1, keepdims=True)
    r = VP.pronoun_row(m, ["a", "it", "b", "</s>"], ["a", "it", "b", "</s>"], "encoder_self")
    assert r.query == 1 and r.pronoun == "it" and r.query_word == "it"
    np.testing.assert_allclose(r.weights, m[1])
    assert r.strongest == 3 and r.labels == ["a", "it", "b", "</s>"]
    # no pronoun: None, never a guessed row
    assert VP.pronoun_row(m, list("abcd"), list("abcd"), "encoder_self") is None
    q = ["<s>", "weil", "sie", "war"]
    r = VP.pronoun_row(m, q, q, "decoder_self")
    assert r.query == 1 and r.pronoun == "sie" and r.query_word == "weil"
    assert r.labels == ["<s>", "weil"]  # masked keys (after the row) dropped
    np.testing.assert_allclose(r.weights, m[1, :2])
    r = VP.pronoun_row(m, q, ["x", "y", "z", "w"], "cross")
    assert r.labels == ["x", "y", "z", "w"]
    np.testing.assert_allclose(r.weights, m[1])
    assert VP.pronoun_row(m, ["<s>", "Das", "Tier", "."], q, "cross") is None
    assert VP.pronoun_row(np.zeros((0, 0)), [], [], "encoder_self") is None
    with pytest.raises(ValueError):
        VP.pronoun_row(m, ["a"], ["b"], "encoder_self")


def _row(labels, weights):
    w = np.asarray(weights, dtype=float)
    return VP.Row(0, "it", "it", w, list(labels), int(np.argmax(w)))


def test_verdict():
    ka, kb = A.split(), B.split()
    w = np.full(len(ka), 0.01)
    on = lambda i: np.where(np.arange(len(ka)) == i, 0.5, w)  # noqa: E731
    assert VP.verdict(_row(ka, on(1)), _row(kb, on(1))) == ("same", "animal", "animal")
    assert VP.verdict(_row(ka, on(1)), _row(kb, on(5))) == ("moves", "animal", "street")
    assert VP.verdict(_row(ka, on(10)), _row(kb, on(10))) == ("changed", "tired", "wide")
    # the same word shifted by an inserted word is the same word
    kc = "The big animal didn't cross".split()
    assert VP.verdict(_row(ka[:4], [0, 1, 0, 0]), _row(kc, [0, 0, 1, 0, 0])).code == "same"
    # two equal words at different places are not the same word
    assert VP.verdict(_row(ka, on(0)), _row(kb, on(4))) == ("moves", "The animal", "the street")


def test_row_figure_labels_colours_and_values():
    labels = ["The", "animal", "it", "tired", "</s>"]
    w = np.array([0.1, 0.5, 0.15, 0.05, 0.2])
    fig = VP.row_figure(w, labels, changed=[3], title="A <b>", x_title="weight", query="it",
                        x_max=0.8)
    bar = fig.data[0]
    np.testing.assert_allclose(np.asarray(bar.x, dtype=float), w)
    assert list(bar.y) == ["0 The", "1 animal", "2 it", "3 ◆ tired", "4 &lt;/s&gt;"]
    assert list(fig.layout.yaxis.ticktext)[1] == "<b>1 animal</b>"  # the strongest, bold
    colours = list(bar.marker.color)
    assert colours[1] == VP.STRONGEST and colours[3] == VP.CHANGED and colours[0] == VP.BAR
    assert fig.layout.title.text == "A &lt;b&gt;"
    assert fig.layout.xaxis.range[1] == pytest.approx(0.8 * 1.18)
    assert bar.hovertemplate.startswith("it → ")
    fig = VP.row_figure(w, labels, changed=[1])  # changed and strongest
    assert list(fig.data[0].marker.color)[1] == VP.CHANGED_STRONGEST
    assert list(fig.data[0].y)[1] == "1 ◆ animal"
    with pytest.raises(ValueError):
        VP.row_figure(w, labels[:2])


def test_row_equals_the_trace_row(small_checkpoint):
    """The pronoun's row as the page draws it (pieces merged, viz.tokens) equals the row
    recomputed from the inspected weights with loops: key word = sum of its pieces' columns,
    query word = mean of its pieces' rows."""
    from transformer.core.checkpoint import load_checkpoint
    from transformer.probing.inspect import inspect_text
    from viz import tokens as tv

    ck = load_checkpoint(small_checkpoint)
    tok = ck.tokenizer
    ins = inspect_text(ck.model, tok, A)
    for layer, head in ((0, 0), (1, 3)):
        w = ins.weights("encoder_self", layer)[head].double().numpy()
        ids = ins.src_ids
        groups, words = tok.words(ids), tok.word_strings(ids)
        v = tv.view(w, ins.src_tokens, ins.src_tokens, merge=True, q_groups=groups,
                    k_groups=groups, q_words=words, k_words=words,
                    q_special=[tok.is_special(i) for i in ids],
                    k_special=[tok.is_special(i) for i in ids])
        r = VP.pronoun_row(v.matrix, v.q_labels, v.k_labels, "encoder_self", v.q_special)
        q = words.index("it")
        want = []
        for cols in groups:
            total = 0.0
            for p in groups[q]:
                for c in cols:
                    total += w[p, c]
            want.append(total / len(groups[q]))
        assert r.query == q and r.labels == words
        np.testing.assert_allclose(r.weights, want, atol=1e-12)
        assert abs(sum(want) - 1) < 1e-5
        fig = VP.row_figure(r.weights, r.labels, changed=[10])
        np.testing.assert_allclose(np.asarray(fig.data[0].x, dtype=float), want, atol=1e-4)
        assert list(fig.data[0].y)[10] == "10 ◆ tired"


def test_row_figure_escapes_hostile_tokens():
    """Tokens plotly would read as markup reach the figure escaped (as tests/test_viz_labels.py
    checks for the other builders), repeated words stay apart."""
    import re

    hostile = ["</s>", "<pad>", "<b>x</b>", "&amp;", "the", "the"]
    fig = VP.row_figure(np.full(6, 1 / 6), hostile, changed=[2], title="<pad>", query="<s>",
                        x_title="&amp;")
    raw = re.compile(r"</s>|<pad>|<b>x</b>|&amp;(?!amp;)")
    spec = fig.to_plotly_json()
    drawn = [s for s in list(spec["data"][0]["y"]) + list(spec["layout"]["yaxis"]["ticktext"])
             + [spec["layout"]["title"]["text"], spec["layout"]["xaxis"]["title"]["text"],
                spec["data"][0]["hovertemplate"]]]
    assert not [s for s in drawn if raw.search(s)], drawn
    assert len(set(fig.data[0].y)) == 6 and "2 ◆ &lt;b&gt;x&lt;/b&gt;" in fig.data[0].y


def test_an_article_is_named_with_its_noun_in_the_verdict():
    from viz.pair import phrase

    labels = ["The", "animal", "didn't", "cross", "the", "street", "because", "it"]
    assert phrase(labels, 0) == "The animal" and phrase(labels, 4) == "the street"
    assert phrase(labels, 1) == "animal" and phrase(["the"], 0) == "the"
