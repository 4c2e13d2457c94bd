"""The garbage collector of a long-running app server, tuned once per process.

Streamlit runs a full collection after every script run (runner.postScriptGC). In this server
that collection walks every object torch, plotly, pandas and the loaded models made: measured on
the 2-core machine, 200-400 ms after each sentence typed on the Attention page, holding the
interpreter lock while the run's last messages wait to be sent (docs/BENCHMARKS.md, issue 24).
`freeze_once()` collects, then moves the survivors (modules, models, caches: what lives for the
whole process) into the collector's permanent generation (gc.freeze), so later collections walk
only what was made since: about 3 ms. Frozen objects are still freed by reference counting; only
a reference cycle among them would stay, and they are frozen once.

app.py calls `freeze_after_loads(models.LOADS[0])` after every page's run: the first run freezes,
and so does the first run after each checkpoint newly loaded (a teacher switching models), on
every page, not only the Attention page."""
from __future__ import annotations

import gc


def freeze_once() -> bool:
    """Collect and freeze what is alive, the first time in the process (True then), else nothing."""
    if gc.get_freeze_count():
        return False
    gc.collect()
    gc.freeze()
    return True


_FROZEN_AT = [-1]  # the load count at the last freeze


def freeze_after_loads(loads: int) -> bool:
    """Collect and freeze when LOADS (checkpoints loaded so far) has grown since the last freeze,
    or at the first call (True then); else nothing."""
    if loads == _FROZEN_AT[0]:
        return False
    _FROZEN_AT[0] = loads
    gc.collect()
    gc.freeze()
    return True
