"""Sweep flood (issue 16): N student sessions fire full head-finder sweeps (transformer.heads
score_anaphora over the held-out probe, as pages/heads.py runs it) as fast as they can,
while one fresh session inspects a sentence now and then; the fresh session's latency, with the
sweeps unlimited and then through the per-session rate limits (ui.serving.quota, the students' role).

Everything goes through the app's own code: ui.models.run_inference (the shared inference slots)
and ui.serving.quota.check (a student session per thread; its refusals are audited in a temporary
runs folder and counted here).

    python bench/sweep_flood.py [--sessions 30] [--seconds 20] [--n 100] [--json]
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import torch  # noqa: E402

from common import stats  # noqa: E402


def run_mode(limited: bool, model, tok, items, args) -> dict:
    from transformer.probing import heads as H
    from transformer.probing.inspect import inspect_text
    from ui import models
    from ui.serving import quota

    quota.reset()
    stop = threading.Event()
    counts = {"sweeps": 0, "refused": 0, "sweep_s": []}
    lock = threading.Lock()

    def flooder(i: int) -> None:
        state: dict = {}
        k = 0
        while not stop.is_set():
            k += 1
            if limited:
                try:
                    quota.check("heads.sweep", key=(i, k), state=state)
                except quota.RateLimited as e:
                    with lock:
                        counts["refused"] += 1
                    stop.wait(min(e.retry_after, args.retry_s))  # a client retrying
                    continue
            t0 = time.perf_counter()
            models.run_inference(H.score_anaphora, model, tok, items)
            with lock:
                counts["sweeps"] += 1
                counts["sweep_s"].append(time.perf_counter() - t0)

    threads = [threading.Thread(target=flooder, args=(i,), daemon=True)
               for i in range(args.sessions)]
    t_start = time.perf_counter()
    for th in threads:
        th.start()
    time.sleep(args.warmup)
    lat = []
    texts = ["The dog saw the book because it was hungry .",
             "The girl gave the cat the ball because it was bored ."]
    deadline = t_start + args.seconds
    i = 0
    while time.perf_counter() < deadline:
        t0 = time.perf_counter()
        models.run_inference(inspect_text, model, tok, texts[i % 2] + " " * (i % 3))
        lat.append(time.perf_counter() - t0)
        i += 1
        time.sleep(args.gap)
    stop.set()
    for th in threads:
        th.join(timeout=120)
    wall = time.perf_counter() - t_start
    sweep = stats(counts["sweep_s"]) if counts["sweep_s"] else {}
    return {"mode": "rate-limited" if limited else "unlimited", "wall_s": round(wall, 1),
            "inspections": len(lat), "inspect": stats(lat), "sweeps_run": counts["sweeps"],
            "sweep_requests_refused": counts["refused"], "sweep_latency": sweep}


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sessions", type=int, default=30)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--warmup", type=float, default=1.0, help="flood first, then inspect")
    ap.add_argument("--gap", type=float, default=0.2, help="between the fresh session's inspections")
    ap.add_argument("--retry-s", type=float, default=1.0, help="a refused client's retry cap")
    ap.add_argument("--n", type=int, default=100, help="probe sentences per sweep")
    ap.add_argument("--modes", default="unlimited,limited")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    torch.set_num_threads(int(os.environ.get("ATTENTION_LAB_THREADS", "1")))  # as the app does
    tmp = tempfile.mkdtemp(prefix="sweep-flood-")
    os.environ["ATTENTION_LAB_RUNS"] = tmp  # the audit log of this bench, not the server's
    os.environ.setdefault("ATTENTION_LAB_TEACHER_TOKEN", "bench-token-of-twenty-chars")  # sessions are students
    from transformer.ops import audit
    from transformer.probing import heads as H
    from transformer.probing.probe_items import anaphora_probe
    from transformer.core.checkpoint import load_checkpoint
    from transformer.probing.inspect import inspect_text
    from ui import models

    ck = load_checkpoint(ROOT / "checkpoints" / "anaphora-en-de")
    model, tok = ck.model, ck.tokenizer
    for p in model.parameters():
        p.requires_grad_(False)
    items = anaphora_probe("test", n=args.n)
    alone = []
    for _ in range(10):
        t0 = time.perf_counter()
        models.run_inference(inspect_text, model, tok, "The dog saw the book because it was hungry .")
        alone.append(time.perf_counter() - t0)
    t0 = time.perf_counter()
    models.run_inference(H.score_anaphora, model, tok, items)
    one_sweep = time.perf_counter() - t0
    out = {"sessions": args.sessions, "seconds": args.seconds, "probe_n": args.n,
           "infer_slots": int(os.environ.get("ATTENTION_LAB_INFER_SLOTS", "2")),
           "inspect_alone": stats(alone), "one_sweep_s": round(one_sweep, 3), "modes": []}
    for mode in args.modes.split(","):
        out["modes"].append(run_mode(mode == "limited", model, tok, items, args))
    out["audited_refusals"] = sum(1 for e in audit.read(tmp, 10 ** 6)
                                  if e.get("action") == "rate_limit")
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        print(f"inspect alone: {out['inspect_alone']}; one sweep ({args.n} sentences): "
              f"{out['one_sweep_s']} s")
        for m in out["modes"]:
            print(f"{m['mode']}: {args.sessions} sessions x {m['wall_s']} s: sweeps run "
                  f"{m['sweeps_run']}, refused {m['sweep_requests_refused']}; fresh session's "
                  f"{m['inspections']} inspections: {m['inspect']}")
        print(f"audited rate-limit refusals: {out['audited_refusals']}")
    return out


if __name__ == "__main__":
    main()
