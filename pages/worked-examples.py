"""Worked examples: the notes' examples recomputed and checked, with editable inputs; the notes'
statements in words set against the paper; free mode."""
from ui.deeplink import ensure_app; ensure_app()  # a direct deep link runs app.py (ui/deeplink.py)
import numpy as np
import streamlit as st

from transformer import worked as W
from transformer.worked.examples import run_example, statements
from ui import i18n, inspect_cache
from ui import lesson_cache as LC
from ui import worked_text as WT
from ui import worked_view as view
from ui.strings import worked as strings
from viz import worked as V

t = i18n.translator(strings)
lang = i18n.lang()
# The example the page opens on: a whole sentence's self-attention, most of whose numbers are right
# and whose few slips teach (not the 4-token mask example, 71 of its 88 numbers wrong)
FIRST_EXAMPLE = "self_attention_cat_sentence"


def examples_tab() -> None:
    names = LC.worked_titles()
    inspect_cache.fill_from_link("we_example", "example", allowed=names,  # ?example= (tour)
                                 default=FIRST_EXAMPLE if FIRST_EXAMPLE in names else None)
    ex_id = st.selectbox(t("example"), list(names), key="we_example",
                         format_func=lambda i: i18n.pick(names[i], lang))
    ex = V.example_dict(ex_id)
    st.caption(t("where", where=i18n.pick(ex["where"], lang) if ex.get("where") else ""))
    if ex.get("passage"):
        with st.expander(t("passage")):
            if ex.get("gloss_en") and t("gloss"):  # English readers only (SKIP in ui/strings/worked.py)
                st.markdown(f"**{t('gloss')}** {ex['gloss_en']}")
            text = V.passage_text(ex["passage"])
            st.code(text, language=None, wrap_lines=True, height=420 if text.count("\n") > 30 else "content")
            st.caption(t("passage_caption"))
        st.caption(t("scope_some", what=i18n.pick(ex["unchecked"], lang)) if ex.get("unchecked") else t("scope_all"))
    if ex.get("tokens"):
        st.caption(t("tokens", tokens=" · ".join(ex["tokens"])))
    version = st.session_state.setdefault(f"we_version_{ex_id}", 0)
    st.markdown(f"**{t('inputs')}**")
    st.caption(t("inputs_help"))
    edited = {}
    if "pos" in ex:  # the PE example: two numbers
        c1, c2 = st.columns(2)
        pos = c1.number_input(t("pos"), value=float(ex["pos"]), step=1.0, key=f"we_pos_{version}")
        d = c2.number_input(t("d_model"), min_value=2, max_value=64, value=int(ex["d_model"]), step=2,
                            key=f"we_d_{version}")
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
                edited[name] = st.data_editor(df, key=f"we_in_{ex_id}_{name}_{version}", num_rows="fixed")
        try:
            new = V.with_inputs(ex, edited, lambda key: WT.input_label(key, lang))
        except ValueError as e:
            st.error(t("bad_inputs", reason=WT.error_text(e, lang)))
            return
        changed = V.inputs_changed(ex, edited)
    if changed:
        st.info(t("edited"))
        if st.button(t("reset"), key=f"we_reset_{ex_id}"):
            st.session_state[f"we_version_{ex_id}"] = version + 1
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
    view.summary_table(res)
    for n, step in enumerate(res.steps, start=1):
        view.step(n, step, res.tokens, f"we_{ex_id}_{step.name}")
    if res.checks:
        st.subheader(t("checks_title"))
        st.caption(t("checks_intro"))
        for c in res.checks:
            view.check(c, res.tokens, f"we_{ex_id}_check_{c.id}")
    said = statements(ex_id)
    if said:
        st.subheader(t("statements_title"))
        for stm in said:
            view.statement(stm, f"we_{ex_id}_said_{stm.id}")


def statements_tab() -> None:
    st.write(t("statements_intro"))
    for stm in statements():
        view.statement(stm, f"we_said_{stm.id}", here="pages/worked-examples.py")


def free_tab() -> None:
    st.write(t("free_intro"))
    mode = st.radio(t("free_mode"), ["qkv", "x"], horizontal=True, key="we_free_mode",
                    format_func={m: t("mode_" + m) for m in ("qkv", "x")}.get)
    texts = {}
    if mode == "qkv":
        defaults = {"Q": "1 2\n3 4", "K": "5 6\n7 8\n9 10", "V": "11 12\n13 14\n15 16"}
    else:
        defaults = {"X": "1 0 1\n0 2 0\n1 1 1", "W_Q": "1 0\n0 1\n1 1", "W_K": "0 1\n1 0\n1 1", "W_V": ""}
        st.caption(t("w_blank"))
    cols = st.columns(len(defaults))
    for c, (name, value) in zip(cols, defaults.items()):
        texts[name] = c.text_area(name, value=value, key=f"we_free_{mode}_{name}", height=120)
    c1, c2, c3 = st.columns(3)
    heads = c1.number_input(t("heads"), min_value=1, max_value=4, value=1, step=1, key="we_free_heads",
                            help=t("heads_help"))
    d_k = c2.number_input(t("d_k"), min_value=0, max_value=64, value=0, step=1, key="we_free_dk", help=t("d_k_help"))
    mask_kind = c3.radio(t("mask"), ["none", "causal", "custom"], key="we_free_mask",
                         format_func={m: t("mask_" + m) for m in ("none", "causal", "custom")}.get)
    mask_text = ""
    if mask_kind == "custom":
        mask_text = st.text_area(t("mask_text"), value="1 0 0\n1 1 0", key="we_free_mask_text")
    try:
        steps = V.free_steps(mode, texts, mask_kind, mask_text, int(d_k), int(heads))
    except ValueError as e:
        st.error(t("free_error", reason=WT.error_text(e, lang)))
        return
    weights = [s for s in steps if s.name.split(".")[-1] == "weights"]
    sums = sorted({V.fmt(v, 6) for s in weights for v in np.atleast_2d(s.value).sum(axis=1)})
    st.success(t("free_ok", n=len(steps), sums=", ".join(sums)))
    for n, step in enumerate(steps, start=1):
        view.step(n, step, [], f"we_free_{step.name}", free=True)


st.title(t("title"))
st.write(t("intro"))
# A mode switch rather than tabs: only the chosen mode is computed and drawn.
mode_names = {"examples": t("tab_examples"), "statements": t("tab_statements"), "free": t("tab_free")}
mode = st.segmented_control(" ", list(mode_names), key="we_mode", default="examples",
                            format_func=mode_names.get, label_visibility="collapsed")
if mode == "free":
    free_tab()
elif mode == "statements":
    statements_tab()
else:
    examples_tab()
