"""The Heads page through AppTest, on a small trained anaphora checkpoint: the head finder fills
the grids, the link opens a head on the Attention page, and ablation changes the output."""
from __future__ import annotations

import json
from urllib.parse import parse_qs

import numpy as np
import pytest

from app_helpers import no_errors, open_pinned, rerun
from helpers import plotly_array
from ui.strings import heads as S
from ui import i18n

PAGE = "pages/heads.py"


def open_page(monkeypatch, ck_dir, tmp_path, lang="en"):
    return open_pinned(monkeypatch, ck_dir, tmp_path, PAGE, lang=lang)


def _grids(at) -> dict[str, np.ndarray]:
    out = {}
    for el in at.get("plotly_chart"):
        if "heads_grid_" in el.proto.id:
            kind = el.proto.id.rsplit("heads_grid_", 1)[1]
            out[kind] = plotly_array(json.loads(el.proto.spec)["data"][0]["z"])
    return out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_head_finder_fills_the_grid(monkeypatch, tmp_path, trained_dir, trained_checkpoint, lang):
    from transformer.probing import heads as H
    from transformer.core.names import KINDS
    from transformer.probing.probe_items import anaphora_probe, baselines
    from transformer.core.checkpoint import load_checkpoint

    at = open_page(monkeypatch, trained_dir, tmp_path, lang)
    no_errors(at)
    at.slider(key="heads_n").set_value(40)
    rerun(at)
    no_errors(at)
    grids = _grids(at)
    assert set(grids) == set(KINDS)
    for g in grids.values():
        assert g.shape == (2, 4) and np.isfinite(g).all() and ((g >= 0) & (g <= 1)).all()
    # the same numbers as the core's head finder
    ck = load_checkpoint(trained_checkpoint)
    items = anaphora_probe("test", n=40)
    scores = H.score_anaphora(ck.model, ck.tokenizer, items)
    for kind, g in grids.items():
        assert np.allclose(g, scores[kind].accuracy.numpy(), atol=1e-4)
    kind, layer, head, acc, _ = H.best_head(scores)
    assert at.success and f"L{layer} H{head}" in at.success[0].value
    # the best head's hits split into article and noun, counted by the core scorer
    art = round(float(scores[kind].on_article[layer, head]) * 40)
    noun = round(float(scores[kind].on_noun[layer, head]) * 40)
    split = next(c.value for c in at.caption if ("on the article" in c.value or "落在冠词" in c.value))
    want = (f"on the article {art} times" if lang == "en" else f"落在冠词上 {art} 次",
            f"on the noun {noun} times" if lang == "en" else f"落在名词上 {noun} 次")
    assert all(w in split for w in want), split
    # no widget falls back to Streamlit's English placeholder on the Chinese page
    assert at.multiselect(key="heads_ablate").proto.placeholder == (
        "Choose heads" if lang == "en" else "选择要关掉的头")
    base = baselines(items)
    metrics = [m.value for m in at.metric]
    assert [m.label for m in at.metric][:4] == [i18n.text(S, k, lang)
                                            for k in ("nearest_noun", "first_noun", "random_noun", "random_word")]
    assert metrics[:4] == [f"{base[k]:.0%}" for k in ("nearest_noun", "first_noun", "random_noun", "random_word")]
    # the link opens the best head on the Attention page
    link = at.get("page_link")[0].proto
    q = parse_qs(link.query_string)
    assert link.page == "attention"
    assert q["kind"] == [kind] and q["layer"] == [str(layer)] and q["head"] == [str(head)]
    assert q["text"] == [items[0].text]


def test_other_relation(monkeypatch, tmp_path, trained_dir):
    at = open_page(monkeypatch, trained_dir, tmp_path, "zh")
    at.selectbox(key="heads_relation").set_value("previous_token")
    rerun(at)
    at.slider(key="heads_rel_n").set_value(20)
    rerun(at)
    no_errors(at)
    grids = _grids(at)
    assert {"encoder_self", "decoder_self"} <= set(grids)
    assert all(np.isfinite(g).all() for g in grids.values())
    assert at.success  # a best head is named


def test_ablation_changes_output_and_accuracy(monkeypatch, tmp_path, trained_dir,
                                              trained_checkpoint):
    from transformer.probing.probe_items import anaphora_probe
    from transformer.core.checkpoint import load_checkpoint
    from transformer.core.names import ablate_map, parse_heads
    from transformer.probing.pronouns import pronoun_accuracy

    at = open_page(monkeypatch, trained_dir, tmp_path)
    at.slider(key="heads_n").set_value(20)
    rerun(at)
    at.slider(key="heads_acc_n").set_value(30)
    rerun(at)
    no_errors(at)
    before = at.code[0].value
    cross = [h for h in at.multiselect(key="heads_ablate").options if h.startswith("cross ")]
    assert len(cross) == 8
    at.multiselect(key="heads_ablate").set_value(cross)
    rerun(at)
    no_errors(at)
    after = at.code[1].value
    assert after != before  # without cross-attention the decoder cannot read the source
    assert at.warning  # "the output changed"
    ck = load_checkpoint(trained_checkpoint)
    items = anaphora_probe("test", n=30)
    want_on = pronoun_accuracy(ck.model, ck.tokenizer, items).accuracy
    want_off = pronoun_accuracy(ck.model, ck.tokenizer, items, ablate_map(parse_heads(cross))).accuracy
    assert [m.value for m in at.metric][-2:] == [f"{want_on:.0%}", f"{want_off:.0%}"]
    # clearing brings the page back to "no ablation"
    at.session_state["heads_ablate"] = []
    rerun(at)
    no_errors(at)
    assert len(at.code) == 1


def test_bad_inputs(monkeypatch, tmp_path, trained_dir):
    at = open_page(monkeypatch, trained_dir, tmp_path)
    at.slider(key="heads_n").set_value(20)
    rerun(at)
    at.text_input(key="heads_abl_text").set_value("  ")
    rerun(at)
    no_errors(at)
    assert S.EN["empty_sentence"] in [i.value for i in at.info]
    at.text_input(key="heads_abl_text").set_value("it " * 900)
    rerun(at)
    assert not at.exception
    at.radio(key="heads_probe").set_value("upload")
    rerun(at)
    no_errors(at)
    assert S.EN["upload_wait"] in [i.value for i in at.info]  # asks for a file


def test_a_students_sweeps_are_rate_limited_on_the_page(monkeypatch, tmp_path, trained_dir):
    """With a teacher token set, a student's second different sweep within the limit is refused
    on the Heads page with the wait (ui.serving.quota), and the grid is not recomputed; redrawing
    the same sweep is free."""
    from ui.serving import quota, roles

    monkeypatch.setenv(roles.TOKEN_ENV, "page-token-of-twenty-chars")
    monkeypatch.setenv("ATTENTION_LAB_RATE_HEADS_SWEEP", "1/60")
    quota.reset()
    try:
        at = open_page(monkeypatch, trained_dir, tmp_path)
        no_errors(at)
        assert _grids(at) and not at.warning
        rerun(at)  # the same sweep: free
        assert _grids(at) and not at.warning
        at.slider(key="heads_n").set_value(40)  # a different sweep
        rerun(at)
        assert not _grids(at)
        assert any("try again in" in w.value for w in at.warning), [w.value for w in at.warning]
    finally:
        quota.reset()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_sentence_by_sentence_table_of_the_chosen_head(monkeypatch, tmp_path, lang):
    """On the default model and its hand-written probe: the expander counts the best head's
    misses as the core does, lists every sentence with misses first, and follows the chosen head."""
    from pathlib import Path

    from transformer.probing import heads as H
    from transformer.probing.probe_items import CLASSROOM_PROBE, read_probe_file
    from transformer.core.checkpoint import load_checkpoint

    shipped = Path(__file__).resolve().parents[1] / "checkpoints"
    ck = load_checkpoint(shipped / "classroom-en-de")
    items = read_probe_file(CLASSROOM_PROBE)
    scores = H.score_anaphora(ck.model, ck.tokenizer, items)
    kind, layer, head = H.best_head(scores)[:3]
    monkeypatch.setenv("ATTENTION_LAB_DEFAULT", "classroom-en-de")  # the caption-probe model
    at = open_page(monkeypatch, shipped, tmp_path, lang)
    no_errors(at)
    assert at.session_state["heads_probe"] == "natural"
    want = H.head_choices(items, {k: v.tops for k, v in scores.items()}, kind, layer, head)
    miss = sum(not c.hit for c in want)
    label = i18n.text(S, "choices_title", lang)
    title = label.format(head=f"dec L{layer} H{head}", miss=miss, n=len(items))
    assert kind == "decoder_self" and title in [e.label for e in at.expander]
    df = next(d.value for d in at.dataframe if len(d.value) == len(items))
    marks = list(df.iloc[:, 0])
    assert marks == ["✗"] * miss + ["✓"] * (len(items) - miss)
    first_miss = min(c.item for c in want if not c.hit)
    assert df.iloc[0, 1].replace("[", "").replace("]", "") == items[first_miss].target
    # another head: the table follows it
    at.selectbox(key="heads_open_kind").set_value("encoder_self")
    rerun(at)
    no_errors(at)
    enc = H.head_choices(items, {k: v.tops for k, v in scores.items()}, "encoder_self",
                         at.session_state["heads_open_layer"], at.session_state["heads_open_head"])
    df = next(d.value for d in at.dataframe if len(d.value) == len(items))
    assert list(df.iloc[:, 0]).count("✗") == sum(not c.hit for c in enc)
    assert df.iloc[0, 1].replace("[", "").replace("]", "") in {it.text for it in items}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_head_atlas_labels_every_head(monkeypatch, tmp_path, lang):
    """The atlas section on a shipped model: one row per head of every kind, each with a label in
    the page's language and a score in [0, 1], the same as transformer.atlas computes."""
    from pathlib import Path

    from transformer.core.checkpoint import load_checkpoint
    from ui import atlas_view
    from ui.strings import atlas as AS

    shipped = Path(__file__).resolve().parents[1] / "checkpoints"
    at = open_page(monkeypatch, shipped, tmp_path, lang)  # the default, everyday-en-de
    at.toggle(key="heads_atlas_on").set_value(True)
    rerun(at)
    no_errors(at)
    ck = load_checkpoint(shipped / "everyday-en-de")
    cfg = ck.model_config
    n_heads = cfg.n_heads * (cfg.n_encoder_layers + 2 * cfg.n_decoder_layers)
    table = i18n.sentences(AS, lang)
    df = next(d.value for d in at.dataframe if table["col_label"] in d.value.columns)
    assert len(df) == n_heads
    labels = {v for k, v in table.items() if k.startswith("lab_")}
    assert set(df[table["col_label"]]) <= labels
    assert df[table["col_score"]].between(0, 1).all()
    # the same labels as the core computes on the same sentences
    res = atlas_view._roles.compute(ck, atlas_view.N_SENTENCES)
    assert list(df[table["col_label"]]) == [table[f"lab_{r.label}"] for r in res["roles"]]
    # the default model's featured head (encoder self L2 H0) comes out as a pronoun head
    featured = next(r for r in res["roles"] if (r.kind, r.layer, r.head) == ("encoder_self", 2, 0))
    assert featured.label == "pronoun" and featured.score >= 0.8
