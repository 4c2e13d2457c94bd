"""The Attention page's contributions section (transformer/probing/contributions.py): every output
word traced to the source words with ALTI+, which reads the model's vectors (residual and
LayerNorm included) and agrees with removing words better than rollout does; each output word's
share from the source; and the dropped-word alarm (transformer/probing/dropped.py) at its measured
operating point. Drawn by ui/flow_view.py before rollout. Keys prefixed `attention_contrib`."""
from __future__ import annotations

import streamlit as st

from transformer.probing import contributions as CB
from transformer.probing import dropped as D
from ui import i18n, model_words, models
from ui.inspect_cache import per_checkpoint
from ui.strings import flow as strings
from viz import flow as F
from viz.tokens import escape_markdown as esc

t = i18n.translator(strings)
# ALTI+ splits every encoder block into one vector per (query, key) pair: its cost grows with the
# square of the source (0.03 s at 11 pieces, 1.2 s at 238, 11 s at 512 on one core), so a pasted
# paragraph would hold a class's server for seconds. Up to this many source pieces it runs on every
# sentence; beyond, when asked (a toggle that says what it costs).
LONG_SOURCE = 128
SECONDS_PER_PIECE2 = 11.0 / 512 ** 2  # measured on one core of the project's CPU (see above)


def runs_unasked(n_source: int) -> bool:
    """Whether a source of N_SOURCE pieces gets its contributions without a click."""
    return n_source <= LONG_SOURCE


def estimated_seconds(n_source: int) -> float:
    """About how long ALTI+ takes for N_SOURCE source pieces on one core (for the toggle's note)."""
    return SECONDS_PER_PIECE2 * n_source ** 2


@per_checkpoint
def _contributions(ck, src_ids: tuple, tgt_ids: tuple) -> CB.Contributions:
    return models.run_inference(CB.contributions, ck.model, list(src_ids), list(tgt_ids),
                                D.METHOD)


def section(ins, ck, cell_text: bool = True) -> None:
    t = model_words.translator(strings, ck.train_config)  # symbols, for a copy / reverse model
    tok = ck.tokenizer
    pieces = ins.tgt_ids[1:]
    if not pieces:
        return
    st.subheader(t("contrib_title"))
    a = CB.AGREEMENT
    st.caption(t("contrib_intro", rho=a[D.METHOD], rollout=a["rollout"], n=a["sentences"]))
    n_src = len(ins.src_ids)
    if not runs_unasked(n_src) and not st.toggle(
            t("contrib_long", n=n_src, limit=LONG_SOURCE,
              seconds=max(1, round(estimated_seconds(n_src)))), key="attention_contrib_long"):
        st.caption(t("contrib_long_off", limit=LONG_SOURCE))
        return
    c = _contributions(models.current_path(), tuple(ins.src_ids), tuple(ins.tgt_ids))
    src_groups, src_words = tok.words(ins.src_ids), tok.word_strings(ins.src_ids)
    out_groups, out_words = tok.words(pieces), tok.word_strings(pieces)
    m = F.word_flow(c.to_source[: len(pieces)], out_groups, src_groups)  # (Wo, Ws), rows sum to 1
    st.plotly_chart(F.flow_figure(m, out_words, src_words, title=t("contrib_heat_title"),
                                  x_title=t("x"), y_title=t("y"), cell_text=cell_text),
                    key="attention_contrib_heat")
    shares = [float(c.source_share[list(g)].mean()) for g in out_groups]
    st.plotly_chart(F.share_figure(out_words, shares, title=t("contrib_share_title"),
                                   y_title=t("contrib_share_y"), name=t("contrib_share_name")),
                    key="attention_contrib_share")
    st.caption(t("contrib_share_help", rollout=1 - 0.5 ** ck.model.cfg.n_decoder_layers))
    if ins.teacher_forced or model_words.is_symbols(ck.train_config):
        return  # the alarm was measured on the default model's own English -> German outputs
    al = D.alarm(ck.model, tok, ins.src_ids, ins.tgt_ids, c=c)
    r = D.MEASURED
    if D.THRESHOLD is not None:
        marked = [esc(al.src_words[i]) for i in al.dropped]
        if marked:
            st.warning(t("contrib_dropped", words=", ".join(marked), **r))
        else:
            st.caption(t("contrib_none_dropped", **r))
    little = [esc(al.out_words[i]) for i in al.little_source]
    if little:
        st.caption(t("contrib_little", words=", ".join(little), share=D.LITTLE_SOURCE))
    st.caption(t("contrib_certainty", **r))
