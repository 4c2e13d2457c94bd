"""Run the CPU benchmark set and rewrite docs/BENCHMARKS.md (and docs/bench_results.json).

    python -m bench            # or: python bench/run.py [--only inspect,classroom] [--quick]

Each benchmark runs in its own process (a clean allocator, its own thread setting) and prints
JSON; this script gathers them, compares each with its goal, and writes the tables.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from common import machine  # noqa: E402  (bench/ is on sys.path)

BENCHES = {
    "inspect": ["inspect_bench.py", "--json"],
    "train_tiny": ["train_throughput.py", "--preset", "tiny", "--threads", "2", "--json"],
    "train_small": ["train_throughput.py", "--preset", "small", "--threads", "2", "--steps", "15",
                    "--json"],
    "train_small_batch": None,  # filled in main(): batch-size scaling
    "classroom": ["classroom.py", "--json"],
    "decoding": ["decoding.py", "--json"],
    "app": ["app_bench.py", "--json"],
    "time_to_quality": ["time_to_quality.py", "--json"],
    "profile": ["profile_bench.py", "--json"],
    "step_page": ["step_page.py", "--json"],
    "page_output": ["page_output.py", "--json"],
}


def run(name: str, argv: list[str], timeout: int = 900) -> dict:
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, str(HERE / argv[0]), *argv[1:]], cwd=ROOT,
                       capture_output=True, text=True, timeout=timeout)
    took = round(time.perf_counter() - t0, 1)
    lines = [x for x in r.stdout.splitlines() if x.startswith("{")]
    if r.returncode != 0 or not lines:
        return {"error": (r.stderr or r.stdout)[-1500:], "took_s": took}
    out = json.loads(lines[-1])
    out["took_s"] = took
    print(f"{name}: done in {took}s", file=sys.stderr)
    return out


def verdict(ok: bool | None) -> str:
    return "n/a" if ok is None else ("met" if ok else "NOT met")


def row(*cells) -> str:
    """One row of a Markdown table ("| |" for an empty cell)."""
    return "|" + "|".join(f" {c} " if str(c) else " " for c in cells) + "|"


def spread(s: dict) -> str:
    """A timing's median with its min and p95 (common.stats)."""
    return f"{s['median_ms']} ms (min {s['min_ms']}, p95 {s['p95_ms']})"


def write_doc(res: dict, path: Path) -> None:
    L = ["# Benchmarks", "",
         f"Recorded {res['date']} on {res['machine']}. Command: `python -m bench` "
         f"(the whole CPU set took {res['total_s']} s"
         + (f"; rerun afterwards with --only: {', '.join(res['rerun'])}" if res.get("rerun") else "")
         + "). Raw numbers: `docs/bench_results.json`. "
         "Timings are medians of several runs with the spread (min-max, p95) beside them; every "
         "ratio is against its reference measured in the same run.", "",
         "| what | reference (same run) | result | goal | status |", "| --- | --- | --- | --- | --- |"]
    ins = res.get("inspect", {})
    if "len32" in ins:
        a, b, ratio = ins["len32"]["plain"], ins["len32"]["traced"], ins["len32"]["ratio"]
        L.append(row(f"inspect: 32-token sentence, full trace ({ins['model']})",
                     f"forward without trace: {spread(a)}", f"{spread(b)}; ratio {ratio}",
                     "<= 1.3x, < 40 ms", verdict(ratio <= 1.3 and b["median_ms"] < 40)))
    po = res.get("page_output", {})
    if "ratio" in po:
        L.append(row(f"a trace page's first visit to a sentence, output by beam search ({po['beam']} "
                     f"beams) against greedy: {po['model']}, the {po['sentences']} lesson "
                     f"sentences, {po['threads']} thread ({po['outputs_changed']} outputs changed)",
                     f"greedy: {spread(po['greedy'])}",
                     f"{spread(po['beam_search'])}; ratio {po['ratio']}",
                     "<= 3x, < 150 ms", verdict(po["ratio"] <= 3 and
                                                po["beam_search"]["median_ms"] < 150)))
    for key, label in (("train_tiny", "tiny"), ("train_small", "small")):
        t = res.get(key, {})
        if "tokens_per_s" in t:
            ours, ref = t["tokens_per_s"]["attention_lab"], t["tokens_per_s"]["torch.nn.Transformer"]
            rounds = t["all_rounds"]
            L.append(row(f"training tokens/s, {label} preset, CPU, {t['threads']} threads",
                         f"torch.nn.Transformer: {ref:,} (rounds {rounds['torch.nn.Transformer']})",
                         f"{ours:,} (rounds {rounds['attention_lab']}); ratio {t['ratio']}",
                         ">= 1.0x", verdict(t["ratio"] >= 1.0)))
    ttq = res.get("time_to_quality", {}).get("anaphora", {})
    if ttq:
        r = ttq.get("reached")
        L.append(row(f"time to quality: anaphora, tiny preset, CPU ({ttq.get('threads')} threads)", "",
                     f"{r['wall_s']} s to {r['heldout_pronoun_acc']:.3f} held-out pronoun accuracy "
                     f"(step {r['step']})" if r else "not reached",
                     "< 300 s to 0.95", verdict(bool(r) and r["wall_s"] < 300)))
    app = res.get("app", {})
    st_ = app.get("attention_page_server_time")
    if st_:
        L.append(row(f"app: submit a sentence -> Attention page charts, server side ({st_['charts']} "
                     f"charts, {Path(st_['checkpoint']).name})", "",
                     f"{st_['median_ms']} ms (min {st_['min_ms']}, max {st_['max_ms']})", "< 300 ms",
                     verdict(st_["median_ms"] < 300)))
    if "cold_start_to_first_page_s" in app:
        L.append(row("app: cold start to first page drawn (chromium)", "",
                     f"{app['cold_start_to_first_page_s']} s (server healthy after {app['server_ready_s']} s)",
                     "< 8 s", verdict(app["cold_start_to_first_page_s"] < 8)))
    if "rss_one_model_mb" in app:
        L.append(row(f"memory: server RSS with one model loaded; added per browser session "
                     f"({app['sessions']} sessions)", "",
                     f"{app['rss_one_model_mb']} MB; {app['added_per_session_mb']} MB per session",
                     "< 800 MB; < 30 MB",
                     verdict(app["rss_one_model_mb"] < 800 and app["added_per_session_mb"] < 30)))
    cl = res.get("classroom", {})
    if "concurrent" in cl:
        c, a = cl["concurrent"], cl["alone"]
        L.append(row(f"classroom: {cl['users']} concurrent inspections, one cached model, "
                     f"{cl['slots']} inference slots", f"one alone: {a['median_ms']} ms",
                     f"p50 {c['median_ms']} ms, p95 {c['p95_ms']} ms, max {c['max_ms']} ms; errors "
                     f"{len(cl['errors'])}", "p95 < 1500 ms, no error",
                     verdict(c["p95_ms"] < 1500 and not cl["errors"])))
    sp = res.get("step_page", {})
    if "ratio" in sp:
        w, a = sp["window"], sp["whole"]
        L.append(row(f"app: Step-by-step page, a {sp['words']}-word sentence (512 tokens), server script run",
                     f"every row shown (Styler limit raised): {a['median_s']} s, largest table "
                     f"{a['largest_table_cells']:,} cells",
                     f"rows around the query: {w['median_s']} s, largest table {w['largest_table_cells']:,} "
                     f"cells; ratio {sp['ratio']}; errors {len(w['errors'])}", "< 10 s, no error",
                     verdict(w["median_s"] < 10 and not w["errors"])))
    if "short_ratio" in sp:
        u, w = sp["short_upright"], sp["short_wide"]
        L.append(row(f"app: Step-by-step page, \"{sp['short_text']}\", server script run",
                     f"the FFN as two rows of d_ff columns: {w['median_s']} s",
                     f"the FFN one vector a column: {u['median_s']} s; ratio {sp['short_ratio']}", "< 2 s",
                     verdict(u["median_s"] < 2)))
    de = res.get("decoding", {})
    if "beam4_one_by_one" in de:
        g, gb, b = de["greedy_one_by_one"], de["greedy_batched_64"], de["beam4_one_by_one"]
        L.append(row(f"decoding {de['sentences']} test_2016_flickr sentences",
                     f"greedy: {g['tokens_per_s']} tokens/s one by one, {gb['tokens_per_s']} batched",
                     f"beam 4: {b['tokens_per_s']} tokens/s ({b['sentences_per_s']} sentences/s)",
                     "tokens/s for both", "reported"))
    L += ["", "## Scaling", ""]
    if "scaling" in ins:
        L += ["Inspection time and trace size against sentence length (source = target = n "
              "tokens, one thread):", "", "| n | forward (ms) | traced (ms) | ratio | trace (MB) |",
              "| --- | --- | --- | --- | --- |"]
        for n, m in ins["scaling"].items():
            L.append(f"| {n} | {m['plain']['median_ms']} | {m['traced']['median_ms']} | "
                     f"{m['ratio']} | {m['trace_mb']} |")
    sb = res.get("train_small_batch", {})
    if sb:
        L += ["", "Training tokens/s against batch size (small preset, 2 threads):", "",
              "| batch tokens | ours | torch.nn.Transformer | ratio |", "| --- | --- | --- | --- |"]
        for bt, t in sb.items():
            if "tokens_per_s" in t:
                L.append(f"| {bt} | {t['tokens_per_s']['attention_lab']:,} | "
                         f"{t['tokens_per_s']['torch.nn.Transformer']:,} | {t['ratio']} |")
    m30 = res.get("time_to_quality", {}).get("multi30k", {})
    if m30.get("points_step_minutes_bleu"):
        L += ["", f"Multi30k en-de validation BLEU against wall time (CPU, run `{m30['run']}`):", "",
              "| step | minutes | val BLEU (greedy, 200 sentences) |", "| --- | --- | --- |"]
        L += [f"| {s} | {m} | {b} |" for s, m, b in m30["points_step_minutes_bleu"]]
    prof = res.get("profile", {})
    if "inspect_32" in prof:
        L += ["", "## Where the time goes (torch.profiler, self CPU time by operator)", ""]
        for key, what in (("inspect_32", "one traced inspection, 32 tokens, 1 thread"),
                          ("inspect_256", "one traced inspection, 256 tokens, 1 thread"),
                          ("train_small", "4 training steps, small preset, 2 threads")):
            rows = prof[key]
            total = rows[-1]["self_ms"]
            L.append(f"- {what} ({total} ms profiled): " + ", ".join(
                f"{r['op'].replace('aten::', '')} {r['share']:.0%}" for r in rows[:-1]))
    extra = ROOT / "docs" / "BENCHMARKS_NOTES.md"
    if extra.exists():
        L += ["", extra.read_text()]
    path.write_text("\n".join(L) + "\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="", help="comma-separated subset of " + ",".join(BENCHES))
    ap.add_argument("--render", action="store_true",
                    help="only rewrite docs/BENCHMARKS.md from docs/bench_results.json")
    args = ap.parse_args(argv)
    if args.render:
        write_doc(json.loads((ROOT / "docs" / "bench_results.json").read_text()),
                  ROOT / "docs" / "BENCHMARKS.md")
        return 0
    only = [x for x in args.only.split(",") if x]
    res_path = ROOT / "docs" / "bench_results.json"
    res = json.loads(res_path.read_text()) if res_path.exists() and only else {}
    t0 = time.perf_counter()
    for name, argv_ in BENCHES.items():
        if only and name not in only:
            continue
        if name == "train_small_batch":
            res[name] = {bt: run(f"{name}[{bt}]", ["train_throughput.py", "--preset", "small",
                                                    "--threads", "2", "--steps", "8", "--rounds",
                                                    "2", "--batch-tokens", str(bt), "--json"])
                         for bt in (1024, 4096, 8192)}
            continue
        res[name] = run(name, argv_)
    res["date"] = dt.date.today().isoformat()
    res["machine"] = machine()
    if only:  # a partial rerun keeps the full set's time and says what was rerun
        res["rerun"] = sorted(set(res.get("rerun", [])) | set(only))
    else:
        res["total_s"] = round(time.perf_counter() - t0, 1)
        res.pop("rerun", None)
    res_path.write_text(json.dumps(res, indent=1))
    write_doc(res, ROOT / "docs" / "BENCHMARKS.md")
    print(f"wrote docs/BENCHMARKS.md in {round(time.perf_counter() - t0, 1)} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
