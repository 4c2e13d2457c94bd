"""Masks: padding, causal, combined, and their effect on one row of scores (−inf against 0). The
sections in ui/masks_view.py."""
from ui.deeplink import ensure_app; ensure_app()  # a direct deep link runs app.py (ui/deeplink.py)
import streamlit as st

from ui import masks_view as view
from ui import page_kit
from ui.strings import masks as strings

page_kit.header(strings, intro=st.write)
batch = view.batch()
view.padding(batch)
b, keep_both = view.sentence_masks(batch)
view.masked_row(batch, b, keep_both)
