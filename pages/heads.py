"""Heads: the head finder as a layers x heads grid per attention kind for a chosen relation, a link
that opens one head on the Attention page, and ablation (heads switched off: output and pronoun
accuracy with and without). Scoring in transformer/probing/heads.py, the sections in ui/heads_view.py,
figures and the causal test in viz/heads.py; the head atlas (every head labelled) in
ui/atlas_view.py."""
from ui.deeplink import ensure_app; ensure_app()  # a direct deep link runs app.py (ui/deeplink.py)
from ui import align_view
from ui import atlas_view
from ui import faithfulness_view
from ui import heads_view as HV
from ui import page_kit
from ui import qk_view
from ui.strings import heads as strings

_, ck, path = page_kit.checkpoint_header(strings)
task = (ck.train_config or {}).get("task")

atlas_view.section(path)  # every head labelled (off until asked: it runs the model 40 times)
faithfulness_view.section(path)  # where each head looks against what it does (off until asked)
align_view.section(path, ck)  # which cross head aligns, against gold links (off until asked)
qk_view.section(path, ck)  # one head's queries and keys of many sentences (off until asked)

scores = HV.score(HV.relation(), path, task)
HV.grids(scores)
HV.open_head(scores, ck.model_config)
ablate = HV.ablation(scores, ck, path)
HV.accuracy(path, task, ablate)
