"""The head atlas section of the Heads page: every head of every kind with its label, its score
beside its chance level and its corrected p-value (transformer/probing/atlas.py), computed once per
checkpoint in the one cache, on the same default sentences as `python -m transformer.atlas`
(`inputs_for`, N_SENTENCES = the CLI's default --n). Keys prefixed `heads_atlas`."""
from __future__ import annotations

from collections import Counter

import pandas as pd
import streamlit as st

from transformer.probing import atlas as A
from ui import i18n, models
from ui.inspect_cache import per_checkpoint
from ui.strings import atlas as strings

t = i18n.translator(strings)
N_SENTENCES = A.N_DEFAULT  # the CLI's default, so the page and the CLI label the same heads


@per_checkpoint
def _roles(ck, n: int) -> dict:
    """The atlas of this checkpoint on `transformer.probing.atlas.inputs_for(ck, n)`: the sentences
    and the pronoun probe the CLI measures by default."""
    inp = A.inputs_for(ck, n)
    rep = models.run_inference(A.atlas_report, ck.model, ck.tokenizer, inp.sentences, inp.probe,
                               train_config=ck.train_config)
    return {"roles": rep.roles, "n": len(inp.sentences), "source": inp.source,
            "sentences": list(inp.sentences), "probe": len(inp.probe or ()), "n_perm": rep.n_perm,
            "tests": rep.tests}


def _how(taught) -> str:
    return ", ".join(t(f"taught_{h}") for h in taught)


def table(roles) -> pd.DataFrame:
    """One row per head, in the page's language: the label's score beside its chance level and
    its Holm-corrected p (blank for broad and none, which are not findings)."""
    rows = []
    for r in roles:
        finding = r.label not in A.DESCRIPTIVE + (A.NO_ROLE,)
        rows.append({t("col_kind"): t(f"kind_{r.kind}"), t("col_layer"): r.layer,
                     t("col_head"): r.head, t("col_label"): t(f"lab_{r.label}"),
                     t("col_score"): round(r.score, 2),
                     t("col_chance"): round(r.chance[r.label], 2) if finding else None,
                     t("col_p"): float(f"{r.p_holm[r.label]:.2g}") if finding else None,
                     t("col_taught"): _how(r.taught),
                     t("col_scores"): ", ".join(
                         t("score_vs_chance", b=t(f"lab_{b}"), s=v, c=r.chance.get(b, v))
                         for b, v in sorted(r.scores.items(), key=lambda kv: -(kv[1] - r.chance.get(kv[0], kv[1]))
                                            )[:3])})
    return pd.DataFrame(rows)


def section(path) -> None:
    st.subheader(t("title"))
    if not st.toggle(t("run"), key="heads_atlas_on", help=t("run_help")):
        return
    res = _roles(path, N_SENTENCES)
    st.caption(t("intro", n=res["n"], source=t(f"source_{res['source']}")))
    st.caption(t("chance_rule", bar=A.LABEL_BAR, margin=A.MARGIN, alpha=A.ALPHA, tests=res["tests"],
                 n_perm=res["n_perm"]))
    counts = Counter(r.label for r in res["roles"])
    st.caption(t("counts", counts=", ".join(f"{t(f'lab_{k}')} {v}" for k, v in counts.most_common())))
    taught = [r for r in res["roles"] if r.taught]
    if taught:
        st.caption(t("taught", heads="; ".join(f"{t(f'kind_{r.kind}')} L{r.layer} H{r.head} "
                                                f"({_how(r.taught)})" for r in taught)))
    st.dataframe(table(res["roles"]), hide_index=True,
                 column_config={t("col_score"): st.column_config.ProgressColumn(
                     t("col_score"), min_value=0.0, max_value=1.0, format="%.2f")},
                 key="heads_atlas_table")
    with st.expander(t("meanings")):
        for b in A.BEHAVIOURS + (A.NO_ROLE,):
            st.markdown(f"**{t(f'lab_{b}')}**: {t(f'def_{b}')}")
        st.caption(t("rule"))
    with st.expander(t("which_sentences", n=res["n"])):
        st.caption(t(f"source_{res['source']}"))
        st.markdown("\n".join(f"{i}. {s}" for i, s in enumerate(res["sentences"], 1)))
