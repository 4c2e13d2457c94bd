"""The Heads page's alignment leaderboard and Q-K map, and the Attention page's logit lens and
cross-attention "writes" rows, through AppTest in English and Chinese (issue 52)."""
from __future__ import annotations

import pytest

from app_helpers import figure, no_errors, open_pinned, rerun
from helpers import plotly_array, reference
from transformer.core.checkpoint import load_checkpoint
from transformer.probing import align as AL
from ui import i18n
from ui.strings import align as SA
from ui.strings import qk as SQ


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_leaderboard_and_map(monkeypatch, tmp_path, ck_dir, small_checkpoint, lang):
    at = open_pinned(monkeypatch, ck_dir, tmp_path, "pages/heads.py", lang=lang)
    no_errors(at)
    assert not any("heads_align_grid" in el.proto.id for el in at.get("plotly_chart"))  # off
    at.toggle(key="heads_align_on").set_value(True)
    rerun(at)
    no_errors(at)
    ck = load_checkpoint(small_checkpoint)
    want = AL.alignment(ck.model, ck.tokenizer, AL.read_gold(AL.GOLD_FILE))
    cfg = ck.model.cfg
    for mode, key in AL.MODE_KEY.items():
        z = plotly_array(figure(at, f"heads_align_grid_{mode}")["data"][0]["z"])
        assert z.shape == (cfg.n_decoder_layers, cfg.n_heads)
        for h in want["heads"]:
            assert z[h["layer"], h["head"]] == pytest.approx(h[key], abs=1e-9)
    best = want["best"]
    assert f"cross L{best['layer']} H{best['head']}" in at.success[0].value
    assert f"{want['diagonal']:.3f}" in at.success[0].value
    sent = figure(at, "heads_align_sentence_map")
    assert len(sent["data"]) == 4  # the weights, hits, misses, extra links
    assert i18n.text(SA, "definitions", lang) in [e.label for e in at.expander]

    at.toggle(key="heads_qk_on").set_value(True)
    rerun(at)
    no_errors(at)
    fig = figure(at, "heads_qk_map")
    assert [d["name"] for d in fig["data"]] == [i18n.text(SQ, "query", lang),
                                                i18n.text(SQ, "key", lang)]
    n = sum(len(d["x"]) if isinstance(d["x"], list) else len(plotly_array(d["x"]))
            for d in fig["data"])
    assert n > 400
    rho_line = next(m.value for m in at.markdown if "q · k" in m.value)
    assert any(ch.isdigit() for ch in rho_line)


def test_uploaded_gold_file_and_a_bad_one(monkeypatch, tmp_path, ck_dir, small_checkpoint):
    from ui import align_view

    at = open_pinned(monkeypatch, ck_dir, tmp_path, "pages/heads.py")
    at.toggle(key="heads_align_on").set_value(True)
    rerun(at)
    at.radio(key="heads_align_gold").set_value("upload")
    rerun(at)
    no_errors(at)
    assert at.info  # waits for the file
    ck = load_checkpoint(small_checkpoint)
    good = b"A dog runs .\tEin Hund rennt .\t0-0 1-1 2-2 3-3\n"
    res = align_view.leaderboard.compute(ck, "upload", good)
    assert res["sentences"] == 1 and res["texts"] == ["A dog runs ."]
    with pytest.raises(AL.GoldError, match="line 2"):
        align_view.leaderboard.compute(ck, "upload", good + b"A dog .\tEin Hund .\t0-0 9-9\n")


def test_logit_lens_and_writes_rows(monkeypatch, tmp_path, ck_dir, small_checkpoint):
    at = open_pinned(monkeypatch, ck_dir, tmp_path, "pages/attention.py", lang="zh",
                     query={"kind": "cross", "layer": "0", "head": "0"})
    no_errors(at)
    at.toggle(key="attention_lens_on").set_value(True)
    rerun(at)
    no_errors(at)
    df = next(d.value for d in at.dataframe if "第 0 层" in list(d.value.index))
    assert len(df) == 2  # a row per decoder layer
    # the table is the core's logit lens of the page's sentence (its last row: the output)
    from transformer.probing.inspect import inspect_text
    from transformer.probing.logit_lens import logit_lens
    from ui import output_decoding

    ck = load_checkpoint(small_checkpoint)
    text = at.text_input(key="attention_text").value
    ins = reference(small_checkpoint, text, beam=output_decoding.beam_for("beam", text))
    want = logit_lens(ck.model, ck.tokenizer, ins, k=1)
    assert [c.split(" ")[0] for c in df.iloc[-1]] == [p[0]["piece"] for p in want[-1]]
    greedy = inspect_text(ck.model, ck.tokenizer, text)  # greedy writes each last-layer top piece
    assert [p[0]["id"] for p in logit_lens(ck.model, ck.tokenizer, greedy, k=1)[-1]][:-1] == \
        greedy.tgt_ids[1:]

    at.toggle(key="attention_merge").set_value(False)
    rerun(at)
    no_errors(at)
    before = figure(at, "attention_heatmap")["data"][0]["y"]
    at.toggle(key="attention_cross_writes").set_value(True)
    rerun(at)
    no_errors(at)
    after = figure(at, "attention_heatmap")["data"][0]["y"]
    name = lambda label: label.split(" ", 1)[1]  # noqa: E731  (labels are "row token")
    assert [name(y) for y in after][:-1] == [name(y) for y in before][1:]
    assert name(after[-1]) == "&lt;/s&gt;" and name(before[0]) == "&lt;s&gt;"  # escaped for plotly
