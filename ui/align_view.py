"""The alignment leaderboard section of the Heads page: every cross-attention head's alignment
error rate against hand-aligned gold links, in both readings ("writes", "reads"), as layer x head
grids beside the diagonal baseline and the layers' head averages, and one head's alignment of one
sentence drawn over the gold links (transformer/probing/align.py; figures in viz/align.py).
Computed once per checkpoint and gold file in the one cache. Off until asked. Keys prefixed
`heads_align`."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from transformer.core.names import Head
from transformer.probing import align as AL
from ui import i18n, models
from ui.inspect_cache import per_checkpoint
from ui.serving import server_guard
from ui.strings import align as strings
from viz import align as VA
from viz.tokens import escape_markdown

t = i18n.translator(strings)
MAX_BYTES = 1_000_000


def _pairs(source: str, data: bytes | None) -> list:
    if source == "upload":
        return AL.parse_gold((data or b"").decode("utf-8", errors="replace"), "file")
    return AL.read_gold(AL.GOLD_FILE)


@per_checkpoint
def leaderboard(ck, source: str, data: bytes | None) -> dict:
    """transformer.probing.align.alignment on the shipped gold set or an uploaded file, with the
    file's sentences (for the sentence picker). GoldError for a bad file."""
    pairs = _pairs(source, data)
    res = models.run_inference(AL.alignment, ck.model, ck.tokenizer, pairs)
    return res | {"texts": [" ".join(p.src_words) for p in pairs]}


@per_checkpoint
def sentence(ck, source: str, data: bytes | None, index: int, layer: int, head: int,
             mode: str) -> dict:
    pair = _pairs(source, data)[index]
    return models.run_inference(AL.sentence_alignment, ck.model, ck.tokenizer, pair, layer, head,
                                mode)


def _source() -> tuple[str, bytes | None] | None:
    n = len(AL.read_gold(AL.GOLD_FILE)) if AL.GOLD_FILE.is_file() else 0
    options = (["shipped"] if n else []) + ["upload"]
    source = st.radio(t("gold"), options, horizontal=True, key="heads_align_gold",
                      format_func=lambda s, t=i18n.translator(strings, frozen=True): t(f"gold_{s}", n=n) if s == "shipped" else t("gold_upload"))
    if source != "upload":
        return source, None
    up = st.file_uploader(t("upload"), type=["tsv", "txt"], key="heads_align_upload",
                          max_upload_size=server_guard.uploader_limit_mb("heads_align_upload"))
    if up is None:
        st.info(t("upload_wait"))
        return None
    data = up.getvalue()
    if len(data) > MAX_BYTES:
        st.error(t("too_big", kb=MAX_BYTES // 1000))
        return None
    return source, data


def section(path, ck) -> None:
    st.subheader(t("title"))
    if not st.toggle(t("run"), key="heads_align_on", help=t("run_help")):
        return
    cfg = ck.model_config
    if cfg.n_decoder_layers == 0:
        st.caption(t("no_cross"))
        return
    chosen = _source()
    if chosen is None:
        return
    source, data = chosen
    try:
        res = leaderboard(path, source, data)
    except (AL.GoldError, UnicodeDecodeError) as e:
        st.error(t("upload_bad", reason=escape_markdown(str(e).splitlines()[0])))
        return
    mode_name = {m: t(f"mode_{m}") for m in AL.MODES}
    st.caption(t("intro", n=res["sentences"]))
    best = res["best"]
    best_label = Head("cross", best["layer"], best["head"]).label
    st.success(t("best", head=best_label, mode=mode_name[best["mode"]],
                 aer=best[AL.MODE_KEY[best["mode"]]], diag=res["diagonal"]))
    st.markdown(t("diagonal", aer=res["diagonal"]))
    n_l, n_h = cfg.n_decoder_layers, cfg.n_heads
    cols = st.columns(2)
    for col, mode in zip(cols, AL.MODES):
        grid = VA.aer_grid(res["heads"], AL.MODE_KEY[mode], n_l, n_h)
        words = {"title": t("grid_title", mode=mode_name[mode]), "layer": t("layer"),
                 "head": t("head")}
        mark = (best["layer"], best["head"]) if best["mode"] == mode else None
        col.plotly_chart(VA.grid_figure(grid, words, mark), key=f"heads_align_grid_{mode}")
    st.caption(t("layers_table"))
    rows = []
    for lay in res["layers"]:
        own = [h for h in res["heads"] if h["layer"] == lay["layer"]]
        b = min(own, key=lambda h: min(h["aer"], h["aer_shifted"]))
        rows.append({t("col_layer"): lay["layer"], t("col_writes"): round(lay["aer"], 3),
                     t("col_reads"): round(lay["aer_shifted"], 3),
                     t("col_best"): Head("cross", b["layer"], b["head"]).label})
    st.dataframe(pd.DataFrame(rows), hide_index=True, key="heads_align_layers")
    _drawing(path, source, data, res, best, n_l, n_h, mode_name)
    with st.expander(t("definitions")):
        st.markdown(t("def_text"))


def _drawing(path, source, data, res, best, n_l, n_h, mode_name) -> None:
    labels = [Head("cross", l, h).label for l in range(n_l) for h in range(n_h)]
    if st.session_state.get("heads_align_head") not in labels:
        st.session_state["heads_align_head"] = Head("cross", best["layer"], best["head"]).label
    if st.session_state.get("heads_align_mode") not in AL.MODES:
        st.session_state["heads_align_mode"] = best["mode"]
    c1, c2 = st.columns(2)
    label = c1.selectbox(t("show_head"), labels, key="heads_align_head")
    mode = c2.radio(t("show_mode"), AL.MODES, key="heads_align_mode", horizontal=True,
                    format_func=mode_name.get)
    texts = res["texts"]
    index = st.selectbox(t("sentence"), range(len(texts)), key="heads_align_sentence",
                         format_func=lambda i: texts[i])
    head = Head.parse(label, form="label")
    sent = sentence(path, source, data, int(index or 0), head.layer, head.head, mode)
    words = {k: t(k) for k in ("hit", "miss", "extra", "weight", "english", "german")}
    words["title"] = t("draw_title", head=label, mode=mode_name[mode])
    st.plotly_chart(VA.alignment_figure(sent, words), key="heads_align_sentence_map")
    st.caption(t("counts", hits=len(sent["hits"]), misses=len(sent["misses"]),
                 extra=len(sent["extra"])))
