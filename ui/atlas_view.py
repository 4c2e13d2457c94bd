"""The head atlas section of the Heads page: every head of every kind with its label and score
(transformer/probing/atlas.py), computed once per checkpoint in the one cache. Keys prefixed `heads_atlas`."""
from __future__ import annotations

from collections import Counter

import pandas as pd
import streamlit as st

from transformer.probing import atlas as A
from transformer.probing.probe_items import anaphora_probe, read_probe_file
from ui import i18n, models
from ui.inspect_cache import per_checkpoint
from ui.strings import atlas as strings

t = i18n.translator(strings)
N_SENTENCES = 40


@per_checkpoint
def _roles(ck, n: int) -> dict:
    """The atlas of this checkpoint: a task's held-out data for a synthetic task, else the
    hand-written minimal pairs (for the pronoun behaviour) and the shipped sentences."""
    task = (ck.train_config or {}).get("task")
    probe, source = None, "sentences"
    if task == "anaphora":
        probe, source = anaphora_probe(n=n), "task"
    elif task in ("copy", "reverse", "sort"):
        source = "task"
    else:
        probe, source = read_probe_file(A.PROBES / "minimal_pairs_en.jsonl")[:n], "probe"
    sentences = ([it.text for it in probe][: n // 2] + A.sentences_for(ck, n - n // 2)
                 if probe and source == "probe" else
                 [it.text for it in probe] if probe else A.sentences_for(ck, n))
    roles = models.run_inference(A.atlas, ck.model, ck.tokenizer, sentences, probe)
    return {"roles": roles, "n": len(sentences), "source": source}


def table(roles) -> pd.DataFrame:
    """One row per head, in the page's language."""
    rows = []
    for r in roles:
        rows.append({t("col_kind"): t(f"kind_{r.kind}"), t("col_layer"): r.layer,
                     t("col_head"): r.head, t("col_label"): t(f"lab_{r.label}"),
                     t("col_score"): round(r.score, 2),
                     t("col_scores"): ", ".join(f"{t(f'lab_{b}')} {v:.2f}"
                                                for b, v in sorted(r.scores.items(),
                                                                   key=lambda kv: -kv[1])[:3])})
    return pd.DataFrame(rows)


def section(path) -> None:
    st.subheader(t("title"))
    if not st.toggle(t("run"), key="heads_atlas_on", help=t("run_help")):
        return
    res = _roles(path, N_SENTENCES)
    st.caption(t("intro", n=res["n"], source=t(f"source_{res['source']}")))
    counts = Counter(r.label for r in res["roles"])
    st.caption(t("counts", counts=", ".join(f"{t(f'lab_{k}')} {v}" for k, v in counts.most_common())))
    st.dataframe(table(res["roles"]), hide_index=True,
                 column_config={t("col_score"): st.column_config.ProgressColumn(
                     t("col_score"), min_value=0.0, max_value=1.0, format="%.2f")},
                 key="heads_atlas_table")
    with st.expander(t("meanings")):
        for b in A.BEHAVIOURS + (A.NO_ROLE,):
            st.markdown(f"**{t(f'lab_{b}')}**: {t(f'def_{b}')}")
        st.caption(t("rule"))
