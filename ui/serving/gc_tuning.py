"""The garbage collector of a long-running app server, tuned once per process.

Streamlit runs a full collection after every script run (runner.postScriptGC). In this server
that collection walks every object torch, plotly, pandas and the loaded models made: measured on
the 2-core machine, 200-400 ms after each sentence typed on the Attention page, holding the
interpreter lock while the run's last messages wait to be sent (docs/BENCHMARKS.md, issue 24).
`freeze_once()` collects, then moves the survivors (modules, models, caches: what lives for the
whole process) into the collector's permanent generation (gc.freeze), so later collections walk
only what was made since: about 3 ms. Frozen objects are still freed by reference counting; only
a reference cycle among them would stay, and they are frozen once."""
from __future__ import annotations

import gc


def freeze_once() -> bool:
    """Collect and freeze what is alive, the first time in the process (True then), else nothing."""
    if gc.get_freeze_count():
        return False
    gc.collect()
    gc.freeze()
    return True
