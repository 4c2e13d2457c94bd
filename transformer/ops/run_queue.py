"""Student sandbox runs and their fair queue (issue 16).

    RUNS/.classroom.json   the teacher's switch: {"sandbox": false, "preset": "tiny",
                           "max_steps": 300}
    RUNS/.queue.json       waiting runs, in the order they will start:
                           [{"name", "actor", "role", "args", "queued_at"}, ...]

A student may have one run at most, queued or going. The queue is first come first served, with
the teacher's entries ahead of every student's. `pump(root, launch)` starts the head of the queue
when a training slot is free (`launch` raises runs.RunError while every slot is busy); the Train
page calls it on each poll, so a queued run starts when the slot frees without anyone waiting on
the page. Every read-modify-write of the queue holds an flock on RUNS/.queue.lock
(transformer.ops.file_lock: several Streamlit threads, or several replicas on one folder, issue 48,
7); a run the queue has just launched counts as its student's from the moment it holds a training
slot (before its child has written status.json), so a second replica cannot queue a second one
for the same student in that moment.
"""
from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Callable

from transformer.ops import file_lock, runs

SETTINGS, QUEUE, LOCKFILE = ".classroom.json", ".queue.json", ".queue.lock"
DEFAULTS = {"sandbox": False, "preset": "tiny", "max_steps": 300}


class QueueError(RuntimeError):
    """A run could not be queued (one per student); the message is one line."""


def settings(root) -> dict:
    got = runs.read_json(Path(root) / SETTINGS, {}) or {}
    out = dict(DEFAULTS)
    if isinstance(got, dict):
        out.update({k: got[k] for k in DEFAULTS if k in got})
    out["max_steps"] = max(1, int(out["max_steps"]))
    out["sandbox"] = bool(out["sandbox"])
    return out


def save_settings(root, **changes) -> dict:
    new = {**settings(root), **{k: v for k, v in changes.items() if k in DEFAULTS}}
    runs.write_json_atomic(Path(root) / SETTINGS, new)
    return settings(root)


@contextlib.contextmanager
def _locked(root):
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    with file_lock.lock_at(root / LOCKFILE):
        yield


def entries(root) -> list[dict]:
    q = runs.read_json(Path(root) / QUEUE, [])
    return [e for e in q if isinstance(e, dict) and "name" in e] if isinstance(q, list) else []


def _owners_running(root) -> set[str]:
    """The actors and persons owning a run that is going, or that holds a training slot (launched,
    its child not yet started far enough to write status.json)."""
    going = [r.path for r in runs.list_runs(root) if r.active]
    going += [Path(s["run_dir"]) for s in runs.active_slots(root) if s.get("run_dir")]
    out = set()
    for path in going:
        o = runs.read_owner(path) or {}
        out.update(str(o[k]) for k in ("actor", "person") if o.get(k))
    return out


def enqueue(root, name: str, actor: str, role: str, args: list[str], *, clock=time.time,
            person: str | None = None) -> int:
    """Queue a run; returns its place (1 = next). QueueError when a student already has a run
    queued or going: the same actor (session), or the same person (`person`, one identity across
    a student's tabs: issue 22, G)."""
    runs.run_dir(root, name)  # a plain name, or RunError
    mine = {actor} | ({person} if person else set())
    with _locked(root):
        q = entries(root)
        if role == "student" and (any({e.get("actor"), e.get("person")} & mine for e in q)
                                  or mine & _owners_running(root)):
            raise QueueError("you already have a run queued or training: one at a time")
        entry = {"name": name, "actor": actor, "role": role, "args": [str(a) for a in args],
                 "queued_at": clock()}
        if person:
            entry["person"] = person
        if role == "student":
            q.append(entry)
        else:  # the teacher's runs go ahead of every student's, in their own order
            i = next((k for k, e in enumerate(q) if e.get("role") == "student"), len(q))
            q.insert(i, entry)
        runs.write_json_atomic(Path(root) / QUEUE, q)
        return q.index(entry) + 1


def position(root, name: str) -> int | None:
    for i, e in enumerate(entries(root)):
        if e["name"] == name:
            return i + 1
    return None


def remove(root, name: str) -> bool:
    with _locked(root):
        q = entries(root)
        kept = [e for e in q if e["name"] != name]
        runs.write_json_atomic(Path(root) / QUEUE, kept)
        return len(kept) != len(q)


def pump(root, launch: Callable[[dict], object]) -> list[str]:
    """Start queued runs, head first, while slots are free; returns the names started. An entry
    whose launch fails for another reason than a busy slot is dropped (its error is the run's)."""
    started, dropped = [], 0
    if not entries(root):  # the common case, every poll: no lock, no write
        return started
    with _locked(root):
        q = entries(root)
        while q:
            try:
                launch(q[0])
            except runs.RunError as e:
                if "already running" in str(e):
                    break
                q.pop(0)
                dropped += 1
                continue
            started.append(q.pop(0)["name"])
        if started or dropped:
            runs.write_json_atomic(Path(root) / QUEUE, q)
    return started
