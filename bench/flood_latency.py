"""A fresh session's page latency while five student sessions flood the class server (issue 22),
against no flood, in the same run.

A real `streamlit run app.py` with a teacher token, driven over Streamlit's own websocket as a
browser drives it (tests/app_helpers.py). The fresh session opens the Attention page with a new
sentence each time (nothing cached for it). The flooders, each its own session, as fast as they
can: send `clear_cache` (ignored for students since issue 22, D), rerun the Attention page with
new sentences and the Decode page with a wide beam over a long text (limited since issue 22, F).

    python bench/flood_latency.py [--samples 8] [--flooders 5] [--json]
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from common import stats  # noqa: E402

TOKEN = "flood-bench-" + "x" * 24
WORDS = ["dog", "cat", "horse", "girl", "boy", "man", "woman", "bird"]
PLACES = ["park", "street", "garden", "house", "field", "beach"]


def sentence(i: int) -> str:
    return f"A {WORDS[i % 8]} runs in the {PLACES[(i // 8) % 6]} with {i % 97} friends ."


def fresh_latency(srv, i: int) -> float:
    from app_helpers import Session

    s = Session(srv)
    try:
        t0 = time.perf_counter()
        s.run(query=f"text={sentence(i).replace(' ', '+')}", page="attention")
        return time.perf_counter() - t0
    finally:
        s.close()


def flooder(srv, stop: threading.Event, k: int, counts: dict, lock: threading.Lock) -> None:
    from app_helpers import Session

    s = Session(srv)
    n = 0
    try:
        while not stop.is_set():
            n += 1
            s.send_clear_cache()
            s.run(query=f"text={sentence(1000 * k + n).replace(' ', '+')}", page="attention",
                  timeout=60)
            long = "+".join(["dog"] * 400)
            s.run(query=f"text={long}&method=beam&beam=7", page="decode", timeout=60)
            with lock:
                counts["requests"] += 3
    except Exception as e:  # noqa: BLE001 - a refused or dropped flooder is counted, not fatal
        with lock:
            counts["errors"] += 1
            counts["last_error"] = f"{type(e).__name__}: {e}"[:200]
    finally:
        s.close()


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser()
    ap.add_argument("--samples", type=int, default=8)
    ap.add_argument("--flooders", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    from app_helpers import app_server

    work = Path(tempfile.mkdtemp(prefix="flood-"))
    env = {"ATTENTION_LAB_TEACHER_TOKEN": TOKEN, "ATTENTION_LAB_RUNS": str(work / "runs"),
           "ATTENTION_LAB_UPLOADS": str(work / "uploads")}
    out: dict = {}
    with app_server(env, work / "server.log") as srv:
        fresh_latency(srv, 0)  # warm: the model loaded once, as in a class
        quiet = [fresh_latency(srv, i) for i in range(1, a.samples + 1)]
        stop, lock = threading.Event(), threading.Lock()
        counts = {"requests": 0, "errors": 0}
        threads = [threading.Thread(target=flooder, args=(srv, stop, k, counts, lock), daemon=True)
                   for k in range(a.flooders)]
        for th in threads:
            th.start()
        time.sleep(3)  # the flood under way
        flooded = [fresh_latency(srv, 100 + i) for i in range(a.samples)]
        stop.set()
        for th in threads:
            th.join(timeout=90)
        out = {"no_flood": stats(quiet), "flood": stats(flooded),
               "flooders": a.flooders, "flood_requests": counts["requests"],
               "flood_errors": counts["errors"], "last_error": counts.get("last_error")}
        out["ratio_median"] = round(out["flood"]["median_ms"] / out["no_flood"]["median_ms"], 2)
    print(json.dumps(out) if a.json else out)
    return out


if __name__ == "__main__":
    main()
