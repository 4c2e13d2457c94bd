"""A total disk budget for what users put on a shared server: runs/ and uploads/ (issue 16).

ATTENTION_LAB_MAX_DISK_MB (unset or 0: no budget, as on a laptop) bounds the bytes under both
folders together. Before anything is written (an uploaded checkpoint, a corpus, a new run),
`make_room(need, ..., person=...)` makes the room: while the total plus `need` would pass the
budget, students' artefacts are removed (issue 48, 5): first the requesting person's own (oldest
first), then other students' (oldest first), but never another person's last run (the newest run
of each other person is kept), never the teacher's (an artefact whose owner.json is missing or not
a student's), never a run still going. An owner's person is the owner record's `person`
(ui.serving.roles.person: one identity across a person's tabs), else its actor. If that is not
enough, DiskBudgetError says so and nothing is removed at all (the check is done before the first
removal).

Two writers must not both pass the check and then both write: hold `LOCK` around make_room and the
write (`reserve` does both in one with-statement). The lock holds across processes too (issue 48, 7:
several replicas on one runs folder, docs/SERVING.md): `LOCK` is transformer.ops.file_lock's flock
on the runs folder of $ATTENTION_LAB_RUNS itself (`lock_for`), and `reserve` takes the same
lock for the runs folder it is given (`lock_for`; re-entrant: nesting them is fine). make_room
itself takes no lock: its callers hold one until they have written.

A student's training run writes checkpoints for as long as it trains (issue 22, B2): the app
launches it with its share of the budget in its environment (`run_env`: at most
$ATTENTION_LAB_STUDENT_RUN_MB, default a tenth of the budget, and never more than the budget has
room for), and the trainer asks `may_write(run_dir, n)` before each checkpoint: past its share, or
past the whole budget, the run stops without writing (transformer.train.rundir).
"""
from __future__ import annotations

import contextlib
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from transformer.ops import file_lock, runs

ENV = "ATTENTION_LAB_MAX_DISK_MB"
SHARE_ENV = "ATTENTION_LAB_STUDENT_RUN_MB"  # a student run's share of the budget (MB)
RUN_MAX_ENV = "ATTENTION_LAB_RUN_MAX_BYTES"  # set by the app in a student run's environment
ROOTS_ENV = "ATTENTION_LAB_BUDGET_ROOTS"  # runs/ and uploads/, os.pathsep-separated


def lock_for(runs_root) -> file_lock.FileLock:
    """The budget's lock for the runs folder `runs_root`: a flock on the folder itself (nothing
    is written to take it), re-entrant; the one LOCK takes for the app's runs folder."""
    return file_lock.lock_dir(runs_root)


# Re-entrant, across threads and processes: the lock of the app's runs folder ($ATTENTION_LAB_RUNS).
LOCK = file_lock.EnvLock(lambda: lock_for(file_lock.runs_root()), "disk budget")


class DiskBudgetError(RuntimeError):
    """The budget cannot make room for a write; the message is one line, in MB."""


def limit_bytes() -> int | None:
    """The budget in bytes from $ATTENTION_LAB_MAX_DISK_MB, or None (no budget)."""
    raw = os.environ.get(ENV, "").strip()
    try:
        mb = float(raw) if raw else 0.0
    except ValueError:
        return None
    return int(mb * 1e6) if mb > 0 else None


def dir_size(path: str | os.PathLike) -> int:
    """Bytes of the regular files under `path` (symlinks not followed, not counted)."""
    total = 0
    for dirpath, dirnames, filenames in os.walk(path, followlinks=False):
        for name in filenames:
            try:
                st = os.lstat(os.path.join(dirpath, name))
            except OSError:
                continue
            if not os.path.islink(os.path.join(dirpath, name)):
                total += st.st_size
    return total


def usage(roots: Iterable[str | os.PathLike]) -> int:
    return sum(dir_size(r) for r in roots if Path(r).is_dir())


@dataclass
class Artefact:
    path: Path
    kind: str  # "run" | "upload"
    owner: dict | None
    created: float
    size: int
    active: bool

    @property
    def students(self) -> bool:
        return isinstance(self.owner, dict) and self.owner.get("role") == "student"


def artefacts(runs_root: str | os.PathLike, uploads_root: str | os.PathLike) -> list[Artefact]:
    """Every run folder and upload folder, oldest first (by the owner record's time, else the
    folder's modification time)."""
    busy = {Path(s.get("run_dir", "")).name for s in runs.active_slots(runs_root)} \
        if Path(runs_root).is_dir() else set()
    out = []
    for kind, root in (("run", Path(runs_root)), ("upload", Path(uploads_root))):
        if not root.is_dir():
            continue
        for p in root.iterdir():
            if p.name.startswith(".") or p.is_symlink() or not p.is_dir():
                continue
            owner = runs.read_owner(p)
            try:
                created = float((owner or {}).get("created_at") or p.stat().st_mtime)
            except (OSError, TypeError, ValueError):
                created = 0.0
            active = kind == "run" and (
                p.name in busy or runs.RunInfo(p.name, p, runs.read_status(p), []).active)
            out.append(Artefact(p, kind, owner, created, dir_size(p), active))
    out.sort(key=lambda a: a.created)
    return out


def owner_person(owner: dict | None) -> str | None:
    """Who an owner record belongs to across tabs: its `person`, else its `actor` (None: none)."""
    if not isinstance(owner, dict):
        return None
    who = owner.get("person") or owner.get("actor")
    return str(who) if who else None


def eviction_order(arts: list[Artefact], person: str | None = None,
                   keep: Iterable[str | os.PathLike] = ()) -> list[Artefact]:
    """The artefacts make_room may remove, in the order it removes them: `person`'s own first
    (oldest first), then other students' (oldest first) except each other person's newest run
    (their last one); never the teacher's, never a running run, never a folder in `keep`."""
    keep = {Path(k).resolve() for k in keep}
    movable = [a for a in arts if a.students and not a.active and a.path.resolve() not in keep]
    mine = [a for a in movable if person is not None and owner_person(a.owner) == person]
    newest_run: dict[str, Artefact] = {}
    for a in arts:  # oldest first: the last one seen is a person's newest run
        who = owner_person(a.owner)
        if a.kind == "run" and a.students and who is not None and who != person:
            newest_run[who] = a
    last = {id(a) for a in newest_run.values()}
    others = [a for a in movable if a not in mine and id(a) not in last
              and not (a.kind == "run" and owner_person(a.owner) is None)]
    return sorted(mine, key=lambda a: a.created) + sorted(others, key=lambda a: a.created)


def make_room(need: int, runs_root: str | os.PathLike, uploads_root: str | os.PathLike, *,
              limit: int | None = None, on_evict: Callable[[Artefact], None] | None = None,
              keep: Iterable[str | os.PathLike] = (), person: str | None = None
              ) -> list[Artefact]:
    """Evict students' artefacts until `need` more bytes fit the budget (eviction_order: the
    requesting `person`'s own first, never another person's last run); returns what was evicted.
    DiskBudgetError (nothing removed) when even evicting them all would not do. `keep`: folders
    never evicted (e.g. the run being started)."""
    limit = limit_bytes() if limit is None else limit
    if limit is None:
        return []
    need = max(0, int(need))
    used = usage([runs_root, uploads_root])
    if used + need <= limit:
        return []
    victims = eviction_order(artefacts(runs_root, uploads_root), person, keep)
    if used - sum(a.size for a in victims) + need > limit:
        raise DiskBudgetError(
            f"{need / 1e6:.1f} MB more would pass the budget of {limit / 1e6:.0f} MB "
            f"({used / 1e6:.1f} MB used, {sum(a.size for a in victims) / 1e6:.1f} MB of it "
            "students' artefacts that could be removed)")
    evicted = []
    for a in victims:
        if used + need <= limit:
            break
        shutil.rmtree(a.path, ignore_errors=True)
        used -= a.size
        evicted.append(a)
        if on_evict is not None:
            on_evict(a)
    return evicted


@contextlib.contextmanager
def reserve(need: int, runs_root, uploads_root, **kw):
    """`with reserve(n, runs, uploads): write...`: make_room under the budget's lock (across
    threads and processes), held during the write."""
    with lock_for(runs_root):
        yield make_room(need, runs_root, uploads_root, **kw)


def describe(runs_root, uploads_root, limit: int | None = None) -> dict:
    """For a status line: {"used_mb", "limit_mb" (None: no budget), "students_mb"}."""
    limit = limit_bytes() if limit is None else limit
    arts = artefacts(runs_root, uploads_root)
    return {"used_mb": round(sum(a.size for a in arts) / 1e6, 1),
            "limit_mb": None if limit is None else round(limit / 1e6, 1),
            "students_mb": round(sum(a.size for a in arts if a.students) / 1e6, 1),
            "at": time.time()}


# -- a student run's share (issue 22, B2) -----------------------------------------------------------
def student_share(limit: int) -> int:
    """Bytes one student run may hold: $ATTENTION_LAB_STUDENT_RUN_MB, else a tenth of `limit`."""
    raw = os.environ.get(SHARE_ENV, "").strip()
    try:
        mb = float(raw) if raw else 0.0
    except ValueError:
        mb = 0.0
    return int(mb * 1e6) if mb > 0 else limit // 10


def run_env(run_path, runs_root, uploads_root, *, limit: int | None = None,
            make_room_for_share: Callable[[int], object] | None = None) -> dict[str, str]:
    """The environment entries that bound a student run at `run_path` (empty: no budget).
    `make_room_for_share(n)`, when given, is asked to free n bytes first (students' older
    artefacts, transformer.ops.disk_budget.make_room); the share is what there is room for then."""
    limit = limit_bytes() if limit is None else limit
    if limit is None:
        return {}
    share = student_share(limit)
    have = dir_size(run_path) if Path(run_path).is_dir() else 0
    if make_room_for_share is not None and share > have:
        try:
            make_room_for_share(share - have)
        except DiskBudgetError:
            pass  # then the share is what is left
    room = limit - usage([runs_root, uploads_root]) + have
    cap = max(0, min(share, room))
    return {RUN_MAX_ENV: str(cap),
            ROOTS_ENV: os.pathsep.join(str(Path(r).resolve()) for r in (runs_root, uploads_root))}


def may_write(run_dir, need: int, environ=None) -> str | None:
    """In a training run: why writing `need` more bytes under `run_dir` is refused, or None.
    Only a run launched with a share (run_env) is ever refused."""
    environ = os.environ if environ is None else environ
    raw = environ.get(RUN_MAX_ENV)
    if raw is None:
        return None
    try:
        cap = int(raw)
    except ValueError:
        cap = 0
    size = dir_size(run_dir)
    if size + need > cap:
        return (f"stopped: this student run's disk share of {cap / 1e6:.1f} MB is spent "
                f"({size / 1e6:.1f} MB written, {need / 1e6:.1f} MB more needed)")
    limit = limit_bytes()
    roots = [r for r in (environ.get(ROOTS_ENV) or "").split(os.pathsep) if r]
    if limit is not None and roots:
        used = usage(roots)
        if used + need > limit:
            return (f"stopped: the server's disk budget of {limit / 1e6:.0f} MB is full "
                    f"({used / 1e6:.1f} MB used)")
    return None
