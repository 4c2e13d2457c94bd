"""Attention across training: one head of one run, at every saved checkpoint, on one sentence,
beside the run's loss curve. It opens the training of the model chosen in the sidebar, or says
which run it shows instead; ?run=NAME opens a run. The sections in ui/across_training_view.py."""
from ui.deeplink import ensure_app; ensure_app()  # a direct deep link runs app.py (ui/deeplink.py)
from ui import across_training_view as view
from ui import page_kit
from ui.strings import across_training as strings

page_kit.header(strings)
run = view.run_choice(view.runs_with_checkpoints())
text, inspected = view.sentence(run)
kind, layer, head = view.head_choice(run)
i = view.checkpoint(run)
view.weights(run, text, inspected, kind, layer, head, i)
