"""Streamlit's own file-uploader text in the page's language.

Streamlit has no locale switch: every st.file_uploader says "Upload" on its button and
"50MB per file • ZIP" under it, in English, whatever the app's language. In Chinese, a style
sheet (st.html with nothing but a <style>: Streamlit puts it where it takes no room) makes those
words invisible and writes the Chinese ones in their place, with CSS ``content``. Each uploader
of the app has a key, and Streamlit marks its container with the class ``st-key-<key>``, so
each gets its own file types; an uploader not listed in UPLOADERS gets the size limit alone.
Called once per run, from app.py. Each uploader's limit is what its reader accepts
(ui.serving.server_guard.uploader_limit_mb, issue 48 item 5); when the server refused the session's
last upload (too big for the uploader, the person's or all students' held bytes), the page says so
in its language (`refusal_note`).
"""
from __future__ import annotations

import streamlit as st

from ui import i18n
from ui.strings import uploader as strings

t = i18n.translator(strings)

# every uploader of the app, by widget key: the types it accepts (as passed to file_uploader)
UPLOADERS = {
    "shell_upload": ("zip",),
    "train_up_tsv": ("tsv", "txt"),
    "train_up_src": ("txt",),
    "train_up_tgt": ("txt",),
    "heads_upload": ("jsonl", "json", "txt"),
    "heads_align_upload": ("tsv", "txt"),
    "heads_qk_upload": ("txt", "tsv", "jsonl"),
}
SIZE = "0.875rem"  # Streamlit's own size for both texts (14 px)
BUTTON = '[data-testid="stFileUploaderDropzone"] button [data-testid="stMarkdownContainer"] p'
LIMIT = '[data-testid="stFileUploaderDropzoneInstructions"] > div > span'


def _css_string(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def max_mb() -> int:
    from streamlit import config

    return int(config.get_option("server.maxUploadSize") or 200)


def css(lang: str, mb: int) -> str:
    """The style sheet for `lang` ("" for English: Streamlit's words are English already)."""
    if lang == "en":
        return ""
    rules = [
        f"{BUTTON}, {LIMIT} {{ font-size: 0 !important; }}",
        f"{BUTTON}::after {{ content: {_css_string(i18n.text(strings, 'button', lang))}; font-size: {SIZE}; }}",
        f"{LIMIT}::after {{ content: {_css_string(i18n.text(strings, 'limit', lang, mb=mb))}; "
        f"font-size: {SIZE}; }}",
    ]
    for key, types in UPLOADERS.items():
        text = i18n.text(strings, "limit_types", lang, mb=min(mb, _limit(key)),
                         types=", ".join(x.upper() for x in types))
        rules.append(f".st-key-{key} {LIMIT}::after {{ content: {_css_string(text)}; }}")
    return "<style>\n" + "\n".join(rules) + "\n</style>"


def _limit(key: str) -> int:
    # deferred: server_guard imports ui.serving.roles, which imports this page kit
    from ui.serving import server_guard

    return server_guard.uploader_limit_mb(key)


REFUSALS = ("too_big", "person_cap", "students_cap")


def refusal_text(code: str, lang: str) -> str:
    """The sentence for a refused upload (ui.serving.server_guard's codes) in `lang`."""
    return i18n.text(strings, f"refused_{code}", lang)


def refusal_note() -> None:
    """Say, once, why the server refused this session's last upload (nothing already stored
    is lost: the refused file alone was not taken)."""
    from ui.serving import server_guard  # deferred: see _limit

    code = server_guard.last_refusal()
    if code in REFUSALS:
        st.warning(refusal_text(code, i18n.lang()))


def apply() -> None:
    """Put the uploader words of the session's language on every page."""
    sheet = css(i18n.lang(), max_mb())
    if sheet:
        st.html(sheet)
    refusal_note()
