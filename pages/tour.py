"""Guided tour: a short path through the pages for a lesson, in the sidebar's order. Each stop's
link opens its page with the stop's sentence (or example) already filled in. The stops and their
drawing in ui/tour_view.py."""
from ui.deeplink import ensure_app; ensure_app()  # a direct deep link runs app.py (ui/deeplink.py)
import streamlit as st

from ui import page_kit
from ui import tour_view as view
from ui.strings import tour as strings

page_kit.header(strings, intro=st.write)
for n, s in enumerate(view.STOPS, start=1):
    view.stop(n, *s)
