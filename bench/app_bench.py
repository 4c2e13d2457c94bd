"""The app as a server: time from submitting a sentence to the Attention page's charts (server
side, AppTest), cold start to the first page drawn (a real server and headless chromium), and
memory: server RSS with one model loaded, and what each extra browser session adds.

    python bench/app_bench.py [--json] [--sessions 10]
"""
from __future__ import annotations

import argparse
import functools
import json
import os
import shutil
import sys
import time

from common import ROOT, SENTENCE_32, stats
from classroom import sentences

sys.path.insert(0, str(ROOT / "tests"))  # app_helpers: the app as a server


def _ckpt_env() -> dict:
    env = {}
    if not (ROOT / "checkpoints" / "multi30k-en-de").is_dir():
        best = ROOT / "runs" / "multi30k-small" / "checkpoints" / "best"
        if best.is_dir():
            env["ATTENTION_LAB_RUNS"] = str(ROOT / "runs")
    env["ATTENTION_LAB_DEFAULT"] = "multi30k-en-de"
    return env


def server_time(repeats: int) -> dict:
    """Seconds from setting the sentence to the end of the Attention page's script run."""
    from streamlit.testing.v1 import AppTest

    os.environ.update(_ckpt_env())
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.run()
    at.switch_page("pages/attention.py")
    at.run()
    choice = [c for c in at.sidebar.selectbox[0].options]
    at.sidebar.selectbox[0].select_index(
        next((i for i, c in enumerate(choice) if "multi30k" in c), 0))
    at.run()
    texts = [SENTENCE_32] + [s.replace(".", "on a sunny day .") for s in sentences(repeats)]
    times = []
    for t in texts[:repeats]:
        at.text_input(key="attention_text").set_value(t)
        t0 = time.perf_counter()
        at.run()
        times.append(time.perf_counter() - t0)
        assert not at.exception, at.exception
    charts = len(at.get("plotly_chart"))
    return {**stats(times), "charts": charts, "checkpoint": at.session_state["ckpt_path"]}


def _rss_kb(pid: int) -> int:
    total = 0
    for p in [pid] + _children(pid):
        try:
            for line in open(f"/proc/{p}/status"):
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


def _children(pid: int) -> list[int]:
    try:
        return [int(x) for x in open(f"/proc/{pid}/task/{pid}/children").read().split()]
    except OSError:
        return []


def browser_measures(sessions: int) -> dict:
    from playwright.sync_api import sync_playwright

    from app_helpers import app_server, browser_idle

    _idle = functools.partial(browser_idle, timeout=180, poll=0.1, settle=0.3)
    chromium = shutil.which("chromium")
    if not chromium:
        return {"skipped": "no chromium on PATH"}
    out: dict = {}
    t0 = time.perf_counter()
    with app_server(_ckpt_env()) as server:
        base = server.base
        out["server_ready_s"] = round(time.perf_counter() - t0, 2)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, headless=True, args=[
                "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
            page = browser.new_page()
            page.goto(base)
            _idle(page)
            out["cold_start_to_first_page_s"] = round(time.perf_counter() - t0, 2)
            page.goto(base + "/attention")
            _idle(page)
            time.sleep(1)
            base_rss = _rss_kb(server.proc.pid)
            out["rss_one_model_mb"] = round(base_rss / 1024, 1)
            pages = []
            for i, text in enumerate(sentences(sessions)):
                pg = browser.new_page()
                pg.goto(base + "/attention")
                _idle(pg)
                box = pg.locator("[data-testid='stTextInput'] input").first
                box.fill(text)
                box.press("Enter")
                _idle(pg)
                pages.append(pg)
            time.sleep(2)
            rss = _rss_kb(server.proc.pid)
            out["sessions"] = sessions
            out["rss_after_sessions_mb"] = round(rss / 1024, 1)
            out["added_per_session_mb"] = round((rss - base_rss) / 1024 / sessions, 2)
            browser.close()
    return out


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=6)
    ap.add_argument("--sessions", type=int, default=10)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    out = {"attention_page_server_time": server_time(args.repeats),
           **browser_measures(args.sessions)}
    print(json.dumps(out) if args.json else json.dumps(out, indent=1))
    return out


if __name__ == "__main__":
    main()
