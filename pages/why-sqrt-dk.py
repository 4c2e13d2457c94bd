"""Why √d_k: the variance of q·k, softmax saturation, and the size of the softmax's gradient; what
the notes say about it in words. The sections in ui/why_sqrt_dk_view.py."""
from ui.deeplink import ensure_app; ensure_app()  # a direct deep link runs app.py (ui/deeplink.py)
import streamlit as st

from ui import page_kit
from ui import why_sqrt_dk_view as view
from ui import worked_examples_view
from ui.strings import why_sqrt_dk as strings

page_kit.header(strings, intro=st.write)
d_k, n_keys, seed = view.controls()
view.variance(seed)
view.histogram(d_k, seed)
view.softmax_row(d_k, n_keys, seed)
view.saturation(d_k, n_keys, seed)
# the notes' statements about this subject, flagged with what is true (transformer.worked statements)
worked_examples_view.page_statements("pages/why-sqrt-dk.py")
