"""Two sentences, one word apart (a minimal pair): both translations, and one head's row from the
pronoun in each, side by side, with whether the head's strongest word moved. The sections in
ui/pair_view.py, the diff, the row and the figure in viz/pair.py; the swap (the head's output
at "it" exchanged between the two sentences) in transformer/probing/swap.py.
Query parameters: ?text=...&text2=... fill the two boxes; kind, layer, head open a given head;
swap=1 turns the swap on."""
from ui.deeplink import ensure_app; ensure_app()  # a direct deep link runs app.py (ui/deeplink.py)
from ui import page_kit
from ui import pair_view as PV
from ui.strings import pair as strings

_, ck, path = page_kit.checkpoint_header(strings)

text_a, text_b = PV.sentences(ck)
ins_a, ins_b = PV.inspect_both(path, text_a, text_b)
PV.show_pair(text_a, text_b)
PV.translations(ins_a, ins_b, ck.tokenizer)
kind, layer, head, hide = PV.head_choice(ck, path, ins_a)
PV.rows(ck, ins_a, ins_b, kind, layer, head, hide)
PV.swap(ck, path, text_a, text_b, ins_a, ins_b, kind, layer, head)
