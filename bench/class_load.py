"""A class on one server (issue 48): pasted paragraphs, one student's six-tab flood, and a lesson of
thirty students with a flooder among them, each against the code of another tree in the same run.

A real `streamlit run app.py` (teacher token, disk budget, the default model) driven over
Streamlit's own websocket as browsers drive it (tests/app_helpers.py); every student speaks from
its own loopback address (127.0.0.N stands for another machine). A page time is the time from
sending a page's rerun to its script's end. Scenarios:

  paste   twelve students each open the Attention page with a distinct 3,000-character sentence:
          the server's RSS before, at its peak and after
  flood   an honest student's Attention page with new sentences, quiet, then while one student
          (one address) runs six tabs: the Attention page with new 3,000-character sentences,
          Two sentences with the swap, Step by step, a beam-7 decode over a long text and the
          Heads page's sweeps, as fast as the server answers
  class   thirty students for --seconds, each thinking 4-12 s between actions, doing what a
          lesson does (the tour's sentences and their own on the Attention page, the Two
          sentences swap, Step by step, a decode, now and then a sweep), plus the flooder of
          `flood`; honest p50 / p95 page times, errors, peak RSS and every refusal by kind. Before
          the class comes in, the teacher opens each page once (`rehearsal`)

    python bench/class_load.py --scenario flood --reference /tmp/old-tree [--json]

`--reference PATH`: a checkout of the code to compare with (e.g. `git worktree add /tmp/old
63a33a6`); each scenario runs on it first and then on this tree, on the same machine.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from common import stats  # noqa: E402

TOKEN = "class-load-bench-" + "z" * 24
WORDS = ("dog cat horse girl boy man woman bird child teacher robot student car ball tree house "
         "river street park garden beach field window door table book").split()
VERBS = "runs sleeps reads sees finds carries watches opens likes follows".split()
TOUR = ["The animal didn't cross the street because it was too tired .",
        "A woman sleeps in a car , and its windows are open .",
        "A cat lies on a chair in the sun , and it looks very happy .", "A dog runs in the park ."]


def sentence(rng: random.Random, words: int) -> str:
    out = []
    while len(out) < words:
        out += ["The", rng.choice(WORDS), rng.choice(VERBS), "the", rng.choice(WORDS), "."]
    return " ".join(out[:words])


def paragraph(rng: random.Random, chars: int = 3000) -> str:
    text = sentence(rng, chars // 4)
    return text[:chars]


def q(**params) -> str:
    return urllib.parse.urlencode(params)


class Recorder:
    """Page times by who and what, errors and peak RSS (polled), shared by the threads."""

    def __init__(self, srv):
        self.srv, self.lock = srv, threading.Lock()
        self.times: dict[str, list[float]] = {}
        self.events: list[tuple[float, str, float]] = []  # (start, who, seconds): when slow pages were
        self.t0 = time.perf_counter()
        self.errors: Counter = Counter()
        self.last_error = ""
        self.peak = srv.rss_mb()
        self._stop = threading.Event()
        self._poll = threading.Thread(target=self._watch, daemon=True)
        self._poll.start()

    def _watch(self):
        while not self._stop.wait(0.25):
            try:
                self.peak = max(self.peak, self.srv.rss_mb())
            except OSError:
                return

    def stop(self):
        self._stop.set()

    def page(self, who: str, s, **run) -> float | None:
        t0 = time.perf_counter()
        try:
            s.run(timeout=run.pop("timeout", 180), **run)
        except Exception as e:  # noqa: BLE001 - counted, not fatal
            with self.lock:
                self.errors[who] += 1
                self.last_error = f"{who}: {type(e).__name__}: {e}"[:300]
            return None
        dt = time.perf_counter() - t0
        with self.lock:
            self.times.setdefault(who, []).append(dt)
            self.events.append((round(t0 - self.t0, 1), who, round(dt, 2)))
        return dt


def session(srv, source: str):
    from app_helpers import Session

    return Session(srv, source=source)


def refusals(runs: Path) -> dict:
    from app_helpers import audit_lines

    out: Counter = Counter()
    for a in audit_lines(runs):
        if a.get("outcome") == "refused":
            out[f"{a.get('action')}: {a.get('reason') or a.get('target', '')}"[:90]] += 1
    return dict(out)


# -- the flooder ----------------------------------------------------------------------------------
def flood_tab(srv, rec: Recorder, stop: threading.Event, tab: int, rng: random.Random) -> None:
    """One of the flooder's six tabs (all from 127.0.0.2): its own kind of costly page, again
    and again with new text, as fast as the server answers."""
    s = None
    while not stop.is_set():
        try:
            if s is None:
                s = session(srv, "127.0.0.2")
            text = paragraph(rng)
            kind = tab % 5
            if kind == 0 or tab == 5:
                rec.page("flood", s, query=q(text=text), page="attention")
            elif kind == 1:
                rec.page("flood", s, query=q(text=text, text2=paragraph(rng), swap=1), page="pair")
            elif kind == 2:
                rec.page("flood", s, query=q(text=text), page="step")
            elif kind == 3:
                rec.page("flood", s, query=q(text=text, method="beam", beam=7), page="decode")
            else:
                rec.page("flood", s, page="heads")
                sweep(s, rng)
        except Exception:  # noqa: BLE001 - a dropped tab opens again
            s = None
            time.sleep(0.5)
    if s is not None:
        s.close()


def sweep(s, rng: random.Random) -> None:
    """Ask the Heads page for a held-out sweep of a size nobody asked for (the rate limit's case)."""
    from streamlit.proto.BackMsg_pb2 import BackMsg

    s.run({"heads_probe": "heldout"}, page="heads", timeout=180)
    msg = BackMsg()
    cs = msg.rerun_script
    cs.page_name = "heads"
    w = cs.widget_states.widgets.add()
    w.id = s.widget_id("heads_n")
    w.double_array_value.data.append(float(rng.randrange(20, 200, 10)))
    p = cs.widget_states.widgets.add()
    p.id, p.string_value = s.widget_id("heads_probe"), "heldout"
    s.widgets_before = dict(s.widgets)
    s.widgets.clear()
    s.ws.send(msg.SerializeToString())
    s._recv_until_finished(180)


class _Port:
    """What tests/app_helpers.Session needs of a server, in another process."""

    def __init__(self, port: int):
        self.port, self.base = port, f"http://127.0.0.1:{port}"


def _flood_process(port: int, seed: int, stop, out) -> None:
    """The flooder's six tabs in a process of their own, as on the student's own machine: their
    pages' large messages are parsed there, not in the process that times the honest student."""
    srv = _Port(port)

    class Counts:
        def __init__(self):
            self.lock, self.times, self.errors, self.last_error = threading.Lock(), {}, Counter(), ""
            self.events, self.t0 = [], time.perf_counter()

    rec = Counts()
    rec.page = Recorder.page.__get__(rec)  # the same timing code, without the RSS poll
    halt = threading.Event()
    threads = [threading.Thread(target=flood_tab, args=(srv, rec, halt, k,
                                                        random.Random(seed * 100 + k)),
                                daemon=True) for k in range(6)]
    for th in threads:
        th.start()
    stop.wait()
    halt.set()
    for th in threads:
        th.join(timeout=200)
    out.put({"pages": len(rec.times.get("flood", [])), "errors": sum(rec.errors.values()),
             "last_error": rec.last_error})


class Flood:
    """One student flooding from 127.0.0.2 with six tabs, in a process of its own."""

    def __init__(self, srv, seed: int):
        import multiprocessing as mp

        ctx = mp.get_context("spawn")
        self.stop, self.out = ctx.Event(), ctx.Queue()
        self.proc = ctx.Process(target=_flood_process, args=(srv.port, seed, self.stop, self.out),
                                daemon=True)
        self.proc.start()

    def end(self) -> dict:
        self.stop.set()
        try:
            got = self.out.get(timeout=240)
        except Exception:  # noqa: BLE001 - a flooder that never reported
            got = {"pages": None, "errors": None, "last_error": "no report"}
        self.proc.join(timeout=30)
        return got


# -- the scenarios --------------------------------------------------------------------------------
def scenario_paste(srv, runs: Path, n: int = 12) -> dict:
    rng = random.Random(12)
    rec = Recorder(srv)
    warm = session(srv, "127.0.0.9")
    rec.page("warm", warm, page="attention")
    before = srv.rss_mb()
    done = []

    def student(i):
        s = session(srv, f"127.0.0.{20 + i}")
        rec.page("paste", s, page="attention")
        rec.page("paste", s, query=q(text=paragraph(rng)), page="attention")
        done.append(s)

    threads = [threading.Thread(target=student, args=(i,)) for i in range(n)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    time.sleep(2)
    after = srv.rss_mb()
    rec.stop()
    for s in done + [warm]:
        s.close()
    return {"students": n, "rss_before_mb": round(before), "rss_peak_mb": round(rec.peak),
            "rss_after_mb": round(after), "grown_mb": round(after - before),
            "peak_grown_mb": round(rec.peak - before), "pages": stats(rec.times.get("paste", [1])),
            "errors": sum(rec.errors.values()), "last_error": rec.last_error}


def honest_pages(srv, rec: Recorder, who: str, k0: int, n: int, source: str = "127.0.0.3"):
    s = session(srv, source)
    rng = random.Random(k0)
    for i in range(n):
        rec.page(who, s, query=q(text=f"{sentence(rng, 8)} {k0 + i}"), page="attention")
    s.close()


def scenario_flood(srv, runs: Path, samples: int = 10) -> dict:
    rec = Recorder(srv)
    honest_pages(srv, rec, "warm", 0, 2)
    honest_pages(srv, rec, "quiet", 1000, samples)
    flood = Flood(srv, 1)
    time.sleep(10)  # the flood under way
    honest_pages(srv, rec, "flooded", 2000, samples)
    flooded_done = flood.end()
    rec.stop()
    quiet, flooded = stats(rec.times.get("quiet", [0])), stats(rec.times.get("flooded", [0]))
    return {"quiet": quiet, "flooded": flooded,
            "ratio_median": round(flooded["median_ms"] / max(1e-9, quiet["median_ms"]), 2),
            "flood": flooded_done, "errors": dict(rec.errors),
            "last_error": rec.last_error, "rss_peak_mb": round(rec.peak),
            "refusals": refusals(runs)}


def lesson_student(srv, rec: Recorder, i: int, until: float) -> None:
    rng = random.Random(500 + i)
    s = session(srv, f"127.0.0.{20 + i}")
    rec.page("honest:attention", s, page="attention")
    while time.monotonic() < until:
        time.sleep(rng.uniform(4, 12))  # reading, thinking, typing
        r = rng.random()
        if r < 0.35:
            rec.page("honest:attention", s, query=q(text=rng.choice(TOUR)), page="attention")
        elif r < 0.6:
            text = sentence(rng, rng.choice((6, 10, 20, 60)))
            if rng.random() < 0.1:
                text = paragraph(rng, rng.choice((1000, 3000)))  # up to the limit
            rec.page("honest:paste" if len(text) >= 1000 else "honest:attention", s,
                     query=q(text=text), page="attention")
        elif r < 0.72:
            a = sentence(rng, 10)
            rec.page("honest:pair", s, query=q(text=a + " it was tired .",
                                               text2=a + " it was wide .", swap=1), page="pair")
        elif r < 0.84:
            rec.page("honest:step", s, query=q(text=rng.choice(TOUR)), page="step")
        elif r < 0.95:
            rec.page("honest:decode", s, query=q(text=sentence(rng, 12), method="beam", beam=4),
                     page="decode")
        else:
            rec.page("honest:heads", s, page="heads")
            try:
                sweep(s, rng)
            except Exception:  # noqa: BLE001 - a refusal ends the sweep, not the student
                rec.errors["honest sweep"] += 1
    s.close()


def rehearsal(srv, rec: Recorder) -> None:
    """The teacher tries the lesson before the class comes in: each page once, the tour's pronoun
    sentence on the Attention page (as a teacher opens the app before a lesson; the per-model
    numbers every student asks for are then measured, ui/warmup.py, whichever tree runs)."""
    s = session(srv, "127.0.0.9")
    rec.page("warm", s, query=q(text=TOUR[0]), page="attention")
    for page in ("pair", "step", "decode", "heads"):
        rec.page("warm", s, page=page)
    s.close()


def scenario_class(srv, runs: Path, students: int = 30, seconds: float = 300) -> dict:
    rec = Recorder(srv)
    rehearsal(srv, rec)
    warm_s = round(sum(rec.times.get("warm", [])), 1)
    flood = Flood(srv, 2)
    until = time.monotonic() + seconds
    threads = [threading.Thread(target=lesson_student, args=(srv, rec, i, until), daemon=True)
               for i in range(students)]
    for th in threads:
        th.start()
        time.sleep(0.2)
    for th in threads:
        th.join(timeout=seconds + 400)
    flooded_done = flood.end()
    rec.stop()
    honest = [x for k, v in rec.times.items() if k.startswith("honest:") for x in v] or [0]
    by_page = {k.split(":", 1)[1]: stats(v) for k, v in sorted(rec.times.items())
               if k.startswith("honest:")}
    return {"students": students, "seconds": seconds, "rehearsal_s": warm_s,
            "honest": stats(honest), "by_page": by_page,
            "honest_pages": len(honest), "flood": flooded_done,
            "slowest": sorted((e for e in rec.events if e[1].startswith("honest:")),
                              key=lambda e: -e[2])[:15],
            "errors": dict(rec.errors), "last_error": rec.last_error,
            "rss_peak_mb": round(rec.peak), "refusals": refusals(runs)}


SCENARIOS = {"paste": scenario_paste, "flood": scenario_flood, "class": scenario_class}


def run_on(tree: Path, scenario: str, args) -> dict:
    from app_helpers import app_server

    work = Path(tempfile.mkdtemp(prefix=f"class-{scenario}-"))
    env = {"ATTENTION_LAB_TEACHER_TOKEN": TOKEN, "ATTENTION_LAB_RUNS": str(work / "runs"),
           "ATTENTION_LAB_UPLOADS": str(work / "uploads"), "ATTENTION_LAB_MAX_DISK_MB": "500",
           **dict(kv.split("=", 1) for kv in args.env)}
    with app_server(env, work / "server.log", app_root=tree, timeout=180) as srv:
        kw = {}
        if scenario == "class":
            kw = {"students": args.students, "seconds": args.seconds}
        elif scenario == "flood":
            kw = {"samples": args.samples}
        out = SCENARIOS[scenario](srv, work / "runs", **kw)
    return out


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scenario", choices=sorted(SCENARIOS), required=True)
    ap.add_argument("--reference", type=Path, default=None,
                    help="a checkout of the code to compare with, run first")
    ap.add_argument("--students", type=int, default=30)
    ap.add_argument("--seconds", type=float, default=300)
    ap.add_argument("--samples", type=int, default=10)
    ap.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                    help="more environment for both servers (e.g. ATTENTION_LAB_CACHE_MB=256)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    out = {"scenario": a.scenario, "env": a.env}
    if a.reference:
        out["reference"] = run_on(a.reference.resolve(), a.scenario, a)
    out["result"] = run_on(ROOT, a.scenario, a)
    print(json.dumps(out) if a.json else json.dumps(out, indent=1))
    return out


if __name__ == "__main__":
    main()
