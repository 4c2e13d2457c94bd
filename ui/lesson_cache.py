"""Cached computations that read no checkpoint: the Why-√d_k tables and the worked examples'
titles. Pure functions of their arguments (random draws are seeded), so st.cache_data copies are
served to every session; what reads a checkpoint is in ui/inspect_cache.py."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from transformer.worked.examples import list_examples, run_example
from viz import scaling as S


@st.cache_data(max_entries=32, show_spinner=False)
def variance(n: int, seed: int) -> pd.DataFrame:
    """The variance of q·k for each d_k in S.D_KS, unscaled and scaled, over n draws."""
    return S.variance_table(S.D_KS, n, seed)


@st.cache_data(max_entries=32, show_spinner=False)
def saturation(keys: int, seed: int) -> pd.DataFrame:
    """Softmax saturation for each d_k in S.D_KS over `keys` keys (200 draws)."""
    return S.saturation_table(S.D_KS, keys, 200, seed)


@st.cache_data(show_spinner=False)
def worked_titles() -> dict[str, dict[str, str]]:
    """Each worked example's title ({"en", "zh"}: the examples file's own), by example id."""
    out = {}
    for ex_id in list_examples():
        res = run_example(ex_id)
        out[ex_id] = dict(res.title)
    return out
