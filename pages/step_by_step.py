"""Step by step: one query through one head as numbered tables, then the whole head, the heads'
concatenation and W_O, Add & Norm, the FFN and (decoder) the next-token probabilities.
Query parameters: ?kind=cross&layer=1&head=2&query=3&text=...&target=..."""
import math

import pandas as pd
import streamlit as st

from transformer.inspect import KINDS
from ui import i18n, inspect_cache, models
from ui.strings import step as strings
from viz import attention as figs
from viz import step as steps
from viz.tokens import escape_markdown as md

t = i18n.translator(strings)

st.title(t("title"))
st.caption(t("intro"))

ck = models.current()
if ck is None:
    st.info(t("no_checkpoint"))
    st.stop()
cfg = ck.model_config

inspect_cache.apply_query_params("step")
if st.session_state.get("step_kind") not in KINDS:
    st.session_state["step_kind"] = "encoder_self"
ins = inspect_cache.sentence_inputs("step", t, ck)
st.caption(t("output", text=md(ins.output)))

kind_names = {k: t(f"kind_{k}") for k in KINDS}  # format_funcs read no state (AppTest calls them)
kind = st.radio(t("kind"), KINDS, key="step_kind", format_func=kind_names.get, horizontal=True)
c2, c3, c4 = st.columns([1, 1, 2])
n_lay = steps.n_layers(ins, kind)
q_tokens, k_tokens = ins.queries_keys(kind)
q_labels = steps.labels(q_tokens)
inspect_cache.clamp_state("step_layer", n_lay)
inspect_cache.clamp_state("step_head", cfg.n_heads)
if "step_query" not in st.session_state and "it" in q_tokens:  # the anaphora lesson's pronoun
    st.session_state["step_query"] = q_tokens.index("it")
inspect_cache.clamp_state("step_query", len(q_tokens))
layer = c2.selectbox(t("layer"), range(n_lay), key="step_layer")
head = c3.selectbox(t("head"), range(cfg.n_heads), key="step_head")
i = c4.selectbox(t("query"), range(len(q_tokens)), key="step_query", help=t("query_help"),
                 format_func=q_labels.__getitem__)
d_k = cfg.d_model // cfg.n_heads
st.info(t("sizes", d_model=cfg.d_model, h=cfg.n_heads, d_k=d_k, sqrt=math.sqrt(d_k)))
if d_k > 12:
    st.caption(t("wide", d_k=d_k))


def table(df: pd.DataFrame, key: str) -> None:
    """A wide table scrolls sideways, a narrow one takes its own width; up to 40 rows are shown
    without scrolling; every number to 4 decimals."""
    st.dataframe(df, key=key, width="content" if len(df.columns) <= 6 else "stretch",
                 height=int(38 + 35 * len(df)) if 10 < len(df) <= 40 else "auto",
                 column_config={str(c): st.column_config.NumberColumn(format="%.4f")
                                for c in df.columns if pd.api.types.is_float_dtype(df[c])})


n = 0


def numbered(step: steps.Step, key: str) -> None:
    global n
    n += 1
    st.markdown(f"**{t('step_n', n=n)} · {t(step.key)}**")
    st.caption(t(step.key + "_help", **{k: v for k, v in step.args.items()
                                         if not isinstance(v, pd.DataFrame)}))
    table(step.table, key)


# -- part 1: one query -------------------------------------------------------------------------
st.header(t("part_query", query=md(q_labels[i]), head=head))
NARROW = ("dot", "scale", "mask", "exp", "softmax")  # one or a few columns: two per row
cols = None
for s in steps.query_steps(ins, kind, layer, head, i):
    if s.key in NARROW:
        if cols is None or s.key in ("dot", "mask", "softmax"):
            cols = iter(st.columns(2))
        with next(cols):
            numbered(s, f"step_q_{s.key}")
    else:
        numbered(s, f"step_q_{s.key}")

# -- part 2: the whole head --------------------------------------------------------------------
st.header(t("part_matrix"))
for s in steps.matrix_steps(ins, kind, layer, head):
    numbered(s, f"step_m_{s.key}")
    if s.key == "m_weights":
        st.plotly_chart(figs.heatmap(s.table.to_numpy(), q_tokens, k_tokens,
                                     title=t("heatmap_weights")), key="step_heat")

# -- part 3: concat and W_O --------------------------------------------------------------------
st.header(t("part_combine"))
for s in steps.combine_steps(ins, kind, layer):
    numbered(s, f"step_c_{s.key}")

# -- part 4: add & norm ------------------------------------------------------------------------
st.header(t("part_norm"))
s = steps.add_norm(ins, kind, layer)
numbered(s, "step_norm")
if s.args["pre_ln"]:
    st.caption(t("add_norm_pre"))

# -- part 5: FFN -------------------------------------------------------------------------------
st.header(t("part_ffn", query=md(q_labels[i])))
s = steps.ffn(ins, kind, layer, i)
numbered(s, "step_ffn")
st.caption(t("ffn_out"))
table(s.args["out"], "step_ffn_out")

# -- part 6: next-token probabilities (decoder) ------------------------------------------------
st.header(t("part_logits", query=md(q_labels[i])))
if kind == "encoder_self":
    st.caption(t("encoder_only"))
else:
    top = steps.top_k(ins, ck.tokenizer.display, i, k=10)
    n += 1
    st.markdown(f"**{t('step_n', n=n)} · {t('topk', k=len(top))}**")
    st.caption(t("topk_help"))
    st.plotly_chart(steps.top_k_figure(top, t("topk_chart", query=q_labels[i]),
                                       t("probability")), key="step_topk")
    table(top, "step_topk_table")
