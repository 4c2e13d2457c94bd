"""The Attention page through AppTest: both languages, the numbers it draws, links, bad input.

AppTest (Streamlit 1.67) runs only the page script after switch_page when the page's url_path
equals its file name ("attention"), not app.py: the sidebar's widgets are not re-registered, so
their state (language, checkpoint) is dropped after the first run. `rerun` puts them back before
each run, as the shell would.
"""
from __future__ import annotations

import base64
import json
import shutil

import numpy as np
import pytest

from app_helpers import no_errors, open_app

PAGE = "pages/attention_maps.py"


@pytest.fixture
def ck_dir(tmp_path, small_checkpoint):
    d = tmp_path / "shipped"
    d.mkdir()
    shutil.copytree(small_checkpoint, d / "tiny-test")
    return d


def rerun(at):
    at.session_state["ckpt_path"] = at._ck
    at.session_state["lang"] = at._lang
    return at.run()


def open_page(monkeypatch, ck_dir, tmp_path, lang="en", query=None, page=PAGE):
    # AppTest re-formats the shell's checkpoint selectbox outside a script run, where the session's
    # language cannot be read (ui.i18n.lang() falls back to "en" and the options no longer match):
    # pin the language for the whole test.
    from ui import i18n

    monkeypatch.setattr(i18n, "lang", lambda: lang)
    at = open_app(monkeypatch, ck_dir, tmp_path, lang=lang)
    at._ck, at._lang = at.session_state["ckpt_path"], lang
    if query:
        at.query_params.update(query)
    at.switch_page(page)
    return rerun(at)


def figures(at) -> list[dict]:
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")]


def arr(v) -> np.ndarray:
    """A plotly JSON array: a list, or plotly 6's typed form {"dtype", "bdata", "shape"}."""
    if isinstance(v, dict):
        a = np.frombuffer(base64.b64decode(v["bdata"]), dtype=np.dtype(v["dtype"]))
        shape = v.get("shape")
        if isinstance(shape, str):
            shape = [int(x) for x in shape.split(",")]
        return a.reshape(shape) if shape else a
    return np.array(v, dtype=float)


def reference(ck_path, text, target=None):
    from transformer.checkpoint import load_checkpoint
    from transformer.inspect import inspect_text

    ck = load_checkpoint(ck_path)
    return inspect_text(ck.model, ck.tokenizer, text, target)


@pytest.mark.parametrize("lang,title", [("en", "Attention: who looks at whom"),
                                        ("zh", "注意力：谁在看谁")])
def test_attention_page_in_both_languages(monkeypatch, tmp_path, ck_dir, lang, title):
    at = open_page(monkeypatch, ck_dir, tmp_path, lang)
    no_errors(at)
    assert at.title[0].value == title
    assert at.text_input(key="att_text").value == "A dog runs in the park ."  # task "test"
    model_view, heat, head_view = figures(at)
    assert len(model_view["data"]) == 2 * 4  # 2 encoder layers x 4 heads, one figure
    assert model_view["layout"]["coloraxis"]["cmax"] == 1
    z = arr(heat["data"][0]["z"])
    np.testing.assert_allclose(z.sum(1), 1.0, atol=5e-4)  # a weights row shown sums to 1
    assert "→" in heat["data"][0]["hovertemplate"]
    ref = reference(at._ck, "A dog runs in the park .")
    np.testing.assert_allclose(z, ref.weights("encoder_self", 0)[0].numpy(), atol=1e-4)
    assert heat["data"][0]["y"][-1] == "&lt;/s&gt;"
    assert any(tr.get("mode") == "lines" for tr in head_view["data"])
    assert len(at.get("download_button")) == 2
    assert at.code[0].value  # the model's output is shown

    # cross-attention, a chosen head, words merged and specials hidden
    at.radio(key="att_kind").set_value("cross")
    at.selectbox(key="att_layer").set_value(1)
    at.selectbox(key="att_head").set_value(2)
    at.toggle(key="att_merge").set_value(True)
    at.toggle(key="att_hide").set_value(True)
    at.checkbox(key="att_avg").set_value(True)
    rerun(at)
    no_errors(at)
    figs = figures(at)
    assert len(figs) == 4  # model view, head, average, head view
    heat, avg = figs[1], figs[2]
    labels = heat["data"][0]["x"] + heat["data"][0]["y"]
    assert not any(lab.strip("\u200b") in ("&lt;s&gt;", "&lt;/s&gt;") for lab in labels)
    z = arr(heat["data"][0]["z"])
    sums = z.sum(1)
    np.testing.assert_allclose(sums[sums > 0], 1.0, atol=5e-4)
    assert "4" in avg["layout"]["title"]["text"]  # the number of heads averaged
    captions = " ".join(c.value for c in at.caption)
    assert ("renormalised" in captions) if lang == "en" else ("重新归一化" in captions)


def test_query_params_open_one_head(monkeypatch, tmp_path, ck_dir):
    at = open_page(monkeypatch, ck_dir, tmp_path, query={
        "kind": "cross", "layer": "1", "head": "2", "text": "The cat sleeps ."})
    no_errors(at)
    assert at.radio(key="att_kind").value == "cross"
    assert at.selectbox(key="att_layer").value == 1 and at.selectbox(key="att_head").value == 2
    assert at.text_input(key="att_text").value == "The cat sleeps ."
    heat = figures(at)[1]
    ref = reference(at._ck, "The cat sleeps .")
    np.testing.assert_allclose(arr(heat["data"][0]["z"]),
                               ref.weights("cross", 1)[2].numpy(), atol=1e-4)
    # out-of-range values are clamped, not errors
    at2 = open_page(monkeypatch, ck_dir, tmp_path, query={"kind": "nope", "layer": "9", "head": "x"})
    no_errors(at2)
    assert at2.radio(key="att_kind").value == "encoder_self"


def test_bad_inputs_give_messages(monkeypatch, tmp_path, ck_dir):
    at = open_page(monkeypatch, ck_dir, tmp_path, lang="zh")
    for text in ["", "   \t "]:
        at.text_input(key="att_text").input(text)
        rerun(at)
        no_errors(at)
        assert at.info and not at.get("plotly_chart")
    at.text_input(key="att_text").input("<script>alert(1)</script> <img src=x onerror=alert(1)>")
    rerun(at)
    no_errors(at)
    spec = " ".join(el.proto.spec for el in at.get("plotly_chart"))
    assert "<script" not in spec and "&lt;" in spec
    at.text_input(key="att_text").input("word " * 600)  # 3000 characters
    rerun(at)
    no_errors(at)
    assert at.warning and "128" in at.warning[0].value
    at.text_input(key="att_text").input("مرحبا بالعالم 😀 你好")
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


def test_opens_on_the_featured_head_of_the_shipped_anaphora_model(monkeypatch, tmp_path):
    """The classroom's Figure 4: the anaphora checkpoint's card names a head; the page opens on it."""
    import json
    from pathlib import Path

    from app_helpers import open_app

    shipped = Path(__file__).resolve().parents[1] / "checkpoints"
    fh = json.loads((shipped / "anaphora-en-de" / "history.json").read_text())["featured_head"]
    at = open_app(monkeypatch, shipped, tmp_path, page="pages/attention_maps.py")
    assert at.session_state["ckpt_path"].endswith("anaphora-en-de")
    assert not at.exception
    assert at.session_state["att_kind"] == fh["kind"]
    assert (at.session_state["att_layer"], at.session_state["att_head"]) == (fh["layer"], fh["head"])
    assert any("pronoun" in s.value.lower() for s in at.success)
