"""The real-browser load test (bench/browser_load.py) in a short CI mode: 3 headless Chromium pages
typing different sentences on the Attention page for 15 s against a server with a small test
checkpoint. No error element on any page, every submission finished with its charts drawn.
Long mode (ATTENTION_LAB_LONG_TESTS=1): 10 pages for 60 s. Skipped, with the reason, when chromium
or Playwright is missing."""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import browser_load  # noqa: E402

LONG = os.environ.get("ATTENTION_LAB_LONG_TESTS") == "1"

pytestmark = pytest.mark.skipif(browser_load.chromium_path() is None,
                                reason="no chromium on PATH (apt-get install -y chromium)")


def test_sentences_differ_across_pages_and_submissions():
    seen = {browser_load.sentence(p, k, 10) for p in range(10) for k in range(100)}
    assert len(seen) == 1000


def _on_watched_page(html: str, body):
    """Run `await body(page)` on a headless page holding `html` with WATCH_JS installed; its result."""
    async_api = pytest.importorskip("playwright.async_api")
    import asyncio

    async def go():
        async with async_api.async_playwright() as p:
            browser = await p.chromium.launch(executable_path=browser_load.chromium_path(),
                                              headless=True, args=browser_load.CHROMIUM_ARGS)
            try:
                page = await browser.new_page()
                await page.set_content(html)
                await page.evaluate(browser_load.WATCH_JS, browser_load.ERRORS)
                return await body(page)
            finally:
                await browser.close()

    return asyncio.run(go())


def test_a_run_whose_start_and_end_arrive_together_still_counts():
    """Under load the page can get "run started" and "run finished" in one task, so the watcher's
    observer sees both changes in one callback. It must still record the run (it once recorded
    only the last state, and that submission waited out its whole timeout)."""
    async def body(page):
        t0 = await page.evaluate("() => performance.now()")
        done_before = await page.evaluate(browser_load.DONE_JS, [t0, ".chart"])
        await page.evaluate("""() => {  // both changes in one task: one observer callback
            const app = document.querySelector("[data-testid='stApp']");
            app.setAttribute('data-test-script-state', 'running');
            app.setAttribute('data-test-script-state', 'notRunning');
        }""")
        done = await page.wait_for_function(browser_load.DONE_JS, arg=[t0, ".chart"],
                                            timeout=5000, polling=50)
        done_at = await done.json_value()
        states = await page.evaluate("() => window.__states.map(e => e[1])")
        return done_before, done_at, states

    done_before, done_at, states = _on_watched_page(
        "<div data-testid='stApp' data-test-script-state='notRunning'><div class='chart'></div></div>", body)
    assert done_before is False  # nothing ran yet
    assert done_at >= 0
    assert states == ["running", "notRunning"]


def test_a_lost_key_press_is_told_from_a_slow_run():
    """NOTHING_SINCE_JS decides whether Enter is pressed again: only when the page recorded no
    script-state change since Enter and sits idle. A run that started (however slow) must never be
    taken for a lost key, or the submission would be sent twice."""
    set_state = """(v) => document.querySelector("[data-testid='stApp']")
                             .setAttribute('data-test-script-state', v)"""

    async def body(page):
        t0 = await page.evaluate("() => performance.now()")
        lost = await page.evaluate(browser_load.NOTHING_SINCE_JS, t0)
        await page.evaluate(set_state, "running")
        await page.wait_for_function("() => window.__states.length > 0", timeout=5000)
        running = await page.evaluate(browser_load.NOTHING_SINCE_JS, t0)
        await page.evaluate(set_state, "notRunning")
        await page.wait_for_function("() => window.__states.length > 1", timeout=5000)
        finished = await page.evaluate(browser_load.NOTHING_SINCE_JS, t0)
        return lost, running, finished

    lost, running, finished = _on_watched_page(
        "<div data-testid='stApp' data-test-script-state='notRunning'></div>", body)
    assert lost is True
    assert running is False and finished is False


# A box that submits the way Streamlit's text box does: on Enter or on leaving it, and only once
# its text was typed (an input event marked it changed), then no longer until typed again.
DIRTY_BOX = """<div data-testid='stApp' data-test-script-state='notRunning'></div>
<input id='b'><input id='other'><script>
window.sent = []; let dirty = false; const b = document.getElementById('b');
b.addEventListener('input', () => { dirty = true; });
const submit = () => { if (dirty) { window.sent.push(b.value); dirty = false; } };
b.addEventListener('keydown', (e) => { if (e.key === 'Enter') submit(); });
b.addEventListener('blur', submit);
</script>"""


@pytest.mark.parametrize("how", browser_load.RESUBMIT)
def test_a_box_that_ignored_enter_takes_the_resubmitted_text(how):
    """The CI stall of 2026-11-28: the sentence in the box, Enter pressed twice, nothing sent. On a
    box that has not marked itself changed, Enter sends nothing; each way of submitting again
    sends the text exactly once."""

    async def body(page):
        box = page.locator("#b")
        await page.evaluate("() => { document.getElementById('b').value = 'The cat saw the ball .'; }")
        await box.press("Enter")  # the lost key: the box holds the text but was never marked
        lost = await page.evaluate("() => window.sent.slice()")
        await browser_load._resubmit(page, box, "The cat saw the ball .", how)
        return lost, await page.evaluate("() => window.sent.slice()")

    lost, sent = _on_watched_page(DIRTY_BOX, body)
    assert lost == []
    assert sent == ["The cat saw the ball ."]


def test_concurrent_pages_type_on_the_attention_page(tmp_path, small_checkpoint):
    pytest.importorskip("playwright.async_api")
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    shutil.copytree(small_checkpoint, shipped / "tiny-test")
    pages, seconds = (10, 60) if LONG else (3, 15)
    # a submission's limit: 180 s. On this project's 2-core CI machine, with the stop hook's own
    # screenshot server beside it, one of 50 submissions once took over 90 s (2026-11-26); the test
    # is about errors and lost submissions under load, and bench/browser_load.py measures speed
    out = browser_load.run(pages=pages, seconds=seconds, checkpoints=shipped, timeout_s=180)
    print({k: v for k, v in out.items() if k != "server_log_tail"})
    assert out["errors"] == 0, out["error_texts"]
    assert out["timeouts"] == 0 and out["charts_missing"] == 0, (out["problems"],
                                                                   out.get("server_log_tail"))
    assert out["problems"] == []
    # a submission the page never started (no run at all, the page idle: see browser_load.LOST_ENTER_S)
    # is made again and counted; one that no way of submitting again started is counted as lost and
    # its page reloaded (1 of 173 submissions in a 10-page run on a quiet machine, 2026-11-28, the
    # server idle and healthy: the reloaded page went on typing). More than one in a short run would
    # be a new fault, not that race.
    assert out["lost"] <= 1, out["lost_texts"]
    assert out["enters_repeated"] <= len(browser_load.RESUBMIT) + 1, out
    assert out["server_alive"]
    # every page opened the /attention deep link on a fresh server: no "Page not found" dialog
    assert out["dialogs_on_open"] == 0, out["dialog_texts"]
    assert out["completed"] == out["submissions"] - out["lost"] > 0
    assert all(n >= 1 for n in out["per_page_submissions"])  # every page got to type
    assert out["p50_ms"] is not None and out["p95_ms"] >= out["p50_ms"]
    assert out["ok"]
