"""Attention: where one word looks (the head view on one token, one or a few heads), that head
enlarged, every layer x head on demand (a toggle: the grid is built and drawn only when asked). Opens where the lesson is: encoder self-attention, words
(subword pieces merged), the pronoun's row when the sentence has one. A checkpoint without a
featured head opens on its clearest head (transformer.probing.atlas.clearest_head; cross-attention for
the copy / reverse / sort tasks, whose lesson is the alignment), not on layer 0, head 0.
Query parameters: ?kind=cross&layer=1&head=2&text=...&target=... open a given head."""
from ui.deeplink import ensure_app; ensure_app()  # a direct deep link runs app.py (ui/deeplink.py)
import json
import zlib

import numpy as np
import pandas as pd
import streamlit as st
import torch

from transformer.probing import atlas as A
from transformer.probing import heads as H
from transformer.probing.probe_items import PRONOUN_TASKS
from transformer.probing.inspect import to_json
from transformer.core.names import KINDS
from ui import flow_view, gc_tuning, i18n, inspect_cache, models
from ui.strings import attention as strings
from viz import attention as figs
from viz import heads as VH
from viz import tokens as tv
from viz.step import n_layers

t = i18n.translator(strings)

st.title(t("title"))
st.caption(t("intro"))

ck = models.required(t("no_checkpoint"))
cfg, tok = ck.model_config, ck.tokenizer
path = models.current_path()

inspect_cache.apply_query_params("att")
# the checkpoint's featured head opens first (once per checkpoint), unless a link names a head
featured = inspect_cache.apply_featured_head("att", path, ck.history)
if st.session_state.get("att_kind") not in KINDS:
    st.session_state["att_kind"] = "encoder_self"
st.session_state.setdefault("att_merge", True)  # words, not pieces, unless asked
# a checkpoint without a featured head, opened for the first time and not by a link that names a
# head, opens on its clearest head (chosen below, once the sentence's weights are known)
SYMBOL_TASKS = ("copy", "reverse", "sort")
fresh = (featured is None and st.session_state.get("att_clearest_for") != path
         and st.query_params.get("kind") is None and st.query_params.get("head") is None)
if fresh and (ck.train_config or {}).get("task") in SYMBOL_TASKS:
    st.session_state["att_kind"] = "cross"  # copying or reversing is seen in the alignment
ins = inspect_cache.sentence_inputs("att", t, ck)

# -- output ------------------------------------------------------------------------------------
st.subheader(t("output"))
st.caption(t("output_forced") if ins.teacher_forced else t("output_greedy"))
st.code(ins.output or t("output_empty"), language=None, wrap_lines=True)
st.caption(t("tokens", n=len(ins.src_ids), m=len(ins.tgt_ids)))

# -- controls ----------------------------------------------------------------------------------
kind_names = {k: t(f"kind_{k}") for k in KINDS}  # format_funcs read no state (AppTest calls them)
kind = st.radio(t("kind"), KINDS, key="att_kind", horizontal=True, help=t("kind_help"),
                format_func=kind_names.get)
c1, c2 = st.columns(2)
merge = c1.toggle(t("merge"), key="att_merge", help=t("merge_help"))
hide = c2.toggle(t("hide"), key="att_hide", help=t("hide_help"))

n_lay, n_heads = n_layers(ins, kind), cfg.n_heads
stack = np.stack([ins.weights(kind, layer).numpy() for layer in range(n_lay)])  # (L,H,Q,K)
q_ids, k_ids = ((ins.src_ids, ins.src_ids) if kind == "encoder_self" else
                (ins.tgt_ids, ins.tgt_ids) if kind == "decoder_self" else (ins.tgt_ids, ins.src_ids))
q_tokens, k_tokens = ins.queries_keys(kind)
v = tv.view(stack, q_tokens, k_tokens, merge=merge, hide=hide,
            q_groups=tok.words(q_ids) if merge else None,
            k_groups=tok.words(k_ids) if merge else None,
            q_words=tok.word_strings(q_ids) if merge else None,
            k_words=tok.word_strings(k_ids) if merge else None,
            q_special=[tok.is_special(i) for i in q_ids],
            k_special=[tok.is_special(i) for i in k_ids],
            # decoder side: the word before a German pronoun keeps the row that writes it
            last_piece_rows=(tv.pronoun_writers(tok.word_strings(q_ids))
                             if merge and kind != "encoder_self" else ()))
if merge:
    st.caption(t("merge_on"))
if hide:
    st.caption(t("hide_on"))

inspect_cache.clamp_state("att_layer", n_lay)
inspect_cache.clamp_state("att_head", n_heads)
if fresh and stack.size:
    best = A.clearest_head(torch.from_numpy(stack), kind, q_tokens, k_tokens,
                           [tok.is_special(i) for i in q_ids], [tok.is_special(i) for i in k_ids])
    st.session_state["att_layer"], st.session_state["att_head"] = best.layer, best.head
    st.session_state["att_clearest"] = {"path": path, "kind": kind, "layer": best.layer,
                                        "head": best.head, "behaviour": best.behaviour,
                                        "share": best.score, "first": float(best.scores[0, 0])}
if featured is None:
    st.session_state["att_clearest_for"] = path

# -- the checkpoint's featured head (the paper's Figure 4, and where this model has it) --------
if featured:
    fk, fl, fh = featured["kind"], featured["layer"], featured["head"]
    label = VH.head_label(fk, fl, fh)
    with st.container(border=True):
        st.markdown(f"🎯 **{t('featured_title', head=label)}**")
        if fk == "encoder_self":
            st.write(t("featured_fig4_same", l=fl, h=fh, n=cfg.n_encoder_layers))
        else:
            st.write(t("featured_fig4", kind=kind_names[fk], l=fl, h=fh))
        note = featured.get(i18n.lang()) or featured.get("en")
        if note:
            st.write(note)
        if (ck.train_config or {}).get("task") in PRONOUN_TASKS and fl < (
                cfg.n_encoder_layers if fk == "encoder_self" else cfg.n_decoder_layers):
            on = inspect_cache.pronoun_accuracy(path)
            off = inspect_cache.pronoun_accuracy(path, ablate=(label,))
            if on.accuracy is not None and off.accuracy is not None:
                probe = "probe_anaphora" if ck.train_config.get("task") == "anaphora" else "probe_classroom"
                st.write(t("featured_ablation", n=on.n_scored, on=on.accuracy, off=off.accuracy,
                           probe=t(probe)))
        if (kind, st.session_state.get("att_layer", 0),
                st.session_state.get("att_head", 0)) == (fk, fl, fh):
            st.success(t("featured_here"), icon="🎯")
        else:
            st.button(t("featured_open"), key="att_open_featured", icon="🎯",
                      on_click=lambda: st.session_state.update(att_kind=fk, att_layer=fl,
                                                               att_head=fh))

# -- head view: one word, one head (or a few) --------------------------------------------------
st.subheader(t("view_title"))
st.caption(t("view_help"))
c1, c2 = st.columns(2)
layer = c1.selectbox(t("layer"), range(n_lay), key="att_layer")
head = c2.selectbox(t("head"), range(n_heads), key="att_head")
head_names = [t("head_n", n=h) for h in range(n_heads)]
opened = st.session_state.get("att_clearest") or {}
if opened.get("path") == path and (opened["kind"], opened["layer"], opened["head"]) == (kind, layer, head):
    what = f"clearest_{opened['behaviour']}" + (
        "_cross" if kind == "cross" and opened["behaviour"] == "diagonal" else "")
    st.caption(t("clearest", l=layer, h=head, kind=kind_names[kind], n=n_lay * n_heads,
                 what=t(what, share=opened["share"]))
               + (t("clearest_first", first=opened["first"]) if (layer, head) != (0, 0) else ""))
m = v.matrix[layer, head]
if m.size:
    lesson = tv.lesson_query(v.q_labels, kind, v.q_special)
    options = [-1] + list(range(len(v.q_labels)))
    pill_names = {-1: t("all_tokens"),
                  **{i: tv.escape_markdown(f"{i} {q}") for i, q in enumerate(v.q_labels)}}
    sig = zlib.crc32("\x1f".join(v.q_labels).encode("utf-8", "replace"))
    if len(options) <= tv.MAX_TOKEN_BUTTONS + 1:
        choice = st.pills(t("choose_token"), options, key=f"att_hv_{kind}_{merge}_{hide}_{sig}",
                          format_func=pill_names.get, default=lesson)
    else:  # a long text: a list stays readable where hundreds of buttons would not
        choice = st.selectbox(t("choose_token"), options, index=options.index(lesson),
                              key=f"att_hv_list_{kind}_{merge}_{hide}_{sig}",
                              format_func=pill_names.get)
        st.caption(t("many_tokens", n=len(v.q_labels)))
    shown = st.pills(t("heads_shown"), list(range(n_heads)), selection_mode="multi",
                     key=f"att_hv_heads_{kind}_{layer}_{head}", default=[head],
                     format_func=head_names.__getitem__, help=t("heads_shown_help"))
    if choice == lesson and kind == "encoder_self" and tv.is_pronoun_en(v.q_labels[lesson]):
        st.caption(t("lesson_enc", word=v.q_labels[lesson]))
    elif (choice == lesson and kind != "encoder_self" and lesson + 1 < len(v.q_labels)
          and tv.is_pronoun_de(v.q_labels[lesson + 1])):
        st.caption(t("lesson_dec", word=v.q_labels[lesson], pronoun=v.q_labels[lesson + 1]))
    st.plotly_chart(figs.head_view(
        v.matrix[layer], v.q_labels, v.k_labels, heads=sorted(shown or [head]),
        head_names=head_names, selected=None if choice in (None, -1) else choice,
        left_title=t("left_col"), right_title=t("right_col")), key="att_head_view")

# -- one head enlarged -------------------------------------------------------------------------
st.subheader(t("enlarged"))
c1, c2 = st.columns(2)
show_avg = c1.checkbox(t("average"), key="att_avg", help=t("average_help"))
# the weights written in the cells, when asked (hover shows each; a browser measures every text)
numbers = c2.toggle(t("cell_numbers"), key="att_cell_numbers", help=t("cell_numbers_help"))
if m.size:
    st.plotly_chart(figs.heatmap(m, v.q_labels, v.k_labels,
                                 title=t("heat_title", kind=kind_names[kind], l=layer, h=head),
                                 x_title=t("keys"), y_title=t("queries"), cell_text=numbers),
                    key="att_heatmap")
    sums = m.sum(-1)
    empty_rows = int((sums == 0).sum())
    dev = float(np.abs(sums[sums > 0] - 1).max()) if (sums > 0).any() else 0.0
    st.caption(t("row_check", dev=dev) + (" " + t("row_check_masked", n=empty_rows)
                                          if empty_rows else ""))
if show_avg and m.size:
    st.plotly_chart(figs.heatmap(figs.head_average(v.matrix[layer]), v.q_labels, v.k_labels,
                                 title=t("avg_title", n=n_heads, l=layer),
                                 x_title=t("keys"), y_title=t("queries"), cell_text=numbers),
                    key="att_avg_heatmap")

# -- model view, on demand: built and drawn only when asked (an expander's content is sent and
# drawn even while it is closed, and this grid was most of the page's drawing time) -------------
if st.toggle(t("model_view_open"), key="att_model_view_on"):
    st.caption(t("model_view_help"))
    if v.matrix.shape[-1] and v.matrix.shape[-2]:
        st.plotly_chart(figs.model_view(
            v.matrix, v.q_labels, v.k_labels,
            row_titles=[t("layer_n", n=layer) for layer in range(n_lay)],
            col_titles=head_names), key="att_model_view")

# -- attention rollout: the whole sentence, every layer and kind, beside a causal test ---------
flow_view.section(ins, ck, cell_text=numbers)

# -- downloads ---------------------------------------------------------------------------------
st.subheader(t("downloads"))
c1, c2 = st.columns(2)
frame = pd.DataFrame(m, index=[f"{i}: {q}" for i, q in enumerate(v.q_labels)],
                     columns=[f"{j}: {k}" for j, k in enumerate(v.k_labels)])
c1.download_button(t("csv"), frame.to_csv().encode("utf-8"), help=t("csv_help"),
                   file_name=f"attention_{kind}_L{layer}_H{head}.csv", mime="text/csv",
                   key="att_dl_csv")
c2.download_button(t("json"), lambda: json.dumps(
    {"checkpoint": str(ck.path), "d_model": cfg.d_model, "n_heads": cfg.n_heads,
     **to_json(ins)}, ensure_ascii=False), help=t("json_help"),
    file_name="attention_trace.json", mime="application/json", key="att_dl_json")
st.caption(t("png_hint"))

# the server's long-lived objects, once loaded, out of every later collection (ui/gc_tuning.py)
gc_tuning.freeze_once()
