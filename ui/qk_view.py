"""The Q-K map section of the Heads page: one head's queries and keys from a few hundred sentences
in one 2-D map (transformer/probing/qk.py; figure in viz/qk.py), with how well the map's distances
track the dot product. Computed once per checkpoint, head and sentence file in the one cache. Off
until asked. Keys prefixed `heads_qk`."""
from __future__ import annotations

import streamlit as st

from transformer.core.names import Head, model_heads
from transformer.probing import qk as QK
from ui import i18n, models
from ui.inspect_cache import per_checkpoint
from ui.serving import server_guard
from ui.strings import qk as strings
from viz import qk as VQ
from viz.tokens import escape_markdown

t = i18n.translator(strings)
MAX_BYTES = 1_000_000


def _sentences(ck, data: bytes | None) -> tuple[str, list]:
    if data is not None:
        return "file", QK.parse_sentences(data.decode("utf-8", errors="replace"), "file")
    return QK.default_sentences((ck.train_config or {}).get("task"), QK.DEFAULT_N)


@per_checkpoint
def qk_map(ck, head: str, data: bytes | None) -> dict:
    """The map's JSON (transformer.probing.qk.qk_map) for the head 'kind:layer:head' on the
    task's held-out sentences (data None) or an uploaded file. ProbeError for a bad file."""
    source, sents = _sentences(ck, data)
    return models.run_inference(QK.qk_map, ck.model, ck.tokenizer, Head.parse(head, form="cli"),
                                sents, source)


def _default_head(ck, heads: list[Head]) -> Head:
    featured = (ck.history or {}).get("featured_head") if isinstance(ck.history, dict) else None
    try:
        h = Head.from_dict(featured)
        if h in heads:
            return h
    except ValueError:
        pass
    return heads[0]


def section(path, ck) -> None:
    st.subheader(t("title"))
    if not st.toggle(t("run"), key="heads_qk_on", help=t("run_help")):
        return
    heads = model_heads(ck.model_config)
    labels = [h.label for h in heads]
    if st.session_state.get("heads_qk_head") not in labels:
        st.session_state["heads_qk_head"] = _default_head(ck, heads).label
    label = st.selectbox(t("head"), labels, key="heads_qk_head")
    task = (ck.train_config or {}).get("task")
    what = QK.DEFAULT_TASK.get(task or "", "classroom_pronouns")
    source = st.radio(t("source"), ["heldout", "upload"], horizontal=True, key="heads_qk_source",
                      format_func=lambda s: (t("source_heldout", n=QK.DEFAULT_N, what=what)
                                             if s == "heldout" else t("source_upload")))
    data = None
    if source == "upload":
        up = st.file_uploader(t("upload"), type=["txt", "tsv", "jsonl"], key="heads_qk_upload",
                              max_upload_size=server_guard.uploader_limit_mb("heads_qk_upload"))
        if up is None:
            st.info(t("upload_wait"))
            return
        data = up.getvalue()
        if len(data) > MAX_BYTES:
            st.error(t("too_big", kb=MAX_BYTES // 1000))
            return
    try:
        res = qk_map(path, Head.parse(label, form="label").cli, data)
    except ValueError as e:  # ProbeError, or a head the model lacks
        st.error(t("upload_bad" if data is not None else "bad_head",
                   reason=escape_markdown(str(e).splitlines()[0])))
        return
    st.caption(t("intro", n=len(res["sentences"])))
    words = {k: t(k) for k in ("query", "key", "x", "y")}
    st.plotly_chart(VQ.map_figure(res, words), key="heads_qk_map")
    rho = res["distance_dot_spearman"]
    st.markdown(t("spearman", pairs=res["pairs"], rho=f"{rho:.2f}") if rho is not None
                else t("spearman_none"))
