"""Choices are state, not widgets (issue 50, 1).

Streamlit forgets a widget's value in two ways the class meets every lesson:

* a widget not drawn in a run loses its state (its key is deleted): leaving a page and coming
  back opened every choice on its default;
* a choice widget (radio, selectbox, pills, ...) keeps its value in the browser as the *label*
  shown, so after the language switch the browser still holds the English label, which is none of
  the new (Chinese) options: the widget showed nothing selected, and the next click reset it.

The one remedy, for every page: each choice a page offers is kept under a shadow key
(``_keep_<key>``) that no widget owns. `keep(key, default, options)` is called just before the
widget is drawn (drawn without value= / index= / default=: the state gives it its value); it puts
the choice into the widget's key (from the widget, else the shadow, else `default`), checks it
against the options the widget offers now (a value no longer offered falls back, so a derived
choice follows what it derives from), and records it in the shadow. `restore()` runs before every
page (ui/deeplink.run_page): it puts every kept choice back into its widget key, so the page's own
logic sees it before any widget is drawn, and writing the value (a code: options are codes, their
labels come from a format_func in the language) from the server makes the widget show the label
of the same value in the new language. `remember(key, value)` records a choice the page sets
itself (a link, a button)."""
from __future__ import annotations

from typing import Any, Iterable

import streamlit as st

from ui import i18n

PREFIX = "_keep_"


def shadow(key: str) -> str:
    return PREFIX + key


LANG_SEEN = "_choices_lang"  # the language of the last run (a switch relabels every choice)
RELABEL = "_choices_relabel"  # this run follows a language switch
LABELS = "_choices_labels_"  # + key: what a widget's labels were made of on the last run


def restore() -> None:
    """Put every kept choice back into its widget key (before any page widget is drawn): the
    ones a page left (their keys were dropped), and after a language switch all of them, so the
    browser is sent each value again, as the label of the new language. Otherwise a widget's
    state is left alone (a value written from the server replaces what a browser shows)."""
    ss = st.session_state
    lang = i18n.lang()
    relabel = ss.get(LANG_SEEN, lang) != lang
    ss[LANG_SEEN], ss[RELABEL] = lang, relabel
    for name in [k for k in ss if isinstance(k, str) and k.startswith(PREFIX)]:
        key = name[len(PREFIX):]
        if key in ss and not relabel:
            continue
        try:
            value = ss[key] if key in ss else ss[name]
            ss[key] = value
        except Exception:  # noqa: BLE001 - a key a widget of this run owns already: leave it
            continue
        ss[name] = value


def _allowed(value: Any, options: list | None, multi: bool) -> bool:
    if options is None:
        return True
    if multi:
        return isinstance(value, (list, tuple)) and all(v in options for v in value)
    return value in options


def keep(key: str, default: Any = None, options: Iterable | None = None, multi: bool = False,
         labels: Any = None) -> Any:
    """The choice under `key` (the widget's, else the kept one, else `default`), within
    `options` when given (`multi`: a list whose items are all options; else `default`, else the
    first option), put into the widget's state and kept. Call right before drawing the widget.
    `labels`: what the options' labels are made of, when not only the language (the sentences a
    list names): when it changes the value is sent to the browser again, as its new label (the
    browser holds a choice as its label, which would no longer be among the options)."""
    ss = st.session_state
    relabel = False
    if labels is not None:
        relabel = ss.get(LABELS + key) != labels
        ss[LABELS + key] = labels
    opts = list(options) if options is not None else None
    if key in ss:
        value = ss[key]
    elif shadow(key) in ss:
        value = ss[shadow(key)]
    else:
        value = default
    if not _allowed(value, opts, multi):
        if multi and isinstance(value, (list, tuple)):
            kept = [v for v in value if v in opts]
            value = kept if kept or not _allowed(default, opts, multi) else default
        else:
            value = default if _allowed(default, opts, multi) else (opts[0] if opts else None)
    if value is None and default is None and key not in ss:
        return None
    if multi and value is not None:
        value = list(value)
    if key not in ss or relabel or ss.get(RELABEL) or _differs(ss[key], value):
        ss[key] = value
    ss[shadow(key)] = value
    return value


def _differs(a: Any, b: Any) -> bool:
    try:
        return bool(a != b) or type(a) is not type(b)
    except Exception:  # noqa: BLE001 - values that do not compare: write
        return True


def remember(key: str, value: Any) -> None:
    """Set a choice from the page (a link, a featured head, a button's callback) and keep it."""
    st.session_state[key] = value
    st.session_state[shadow(key)] = value


def forget(key: str) -> None:
    """Drop a kept choice (and its widget state), so the page chooses afresh."""
    st.session_state.pop(key, None)
    st.session_state.pop(shadow(key), None)
