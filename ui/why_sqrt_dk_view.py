"""The Why √d_k page's sections: the controls (`controls`), the variance of q·k (`variance`), its
histogram (`histogram`), one row of scores through softmax (`softmax_row`) and softmax saturation
against d_k (`saturation`). Figures in viz/scaling.py, cached tables in ui/lesson_cache.py. Widget
keys are prefixed `why_sqrt_dk_`."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

from transformer.core.numeric import softmax
from ui import i18n
from ui import lesson_cache as LC
from ui.page_kit import download_csv
from ui.strings import why_sqrt_dk as strings
from viz import scaling as S

t = i18n.translator(strings)
N = 2000  # samples of q·k


def download(df: pd.DataFrame, name: str, key: str) -> None:
    download_csv(t("download"), df, name, key)


def controls() -> tuple[int, int, int]:
    """d_k, the number of keys and the seed, as chosen."""
    c1, c2, c3 = st.columns(3)
    d_k = c1.select_slider(t("d_k"), options=list(S.D_KS), value=64, key="why_sqrt_dk_dk")
    n_keys = c2.slider(t("n_keys"), min_value=2, max_value=32, value=8, key="why_sqrt_dk_keys")
    seed = int(c3.number_input(t("seed"), min_value=0, max_value=10**6, value=0, step=1,
                               key="why_sqrt_dk_seed"))
    return d_k, n_keys, seed


def variance(seed: int) -> None:
    st.subheader(t("var_title"))
    var = LC.variance(N, seed)
    st.plotly_chart(S.variance_figure(var, raw=t("var_raw"), theory=t("var_theory"), scaled=t("var_scaled"),
                                      y_title=t("variance")), key="why_sqrt_dk_var")
    st.caption(t("var_caption", n=N))
    download(var, "variance_of_qk", "why_sqrt_dk_dl_var")


def histogram(d_k: int, seed: int) -> None:
    samples = S.dot_samples(d_k, N, seed)
    st.markdown(f"**{t('hist_title', n=N, d=d_k)}**")
    st.plotly_chart(S.histogram_figure(samples, d_k, x_title=t("value"), y_title=t("count"),
                                       samples_word=t("samples_word")), key="why_sqrt_dk_hist")
    st.caption(t("hist_caption", raw=samples.std(ddof=1), theory=math.sqrt(d_k),
                 scaled=samples.std(ddof=1) / math.sqrt(d_k)))


def softmax_row(d_k: int, n_keys: int, seed: int) -> None:
    st.subheader(t("row_title", d=d_k))
    scores = S.score_row(d_k, n_keys, seed)
    st.plotly_chart(S.row_figure(scores, d_k, titles=(t("t_raw"), t("t_scaled")), key_word=t("key_word"),
                                 score_word=t("score_word"), weight_word=t("weight_word")),
                    key="why_sqrt_dk_row")
    raw_stats, scaled_stats = S.softmax_stats(scores), S.softmax_stats(scores / math.sqrt(d_k))
    st.caption(t("row_caption", raw=raw_stats["max_weight"], scaled=scaled_stats["max_weight"]))
    row_df = pd.DataFrame({"score": scores, "scaled": scores / math.sqrt(d_k), "weight_raw": softmax(scores),
                           "weight_scaled": softmax(scores / math.sqrt(d_k))})
    download(row_df, f"softmax_row_dk{d_k}", "why_sqrt_dk_dl_row")


def saturation(d_k: int, n_keys: int, seed: int) -> None:
    st.subheader(t("sat_title", trials=200, keys=n_keys))
    sat = LC.saturation(n_keys, seed)
    st.plotly_chart(S.saturation_figure(sat, d_k, titles=(t("t_max"), t("t_entropy"), t("t_jac")),
                                        raw=t("raw"), scaled=t("scaled")), key="why_sqrt_dk_sat")
    here = sat.loc[sat["d_k"] == d_k].iloc[0]
    st.info(t("at_dk", d=d_k, mr=here["max_weight_raw"], ms=here["max_weight_scaled"], er=here["entropy_raw"],
              es=here["entropy_scaled"], jr=here["jacobian_norm_raw"], js=here["jacobian_norm_scaled"]))
    st.caption(t("sat_caption", keys=n_keys, uniform=1 / n_keys, hmax=np.log2(n_keys)))
    download(sat, f"softmax_saturation_{n_keys}keys", "why_sqrt_dk_dl_sat")
