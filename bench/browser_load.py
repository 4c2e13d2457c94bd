"""A real-browser load test (issue 8, item 6): N headless Chromium pages (one browser, N contexts)
type different sentences on the Attention page of one app server for D seconds.

Per submission it records the time from pressing Enter to the script state being `notRunning`
again (after a run started) with the charts drawn (`[data-testid='stPlotlyChart'] .main-svg`),
and it watches every page, the whole time, for an error element
(`[data-testid='stException'], [data-testid='stAlertContentError']`).

    python bench/browser_load.py [--pages 10] [--seconds 60] [--checkpoints DIR] [--json]

One page, where the time goes (issue 24): `--single N` types N sentences, one at a time, on one page
and splits each submission's time from Enter to every chart drawn (all charts present, none stale,
then two animation frames) into the server's script run (bench/timed_streamlit.py logs each run)
and the browser's main thread (Chrome's TaskDuration, with its script, layout and style parts).
`--baseline-rev REV` (or `--baseline DIR`) also runs that commit's app on a second server and
alternates submissions between the two, so old and new are measured in the same run:

    python bench/browser_load.py --single 20 --default everyday-en-de --baseline-rev HEAD~1
    (--new-rev REV: that commit's app as the new side, instead of the working tree)

The server reads its shipped checkpoints from --checkpoints (default: the project's checkpoints/
if it holds one); runs and uploads go to a temporary directory. Prints JSON: p50/p95/max (ms),
submissions, errors, timeouts and charts missing; exits 1 when any page showed an error, timed out
or drew no chart.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from app_helpers import app_server  # noqa: E402  (the one `streamlit run app.py` launcher)

ERRORS = "[data-testid='stException'], [data-testid='stAlertContentError']"
CHARTS = "[data-testid='stPlotlyChart'] .main-svg"
CHART_BOXES = "[data-testid='stPlotlyChart']"
BOX = "[data-testid='stTextInput'] input"  # the first text box on the page: the source sentence

SUBJECTS = ["dog", "cat", "girl", "man", "horse", "bird", "child", "woman", "boy", "teacher",
            "farmer", "doctor"]
OBJECTS = ["cup", "ball", "book", "tree", "car", "house", "bike", "apple", "box", "hat"]
REASONS = ["hungry", "tired", "happy", "old", "small", "big", "red", "angry", "wet", "new"]


def sentence(page: int, k: int, pages: int) -> str:
    """A different sentence for every (page, submission): no two pages type the same one."""
    i = k * pages + page
    s = SUBJECTS[i % len(SUBJECTS)]
    o = OBJECTS[(i // len(SUBJECTS)) % len(OBJECTS)]
    r = REASONS[(i // (len(SUBJECTS) * len(OBJECTS))) % len(REASONS)]
    return f"The {s} saw the {o} because it was {r} ."


def has_checkpoint(d: Path) -> bool:
    return d.is_dir() and any((p / "model.safetensors").is_file() for p in d.iterdir()
                              if p.is_dir())


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _pct(s: list[float], q: float) -> float:
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def summary(times_s: list[float]) -> dict:
    if not times_s:
        return {"p50_ms": None, "p95_ms": None, "max_ms": None, "mean_ms": None}
    s = sorted(times_s)
    return {"p50_ms": round(1000 * statistics.median(s), 1), "p95_ms": round(1000 * _pct(s, .95), 1),
            "max_ms": round(1000 * s[-1], 1), "min_ms": round(1000 * s[0], 1),
            "mean_ms": round(1000 * statistics.fmean(s), 1)}


def server(checkpoints: Path, workdir: Path, default: str | None = None, app_root: Path = ROOT,
           runlog: Path | None = None):
    """`streamlit run app.py` (tests/app_helpers.app_server) with the given checkpoint directory,
    its runs and uploads under `workdir`. `app_root`: the tree whose app.py runs (another
    commit's, for a side-by-side run); `runlog`: log every script run's start and end there
    (bench/timed_streamlit.py)."""
    env = {"ATTENTION_LAB_CHECKPOINTS": str(checkpoints), "ATTENTION_LAB_RUNS": str(workdir / "runs"),
           "ATTENTION_LAB_UPLOADS": str(workdir / "uploads")}
    if default:
        env["ATTENTION_LAB_DEFAULT"] = default
    launcher: tuple = ("-m", "streamlit")
    if runlog is not None:
        env["ATTENTION_LAB_RUNLOG"] = str(runlog)
        launcher = (str(ROOT / "bench" / "timed_streamlit.py"),)
    return app_server(env, workdir / "server.log", ("--server.fileWatcherType", "none"),
                      app_root=app_root, launcher=launcher)


def script_runs(runlog: Path) -> list[dict]:
    """The script runs logged so far in `runlog` (epoch seconds), oldest first."""
    if not runlog.exists():
        return []
    return [json.loads(x) for x in runlog.read_text().splitlines() if x.strip()]


def shipped(checkpoints: Path | None, shots: Path | None) -> Path:
    """The shipped-checkpoint directory to serve (default: the project's), checked; makes the
    screenshot folder."""
    checkpoints = checkpoints or ROOT / "checkpoints"
    if not has_checkpoint(checkpoints):
        raise SystemExit(f"no checkpoint in {checkpoints}: pass --checkpoints DIR")
    if shots is not None:
        shots.mkdir(parents=True, exist_ok=True)
    return checkpoints


# Installed in every page once it is loaded: the script-state transitions with their times, and
# every error element that ever appears (a MutationObserver over the whole app).
WATCH_JS = """(sel) => {
  const app = document.querySelector("[data-testid='stApp']");
  window.__states = [];
  window.__errors = [];
  // One callback can carry several changes (under load, the messages "run started" and "run
  // finished" reach the page in one task): record the state each change left, not only the last,
  // or a whole run can vanish from the record and its submission wait forever.
  new MutationObserver((records) => {
    const t = performance.now();
    records.forEach((r, i) => window.__states.push(
      [t, i + 1 < records.length ? records[i + 1].oldValue : app.getAttribute('data-test-script-state')]));
  }).observe(app, {attributes: true, attributeOldValue: true,
                   attributeFilter: ['data-test-script-state']});
  const seen = new Set();
  const look = () => {
    for (const e of document.querySelectorAll(sel)) {
      const t = (e.innerText || '').slice(0, 300);
      if (!seen.has(t)) { seen.add(t); window.__errors.push(t); }
    }
  };
  look();
  new MutationObserver(look).observe(document.body, {childList: true, subtree: true});
}"""

# The start of a check over WATCH_JS's record: false until a run started after t0 has finished.
# `busy`: the page was already running at t0. Streamlit then stops that run and starts one with the
# new value without the state ever leaving 'running', so no change after t0 marks the start: the
# first 'notRunning' after t0 ends the submission's run (without `busy`, such a submission waited
# out its whole timeout: a lost submission in CI, 2026-11-27, 1 of 43).
RUN_DONE_JS = """([t0, sel, busy]) => {
  const s = window.__states.filter(e => e[0] >= t0);
  const i = busy ? 0 : s.findIndex(e => e[1] !== 'notRunning');
  if (i < 0 || !s.slice(i).some(e => e[1] === 'notRunning')) return false;
  const app = document.querySelector("[data-testid='stApp']");
  if (app.getAttribute('data-test-script-state') !== 'notRunning') return false;"""

# Resolves (to the time it became true) once a run started after t0 has finished and the charts
# are drawn.
DONE_JS = RUN_DONE_JS + """
  if (document.querySelectorAll(sel).length < 1) return false;
  return performance.now();
}"""

# One Chromium for all the pages, headless, without what would compete with them for the CPU
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
                 "--disable-backgrounding-occluded-windows"]


async def _idle(page, timeout_s: float) -> None:
    await page.wait_for_selector("[data-testid='stApp']", timeout=timeout_s * 1000)
    await page.wait_for_function(
        """() => document.querySelector("[data-testid='stApp']")
                   .getAttribute('data-test-script-state') === 'notRunning'""",
        timeout=timeout_s * 1000, polling=100)


async def _open(page, base: str, timeout_s: float) -> str | None:
    """Open the Attention page, wait for its charts and install WATCH_JS. A deep link on a fresh
    server can open a "Page not found" dialog over the page (it makes the page inert): closed,
    and its text returned."""
    await page.goto(base + "/attention", timeout=timeout_s * 1000)
    await _idle(page, timeout_s)
    await page.wait_for_selector(CHARTS, timeout=timeout_s * 1000)
    dialog, text = page.locator("[role='dialog']"), None
    if await dialog.count():
        text = (await dialog.first.inner_text())[:120]
        await page.keyboard.press("Escape")
        await dialog.first.wait_for(state="detached", timeout=10_000)
    await page.evaluate(WATCH_JS, ERRORS)
    return text


# A submission whose page shows no script-state change at all this long after Enter, and sits idle with
# the new text in the box, lost the key press in the browser (Streamlit's text box had not yet taken
# the filled text): in CI about 1 in 150 submissions, the server idle (2026-11-28, from _stall's
# report: "states since Enter: [] ...; now: notRunning"). The text is submitted again (RESUBMIT) and each
# try counted (`enters_repeated`); the submission's time still runs from the first press.
LOST_ENTER_S = 20
# How a lost submission is made again, in order, LOST_ENTER_S apart. In one CI run (2026-11-28) a second
# Enter was lost too, the sentence in the box: the text box had not marked itself changed (Streamlit's
# box submits on Enter or on leaving it only then). Typing the text anew marks it; leaving the box is
# the other way a person submits.
RESUBMIT = ("retype-enter", "retype-blur")


class LostSubmission(Exception):
    """No run started on the page through every way of submitting again (RESUBMIT): the page is
    reloaded and typing goes on. Counted apart from timeouts (`lost`), with _stall's report."""


async def _done_within(page, t0: float, busy: bool, seconds: float):
    """DONE_JS's handle once the submission made at T0 finished with its charts, or None after SECONDS."""
    from playwright.async_api import TimeoutError as PlaywrightTimeout

    try:
        return await page.wait_for_function(DONE_JS, arg=[t0, CHARTS, busy],
                                            timeout=seconds * 1000, polling=50)
    except PlaywrightTimeout:
        return None


async def _resubmit(page, box, text: str, how: str) -> None:
    """Type TEXT into the box anew and submit it by Enter or by leaving the box."""
    await box.fill("")
    await box.fill(text)
    await page.wait_for_timeout(100)
    if how == "retype-enter":
        await box.press("Enter")
    else:
        await box.blur()


NOTHING_SINCE_JS = """(t0) => !window.__states.some(e => e[0] >= t0) &&
  document.querySelector("[data-testid='stApp']").getAttribute('data-test-script-state') === 'notRunning'"""


async def _stall(page, box, t0: float, busy: bool) -> str:
    """What a page looked like when its submission stalled, for the report: the script-state changes
    recorded since Enter (ms after it), the state now, and what the box holds. A flaky stall in CI
    (about 1 submission in 150) could not be told apart from a lost Enter without it."""
    try:
        seen = await page.evaluate(
            """(t0) => [window.__states.filter(e => e[0] >= t0).map(e => [Math.round(e[0] - t0), e[1]]),
                        window.__states.length,
                        document.querySelector("[data-testid='stApp']")
                                .getAttribute('data-test-script-state')]""", t0)
        value = await box.input_value(timeout=2000)
    except Exception as e:  # the page itself is gone: say so
        return f"page unreadable: {type(e).__name__}"
    return f"busy at Enter: {busy}; states since Enter: {seen[0][:8]} of {seen[1]}; now: {seen[2]}; box: {value[:60]!r}"


async def _worker(browser, base: str, idx: int, pages: int, opened: asyncio.Future,
                  go: asyncio.Event, clock: dict, timeout_s: float, out: dict,
                  shots: Path | None) -> None:
    rec = out["pages"][idx]
    ctx = page = None
    try:
        ctx = await browser.new_context(viewport={"width": 1300, "height": 900})
        page = await ctx.new_page()
        dialog = await _open(page, base, timeout_s)
        if dialog is not None:  # counted
            rec["dialogs"].append(dialog)
    except Exception as e:
        rec["problems"].append(f"page {idx} did not open: {type(e).__name__}: {str(e)[:300]}")
        page = None
    finally:
        opened.set_result(page is not None)
    try:
        await go.wait()  # every page typing at once, for the same `seconds`
        if page is None:
            return
        box = page.locator(BOX).first
        k = 0
        while time.monotonic() < clock["deadline"]:
            text = sentence(idx, k, pages)
            k += 1
            await box.fill(text)
            await page.wait_for_timeout(100)  # a person's pause between typing and Enter (see LOST_ENTER_S)
            t0, busy = await page.evaluate(
                "() => [performance.now(), document.querySelector(\"[data-testid='stApp']\")"
                ".getAttribute('data-test-script-state') === 'running']")
            await box.press("Enter")
            rec["submissions"] += 1
            try:
                t1 = await _done_within(page, t0, busy, LOST_ENTER_S)
                for how in RESUBMIT:  # slow, or the key was lost: tell which
                    if t1 is not None or not await page.evaluate(NOTHING_SINCE_JS, t0):
                        break  # done, or a run started: it is only slow
                    rec["enters_repeated"] += 1  # the box never took the key: submit again
                    await _resubmit(page, box, text, how)
                    t1 = await _done_within(page, t0, busy, LOST_ENTER_S)
                if t1 is None and await page.evaluate(NOTHING_SINCE_JS, t0):
                    raise LostSubmission(await _stall(page, box, t0, busy))
                if t1 is None:  # raises on its timeout: the run never finished
                    t1 = await page.wait_for_function(
                        DONE_JS, arg=[t0, CHARTS, busy], polling=50,
                        timeout=max(1.0, timeout_s - LOST_ENTER_S * (1 + len(RESUBMIT))) * 1000)
                rec["times"].append((await t1.json_value() - t0) / 1000)
            except LostSubmission as e:  # the page never started a run: reload it, as a person would
                rec["lost"] += 1
                rec["problems_lost"].append(f"{text!r}: {e}")
                rec["errors_before_reload"] += await page.evaluate("() => window.__errors")
                await _open(page, base, timeout_s)
                box = page.locator(BOX).first
                continue
            except Exception as e:  # the run never finished, or no chart was drawn
                rec["timeouts"] += 1
                charts = await page.locator(CHARTS).count()
                rec["problems"].append(f"{text!r}: {type(e).__name__} (charts: {charts}; "
                                       f"{await _stall(page, box, t0, busy)})")
                if not charts:
                    rec["charts_missing"] += 1
            if await page.evaluate("() => window.__errors.length"):
                break
        rec["errors"] = rec["errors_before_reload"] + await page.evaluate("() => window.__errors")
        if shots is not None:
            await page.screenshot(path=str(shots / f"load_page{idx}.png"), full_page=True)
    except Exception as e:
        rec["problems"].append(f"page {idx}: {type(e).__name__}: {str(e)[:300]}")
    finally:
        if ctx is not None:
            await ctx.close()


async def _drive(base: str, pages: int, seconds: float, timeout_s: float,
                 shots: Path | None) -> dict:
    from playwright.async_api import async_playwright

    out = {"pages": [{"submissions": 0, "times": [], "timeouts": 0, "charts_missing": 0,
                      "enters_repeated": 0, "lost": 0, "problems_lost": [], "errors_before_reload": [],
                      "errors": [], "problems": [], "dialogs": []} for _ in range(pages)]}
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=chromium_path(), headless=True,
                                          args=CHROMIUM_ARGS)
        loop = asyncio.get_running_loop()
        opened = [loop.create_future() for _ in range(pages)]
        go, clock = asyncio.Event(), {"deadline": 0.0}
        t_open = time.monotonic()
        tasks = [asyncio.create_task(_worker(browser, base, i, pages, opened[i], go, clock,
                                             timeout_s, out, shots)) for i in range(pages)]
        await asyncio.gather(*opened)
        out["open_s"] = round(time.monotonic() - t_open, 1)  # N sessions opened the page
        t_go = time.monotonic()
        clock["deadline"] = t_go + seconds
        go.set()
        await asyncio.gather(*tasks)
        out["wall_s"] = round(time.monotonic() - t_go, 1)
        await browser.close()
    return out


def run(pages: int = 10, seconds: float = 60, checkpoints: Path | None = None,
        default: str | None = None, timeout_s: float = 120, shots: Path | None = None) -> dict:
    if chromium_path() is None:
        return {"skipped": "no chromium on PATH"}
    checkpoints = shipped(checkpoints, shots)
    with tempfile.TemporaryDirectory(prefix="browser_load_") as tmp:
        t0 = time.perf_counter()
        with server(checkpoints, Path(tmp), default) as srv:
            ready = time.perf_counter() - t0
            raw = asyncio.run(_drive(srv.base, pages, seconds, timeout_s, shots))
            alive = srv.proc.poll() is None
            log = srv.log_text()[-1500:]
    recs = raw["pages"]
    times = [t for r in recs for t in r["times"]]
    errors = [e for r in recs for e in r["errors"]]
    problems = [p for r in recs for p in r["problems"]]
    out = {
        "pages": pages, "seconds": seconds, "checkpoints": str(checkpoints),
        "server_ready_s": round(ready, 2), "open_s": raw["open_s"], "wall_s": raw["wall_s"],
        "submissions": sum(r["submissions"] for r in recs),
        "completed": len(times),
        "per_page_submissions": [r["submissions"] for r in recs],
        **summary(times),
        "errors": len(errors), "error_texts": errors[:10],
        "timeouts": sum(r["timeouts"] for r in recs),
        "enters_repeated": sum(r["enters_repeated"] for r in recs),
        "lost": sum(r["lost"] for r in recs),
        "lost_texts": [x for r in recs for x in r["problems_lost"]],
        "charts_missing": sum(r["charts_missing"] for r in recs),
        "problems": problems[:10],
        # "Page not found" over a deep link on a fresh server (see _worker): count and text
        "dialogs_on_open": sum(len(r["dialogs"]) for r in recs),
        "dialog_texts": sorted({d for r in recs for d in r["dialogs"]}),
        "server_alive": alive,
        "cores": os.cpu_count(),
        "threads": int(os.environ.get("ATTENTION_LAB_THREADS", "1")),
    }
    out["ok"] = bool(out["completed"] and not out["errors"] and not out["timeouts"]
                     and not out["charts_missing"] and not problems and alive
                     and all(r["submissions"] for r in recs))
    if not out["ok"]:
        out["server_log_tail"] = log
    return out


# --- one page, where the time goes (issue 24) -------------------------------------------------

# Resolves once a run started after t0 has finished, every chart on the page has its svg, no
# element is stale (left over from the run before), and two animation frames have passed (the
# browser painted): to that time, as epoch milliseconds.
DRAWN_JS = RUN_DONE_JS + """
  const charts = document.querySelectorAll(sel);
  if (!charts.length) return false;
  for (const c of charts) if (!c.querySelector('.main-svg')) return false;
  if (document.querySelector("[data-stale='true']")) return false;
  return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(
      () => r(performance.timeOrigin + performance.now()))));
}"""

PAGE_STATS_JS = """() => ({
  charts: document.querySelectorAll("[data-testid='stPlotlyChart']").length,
  subplots: document.querySelectorAll("[data-testid='stPlotlyChart'] rect.nsewdrag").length,
  dom_nodes: document.getElementsByTagName('*').length})"""

# Chrome's cumulative main-thread times of the page (Performance.getMetrics), in seconds
BUSY = {"busy": "TaskDuration", "script": "ScriptDuration", "layout": "LayoutDuration",
        "style": "RecalcStyleDuration"}


async def _metrics(cdp) -> dict:
    got = {m["name"]: m["value"] for m in (await cdp.send("Performance.getMetrics"))["metrics"]}
    return {k: got.get(v, 0.0) for k, v in BUSY.items()}


class _Side:
    """One server and the one page typing on it."""

    def __init__(self, name: str, server, runlog: Path):
        self.name, self.server, self.runlog = name, server, runlog
        self.page = self.cdp = None
        self.frames = 0  # websocket bytes received since the last reset
        self.rows: list[dict] = []
        self.problems: list[str] = []

    async def open(self, browser, timeout_s: float) -> None:
        ctx = await browser.new_context(viewport={"width": 1300, "height": 900})
        self.page = page = await ctx.new_page()
        self.cdp = await ctx.new_cdp_session(page)
        await self.cdp.send("Performance.enable")
        await self.cdp.send("Network.enable")

        def frame(ev):
            self.frames += len(ev.get("response", {}).get("payloadData", ""))

        self.cdp.on("Network.webSocketFrameReceived", frame)
        await _open(page, self.server.base, timeout_s)

    async def submit(self, text: str, timeout_s: float) -> dict | None:
        page = self.page
        box = page.locator(BOX).first
        await box.fill(text)
        await page.wait_for_timeout(300)  # let the fill's own work settle
        before = await _metrics(self.cdp)
        t0 = await page.evaluate("() => performance.now()")
        e0 = await page.evaluate("() => performance.timeOrigin + performance.now()")
        self.frames = 0
        await box.press("Enter")
        try:
            done = await page.wait_for_function(DRAWN_JS, arg=[t0, CHART_BOXES],
                                                timeout=timeout_s * 1000, polling=20)
            e1 = await done.json_value()
        except Exception as ex:
            self.problems.append(f"{text!r}: {type(ex).__name__}: {str(ex)[:200]}")
            return None
        after = await _metrics(self.cdp)
        await page.wait_for_timeout(200)  # runs logged after the last message was sent
        runs = [r for r in script_runs(self.runlog) if r["start"] * 1000 >= e0 - 5]
        row = {"total_ms": e1 - e0,
               "server_ms": sum(1000 * (r["end"] - r["start"]) for r in runs),
               "server_gc_ms": sum(1000 * r.get("gc_s", 0.0) for r in runs),
               "script_runs": len(runs),
               "after_server_ms": (e1 - 1000 * max(r["end"] for r in runs)) if runs else None,
               **{f"{k}_ms": 1000 * (after[k] - before[k]) for k in BUSY},
               "ws_bytes": self.frames,
               **await page.evaluate(PAGE_STATS_JS)}
        errors = await page.evaluate("() => window.__errors")
        if errors:
            self.problems.append(f"{text!r}: error on the page: {errors[:2]}")
        return row

    def summary(self) -> dict:
        out: dict = {"n": len(self.rows), "problems": self.problems[:10]}
        for k in ("total_ms", "server_ms", "server_gc_ms", "after_server_ms", "busy_ms", "script_ms",
                  "layout_ms", "style_ms", "ws_bytes", "charts", "subplots", "dom_nodes",
                  "script_runs"):
            v = sorted(r[k] for r in self.rows if r.get(k) is not None)
            if v:
                out[k] = {"p50": round(statistics.median(v), 1), "min": round(v[0], 1),
                          "max": round(v[-1], 1)}
        return out


async def _drive_single(sides: list[_Side], n: int, warmup: int, timeout_s: float,
                        shots: Path | None) -> None:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=chromium_path(), headless=True,
                                          args=CHROMIUM_ARGS)
        for side in sides:
            await side.open(browser, timeout_s)
            print(f"{side.name}: page open", file=sys.stderr, flush=True)
        for k in range(warmup + n):
            # the same sentence on every side; the order alternates round by round
            order = sides if k % 2 == 0 else sides[::-1]
            for side in order:
                row = await side.submit(sentence(0, k, 1), timeout_s)
                if row is not None and k >= warmup:
                    side.rows.append(row)
                print(f"{side.name} {k}: " + (f"{row['total_ms']:.0f} ms total, server "
                      f"{row['server_ms']:.0f} ms (gc {row['server_gc_ms']:.0f}), browser busy "
                      f"{row['busy_ms']:.0f} ms"
                      if row else "failed"), file=sys.stderr, flush=True)
        if shots is not None:
            for side in sides:
                await side.page.screenshot(path=str(shots / f"single_{side.name}.png"),
                                           full_page=True)
        await browser.close()


def git_tree(rev: str, dest: Path) -> Path:
    """The project's files at commit `rev` (git archive), without touching the working tree."""
    dest.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    return dest


def single(n: int = 20, checkpoints: Path | None = None, default: str | None = None,
           baseline: Path | None = None, baseline_rev: str | None = None, warmup: int = 2,
           timeout_s: float = 120, shots: Path | None = None, new_rev: str | None = None) -> dict:
    """N sentences typed one at a time on one page of this tree's app, or of commit `new_rev`'s
    (and, side by side, of a baseline tree's): p50/min/max of each part of the time from Enter
    to every chart drawn."""
    if chromium_path() is None:
        return {"skipped": "no chromium on PATH"}
    checkpoints = shipped(checkpoints, shots)
    with tempfile.TemporaryDirectory(prefix="browser_single_") as tmp:
        tmp = Path(tmp)
        roots = {"new": git_tree(new_rev, tmp / "new_tree") if new_rev else ROOT}
        if baseline_rev:
            baseline = git_tree(baseline_rev, tmp / "baseline_tree")
        if baseline is not None:
            roots = {"baseline": Path(baseline).resolve(), "new": roots["new"]}
        sides = []
        with contextlib.ExitStack() as servers:  # each started once the one before answers
            for name, root in roots.items():
                (tmp / name).mkdir()
                runlog = tmp / name / "runs.jsonl"
                srv = servers.enter_context(server(checkpoints, tmp / name, default, root, runlog))
                sides.append(_Side(name, srv, runlog))
            asyncio.run(_drive_single(sides, n, warmup, timeout_s, shots))
    out = {"mode": "single", "n": n, "warmup": warmup, "checkpoints": str(checkpoints),
           "default": default, "baseline_rev": baseline_rev, "new_rev": new_rev,
           "baseline": str(baseline) if baseline is not None else None,
           "cores": os.cpu_count(), "python": sys.version.split()[0],
           **{side.name: side.summary() for side in sides}}
    if baseline is not None:
        b, w = out["baseline"], out["new"]
        out["ratio_total_p50"] = (round(w["total_ms"]["p50"] / b["total_ms"]["p50"], 3)
                                  if "total_ms" in b and "total_ms" in w else None)
    out["ok"] = all(s.rows and not s.problems for s in sides)
    return out


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", type=int, default=10, help="concurrent browser pages")
    ap.add_argument("--seconds", type=float, default=60, help="how long every page types")
    ap.add_argument("--checkpoints", type=Path, default=None,
                    help="the server's shipped-checkpoint directory (default: checkpoints/)")
    ap.add_argument("--default", default=None,
                    help="the checkpoint the pages open (ATTENTION_LAB_DEFAULT)")
    ap.add_argument("--timeout", type=float, default=120,
                    help="seconds one submission may take before it counts as a timeout")
    ap.add_argument("--shots", type=Path, default=None, help="save a screenshot of every page")
    ap.add_argument("--single", type=int, default=0, metavar="N",
                    help="one page, N sentences one at a time: server vs browser time")
    ap.add_argument("--baseline", type=Path, default=None,
                    help="with --single: also run this tree's app, side by side")
    ap.add_argument("--baseline-rev", default=None,
                    help="with --single: also run this commit's app (git archive), side by side")
    ap.add_argument("--new-rev", default=None,
                    help="with --single: run this commit's app (git archive) as the new side, "
                         "not the working tree")
    ap.add_argument("--warmup", type=int, default=2, help="with --single: untimed first rounds")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.single:
        out = single(args.single, args.checkpoints, args.default, args.baseline,
                     args.baseline_rev, args.warmup, args.timeout, args.shots, args.new_rev)
        print(json.dumps(out) if args.json else json.dumps(out, indent=1, ensure_ascii=False))
        return out
    out = run(args.pages, args.seconds, args.checkpoints, args.default, args.timeout, args.shots)
    print(json.dumps(out) if args.json else json.dumps(out, indent=1, ensure_ascii=False))
    return out


if __name__ == "__main__":
    sys.exit(0 if main().get("ok", True) else 1)
