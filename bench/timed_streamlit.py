"""`streamlit ...` with every script run's start and end (epoch seconds) appended as a JSON line to
the file named by $ATTENTION_LAB_RUNLOG: the server's own part of a page, for bench/browser_load.py.

    ATTENTION_LAB_RUNLOG=/tmp/runs.jsonl python bench/timed_streamlit.py run app.py ...

It wraps ScriptRunner._run_script (one whole run of the script, from the first line to the last
message handed to the session) and changes nothing else; the app it runs may be any tree's."""
from __future__ import annotations

import json
import os
import sys
import threading
import time

from streamlit.runtime.scriptrunner import script_runner as _sr

_PATH = os.environ.get("ATTENTION_LAB_RUNLOG")
_LOCK = threading.Lock()
_run_script = _sr.ScriptRunner._run_script


def _timed(self, rerun_data):
    t0 = time.time()
    try:
        return _run_script(self, rerun_data)
    finally:
        if _PATH:
            line = json.dumps({"start": t0, "end": time.time(),
                               "session": getattr(self, "_session_id", "")})
            with _LOCK, open(_PATH, "a") as f:
                f.write(line + "\n")


_sr.ScriptRunner._run_script = _timed

if __name__ == "__main__":
    from streamlit.web.cli import main

    sys.argv[0] = "streamlit"
    sys.exit(main())
