"""The Attention page through AppTest: both languages, the numbers it draws, links, bad input.

AppTest (Streamlit 1.67) runs only the page script after switch_page when the page's url_path
equals its file name ("attention"), not app.py: the sidebar's widgets are not re-registered, so
their state (language, checkpoint) is dropped after the first run. `rerun` puts them back before
each run, as the shell would.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

from app_helpers import figure, no_errors, open_app, open_pinned, rerun
from helpers import merged_reference, page_reference, plotly_array
from ui import i18n

PAGE = "pages/attention.py"


def figures(at) -> list[dict]:
    """The attention figures in page order: all but the output's certainty chart (above them,
    tested in tests/test_certainty.py)."""
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")
            if not el.proto.id.endswith("attention_certainty")]


def open_page(monkeypatch, ck_dir, tmp_path, lang="en", query=None):
    return open_pinned(monkeypatch, ck_dir, tmp_path, PAGE, lang=lang, query=query)


def labels_of(tok, ids):
    import html

    return [f"{i} {html.escape(w, quote=False)}" for i, w in enumerate(tok.word_strings(ids))]


@pytest.mark.parametrize("lang,title", [("en", "Attention: who looks at whom"),
                                        ("zh", "注意力：谁在看谁")])
def test_attention_page_in_both_languages(monkeypatch, tmp_path, ck_dir, lang, title):
    from transformer.core.checkpoint import load_checkpoint

    at = open_page(monkeypatch, ck_dir, tmp_path, lang)
    no_errors(at)
    assert at.title[0].value == title
    assert at.text_input(key="attention_text").value == "A dog runs in the park ."  # task "test"
    # opens on encoder self-attention, pieces merged into words
    assert at.radio(key="attention_kind").value == "encoder_self"
    assert at.toggle(key="attention_merge").value is True
    head_view, heat = figures(at)[:2]  # then the rollout section's
    # every layer x head: built and drawn only when asked (a toggle, not an expander)
    assert at.toggle(key="attention_model_view_on").value is False
    assert not any("attention_model_view" in el.proto.id for el in at.get("plotly_chart"))
    ref = page_reference(at._ck, "A dog runs in the park .")
    tok = load_checkpoint(at._ck).tokenizer
    want = merged_reference(ref.weights("encoder_self", 0)[0].double().numpy(), tok,
                            ref.src_ids, ref.src_ids)
    z = plotly_array(heat["data"][0]["z"])
    np.testing.assert_allclose(z, want, atol=1e-4)
    np.testing.assert_allclose(z.sum(1), 1.0, atol=5e-4)  # a merged row still sums to 1
    # hover and axes: positions and whole words ("3 dog -> 1 the: 0.41")
    assert heat["data"][0]["y"] == labels_of(tok, ref.src_ids)
    assert heat["data"][0]["y"][-1].endswith(" &lt;/s&gt;")
    assert heat["data"][0]["hovertemplate"] == "%{y} → %{x}: %{z:.2f}<extra></extra>"
    # the model view, asked for: ONE heatmap trace whose tiles are every layer's and head's
    # merged weights, computed here from the trace with loops
    at.toggle(key="attention_model_view_on").set_value(True)
    rerun(at)
    no_errors(at)
    model_view = figure(at, "attention_model_view")
    assert len(model_view["data"]) == 1 and model_view["layout"]["coloraxis"]["cmax"] == 1
    grid = plotly_array(model_view["data"][0]["z"])
    n = len(tok.words(ref.src_ids))
    assert grid.shape == (2 * (n + 1) - 1, 4 * (n + 1) - 1)  # 2 layers x 4 heads, blank between
    for layer in range(2):
        every = merged_reference(ref.weights("encoder_self", layer).double().numpy(), tok,
                                 ref.src_ids, ref.src_ids)  # (heads, n, n)
        for h in range(4):
            tile = grid[layer * (n + 1): layer * (n + 1) + n, h * (n + 1): h * (n + 1) + n]
            np.testing.assert_allclose(tile, every[h], atol=1e-3)
    assert np.isnan(grid[n]).all() and np.isnan(grid[:, n]).all()  # the gaps are blank
    words = labels_of(tok, ref.src_ids)
    mv = model_view["data"][0]
    assert mv["hovertemplate"] == "%{y} → %{x}: %{z:.2f}<extra></extra>"
    from ui.strings import attention as S
    said = i18n.sentences(S, lang)
    assert mv["y"][n + 1 + 2] == said["layer_n"].format(n=1) + f" · {words[2]}"  # layer 1, query 2
    assert mv["x"][3 * (n + 1) + 1] == said["head_n"].format(n=3) + f" · {words[1]}"  # head 3, key 1
    # head view: one word (no pronoun here: the first word), one head, hover points with numbers
    legend = [tr for tr in head_view["data"] if tr.get("mode") == "lines" and tr.get("x") == [None]]
    assert len(legend) == 1
    points = [tr for tr in head_view["data"] if tr.get("mode") == "markers"]
    assert points and all(h.startswith("0 A → ") for h in points[0]["hovertext"])
    first = points[0]["hovertext"][0]  # "0 A → j word: 0.xx · head 0"
    j = int(first.split(" → ")[1].split(" ")[0])
    assert first.split(": ")[1].split(" ·")[0] == f"{want[0, j]:.2f}"
    assert len(at.get("download_button")) == 2
    assert at.code[0].value  # the model's output is shown

    # cross-attention, a chosen head, pieces shown and specials hidden, two heads drawn
    at.radio(key="attention_kind").set_value("cross")
    at.selectbox(key="attention_layer").set_value(1)
    at.selectbox(key="attention_head").set_value(2)
    at.toggle(key="attention_merge").set_value(False)
    at.toggle(key="attention_hide").set_value(True)
    at.checkbox(key="attention_avg").set_value(True)
    rerun(at)
    no_errors(at)
    at.pills(key="attention_hv_heads_cross_1_2").set_value([0, 2])
    rerun(at)
    no_errors(at)
    figs = figures(at)
    # head view, head, average, model view, the contributions (ALTI+: heat and source share), then
    # rollout (its check on request)
    assert len(figs) == 7
    hv, heat, avg = figs[0], figs[1], figs[2]
    legend = [tr["name"] for tr in hv["data"] if tr.get("mode") == "lines" and tr.get("x") == [None]]
    assert len(legend) == 2
    labels = heat["data"][0]["x"] + heat["data"][0]["y"]
    assert not any(lab.split(" ", 1)[1] in ("&lt;s&gt;", "&lt;/s&gt;") for lab in labels)
    z = plotly_array(heat["data"][0]["z"])
    sums = z.sum(1)
    np.testing.assert_allclose(sums[sums > 0], 1.0, atol=5e-4)
    assert "4" in avg["layout"]["title"]["text"]  # the number of heads averaged
    captions = " ".join(c.value for c in at.caption)
    assert ("renormalised" in captions) if lang == "en" else ("重新归一化" in captions)


def test_opens_on_the_pronoun(monkeypatch, tmp_path, ck_dir):
    """With a pronoun in the sentence, the head view starts on it (encoder) or on the row that
    writes the German pronoun (decoder kinds)."""
    at = open_page(monkeypatch, ck_dir, tmp_path, query={
        "text": "The dog saw the book because it was hungry .",
        "target": "Der Hund sah das Buch , weil er hungrig war ."})
    no_errors(at)
    hv = figures(at)[0]
    bold = [x for tr in hv["data"] if tr.get("mode") == "text" for x in tr["text"] if "<b>" in x]
    assert bold == ["<b>6 it</b>"]
    assert any("\"it\"" in c.value or '"it"' in c.value for c in at.caption)
    at.radio(key="attention_kind").set_value("decoder_self")
    rerun(at)
    no_errors(at)
    hv = figures(at)[0]
    bold = [x for tr in hv["data"] if tr.get("mode") == "text" for x in tr["text"] if "<b>" in x]
    assert bold == ["<b>7 weil</b>"]  # <s> Der Hund sah das Buch , weil | er


def test_query_params_open_one_head(monkeypatch, tmp_path, ck_dir):
    at = open_page(monkeypatch, ck_dir, tmp_path, query={
        "kind": "cross", "layer": "1", "head": "2", "text": "The cat sleeps ."})
    no_errors(at)
    assert at.radio(key="attention_kind").value == "cross"
    assert at.selectbox(key="attention_layer").value == 1 and at.selectbox(key="attention_head").value == 2
    assert at.text_input(key="attention_text").value == "The cat sleeps ."
    from transformer.core.checkpoint import load_checkpoint

    heat = figures(at)[1]
    ref = page_reference(at._ck, "The cat sleeps .")
    tok = load_checkpoint(at._ck).tokenizer
    np.testing.assert_allclose(plotly_array(heat["data"][0]["z"]), merged_reference(
        ref.weights("cross", 1)[2].double().numpy(), tok, ref.tgt_ids, ref.src_ids), atol=1e-4)
    # out-of-range values are clamped, not errors
    at2 = open_page(monkeypatch, ck_dir, tmp_path, query={"kind": "nope", "layer": "9", "head": "x"})
    no_errors(at2)
    assert at2.radio(key="attention_kind").value == "encoder_self"


def test_bad_inputs_give_messages(monkeypatch, tmp_path, ck_dir):
    at = open_page(monkeypatch, ck_dir, tmp_path, lang="zh")
    for text in ["", "   \t "]:
        at.text_input(key="attention_text").input(text)
        rerun(at)
        no_errors(at)
        assert at.info and not at.get("plotly_chart")
    at.text_input(key="attention_text").input("<script>alert(1)</script> <img src=x onerror=alert(1)>")
    rerun(at)
    no_errors(at)
    spec = " ".join(el.proto.spec for el in at.get("plotly_chart"))
    assert "<script" not in spec and "&lt;" in spec
    at.text_input(key="attention_text").input("word " * 600)  # 3000 characters
    rerun(at)
    no_errors(at)
    assert any("128" in w.value for w in at.warning)  # the cut is said (beside other notes)
    at.text_input(key="attention_text").input("مرحبا بالعالم 😀 你好")
    rerun(at)
    no_errors(at)
    heat = figures(at)[1]
    assert any("😀" in lab or "你" in lab or "ا" in lab for lab in heat["data"][0]["y"])


def test_no_checkpoint_is_explained(monkeypatch, tmp_path):
    at = open_app(monkeypatch, None, tmp_path)
    at.switch_page(PAGE)
    at.run()
    no_errors(at)
    assert at.info and not at.get("plotly_chart")


@pytest.mark.parametrize("name", ["everyday-en-de", "classroom-en-de", "anaphora-en-de"])
def test_featured_head_callout_of_the_shipped_pronoun_models(monkeypatch, tmp_path, name):
    """The paper's Figure 4 is encoder self-attention (layer 5 of 6, heads 5 and 6); a shipped
    model's pronoun head may be elsewhere. The callout says both, in both languages, and its
    ablation numbers are measured (the same as transformer.heads computes), not written; each
    number names its head, and the box's title names every head it reports on."""
    from pathlib import Path

    from transformer.probing.probe_items import task_probe
    from transformer.probing.pronouns import pronoun_accuracy
    from transformer.core.checkpoint import load_checkpoint
    from transformer.core.names import Head, ablate_map

    shipped = Path(__file__).resolve().parents[1] / "checkpoints"
    fh = json.loads((shipped / name / "history.json").read_text())["featured_head"]
    for note in (fh["en"], fh["zh"]):
        assert "%" not in note and "33" not in note  # no measured number written into prose
    ck = load_checkpoint(shipped / name)
    task = ck.train_config["task"]
    # what the page measures: 100 held-out anaphora sentences, or the whole hand-written probe
    items = task_probe(task, 100 if task == "anaphora" else None)
    monkeypatch.setenv("ATTENTION_LAB_DEFAULT", name)
    on = pronoun_accuracy(ck.model, ck.tokenizer, items).accuracy
    off = pronoun_accuracy(ck.model, ck.tokenizer, items, ablate_map(
        [Head(fh["kind"], fh["layer"], fh["head"])])).accuracy
    also = [(Head(**h).label, pronoun_accuracy(ck.model, ck.tokenizer, items,
                                               ablate_map([Head(**h)])).accuracy)
            for h in fh.get("also", [])]  # the model's other pronoun head, switched off instead
    label = Head(fh["kind"], fh["layer"], fh["head"]).label
    from ui.page_kit import example_text

    # the box speaks of the pronoun's row: a sentence with a pronoun (the model's own example
    # where it has one, else the blog sentence); without one the page says one line (below)
    example = example_text(ck.train_config)
    has_it = any(w.strip(".,").lower() in ("it", "its") for w in example.split())
    query = None if has_it else {"text": "The animal didn't cross the street because it was too tired ."}
    if not has_it:
        plain = open_page(monkeypatch, shipped, tmp_path, lang="en")
        no_errors(plain)
        assert not any("ENCODER self-attention (layer 5 of 6" in m.value for m in plain.markdown)
        assert any("pronoun head is" in c.value for c in plain.caption)
    for lang in ("en", "zh"):
        at = open_page(monkeypatch, shipped, tmp_path, lang=lang, query=query)
        assert at.session_state["ckpt_path"].endswith(name)
        no_errors(at)
        # opens on the featured head (and its pronoun row)
        assert at.session_state["attention_kind"] == fh["kind"]
        assert (at.session_state["attention_layer"], at.session_state["attention_head"]) == (fh["layer"], fh["head"])
        text = " ".join(m.value for m in at.markdown)
        title = next(m.value for m in at.markdown if m.value.startswith("🎯"))
        same = fh["kind"] == "encoder_self"  # the pronoun head where Figure 4 has its heads
        # issue 50, 3a: the box is titled for every head whose numbers it reports, each number
        # names its head, and which head the translation leans on more is measured, not assumed
        assert label in title and all(other in title for other, _ in also)
        if lang == "en":
            assert "ENCODER self-attention (layer 5 of 6" in text and "heads 5 and 6" in text
            assert ("sits in the same place" if same else "Masked decoder self") in text
            assert f"switching {label} off" in text and f"from {on:.0%} to {off:.0%}" in text
            for other, off2 in also:
                assert f"Switching {other} off instead: from {on:.0%} to {off2:.0%}" in text
                assert "(masked decoder self-attention, layer" in title  # its name in words
            if also and min(off2 for _, off2 in also) != off:
                more, less = ((also[0][0], label) if also[0][1] < off else (label, also[0][0]))
                assert f"leans more on {more} than on {less}" in text
            assert ("hand-written sentences" in text) == (task != "anaphora")
        else:
            assert "编码器自注意力" in text and "第 5 层" in text and "头 5 和头 6" in text
            assert ("正在同样的位置" if same else "带掩码的解码器自注意力") in text
            assert f"关掉 {label}" in text and f"从 {on:.0%} 变为 {off:.0%}" in text
            for other, off2 in also:
                assert f"改为关掉 {other}：从 {on:.0%} 变为 {off2:.0%}" in text
                assert "（带掩码的解码器自注意力，第" in title
    assert at.success  # "You are looking at enc L2 H0."
    # another head chosen: one click opens the featured head again
    at.radio(key="attention_kind").set_value("cross")
    rerun(at)
    no_errors(at)
    assert at.session_state["attention_kind"] == "cross"  # the choice sticks (featured once per model)
    at.button(key="attention_open_featured").click()
    rerun(at)
    no_errors(at)
    assert at.session_state["attention_kind"] == fh["kind"]
    assert (at.session_state["attention_layer"], at.session_state["attention_head"]) == (fh["layer"], fh["head"])
    # a link that names a head wins over the featured one
    at2 = open_page(monkeypatch, shipped, tmp_path, lang="en", query={"kind": "cross", "layer": "0",
                                                                      "head": "1"})
    no_errors(at2)
    assert (at2.session_state["attention_kind"], at2.session_state["attention_head"]) == ("cross", 1)


def test_text_the_model_cannot_read_is_said_in_the_pages_language(monkeypatch, tmp_path, ck_dir):
    """Chinese typed in the Chinese UI: a note that the model reads English, not silent salad;
    a text longer than the model reads: how much of it is used, and a list instead of buttons."""
    at = open_page(monkeypatch, ck_dir, tmp_path, lang="zh")
    at.text_input(key="attention_text").input("我不明白这个问题。")
    rerun(at)
    no_errors(at)
    assert any("这个模型只读英语" in w.value for w in at.warning)
    at = open_page(monkeypatch, ck_dir, tmp_path, lang="en")
    at.text_input(key="attention_text").input("I can't read Chinese: 我不明白这个问题，真的不明白。")
    rerun(at)
    no_errors(at)
    assert any("reads English only" in w.value for w in at.warning)
    at.text_input(key="attention_text").input("The dog runs . " * 60)  # 240 words
    rerun(at)
    no_errors(at)
    assert any("of 240 words are used" in w.value for w in at.warning)
    from viz.tokens import MAX_TOKEN_BUTTONS

    words = [g for g in at.get("button_group") if g.key.startswith("attention_hv_")
             and not g.key.startswith("attention_hv_heads")]
    lists = [s for s in at.selectbox if s.key.startswith("attention_hv_list")]
    # never a row of more buttons than can be read: a list instead, said in a caption
    assert all(len(g.options) <= MAX_TOKEN_BUTTONS + 1 for g in words)
    assert bool(words) != bool(lists)
    if lists:
        assert any("too many for buttons" in c.value for c in at.caption)
        assert len(lists[0].options) > MAX_TOKEN_BUTTONS + 1


def test_a_long_sentence_chooses_its_word_from_a_list(monkeypatch, tmp_path, ck_dir):
    at = open_page(monkeypatch, ck_dir, tmp_path, lang="zh")
    at.text_input(key="attention_text").input(" ".join(["A"] * 50))  # two pieces a word: 50 words fit
    rerun(at)
    no_errors(at)
    lists = [s for s in at.selectbox if s.key.startswith("attention_hv_list")]
    assert lists and len(lists[0].options) == 52  # all tokens, 50 words, </s>
    assert any("按钮放不下" in c.value for c in at.caption)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_rollout_section_draws_the_sentence_and_the_causal_check(monkeypatch, tmp_path, lang):
    """On the default model: one rollout picture for the sentence (rows the output words, each
    summing to 1, as transformer.probing.rollout computes), and for the German pronoun the occlusion
    bars beside rollout's share; the honest sentence in the page's language."""
    from pathlib import Path

    from transformer.core.checkpoint import load_checkpoint
    from transformer.probing.rollout import rollout
    from ui.strings import flow as FS
    from viz.flow import word_flow

    shipped = Path(__file__).resolve().parents[1] / "checkpoints"
    text = "A dog carries a stick in its mouth ."
    at = open_page(monkeypatch, shipped, tmp_path, lang=lang, query={"text": text})
    no_errors(at)
    heat = figure(at, "attention_flow_heat")
    z = plotly_array(heat["data"][0]["z"])
    ck = load_checkpoint(at._ck)
    ins = page_reference(at._ck, text)
    pieces = ins.tgt_ids[1:]
    want = word_flow(rollout(ins).to_source[: len(pieces)], ck.tokenizer.words(pieces),
                     ck.tokenizer.words(ins.src_ids))
    np.testing.assert_allclose(z, np.round(want, 4), atol=1e-4)
    np.testing.assert_allclose(z.sum(-1), 1.0, atol=1e-3)
    assert not any("attention_flow_check" in el.proto.id for el in at.get("plotly_chart"))  # asked for
    at.toggle(key="attention_flow_check_on").set_value(True)
    rerun(at)
    no_errors(at)
    check = figure(at, "attention_flow_check")
    assert len(check["data"]) == 2 and len(check["data"][0]["x"]) == z.shape[1]
    table = i18n.sentences(FS, lang)
    assert any(table["honest"] in c.value for c in at.caption)
    chosen = at.selectbox(key="attention_flow_word")
    from viz.tokens import is_pronoun_de

    words = ck.tokenizer.word_strings(pieces)
    # the German pronoun when the output has one, else its first word
    want_word = next((i for i, w in enumerate(words) if is_pronoun_de(w)), 0)
    assert chosen.value == want_word


def _clearest(ck_path, text, kind):
    import torch

    from transformer.probing import clearest as A
    from transformer.core.checkpoint import load_checkpoint

    ck = load_checkpoint(ck_path)
    ref = page_reference(ck_path, text)
    q_ids, k_ids = ((ref.src_ids, ref.src_ids) if kind == "encoder_self" else
                    (ref.tgt_ids, ref.tgt_ids) if kind == "decoder_self" else (ref.tgt_ids, ref.src_ids))
    q, k = ref.queries_keys(kind)
    w = torch.stack([ref.weights(kind, layer) for layer in range(len(ref.trace.layers(kind, "weights")))])
    tok = ck.tokenizer
    return A.clearest_head(w, kind, q, k, [tok.is_special(i) for i in q_ids],
                           [tok.is_special(i) for i in k_ids])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_model_without_a_featured_head_opens_on_its_clearest_head(monkeypatch, tmp_path, lang):
    """Issue 23: a new run's Attention page opened on layer 0, head 0, here the least useful head.
    A copying model opens on cross-attention (its lesson is the alignment) and on the head with
    the clearest pattern on the sentence shown, said in a caption; the reader's own choice of head
    is kept afterwards."""
    from pathlib import Path

    shipped = Path(__file__).resolve().parents[1] / "checkpoints"
    monkeypatch.setenv("ATTENTION_LAB_DEFAULT", "copy-tiny")
    at = open_page(monkeypatch, shipped, tmp_path, lang=lang)
    assert at.session_state["ckpt_path"].endswith("copy-tiny")
    no_errors(at)
    assert at.radio(key="attention_kind").value == "cross"
    best = _clearest(at._ck, at.text_input(key="attention_text").value, "cross")
    layer, head = at.selectbox(key="attention_layer").value, at.selectbox(key="attention_head").value
    assert (layer, head) == (best.layer, best.head) != (0, 0)
    assert best.behaviour == "diagonal" and best.score > 0.6
    assert float(best.scores[0, 0]) < best.score - 0.2  # layer 0, head 0 is far weaker
    said = " ".join(c.value for c in at.caption)
    assert ("what copying needs" in said) if lang == "en" else ("这正是复制所需要的" in said)
    # the reader's choice stays
    at.selectbox(key="attention_head").set_value(0)
    at.selectbox(key="attention_layer").set_value(0)
    rerun(at)
    no_errors(at)
    assert (at.selectbox(key="attention_layer").value, at.selectbox(key="attention_head").value) == (0, 0)


def test_clearest_head_scores_patterns_not_sinks():
    """transformer.probing.clearest.clearest_head on hand-made weights: a head resting on </s> is sharp but
    scores low; a previous-token head wins and is named."""
    import torch

    from transformer.probing import clearest as A

    toks = ["a", "b", "c", "d", "</s>"]
    special = [False] * 4 + [True]
    sink = torch.zeros(5, 5)
    sink[:, 4] = 1.0
    prev = torch.zeros(5, 5)
    prev[0, 0] = 1.0
    for q in range(1, 5):
        prev[q, q - 1] = 1.0
    w = torch.stack([torch.stack([sink, prev])])  # (1 layer, 2 heads, Q, K)
    best = A.clearest_head(w, "encoder_self", toks, toks, special, special)
    assert (best.layer, best.head, best.behaviour) == (0, 1, "previous")
    assert best.score == pytest.approx(0.75)  # the first token has no previous one
    assert float(best.scores[0, 1]) == pytest.approx(1.0) and float(best.scores[0, 0]) < 0.3  # sink


def test_cell_numbers_are_written_when_asked(monkeypatch, tmp_path, ck_dir):
    """The enlarged head and the rollout picture hover their numbers; written in the cells only
    with the toggle on (a browser measures every cell's text)."""
    at = open_page(monkeypatch, ck_dir, tmp_path)
    no_errors(at)
    assert at.toggle(key="attention_cell_numbers").value is False
    for key in ("attention_heatmap", "attention_flow_heat"):
        d = figure(at, key)["data"][0]
        assert "texttemplate" not in d and d["hovertemplate"].endswith("<extra></extra>")
    at.toggle(key="attention_cell_numbers").set_value(True)
    rerun(at)
    no_errors(at)
    for key in ("attention_heatmap", "attention_flow_heat"):
        assert figure(at, key)["data"][0]["texttemplate"] == "%{z:.2f}"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_long_sentences_compute_contributions_only_when_asked(monkeypatch, tmp_path, ck_dir, lang):
    """ALTI+ grows with the square of the source: over LONG_SOURCE pieces the page offers a toggle
    (with its cost) instead of computing it on every run; asked, it draws the same two charts."""
    from ui import contributions_view as CV

    def contrib_charts(at):
        return [el for el in at.get("plotly_chart") if el.proto.id.endswith(
            ("attention_contrib_heat", "attention_contrib_share"))]

    monkeypatch.setattr(CV, "LONG_SOURCE", 64)  # the small test model reads at most 128 pieces
    at = open_page(monkeypatch, ck_dir, tmp_path, lang=lang)
    assert len(contrib_charts(at)) == 2  # the opening sentence: short, computed unasked
    assert not [g for g in at.toggle if g.key == "attention_contrib_long"]
    at.text_input(key="attention_text").input(" ".join(["dog"] * 200))
    rerun(at)
    no_errors(at)
    assert contrib_charts(at) == []
    long = at.toggle(key="attention_contrib_long")
    assert "64" in " ".join(c.value for c in at.caption)
    long.set_value(True)
    rerun(at)
    no_errors(at)
    assert len(contrib_charts(at)) == 2


def test_the_long_source_gate_is_where_the_cost_is():
    from ui import contributions_view as CV

    assert CV.runs_unasked(CV.LONG_SOURCE) and not CV.runs_unasked(CV.LONG_SOURCE + 1)
    # the estimate is the measured square law: 4x the pieces, 16x the seconds
    assert CV.estimated_seconds(400) == pytest.approx(16 * CV.estimated_seconds(100))
