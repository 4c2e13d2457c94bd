"""The Heads page's sections: the relation and its probe scored into a layers x heads grid per
attention kind (`score`, `grids`), a link that opens one head on the Attention page (`open_head`),
and ablation: output and pronoun accuracy with heads switched off (`ablation`, `accuracy`).
Computations in ui/heads_compute.py, figures in viz/heads.py. Widget keys are prefixed `heads_`."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import streamlit as st

from transformer.probing import heads as H
from transformer.core.names import KINDS, attention_kind
from transformer.probing.probe_items import MAX_PROBE_LINES, PRONOUN_TASKS, task_probe
from transformer.core.checkpoint import CheckpointError
from transformer.core.text import TextError, clean_text
from ui import choices as kept  # (choices: this page's own section below)
from ui import heads_compute as HC
from ui import taught_note
from ui import i18n, inspect_cache, models, page_kit
from ui.serving import text_limits
from ui.serving import quota, server_guard
from ui.strings import heads as strings
from viz import heads as VH
from viz.tokens import escape_markdown

t = i18n.translator(strings)
RELATIONS = ("anaphora",) + tuple(r for r in H.RELATIONS)
MAX_CHARS = text_limits.SENTENCE_CHARS
MAX_SENTENCES = 200
DEFAULT_SENTENCES = ("A dog runs in the park .\nTwo men play football on the grass .\n"
                     "A girl in a red dress walks with her dog .\nThe cat sleeps on the warm table .")


def kind_name(k: str) -> str:
    return t(f"kind_{k}")


@dataclass
class Scores:
    """What the sweep found for the chosen relation."""
    relation: str
    res: dict
    grids: dict[str, np.ndarray | None]
    n_items: int
    first_sentence: str
    best: tuple | None = None  # (kind, layer, head, value[, weight])
    extra: dict[str, np.ndarray] = field(default_factory=dict)


def relation() -> str:
    kept.keep("heads_relation", "anaphora", RELATIONS)
    rel = st.selectbox(t("relation"), RELATIONS, key="heads_relation",
                       format_func=lambda r, t=i18n.translator(strings, frozen=True): t(f"rel_{r}"), help=t("relation_help"))
    st.caption(t(f"desc_{rel}"))
    return rel


def score(rel: str, path, task: str | None) -> Scores:
    """The probe's widgets and the sweep (quota-gated); stops the page while input is missing."""
    try:
        return _anaphora(path, task) if rel == "anaphora" else _relation(rel, path, task)
    except CheckpointError as e:
        st.info(t("load_failed", reason=str(e)))
        st.stop()


def _anaphora(path, task: str | None) -> Scores:
    sources = ["heldout"] + (["natural"] if HC.NATURAL.is_file() else []) + ["upload"]
    # a model of the synthetic task opens on its held-out split, any other on the
    # hand-written sentences
    kept.keep("heads_probe", HC.default_source(task), sources)
    source = st.radio(t("probe"), sources, key="heads_probe", help=t("probe_help"),
                      format_func=lambda s, t=i18n.translator(strings, frozen=True): t(f"probe_{s}" + ("_pairs" if s == "natural" and
                                                               task == "everyday" else "")),
                      horizontal=True)
    n, data, name = 0, None, None
    if source == "heldout":
        n = st.slider(t("n"), 20, 500, HC.DEFAULT_N, step=10, key="heads_n", help=t("n_help"))
    elif source == "upload":
        up = st.file_uploader(t("upload"), type=["jsonl", "json", "txt"], key="heads_upload",
                              max_upload_size=server_guard.uploader_limit_mb("heads_upload"),
                              help=t("upload_help", kb=VH.MAX_PROBE_BYTES // 1000,
                                     lines=MAX_PROBE_LINES))
        if up is None:
            st.info(t("upload_wait"))
            st.stop()
        data, name = up.getvalue(), up.name
        try:
            VH.read_probe_upload(data, name)
        except ValueError as e:
            st.error(t("upload_bad", reason=escape_markdown(str(e))))
            st.stop()
    digest = hashlib.sha256(data).hexdigest() if data else None  # two uploads, two sweeps
    if not quota.gate("heads.sweep", key=(path, models.stamp(path), source, n, name, digest)):
        st.stop()
    with st.spinner(t("scoring")):
        res = HC.anaphora(path, source, n, data, name, task)
    if source == "upload":
        st.caption(t("upload_ok", n=max(res["n"].values(), default=0),
                     name=escape_markdown(name)))
    if set(res["acc"]) == {"encoder_self"}:
        st.caption(t("only_encoder"))
    return Scores("anaphora", res, res["acc"], max(res["n"].values(), default=0), res["first"],
                  res["best"], res["weight"])


def _sentences() -> tuple[str, ...]:
    """The text area's usable lines (at most MAX_SENTENCES); stops the page when there is none."""
    kept.keep("heads_sentences", DEFAULT_SENTENCES)
    raw = st.text_area(t("sentences"), key="heads_sentences", max_chars=text_limits.LIST_CHARS,
                       help=t("sentences_help", max=MAX_SENTENCES))
    text_limits.stop_if_too_long(raw, limit=text_limits.LIST_CHARS)
    lines = []
    for line in raw.splitlines():
        try:
            lines.append(clean_text(line))
        except TextError:
            continue
    if not lines:
        st.info(t("sentences_empty"))
        st.stop()
    if len(lines) > MAX_SENTENCES:
        st.caption(t("too_many_lines", max=MAX_SENTENCES))
    return tuple(lines[:MAX_SENTENCES])


def _relation(rel: str, path, task: str | None) -> Scores:
    sentences: tuple[str, ...] = ()
    n = 100
    if task in HC.SYNTHETIC:
        n = st.slider(t("n"), 20, 500, 100, step=10, key="heads_rel_n", help=t("n_help"))
    else:
        sentences = _sentences()
    if not quota.gate("heads.sweep", key=(path, models.stamp(path), rel, n, sentences)):
        st.stop()
    with st.spinner(t("scoring")):
        res = HC.relation(path, rel, task, n, sentences)
    if task in HC.SYNTHETIC:
        st.caption(t("sentences_source", n=res["n"], task=task))
    grids = res["grids"]
    return Scores(rel, res, grids, res["n"], res["first"],
                  VH.best_cell({k: g for k, g in grids.items() if g is not None}))


def grids(s: Scores) -> None:
    """The baselines (anaphora), the best head, and one grid per attention kind."""
    best, res = s.best, s.res
    if s.relation == "anaphora":
        bl = res["baselines"]
        shown_bl = [k for k in VH.BASELINE_ORDER if k in bl]
        c1, *cols = st.columns([4] + [1] * max(1, len(shown_bl)))
        for col, k in zip(cols, shown_bl):
            col.metric(t(k), f"{bl[k]:.0%}", help=t("baselines_help"))
        if "nearest_noun" not in bl:
            cols[-1].caption(t("no_baselines"))
        msg = c1
    else:
        msg = st
    if best is not None:
        label = VH.head_label(best[0], best[1], best[2])
        if s.relation == "anaphora":
            msg.success(t("best_anaphora", head=label, kind=kind_name(best[0]), l=best[1],
                          h=best[2], v=best[3], w=best[4]))
            k, bl_, bh_ = best[:3]
            msg.caption(t("best_split", **VH.hit_split(float(res["on_article"][k][bl_, bh_]),
                                                       float(res["on_noun"][k][bl_, bh_]),
                                                       res["n"][k])))
            msg.caption(t("baselines_help"))
        else:
            msg.success(t("best", head=label, kind=kind_name(best[0]), l=best[1], h=best[2],
                          v=best[3]))
        ck = models.current()
        if ck is not None:  # a head trained to do this is not a finding (issue 49, 5)
            with msg if hasattr(msg, "__enter__") else st.container():
                taught_note.show(ck, best[0], best[1], best[2], key="heads_taught_control")

    shown = [k for k in KINDS if k in s.grids]
    for col, kind in zip(st.columns(3), shown):
        with col:
            g = s.grids[kind]
            if g is None:
                st.markdown(f"**{kind_name(kind)}**")
                st.caption(t("no_fit", kind=kind_name(kind)))
                continue
            st.plotly_chart(VH.grid_figure(
                g, title=t("grid_title", kind=kind_name(kind)), layer_name=t("layer_n", n="{n}"),
                head_name=t("head_n", n="{n}"),
                value_name=t("value_acc" if s.relation == "anaphora" else "value_share"),
                extra=s.extra.get(kind), extra_name=t("mean_weight"),
                best=(best[1], best[2]) if best is not None and best[0] == kind else None),
                key=f"heads_grid_{kind}")
    st.caption(t("grid_caption", n=s.n_items))


def open_head(s: Scores, cfg) -> None:
    """A head (the best one by default) and a sentence, linked to the Attention page."""
    best = s.best
    st.subheader(t("open"))
    st.caption(t("open_help"))
    best_key = (s.relation, best[:3] if best else None)
    if st.session_state.get("heads_open_for") != best_key:
        st.session_state["heads_open_for"] = best_key
        if best is not None:
            kept.remember("heads_open_kind", best[0])
            kept.remember("heads_open_layer", best[1])
            kept.remember("heads_open_head", best[2])
        kept.remember("heads_open_text", s.first_sentence)
    kept.keep("heads_open_kind", "encoder_self", KINDS)
    c1, c2, c3 = st.columns(3)
    okind = c1.selectbox(t("kind"), KINDS, key="heads_open_kind",
                         format_func={k: kind_name(k) for k in KINDS}.get)  # labels of now
    n_lay = attention_kind(okind, cfg).n_layers
    page_kit.clamp_state("heads_open_layer", n_lay)
    page_kit.clamp_state("heads_open_head", cfg.n_heads)
    olayer = c2.selectbox(t("layer"), range(n_lay), key="heads_open_layer")
    ohead = c3.selectbox(t("head"), range(cfg.n_heads), key="heads_open_head")
    if s.relation == "anaphora" and s.res.get("tops"):
        choices(s, okind, olayer, ohead)
    kept.keep("heads_open_text", s.first_sentence)
    otext = st.text_input(t("probe_sentence"), key="heads_open_text", max_chars=MAX_CHARS,
                          help=t("probe_sentence_help"))
    text_limits.stop_if_too_long(otext)
    if otext and otext.strip():
        try:
            st.page_link("pages/attention.py", label=t("open_link", head=VH.head_label(
                okind, olayer, ohead)), icon="🔍", query_params=i18n.in_address({
                "kind": okind, "layer": str(olayer), "head": str(ohead), "text": otext.strip()}))
        except Exception:  # the Attention page is not in this build's navigation
            st.caption(t("no_attention_page"))


def choices(s: Scores, kind: str, layer: int, head: int) -> None:
    """Sentence by sentence, where the chosen head looks (misses first); selecting a row puts
    that sentence in the box that opens the head on the Attention page."""
    items = s.res["items"]
    got = H.head_choices(items, s.res["tops"], kind, layer, head)
    if not got:
        return
    rows = H.choice_rows(got)
    order = H.misses_first(got)  # the rows' order
    miss = sum(not c.hit for c in got)
    with st.expander(t("choices_title", head=VH.head_label(kind, layer, head), miss=miss,
                       n=len(got))):
        st.caption(t("choices_help_target" if attention_kind(kind).key == "target"
                     else "choices_help"))
        ev = st.dataframe(pd.DataFrame(rows, columns=[t("col_hit"), t("col_sentence"),
                                                      t("col_antecedent"), t("col_top")]),
                          hide_index=True, on_select="rerun", selection_mode="single-row",
                          key=f"heads_choices_{kind}_{layer}_{head}")
        picked = list(getattr(getattr(ev, "selection", None), "rows", []) or [])
        if picked and picked[0] < len(order):
            pick = (kind, layer, head, order[picked[0]].item)
            if st.session_state.get("heads_choice_picked") != pick:
                st.session_state["heads_choice_picked"] = pick
                st.session_state["heads_open_text"] = items[pick[3]].text


def _add(labels):
    cur = list(st.session_state.get("heads_ablate", []))
    st.session_state["heads_ablate"] = cur + [x for x in labels if x not in cur]


def ablation(s: Scores, ck, path) -> tuple[str, ...]:
    """The heads to switch off and a sentence translated without and with them; the chosen heads."""
    cfg, best = ck.model_config, s.best
    st.subheader(t("ablation"))
    st.caption(t("ablation_intro"))
    options = VH.all_heads(cfg)
    chosen_now = [h for h in st.session_state.get("heads_ablate", []) if h in options]
    st.session_state["heads_ablate"] = chosen_now
    b1, b2, b3 = st.columns(3)
    if best is not None:
        b1.button(t("ablate_best"), key="heads_add_best", on_click=_add,
                  args=([VH.head_label(*best[:3])],))
    b2.button(t("ablate_cross"), key="heads_add_cross", on_click=_add,
              args=([o for o in options if o.startswith("cross ")],))
    b3.button(t("ablate_clear"), key="heads_clear",
              on_click=lambda: st.session_state.update(heads_ablate=[]))
    chosen = st.multiselect(t("ablate"), options, key="heads_ablate", help=t("ablate_help"),
                            placeholder=t("ablate_placeholder"))
    page_kit.fill_from_link("heads_abl_text",
                                 default=page_kit.example_text(ck.train_config))
    atext = st.text_input(t("ablation_sentence"), key="heads_abl_text", max_chars=MAX_CHARS,
                          help=t("ablation_sentence_help"))
    text_limits.stop_if_too_long(atext)
    try:
        atext = clean_text(atext)
    except TextError:
        st.info(t("empty_sentence"))
        st.stop()
    ablate = tuple(sorted(chosen))
    try:
        before = HC.translate(path, atext, ())
        after = HC.translate(path, atext, ablate) if ablate else None
    except (TextError, ValueError) as e:
        st.info(t("bad_text", reason=str(e)))
        st.stop()
    c1, c2 = st.columns(2)
    c1.markdown(f"**{t('without')}**")
    c1.code(before or "∅", language=None, wrap_lines=True)
    c2.markdown(f"**{t('with')}**")
    if after is None:
        c2.info(t("no_ablation"))
    else:
        c2.code(after or "∅", language=None, wrap_lines=True)
        (st.warning if after != before else st.caption)(
            t("output_changed") if after != before else t("output_same"))
    return ablate


def accuracy_help(task: str | None) -> str:
    """What the pronoun accuracy of a model of `task` counts: held-out generated sentences with
    the pronoun at the reference's position (anaphora), or hand-written sentences whose
    translation shows the reference's gender anywhere, possessives included (classroom)."""
    return t("acc_help_anaphora" if task == "anaphora" else
             "acc_help_probe" if task in PRONOUN_TASKS else "acc_help")


def accuracy(path, task: str | None, ablate: tuple[str, ...]) -> None:
    """Pronoun accuracy on the probe without and with the chosen heads, and the flipped items."""
    st.markdown(f"**{t('acc_title')}**", help=accuracy_help(task))
    if task not in PRONOUN_TASKS:
        st.caption(t("acc_not_anaphora", task=task or "?", tasks=", ".join(PRONOUN_TASKS)))
        st.stop()
    if task == "anaphora":
        acc_n = st.slider(t("acc_n"), 20, 500, inspect_cache.PROBE_N, step=10, key="heads_acc_n",
                          help=t("acc_n_help"))
    else:  # the hand-written caption probe, whole, as the model card measures it
        acc_n = len(task_probe(task))
        st.caption(t("acc_probe_pairs" if task == "everyday" else "acc_probe_file", n=acc_n))
    base = inspect_cache.pronoun_accuracy(path, acc_n)
    m1, m2 = st.columns(2)
    m1.metric(t("acc_without"), f"{base.accuracy:.0%}" if base.accuracy is not None else "–")
    if not ablate:
        m2.caption(t("no_ablation"))
        st.stop()
    if not quota.gate("ablate.all", key=(path, acc_n, tuple(sorted(ablate)))):
        st.stop()
    abl = inspect_cache.pronoun_accuracy(path, acc_n, ablate)
    delta = (None if abl.accuracy is None or base.accuracy is None
             else t("acc_delta", d=100 * (abl.accuracy - base.accuracy)))
    m2.metric(t("acc_with"), f"{abl.accuracy:.0%}" if abl.accuracy is not None else "–",
              delta=delta)
    items = task_probe(task, acc_n)
    flips = [(it.text, b, a) for it, b, a, hb, ha in zip(items, base.hypotheses, abl.hypotheses,
                                                         base.hits, abl.hits) if hb != ha]
    if flips:
        with st.expander(t("flipped", n=len(flips))):
            st.dataframe(pd.DataFrame(flips[:50], columns=[t("col_src"), t("col_before"),
                                                           t("col_after")]), hide_index=True)
