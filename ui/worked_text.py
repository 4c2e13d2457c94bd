"""The worked examples' codes in the app's languages: transformer.worked.words's renderer bound to
the app's one translator (ui.i18n.text over ui/strings/worked_examples.py, keys ``v_<code>``; the
English is the core's table, transformer/worked/english.py, every other language is in
ui/locales/<code>.json under "worked_examples"). The page renders in the reader's language; the CLI
(`python -m transformer.worked`) renders with transformer.worked.words.WORDS, without ui.
No streamlit here."""
from __future__ import annotations

import functools

from transformer.worked.words import Words
from ui import i18n
from ui.strings import worked_examples as strings

WORDS = Words(functools.partial(i18n.text, strings))

word = WORDS.word
error_text = WORDS.error_text
short_name = WORDS.short_name
origin_text = WORDS.origin_text
render = WORDS.render
note_text = WORDS.note_text
step_text = WORDS.step_text
entry_labels = WORDS.entry_labels
input_label = WORDS.input_label
fixed_input_text = WORDS.fixed_input_text
