"""The Worked examples page's parts (pages/worked-examples.py is the layout): one step, one
check of another printed number, one statement, the summary table, a CSV download."""
from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from transformer.worked.examples import statements
from transformer.worked.graph import Step, WorkedResult
from ui import i18n
from ui import lesson_cache as LC
from ui import worked_text as WT
from ui.strings import worked as strings
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
            st.page_link(s.page, label=t("see_page"), icon="➡️")


def page_statements(page: str) -> None:
    """The notes' statements whose subject ``page`` (e.g. "pages/positional-encoding.py") shows,
    flagged there with what is true; nothing when there are none."""
    found = statements(page=page)
    if not found:
        return
    st.subheader(t("page_statements_title"))
    st.caption(t("page_statements_intro"))
    slug = page.rsplit("/", 1)[-1].removesuffix(".py")
    for s in found:
        statement(s, f"said_{slug}_{s.id}", here=page)


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
    st.dataframe(V.styled(summ, bad), hide_index=True, key="we_summary")
