"""Attention: where one word looks (the head view on one token, one or a few heads), that head
enlarged, every layer x head on demand (a toggle: the grid is built and drawn only when asked). Opens where the lesson is: encoder self-attention, words
(subword pieces merged), the pronoun's row when the sentence has one. A checkpoint without a
featured head opens on its clearest head (transformer.probing.clearest.clearest_head; cross-attention for
the copy / reverse / sort tasks, whose lesson is the alignment), not on layer 0, head 0.
Query parameters: ?kind=cross&layer=1&head=2&text=...&target=... open a given head. The sections in
ui/attention_view.py."""
from ui.deeplink import ensure_app; ensure_app()  # a direct deep link runs app.py (ui/deeplink.py)
from ui import attention_view as view
from ui import flow_view, page_kit
from ui.serving import gc_tuning
from ui import logit_lens_view
from ui.strings import attention as strings

_, ck, path = page_kit.checkpoint_header(strings)
ins, featured, fresh = view.open_view(ck, path)
view.output(ins, ck)
logit_lens_view.section(ins, ck, path)  # what each decoder layer would write (off until asked)
shown = view.controls(ins, ck)
view.clearest(shown, ck, path, featured, fresh)
view.featured_box(shown, ck, path, featured, ins)
layer, head, head_names, m = view.head_view(shown, path)
numbers = view.enlarged(shown, layer, head, m)
view.model_view(shown, head_names)
flow_view.section(ins, ck, cell_text=numbers)  # attention rollout, beside a causal test
view.downloads(shown, ins, ck, layer, head, m)
gc_tuning.freeze_once()  # the server's long-lived objects out of every later collection
