"""The logit lens under the Attention page's output: for every decoder layer and output position,
the pieces the model would write if that layer were its last (transformer/probing/logit_lens.py),
as a small table. Off until asked. Keys prefixed `attention_lens`."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from transformer.probing.logit_lens import MAX_K, logit_lens
from ui import i18n, models
from ui.inspect_cache import per_checkpoint
from ui.strings import logit_lens as strings

t = i18n.translator(strings)


@per_checkpoint
def lens(ck, src: tuple, tgt: tuple, k: int) -> list:
    return models.run_inference(logit_lens, ck.model, ck.tokenizer, (list(src), list(tgt)), k)


def table(rows: list, tgt_tokens: list[str], out_tokens: list[str]) -> pd.DataFrame:
    """Rows: decoder layers; columns: output positions ("t: piece written"); cells: the top
    pieces with their probabilities, one a line."""
    cols = [t("position", n=p, token=out_tokens[p] if p < len(out_tokens) else "</s>")
            for p in range(len(tgt_tokens))]
    data = [[" · ".join(f"{c['piece']} {c['prob']:.2f}" for c in pos) for pos in layer]
            for layer in rows]
    return pd.DataFrame(data, columns=cols, index=[t("layer", n=i) for i in range(len(rows))])


def section(ins, ck, path) -> None:
    if ck.model_config.n_decoder_layers == 0:
        return
    if not st.toggle(t("toggle"), key="attention_lens_on", help=t("toggle_help")):
        return
    k = st.slider(t("top_k"), 1, MAX_K, 1, key="attention_lens_k")
    rows = lens(path, tuple(ins.src_ids), tuple(ins.tgt_ids), int(k))
    st.caption(t("intro"))
    st.dataframe(table(rows, ins.tgt_tokens, ins.tgt_tokens[1:]), key="attention_lens_table")
