"""Acting on training runs, with every rule of the class server checked where the act happens:
who may (ui.serving.roles.require), how many run at once (the cap: $ATTENTION_LAB_MAX_RUNS, else
one per GPU, one on a CPU), what a student's run may carry (the teacher's switch and step cap,
`student_args`), the disk budget (`make_room`, `reserve`: transformer.ops.disk_budget) and the
students' fair queue (transformer.ops.run_queue). Each act and each refusal is audited
(roles.log).

Every start and resume passes `launch` (the queue's included), so a forged request meets the same
checks as the page's buttons. Which run the browser names and what a run's folder says is
ui/serving/run_files.py (split from this module: reading a folder needs none of the policy).
"""
from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path

import torch

from transformer.ops import audit, disk_budget, run_queue, runs
from transformer.train import settings as train_settings
from transformer.train.corpus import SYNTHETIC
from ui import i18n
from ui.serving import places, roles, run_files
from ui.strings import roles as strings


# -- device and the cap -------------------------------------------------------------------------
def device_info() -> dict:
    if torch.cuda.is_available():
        n = torch.cuda.device_count()
        return {"device": "cuda", "count": n, "name": torch.cuda.get_device_name(0)}
    return {"device": "cpu", "count": 0, "name": "", "cores": os.cpu_count() or 1}


def max_concurrent() -> int:
    """Runs at once on this server: $ATTENTION_LAB_MAX_RUNS, else one per GPU, one on a CPU."""
    env = os.environ.get("ATTENTION_LAB_MAX_RUNS")
    if env and env.isdigit() and int(env) > 0:
        return int(env)
    return max(1, device_info()["count"])


def train_threads() -> int:
    return max(1, int(os.environ.get("ATTENTION_LAB_TRAIN_THREADS", "1")))


def busy() -> list[dict]:
    """Who holds a training slot: [{"name", "task", "step", "total", "eta_s", "state"}]."""
    out = []
    for s in runs.active_slots(places.runs_dir()):
        d = Path(s.get("run_dir", ""))
        st_ = runs.read_status(d) or {}
        out.append({"name": d.name, "task": st_.get("task", "?"), "step": st_.get("step") or 0,
                    "total": st_.get("total_steps"), "eta_s": st_.get("eta_s"),
                    "state": st_.get("state", "starting")})
    return out


class StudentRunRefused(runs.RunError, PermissionError):
    """A student's run may not start or resume now (the teacher's switch or step cap); a
    PermissionError for the page, a RunError for the queue (which then drops the entry)."""


def launch(name: str, args: list[str]) -> runs.RunHandle:
    """Start a run (or resume one) under runs_dir(); RunError when every slot is busy. Who may
    act on the run is checked by start_run / resume_run; what a student's run may do is checked
    here, where every start and resume passes (the queue's included): student_args (the
    teacher's switch and step cap) and the run's disk share in its environment
    (transformer.ops.disk_budget.run_env)."""
    root = places.runs_dir()
    root.mkdir(parents=True, exist_ok=True)
    path = runs.run_dir(root, name)
    env = None
    if is_student_run(path):
        args = student_args(path, args)

        with disk_budget.LOCK:
            env = {**os.environ, **disk_budget.run_env(
                path, root, places.uploads_dir(),
                make_room_for_share=lambda n: make_room(
                    n, name, keep=[path], person=disk_budget.owner_person(runs.read_owner(path))))}
    return runs.launch(path, args, threads=train_threads(), max_concurrent=max_concurrent(),
                       slots_root=root, env=env)


def is_student_run(path: Path) -> bool:
    rec = runs.read_owner(path)
    return isinstance(rec, dict) and rec.get("role") == "student"


def _flags(args: list[str]) -> dict[str, str | None]:
    """A student run's flags as {flag: value} (None for --resume); StudentRunRefused for any
    flag a student run may not carry."""
    out: dict[str, str | None] = {}
    it = iter(str(a) for a in args)
    for a in it:
        if a == "--resume":
            out[a] = None
        elif a in STUDENT_FLAGS:
            try:
                out[a] = next(it)
            except StopIteration:
                raise StudentRunRefused(f"{a} needs a value") from None
        else:
            raise StudentRunRefused(f"a student run takes no {a[:40]} option")
    return out


STUDENT_FLAGS = ("--task", "--preset", "--steps", "--device")


def student_args(path: Path, args: list[str]) -> list[str]:
    """The arguments a student's run is launched with, checked against the teacher's classroom
    settings now (issue 22, B): student runs switched on, a built-in task, the teacher's preset,
    and never more steps in all than the teacher's cap (a queued run's steps are cut to the cap;
    a resume asking for more is refused). StudentRunRefused otherwise."""
    cfg = run_queue.settings(places.runs_dir())
    if not cfg["sandbox"]:
        raise StudentRunRefused(roles.MESSAGES["sandbox.start"])
    cap = int(cfg["max_steps"])
    flags = _flags(args)
    try:
        steps = int(flags["--steps"]) if flags.get("--steps") is not None else None
    except ValueError:
        raise StudentRunRefused("--steps must be a whole number") from None
    if "--resume" not in flags:
        task = flags.get("--task")
        if task not in SYNTHETIC:
            raise StudentRunRefused(f"student runs use a built-in task ({', '.join(SYNTHETIC)})")
        steps = cap if steps is None else max(1, min(steps, cap))
        return _student_argv(task, cfg["preset"], steps)
    extra = sorted(set(flags) - {"--resume", "--steps"})
    if extra:
        raise StudentRunRefused(f"a resumed student run takes no {extra[0][:40]} option")
    if steps is not None and steps > cap:
        raise StudentRunRefused(f"the teacher allows student runs at most {cap} steps "
                                f"(asked for {steps})")
    status = runs.read_status(path) or {}
    done = int(status.get("step") or 0)
    if done >= cap:
        raise StudentRunRefused(f"this run has trained the {cap} steps the teacher allows")
    if steps is None:
        total = status.get("total_steps")
        steps = cap if not isinstance(total, int) or total > cap else total
    return ["--resume", "--steps", str(steps)]


# -- the disk budget (transformer.ops.disk_budget) --------------------------------------------------------
def make_room(need: int, target: str = "", keep=(), state=None, person: str | None = None) -> list:
    """Room for `need` more bytes under runs/ and uploads/ (transformer.ops.disk_budget): the
    requesting person's own artefacts evicted first (`person`, else ui.serving.roles.person of
    the session), then other students' but never another person's last run; each eviction audited;
    DiskBudgetError (audited) when there is no room. No budget set: nothing happens. Call it
    holding disk_budget.LOCK until written."""
    def evicted(a) -> None:
        roles.log("evict", a.path.name, "ok", state=state, kind=a.kind, bytes=a.size,
                  owner=(a.owner or {}).get("actor"), reason=f"room for {target}"[:120])

    try:
        who = person if person is not None else roles.person(state)
        return disk_budget.make_room(need, places.runs_dir(), places.uploads_dir(),
                                     on_evict=evicted, keep=keep, person=who)
    except disk_budget.DiskBudgetError as e:
        roles.log("disk", target, "refused", state=state, reason=str(e), bytes=int(need))
        raise


@contextlib.contextmanager
def reserve(need: int, target: str = "", keep=(), state=None):
    """`with run_actions.reserve(n, what): write...`: make_room, holding the budget's lock until the
    write is done (two sessions cannot both pass the check and then both write)."""
    with disk_budget.LOCK:
        yield make_room(need, target, keep, state)


def budget_message(err) -> str:
    """A DiskBudgetError as a sentence in the page's language."""
    lim = disk_budget.limit_bytes() or 0
    return i18n.translator(strings)("disk_full", mb=f"{lim / 1e6:.0f}", reason=str(err))


# -- acting on runs, with the role checked (ui.serving.roles) ----------------------------------------
def _existing(name: str) -> Path:
    path = run_files.run_dir(name)
    if path is None:
        raise runs.RunError(f"no run called {str(name)[:64]!r}")
    return path


def start_run(name: str, args: list[str], *, action: str = "run.start",
              sandbox: bool = False, state=None) -> runs.RunHandle:
    """Launch a new run owned by this session. PermissionError for a student (unless `action`
    is "sandbox.start" and student runs are on), RunError when every slot is busy."""
    roles.require(action, None, name, sandbox=sandbox, state=state)
    root = places.runs_dir()
    path = runs.run_dir(root, name)
    path.mkdir(parents=True, exist_ok=True)
    rec = roles.owner_record(state)
    runs.write_owner(path, rec["actor"], rec["role"], keep_teacher=False, person=rec["person"])
    try:
        handle = launch(name, args)
    except runs.RunError as e:
        roles.log(action, name, "refused", state=state, reason=str(e))
        raise
    roles.log(action, name, "ok", state=state)
    return handle


def stop_run(name: str, *, state=None) -> None:
    """Ask the run to save and exit (its STOP file), if this session may: the teacher (or anyone
    on an open server) any run, a student only a run of their own. PermissionError otherwise."""
    path = _existing(name)
    roles.require("run.stop", run_files.owner(path), name, state=state)
    runs.request_stop(path)
    roles.log("run.stop", name, "ok", state=state)


def resume_run(name: str, args: list[str], *, state=None) -> runs.RunHandle:
    path = _existing(name)
    roles.require("run.resume", run_files.owner(path), name, state=state)
    try:
        handle = launch(name, args)
    except runs.RunError as e:
        roles.log("run.resume", name, "refused", state=state, reason=str(e))
        raise
    roles.log("run.resume", name, "ok", state=state)
    return handle


def delete_run(name: str, *, state=None) -> None:
    """Remove a run's folder (not while it is running). PermissionError / RunError."""
    path = _existing(name)
    roles.require("run.delete", run_files.owner(path), name, state=state)
    info = runs.RunInfo(path.name, path, runs.read_status(path), [])
    if info.active or any(Path(s.get("run_dir", "")).name == path.name
                          for s in runs.active_slots(places.runs_dir())):
        roles.log("run.delete", name, "refused", state=state, reason="still running")
        raise runs.RunError("a run that is still going cannot be deleted: stop it first")
    shutil.rmtree(path, ignore_errors=True)
    roles.log("run.delete", name, "ok", state=state)


# -- student sandbox runs and the fair queue (transformer.ops.run_queue) ---------------------------------
def classroom() -> dict:
    return run_queue.settings(places.runs_dir())


def set_classroom(state=None, **changes) -> dict:
    """The teacher's switch (student runs on/off, their step cap). PermissionError otherwise."""
    roles.require("classroom.settings", state=state)
    new = run_queue.save_settings(places.runs_dir(), **changes)
    roles.log("classroom.settings", "", "ok", state=state, **new)
    return new


def sandbox_args(task: str, settings: dict) -> list[str]:
    """A student's run: a synthetic task, the teacher's preset, at most the teacher's steps."""
    if task not in SYNTHETIC:
        raise runs.RunError(f"student runs use a built-in task ({', '.join(SYNTHETIC)})")
    return _student_argv(task, settings["preset"], settings["max_steps"])


def _student_argv(task: str, preset: str, steps: int) -> list[str]:
    """A new student run's command line (transformer.train.settings writes it)."""
    return train_settings.argv_for({"task": task, "preset": preset, "steps": int(steps),
                                    "device": "auto"})


def pump_queue() -> list[str]:
    """Start queued runs while a slot is free (called on every Train page poll)."""
    root = places.runs_dir()
    if not (root / run_queue.QUEUE).exists():
        return []
    def start(entry: dict):
        try:
            return launch(entry["name"], entry["args"])
        except StudentRunRefused as e:  # switched off or capped since it was queued: dropped
            run_files.remove_failed_launch(root / entry["name"])
            audit.record(root, "system", "run.start", entry["name"], "refused",
                         reason=str(e)[:200], owner=entry.get("actor"))
            raise

    started = run_queue.pump(root, start)
    for name in started:
        audit.record(root, "system", "run.start", name, "ok", reason="from the queue")
    return started


def submit_sandbox(task: str, state=None) -> tuple[str, int | None]:
    """Queue a student's sandbox run (one per student; PermissionError when student runs are
    off, run_queue.QueueError when one is already queued or going). Returns (name, place in the
    queue, None once started)."""
    root = places.runs_dir()
    settings = run_queue.settings(root)
    roles.require("sandbox.start", None, task, sandbox=settings["sandbox"], state=state)
    name = run_files.new_run_name(task)
    args = sandbox_args(task, settings)
    rec = roles.owner_record(state)
    with reserve(0, name, state=state):
        path = runs.run_dir(root, name)
        path.mkdir(parents=True, exist_ok=True)
        runs.write_owner(path, rec["actor"], rec["role"], keep_teacher=False,
                         person=rec["person"])
    try:
        place = run_queue.enqueue(root, name, rec["actor"], rec["role"], args,
                                  person=rec["person"])
    except run_queue.QueueError as e:
        shutil.rmtree(path, ignore_errors=True)
        roles.log("sandbox.start", name, "refused", state=state, reason=str(e))
        raise
    roles.log("sandbox.start", name, "ok", state=state, place=place)
    pump_queue()
    return name, run_queue.position(root, name)


def my_queued(state=None) -> list[tuple[str, int]]:
    """(name, place) of this session's queued runs."""
    me = roles.actor(state)
    return [(e["name"], i + 1) for i, e in enumerate(run_queue.entries(places.runs_dir()))
            if e.get("actor") == me]
