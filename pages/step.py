"""Step by step: one query through one head, first as one short shaded table (open by default),
then in sections a reader opens on demand: the ten numbered steps with their vectors, the whole
head as matrices, the heads' concatenation and W_O, Add & Norm, the FFN and (decoder) the
next-token probabilities. Query parameters: ?kind=cross&layer=1&head=2&query=3&text=...&target=..."""
from ui.deeplink import ensure_app; ensure_app()  # a direct deep link runs app.py (ui/deeplink.py)
import math

import pandas as pd
import streamlit as st

from transformer.core.names import KINDS
from ui import i18n, inspect_cache, models
from ui.strings import step as strings
from viz import attention as figs
from viz import step as steps
from viz.tokens import escape_markdown as md
from viz.tokens import lesson_position

t = i18n.translator(strings)

st.title(t("title"))
st.caption(t("intro"))

ck = models.required(t("no_checkpoint"))
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
if st.session_state.get("step_query_for") != (ins.src_ids, ins.tgt_ids, kind):
    # a new sentence or kind: start on the pronoun's row (a link's ?query= wins once)
    if st.session_state.get("step_query_for") is not None or "step_query" not in st.session_state:
        q_ids = ins.src_ids if kind == "encoder_self" else ins.tgt_ids
        tok = ck.tokenizer
        groups = tok.words(q_ids)
        st.session_state["step_query"] = lesson_position(
            tok.word_strings(q_ids), groups, kind,
            [all(tok.is_special(q_ids[p]) for p in g) for g in groups])
    st.session_state["step_query_for"] = (ins.src_ids, ins.tgt_ids, kind)
inspect_cache.clamp_state("step_query", len(q_tokens))
layer = c2.selectbox(t("layer"), range(n_lay), key="step_layer")
head = c3.selectbox(t("head"), range(cfg.n_heads), key="step_head")
i = c4.selectbox(t("query"), range(len(q_tokens)), key="step_query", help=t("query_help"),
                 format_func=q_labels.__getitem__)
d_k = cfg.d_model // cfg.n_heads
st.info(t("sizes", d_model=cfg.d_model, h=cfg.n_heads, d_k=d_k, sqrt=math.sqrt(d_k)))
st.caption(t("sections_hint") + (" " + t("wide", d_k=d_k) if d_k > 12 else ""))

WEIGHTS = (steps.EXP, steps.WEIGHT)


def table(df: pd.DataFrame, key: str, modes="signed", per_column: bool = False) -> None:
    """Numbers to 4 decimals, shaded by value (`viz.step.shaded`), every header and row label
    whole (`viz.step.column_widths`); up to 40 rows without scrolling."""
    df, sums = steps.split_sum(df)  # no half-empty Σ row: it would show 'None'
    widths = steps.column_widths(df)
    st.dataframe(steps.shaded(df, modes, per_column=per_column), key=key, width="content",
                 height=int(38 + 35 * len(df)) if 10 < len(df) <= 40 else "auto",
                 column_config={c: st.column_config.Column(width=w) for c, w in widths.items()})
    if sums:
        st.caption(" · ".join(f"Σ {c} = {steps.cell_text(v)}" for c, v in sums.items()))


def modes_for(step: steps.StepTable):
    """Weights and exp shade 0..1; everything else by sign (one scale per table)."""
    if step.key in ("m_weights",):
        return "weight"
    cols = list(step.table.columns)
    w = [c for c in cols if c in WEIGHTS]
    return {"weight": w, "signed": [c for c in cols if c not in WEIGHTS and c != steps.MASK]}


def per_column(step: steps.StepTable) -> bool:
    """Narrow tables hold different quantities per column (q·k, ÷√d_k, ...): one scale each."""
    return step.key in ("dot", "scale", "mask", "exp", "softmax")


n = 0


def numbered(step: steps.StepTable, key: str) -> None:
    global n
    n += 1
    st.markdown(f"**{t('step_n', n=n)} · {t(step.key)}**")
    st.caption(t(step.key + "_help", **{k: v for k, v in step.args.items()
                                         if not isinstance(v, pd.DataFrame)}))
    table(step.table, key, modes_for(step), per_column(step))


# -- part 1: one query, short ------------------------------------------------------------------
with st.expander(t("part_query", query=md(q_labels[i]), head=head), expanded=True):
    s = steps.query_summary(ins, kind, layer, head, i)
    st.markdown(f"**{t('summary', query=md(q_labels[i]))}**")
    st.caption(t("summary_help", **{k: v for k, v in s.args.items()
                                    if not isinstance(v, pd.DataFrame)}))
    table(s.table, "step_summary", {"signed": [steps.DOT, steps.SCALED], "weight": list(WEIGHTS)},
          per_column=True)
    st.caption(t("z_row", max_diff=s.args["max_diff"]))
    table(s.args["z"], "step_summary_z")

# -- part 1 in full: the ten numbered steps ----------------------------------------------------
with st.expander(t("part_steps")):
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
with st.expander(t("part_matrix")):
    for s in steps.matrix_steps(ins, kind, layer, head):
        numbered(s, f"step_m_{s.key}")
        if s.key == "m_weights":
            st.plotly_chart(figs.heatmap(s.table.to_numpy(), q_tokens, k_tokens,
                                         title=t("heatmap_weights")), key="step_heat")

# -- part 3: concat and W_O --------------------------------------------------------------------
with st.expander(t("part_combine")):
    for s in steps.combine_steps(ins, kind, layer):
        numbered(s, f"step_c_{s.key}")

# -- part 4: add & norm ------------------------------------------------------------------------
with st.expander(t("part_norm")):
    s = steps.add_norm(ins, kind, layer, norm_first=ck.model_config.norm_first)
    numbered(s, "step_norm")
    if s.args["pre_ln"]:
        st.caption(t("add_norm_pre"))

# -- part 5: FFN -------------------------------------------------------------------------------
with st.expander(t("part_ffn", query=md(q_labels[i]))):
    s = steps.ffn(ins, kind, layer, i, activation=getattr(cfg, "activation", "relu"))
    numbered(s, "step_ffn")
    st.caption(t("ffn_out"))
    table(s.args["out"], "step_ffn_out")

# -- part 6: next-token probabilities (decoder) ------------------------------------------------
with st.expander(t("part_logits", query=md(q_labels[i]))):
    if kind == "encoder_self":
        st.caption(t("encoder_only"))
    else:
        top = steps.top_k(ins, ck.tokenizer.display, i, k=10)
        n += 1
        st.markdown(f"**{t('step_n', n=n)} · {t('topk', k=len(top))}**")
        st.caption(t("topk_help"))
        st.plotly_chart(steps.top_k_figure(top, t("topk_chart", query=q_labels[i]),
                                           t("probability")), key="step_topk")
        table(top.rename(columns={"token": t("col_token"), "logit": t("col_logit")}),
              "step_topk_table", {"weight": ["p"], "signed": [t("col_logit")]})
