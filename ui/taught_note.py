"""One sentence, in the page's language, wherever a page presents a head whose behaviour was
trained (issue 49, 5): the featured-head box, the head finder, the Two sentences swap and the
tour. Which heads were taught is read from the checkpoint's own training config
(transformer.probing.taught); the untrained control is the same head in a shipped model that was
never taught (multi30k-en-de, when it is on the server)."""
from __future__ import annotations

from pathlib import Path

import streamlit as st

from transformer.probing.taught import how_taught, taught
from ui import i18n, models
from ui.strings import taught as strings
from viz import heads as VH

CONTROL = "multi30k-en-de"  # shipped, trained on captions only, never supervised


def control_path(current: str | None) -> str | None:
    """The untrained control's checkpoint on this server (None: absent, or it is the current)."""
    path = models.shipped_dir() / CONTROL
    if not (path / "model.safetensors").is_file():
        return None
    if current and Path(current).resolve() == path.resolve():
        return None
    train = (models.card_facts(str(path)).get("train") or {})
    return str(path) if not taught(train) else None


def note(train_config, kind: str, layer: int, head: int, current: str | None = None,
         lang: str | None = None) -> str | None:
    """The taught sentence for this head, or None when its training did not teach it."""
    how = how_taught(train_config, kind, layer, head)
    if not how:
        return None
    t = i18n.translator(strings) if lang is None else (
        lambda key, **kw: i18n.text(strings, key, lang, **kw))
    ctrl = control_path(current)
    return t("taught_note", head=VH.head_label(kind, layer, head),
             how=t("taught_and").join(t(f"taught_{h}") for h in how),
             control=(f"{CONTROL}, {VH.head_label(kind, layer, head)}" if ctrl
                      else t("taught_control_none")))


def show(ck, kind: str, layer: int, head: int, key: str) -> bool:
    """Draw the note (st.info) and a button that opens the control; False when not taught."""
    current = models.current_path()
    text = note(ck.train_config, kind, layer, head, current)
    if text is None:
        return False
    st.info(text, icon="🎓")
    ctrl = control_path(current)
    if ctrl:
        t = i18n.translator(strings)
        st.button(t("taught_control_open", name=CONTROL), key=key,
                  on_click=lambda: st.session_state.update({models.SESSION_KEY: ctrl}))
    return True
