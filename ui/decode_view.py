"""The Decode page's sections: the sentence and the decoding method with its settings (`inputs`),
the decoding itself (`decode`), the output with the beam score and the search tree (`output`),
step by step: the next-token table, top-k, self- and cross-attention (`steps`), and teacher forcing
versus free generation (`teacher_forcing`). Computations in ui/decode_compute.py, tables and figures
in viz/decode.py and viz/beam_tree.py. Widget keys are prefixed `decode_`."""
from __future__ import annotations

from collections import namedtuple

import numpy as np
import streamlit as st

from transformer.core.checkpoint import CheckpointError
from transformer.core.decode import check_coverage
from transformer.core.text import TextError, clean_text
from ui import choices
from ui import decode_compute as DC
from ui import i18n, page_kit
from ui import notes as notes_ui
from ui.serving import text_limits
from ui.serving import quota
from ui.strings import decode as strings
from viz import beam_tree as BT
from viz import decode as V

t = i18n.translator(strings)
MAX_CHARS = text_limits.SENTENCE_CHARS


def shown(tok):
    """`tok.display` with the piece that is only SentencePiece's space mark "▁" named "(space)":
    drawn as itself it is a blank bar, cell or node."""
    space = t("space")
    return lambda ids: V.name_space(tok.display(ids), space)


def space_note(labels) -> None:
    """Say what "(space)" is, under a table or chart that shows it."""
    space = t("space")
    if any(space in str(x) for x in labels):
        st.caption(t("space_note", space=space))


# The decoding method and its settings, as the widgets hold them.
Method = namedtuple("Method", "name beam alpha temperature top_k seed shown_k coverage")


def _default_target(task: str | None, text: str, task_opts: dict) -> str:
    ref = V.task_reference(task, text, task_opts)
    return page_kit.EXAMPLE_TARGETS.get(text, "") if ref is None else ref


def source_text(train_config) -> str:
    """The sentence to decode, cleaned; stops the page when it is too long or empty."""
    choices.keep("decode_text", page_kit.example_text(train_config))
    text = st.text_input(t("text"), key="decode_text", help=t("text_help"), max_chars=MAX_CHARS)
    if len(text or "") > MAX_CHARS:
        st.warning(t("too_long", n=len(text), max=MAX_CHARS))
        st.stop()
    try:
        return clean_text(text, "source")
    except TextError:
        st.info(t("empty"))
        st.stop()


DEFAULTS = {"decode_beam": 4, "decode_alpha": 0.6, "decode_coverage": 0.0,
            "decode_temperature": 1.0, "decode_top_k": 0, "decode_seed": 0, "decode_shown_k": 10}


def _keep(*keys: str) -> None:
    """Keep these settings (ui/choices.py), right before their widgets are drawn: a value
    written for a widget this run does not draw would come back after a round trip to
    another page in place of what the widget last held."""
    for k in keys:
        choices.keep(k, DEFAULTS[k])


def method() -> Method:
    """The method's radio and its number inputs; stops the page on settings it refuses."""
    choices.keep("decode_method", V.METHODS[0], V.METHODS)
    name = st.radio(t("method"), V.METHODS, key="decode_method", horizontal=True,
                    format_func=lambda m, t=i18n.translator(strings, frozen=True): t(f"method_{m}"), help=t("method_help"))
    beam, alpha, temperature, top_k, seed, coverage = 4, 0.6, 1.0, 0, 0, 0.0  # when not shown
    c1, c2, c3, c4 = st.columns(4)
    if name == "beam":
        _keep("decode_beam", "decode_alpha", "decode_coverage")
        beam = c1.number_input(t("beam"), min_value=1, max_value=16, step=1,
                               key="decode_beam", help=t("beam_help"))
        alpha = c2.number_input(t("alpha"), min_value=0.0, max_value=3.0, step=0.1,
                                key="decode_alpha", help=t("alpha_help"))
        coverage = c3.number_input(t("coverage"), min_value=0.0, max_value=2.0, step=0.1,
                                   key="decode_coverage", help=t("coverage_help"))
    elif name == "sample":
        _keep("decode_temperature", "decode_top_k", "decode_seed")
        temperature = c1.number_input(t("temperature"), min_value=0.05, max_value=10.0,
                                      step=0.1, key="decode_temperature",
                                      help=t("temperature_help"))
        top_k = c2.number_input(t("top_k"), min_value=0, max_value=1000, step=1,
                                key="decode_top_k", help=t("top_k_help"))
        seed = c3.number_input(t("seed"), min_value=0, max_value=2**31 - 1, step=1,
                               key="decode_seed", help=t("seed_help"))
    box = c1 if name == "greedy" else c4
    _keep("decode_shown_k")
    shown_k = box.number_input(t("shown_k"), min_value=1, max_value=V.MAX_TOPK,
                               step=1, key="decode_shown_k", help=t("shown_k_help"))
    m = Method(name, beam, alpha, temperature, top_k, seed, shown_k, coverage)
    problems = V.validate(m.name, beam=m.beam, alpha=m.alpha, temperature=m.temperature,
                          top_k=m.top_k, shown_k=m.shown_k) + _coverage_problems(m)
    if problems:
        for key, fmt in problems:
            st.warning(t(key, **fmt))
        st.stop()
    return m


def _coverage_problems(m: Method) -> list[tuple[str, dict]]:
    """The coverage penalty's beta, as V.validate reports the other settings (a link or a stale
    session state might set what the widget bounds)."""
    try:
        check_coverage(m.coverage)
    except ValueError:
        return [("bad_coverage", {"v": m.coverage})]
    return []


def decode(path, text: str, m: Method) -> dict:
    """The decoding (a wide beam behind the quota gate); stops the page on what it refuses."""
    beam = int(m.beam) if m.name == "beam" else 1  # a costly decode: wide, or long (#22 F)
    if quota.wide_beam(beam, text) and not quota.gate(
            "decode.wide_beam", key=(path, text, m.name, beam, float(m.alpha),
                                     float(m.temperature), int(m.top_k), int(m.seed),
                                     float(m.coverage))):
        st.stop()
    try:
        res = DC.decode(path, text, m.name, int(m.beam), float(m.alpha), float(m.temperature),
                        int(m.top_k), int(m.seed), float(m.coverage))
    except (TextError, ValueError) as e:
        st.info(t("bad_text", reason=str(e)))
        st.stop()
    except CheckpointError as e:
        st.info(t("load_failed", reason=str(e)))
        st.stop()
    notes_ui.warn(res["notes"])
    return res


def output(path, text: str, m: Method, res: dict, tok) -> None:
    """What the model wrote, how it ended, and for a beam its score and search tree."""
    tokens, finished = res["tokens"], res["finished"]
    st.subheader(t("output"))
    st.code(tok.decode(tokens) or t("output_empty"), language=None, wrap_lines=True)
    how = t("ended_eos") if finished else t("ended_len", n=res["max_len"])
    st.caption(t("output_caption", n=len(tokens), how=how))
    if m.name == "beam":
        _beam_score(res, m)
        g = DC.decode(path, text, "greedy", 1, 0.0, 1.0, 0, 0, 0.0)
        st.caption(t("beam_vs_greedy", out=tok.decode(g["tokens"]) or "∅", logp=g["score"]))
        _beam_tree(res, m, tok)
    else:
        st.caption(t("logp", v=res["score"]))
    if m.name == "sample":
        st.caption(t("sample_note", temp=m.temperature, k=m.top_k, seed=m.seed))


LP_TEX = r"lp(Y) = \left(\frac{5 + |Y|}{6}\right)^{\alpha}"
CP_TEX = (r"cp(X; Y) = \beta \sum_{i} \log\Big(\min\big(\textstyle\sum_{j} p_{ij},\ 1"
          r"\big)\Big)")


def _beam_score(res: dict, m: Method) -> None:
    """How the returned hypothesis was ranked: the formula (with the coverage penalty when
    beta > 0) and its numbers."""
    beta, finished = float(m.coverage), res["finished"]
    parts = V.beam_score_parts(len(res["tokens"]), res["score"] - res["cp"], float(m.alpha),
                               finished)
    eos_note = "" if finished else t("beam_no_eos")
    st.markdown(f"**{t('beam_score')}**")
    if not beta:
        st.write(t("beam_formula"))
        st.latex(r"\mathrm{score}(Y) = \frac{\log P(Y \mid X)}{lp(Y)}, \qquad " + LP_TEX)
        st.markdown(t("beam_numbers", raw=parts["raw"], length=parts["length"], alpha=m.alpha,
                      lp=parts["lp"], score=parts["normalised"], eos_note=eos_note))
        return
    st.write(t("beam_formula_cp"))
    st.latex(r"\mathrm{score}(Y) = \frac{\log P(Y \mid X)}{lp(Y)} + cp(X; Y), \qquad "
             + LP_TEX + r", \qquad " + CP_TEX)
    st.markdown(t("beam_numbers_cp", raw=parts["raw"], length=parts["length"], alpha=m.alpha,
                  lp=parts["lp"], cp=res["cp"], beta=beta, score=res["score"],
                  eos_note=eos_note))


def _finished(tree, res: dict, tok, beta: float):
    """The finished hypotheses' table (viz/beam_tree.py); with the coverage penalty, each one's
    cp and score = log P / lp + cp beside it, ranked by that."""
    cols = ("hyp", "length", "logp", "lp", "score", "chosen")
    names = {k: t(f"tree_col_{k}") for k in cols}
    if beta:
        names["score"] = t("tree_col_lp_score")
    fin = BT.finished_table(tree, tok.decode, columns=names)
    numbers = [names[k] for k in ("logp", "lp", "score")]
    if beta:
        ids = [n.id for n in tree.finished()]  # the table's rows, in its order
        cp, total = t("tree_col_cp"), t("tree_col_total")
        fin.insert(len(fin.columns) - 1, cp, [res["cps"][i] for i in ids])
        fin.insert(len(fin.columns) - 1, total, fin[names["score"]] + fin[cp])
        fin = fin.sort_values(total, ascending=False, kind="stable").reset_index(drop=True)
        numbers += [cp, total]
    st.dataframe(fin, hide_index=True, key="decode_beam_finished", column_config={
        c: st.column_config.NumberColumn(format="%.4f") for c in numbers})
    st.caption(t("tree_finished_caption_cp" if beta else "tree_finished_caption"))


def _beam_tree(res: dict, m: Method, tok) -> None:
    """The search tree, a window of steps at a time (fewer, larger, in the enlarged view, which
    a projector can read from the back of a room), and the finished hypotheses."""
    tree, beta = res["tree"], float(m.coverage)
    st.markdown(f"**{t('tree')}**")
    st.caption(t("tree_intro", beam=int(m.beam), k=2 * int(m.beam)))
    big = st.toggle(t("tree_big"), key="decode_tree_big",
                    help=t("tree_big_help", big=BT.BIG_WINDOW, normal=BT.WINDOW))
    wins = BT.windows(tree, BT.BIG_WINDOW if big else BT.WINDOW)
    page_kit.clamp_state("decode_tree_window", len(wins))
    win = 0
    if len(wins) > 1:
        win = st.select_slider(t("tree_window"), options=list(range(len(wins))),
                               key="decode_tree_window", help=t("tree_window_help"),
                               format_func=lambda i, t=i18n.translator(strings, frozen=True): t("tree_window_fmt", a=wins[i][0],
                                                       b=wins[i][1]))
    display = shown(tok)
    labels = {k: t(f"tree_{k}") for k in ("title", "x", "root", "kept", "pruned", "finished",
                                          "eos_pruned", "best", "logp", "score", "token_logp",
                                          "rank", "key")}
    if beta:  # the nodes' score is log P / lp; cp counts only in the final ranking
        labels.update(best=t("tree_best_cp"), score=t("tree_score_no_cp"), key=t("tree_key_cp"))
    st.plotly_chart(BT.figure(tree, display, steps=wins[win], big=big, labels=labels),
                    key="decode_beam_tree", config={"displayModeBar": True, "scrollZoom": False})
    st.caption(t("tree_caption") + (" " + t("tree_cp_note", beta=beta) if beta else "") + " "
               + t("tree_zoom"))
    a, b = wins[win]
    space_note(display([n.token for n in tree.nodes if n.token is not None and a <= n.step <= b]))
    _finished(tree, res, tok, beta)


def steps(m: Method, res: dict, tok, cfg) -> list[int]:
    """Step by step: the table of chosen tokens, then one step's top-k and attention. The
    output's ids (with EOS when it ended); stops the page when there is no step."""
    display, tokens = shown(tok), res["tokens"]
    st.subheader(t("steps"))
    tr = res["trace"]
    logits = tr["logits"][0]  # (T,V), T = len(tokens) + 1
    out_ids = tokens + ([cfg.eos_id] if res["finished"] else [])
    if not out_ids:
        st.info(t("no_steps"))
        st.stop()
    table = V.steps_table(logits, out_ids, display)
    st.dataframe(table.rename(columns={"step": t("col_step"), "token": t("col_token"),
                                       "p": t("col_p"), "rank": t("col_rank"),
                                       "runners_up": t("col_runners")}),
                 hide_index=True, column_config={t("col_p"): st.column_config.NumberColumn(
                     format="%.3f")}, key="decode_steps_table")
    st.caption(t("steps_help"))
    space_note(list(table["token"]) + list(table["runners_up"]))

    n_steps = len(out_ids)
    page_kit.clamp_state("decode_step", n_steps)
    if n_steps > 1:
        step = st.slider(t("step"), 0, n_steps - 1, key="decode_step", help=t("step_help"))
    else:
        step = 0
    prefix_ids = [cfg.bos_id] + tokens[:step]
    st.markdown(t("prefix", prefix=" ".join(f"`{w}`" for w in display(prefix_ids)),
                  token=display([out_ids[step]])[0]))

    n_lay = V.n_decoder_layers(tr)
    heads = [t("head_n", n=h) for h in range(cfg.n_heads)] + [t("mean_heads")]
    left, right = st.columns(2)
    with left:
        top = V.topk_table(logits[step], display, m.shown_k, chosen=out_ids[step])
        st.plotly_chart(V.topk_figure(top, title=t("topk_title", t=step, k=len(top)),
                                      x_title=t("topk_x"), rank_word=t("rank_word")),
                        key="decode_topk")
        st.caption(t("topk_caption", s=float(top["p"].sum()), rest=cfg.vocab_size - len(top)))
        space_note(top["token"])
        if m.name == "sample":
            sp = V.sampling_probs(logits[step], float(m.temperature), int(m.top_k))
            stop = V.topk_table(logits[step], display, m.shown_k, chosen=out_ids[step], probs=sp)
            st.plotly_chart(V.topk_figure(stop, title=t("sample_title", t=step,
                                                        temp=m.temperature, k=m.top_k),
                                          x_title=t("topk_x"), rank_word=t("rank_word")),
                            key="decode_topk_sample")
            st.caption(t("sample_caption"))
    with right:
        page_kit.clamp_state("decode_layer", n_lay, n_lay - 1)
        layer = st.selectbox(t("layer"), range(n_lay), key="decode_layer", help=t("layer_help"))
        selfw = V.step_attention(tr, "decoder_self", layer, step)
        st.plotly_chart(V.heads_keys_figure(
            np.vstack([selfw, selfw.mean(0)]), heads, display(prefix_ids),
            title=t("self_title", t=step, l=layer), x_title=t("keys_tgt"),
            y_title=t("heads_axis"), max_text=12), key="decode_self")
        st.caption(t("self_caption"))
    cross = V.step_attention(tr, "cross", layer, step)
    st.plotly_chart(V.heads_keys_figure(
        np.vstack([cross, cross.mean(0)]), heads, display(res["src"]),
        title=t("cross_title", t=step, l=layer), x_title=t("keys_src"),
        y_title=t("heads_axis")), key="decode_cross")
    st.caption(t("cross_caption"))
    return out_ids


def teacher_forcing(path, text: str, m: Method, out_ids: list[int], ck) -> None:
    """The model fed the reference (or the user's target) versus what it wrote freely."""
    display, cfg = shown(ck.tokenizer), ck.model_config
    st.subheader(t("tf"))
    st.caption(t("tf_intro"))
    if "decode_target" not in st.session_state or st.session_state.get("decode_target_for") != text:
        if not st.session_state.get("decode_target_edited"):
            task = (ck.train_config or {}).get("task")
            st.session_state["decode_target"] = _default_target(task, text,
                                                             V.task_options(ck.train_config))
        st.session_state["decode_target_for"] = text
    target = st.text_input(t("target"), key="decode_target", help=t("target_help"),
                           max_chars=MAX_CHARS,
                           on_change=lambda: st.session_state.update(decode_target_edited=True))
    text_limits.stop_if_too_long(target)
    if not target or not target.strip():
        st.info(t("target_empty"))
        st.stop()
    try:
        forced = DC.forced(path, text, clean_text(target, "target"))
    except (TextError, ValueError) as e:
        st.info(t("bad_text", reason=str(e)))
        st.stop()
    notes_ui.warn(forced["notes"])
    tf = V.teacher_forcing_table(forced["logits"], forced["pieces"] + [cfg.eos_id], out_ids,
                                 display)
    div = V.first_divergence(tf)
    n_t = int((tf["target"] != "").sum())
    st.markdown(t("tf_summary", ok=int(tf["tf_ok"].sum()), n=n_t,
                  free=t("tf_same") if div is None else t("tf_diverges", p=div)))
    st.caption(t("free_method", method=t(f"method_{m.name}")))
    st.plotly_chart(V.teacher_forcing_figure(tf, title=t("tf_fig_title"), y_title=t("tf_y"),
                                             ok_name=t("tf_ok_name"), bad_name=t("tf_bad_name"),
                                             free_name=t("tf_free_name"), top_word=t("top_word"),
                                             wrote_word=t("wrote_word")), key="decode_tf_fig")
    names = {c: t(f"col_{c}") for c in tf.columns}
    st.dataframe(V.highlight_rows(tf, names), hide_index=True, key="decode_tf_table")
    st.caption(t("tf_table_caption"))
