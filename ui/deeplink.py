"""Deep links on a freshly started server.

Streamlit treats an app that has a `pages/` folder as an old-style multipage app until the first
`st.navigation` call has run in the process. The first browsers to open a deep link such as
`/attention` on a new server are therefore routed by file name to `pages/attention.py` itself,
without app.py: no navigation, no sidebar (a whole class opening the teacher's link at once all
get that). So every page's first line is `ensure_app()`: when the page was not started by app.py's
navigation (`run_page`), it runs app.py, whose `st.navigation` opens the same page (its file is
named by its URL path) with the sidebar, and then stops the direct run. After the first run in the
process Streamlit routes through app.py and `ensure_app()` does nothing.
"""
from __future__ import annotations

import runpy
import threading
from pathlib import Path

import streamlit as st

from ui import choices, i18n, models, warmup
from ui.serving.admission import PAGES, Busy, person_key
from ui.strings import shell as strings

APP = Path(__file__).resolve().parents[1] / "app.py"
_state = threading.local()  # a script run stays on one thread


def run_page(page) -> None:
    """Run the page st.navigation chose, marked as started through the navigation."""
    _state.navigated = True
    choices.restore()  # every page's kept choices back in their widgets' keys (ui/choices.py)
    warmup.start(models.current_path())  # the class's first numbers, once, in the background
    try:
        with PAGES.hold(person_key()):  # a person's page runs take turns, the class's first
            page.run()
    except Busy as e:  # the admission gate gave no slot in time (ui/serving/admission.py)
        st.warning(i18n.translator(strings)("gate_busy", s=round(getattr(e, "wait_s", 0) or 120)))
    finally:
        _state.navigated = False


def ensure_app() -> None:
    """Called first by every page: does nothing under app.py's navigation; when Streamlit
    routed to the page file directly, runs app.py (which runs this page) and stops."""
    if getattr(_state, "navigated", False):
        return
    import streamlit as st

    runpy.run_path(str(APP), run_name="__main__")
    st.stop()
