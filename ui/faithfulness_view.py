"""The faithfulness map section of the Heads page: every head a dot, where it looks against what
patching it does (transformer/probing/faithfulness.py; figure in viz/faithfulness.py), computed
once per checkpoint and pair file in the one cache. Off until asked: it runs the model once per
head. Keys prefixed `heads_faith`."""
from __future__ import annotations

import streamlit as st

from transformer.core.names import KINDS, Head
from transformer.probing import faithfulness as F
from transformer.probing.probe_items import MINIMAL_PAIRS_PROBE, read_probe_file
from transformer.probing.taught import taught
from ui import i18n, models
from ui.inspect_cache import per_checkpoint
from ui.strings import faithfulness as strings
from viz.faithfulness import map_figure

t = i18n.translator(strings)
# the project's pair files (the minimal-pair format), default first
PROBES = {"minimal": MINIMAL_PAIRS_PROBE,
          "fresh": MINIMAL_PAIRS_PROBE.with_name("minimal_pairs_fresh_en.jsonl")}


@per_checkpoint
def faithfulness_map(ck, probe: str) -> dict:
    """The map's JSON (transformer.probing.faithfulness) for one of PROBES; ValueError when the
    file holds no pair to measure."""
    items = read_probe_file(PROBES[probe])
    return models.run_inference(F.faithfulness, ck.model, ck.tokenizer, items,
                                taught(ck.train_config))


def _words() -> dict:
    return {k: t(k) for k in ("looks", "effect", "taught", *(f"kind_{k}" for k in KINDS))}


def _names(heads: list[str]) -> str:
    return ", ".join(Head.parse(h, form="cli").label for h in heads) or t("no_heads")


def section(path) -> None:
    st.subheader(t("title"))
    if not st.toggle(t("run"), key="heads_faith_on", help=t("run_help")):
        return
    probe = st.radio(t("probe"), list(PROBES), format_func=lambda k, t=i18n.translator(strings, frozen=True): t(f"probe_{k}"),
                     horizontal=True, key="heads_faith_probe")
    try:
        res = faithfulness_map(path, probe)
    except ValueError as e:
        st.warning(t("no_pairs", reason=str(e).splitlines()[0]))
        return
    st.caption(t("intro", n=res["pairs"]))
    th = res["thresholds"]
    st.plotly_chart(map_figure(res["heads"], _words(), th), key="heads_faith_map")
    rho = res["spearman"]
    st.markdown(t("spearman", heads=len(res["heads"]), rho=f"{rho:.2f}") if rho is not None
                else t("spearman_none"))
    chance = res.get("looks_chance", {})
    if len(chance) == len(KINDS):
        st.caption(t("chance", enc=f"{chance['encoder_self']:.2f}",
                     dec=f"{chance['decoder_self']:.2f}", cross=f"{chance['cross']:.2f}"))
    taught_rows = [h for h in res["heads"] if h["taught"]]
    for h in taught_rows:
        st.markdown(t("taught_line", head=Head(h["kind"], h["layer"], h["head"]).label,
                      how=", ".join(t(f"how_{w}") for w in h["taught"]),
                      looks=f"{h['looks']:.2f}", effect=f"{h['effect']:.2f}"))
    if not taught_rows:
        st.caption(t("none_taught"))
    fmt = {"looks": f"{th['looks']:g}", "effect": f"{th['effect']:g}"}
    st.markdown(t("look_without_act", heads=_names(res["look_without_act"]), **fmt))
    st.markdown(t("act_without_look", heads=_names(res["act_without_look"]), **fmt))
    with st.expander(t("definitions")):
        st.markdown(t("def_text"))
