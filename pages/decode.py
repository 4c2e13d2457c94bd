"""Decode: greedy, beam search or sampling, step by step (top-k next tokens, cross-attention over
the source, masked self-attention over the prefix), and teacher forcing versus free generation.
Math in transformer/core/decode.py, the sections in ui/decode_view.py, tables and figures in
viz/decode.py."""
from ui.deeplink import ensure_app; ensure_app()  # a direct deep link runs app.py (ui/deeplink.py)
from ui import decode_view as DV
from ui import page_kit
from ui.strings import decode as strings

_, ck, path = page_kit.checkpoint_header(strings)

text = DV.source_text(ck.train_config)
method = DV.method()
res = DV.decode(path, text, method)
DV.output(path, text, method, res, ck.tokenizer)
out_ids = DV.steps(method, res, ck.tokenizer, ck.model_config)
DV.teacher_forcing(path, text, method, out_ids, ck)
