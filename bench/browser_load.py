"""A real-browser load test (issue 8, item 6): N headless Chromium pages (one browser, N contexts)
type different sentences on the Attention page of one app server for D seconds.

Per submission it records the time from pressing Enter to the script state being `notRunning`
again (after a run started) with the charts drawn (`[data-testid='stPlotlyChart'] .main-svg`),
and it watches every page, the whole time, for an error element
(`[data-testid='stException'], [data-testid='stAlertContentError']`).

    python bench/browser_load.py [--pages 10] [--seconds 60] [--checkpoints DIR] [--json]

The server reads its shipped checkpoints from --checkpoints (default: the project's checkpoints/
if it holds one); runs and uploads go to a temporary directory. Prints JSON: p50/p95/max (ms),
submissions, errors, timeouts and charts missing; exits 1 when any page showed an error, timed out
or drew no chart.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ERRORS = "[data-testid='stException'], [data-testid='stAlertContentError']"
CHARTS = "[data-testid='stPlotlyChart'] .main-svg"
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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _pct(s: list[float], q: float) -> float:
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def summary(times_s: list[float]) -> dict:
    if not times_s:
        return {"p50_ms": None, "p95_ms": None, "max_ms": None, "mean_ms": None}
    s = sorted(times_s)
    return {"p50_ms": round(1000 * statistics.median(s), 1), "p95_ms": round(1000 * _pct(s, .95), 1),
            "max_ms": round(1000 * s[-1], 1), "min_ms": round(1000 * s[0], 1),
            "mean_ms": round(1000 * statistics.fmean(s), 1)}


class Server:
    """`streamlit run app.py` on a free port, with the given checkpoint directory."""

    def __init__(self, checkpoints: Path, workdir: Path, default: str | None = None):
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = workdir / "server.log"
        env = {**os.environ, "ATTENTION_LAB_CHECKPOINTS": str(checkpoints),
               "ATTENTION_LAB_RUNS": str(workdir / "runs"),
               "ATTENTION_LAB_UPLOADS": str(workdir / "uploads")}
        if default:
            env["ATTENTION_LAB_DEFAULT"] = default
        self._log = open(self.log_path, "w")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.headless",
             "true", "--server.port", str(self.port), "--server.fileWatcherType", "none",
             "--browser.gatherUsageStats", "false"],
            cwd=ROOT, env=env, stdout=self._log, stderr=self._log)

    def wait_ready(self, timeout: float = 120) -> float:
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < timeout:
            if self.proc.poll() is not None:
                break
            try:
                urllib.request.urlopen(self.base + "/_stcore/health", timeout=1)
                return time.perf_counter() - t0
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("the app server did not start: " + self.log_tail())

    def log_tail(self, n: int = 3000) -> str:
        self._log.flush()
        return self.log_path.read_text(errors="replace")[-n:]

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._log.close()


# Installed in every page once it is loaded: the script-state transitions with their times, and
# every error element that ever appears (a MutationObserver over the whole app).
WATCH_JS = """(sel) => {
  const app = document.querySelector("[data-testid='stApp']");
  window.__states = [];
  window.__errors = [];
  new MutationObserver(() => window.__states.push(
      [performance.now(), app.getAttribute('data-test-script-state')]))
    .observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
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

# Resolves (to the time it became true) once a run started after t0 has finished and the charts
# are drawn.
DONE_JS = """([t0, sel]) => {
  const s = window.__states.filter(e => e[0] >= t0);
  const i = s.findIndex(e => e[1] !== 'notRunning');
  if (i < 0 || !s.slice(i).some(e => e[1] === 'notRunning')) return false;
  const app = document.querySelector("[data-testid='stApp']");
  if (app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  if (document.querySelectorAll(sel).length < 1) return false;
  return performance.now();
}"""


async def _idle(page, timeout_s: float) -> None:
    await page.wait_for_selector("[data-testid='stApp']", timeout=timeout_s * 1000)
    await page.wait_for_function(
        """() => document.querySelector("[data-testid='stApp']")
                   .getAttribute('data-test-script-state') === 'notRunning'""",
        timeout=timeout_s * 1000, polling=100)


async def _worker(browser, base: str, idx: int, pages: int, opened: asyncio.Future,
                  go: asyncio.Event, clock: dict, timeout_s: float, out: dict,
                  shots: Path | None) -> None:
    rec = out["pages"][idx]
    ctx = page = None
    try:
        ctx = await browser.new_context(viewport={"width": 1300, "height": 900})
        page = await ctx.new_page()
        await page.goto(base + "/attention", timeout=timeout_s * 1000)
        await _idle(page, timeout_s)
        await page.wait_for_selector(CHARTS, timeout=timeout_s * 1000)
        # A deep link on a fresh server can open a "Page not found" dialog over the page (it makes
        # the page inert): counted, then closed.
        dialog = page.locator("[role='dialog']")
        if await dialog.count():
            rec["dialogs"].append((await dialog.first.inner_text())[:120])
            await page.keyboard.press("Escape")
            await dialog.first.wait_for(state="detached", timeout=10_000)
        await page.evaluate(WATCH_JS, ERRORS)
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
            t0 = await page.evaluate("() => performance.now()")
            await box.press("Enter")
            rec["submissions"] += 1
            try:
                t1 = await page.wait_for_function(DONE_JS, arg=[t0, CHARTS],
                                                  timeout=timeout_s * 1000, polling=50)
                rec["times"].append((await t1.json_value() - t0) / 1000)
            except Exception as e:  # the run never finished, or no chart was drawn
                rec["timeouts"] += 1
                charts = await page.locator(CHARTS).count()
                rec["problems"].append(f"{text!r}: {type(e).__name__} (charts: {charts})")
                if not charts:
                    rec["charts_missing"] += 1
            if await page.evaluate("() => window.__errors.length"):
                break
        rec["errors"] = await page.evaluate("() => window.__errors")
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
                      "errors": [], "problems": [], "dialogs": []} for _ in range(pages)]}
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=chromium_path(), headless=True, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run",
            "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
            "--disable-backgrounding-occluded-windows"])
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
    if checkpoints is None:
        checkpoints = ROOT / "checkpoints"
    if not has_checkpoint(checkpoints):
        raise SystemExit(f"no checkpoint in {checkpoints}: pass --checkpoints DIR")
    if shots is not None:
        shots.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="browser_load_") as tmp:
        server = Server(checkpoints, Path(tmp), default)
        try:
            ready = server.wait_ready()
            raw = asyncio.run(_drive(server.base, pages, seconds, timeout_s, shots))
            alive = server.proc.poll() is None
            log = server.log_tail(1500)
        finally:
            server.stop()
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
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    out = run(args.pages, args.seconds, args.checkpoints, args.default, args.timeout, args.shots)
    print(json.dumps(out) if args.json else json.dumps(out, indent=1, ensure_ascii=False))
    return out


if __name__ == "__main__":
    sys.exit(0 if main().get("ok", True) else 1)
