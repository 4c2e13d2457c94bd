"""The two-sentence (minimal pair) page through AppTest: both languages, the drawn rows against the
trace, the deep link, no pronoun, empty text, decoder kinds, and the shipped models (the featured
head; a copy model, and the page in Chinese with no English words, are in test_zh_complete.py)."""
from __future__ import annotations

import json

import numpy as np
import pytest

from app_helpers import ROOT, no_errors, open_pinned, rerun
from helpers import merged_reference, plotly_array, reference

PAGE = "pages/pair.py"
A = "The animal didn't cross the street because it was too tired ."
B = "The animal didn't cross the street because it was too wide ."


def open_page(monkeypatch, ck_dir, tmp_path, lang="en", query=None):
    return open_pinned(monkeypatch, ck_dir, tmp_path, PAGE, lang=lang, query=query)


def charts(at) -> dict[str, dict]:
    return {el.proto.id.rsplit("pair_chart_", 1)[1][:1]: json.loads(el.proto.spec)
            for el in at.get("plotly_chart") if "pair_chart_" in el.proto.id}


def text_of(at) -> str:
    return " ".join([m.value for m in at.markdown] + [c.value for c in at.caption]
                    + [i.value for i in at.info] + [w.value for w in at.warning])


@pytest.mark.parametrize("lang,title,moves", [
    ("en", "Two sentences, one word apart", ("The head moves", "The head does not move",
                                              "The head follows the changed word")),
    ("zh", "两个句子，只差一个词", ("注意力头移动了", "注意力头没有移动", "注意力头跟着改动的词走"))])
def test_page_in_both_languages(monkeypatch, tmp_path, ck_dir, lang, title, moves):
    from transformer.core.checkpoint import load_checkpoint
    from viz import tokens as tv

    at = open_page(monkeypatch, ck_dir, tmp_path, lang)
    no_errors(at)
    assert at.title[0].value == title
    assert at.text_input(key="pair_text").value == A
    assert at.text_input(key="pair_text2").value == B
    # no featured head in the test checkpoint: encoder self, last layer, head 0
    assert at.selectbox(key="pair_kind").value == "encoder_self"
    assert (at.selectbox(key="pair_layer").value, at.selectbox(key="pair_head").value) == (1, 0)
    assert len(at.code) == 2 and all(c.value for c in at.code)  # both translations
    ck = load_checkpoint(at._ck)
    tok = ck.tokenizer
    figs = charts(at)
    assert set(figs) == {"a", "b"}
    for key, text in (("a", A), ("b", B)):
        ref = reference(at._ck, text)
        m = merged_reference(ref.weights("encoder_self", 1)[0].double().numpy(), tok,
                             ref.src_ids, ref.src_ids)
        words = tok.word_strings(ref.src_ids)
        row = m[words.index("it")]
        bar = figs[key]["data"][0]
        np.testing.assert_allclose(plotly_array(bar["x"]), row, atol=1e-4)
        assert bar["y"][10] == ("10 ◆ tired" if key == "a" else "10 ◆ wide")  # changed word marked
        assert bar["y"][-1] == f"{len(words) - 1} &lt;/s&gt;"
        j = int(np.argmax(row))
        strongest = ("Strongest word: " if lang == "en" else "最强的词：") + tv.escape_markdown(
            f"{j} {words[j]}")  # position and word, as the chart labels it
        assert any(m.value.startswith(strongest) for m in at.markdown), strongest
    # the pair, marked; one verdict
    md = " ".join(m.value for m in at.markdown)
    assert "**◆ tired**" in md and "**◆ wide**" in md
    assert sum(v in md for v in moves) == 1
    assert not at.warning or all("◆" not in w.value for w in at.warning)  # a minimal pair: no note


def test_deep_link_fills_both_boxes(monkeypatch, tmp_path, ck_dir):
    a, b = "The cat sleeps because it is warm .", "The cat sleeps because it is tired ."
    at = open_page(monkeypatch, ck_dir, tmp_path, query={"text": a, "text2": b})
    no_errors(at)
    assert at.text_input(key="pair_text").value == a
    assert at.text_input(key="pair_text2").value == b
    assert set(charts(at)) == {"a", "b"}
    # the reader's later edit is not overridden by the link
    at.text_input(key="pair_text2").input("The cat sleeps because it is old .")
    rerun(at)
    no_errors(at)
    assert at.text_input(key="pair_text2").value == "The cat sleeps because it is old ."
    assert at.text_input(key="pair_text").value == a


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_pronoun_and_empty(monkeypatch, tmp_path, ck_dir, lang):
    at = open_page(monkeypatch, ck_dir, tmp_path, lang, query={
        "text": "A dog runs in the park .", "text2": "A cat runs in the park ."})
    no_errors(at)
    assert not charts(at) and len(at.info) >= 2  # a note for each sentence, no chart
    assert len(at.code) == 2  # the translations are still shown
    # one sentence with a pronoun, the other without: one chart, a note, no verdict
    at.text_input(key="pair_text2").input("The dog runs because it is happy .")
    rerun(at)
    no_errors(at)
    assert set(charts(at)) == {"b"}
    # not a minimal pair: said
    assert at.warning and ("◆" not in at.warning[0].value)
    for a, b in (("", B), (A, "   "), ("", "")):
        at.text_input(key="pair_text").input(a)
        at.text_input(key="pair_text2").input(b)
        rerun(at)
        no_errors(at)
        assert at.info and not at.get("plotly_chart") and not at.code


def test_same_sentence_and_hostile_text(monkeypatch, tmp_path, ck_dir):
    at = open_page(monkeypatch, ck_dir, tmp_path, query={"text": A, "text2": A})
    no_errors(at)
    assert any("same" in i.value for i in at.info)
    md = " ".join(m.value for m in at.markdown)
    assert "The head does not move" in md
    at.text_input(key="pair_text2").input("<b>it</b> </s> & it **x** 😀 .")
    rerun(at)
    no_errors(at)
    spec = " ".join(el.proto.spec for el in at.get("plotly_chart"))
    assert "<b>it</b>" not in spec.replace("\\u003c", "<")


@pytest.mark.parametrize("kind", ["decoder_self", "cross"])
def test_decoder_kinds(monkeypatch, tmp_path, ck_dir, kind):
    """The untrained test model writes no German pronoun: a note for each side, no crash. With a
    link naming the kind, the pickers open there."""
    at = open_page(monkeypatch, ck_dir, tmp_path, query={"kind": kind, "layer": "0", "head": "2"})
    no_errors(at)
    assert at.selectbox(key="pair_kind").value == kind
    assert (at.selectbox(key="pair_layer").value, at.selectbox(key="pair_head").value) == (0, 2)
    ins = reference(at._ck, A)
    if not any(w.strip().lower() in ("er", "sie", "es") for w in ins.output.split()):
        assert not charts(at) and any("German pronoun" in i.value for i in at.info)
    at.toggle(key="pair_hide").set_value(True)
    rerun(at)
    no_errors(at)


def test_decoder_row_on_the_shipped_pronoun_model(monkeypatch, tmp_path):
    """classroom-en-de (the previous default) opens on its featured decoder head; both
    outputs write 'es' after 'weil', so both rows are drawn over the German words so far."""
    from transformer.core.checkpoint import load_checkpoint

    shipped = ROOT / "checkpoints"
    fh = json.loads((shipped / "classroom-en-de" / "history.json").read_text())["featured_head"]
    monkeypatch.setenv("ATTENTION_LAB_DEFAULT", "classroom-en-de")  # the decoder-head model
    at = open_page(monkeypatch, shipped, tmp_path)
    assert at.session_state["ckpt_path"].endswith("classroom-en-de")
    no_errors(at)
    assert at.selectbox(key="pair_kind").value == fh["kind"]
    assert (at.selectbox(key="pair_layer").value, at.selectbox(key="pair_head").value) == (
        fh["layer"], fh["head"])
    tok = load_checkpoint(at._ck).tokenizer
    figs = charts(at)
    for key, text in (("a", A), ("b", B)):
        ins = reference(at._ck, text)
        words = tok.word_strings(ins.tgt_ids)
        low = [w.lower() for w in words]
        p = next(i for i, w in enumerate(low) if w in ("er", "sie", "es") and i > 0)
        m = merged_reference(ins.weights(fh["kind"], fh["layer"])[fh["head"]].double().numpy(),
                             tok, ins.tgt_ids, ins.tgt_ids)
        np.testing.assert_allclose(plotly_array(figs[key]["data"][0]["x"]), m[p - 1, :p], atol=1e-4)
        assert len(figs[key]["data"][0]["y"]) == p  # masked keys not drawn
    assert any("Das" in y for y in figs["a"]["data"][0]["y"] if "◆" in y)  # Das / Ein differ


def test_the_default_model_moves_its_encoder_head_on_the_blog_pair(monkeypatch, tmp_path):
    """The default (everyday-en-de) opens on its featured encoder head; on the blog pair the head
    moves from "The animal" to "the street" and the two translations differ in es / sie."""
    shipped = ROOT / "checkpoints"
    at = open_page(monkeypatch, shipped, tmp_path)
    assert at.session_state["ckpt_path"].endswith("everyday-en-de")
    no_errors(at)
    assert at.selectbox(key="pair_kind").value == "encoder_self"
    texts = [m.value for m in at.markdown] + [h.value for h in at.subheader]
    assert any("The animal → the street" in x for x in texts), texts
    codes = [c.value for c in at.code]
    assert any("weil es" in c for c in codes) and any("weil sie" in c for c in codes)
    # both translations written without a guess (every word over 0.2: the model is sure of them)
    sure = [c.value for c in at.caption if c.value.startswith("No word under 0.2 probability")]
    assert len(sure) == 2, [c.value for c in at.caption]


def test_a_guessed_translation_names_its_guesses(monkeypatch, tmp_path):
    """A pair the default model cannot read: under each translation, the words it guessed with
    their probabilities, the numbers of transformer.probing.certainty on the same sentence."""
    from transformer.core.checkpoint import load_checkpoint
    from transformer.probing import certainty as C
    from transformer.probing.inspect import inspect_text

    a, b = "Attention is all you need .", "Attention is all we need ."
    at = open_page(monkeypatch, ROOT / "checkpoints", tmp_path, query={"text": a, "text2": b})
    no_errors(at)
    ck = load_checkpoint(at._ck)
    captions = [c.value for c in at.caption]
    for text in (a, b):
        guessed = C.guesses(C.output_words(inspect_text(ck.model, ck.tokenizer, text), ck.tokenizer))
        assert guessed, text  # the premise, on today's default model
        want = "Words the model gave under 0.2 probability (guesses): " + ", ".join(
            f"{w.text} {w.prob:.2f}" for w in guessed)
        assert want in captions, (want, captions)


@pytest.mark.parametrize("lang,follows,stays", [
    ("en", "The pronoun follows the head", "The pronoun stays"),
    ("zh", "代词跟着这个头变了", "代词没有变")])
def test_the_swap_translates_both_again_with_the_heads_output_exchanged(monkeypatch, tmp_path,
                                                                        ck_dir, lang, follows,
                                                                        stays):
    """Off by default; on, two more translations: each equal to the swap computed apart
    (transformer/probing/swap.py, itself checked against a sentence-by-sentence patch), each
    with a verdict. A decoder kind or a sentence without "it" gets a note instead."""
    from transformer.core.checkpoint import load_checkpoint
    from transformer.core.names import Head
    from transformer.probing.swap import swap_translate

    at = open_page(monkeypatch, ck_dir, tmp_path, lang)
    no_errors(at)
    assert len(at.code) == 2 and at.toggle(key="pair_swap").value is False
    at.toggle(key="pair_swap").set_value(True)
    rerun(at)
    no_errors(at)
    ck = load_checkpoint(at._ck)
    want = swap_translate(ck.model.eval(), ck.tokenizer, [A, B], [1, 0], [7, 7],
                          Head("encoder_self", 1, 0))
    empty = "(nothing: the model ended at once)" if lang == "en" else None
    got = [c.value for c in at.code][2:]
    assert len(got) == 2 and all(g == (w or empty or g) for g, w in zip(got, want)), (got, want)
    assert all(w for w in want) or lang == "zh" or empty in got
    md = " ".join(m.value for m in at.markdown)
    assert sum(md.count(v) for v in (follows, stays)) + md.count(
        "Neither translation" if lang == "en" else "两个译文都没有") >= 1
    at.selectbox(key="pair_kind").set_value("cross")
    rerun(at)
    no_errors(at)
    assert any(("Encoder self" if lang == "en" else "编码器自注意力") in i.value for i in at.info)
    at.selectbox(key="pair_kind").set_value("encoder_self")
    at.text_input(key="pair_text2").input("A cat runs in the park .")
    rerun(at)
    no_errors(at)
    assert any(("English pronoun" if lang == "en" else "英语代词") in i.value for i in at.info)


def test_the_swap_on_the_default_model(monkeypatch, tmp_path):
    """everyday-en-de on the blog pair with the swap on: both swapped translations are the swap
    computed apart, and the verdicts name the pronouns before and after."""
    from transformer.core.checkpoint import load_checkpoint
    from transformer.core.names import Head
    from transformer.probing.swap import swap_translate

    shipped = ROOT / "checkpoints"
    at = open_page(monkeypatch, shipped, tmp_path)
    at.toggle(key="pair_swap").set_value(True)
    rerun(at)
    no_errors(at)
    ck = load_checkpoint(at._ck)
    layer, head = at.selectbox(key="pair_layer").value, at.selectbox(key="pair_head").value
    want = swap_translate(ck.model.eval(), ck.tokenizer, [A, B], [1, 0], [7, 7],
                          Head("encoder_self", layer, head))
    assert [c.value for c in at.code][2:] == want
    md = " ".join(m.value for m in at.markdown)
    assert ("The pronoun follows the head: es → " in md or "The pronoun stays: es" in md), md


def test_a_link_with_swap_opens_the_swap(monkeypatch, tmp_path, ck_dir):
    at = open_page(monkeypatch, ck_dir, tmp_path, query={"text": A, "text2": B, "swap": "1"})
    no_errors(at)
    assert at.toggle(key="pair_swap").value is True and len(at.code) == 4
    at = open_page(monkeypatch, ck_dir, tmp_path, query={"text": A, "text2": B, "swap": "no"})
    no_errors(at)
    assert at.toggle(key="pair_swap").value is False and len(at.code) == 2


@pytest.mark.parametrize("a,b", [
    ("<b>it</b> </s> & it **x** 😀 .", "The cat sleeps because it is tired ."),
    ("it " * 400, "The cat sleeps because it is tired ."),  # past the model's length
    ("Es regnet , weil it kalt ist .", "ＩＴ was ｗｉｄｅ ."),
])
def test_the_swap_with_odd_text_says_something_and_never_fails(monkeypatch, tmp_path, ck_dir, a, b):
    at = open_page(monkeypatch, ck_dir, tmp_path, query={"text": a, "text2": b, "swap": "1"})
    no_errors(at)
    # either two swapped translations with their verdicts, or a note in place of the swap
    assert len(at.code) in (2, 4)
    if len(at.code) == 2:
        assert at.info
