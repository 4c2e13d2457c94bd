"""Step by step: one query through one head, first as one short shaded table (open by default),
then in sections a reader opens on demand: the ten numbered steps with their vectors, the whole
head as matrices, the heads' concatenation and W_O, Add & Norm, the FFN and (decoder) the
next-token probabilities. Query parameters: ?kind=cross&layer=1&head=2&query=3&text=...&target=..."""
from ui.deeplink import ensure_app; ensure_app()  # a direct deep link runs app.py (ui/deeplink.py)
from ui import page_kit
from ui import step_view as view
from ui.strings import step as strings

_, ck, _ = page_kit.checkpoint_header(strings)
ins = view.open_view(ck)
c = view.choice(ins, ck)
num = view.Numbering()  # the steps' numbers, through the parts
view.part_query(ins, c)
view.part_steps(ins, c, num)
view.part_matrix(ins, c, num)
view.part_combine(ins, c, num)
view.part_norm(ins, c, num, ck)
view.part_ffn(ins, c, num, ck)
view.part_logits(ins, c, num, ck)
