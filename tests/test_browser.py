"""One real-browser test: Debian's chromium, driven by Playwright, opens every page of the
running app, types a sentence, and checks that charts are drawn and no error is shown.
Screenshots land in shots/browser/ (ignored by git). Skipped, with the reason, when chromium or
Playwright is missing."""
from __future__ import annotations

import shutil

import pytest

from app_helpers import ROOT, app_server, browser_idle

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# Pages that must show at least one plotly chart once a sentence is typed.
CHART_PAGES = {"attention", "step", "positional-encoding", "masks", "why-sqrt-dk", "decode",
               "heads"}
# Pages whose charts sit in a part that is computed only when opened (ui/page_kit.lazy_expander):
# which expander to click (0-based, in page order) before counting. The Step page's third part is
# the whole head, with its heat map.
OPENED = {"step": 2}

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on PATH "
                                "(apt-get install -y chromium)")


# Each plotly chart's plot areas (plotly's drag rectangles) and the chart's own box. A chart whose
# labels plotly read as HTML (an unescaped </s>) still draws, but squeezed into a sliver.
PLOT_AREAS_JS = """els => els.map(el => {
  const r = Array.from(el.querySelectorAll('rect.nsewdrag')).map(d => [
    parseFloat(d.getAttribute('width')) || 0, parseFloat(d.getAttribute('height')) || 0]);
  const box = el.getBoundingClientRect();
  return {w: box.width, h: box.height, plots: r};
})"""
MIN_PLOT_PX = 40


def collapsed_charts(page) -> list[str]:
    """Charts drawn but unreadable: a plot area under MIN_PLOT_PX in either direction."""
    out = []
    charts = page.locator("[data-testid='stPlotlyChart']")
    for i, c in enumerate(charts.evaluate_all(PLOT_AREAS_JS) if charts.count() else []):
        small = [p for p in c["plots"] if min(p) < MIN_PLOT_PX]
        if c["h"] < MIN_PLOT_PX or small:
            out.append(f"chart {i + 1}: plot area {small[0] if small else (c['w'], c['h'])} px")
    return out


@pytest.fixture
def server(tmp_path, ck_dir):
    env = {"ATTENTION_LAB_CHECKPOINTS": str(ck_dir), "ATTENTION_LAB_RUNS": str(tmp_path / "runs"),
           "ATTENTION_LAB_UPLOADS": str(tmp_path / "uploads")}
    with app_server(env, tmp_path / "server.log", ("--server.fileWatcherType", "none")) as srv:
        yield srv.base


@pytest.mark.parametrize("url", ["masks", "heads", "positional-encoding"])
def test_a_deep_link_on_a_fresh_server(server, url):
    """The first browser on a freshly started server opens /<url> directly. Streamlit routes it
    by file name to pages/<url>.py (no st.navigation has run yet); the page hands over to app.py
    (ui/deeplink.py), so the browser gets the app's sidebar navigation, the checkpoint picker and
    the page itself, drawn once, with no "page not found" and no error."""
    import importlib

    sync_api = pytest.importorskip("playwright.sync_api")
    from ui import navigation
    from ui.strings import shell

    # a page's strings module is named by its URL (ui/navigation.Entry.name)
    title = importlib.import_module(f"ui.strings.{url.replace('-', '_')}").EN["title"]
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run"])
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(f"{server}/{url}")
        assert browser_idle(page)
        page.wait_for_timeout(500)
        nav = page.locator("[data-testid='stSidebarNavLink']")
        labels = [nav.nth(i).inner_text().strip() for i in range(nav.count())]
        hrefs = [nav.nth(i).get_attribute("href") or "" for i in range(nav.count())]
        headings = [h.strip() for h in page.locator("h1").all_inner_texts()]
        pickers = page.locator("[data-testid='stSidebar'] [data-testid='stSelectbox']").count()
        errors = page.locator("[data-testid='stException'], [data-testid='stAlertContentError']")
        msgs = [errors.nth(i).inner_text()[:200] for i in range(errors.count())]
        body = page.locator("[data-testid='stApp']").inner_text()
        browser.close()
    assert len(labels) == len(navigation.PAGES), labels  # the app's navigation, not pages/ by file
    assert any(shell.EN[p.title] in lab for p in navigation.PAGES for lab in labels
               if p.url == url), labels
    assert any(h.rstrip("/").endswith(f"/{url}") for h in hrefs), hrefs
    assert pickers >= 1  # the checkpoint picker in the sidebar
    assert headings.count(title) == 1, headings  # the page, drawn once
    assert msgs == [] and "not found" not in body.lower(), msgs


def test_every_page_in_a_real_browser(server):
    sync_api = pytest.importorskip("playwright.sync_api")
    out = ROOT / "shots" / "browser"
    out.mkdir(parents=True, exist_ok=True)
    problems = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run"])
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(server)
        assert browser_idle(page)
        links = page.locator("[data-testid='stSidebarNavLink']")
        hrefs = []
        for i in range(links.count()):
            h = links.nth(i).get_attribute("href")
            if h and h not in hrefs:
                hrefs.append(h)
        assert len(hrefs) >= 2, "the navigation lists too few pages"
        for href in hrefs:
            url = href if href.startswith("http") else server + "/" + href.lstrip("/")
            path = url.split("://", 1)[-1].split("/", 1)[1] if "/" in url.split("://", 1)[-1] else ""
            slug = path.strip("/").split("?")[0] or "tour"
            page.goto(url)
            ok = browser_idle(page)
            boxes = page.locator("[data-testid='stTextInput'] input, "
                                 "[data-testid='stTextArea'] textarea")
            if boxes.count():
                box = boxes.first
                box.fill("A dog runs in the park .")
                is_input = box.evaluate("e => e.tagName").lower() == "input"
                box.press("Enter" if is_input else "Control+Enter")
                ok = browser_idle(page) and ok
            if slug in OPENED:  # charts in a part drawn only when opened: open it, as a reader does
                page.locator("[data-testid='stMain'] [data-testid='stExpander'] summary").nth(
                    OPENED[slug]).click()
                ok = browser_idle(page) and ok
            page.wait_for_timeout(500)
            page.screenshot(path=str(out / f"{slug}.png"), full_page=True)
            errors = page.locator("[data-testid='stException'], "
                                  "[data-testid='stAlertContentError']")
            msgs = [errors.nth(i).inner_text()[:200] for i in range(errors.count())]
            charts = page.locator("[data-testid='stPlotlyChart'] .main-svg").count()
            if not ok:
                problems.append(f"{slug}: still running")
            if msgs:
                problems.append(f"{slug}: {msgs}")
            if slug in CHART_PAGES and charts == 0:
                problems.append(f"{slug}: no chart drawn")
            problems += [f"{slug}: {c} (collapsed)" for c in collapsed_charts(page)]
        browser.close()
    assert problems == []


def test_the_d_k_line_lands_on_d_k(tmp_path):
    """The Why-sqrt page's dotted line, drawn by plotly.js in the browser, sits where the
    log axis puts d_k = 64 (log10(64) as x drew it near d_k = 2)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    from viz import scaling as S
    fig = S.saturation_figure(S.saturation_table([1, 4, 16, 64, 256], 8, 2, 0), 64)
    html = tmp_path / "sat.html"
    fig.write_html(str(html), include_plotlyjs=True)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page()
        page.goto(html.as_uri())
        page.wait_for_selector(".shapelayer path", state="attached")
        got = page.evaluate("""() => {
            const gd = document.querySelector('.plotly-graph-div'), xa = gd._fullLayout.xaxis;
            const d = document.querySelector('.shapelayer path').getAttribute('d');
            return {line: parseFloat(d.slice(1)), at64: xa.l2p(Math.log10(64)) + xa._offset,
                    at2: xa.l2p(Math.log10(2)) + xa._offset};
        }""")
        browser.close()
    assert abs(got["line"] - got["at64"]) < 1.0 and abs(got["line"] - got["at2"]) > 50
