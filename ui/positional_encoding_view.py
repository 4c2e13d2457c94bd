"""The Positional-encoding page's sections: the size and the dimensions shown (`controls`), the
waves (`waves`), the heatmap (`heatmap`), similarity by offset (`similarity`), the rotation M_k
(`rotation`), sizes against the current model's embeddings (`norms`) and the notes' example
(`love_example`). Figures and tables in viz/positional.py, the model's rows in
ui/positional_encoding_compute.py. Widget keys are prefixed `positional_encoding_`."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

from transformer.core.text import TextError
from ui import choices
from ui import i18n, models, page_kit
from ui import notes as notes_ui
from ui import positional_encoding_compute as PC
from ui import worked_text
from ui.serving import text_limits
from ui.strings import positional_encoding as strings
from viz import positional as P
from viz.worked import matrix_frame, styled

t = i18n.translator(strings)
N_POS = 101  # positions 0..100


def download(df: pd.DataFrame, name: str, key: str) -> None:
    page_kit.download_csv(t("download"), df, name, key)


DIMS = "positional_encoding_dims"  # the dimensions drawn (the widget)
DIMS_ASKED = "positional_encoding_dims_asked"  # the dimensions the teacher picked, at any d_model
DIMS_SHOWN = "positional_encoding_dims_shown"  # what the widget was given on the last run
DEFAULT_DIMS = [4, 5, 6, 7]  # the notes' figure


def dims_choice(d_model: int) -> str | None:
    """Put the dimensions to draw into the widget's state: the teacher's pick, clamped to
    0..d_model-1 (never none: the first few instead), so a smaller d_model neither empties the
    chart nor forgets the pick (a larger one brings it back). Returns a note when clamped."""
    ss = st.session_state
    now = ss.get(DIMS)
    if now is not None and list(now) != ss.get(DIMS_SHOWN):  # the teacher changed the list
        ss[DIMS_ASKED] = list(now)
    asked = ss.get(DIMS_ASKED, DEFAULT_DIMS)
    shown = [d for d in asked if d < d_model]
    note = None
    if len(shown) < len(asked):
        if not shown:
            shown = list(range(min(len(asked), d_model)))
        note = t("dims_clamped", d_model=d_model, last=d_model - 1,
                 dropped=", ".join(str(d) for d in asked if d >= d_model),
                 shown=", ".join(str(d) for d in shown))
    if now is None or list(now) != shown:
        choices.remember(DIMS, shown)
    else:
        choices.keep(DIMS, shown)
    ss[DIMS_SHOWN] = shown
    return note


def controls():
    """d_model and the dimensions drawn, as chosen, and the table of encodings (positions 0..100);
    a size it cannot build ends the page."""
    c1, c2 = st.columns([1, 2])
    choices.keep("positional_encoding_d_model", 20)
    d_model = c1.slider(t("d_model"), min_value=4, max_value=1024, step=2, key="positional_encoding_d_model",
                        help=t("d_model_help"))
    dims_all = list(range(d_model))
    note = dims_choice(d_model)
    dims = c2.multiselect(t("dims"), dims_all, key=DIMS, help=t("dims_help"))
    if note:
        c2.caption(note)

    try:
        pe = P.pe_table(N_POS, d_model)
    except ValueError as e:
        st.error(t("bad_size", reason=str(e)))
        st.stop()
    return d_model, dims, pe


def waves(pe, dims, d_model: int) -> None:
    # 1. waves
    st.subheader(t("waves_title"))
    st.plotly_chart(P.waves_figure(pe, dims, x_title=t("position"), y_title=t("pe_value"), dim_word=t("dim_word"),
                                   period_word=t("period_word")), key="positional_encoding_waves")
    omega = P.frequencies(d_model)
    st.caption(t("waves_caption", fast=2 * math.pi / omega[0], slow=2 * math.pi / omega[-1], last=d_model - 1))
    pe_df = matrix_frame(pe, [str(p) for p in range(N_POS)], [str(d) for d in range(d_model)])
    download(pe_df, f"positional_encoding_{N_POS}x{d_model}", "positional_encoding_dl_table")


def heatmap(pe) -> None:
    # 2. heatmap
    st.subheader(t("heat_title"))
    st.plotly_chart(P.heatmap_figure(pe, x_title=t("dimension"), y_title=t("position")), key="positional_encoding_heat")
    st.caption(t("heat_caption"))


def similarity(pe, d_model: int) -> None:
    # 3. similarity
    st.subheader(t("sim_title"))
    sim = P.similarity(pe)
    st.plotly_chart(P.similarity_figure(sim, p_title="p", q_title="q"), key="positional_encoding_sim")
    st.caption(t("sim_caption", err=P.diagonal_spread(sim)))
    download(matrix_frame(sim, [str(p) for p in range(N_POS)], [str(p) for p in range(N_POS)]),
             f"pe_similarity_d{d_model}", "positional_encoding_dl_sim")
    st.markdown(f"**{t('offset_title')}**")
    curves = P.offset_curves(pe, [0, 20, 50], 50)
    st.plotly_chart(P.offset_figure(curves, x_title="k"), key="positional_encoding_offset")
    st.caption(t("offset_caption", half=d_model // 2))
    download(curves, f"pe_offset_similarity_d{d_model}", "positional_encoding_dl_offset")


def rotation(pe, d_model: int) -> None:
    # 4. rotation
    st.subheader(t("rot_title"))
    st.write(t("rot_intro"))
    choices.keep("positional_encoding_k", 3)
    k = st.slider(t("k"), min_value=0, max_value=50, key="positional_encoding_k")
    M, err = P.rotation_check(pe, k)
    st.success(t("rot_result", k=k, n=N_POS - k, err=err))
    with st.expander(t("rot_matrix", k=k), expanded=d_model <= 16):
        if d_model <= 64:
            st.plotly_chart(P.rotation_figure(M, x_title=t("column"), y_title=t("row")), key="positional_encoding_rot")
        download(matrix_frame(M), f"rotation_M_{k}_d{d_model}", "positional_encoding_dl_rot")


def norms() -> None:
    # 5. sizes against the current model's embeddings
    st.subheader(t("norm_title"))
    st.write(t("norm_intro"))
    ck = models.current()
    if ck is None:
        st.info(t("no_model"))
    else:
        page_kit.fill_from_link("positional_encoding_sentence", default=t("sentence_default"))  # ?text= (tour)
        text = st.text_input(t("sentence"), key="positional_encoding_sentence",
                             max_chars=text_limits.SENTENCE_CHARS)
        text_limits.stop_if_too_long(text)
        try:
            rows = PC.embedding_rows(models.current_path(), text)
        except TextError as e:
            st.warning(t("bad_text", reason=str(e)))
        else:
            notes_ui.warn(rows["notes"])
            if rows["learned"]:
                st.caption(t("learned_pe"))
            norms = P.norm_frame(rows["labels"], rows["scaled"], rows["pe"])
            st.plotly_chart(P.norm_figure(norms, emb_name=t("emb_name"), pe_name=t("pe_name"), x_title="",
                                          ratio_word=t("ratio_word")), key="positional_encoding_norms")
            e_mean, p_mean = norms["embedding_norm"].mean(), norms["pe_norm"].mean()
            st.write(t("norm_result", emb=e_mean, pe=p_mean, ratio=e_mean / p_mean))
            download(norms, "pe_vs_embedding_norms", "positional_encoding_dl_norms")


def love_example() -> None:
    # 6. the notes' example
    st.subheader(t("love_title"))
    st.write(t("love_intro"))
    res, ex = P.love_example()
    step = res.step("PE")
    terms = P.love_terms(ex["pos"], ex["d_model"], ex["notes_claim"]["PE"])
    terms["agrees"] = step.agrees  # the verdict of transformer.worked (same rounding rule)
    shown = terms.rename(columns={"dimension": t("col_dimension"), "value": t("col_value"),
                                  "notes": t("col_notes"), "agrees": t("col_agrees"),
                                  "angle": t("col_angle"), "function": t("col_function"),
                                  "formula": t("col_formula")})
    bad = np.zeros(shown.shape, dtype=bool)
    bad[:, list(shown.columns).index(t("col_notes"))] = ~step.agrees
    good = np.zeros(shown.shape, dtype=bool)
    good[:, list(shown.columns).index(t("col_notes"))] = step.agrees
    st.dataframe(styled(shown, bad, digits=6).apply(
        lambda f: pd.DataFrame(np.where(good, "background-color: #d8f0d8", ""), index=f.index, columns=f.columns),
        axis=None), hide_index=True, key="positional_encoding_love")
    st.write(t("love_verdict", ok=int(step.agrees.sum())))
    expl = ex.get("explanations", {}).get("PE", {})
    st.markdown(f"**{t('love_explain')}** " + (i18n.pick(expl) if expl else ""))
    st.caption(worked_text.step_text(step, i18n.lang()))
    download(terms, "pe_love_example", "positional_encoding_dl_love")
