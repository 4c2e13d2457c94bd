"""The Train and Across-training pages' side of transformer.ops.runs: run names, the run in the URL,
the cap on concurrent runs, uploaded corpora, metrics read incrementally, and cached inspection of
a run's checkpoints.

A run is a directory under ui.models.runs_dir() named by the server (task-YYYYmmdd-HHMMSS-xxxx),
never by a user; the browser only ever names one through ?run=NAME, which is checked against the
directory listing before use.
"""
from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import streamlit as st
import torch

from transformer.core.checkpoint import read_config
from transformer.core.config import PRESETS
from transformer.data import tasks as data
from transformer.ops import audit, disk_budget, run_queue, runs
from transformer.train.corpus import SYNTHETIC
from transformer.train import settings as train_settings
from ui import i18n, models, roles
from ui.strings import roles as strings

RUN_PARAM = "run"
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")
MAX_CORPUS_MB = float(os.environ.get("ATTENTION_LAB_MAX_CORPUS_MB", "20"))


# -- names and places -------------------------------------------------------------------------
def new_run_name(task: str) -> str:
    task = re.sub(r"[^a-z0-9]+", "", task.lower()) or "run"
    return f"{task}-{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(2)}"


def run_dir(name: str | None) -> Path | None:
    """The run directory called `name` under runs_dir(), or None if the name is not a plain name
    (runs.run_dir: ?run= in the URL is whatever a student types) or no such run exists (a run
    being launched has command.json before status.json)."""
    if not name or not isinstance(name, str) or not NAME_RE.match(name):
        return None
    try:
        p = runs.run_dir(models.runs_dir(), name)
    except runs.RunError:
        return None
    if p.is_dir() and ((p / runs.STATUS).exists() or (p / runs.COMMAND).exists()):
        return p
    return None


def current_run() -> str | None:
    """The run this browser watches: ?run=NAME (survives a refresh), else the session's."""
    q = st.query_params.get(RUN_PARAM)
    if q and run_dir(q):
        return q
    name = st.session_state.get("train_run")
    return name if run_dir(name) else None


def watch(name: str | None) -> None:
    """Make `name` the watched run, in the session and in the URL."""
    st.session_state["train_run"] = name
    if name:
        st.query_params[RUN_PARAM] = name
    elif RUN_PARAM in st.query_params:
        del st.query_params[RUN_PARAM]


def multi30k_dir() -> Path | None:
    """Multi30k's folder: $ATTENTION_LAB_MULTI30K, ../shared/data/multi30k, or data/multi30k."""
    cands = [os.environ.get("ATTENTION_LAB_MULTI30K"), models.ROOT.parent / "shared/data/multi30k",
             models.ROOT / "data/multi30k"]
    for c in cands:
        if c and ((Path(c) / "train.en").is_file() or (Path(c) / "train.en.gz").is_file()):
            return Path(c).resolve()
    return None


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
    for s in runs.active_slots(models.runs_dir()):
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
    root = models.runs_dir()
    root.mkdir(parents=True, exist_ok=True)
    path = runs.run_dir(root, name)
    env = None
    if is_student_run(path):
        args = student_args(path, args)

        with disk_budget.LOCK:
            env = {**os.environ, **disk_budget.run_env(
                path, root, models.uploads_dir(),
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
    cfg = run_queue.settings(models.runs_dir())
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
    requesting person's own artefacts evicted first (`person`, else ui.roles.person of the
    session), then other students' but never another person's last run; each eviction audited;
    DiskBudgetError (audited) when there is no room. No budget set: nothing happens. Call it
    holding disk_budget.LOCK until written."""
    def evicted(a) -> None:
        roles.log("evict", a.path.name, "ok", state=state, kind=a.kind, bytes=a.size,
                  owner=(a.owner or {}).get("actor"), reason=f"room for {target}"[:120])

    try:
        who = person if person is not None else roles.person(state)
        return disk_budget.make_room(need, models.runs_dir(), models.uploads_dir(),
                                     on_evict=evicted, keep=keep, person=who)
    except disk_budget.DiskBudgetError as e:
        roles.log("disk", target, "refused", state=state, reason=str(e), bytes=int(need))
        raise


@contextlib.contextmanager
def reserve(need: int, target: str = "", keep=(), state=None):
    """`with runs_ui.reserve(n, what): write...`: make_room, holding the budget's lock until the
    write is done (two sessions cannot both pass the check and then both write)."""
    with disk_budget.LOCK:
        yield make_room(need, target, keep, state)


def budget_message(err) -> str:
    """A DiskBudgetError as a sentence in the page's language."""
    lim = disk_budget.limit_bytes() or 0
    return i18n.translator(strings)("disk_full", mb=f"{lim / 1e6:.0f}", reason=str(err))


# -- acting on runs, with the role checked (ui.roles) -------------------------------------------------
def owner(name_or_path) -> dict | None:
    """The run's owner record (None: the teacher's, see ui.roles)."""
    path = name_or_path if isinstance(name_or_path, Path) else run_dir(name_or_path)
    return runs.read_owner(path) if path is not None else None


def _existing(name: str) -> Path:
    path = run_dir(name)
    if path is None:
        raise runs.RunError(f"no run called {str(name)[:64]!r}")
    return path


def start_run(name: str, args: list[str], *, action: str = "run.start",
              sandbox: bool = False, state=None) -> runs.RunHandle:
    """Launch a new run owned by this session. PermissionError for a student (unless `action`
    is "sandbox.start" and student runs are on), RunError when every slot is busy."""
    roles.require(action, None, name, sandbox=sandbox, state=state)
    root = models.runs_dir()
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
    roles.require("run.stop", owner(path), name, state=state)
    runs.request_stop(path)
    roles.log("run.stop", name, "ok", state=state)


def resume_run(name: str, args: list[str], *, state=None) -> runs.RunHandle:
    path = _existing(name)
    roles.require("run.resume", owner(path), name, state=state)
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
    roles.require("run.delete", owner(path), name, state=state)
    info = runs.RunInfo(path.name, path, runs.read_status(path), [])
    if info.active or any(Path(s.get("run_dir", "")).name == path.name
                          for s in runs.active_slots(models.runs_dir())):
        roles.log("run.delete", name, "refused", state=state, reason="still running")
        raise runs.RunError("a run that is still going cannot be deleted: stop it first")
    shutil.rmtree(path, ignore_errors=True)
    roles.log("run.delete", name, "ok", state=state)


# -- metrics, read incrementally -------------------------------------------------------------------
def metrics(path: Path) -> list[dict]:
    """Every record of the run's metrics.jsonl, reading only the new bytes since the last call of
    this session (a resume rewrites the file: a new inode starts over)."""
    cache = st.session_state.setdefault("_runs_ui_metrics", {})
    f = path / runs.METRICS
    try:
        ino = os.stat(f).st_ino
    except FileNotFoundError:
        cache.pop(str(path), None)
        return []
    ent = cache.get(str(path))
    if ent is None or ent["ino"] != ino or ent["offset"] > os.stat(f).st_size:
        ent = {"ino": ino, "offset": 0, "records": []}
    new, off = runs.read_metrics(path, ent["offset"])
    ent = {"ino": ino, "offset": off, "records": ent["records"] + new}
    cache[str(path)] = ent
    return ent["records"]


# -- what a run is, from its files -----------------------------------------------------------------
@dataclass
class Settings:
    task: str
    d_model: int
    warmup: int
    lr_scale: float
    total_steps: int | None


def settings(path: Path, status: dict | None = None) -> Settings | None:
    """The schedule's inputs, from the run's settings.json (what the trainer resolved when it
    started or resumed the run). A run without one (older than settings.json): from its last
    checkpoint's config, else from the command it was started with, parsed again."""
    total = (status or {}).get("total_steps")
    try:
        record = train_settings.read_settings(path)
    except (ValueError, KeyError, TypeError):  # a damaged file: as if there were none
        record = None
    if record is not None:
        cfg, tc, _ = record
        return Settings(tc.task, cfg.d_model, tc.warmup, tc.lr_scale,
                        total or (tc.steps if not tc.epochs else None))
    return _settings_before_settings_json(path, total)


def _settings_before_settings_json(path: Path, total: int | None) -> Settings | None:
    last = path / "checkpoints" / "last"
    if (last / "config.json").exists():
        try:
            cfg, train, _ = read_config(last)
            return Settings(train.get("task", "?"), cfg.d_model, int(train.get("warmup", 4000)),
                            float(train.get("lr_scale", 1.0)), total or train.get("steps"))
        except Exception:  # noqa: BLE001 - a checkpoint being replaced: fall back to the command
            pass
    cmd = runs.read_json(path / runs.COMMAND, None)
    if not isinstance(cmd, dict):
        return None
    try:
        args = train_settings.build_parser().parse_args(cmd.get("argv", [])[2:])  # after "-m transformer.train"
        if args.resume:
            return None
        model, tc = train_settings.resolve_settings(args)
        d_model = model.get("d_model", PRESETS[model["preset"]]["d_model"])
        return Settings(tc.task, d_model, tc.warmup, tc.lr_scale,
                        total or (tc.steps if not tc.epochs else None))
    except (SystemExit, ValueError, KeyError):
        return None


def checkpoint_entries(path: Path) -> list[dict]:
    out = []
    for name in runs.checkpoints(path):
        d = path / "checkpoints" / name
        size = sum(f.stat().st_size for f in d.iterdir() if f.is_file()) if d.is_dir() else 0
        out.append({"name": name, "path": str(d), "size_bytes": size})
    return out


# -- uploaded corpora ----------------------------------------------------------------------------
def _where_free(err, shown: dict[str, str]) -> str:
    """A CorpusError as 'NAME:LINE: what' with the uploaded file's name instead of a server path."""
    msg = str(err)
    if err.path is not None:
        prefix = f"{err.path}:{err.line}: " if err.line else f"{err.path}: "
        if msg.startswith(prefix):
            msg = msg[len(prefix):]
    for server, name in shown.items():
        msg = msg.replace(server, name)
    if err.path is None:
        return msg
    name = shown.get(str(err.path), Path(str(err.path)).name)
    return f"{name}:{err.line}: {msg}" if err.line else f"{name}: {msg}"


def too_big(files) -> str | None:
    """The name of an uploaded file above the size limit, or None."""
    for f in files:
        if f is not None and f.size > MAX_CORPUS_MB * 1e6:
            return f.name
    return None


def write_corpus(dest: Path, files, reserve=None) -> tuple[dict, int]:
    """Save the upload(s) under dest/ (data.tsv, or source.txt + target.txt) and read them with
    transformer.data, which raises CorpusError naming the file and line. Returns (trainer flags,
    number of pairs); the error message names the user's file, not the server path.

    With `reserve(n_bytes)` (e.g. make_room under the disk budget), the files are read in a
    scratch folder first and `reserve` is called only once they are valid, before anything is
    written under dest/: a refused corpus never makes room (issue 22, K)."""
    if reserve is not None:
        with tempfile.TemporaryDirectory(prefix="attention-lab-corpus-") as d:
            flags, n = write_corpus(Path(d), files)
            written = [Path(v) for v in flags.values()]
            reserve(sum(p.stat().st_size for p in written))
            dest.mkdir(parents=True, exist_ok=True)
            for p in written:
                shutil.copyfile(p, dest / p.name)
            return {k: str(dest / Path(v).name) for k, v in flags.items()}, n
    dest.mkdir(parents=True, exist_ok=True)
    if len(files) == 1:
        p = dest / "data.tsv"
        p.write_bytes(files[0].getvalue())
        shown = {str(p): files[0].name}
        try:
            n = len(data.load_tsv(p))
        except data.CorpusError as e:
            raise data.CorpusError(_where_free(e, shown)) from None
        return {"--tsv": str(p)}, n
    ps, pt = dest / "source.txt", dest / "target.txt"
    ps.write_bytes(files[0].getvalue())
    pt.write_bytes(files[1].getvalue())
    shown = {str(ps): files[0].name, str(pt): files[1].name}
    try:
        n = len(data.load_parallel(ps, pt))
    except data.CorpusError as e:
        raise data.CorpusError(_where_free(e, shown)) from None
    return {"--src-file": str(ps), "--tgt-file": str(pt)}, n


def check_corpus(files) -> tuple[int | None, str | None]:
    """(pairs, None) or (None, 'file:line: error') for uploads not yet tied to a run."""
    with tempfile.TemporaryDirectory() as d:
        try:
            _, n = write_corpus(Path(d), files)
            return n, None
        except data.CorpusError as e:
            return None, str(e)


def remove_failed_launch(path: Path) -> None:
    """A run directory created for a launch that was refused (all slots busy) holds only the
    uploaded corpus: remove it so it does not show up as a run."""
    if path.is_dir() and not (path / runs.STATUS).exists() and not (path / runs.COMMAND).exists():
        shutil.rmtree(path, ignore_errors=True)


def md_escape(text: str) -> str:
    """User text (a corpus sentence) shown inside markdown, literally."""
    return re.sub(r"([\\`*_{}\[\]()#+\-.!|<>~$:])", r"\\\1", str(text))


# -- student sandbox runs and the fair queue (transformer.ops.run_queue) ---------------------------------
def classroom() -> dict:
    return run_queue.settings(models.runs_dir())


def set_classroom(state=None, **changes) -> dict:
    """The teacher's switch (student runs on/off, their step cap). PermissionError otherwise."""
    roles.require("classroom.settings", state=state)
    new = run_queue.save_settings(models.runs_dir(), **changes)
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
    root = models.runs_dir()
    if not (root / run_queue.QUEUE).exists():
        return []
    def start(entry: dict):
        try:
            return launch(entry["name"], entry["args"])
        except StudentRunRefused as e:  # switched off or capped since it was queued: dropped
            remove_failed_launch(root / entry["name"])
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
    root = models.runs_dir()
    settings = run_queue.settings(root)
    roles.require("sandbox.start", None, task, sandbox=settings["sandbox"], state=state)
    name = new_run_name(task)
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
    return [(e["name"], i + 1) for i, e in enumerate(run_queue.entries(models.runs_dir()))
            if e.get("actor") == me]
