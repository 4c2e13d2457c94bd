"""`streamlit ...` with every script run's start and end (epoch seconds) appended as a JSON line to
the file named by $ATTENTION_LAB_RUNLOG: the server's own part of a page, for bench/browser_load.py.

    ATTENTION_LAB_RUNLOG=/tmp/runs.jsonl python bench/timed_streamlit.py run app.py ...

It wraps ScriptRunner._run_script (one whole run of the script, from the first line to the last
message handed to the session) and changes nothing else; the app it runs may be any tree's.
With $ATTENTION_LAB_PROFILE set to a path, every run is also profiled (cProfile, the script's own
thread) and the runs' combined statistics are written there after each run:
`python -m pstats PATH` reads them."""
from __future__ import annotations

import gc
import json
import os
import sys
import threading
import time

from streamlit.runtime.scriptrunner import script_runner as _sr

_PATH = os.environ.get("ATTENTION_LAB_RUNLOG")
_PROFILE = os.environ.get("ATTENTION_LAB_PROFILE")
_LOCK = threading.Lock()
_run_script = _sr.ScriptRunner._run_script
_profiles: list = []
_gc = {"since": 0.0, "total": 0.0}  # time in the garbage collector, every thread


def _gc_watch(phase, info):
    if phase == "start":
        _gc["since"] = time.perf_counter()
    elif _gc["since"]:
        _gc["total"] += time.perf_counter() - _gc["since"]
        _gc["since"] = 0.0


gc.callbacks.append(_gc_watch)


def _profiled(self, rerun_data):
    import cProfile
    import pstats

    prof = cProfile.Profile()
    try:
        return prof.runcall(_run_script, self, rerun_data)
    finally:
        with _LOCK:
            _profiles.append(prof)
            pstats.Stats(*_profiles).dump_stats(_PROFILE)


def _timed(self, rerun_data):
    t0, gc0 = time.time(), _gc["total"]
    try:
        return (_profiled if _PROFILE else _run_script)(self, rerun_data)
    finally:
        if _PATH:
            # gc_s: of which in the garbage collector (Streamlit collects after every run,
            # runner.postScriptGC, once the run's last message is queued)
            line = json.dumps({"start": t0, "end": time.time(), "gc_s": _gc["total"] - gc0,
                               "session": getattr(self, "_session_id", "")})
            with _LOCK, open(_PATH, "a") as f:
                f.write(line + "\n")


_sr.ScriptRunner._run_script = _timed

if __name__ == "__main__":
    from streamlit.web.cli import main

    sys.argv[0] = "streamlit"
    sys.exit(main())
