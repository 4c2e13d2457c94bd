"""The Guided tour's stops (`STOPS`, in the sidebar's order) and one stop drawn (`stop`): its
title, what it shows, what to try and the link that opens its page with that filled in."""
from __future__ import annotations

import streamlit as st

from transformer.worked.examples import run_example
from ui import i18n
from ui import models, taught_note
from ui.strings import shell as shell_strings
from ui.strings import tour as strings

t = i18n.translator(strings)
ts = i18n.translator(shell_strings)

# (title, text, page file, page title key, what to try, the link parameter that carries it).
# In the order of ui/navigation.py's PAGES (tests/test_app_tour.py holds them equal). Each page reads
# its parameter into its input box (ui.page_kit.fill_from_link / apply_query_params).
# The first stop is the Transformer blog post's pair: one word ("tired" / "wide") decides what
# "it" is, and a second link opens both side by side on the Two sentences page.
BLOG_PAIR = ("The animal didn't cross the street because it was too tired .",
             "The animal didn't cross the street because it was too wide .")
STOPS = [
    ("att_title", "att_text", "pages/attention.py", "page_attention",
     "The animal didn't cross the street because it was too tired .", "text"),
    ("step_title", "step_text", "pages/step.py", "page_step",
     "A woman sleeps in a car , and its windows are open .", "text"),
    ("heads_title", "heads_text", "pages/heads.py", "page_heads",
     "A cat lies on a chair in the sun , and it looks very happy .", "text"),
    ("pe_title", "pe_text", "pages/positional-encoding.py", "page_pe", "I love AI", "text"),
    ("masks_title", "masks_text", "pages/masks.py", "page_masks",
     "A dog runs .\nTwo men play football on the grass .", "text"),
    ("worked_title", "worked_text", "pages/worked-examples.py", "page_worked",
     "thinking_machines_scores", "example"),
]


def tour_taught() -> str | None:
    """The taught sentence for the session model's swapped head (the Two sentences page swaps the
    featured encoder head), or None: the tour must not present a trained-in flip as a finding."""
    ck = models.current()
    featured = ((ck.history or {}).get("featured_head") or {}) if ck is not None else {}
    if not featured or featured.get("kind") != "encoder_self":
        return None
    return taught_note.note(ck.train_config, "encoder_self", featured["layer"], featured["head"],
                            models.current_path())


def stop(n: int, title: str, text: str, page: str, page_title: str, value: str, param: str) -> None:
    """The `n`th stop (from 1), one row of STOPS."""
    with st.container(border=True):
        st.subheader(f"{t('stop', n=n)} · {t(title)}")
        st.write(t(text))
        if param == "example":
            res = run_example(value)
            st.caption(t("try_example", example=i18n.pick(res.title)))
        else:
            st.caption(t("try", sentence=" / ".join(value.splitlines())))
        try:
            st.page_link(page, label=t("open", page=ts(page_title)), icon="➡️",
                         query_params=i18n.in_address({param: value}))
            if n == 1:  # the pair, side by side
                st.caption(t("pair_try", sentence=BLOG_PAIR[1]))
                st.page_link("pages/pair.py", label=t("open", page=ts("page_pair")), icon="⚖️",
                             query_params=i18n.in_address({"text": BLOG_PAIR[0], "text2": BLOG_PAIR[1]}))
                st.caption(t("swap_try"))  # the same pair with the head's output exchanged
                taught = tour_taught()
                if taught:
                    st.caption("🎓 " + taught)
                st.page_link("pages/pair.py", label=t("open_swap"), icon="🔀",
                             query_params=i18n.in_address({"text": BLOG_PAIR[0], "text2": BLOG_PAIR[1],
                                                           "swap": "1"}))
        except Exception:  # page not in this build's navigation
            pass
