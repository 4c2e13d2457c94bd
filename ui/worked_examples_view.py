"""The Worked examples page's sections (pages/worked-examples.py is the layout): the mode switch
(`mode`), the examples (`examples_tab`), the notes' statements (`statements_tab`) and free mode
(`free_tab`); their parts: one step, one check of another printed number, one statement, the
summary table, a CSV download; and the statements about another page's subject
(`page_statements`). Widget keys are prefixed `worked_examples_` (on another page, that page's
name)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from transformer.worked.examples import run_example, statements
from transformer.worked.graph import Step, WorkedResult
from ui import choices
from ui import i18n, page_kit
from ui import lesson_cache as LC
from ui import worked_text as WT
from ui.strings import worked_examples as strings
from viz import worked as V

t = i18n.translator(strings)
VERDICT_BAD = ("slip", "inherited", "assumed")


def download(df: pd.DataFrame, name: str, key: str, label: str | None = None) -> None:
    """A CSV download button for one table."""
    st.download_button(label or t("download"), V.csv_bytes(df), file_name=f"{name}.csv", mime="text/csv", key=key)


def step(n: int, step: Step, tokens, key: str, free: bool = False) -> None:
    """One step: its numbers, the notes' numbers beside them, why, the note, downloads. In free
    mode (`free`) there are no notes to compare with: a step is just "computed"."""
    label = WT.render(step.label, i18n.lang())
    if free and step.verdict == "computed":
        verdict = t("verdict_free")
    elif step.verdict in ("computed", *VERDICT_BAD, "agrees"):
        verdict = t("verdict_" + step.verdict)
    else:
        verdict = step.verdict
    with st.expander(f"{n}. {label} — {verdict}", expanded=step.claimed is not None):
        value = V.value_frame(step, tokens)
        bad = V.flag_mask(step)
        claims = V.claim_frame(step, tokens)
        if claims is None:
            st.dataframe(V.styled(value, None, digits=6), key=f"{key}_v")
        else:
            c1, c2 = st.columns(2)
            c1.markdown(f"**{t('computed')}**")
            c1.dataframe(V.styled(value, bad, digits=6, bad_css=V.DIFF_CSS), key=f"{key}_v")
            c2.markdown(f"**{t('notes')}** ({WT.render(step.source_label, i18n.lang())})")
            c2.dataframe(V.styled(claims, bad, digits=6, good_css=V.GOOD_CSS), key=f"{key}_c")
            if bad is not None and bad.any():
                st.caption(t("both"))
                st.dataframe(V.styled(V.comparison_frame(step, tokens), bad), key=f"{key}_b")
        expl = i18n.pick(step.explanation) if step.explanation else ""
        if expl:
            st.markdown(f"**{t('why')}:** {expl}")
        note = WT.step_text(step, i18n.lang())
        if note:
            st.caption(note)
        d1, d2 = st.columns(2)
        with d1:
            download(value, f"{key}_computed", f"{key}_dl")
        if claims is not None:
            with d2:
                download(claims, f"{key}_notes", f"{key}_dlc", t("download_notes"))


def check(c, tokens, key: str) -> None:
    """One printed claim outside the step chain: the notes' words, the numbers side by side."""
    lang = i18n.lang()
    title = i18n.pick(c.title)
    with st.expander(f"{title} — {t('verdict_' + c.verdict)}", expanded=c.verdict != "agrees"):
        st.markdown(f"**{t('notes_write')}**")
        st.code("\n".join(c.quote), language=None, wrap_lines=True)
        st.caption(t("basis_" + c.basis))
        f = V.check_frames(c, tokens, WT.entry_labels(c, lang))
        if f["kind"] == "list":
            df = f["frame"].rename(columns={k: t("col_" + k) for k in ("what", "notes", "value", "ok")})
            st.dataframe(V.styled(df, f["bad"]), hide_index=True, key=f"{key}_l")
        else:
            c1, c2 = st.columns(2)
            c1.markdown(f"**{t('computed')}**")
            c1.dataframe(V.styled(f["value"], f["bad"], digits=6, bad_css=V.DIFF_CSS), key=f"{key}_v")
            c2.markdown(f"**{t('notes')}**")
            c2.dataframe(V.styled(f["claimed"], f["bad"], digits=6, good_css=V.GOOD_CSS), key=f"{key}_c")
            if f["bad"].any():
                st.caption(t("both"))
                st.dataframe(V.styled(f["both"], f["bad"]), key=f"{key}_b")
        expl = i18n.pick(c.explanation) if c.explanation else ""
        if expl:
            st.markdown(f"**{t('why')}:** {expl}")
        st.caption(WT.render(c.note, lang))


def statement(s, key: str, here: str | None = None) -> None:
    """"The notes say X; in fact Y", with its verdict, where it is in the notes, the notes' words
    and any computed evidence. ``here``: the page drawing it (no link to itself; the example it
    belongs to is named, since that page does not show the example)."""
    title = i18n.pick(s.title)
    with st.expander(f"{title} — {t('statement_' + s.verdict)}"):
        where = i18n.pick(s.where) if s.where else ""
        if where:
            st.caption(t("statement_where", where=where))
        if here is not None and s.example:
            names = LC.worked_titles()
            if s.example in names:
                st.caption(t("statement_example", title=i18n.pick(names[s.example])))
        st.markdown(f"**{t('says')}** {i18n.pick(s.says)}")
        st.code("\n".join(s.quote), language=None, wrap_lines=True)
        st.markdown(f"**{t('in_fact')}** {i18n.pick(s.fact)}")
        if s.evidence is not None:
            names = {c: t("ev_" + c) for c in s.evidence.columns}
            st.dataframe(V.styled(V.evidence_frame(s.evidence, names), None, digits=6), hide_index=True,
                         key=f"{key}_ev")
        if s.page and s.page != here:
            st.page_link(s.page, label=t("see_page"), icon="➡️", query_params=i18n.in_address())


def page_statements(page: str) -> None:
    """The notes' statements whose subject ``page`` (e.g. "pages/positional-encoding.py") shows,
    flagged there with what is true; nothing when there are none."""
    found = statements(page=page)
    if not found:
        return
    st.subheader(t("page_statements_title"))
    st.caption(t("page_statements_intro"))
    name = page.rsplit("/", 1)[-1].removesuffix(".py").replace("-", "_")  # the page's key prefix
    for s in found:
        statement(s, f"{name}_said_{s.id}", here=page)


def summary_table(res: WorkedResult) -> None:
    """One row per step the notes print: verdict, wrong entries, where the error began."""
    lang = i18n.lang()
    summ = V.summary_frame(res, lambda v: WT.render(v, lang), lambda o: WT.origin_text(o, lang),
                           lambda title: i18n.pick(title, lang))
    if not len(summ):
        return
    bad = np.zeros(summ.shape, dtype=bool)
    bad[:, 1] = summ["verdict"].isin(VERDICT_BAD).to_numpy()
    summ["verdict"] = summ["verdict"].map(lambda v: t("verdict_" + v))
    summ = summ.rename(columns={"step": t("col_step"), "verdict": t("col_verdict"), "wrong": t("col_wrong"),
                                "entries": t("col_entries"), "origin": t("col_origin")})
    st.markdown(f"**{t('summary_table')}**")
    st.dataframe(V.styled(summ, bad), hide_index=True, key="worked_examples_summary")


# The example the page opens on: a whole sentence's self-attention, most of whose numbers are right
# and whose few slips teach (not the 4-token mask example, 71 of its 88 numbers wrong)
FIRST_EXAMPLE = "self_attention_cat_sentence"


def examples_tab() -> None:
    lang = i18n.lang()
    names = LC.worked_titles()
    page_kit.fill_from_link("worked_examples_example", "example", allowed=names,  # ?example= (tour)
                                 default=FIRST_EXAMPLE if FIRST_EXAMPLE in names else None)
    ex_id = st.selectbox(t("example"), list(names), key="worked_examples_example",
                         format_func=lambda i: i18n.pick(names[i], lang))
    ex = V.example_dict(ex_id)
    st.caption(t("where", where=i18n.pick(ex["where"], lang) if ex.get("where") else ""))
    if ex.get("passage"):
        with st.expander(t("passage")):
            if ex.get("gloss_en") and t("gloss"):  # English readers only (SKIP in ui/strings/worked_examples.py)
                st.markdown(f"**{t('gloss')}** {ex['gloss_en']}")
            text = V.passage_text(ex["passage"])
            st.code(text, language=None, wrap_lines=True, height=420 if text.count("\n") > 30 else "content")
            st.caption(t("passage_caption"))
        st.caption(t("scope_some", what=i18n.pick(ex["unchecked"], lang)) if ex.get("unchecked") else t("scope_all"))
    if ex.get("tokens"):
        st.caption(t("tokens", tokens=" · ".join(ex["tokens"])))
    version = st.session_state.setdefault(f"worked_examples_version_{ex_id}", 0)
    st.markdown(f"**{t('inputs')}**")
    st.caption(t("inputs_help"))
    edited = {}
    if "pos" in ex:  # the PE example: two numbers
        c1, c2 = st.columns(2)
        pos = c1.number_input(t("pos"), value=float(ex["pos"]), step=1.0, key=f"worked_examples_pos_{version}")
        d = c2.number_input(t("d_model"), min_value=2, max_value=64, value=int(ex["d_model"]), step=2,
                            key=f"worked_examples_d_{version}")
        new = dict(ex, pos=pos, d_model=int(d))
        changed = pos != ex["pos"] or d != ex["d_model"]
    else:
        fixed = [WT.fixed_input_text(k, v, lang) for k, v in ex.items() if k in V.INPUT_KEYS and isinstance(v, str)]
        if fixed:
            st.caption(" · ".join(fixed))
        frames = V.editable_inputs(ex)
        cols = st.columns(min(len(frames), 4) or 1)
        for n, (name, df) in enumerate(frames.items()):
            with cols[n % len(cols)]:
                st.caption(WT.input_label(name, lang))
                edited[name] = st.data_editor(df, key=f"worked_examples_in_{ex_id}_{name}_{version}", num_rows="fixed")
        try:
            new = V.with_inputs(ex, edited, lambda key: WT.input_label(key, lang))
        except ValueError as e:
            st.error(t("bad_inputs", reason=WT.error_text(e, lang)))
            return
        changed = V.inputs_changed(ex, edited)
    if changed:
        st.info(t("edited"))
        if st.button(t("reset"), key=f"worked_examples_reset_{ex_id}"):
            st.session_state[f"worked_examples_version_{ex_id}"] = version + 1
            st.rerun()
    try:
        res = run_example(new)
    except ValueError as e:
        st.error(t("bad_inputs", reason=WT.error_text(e, lang)))
        return
    s = res.summary()
    st.write(t("summary", steps=s["steps"], claimed=s["claimed_steps"], agree=s["agree"], disagree=s["disagree"],
               wrong=s["entries_disagree"], entries=s["entries_checked"]))
    if s["checks"]:
        st.write(t("summary_checks", n=s["checks"], agree=s["checks_agree"], disagree=s["checks_disagree"],
                   wrong=s["check_entries_disagree"], entries=s["check_entries"]))
    summary_table(res)
    for n, one in enumerate(res.steps, start=1):
        step(n, one, res.tokens, f"worked_examples_{ex_id}_{one.name}")
    if res.checks:
        st.subheader(t("checks_title"))
        st.caption(t("checks_intro"))
        for c in res.checks:
            check(c, res.tokens, f"worked_examples_{ex_id}_check_{c.id}")
    said = statements(ex_id)
    if said:
        st.subheader(t("statements_title"))
        for stm in said:
            statement(stm, f"worked_examples_{ex_id}_said_{stm.id}")


def statements_tab() -> None:
    st.write(t("statements_intro"))
    for stm in statements():
        statement(stm, f"worked_examples_said_{stm.id}", here="pages/worked-examples.py")


def free_tab() -> None:
    lang = i18n.lang()
    st.write(t("free_intro"))
    mode = st.radio(t("free_mode"), ["qkv", "x"], horizontal=True, key="worked_examples_free_mode",
                    format_func={m: t("mode_" + m) for m in ("qkv", "x")}.get)
    texts = {}
    if mode == "qkv":
        defaults = {"Q": "1 2\n3 4", "K": "5 6\n7 8\n9 10", "V": "11 12\n13 14\n15 16"}
    else:
        defaults = {"X": "1 0 1\n0 2 0\n1 1 1", "W_Q": "1 0\n0 1\n1 1", "W_K": "0 1\n1 0\n1 1", "W_V": ""}
        st.caption(t("w_blank"))
    cols = st.columns(len(defaults))
    for c, (name, value) in zip(cols, defaults.items()):
        texts[name] = c.text_area(name, value=value, key=f"worked_examples_free_{mode}_{name}", height=120)
    c1, c2, c3 = st.columns(3)
    heads = c1.number_input(t("heads"), min_value=1, max_value=4, value=1, step=1, key="worked_examples_free_heads",
                            help=t("heads_help"))
    d_k = c2.number_input(t("d_k"), min_value=0, max_value=64, value=0, step=1, key="worked_examples_free_dk", help=t("d_k_help"))
    mask_kind = c3.radio(t("mask"), ["none", "causal", "custom"], key="worked_examples_free_mask",
                         format_func={m: t("mask_" + m) for m in ("none", "causal", "custom")}.get)
    mask_text = ""
    if mask_kind == "custom":
        mask_text = st.text_area(t("mask_text"), value="1 0 0\n1 1 0", key="worked_examples_free_mask_text")
    try:
        steps = V.free_steps(mode, texts, mask_kind, mask_text, int(d_k), int(heads))
    except ValueError as e:
        st.error(t("free_error", reason=WT.error_text(e, lang)))
        return
    weights = [s for s in steps if s.name.split(".")[-1] == "weights"]
    sums = sorted({V.fmt(v, 6) for s in weights for v in np.atleast_2d(s.value).sum(axis=1)})
    st.success(t("free_ok", n=len(steps), sums=", ".join(sums)))
    for n, one in enumerate(steps, start=1):
        step(n, one, [], f"worked_examples_free_{one.name}", free=True)


def mode() -> str:
    """The mode switch, rather than tabs: only the chosen mode is computed and drawn."""
    mode_names = {"examples": t("tab_examples"), "statements": t("tab_statements"), "free": t("tab_free")}
    choices.keep("worked_examples_mode", "examples", list(mode_names))
    return st.segmented_control(" ", list(mode_names), key="worked_examples_mode",
                                format_func=mode_names.get, label_visibility="collapsed")
