"""Attention Lab: `streamlit run app.py`. The navigation and the sidebar; pages live in pages/."""
from pathlib import Path

import streamlit as st

from ui import glossary, i18n, shell
from ui.strings import shell as strings

shell.configure()
shell.language_switch()
t = i18n.translator(strings)

HERE = Path(__file__).parent
# (group, file, url path, title key, icon); a page is listed once its file exists. No page file is
# named after its URL path: pages/<url path>.py is a two-line shim that runs this script, for the
# first deep links on a freshly started server (see ui/deeplink.py).
PAGES = [
    ("group_tour", "home.py", "tour", "page_home", "🧭"),
    ("group_inside", "attention_maps.py", "attention", "page_attention", "🔍"),
    ("group_inside", "step_by_step.py", "step", "page_step", "🧮"),
    ("group_inside", "head_finder.py", "heads", "page_heads", "🎯"),
    ("group_foundations", "positional_encoding.py", "positional-encoding", "page_pe", "〰️"),
    ("group_foundations", "masking.py", "masks", "page_masks", "🎭"),
    ("group_foundations", "worked_examples.py", "worked-examples", "page_worked", "✍️"),
    ("group_foundations", "why_sqrt_dk.py", "why-sqrt-dk", "page_sqrt", "📐"),
    ("group_train", "training.py", "train", "page_train", "🏋️"),
    ("group_train", "decoding.py", "decode", "page_decode", "🔤"),
    ("group_train", "evolution.py", "across-training", "page_evolution", "🎞️"),
]

nav: dict[str, list] = {}
for group, file, url, title, icon in PAGES:
    if (HERE / "pages" / file).exists():
        nav.setdefault(t(group), []).append(
            st.Page(f"pages/{file}", title=t(title), icon=icon, url_path=url,
                    default=(file == "home.py")))

page = st.navigation(nav)
shell.checkpoint_picker()
glossary.sidebar()
page.run()
