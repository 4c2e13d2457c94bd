"""Deep links on a freshly started server.

Streamlit treats an app that has a `pages/` folder as an old-style multipage app until the first
`st.navigation` call has run in the process. The first browsers to open a deep link such as
`/attention` on a new server are therefore routed by file name in `pages/`, and for a name it does
not find they get a "Page not found" dialog (a whole class opening the teacher's link at once all
get it). So `pages/` holds, for every URL path the app serves, a two-line file of that name that
runs app.py: app.py's own `st.navigation` then takes over and opens the real page, with the
sidebar. After the first run in the process these files are never used.
"""
from __future__ import annotations

import runpy
from pathlib import Path

APP = Path(__file__).resolve().parents[1] / "app.py"


def run_app() -> None:
    runpy.run_path(str(APP), run_name="__main__")
