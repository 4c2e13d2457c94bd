"""Guided tour: a short path through the pages for a lesson."""
import streamlit as st

from ui import i18n
from ui.strings import home as strings
from ui.strings import shell as shell_strings

t = i18n.translator(strings)
ts = i18n.translator(shell_strings)

# (title, text, page file, page title key, example sentence). The Attention and Step pages read
# ?text=..., so their links open on the example; the others show it to type.
LINKS_CARRY_TEXT = {"pages/attention_maps.py", "pages/step_by_step.py"}
STOPS = [
    ("pe_title", "pe_text", "pages/positional_encoding.py", "page_pe", "I love AI"),
    ("att_title", "att_text", "pages/attention_maps.py", "page_attention",
     "The dog saw the book because it was hungry ."),
    ("masks_title", "masks_text", "pages/masking.py", "page_masks", "A dog runs ."),
    ("step_title", "step_text", "pages/step_by_step.py", "page_step", "A dog runs ."),
    ("heads_title", "heads_text", "pages/head_finder.py", "page_heads",
     "The cow saw the bucket because it was excited ."),
    ("worked_title", "worked_text", "pages/worked_examples.py", "page_worked", "Thinking Machines"),
]

st.title(t("title"))
st.write(t("intro"))
n = 0
for title, text, page, page_title, sentence in STOPS:
    n += 1
    with st.container(border=True):
        st.subheader(f"{t('stop', n=n)} · {t(title)}")
        st.write(t(text))
        st.caption(t("try", sentence=sentence))
        try:
            st.page_link(page, label=t("open", page=ts(page_title)), icon="➡️",
                         query_params={"text": sentence} if page in LINKS_CARRY_TEXT else None)
        except Exception:  # page not in this build's navigation
            pass
