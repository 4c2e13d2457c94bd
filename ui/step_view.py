"""The Step-by-step page's sections (pages/step.py is the layout): the sentence and where a link
opens (`open_view`), the kind, layer, head and query (`choice`), then the parts: one query, short
(`part_query`), the ten numbered steps (`part_steps`), the whole head (`part_matrix`), concat and
W_O (`part_combine`), Add & Norm (`part_norm`), the FFN (`part_ffn`) and the next-token
probabilities (`part_logits`). Tables in viz/step.py. Widget keys are prefixed `step_`."""
from __future__ import annotations

import math
from typing import NamedTuple

import pandas as pd
import streamlit as st

from transformer.core.names import KINDS
from ui import choices
from ui import i18n, output_decoding, page_kit
from ui.strings import step as strings
from viz import attention as figs
from viz import step as steps
from viz.tokens import escape_markdown as md
from viz.tokens import lesson_position

t = i18n.translator(strings)
WEIGHTS = (steps.EXP, steps.WEIGHT)
FFN_UPRIGHT = True  # the FFN one vector a column (`numbered`); bench/step_page.py times False too


class Choice(NamedTuple):
    kind: str
    layer: int
    head: int
    i: int  # the query's position
    q_tokens: list
    k_tokens: list
    q_labels: list


class Numbering:
    """The steps' numbers, counted through the page's parts in one run."""

    def __init__(self) -> None:
        self.n = 0

    def next(self) -> int:
        self.n += 1
        return self.n

    def skip(self, n: int) -> None:
        """A closed part's N steps: counted, not drawn."""
        self.n += n


def open_view(ck):
    """A link's view, the sentence boxes, the trace and its output."""
    page_kit.apply_query_params("step")
    if st.session_state.get("step_kind") not in KINDS:
        st.session_state["step_kind"] = "encoder_self"
    ins = page_kit.sentence_inputs("step", t, ck)
    made = output_decoding.caption(ins, "step")
    if made:
        st.caption(made)
    st.caption(t("output", text=md(ins.output)))
    return ins


def choice(ins, ck) -> Choice:
    """The kind, layer, head and query (a new sentence or kind starts on the pronoun's row), and
    the head's sizes."""
    cfg = ck.model_config
    kind_names = {k: t(f"kind_{k}") for k in KINDS}  # format_funcs read no state (AppTest calls them)
    choices.keep("step_kind", "encoder_self", KINDS)
    kind = st.radio(t("kind"), KINDS, key="step_kind", format_func=kind_names.get, horizontal=True)
    c2, c3, c4 = st.columns([1, 1, 2])
    n_lay = steps.n_layers(ins, kind)
    q_tokens, k_tokens = ins.queries_keys(kind)
    q_labels = steps.labels(q_tokens)
    page_kit.clamp_state("step_layer", n_lay)
    page_kit.clamp_state("step_head", cfg.n_heads)
    if st.session_state.get("step_query_for") != (ins.src_ids, ins.tgt_ids, kind):
        # a new sentence or kind: start on the pronoun's row (a link's ?query= wins once)
        if st.session_state.get("step_query_for") is not None or "step_query" not in st.session_state:
            q_ids = ins.query_key_ids(kind)[0]
            tok = ck.tokenizer
            groups = tok.words(q_ids)
            st.session_state["step_query"] = lesson_position(  # kept below (clamp_state)
                tok.word_strings(q_ids), groups, kind,
                [all(tok.is_special(q_ids[p]) for p in g) for g in groups])
        st.session_state["step_query_for"] = (ins.src_ids, ins.tgt_ids, kind)
    page_kit.clamp_state("step_query", len(q_tokens))
    layer = c2.selectbox(t("layer"), range(n_lay), key="step_layer")
    head = c3.selectbox(t("head"), range(cfg.n_heads), key="step_head")
    choices.keep("step_query", 0, range(len(q_tokens)), labels=tuple(q_labels))
    i = c4.selectbox(t("query"), range(len(q_tokens)), key="step_query", help=t("query_help"),
                     format_func=q_labels.__getitem__)
    d_k = cfg.d_model // cfg.n_heads
    st.info(t("sizes", d_model=cfg.d_model, h=cfg.n_heads, d_k=d_k, sqrt=math.sqrt(d_k)))
    st.caption(t("sections_hint") + (" " + t("wide", d_k=d_k) if d_k > 12 else ""))
    return Choice(kind, layer, head, i, q_tokens, k_tokens, q_labels)


def table(df: pd.DataFrame, key: str, modes="signed", per_column: bool = False,
          focus: int | None = None) -> None:
    """Numbers to 4 decimals, shaded by value (`viz.step.shaded`), every header and row label
    whole (`viz.step.column_widths`); up to 40 rows without scrolling. A table whose rows are the
    queries (`focus`: the query followed) shows at most `viz.step.MAX_ROWS` rows around it, shaded
    on the whole table's scale, and says which."""
    df, sums = steps.split_sum(df)  # no half-empty Σ row: it would show 'None'
    start, stop = (0, len(df)) if focus is None else steps.row_window(len(df), focus)
    shown = df.iloc[start:stop]
    widths = steps.column_widths(shown)
    st.dataframe(steps.shaded(shown, modes, per_column=per_column, scale_from=df), key=key,
                 width="content", height=int(38 + 35 * len(shown)) if 10 < len(shown) <= 40 else "auto",
                 column_config={c: st.column_config.Column(width=w) for c, w in widths.items()})
    if len(shown) < len(df):
        st.caption(t("rows_window", first=start, last=stop - 1, n=len(df),
                     query=md(str(df.index[min(focus, len(df) - 1)]))))
    if sums:
        st.caption(" · ".join(f"Σ {c} = {steps.cell_text(v)}" for c, v in sums.items()))


def modes_for(step: steps.StepTable, df: pd.DataFrame | None = None):
    """Weights and exp shade 0..1; everything else by sign (one scale per table). `df`: the
    table as shown, when it is not step.table itself (turned upright)."""
    if step.key in ("m_weights",):
        return "weight"
    cols = list((step.table if df is None else df).columns)
    w = [c for c in cols if c in WEIGHTS]
    return {"weight": w, "signed": [c for c in cols if c not in WEIGHTS and c != steps.MASK]}


def per_column(step: steps.StepTable) -> bool:
    """Narrow tables hold different quantities per column (q·k, ÷√d_k, ...): one scale each."""
    return step.key in ("dot", "scale", "mask", "exp", "softmax")


def numbered(num: Numbering, step: steps.StepTable, key: str, focus: int | None = None,
             upright: bool = False) -> None:
    """A step's number, title, explanation and table. `upright`: a table of a few long vectors
    (the FFN's d_ff = 1,024 hidden units) is shown one vector a column: Streamlit draws a styled
    table column by column, and 1,024 columns cost about a second on every run of the page."""
    n = num.next()
    st.markdown(f"**{t('step_n', n=n)} · {t(step.key)}**")
    st.caption(t(step.key + "_help", **{k: v for k, v in step.args.items()
                                         if not isinstance(v, pd.DataFrame)}))
    df = step.table.T if upright else step.table
    table(df, key, modes_for(step, df), per_column(step), focus=focus)


def part_query(ins, c: Choice) -> None:
    # part 1: one query, short
    kind, layer, head, i, q_tokens, k_tokens, q_labels = c
    with st.expander(t("part_query", query=md(q_labels[i]), head=head), expanded=True):
        s = steps.query_summary(ins, kind, layer, head, i)
        st.markdown(f"**{t('summary', query=md(q_labels[i]))}**")
        st.caption(t("summary_help", **{k: v for k, v in s.args.items()
                                        if not isinstance(v, pd.DataFrame)}))
        table(s.table, "step_summary", {"signed": [steps.DOT, steps.SCALED], "weight": list(WEIGHTS)},
              per_column=True)
        st.caption(t("z_row", max_diff=s.args["max_diff"]))
        table(s.args["z"], "step_summary_z")


def opened(part: str, num: Numbering, n_steps: int, label: str | None = None):
    """The part's expander when it is open, else None with its N_STEPS numbers counted: a closed
    part is not drawn (its shaded tables were most of the page's time), and the steps after it
    keep their numbers."""
    box, is_open = page_kit.lazy_expander(label or t(f"part_{part}"), f"step_part_{part}")
    if not is_open:
        num.skip(n_steps)
        return None
    return box


def part_steps(ins, c: Choice, num: Numbering) -> None:
    # part 1 in full: the ten numbered steps
    kind, layer, head, i, q_tokens, k_tokens, q_labels = c
    every = steps.query_steps(ins, kind, layer, head, i)
    box = opened("steps", num, len(every))
    if box is None:
        return
    with box:
        NARROW = ("dot", "scale", "mask", "exp", "softmax")  # one or a few columns: two per row
        cols = None
        for s in every:
            if s.key in NARROW:
                if cols is None or s.key in ("dot", "mask", "softmax"):
                    cols = iter(st.columns(2))
                with next(cols):
                    numbered(num, s, f"step_q_{s.key}")
            else:
                numbered(num, s, f"step_q_{s.key}")


def part_matrix(ins, c: Choice, num: Numbering) -> None:
    # part 2: the whole head
    kind, layer, head, i, q_tokens, k_tokens, q_labels = c
    every = steps.matrix_steps(ins, kind, layer, head)
    box = opened("matrix", num, len(every))
    if box is None:
        return
    with box:
        for s in every:
            numbered(num, s, f"step_m_{s.key}", focus=i)
            if s.key == "m_weights":
                st.plotly_chart(figs.heatmap(s.table.to_numpy(), q_tokens, k_tokens,
                                             title=t("heatmap_weights")), key="step_heat")


def part_combine(ins, c: Choice, num: Numbering) -> None:
    # part 3: concat and W_O
    every = steps.combine_steps(ins, c.kind, c.layer)
    box = opened("combine", num, len(every))
    if box is not None:
        with box:
            for s in every:
                numbered(num, s, f"step_c_{s.key}", focus=c.i)


def part_norm(ins, c: Choice, num: Numbering, ck) -> None:
    # part 4: add & norm
    box = opened("norm", num, 1)
    if box is not None:
        with box:
            s = steps.add_norm(ins, c.kind, c.layer, norm_first=ck.model_config.norm_first)
            numbered(num, s, "step_norm", focus=c.i)
            if s.args["pre_ln"]:
                st.caption(t("add_norm_pre"))


def part_ffn(ins, c: Choice, num: Numbering, ck) -> None:
    # part 5: FFN
    box = opened("ffn", num, 1, t("part_ffn", query=md(c.q_labels[c.i])))
    if box is not None:
        with box:
            s = steps.ffn(ins, c.kind, c.layer, c.i,
                          activation=getattr(ck.model_config, "activation", "relu"))
            numbered(num, s, "step_ffn", upright=FFN_UPRIGHT)
            st.caption(t("ffn_out"))
            table(s.args["out"].T if FFN_UPRIGHT else s.args["out"], "step_ffn_out")


def part_logits(ins, c: Choice, num: Numbering, ck) -> None:
    # part 6: next-token probabilities (decoder)
    kind, layer, head, i, q_tokens, k_tokens, q_labels = c
    box = opened("logits", num, 0, t("part_logits", query=md(q_labels[i])))  # the last part
    if box is None:
        return
    with box:
        if kind == "encoder_self":
            st.caption(t("encoder_only"))
        else:
            top = steps.top_k(ins, ck.tokenizer.display, i, k=10)
            st.markdown(f"**{t('step_n', n=num.next())} · {t('topk', k=len(top))}**")
            st.caption(t("topk_help"))
            st.plotly_chart(steps.top_k_figure(top, t("topk_chart", query=q_labels[i]),
                                               t("probability")), key="step_topk")
            table(top.rename(columns={"token": t("col_token"), "logit": t("col_logit")}),
                  "step_topk_table", {"weight": ["p"], "signed": [t("col_logit")]})
