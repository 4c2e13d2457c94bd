"""Worked examples: the notes' examples recomputed and checked, with editable inputs; the notes'
statements in words set against the paper; free mode. The sections in ui/worked_examples_view.py."""
from ui.deeplink import ensure_app; ensure_app()  # a direct deep link runs app.py (ui/deeplink.py)
import streamlit as st

from ui import page_kit
from ui import worked_examples_view as view
from ui.strings import worked_examples as strings

page_kit.header(strings, intro=st.write)
mode = view.mode()
if mode == "free":
    view.free_tab()
elif mode == "statements":
    view.statements_tab()
else:
    view.examples_tab()
