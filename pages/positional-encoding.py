"""Positional encoding: waves, heatmap, similarity, the rotation M_k, sizes, the notes' example and
what the notes say about it in words. The sections in ui/positional_encoding_view.py."""
from ui.deeplink import ensure_app; ensure_app()  # a direct deep link runs app.py (ui/deeplink.py)
import streamlit as st

from ui import page_kit, worked_examples_view
from ui import positional_encoding_view as view
from ui.strings import positional_encoding as strings

page_kit.header(strings, intro=st.write)
d_model, dims, pe = view.controls()
view.waves(pe, dims, d_model)
view.heatmap(pe)
view.similarity(pe, d_model)
view.rotation(pe, d_model)
view.norms()
view.love_example()
# the notes' statements about this subject, flagged with what is true (transformer.worked statements)
worked_examples_view.page_statements("pages/positional-encoding.py")
