"""The Masks page's sections: the sentences and their batch (`batch`), the batch with its padding
mask (`padding`), one sentence's padding, causal and combined masks (`sentence_masks`) and one row
of scores under the combined mask, −inf against 0 (`masked_row`). Figures and frames in
viz/masks.py. Widget keys are prefixed `masks_`."""
from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from ui import choices
from ui import i18n, models, page_kit
from ui.serving import text_limits
from ui.strings import masks as strings
from viz import masks as Mk
from viz.worked import styled

t = i18n.translator(strings)


def download(df: pd.DataFrame, name: str, key: str) -> None:
    page_kit.download_csv(t("download"), df, name, key)


def mask_fig(keep, rows, cols, title, key):
    st.markdown(f"**{title}**")
    st.plotly_chart(Mk.mask_figure(keep, rows, cols, x_title=t("key_axis"), y_title=t("query_axis"),
                                   keep_word=t("keep"), masked_word=t("masked")), key=key)


def batch():
    """The sentences box and their batch, tokenized by the session's model if there is one (else
    by spaces); unusable text ends the page."""
    ck = models.current()
    page_kit.fill_from_link("masks_text", default=t("sentences_default"))  # ?text= (tour)
    text = st.text_area(t("sentences"), key="masks_text", help=t("sentences_help"),
                        max_chars=text_limits.LIST_CHARS)
    text_limits.stop_if_too_long(text, limit=text_limits.LIST_CHARS)
    try:
        if ck is not None:
            cfg = ck.model_config
            out = Mk.make_batch(text, ck.tokenizer, cfg.max_len, pad_id=cfg.pad_id, bos_id=cfg.bos_id)
        else:
            out = Mk.make_batch(text, None)
    except ValueError as e:
        st.error(t("bad_text", reason=str(e)))
        st.stop()
    st.caption(t("tokenized_by_model") if ck is not None else t("tokenized_by_space"))
    for n in out.truncated:
        st.warning(t("truncated", n=n + 1, limit=len(out.labels[n])))
    return out


def names(batch) -> list[str]:
    return [f"{b + 1}: {s[:40]}" for b, s in enumerate(batch.sentences)]


def padding(batch) -> None:
    """The batch and its padding mask."""
    S = batch.ids.shape[1]
    rows = names(batch)
    pos_labels = [str(j) for j in range(S)]
    st.subheader(t("batch_title"))
    table = pd.DataFrame(batch.labels, index=rows, columns=pos_labels)
    pad = Mk.padding_keep(batch)
    st.dataframe(styled(table, ~pad), key="masks_batch")
    st.markdown(f"**{t('padding_title')}**")
    st.plotly_chart(Mk.padding_figure(batch, rows, x_title=t("token_axis"), y_title=t("sentence_axis"),
                                      keep_word=t("keep"), masked_word=t("masked")), key="masks_padding")
    st.caption(t("padding_caption"))
    download(pd.DataFrame(pad.astype(int), index=rows, columns=pos_labels), "padding_mask", "masks_dl_pad")


def sentence_masks(batch):
    """One sentence (chosen): padding (encoder side), causal and combined (decoder side). Returns
    the sentence's index and its combined mask."""
    rows = names(batch)
    T = batch.dec_ids.shape[1]
    # the list names the sentences as they are now: an edited line is named afresh (`labels`)
    choices.keep("masks_choice", 0, range(batch.ids.shape[0]), labels=tuple(rows))
    b = st.selectbox(t("choose"), list(range(batch.ids.shape[0])), format_func=rows.__getitem__,
                     key="masks_choice")
    labels = batch.labels[b]
    dec_labels = batch.dec_labels[b]
    st.caption(t("sides_caption"))
    c1, c2, c3 = st.columns(3)
    with c1:
        keep_pad = Mk.padding_square(batch, b)
        mask_fig(keep_pad, labels, labels, t("pad_square_title"), "masks_pad_sq")
        st.caption(t("pad_square_caption"))
        download(Mk.frame(keep_pad, labels, labels), f"padding_mask_sentence{b + 1}", "masks_dl_padsq")
    with c2:
        keep_causal = Mk.causal_keep(T)
        mask_fig(keep_causal, dec_labels, dec_labels, t("causal_title"), "masks_causal")
        st.caption(t("causal_caption"))
        download(Mk.frame(keep_causal, dec_labels, dec_labels), f"causal_mask_{T}", "masks_dl_causal")
    with c3:
        keep_both = Mk.combined_keep(batch, b)
        mask_fig(keep_both, dec_labels, dec_labels, t("combined_title"), "masks_both")
        st.caption(t("combined_caption"))
        download(Mk.frame(keep_both, dec_labels, dec_labels), f"combined_mask_sentence{b + 1}", "masks_dl_both")
    return b, keep_both


def masked_row(batch, b: int, keep_both) -> None:
    """One row of scores under the combined mask: −inf against 0."""
    T = batch.dec_ids.shape[1]
    dec_labels = batch.dec_labels[b]
    st.subheader(t("row_title"))
    st.write(t("row_intro"))
    c1, c2 = st.columns(2)
    default_q = min(max(batch.dec_lengths[b] - 2, 0), T - 1)
    choices.keep(f"masks_query_{b}_{T}", default_q, range(max(T, 2)))
    q = c1.slider(t("query"), 0, max(T - 1, 1), key=f"masks_query_{b}_{T}", disabled=T == 1)
    q = min(q, T - 1)
    choices.keep("masks_seed", 0)
    seed = c2.number_input(t("seed"), min_value=0, max_value=10**6, step=1, key="masks_seed")
    row = Mk.masked_row(Mk.random_scores(T, int(seed) * 1000 + q), keep_both[q])
    st.plotly_chart(Mk.row_figure(row, dec_labels, titles=(t("t_scores"), t("t_inf"), t("t_zero")),
                                  keep_word=t("keep"), masked_word=t("masked")), key="masks_row")
    if (~row["keep"]).any():
        st.warning(t("leak", leak=Mk.leak(row), zero=float(row.loc[~row["keep"], "weight_inf"].sum())))
    else:
        st.info(t("no_leak"))
    shown = row.copy()
    shown.insert(0, "token", dec_labels)
    shown = shown.rename(columns={"token": t("col_token"), "score": t("col_score"), "keep": t("col_keep"),
                                  "masked_inf": t("col_masked_inf"), "weight_inf": t("col_weight_inf"),
                                  "masked_zero": t("col_masked_zero"), "weight_zero": t("col_weight_zero")})
    leaky = np.zeros(shown.shape, dtype=bool)
    leaky[:, -1] = ~row["keep"].to_numpy() & (row["weight_zero"].to_numpy() > 0)
    st.dataframe(styled(shown, leaky, digits=6), key="masks_row_table")
    download(shown, f"masked_row_sentence{b + 1}_query{q}", "masks_dl_row")
