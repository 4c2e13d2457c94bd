"""Classroom load: 30 concurrent inspections of different sentences through one shared model
(threads, as Streamlit serves sessions), through the app's inference semaphore; against one
inspection alone.

    python bench/classroom.py [--users 30] [--json]
"""
from __future__ import annotations

import argparse
import json
import threading
import time

import torch

from common import stats, translation_checkpoint

SUBJECTS = ["A man", "A woman", "Two dogs", "A little girl", "Three boys", "An old man",
            "A group of people", "A child", "A brown dog", "Two women"]
ACTIONS = ["walks along the beach", "plays with a red ball", "rides a bike in the park",
           "sits on a bench near the water", "climbs a large rock"]


def sentences(n: int) -> list[str]:
    return [f"{SUBJECTS[i % len(SUBJECTS)]} {ACTIONS[(i // len(SUBJECTS)) % len(ACTIONS)]} ."
            for i in range(n)]


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser()
    ap.add_argument("--users", type=int, default=30)
    ap.add_argument("--slots", type=int, default=2, help="the app's inference semaphore")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    torch.set_num_threads(1)  # as the app does
    from transformer.probing.inspect import inspect_text

    model, tok, which = translation_checkpoint()
    slots = threading.BoundedSemaphore(args.slots)

    def one(text):
        with slots, torch.inference_mode():
            return inspect_text(model, tok, text)

    texts = sentences(args.users)
    alone = []
    for t in texts[:5]:
        t0 = time.perf_counter()
        one(t)
        alone.append(time.perf_counter() - t0)
    lat: list[float] = [0.0] * args.users
    errors: list[str] = []
    barrier = threading.Barrier(args.users)

    def user(i):
        try:
            barrier.wait()
            t0 = time.perf_counter()
            ins = one(texts[i])
            lat[i] = time.perf_counter() - t0
            w = ins.weights("cross", 0)
            assert torch.allclose(w.sum(-1), torch.ones(w.shape[:-1]), atol=1e-4)
        except Exception as e:  # recorded, reported
            errors.append(repr(e))

    th = [threading.Thread(target=user, args=(i,)) for i in range(args.users)]
    t0 = time.perf_counter()
    for t in th:
        t.start()
    for t in th:
        t.join()
    wall = time.perf_counter() - t0
    out = {"model": which, "users": args.users, "slots": args.slots, "alone": stats(alone),
           "concurrent": stats(lat), "wall_s": round(wall, 2), "errors": errors}
    print(json.dumps(out) if args.json else json.dumps(out, indent=1))
    return out


if __name__ == "__main__":
    main()
