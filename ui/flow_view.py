"""The Attention page's rollout section: every output word traced to the source words
(transformer/probing/rollout.py), and for one German word (the pronoun when there is one) rollout beside
the causal test. Keys prefixed `attention_flow`."""
from __future__ import annotations

import numpy as np
import streamlit as st

from transformer.probing import rollout as R
from ui import choices
from ui import contributions_view, i18n, model_words, models
from ui.inspect_cache import per_checkpoint
from ui.strings import flow as strings
from viz import flow as F
from viz import tokens as tv
from viz.tokens import escape_markdown as esc

t = i18n.translator(strings)
WORD = "attention_flow_word"  # the German word to test (its position in the output)


@per_checkpoint
def _drops(ck, src_ids: tuple, tgt_ids: tuple, position: int, groups: tuple) -> tuple:
    """Probability of the output piece at `position` + 1, and its drop per removed source word."""
    drops = models.run_inference(R.occlusion, ck.model, list(src_ids), list(tgt_ids), position,
                                 [list(g) for g in groups])
    return tuple(drops)


def section(ins, ck, cell_text: bool = True) -> None:
    """`cell_text`: the shares written in the picture's cells (the page's toggle)."""
    t = model_words.translator(strings, ck.train_config)  # symbols, for a copy / reverse model
    tok = ck.tokenizer
    pieces = ins.tgt_ids[1:]  # output pieces; decoder position j writes piece j
    contributions_view.section(ins, ck, cell_text)  # ALTI+ first: it agrees better with removal
    st.subheader(t("title"))
    st.caption(t("intro"))
    st.caption(t("honest"))
    if not pieces:
        st.info(t("no_output"))
        return
    r = R.rollout(ins)
    src_groups = tok.words(ins.src_ids)
    src_words = tok.word_strings(ins.src_ids)
    out_groups = tok.words(pieces)
    out_words = tok.word_strings(pieces)
    m = F.word_flow(r.to_source[: len(pieces)], out_groups, src_groups)  # (Wo, Ws)
    st.plotly_chart(F.flow_figure(m, out_words, src_words, title=t("heat_title"), x_title=t("x"),
                                  y_title=t("y"), cell_text=cell_text), key="attention_flow_heat")
    # the word to test: the German pronoun when there is one, else the first word
    special = [all(tok.is_special(pieces[i]) for i in g) for g in out_groups]
    options = [i for i, s in enumerate(special) if not s]
    if not options:
        return
    # the causal test runs the model once per source word: asked for, not on every sentence typed
    if not st.toggle(t("check_toggle"), key="attention_flow_check_on", help=t("check_toggle_help")):
        return
    pron = next((i for i in options if tv.is_pronoun_de(out_words[i])), options[0])
    # the word follows the output: a new output keeps the word chosen where it still writes it,
    # else opens on its pronoun (the list's labels are the output's words: sent again when new)
    labels = tuple(f"{i} {out_words[i]}" for i in options)
    if st.session_state.get(choices.LABELS + WORD) not in (None, labels):
        said = st.session_state.get(WORD + "_said")
        choices.remember(WORD, next((i for i in options if out_words[i] == said), pron))
    choices.keep(WORD, pron, options, labels=labels)
    w = st.selectbox(t("pick"), options, key=WORD, format_func=lambda i: f"{i} {out_words[i]}")
    st.session_state[WORD + "_said"] = out_words[w]
    position = out_groups[w][0]  # the decoder position that writes the word's first piece
    groups = tuple(tuple(g) for g in src_groups)
    drops = _drops(models.current_path(), tuple(ins.src_ids), tuple(ins.tgt_ids), position, groups)
    share = m[w]
    st.plotly_chart(F.check_figure(src_words, share, drops, share_name=t("share"),
                                   drop_name=t("drop"), title=t("check_title", word=out_words[w])),
                    key="attention_flow_check")
    st.caption(t("check_help", word=esc(out_words[w])))
    base = _probability(models.current_path(), tuple(ins.src_ids), tuple(ins.tgt_ids), position)
    o = int(np.argmax(drops))
    st.caption(t("agree", r=esc(src_words[int(np.argmax(share))]), o=esc(src_words[o]),
                 word=esc(out_words[w]), p=base, q=base - drops[o]))


@per_checkpoint
def _probability(ck, src_ids: tuple, tgt_ids: tuple, position: int) -> float:
    """The model's probability of the piece it wrote at `position` + 1, every word present."""
    import torch

    dev = next(ck.model.parameters()).device

    def run():
        with torch.inference_mode():
            logits = ck.model(torch.tensor([list(src_ids)], device=dev),
                              torch.tensor([list(tgt_ids)], device=dev))
        return float(torch.softmax(logits[0, position].double(), -1)[tgt_ids[position + 1]])

    return models.run_inference(run)
