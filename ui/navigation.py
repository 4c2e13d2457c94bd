"""The app's pages: one table, one file per page. pages/<url path>.py serves /<url path>.

One page, one name (`Entry.name`: the URL path with dashes as underscores, e.g. why_sqrt_dk):
its file pages/<url>.py is layout only, over ui/<name>_view.py (its sections; a page may have
more modules of its own, ui/<name>_*.py, e.g. heads_compute, train_start); its sentences are in
ui/strings/<name>.py; its widget and session-state keys start with `<name>_`. What every page
shares (header, links, the sentence boxes) is in ui/page_kit.py. tests/test_page_convention.py
holds every page to it."""
from __future__ import annotations

from pathlib import Path
from typing import Callable, NamedTuple

ROOT = Path(__file__).resolve().parents[1]


class Entry(NamedTuple):
    group: str  # title key of the sidebar group (ui/strings/shell.py)
    url: str  # URL path; the page file is pages/<url>.py
    title: str  # title key of the page (ui/strings/shell.py)
    icon: str

    @property
    def name(self) -> str:
        """The page's one name: its strings module, its view module and its state-key prefix."""
        return self.url.replace("-", "_")

    @property
    def file(self) -> str:
        """The page file, relative to the repository root (as st.Page and st.switch_page take it)."""
        return f"pages/{self.url}.py"


HOME = "tour"  # the default page, at the app's root URL (and at /tour)
HOME_ALIAS = "home"  # the path the root page reserves (Streamlit serves it at "/" only)
PAGES = [
    Entry("group_tour", "tour", "page_home", "🧭"),
    Entry("group_inside", "attention", "page_attention", "🔍"),
    Entry("group_inside", "step", "page_step", "🧮"),
    Entry("group_inside", "heads", "page_heads", "🎯"),
    Entry("group_inside", "pair", "page_pair", "⚖️"),
    Entry("group_foundations", "positional-encoding", "page_pe", "〰️"),
    Entry("group_foundations", "masks", "page_masks", "🎭"),
    Entry("group_foundations", "worked-examples", "page_worked", "✍️"),
    Entry("group_foundations", "why-sqrt-dk", "page_sqrt", "📐"),
    Entry("group_train", "train", "page_train", "🏋️"),
    Entry("group_train", "decode", "page_decode", "🔤"),
    Entry("group_train", "across-training", "page_evolution", "🎞️"),
]


def files() -> list[str]:
    """The page files, in the sidebar's order."""
    return [p.file for p in PAGES]


def navigation(t: Callable[[str], str]):
    """st.navigation over the pages whose file exists, grouped and titled in the chosen language."""
    import streamlit as st

    nav: dict[str, list] = {}
    for p in PAGES:
        if not (ROOT / p.file).exists():
            continue
        if p.url == HOME:
            # Streamlit serves the default page at the root and its url_path nowhere: the home
            # page is listed at "/" (its reserved path HOME_ALIAS), and answers /tour as a hidden
            # page of the same file (issue 50: /tour typed in the address was "Page not found")
            nav.setdefault(t(p.group), []).append(
                st.Page(p.file, title=t(p.title), icon=p.icon, url_path=HOME_ALIAS, default=True))
            nav[t(p.group)].append(st.Page(p.file, title=t(p.title), icon=p.icon, url_path=p.url,
                                           visibility="hidden"))
        else:
            nav.setdefault(t(p.group), []).append(
                st.Page(p.file, title=t(p.title), icon=p.icon, url_path=p.url))
    return st.navigation(nav)
