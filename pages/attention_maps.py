"""Attention: a sentence's weights in every layer and head, one head enlarged, the head view.
Query parameters: ?kind=cross&layer=1&head=2&text=...&target=... open a given head."""
import json

import numpy as np
import pandas as pd
import streamlit as st

from transformer.inspect import KINDS, to_json
from ui import i18n, inspect_cache, models
from ui.strings import attention as strings
from viz import attention as figs
from viz import tokens as tv
from viz.step import n_layers

t = i18n.translator(strings)

st.title(t("title"))
st.caption(t("intro"))

ck = models.current()
if ck is None:
    st.info(t("no_checkpoint"))
    st.stop()
cfg, tok = ck.model_config, ck.tokenizer

inspect_cache.apply_query_params("att")
featured = inspect_cache.apply_featured_head("att", models.current_path(), ck.history)
if st.session_state.get("att_kind") not in KINDS:
    st.session_state["att_kind"] = "encoder_self"
ins = inspect_cache.sentence_inputs("att", t, ck)

# -- output ------------------------------------------------------------------------------------
st.subheader(t("output"))
st.caption(t("output_forced") if ins.teacher_forced else t("output_greedy"))
st.code(ins.output or t("output_empty"), language=None, wrap_lines=True)
st.caption(t("tokens", n=len(ins.src_ids), m=len(ins.tgt_ids)))

# -- controls ----------------------------------------------------------------------------------
kind_names = {k: t(f"kind_{k}") for k in KINDS}  # format_funcs read no state (AppTest calls them)
kind = st.radio(t("kind"), KINDS, key="att_kind", horizontal=True, help=t("kind_help"),
                format_func=kind_names.get)
c1, c2 = st.columns(2)
merge = c1.toggle(t("merge"), key="att_merge", help=t("merge_help"))
hide = c2.toggle(t("hide"), key="att_hide", help=t("hide_help"))

n_lay, n_heads = n_layers(ins, kind), cfg.n_heads
stack = np.stack([ins.weights(kind, layer).numpy() for layer in range(n_lay)])  # (L,H,Q,K)
q_ids, k_ids = ((ins.src_ids, ins.src_ids) if kind == "encoder_self" else
                (ins.tgt_ids, ins.tgt_ids) if kind == "decoder_self" else (ins.tgt_ids, ins.src_ids))
q_tokens, k_tokens = ins.queries_keys(kind)
v = tv.view(stack, q_tokens, k_tokens, merge=merge, hide=hide,
            q_groups=tok.words(q_ids) if merge else None,
            k_groups=tok.words(k_ids) if merge else None,
            q_words=tok.word_strings(q_ids) if merge else None,
            k_words=tok.word_strings(k_ids) if merge else None,
            q_special=[tok.is_special(i) for i in q_ids],
            k_special=[tok.is_special(i) for i in k_ids])
if merge:
    st.caption(t("merge_on"))
if hide:
    st.caption(t("hide_on"))

# -- model view --------------------------------------------------------------------------------
st.subheader(t("model_view"))
st.caption(t("model_view_help"))
if v.matrix.shape[-1] and v.matrix.shape[-2]:
    st.plotly_chart(figs.model_view(
        v.matrix, v.q_labels, v.k_labels,
        row_titles=[t("layer_n", n=layer) for layer in range(n_lay)],
        col_titles=[t("head_n", n=h) for h in range(n_heads)],
        cell_names=[[t("cell", l=layer, h=h) for h in range(n_heads)] for layer in range(n_lay)]),
        key="att_model_view")

# -- one head enlarged -------------------------------------------------------------------------
st.subheader(t("enlarged"))
inspect_cache.clamp_state("att_layer", n_lay)
inspect_cache.clamp_state("att_head", n_heads)
c1, c2, c3 = st.columns([1, 1, 2])
layer = c1.selectbox(t("layer"), range(n_lay), key="att_layer")
head = c2.selectbox(t("head"), range(n_heads), key="att_head")
if featured and (kind, layer, head) == (featured["kind"], featured["layer"], featured["head"]):
    st.success(featured.get(i18n.lang()) or featured.get("en", ""), icon="🎯")
show_avg = c3.checkbox(t("average"), key="att_avg", help=t("average_help"))
m = v.matrix[layer, head]
if m.size:
    st.plotly_chart(figs.heatmap(m, v.q_labels, v.k_labels,
                                 title=t("heat_title", kind=t(f"kind_{kind}"), l=layer, h=head),
                                 x_title=t("keys"), y_title=t("queries")), key="att_heatmap")
    sums = m.sum(-1)
    empty_rows = int((sums == 0).sum())
    dev = float(np.abs(sums[sums > 0] - 1).max()) if (sums > 0).any() else 0.0
    st.caption(t("row_check", dev=dev) + (" " + t("row_check_masked", n=empty_rows)
                                          if empty_rows else ""))
if show_avg and m.size:
    st.plotly_chart(figs.heatmap(figs.head_average(v.matrix[layer]), v.q_labels, v.k_labels,
                                 title=t("avg_title", n=n_heads, l=layer),
                                 x_title=t("keys"), y_title=t("queries")), key="att_avg_heatmap")

# -- head view ---------------------------------------------------------------------------------
st.subheader(t("head_view"))
st.caption(t("head_view_help"))
options = [-1] + list(range(len(v.q_labels)))
pill_names = {-1: t("all_tokens"), **{i: tv.escape_markdown(q) for i, q in enumerate(v.q_labels)}}
choice = st.pills(t("choose_token"), options, key=f"att_hv_{kind}_{merge}_{hide}_{len(options)}",
                  format_func=pill_names.get, default=-1)
if m.size:
    st.plotly_chart(figs.head_view(
        v.matrix[layer], v.q_labels, v.k_labels,
        head_names=[t("head_n", n=h) for h in range(n_heads)],
        selected=None if choice in (None, -1) else choice,
        left_title=t("left_col"), right_title=t("right_col")), key="att_head_view")
    st.caption(t("head_view_layer", l=layer))

# -- downloads ---------------------------------------------------------------------------------
st.subheader(t("downloads"))
c1, c2 = st.columns(2)
frame = pd.DataFrame(m, index=[f"{i}: {q}" for i, q in enumerate(v.q_labels)],
                     columns=[f"{j}: {k}" for j, k in enumerate(v.k_labels)])
c1.download_button(t("csv"), frame.to_csv().encode("utf-8"), help=t("csv_help"),
                   file_name=f"attention_{kind}_L{layer}_H{head}.csv", mime="text/csv",
                   key="att_dl_csv")
c2.download_button(t("json"), lambda: json.dumps(
    {"checkpoint": str(ck.path), "d_model": cfg.d_model, "n_heads": cfg.n_heads,
     **to_json(ins)}, ensure_ascii=False), help=t("json_help"),
    file_name="attention_trace.json", mime="application/json", key="att_dl_json")
st.caption(t("png_hint"))
