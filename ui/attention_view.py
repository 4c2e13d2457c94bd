"""The Attention page's sections (pages/attention.py is the layout): where the page opens
(`open_view`: a link's head, the checkpoint's featured head, or its clearest head), the output
(`output`), the kind and what is shown (`controls`), the clearest head chosen (`clearest`), the
featured head's box (`featured_box`), the head view (`head_view`), one head enlarged (`enlarged`),
the model view (`model_view`) and the downloads (`downloads`). Figures in viz/attention.py and
viz/tokens.py. Widget keys are prefixed `attention_`."""
from __future__ import annotations

import json
import zlib

from typing import NamedTuple

import numpy as np
import pandas as pd
import streamlit as st
import torch

from transformer.probing import clearest as A
from transformer.probing import certainty as C
from transformer.probing.probe_items import PRONOUN_TASKS
from transformer.probing.inspect import to_json
from transformer.core.names import KINDS, attention_kind
from ui import choices, i18n, inspect_cache, page_kit
from ui import model_words, output_decoding, taught_note
from ui.strings import attention as strings
from viz import attention as figs
from viz import decode as viz_decode
from viz import heads as VH
from viz import tokens as tv
from viz.step import n_layers

t = i18n.translator(strings)
SYMBOL_TASKS = model_words.SYMBOL_TASKS


class Shown(NamedTuple):
    """What the controls chose and the weights they show."""
    kind: str
    merge: bool
    hide: bool
    n_lay: int
    n_heads: int
    stack: np.ndarray  # (L, H, Q, K)
    q_ids: list
    k_ids: list
    q_tokens: list
    k_tokens: list
    v: object  # viz.tokens.view
    kind_names: dict


def open_view(ck, path):
    """Where the page opens: a link's head, else the checkpoint's featured head (once per
    checkpoint), else (`fresh`) its clearest head; then the sentence boxes and the trace. Returns
    (trace, featured head or None, fresh)."""
    page_kit.apply_query_params("attention")
    # the checkpoint's featured head opens first (once per checkpoint), unless a link names a head
    featured = page_kit.apply_featured_head("attention", path, ck.history)
    choices.keep("attention_kind", "encoder_self", KINDS)
    choices.keep("attention_merge", True)  # words, not pieces, unless asked
    # a checkpoint without a featured head, opened for the first time and not by a link that names a
    # head, opens on its clearest head (chosen below, once the sentence's weights are known)
    fresh = (featured is None and st.session_state.get("attention_clearest_for") != path
             and st.query_params.get("kind") is None and st.query_params.get("head") is None)
    if fresh and (ck.train_config or {}).get("task") in SYMBOL_TASKS:
        choices.remember("attention_kind", "cross")  # copying or reversing is seen in the alignment
    ins = page_kit.sentence_inputs("attention", t, ck)
    return ins, featured, fresh


def output(ins, ck) -> None:
    st.subheader(t("output"))
    st.caption(t("output_forced") if ins.teacher_forced
               else output_decoding.caption(ins, "attention"))
    st.code(ins.output or t("output_empty"), language=None, wrap_lines=True)
    st.caption(t("tokens", n=len(ins.src_ids), m=len(ins.tgt_ids)))
    certainty(ins, ck)


def certainty(ins, ck) -> None:
    """How sure the model was of each word it wrote (transformer/probing/certainty.py), and a
    note when it guessed at several: a class should not read a guessed output's attention as
    the model's understanding."""
    ws = C.output_words(ins, ck.tokenizer)
    if not ws:
        return
    st.markdown(f"**{model_words.translator(strings, ck.train_config)('sure_title')}**")
    st.plotly_chart(viz_decode.certainty_figure(
        [w.text for w in ws], [w.prob for w in ws], unsure=C.UNSURE, sure=C.SURE,
        y_title=t("sure_y"), sure_name=t("sure_name", sure=C.SURE),
        middle_name=t("middle_name", unsure=C.UNSURE, sure=C.SURE),
        guess_name=t("guess_name", unsure=C.UNSURE)), key="attention_certainty")
    mean = C.geometric_mean([p for w in ws for p in w.pieces])
    st.caption(t("sure_caption", unsure=C.UNSURE, sure=C.SURE, mean=mean)
               + (" " + t("sure_forced") if ins.teacher_forced else ""))
    guessed = C.guesses(ws)
    if not ins.teacher_forced and len(guessed) >= C.UNSURE_WORDS:
        st.warning(t("sure_warning", n=len(guessed), m=len(ws),
                     words=", ".join(f"{tv.escape_markdown(w.text)} {w.prob:.2f}" for w in guessed)))


def controls(ins, ck) -> Shown:
    """The kind, words or pieces, special tokens hidden or not, and the weights they show."""
    cfg, tok = ck.model_config, ck.tokenizer
    kind_names = {k: t(f"kind_{k}") for k in KINDS}  # format_funcs read no state (AppTest calls them)
    choices.keep("attention_kind", "encoder_self", KINDS)
    kind = st.radio(t("kind"), KINDS, key="attention_kind", horizontal=True, help=t("kind_help"),
                    format_func=kind_names.get)
    c1, c2 = st.columns(2)
    choices.keep("attention_merge", True)
    choices.keep("attention_hide", False)
    merge = c1.toggle(t("merge"), key="attention_merge", help=t("merge_help"))
    hide = c2.toggle(t("hide"), key="attention_hide", help=t("hide_help"))

    # cross-attention rows named by the piece each position writes (the alignment
    # leaderboard's "writes", ui/align_view.py) instead of the piece it reads ("reads")
    writes = kind == "cross" and st.toggle(t("cross_writes"), key="attention_cross_writes",
                                           help=t("cross_writes_help"))
    n_lay, n_heads = n_layers(ins, kind), cfg.n_heads
    stack = np.stack([ins.weights(kind, layer).numpy() for layer in range(n_lay)])  # (L,H,Q,K)
    q_ids, k_ids = ins.query_key_ids(kind)
    q_tokens, k_tokens = ins.queries_keys(kind)
    if writes:  # row k writes output piece k: the labels move up one, the last row writes </s>
        q_ids = list(q_ids[1:]) + [cfg.eos_id]
        q_tokens = list(q_tokens[1:]) + tok.display([cfg.eos_id])
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
    if writes:
        st.caption(t("cross_writes_on"))
    return Shown(kind, merge, hide, n_lay, n_heads, stack, q_ids, k_ids, q_tokens, k_tokens, v, kind_names)


def clearest(sh: Shown, ck, path, featured, fresh: bool) -> None:
    """Layer and head kept in range; a fresh checkpoint opens on its clearest head."""
    kind, n_lay, n_heads, stack = sh.kind, sh.n_lay, sh.n_heads, sh.stack
    q_tokens, k_tokens, q_ids, k_ids, tok = sh.q_tokens, sh.k_tokens, sh.q_ids, sh.k_ids, ck.tokenizer
    page_kit.clamp_state("attention_layer", n_lay)
    page_kit.clamp_state("attention_head", n_heads)
    if fresh and stack.size:
        best = A.clearest_head(torch.from_numpy(stack), kind, q_tokens, k_tokens,
                               [tok.is_special(i) for i in q_ids], [tok.is_special(i) for i in k_ids])
        choices.remember("attention_layer", best.layer)
        choices.remember("attention_head", best.head)
        st.session_state["attention_clearest"] = {"path": path, "kind": kind, "layer": best.layer,
                                            "head": best.head, "behaviour": best.behaviour,
                                            "share": best.score, "first": float(best.scores[0, 0])}
    if featured is None:
        st.session_state["attention_clearest_for"] = path


def has_pronoun(ins) -> bool:
    """Whether the English sentence has a pronoun ("it", "its") for the pronoun head to resolve."""
    return any(tv.is_pronoun_en(tok.replace("\u2581", "")) for tok in ins.src_tokens)


def head_name(kind: str, layer: int, head: int, tr=None) -> str:
    """A head's label glossed in words: 'enc L2 H0 (encoder self-attention, layer 2, head 0)'."""
    tr = tr or t
    return tr("head_glossed", label=VH.head_label(kind, layer, head), kind=tr(f"kind_mid_{kind}"),
              l=layer, h=head)


def leans_more(measured: list[tuple[str, float]]) -> tuple[str, str] | None:
    """Of the heads measured (label, pronoun accuracy with that head off), the one whose switching
    off costs the most and the one that costs the least, when they differ; None for a tie."""
    if len(measured) < 2:
        return None
    most = min(measured, key=lambda m: m[1])
    least = max(measured, key=lambda m: m[1])
    if most[1] == least[1]:
        return None
    return most[0], least[0]


def featured_box(sh: Shown, ck, path, featured, ins=None) -> None:
    """The checkpoint's featured head: where this model has its pronoun head (the paper's Figure 4
    heads are in encoder self-attention, layer 5 of 6; a model's may be in the decoder). For a
    sentence with no pronoun, one line naming the head (the box's numbers and "You are looking at
    it" would describe a row the sentence does not have). A taught head says so (ui/taught_note).
    The box is titled for every head whose numbers it reports (the featured one and the other
    pronoun heads its card names), and each number names its head."""
    kind, kind_names, cfg = sh.kind, sh.kind_names, ck.model_config
    if not featured:
        return
    fk, fl, fh = featured["kind"], featured["layer"], featured["head"]
    label = VH.head_label(fk, fl, fh)
    others = page_kit.heads_in(page_kit.also_heads(featured), cfg)
    if ins is not None and not has_pronoun(ins):
        st.caption("🎯 " + t("featured_no_pronoun", head=head_name(fk, fl, fh)))
        return
    with st.container(border=True):
        title = (t("featured_title_also", head=head_name(fk, fl, fh), others=t("and").join(
            head_name(o.kind, o.layer, o.head) for o in others)) if others
            else t("featured_title", head=head_name(fk, fl, fh)))
        st.markdown(f"🎯 **{title}**")
        if fk == "encoder_self":
            st.write(t("featured_fig4_same", l=fl, h=fh,
                       n=attention_kind("encoder_self", cfg).n_layers))
        else:
            st.write(t("featured_fig4", kind=kind_names[fk], l=fl, h=fh))
        note = featured.get(i18n.lang()) or featured.get("en")
        if note:
            st.write(note)
        taught_note.show(ck, fk, fl, fh, key="attention_taught_control")
        if (ck.train_config or {}).get("task") in PRONOUN_TASKS and fl < attention_kind(
                fk, cfg).n_layers:
            on = inspect_cache.pronoun_accuracy(path)
            off = inspect_cache.pronoun_accuracy(path, ablate=(label,))
            if on.accuracy is not None and off.accuracy is not None:
                probe = "probe_anaphora" if ck.train_config.get("task") == "anaphora" else "probe_classroom"
                st.write(t("featured_ablation", head=label, n=on.n_scored, on=on.accuracy,
                           off=off.accuracy, probe=t(probe)))
                measured = [(label, off.accuracy)]
                for other in others:
                    off2 = inspect_cache.pronoun_accuracy(path, ablate=(other.label,))
                    if off2.accuracy is not None:
                        st.write(t("featured_ablation_also", head=other.label, on=on.accuracy,
                                   off=off2.accuracy))
                        measured.append((other.label, off2.accuracy))
                leans = leans_more(measured)
                if leans:
                    st.write(t("featured_leans", more=leans[0], less=leans[1]))
                elif len(measured) > 1:
                    st.write(t("featured_leans_tie"))
        if (kind, st.session_state.get("attention_layer", 0),
                st.session_state.get("attention_head", 0)) == (fk, fl, fh):
            st.success(t("featured_here", head=label), icon="🎯")
        else:
            st.button(t("featured_open", head=label), key="attention_open_featured", icon="🎯",
                      on_click=lambda: [choices.remember(k, v) for k, v in (
                          ("attention_kind", fk), ("attention_layer", fl), ("attention_head", fh))])


def head_view(sh: Shown, path):
    """One word, one head (or a few). Returns the layer and head chosen, their names and the
    head's weights."""
    kind, merge, hide, n_lay, n_heads, v, kind_names = (sh.kind, sh.merge, sh.hide, sh.n_lay, sh.n_heads,
                                                         sh.v, sh.kind_names)
    st.subheader(t("view_title"))
    st.caption(t("view_help"))
    c1, c2 = st.columns(2)
    choices.keep("attention_layer", 0, range(n_lay))
    choices.keep("attention_head", 0, range(n_heads))
    layer = c1.selectbox(t("layer"), range(n_lay), key="attention_layer")
    head = c2.selectbox(t("head"), range(n_heads), key="attention_head")
    head_names = [t("head_n", n=h) for h in range(n_heads)]
    opened = st.session_state.get("attention_clearest") or {}
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
            choice = st.pills(t("choose_token"), options, key=f"attention_hv_{kind}_{merge}_{hide}_{sig}",
                              format_func=pill_names.get, default=lesson)
        else:  # a long text: a list stays readable where hundreds of buttons would not
            choice = st.selectbox(t("choose_token"), options, index=options.index(lesson),
                                  key=f"attention_hv_list_{kind}_{merge}_{hide}_{sig}",
                                  format_func=pill_names.get)
            st.caption(t("many_tokens", n=len(v.q_labels)))
        shown = st.pills(t("heads_shown"), list(range(n_heads)), selection_mode="multi",
                         key=f"attention_hv_heads_{kind}_{layer}_{head}", default=[head],
                         format_func=head_names.__getitem__, help=t("heads_shown_help"))
        if choice == lesson and kind == "encoder_self" and tv.is_pronoun_en(v.q_labels[lesson]):
            st.caption(t("lesson_enc", word=v.q_labels[lesson]))
        elif (choice == lesson and kind != "encoder_self" and lesson + 1 < len(v.q_labels)
              and tv.is_pronoun_de(v.q_labels[lesson + 1])):
            st.caption(t("lesson_dec", word=v.q_labels[lesson], pronoun=v.q_labels[lesson + 1]))
        st.plotly_chart(figs.head_view(
            v.matrix[layer], v.q_labels, v.k_labels, heads=sorted(shown or [head]),
            head_names=head_names, selected=None if choice in (None, -1) else choice,
            left_title=t("left_col"), right_title=t("right_col")), key="attention_head_view")
    return layer, head, head_names, m


def enlarged(sh: Shown, layer: int, head: int, m) -> bool:
    """One head enlarged (and the average of the layer's heads, when asked). Returns whether the
    weights are written in the cells."""
    kind, n_heads, v, kind_names = sh.kind, sh.n_heads, sh.v, sh.kind_names
    st.subheader(t("enlarged"))
    c1, c2 = st.columns(2)
    show_avg = c1.checkbox(t("average"), key="attention_avg", help=t("average_help"))
    # the weights written in the cells, when asked (hover shows each; a browser measures every text)
    numbers = c2.toggle(t("cell_numbers"), key="attention_cell_numbers", help=t("cell_numbers_help"))
    if m.size:
        st.plotly_chart(figs.heatmap(m, v.q_labels, v.k_labels,
                                     title=t("heat_title", kind=kind_names[kind], l=layer, h=head),
                                     x_title=t("keys"), y_title=t("queries"), cell_text=numbers),
                        key="attention_heatmap")
        sums = m.sum(-1)
        empty_rows = int((sums == 0).sum())
        dev = float(np.abs(sums[sums > 0] - 1).max()) if (sums > 0).any() else 0.0
        st.caption(t("row_check", dev=dev) + (" " + t("row_check_masked", n=empty_rows)
                                              if empty_rows else ""))
    if show_avg and m.size:
        st.plotly_chart(figs.heatmap(figs.head_average(v.matrix[layer]), v.q_labels, v.k_labels,
                                     title=t("avg_title", n=n_heads, l=layer),
                                     x_title=t("keys"), y_title=t("queries"), cell_text=numbers),
                        key="attention_avg_heatmap")
    return numbers


def model_view(sh: Shown, head_names) -> None:
    """Every layer x head, on demand: built and drawn only when asked (an expander's content is
    sent and drawn even while it is closed, and this grid was most of the page's drawing time)."""
    n_lay, v = sh.n_lay, sh.v
    if st.toggle(t("model_view_open"), key="attention_model_view_on"):
        st.caption(t("model_view_help"))
        if v.matrix.shape[-1] and v.matrix.shape[-2]:
            st.plotly_chart(figs.model_view(
                v.matrix, v.q_labels, v.k_labels,
                row_titles=[t("layer_n", n=layer) for layer in range(n_lay)],
                col_titles=head_names), key="attention_model_view")


def downloads(sh: Shown, ins, ck, layer: int, head: int, m) -> None:
    kind, v, cfg = sh.kind, sh.v, ck.model_config
    st.subheader(t("downloads"))
    c1, c2 = st.columns(2)
    frame = pd.DataFrame(m, index=[f"{i}: {q}" for i, q in enumerate(v.q_labels)],
                         columns=[f"{j}: {k}" for j, k in enumerate(v.k_labels)])
    c1.download_button(t("csv"), frame.to_csv().encode("utf-8"), help=t("csv_help"),
                       file_name=f"attention_{kind}_L{layer}_H{head}.csv", mime="text/csv",
                       key="attention_dl_csv")
    c2.download_button(t("json"), lambda: json.dumps(
        {"checkpoint": str(ck.path), "d_model": cfg.d_model, "n_heads": cfg.n_heads,
         **to_json(ins)}, ensure_ascii=False), help=t("json_help"),
        file_name="attention_trace.json", mime="application/json", key="attention_dl_json")
    st.caption(t("png_hint"))
