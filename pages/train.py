"""Train: choose data and a model, start `python -m transformer.train` as a child process in its own
run directory, watch it (loss, schedule, samples, checkpoints), stop, resume. ?run=NAME watches a
run (so a refresh keeps it); every browser sees every run, because the runs are on disk. The
sections live in ui/train_start.py (the new-run form) and ui/train_watch.py (watching a run)."""
from ui.deeplink import ensure_app; ensure_app()  # a direct deep link runs app.py (ui/deeplink.py)
import streamlit as st

from ui import page_kit, train_start, train_watch
from ui.strings import train as strings

page_kit.header(strings)
train_start.device_banner()

train_watch.follow_open()  # a checkpoint opened from this page: on to the Attention page
train_watch.pump()  # a queued student run starts here when the slot has freed

all_runs, watched = train_watch.pick_run()
train_start.new_run_section(expanded=watched is None)
train_watch.show_delete_message()

st.divider()
train_watch.run_picker(all_runs, watched)
train_watch.watch_section(watched)
