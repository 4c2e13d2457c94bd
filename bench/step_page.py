"""The Step-by-step page's server script run (AppTest, the shipped default model), two ways:

* a sentence at the model's length limit (512 tokens), with the page's row window
  (viz.step.row_window: tables whose rows are the queries show viz.step.MAX_ROWS rows around the
  query) against the same page showing every row. Without the window, the Add & Norm table has
  512 x (2 d_model + 2) cells, more than pandas Styler renders by default (262,144), and Streamlit
  refuses it: the reference raises that limit so that it can be timed at all.
* a short sentence, with the FFN shown one vector a column
  (ui.step_view.FFN_UPRIGHT) against the layout before (two rows of d_ff = 1,024 columns:
  Streamlit draws a styled table column by column).

    python bench/step_page.py [--json] [--repeats 5] [--words 140]

Each configuration runs in its own process (CONFIGS); the ratios compare medians of reruns.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT

sys.path.insert(0, str(ROOT / "tests"))  # app_helpers: the app under AppTest

PAGE = "pages/step.py"
SHORT = "The animal didn't cross the street because it was too tired ."


def page_runs(text: str, repeats: int, window: bool, upright: bool = True) -> dict:
    """Seconds per script run of the page (the first, which also traces the sentence, apart)."""
    import pandas as pd
    import torch
    from _pytest.monkeypatch import MonkeyPatch

    from app_helpers import open_pinned
    from ui import step_view
    from viz import step as steps

    torch.set_num_threads(2)
    mp = MonkeyPatch()
    old = steps.MAX_ROWS
    try:
        mp.setattr(step_view, "FFN_UPRIGHT", upright)
        if not window:
            mp.setattr(steps, "MAX_ROWS", 10 ** 9)
            pd.set_option("styler.render.max_elements", 10 ** 7)
        at = open_pinned(mp, ROOT / "checkpoints", Path(tempfile.mkdtemp()), PAGE, query={"text": text})
        t0 = time.perf_counter()
        at.run(timeout=900)
        first = time.perf_counter() - t0
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            at.run(timeout=900)
            times.append(time.perf_counter() - t0)
        cells = max(df.value.size for df in at.dataframe)
        errors = [e.message[:200] for e in at.exception]
    finally:
        mp.undo()
        pd.reset_option("styler.render.max_elements")
        steps.MAX_ROWS = old
    return {"first_s": round(first, 2), "rerun_s": [round(x, 2) for x in times],
            "median_s": round(statistics.median(times), 2), "largest_table_cells": int(cells),
            "errors": errors}


# name -> (long sentence?, row window, FFN upright)
CONFIGS = {"window": (True, True, True), "whole": (True, False, True),
           "short_upright": (False, True, True), "short_wide": (False, True, False)}


def in_own_process(name: str, repeats: int, words: int) -> dict:
    """One configuration in a fresh interpreter: AppTest sessions run one after another in one
    process grow its heap, and a later configuration measured slower for that alone."""
    import subprocess

    r = subprocess.run([sys.executable, __file__, "--config", name, "--repeats", str(repeats),
                        "--words", str(words)], capture_output=True, text=True, timeout=1800, cwd=ROOT)
    lines = [x for x in r.stdout.splitlines() if x.startswith("{")]
    if r.returncode != 0 or not lines:
        raise RuntimeError(f"{name}: {(r.stderr or r.stdout)[-800:]}")
    return json.loads(lines[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--words", type=int, default=140, help="times 'The dog runs .' is repeated")
    ap.add_argument("--config", choices=sorted(CONFIGS), help="measure one configuration, here")
    args = ap.parse_args(argv)
    text = " ".join(["The dog runs ."] * args.words)
    if args.config:
        long, window, upright = CONFIGS[args.config]
        print(json.dumps(page_runs(text if long else SHORT, args.repeats, window, upright)))
        return 0
    out = {name: in_own_process(name, args.repeats, args.words) for name in CONFIGS}
    out.update(words=4 * args.words, short_text=SHORT,
               ratio=round(out["window"]["median_s"] / out["whole"]["median_s"], 3),
               short_ratio=round(out["short_upright"]["median_s"] / out["short_wide"]["median_s"], 3))
    print(json.dumps(out) if args.json else json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
