"""AppTest for the foundation pages (positional encoding, masks, worked examples, why √d_k), in
both UI languages: set the inputs, check the key outputs, no exception, no error element."""
from __future__ import annotations

import pytest

from app_helpers import figures, no_errors, open_app
from helpers import plotly_decoded

LANGS = ["en", "zh"]


def _charts(at):
    """The page's plotly figures as dicts, with numbers decoded."""
    return [plotly_decoded(f) for f in figures(at)]


# Note: with a checkpoint in the sidebar, AppTest cannot re-run a page in Chinese after a widget
# change (it formats the sidebar picker's value with the English label: 'tiny-test · shipped' is
# not in the Chinese options), even for switch_page. So the Chinese run with a checkpoint opens the
# page in English and switches the language last; the Chinese interactions run without one.


def test_positional_encoding_page(monkeypatch, tmp_path, ck_dir):
    at = open_app(monkeypatch, ck_dir, tmp_path, page="pages/positional-encoding.py")
    no_errors(at)
    assert at.title[0].value == "Positional encoding"
    figs = _charts(at)
    assert len(figs) >= 5  # waves, heatmap, similarity, offset, norms
    waves = figs[0]["data"]
    assert [tr["name"].split()[1] for tr in waves] == ["4", "5", "6", "7"]
    assert "e-1" in at.success[0].value  # rotation error printed, round-off size
    at.slider(key="positional_encoding_k").set_value(10).run()
    assert "M_10" in at.success[0].value
    # the size comparison uses the checkpoint: a bar per token, PE norm √(d/2) = 4 for d_model 32
    at.text_input(key="positional_encoding_sentence").set_value("Ein Hund rennt .").run()
    no_errors(at)
    norm_fig = [f for f in _charts(at) if f["data"][0]["type"] == "bar"][0]
    assert all(abs(v - 4.0) < 1e-4 for v in norm_fig["data"][1]["y"])
    at.text_input(key="positional_encoding_sentence").set_value("   ").run()
    assert not at.exception and at.warning  # empty text: a message, not an error
    assert any("2 of 4" in m.value for m in at.markdown)  # the notes' example: 2 of 4 right


def test_positional_encoding_page_zh(monkeypatch, tmp_path, ck_dir):
    at = open_app(monkeypatch, ck_dir, tmp_path, page="pages/positional-encoding.py")
    at.session_state["lang"] = "zh"  # switched last: see the note above
    at.run()
    no_errors(at)
    assert at.title[0].value == "位置编码"
    assert any(f["data"][0]["type"] == "bar" for f in _charts(at))  # the norms of the checkpoint
    assert any("4 个数有 2 个正确" in m.value for m in at.markdown)


def test_positional_encoding_without_checkpoint(monkeypatch, tmp_path):
    at = open_app(monkeypatch, None, tmp_path, page="pages/positional-encoding.py", lang="zh")
    no_errors(at)
    assert any("没有加载模型" in i.value for i in at.info)
    at.slider(key="positional_encoding_d_model").set_value(1024).run()
    no_errors(at)


@pytest.mark.parametrize("lang", LANGS)
def test_masks_page(monkeypatch, tmp_path, ck_dir, lang):
    at = open_app(monkeypatch, ck_dir if lang == "en" else None, tmp_path, page="pages/masks.py", lang=lang)
    no_errors(at)
    at.text_area(key="masks_text").set_value("A dog runs .\n猫 在 桌子 上 睡觉\nEin Hund").run()
    no_errors(at)
    row = at.dataframe[-1].value
    weights_inf = row.iloc[:, 4].to_numpy(dtype=float)
    keep = row.iloc[:, 2].to_numpy(dtype=bool)
    assert abs(weights_inf.sum() - 1) < 1e-9 and (weights_inf[~keep] == 0).all()
    assert at.warning  # the 0-mask leak is stated with its number
    at.selectbox(key="masks_choice").set_value(2).run()
    no_errors(at)
    at.text_area(key="masks_text").set_value("  \n ").run()
    assert at.error and not at.exception  # empty text: a clear message


def test_masks_page_whitespace_tokens_without_model(monkeypatch, tmp_path):
    at = open_app(monkeypatch, None, tmp_path, page="pages/masks.py")
    at.text_area(key="masks_text").set_value("<img src=x onerror=alert(1)>\nثم ماذا\n😀 a").run()
    no_errors(at)
    batch = at.dataframe[0].value
    assert batch.iloc[0, 0] == "<img" and batch.iloc[2, 0] == "😀"


@pytest.mark.parametrize("lang", LANGS)
def test_worked_examples_page(monkeypatch, tmp_path, lang):
    at = open_app(monkeypatch, None, tmp_path, page="pages/worked-examples.py", lang=lang)
    no_errors(at)
    at.selectbox(key="worked_examples_example").set_value("scaled_dot_product_2_queries_3_keys").run()
    no_errors(at)
    # the numbers of the example: QK^T = [[17, 23, 29], [39, 53, 67]]
    frames = [d.value for d in at.dataframe]
    assert any(f.shape == (2, 3) and f.iloc[1, 2] == 67 for f in frames)
    # the known slip: 39/√2 = 27.58, the notes wrote 27.56, flagged in the combined table
    assert any(f.shape == (2, 3) and "≠" in str(f.iloc[1, 0]) and "27.56" in str(f.iloc[1, 0]) for f in frames)
    slip = "the notes slipped here" if lang == "en" else "笔记在这一步出错"
    assert any(slip in e.label for e in at.expander)
    why = "27.58" if lang == "en" else "27.58"
    assert any(why in m.value for m in at.markdown)


def test_worked_examples_every_example_and_free_mode(monkeypatch, tmp_path):
    from transformer.worked.examples import list_examples

    at = open_app(monkeypatch, None, tmp_path, page="pages/worked-examples.py")
    for ex in list_examples():
        at.selectbox(key="worked_examples_example").set_value(ex).run()
        no_errors(at)
    at.selectbox(key="worked_examples_example").set_value("positional_encoding_love").run()
    at.number_input(key="worked_examples_pos_0").set_value(1.0).run()
    no_errors(at)
    assert at.info  # inputs changed: said so
    # free mode: garbage gives a message, good input the weights
    at.session_state["worked_examples_mode"] = "free"
    at.run()
    at.text_area(key="worked_examples_free_qkv_Q").set_value("1 2\nfoo").run()
    assert at.error and "foo" in at.error[0].value and not at.exception
    at.text_area(key="worked_examples_free_qkv_Q").set_value("1 2\n3 4").run()
    at.radio(key="worked_examples_free_mask").set_value("causal").run()
    no_errors(at)
    assert "1" in at.success[0].value
    at.number_input(key="worked_examples_free_dk").set_value(5).run()
    assert at.error and not at.exception  # d_k that does not match the widths
    at.number_input(key="worked_examples_free_dk").set_value(0).run()
    at.radio(key="worked_examples_free_mode").set_value("x").run()
    no_errors(at)


@pytest.mark.parametrize("lang", LANGS)
def test_why_sqrt_dk_page(monkeypatch, tmp_path, lang):
    at = open_app(monkeypatch, None, tmp_path, page="pages/why-sqrt-dk.py", lang=lang)
    no_errors(at)
    figs = _charts(at)
    var = figs[0]["data"]
    measured = dict(zip(var[1]["x"], var[1]["y"]))
    assert abs(measured[256] / 256 - 1) < 0.15  # Var(q·k) ≈ d_k
    at.select_slider(key="why_sqrt_dk_dk").set_value(1024).run()
    no_errors(at)
    assert "1024" in at.info[0].value


@pytest.mark.parametrize("lang", LANGS)
def test_worked_examples_explain_the_notes_open_on_a_teaching_example_and_free_mode_has_no_notes(
        monkeypatch, tmp_path, lang):
    """Issue 23: an outside teacher has no copy of the notes; the page opened on the example with
    71 of 88 numbers red; free mode labelled every step "(not printed in the notes)"."""
    at = open_app(monkeypatch, None, tmp_path, page="pages/worked-examples.py", lang=lang)
    no_errors(at)
    intro = " ".join(m.value for m in at.markdown)
    if lang == "en":
        assert "lecture-style study notes" in intro and "You do not need a copy" in intro
        assert "This app checks them" in intro
    else:
        assert "讲义式" in intro and "不需要手头有这份笔记" in intro and "本应用检查这些笔记" in intro
    assert at.selectbox(key="worked_examples_example").value == "self_attention_cat_sentence"
    at.session_state["worked_examples_mode"] = "free"
    at.run()
    no_errors(at)
    labels = [e.label for e in at.expander if " — " in e.label]  # the steps (not the sidebar's)
    assert labels and not any("not printed" in x or "没有给出" in x for x in labels), labels
    assert all(x.endswith("computed" if lang == "en" else "计算值") for x in labels), labels


@pytest.mark.parametrize("lang", LANGS)
def test_why_sqrt_dk_widgets_and_one_unit_for_entropy(monkeypatch, tmp_path, lang):
    """The page's three controls change what it shows (d_k, the keys in a row, the seed), and its
    entropy is in bits, as on Attention across training (issue 50, 3d): log₂ of the number of keys
    for an even spread; the Jacobian and the Frobenius norm are glossed where they appear."""
    import math

    at = open_app(monkeypatch, None, tmp_path, page="pages/why-sqrt-dk.py", lang=lang)
    no_errors(at)
    text = lambda: " ".join(str(x.value) for k in ("caption", "info", "markdown")  # noqa: E731
                            for x in getattr(at, k))
    bits = "bits" if lang == "en" else "比特"
    assert bits in " ".join(i.value for i in at.info)
    assert "nats" not in text()
    at.slider(key="why_sqrt_dk_keys").set_value(16).run()
    no_errors(at)
    assert f"{math.log2(16):.3f}" in text() and f"{math.log(16):.3f}" not in text()
    sat = _charts(at)[-1]
    titles = " ".join(a.get("text", "") for a in sat["layout"]["annotations"])
    assert ("entropy (bits)" if lang == "en" else "熵（比特）") in titles
    # even spread at d_k = 1 after scaling is near the largest entropy, log₂ 16 = 4 bits
    ent = [tr for tr in sat["data"] if tr.get("xaxis") == "x2" and tr["legendgroup"] == "scaled"][0]
    assert 2.5 < ent["y"][0] <= 4.0
    if lang == "en":
        assert "the Jacobian: the table of how much each weight moves" in text()
        assert "Frobenius norm (the square root of the sum of its squared entries)" in text()
    else:
        assert "雅可比矩阵：每个分数稍有变动时" in text() and "各元素平方和的平方根" in text()
    before = _charts(at)[0]["data"][1]["y"]
    at.number_input(key="why_sqrt_dk_seed").set_value(7).run()
    no_errors(at)
    assert _charts(at)[0]["data"][1]["y"] != before  # another seed, other samples
    at.select_slider(key="why_sqrt_dk_dk").set_value(4).run()
    no_errors(at)
    assert "d_k = 4" in at.info[0].value
