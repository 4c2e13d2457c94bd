"""The run directory: the only thing a training run and the app share. RUN_DIR/ holds
      status.json       replaced atomically (temp file + os.replace): state, step, tokens/s, ETA...
      metrics.jsonl     one JSON object per line, appended: train records and eval records
      STOP              created by anyone who wants the run to save a checkpoint and exit
      command.json      the argv the run was started with (for "resume" buttons and the record)
      log.txt           the child's stdout + stderr when launched through `launch`
      tokenizer.model   the SentencePiece model, trained once on the training split
      checkpoints/      step-000500/, ..., best/, last/  (transformer.core.checkpoint directories)
      owner.json        who started it: {"actor", "role", "created_at"} (none: the teacher's)

States: starting, running, evaluating, saving, stopped, finished, failed. A run's folder comes
from a user's name only through `run_dir(ROOT, NAME)`: a plain name (a word character, then up to
63 word characters, dots or dashes; Unicode letters; no ".."), else RunError; `list_runs` skips
symlinks and anything that resolves outside ROOT.

The Train page uses `launch` (a child process running `python -m transformer.train`), then polls
`read_status`, `read_metrics`, `request_stop`. Concurrent runs are capped by lock files under
ROOT/.slots/ holding the child's pid; a slot whose process is gone (or a zombie, or whose run
ended) is reclaimed under ROOT/.locks/slots.lock (transformer.ops.file_lock: two replicas on one
runs folder never both reclaim one slot). With CUDA, the child of slot i sees the i-th visible GPU
(CUDA_VISIBLE_DEVICES, modulo their number), so N runs on N GPUs do not all land on cuda:0.
"""
from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from transformer.ops import file_lock
from transformer.ops.gpus import cuda_device_count, gpu_for_slot as _gpu_for_slot  # noqa: F401

STATES = ("starting", "running", "evaluating", "saving", "stopped", "finished", "failed")
FINAL_STATES = ("stopped", "finished", "failed")
STATUS, METRICS, STOP, COMMAND, LOG = "status.json", "metrics.jsonl", "STOP", "command.json", "log.txt"
OWNER = "owner.json"
SLOTS_DIR = ".slots"
# Never handed to a training child (its environment is readable in /proc/PID/environ by anything
# running as the same user): the teacher token (issue 22, I).
SECRET_ENV = ("ATTENTION_LAB_TEACHER_TOKEN",)


class RunError(RuntimeError):
    """A run could not be launched (e.g. every slot is busy, or a bad name); the message is one
    line."""


RUN_NAME_RE = re.compile(r"[\w][\w.-]{0,63}")  # str pattern: \w is Unicode-aware


def run_dir(root: str | os.PathLike, name: str) -> Path:
    """`root / name` for a plain name (see the module's docstring; nothing that resolves anywhere
    but directly under `root`, e.g. through a symlink), else RunError. Creates nothing."""
    if not isinstance(name, str) or not RUN_NAME_RE.fullmatch(name) or ".." in name:
        shown = (repr(name[:40]) + ("..." if len(name) > 40 else "") if isinstance(name, str)
                 else type(name).__name__)
        raise RunError(f"run name: use 1-64 letters, digits, '_', '-' or '.' (no '..'), "
                       f"starting with a letter, digit or '_' (got {shown})")
    root = Path(root)
    path = root / name
    try:
        inside = path.resolve().parent == root.resolve()
    except (OSError, RuntimeError, ValueError):  # symlink loops, odd file systems
        inside = False
    if not inside:
        raise RunError(f"run name: {name!r} does not name a folder inside {root.name or root}")
    return path


_checked_run_dir = run_dir  # for launch(), whose first parameter is called run_dir


def _clean(obj: Any) -> Any:
    """JSON-safe copy: NaN/inf become None (strict JSON), tuples become lists."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {str(k): _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    if hasattr(obj, "item") and callable(obj.item):  # numpy / torch scalars
        return _clean(obj.item())
    return obj


def write_json_atomic(path: str | os.PathLike, data: Any) -> None:
    """Write JSON to a temp file in the same directory, fsync, then os.replace: a reader sees the
    old file or the new one, never half of one."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(_clean(data), f, indent=1, allow_nan=False)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def read_json(path: str | os.PathLike, default: Any = None) -> Any:
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (FileNotFoundError, json.JSONDecodeError, UnicodeDecodeError):
        return default


# -- status ----------------------------------------------------------------------------------
def write_status(run_dir: str | os.PathLike, **fields: Any) -> dict:
    """Merge `fields` into status.json (atomically) and stamp updated_at. Returns the new status."""
    run_dir = Path(run_dir)
    if "state" in fields and fields["state"] not in STATES:
        raise ValueError(f"state: must be one of {STATES} (got {fields['state']!r})")
    status = read_json(run_dir / STATUS, {}) or {}
    status.update(fields)
    status["updated_at"] = time.time()
    write_json_atomic(run_dir / STATUS, status)
    return status


def read_status(run_dir: str | os.PathLike) -> dict | None:
    """The run's status, or None when it has none yet."""
    return read_json(Path(run_dir) / STATUS, None)


# -- metrics ---------------------------------------------------------------------------------
def append_metrics(run_dir: str | os.PathLike, record: dict) -> None:
    """Append one JSON line (a single write of a whole line, so readers never see half)."""
    line = json.dumps(_clean(record), allow_nan=False) + "\n"
    with open(Path(run_dir) / METRICS, "a", encoding="utf-8") as f:
        f.write(line)
        f.flush()


def read_metrics(run_dir: str | os.PathLike, offset: int = 0) -> tuple[list[dict], int]:
    """Records from byte `offset` on, and the offset to pass next time (a poller reads only what
    is new). A trailing partial line is left for the next call."""
    path = Path(run_dir) / METRICS
    try:
        with open(path, "rb") as f:
            f.seek(offset)
            data = f.read()
    except FileNotFoundError:
        return [], offset
    end = data.rfind(b"\n")
    if end < 0:
        return [], offset
    records = []
    for raw in data[: end + 1].splitlines():
        try:
            records.append(json.loads(raw))
        except json.JSONDecodeError:
            continue
    return records, offset + end + 1


def truncate_metrics(run_dir: str | os.PathLike, after_step: int) -> None:
    """Drop records past `after_step` (on resume: the steps after the last checkpoint will be
    trained again and logged again)."""
    path = Path(run_dir) / METRICS
    if not path.exists():
        return
    records, _ = read_metrics(run_dir)
    kept = [r for r in records if int(r.get("step", 0)) <= after_step]
    fd, tmp = tempfile.mkstemp(prefix=".metrics.", suffix=".tmp", dir=path.parent)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        for r in kept:
            f.write(json.dumps(r) + "\n")
    os.replace(tmp, path)


# -- STOP ------------------------------------------------------------------------------------
def request_stop(run_dir: str | os.PathLike) -> None:
    p = Path(run_dir) / STOP
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(f"{time.time()}\n")


def stop_requested(run_dir: str | os.PathLike) -> bool:
    return (Path(run_dir) / STOP).exists()


def clear_stop(run_dir: str | os.PathLike) -> None:
    try:
        (Path(run_dir) / STOP).unlink()
    except FileNotFoundError:
        pass


# -- owner -----------------------------------------------------------------------------------
def write_owner(path: str | os.PathLike, actor: str, role: str, *, keep_teacher: bool = True,
                person: str | None = None) -> dict:
    """Record who made the run (or upload) at `path` (`person`: one identity across a person's
    tabs, ui.serving.roles.person). With keep_teacher, an existing record that is not a student's is
    kept (a student uploading the teacher's file does not take it over)."""
    old = read_owner(path)
    if keep_teacher and isinstance(old, dict) and old.get("role") != "student":
        return old
    rec = {"actor": str(actor), "role": str(role), "created_at": time.time()}
    if person:
        rec["person"] = str(person)
    write_json_atomic(Path(path) / OWNER, rec)
    return rec


def read_owner(path: str | os.PathLike) -> dict | None:
    """The owner record, or None (no file, or not a JSON object)."""
    rec = read_json(Path(path) / OWNER, None)
    return rec if isinstance(rec, dict) else None


# -- listing ---------------------------------------------------------------------------------
@dataclass
class RunInfo:
    name: str
    path: Path
    status: dict | None
    checkpoints: list[str]

    @property
    def state(self) -> str:
        if self.status is None:
            return "unknown"
        state = self.status.get("state", "unknown")
        if state not in FINAL_STATES and not pid_alive(self.status.get("pid")):
            return "dead"  # killed (SIGKILL, machine reboot) without a chance to say so
        return state

    @property
    def active(self) -> bool:
        return self.state in ("starting", "running", "evaluating", "saving")


def checkpoints(run_dir: str | os.PathLike) -> list[str]:
    """Checkpoint names under RUN_DIR/checkpoints, step-NNNNNN in order, then best and last."""
    root = Path(run_dir) / "checkpoints"
    if not root.is_dir():
        return []
    names = [p.name for p in root.iterdir() if p.is_dir() and (p / "config.json").exists()]
    steps = sorted(n for n in names if n.startswith("step-"))
    return steps + [n for n in ("best", "last") if n in names]


def list_runs(root: str | os.PathLike) -> list[RunInfo]:
    """Every run directory directly under `root` (a directory with status.json), newest first.
    Symlinks and anything that resolves outside `root` are skipped (a link in the runs folder
    must not expose a folder elsewhere on the machine)."""
    root = Path(root)
    if not root.is_dir():
        return []
    real_root = root.resolve()
    runs = []
    for p in root.iterdir():
        try:
            if p.is_symlink() or not p.is_dir() or p.resolve().parent != real_root:
                continue
            if not (p / STATUS).is_file():
                continue
        except OSError:
            continue
        runs.append(RunInfo(p.name, p, read_status(p), checkpoints(p)))
    runs.sort(key=lambda r: (r.status or {}).get("started_at") or 0, reverse=True)
    return runs


# -- processes -------------------------------------------------------------------------------
def pid_alive(pid: Any) -> bool:
    """True when a process with this pid exists and is not a zombie."""
    try:
        pid = int(pid)
    except (TypeError, ValueError):
        return False
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            state = f.read().rsplit(b")", 1)[1].split()[0]
        if state in (b"Z", b"X"):
            return False
    except (OSError, IndexError):
        pass
    return True


def _reap() -> None:
    """Collect exited children of this process so they stop being zombies."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _slot_busy(slot: Path) -> bool:
    info = read_json(slot, None)
    if not isinstance(info, dict):
        # Being written right now (claimed, not yet filled) counts as busy for a few seconds.
        try:
            return time.time() - slot.stat().st_mtime < 10
        except FileNotFoundError:
            return False
    if not pid_alive(info.get("pid")):
        return False
    status = read_status(info.get("run_dir", "")) or {}
    if status.get("state") in FINAL_STATES and status.get("pid") == info.get("pid"):
        return False
    return True


def active_slots(root: str | os.PathLike) -> list[dict]:
    """The lock files of runs that are still going: [{"pid", "run_dir", "slot"}, ...]."""
    out = []
    d = Path(root) / SLOTS_DIR
    if d.is_dir():
        for slot in sorted(d.glob("slot-*.lock")):
            if _slot_busy(slot):
                info = read_json(slot, {}) or {}
                out.append({**info, "slot": slot.name})
    return out


def _claim_slot(root: Path, max_concurrent: int) -> Path:
    # Under a lock across processes: "stale, so unlink it and create it again" is two steps, and
    # a second claimer between them would unlink the slot the first one has just created.
    d = root / SLOTS_DIR
    d.mkdir(parents=True, exist_ok=True)
    with file_lock.lock(root, "slots"):
        return _first_free_slot(d, max_concurrent)


def _first_free_slot(d: Path, max_concurrent: int) -> Path:
    for i in range(max_concurrent):
        slot = d / f"slot-{i}.lock"
        for _ in range(2):
            try:
                fd = os.open(slot, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                if _slot_busy(slot):
                    break
                try:
                    slot.unlink()  # stale: its process is gone; try once more
                except FileNotFoundError:
                    pass
                continue
            os.close(fd)
            return slot
    raise RunError(f"{max_concurrent} training run(s) already running on this server; "
                   "wait for one to finish or stop it")


@dataclass
class RunHandle:
    run_dir: Path
    pid: int
    process: subprocess.Popen | None = None

    def alive(self) -> bool:
        if self.process is not None:
            return self.process.poll() is None
        return pid_alive(self.pid)

    def status(self) -> dict | None:
        return read_status(self.run_dir)

    def metrics(self, offset: int = 0) -> tuple[list[dict], int]:
        return read_metrics(self.run_dir, offset)

    def stop(self) -> None:
        request_stop(self.run_dir)

    def wait(self, timeout: float | None = None) -> int | None:
        if self.process is not None:
            return self.process.wait(timeout)
        deadline = None if timeout is None else time.time() + timeout
        while pid_alive(self.pid):
            if deadline is not None and time.time() > deadline:
                raise subprocess.TimeoutExpired(str(self.pid), timeout)
            time.sleep(0.1)
        return None


def launch(run_dir: str | os.PathLike, args: Iterable[str], *, threads: int = 1,
           max_concurrent: int = 1, slots_root: str | os.PathLike | None = None,
           python: str | None = None, env: dict | None = None,
           gpus: int | None = None) -> RunHandle:
    """Start `python -m transformer.train --out RUN_DIR --threads N ARGS...` as a detached child
    (own session: a Streamlit rerun or a closed tab does not kill it), its output in log.txt.

    RUN_DIR's last part must be a plain run name (see `run_dir`; build RUN_DIR from a user's name
    with `run_dir(root, name)`), else RunError. At most `max_concurrent` runs share `slots_root`
    (default: RUN_DIR's parent); RunError when all slots are busy. The lock file holds the child's
    pid and run directory.

    With CUDA devices (`gpus`: how many; default: counted), the child of slot i gets
    CUDA_VISIBLE_DEVICES set to the i-th of them (modulo their number), so concurrent runs use
    different GPUs; on a CPU-only machine the environment is left as it is. The teacher token
    (SECRET_ENV) is never passed on."""
    given = Path(run_dir)
    run_dir = _checked_run_dir(given.parent, given.name).resolve()
    root = Path(slots_root).resolve() if slots_root is not None else run_dir.parent
    _reap()
    slot = _claim_slot(root, max_concurrent)
    try:
        run_dir.mkdir(parents=True, exist_ok=True)
        clear_stop(run_dir)
        argv = [python or sys.executable, "-m", "transformer.train", "--out", str(run_dir),
                "--threads", str(threads), "--slots-root", str(root), *[str(a) for a in args]]
        child_env = dict(os.environ if env is None else env)
        for var in SECRET_ENV:
            child_env.pop(var, None)
        for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):
            child_env[var] = str(threads)
        child_env.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # see transformer.train
        gpu = _gpu_for_slot(int(slot.stem.rsplit("-", 1)[1]), child_env,
                            cuda_device_count() if gpus is None else int(gpus))
        if gpu is not None:
            child_env["CUDA_VISIBLE_DEVICES"] = gpu
        # `python -m` puts its working directory first on sys.path: run from the directory that
        # holds the `transformer` package, the child finds it without PYTHONPATH (installed with
        # `pip install -e .` or not).
        pkg_root = str(Path(__file__).resolve().parents[2])
        write_json_atomic(run_dir / COMMAND, {"argv": argv[1:], "launched_at": time.time(),
                                              "cuda_visible_devices": gpu})
        with open(run_dir / LOG, "ab") as log:
            proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, env=child_env, cwd=pkg_root,
                                    start_new_session=True)
        write_json_atomic(slot, {"pid": proc.pid, "run_dir": str(run_dir),
                                 "started_at": time.time(), "cuda_visible_devices": gpu})
    except BaseException:
        try:
            slot.unlink()
        except FileNotFoundError:
            pass
        raise
    return RunHandle(run_dir, proc.pid, proc)


def release_slot(root: str | os.PathLike, pid: int | None = None) -> None:
    """Remove the lock file(s) held by `pid` (default: this process). The trainer calls this on
    exit when it knows its slots root; otherwise stale slots are reclaimed on the next launch."""
    pid = os.getpid() if pid is None else pid
    d = Path(root) / SLOTS_DIR
    if not d.is_dir():
        return
    for slot in d.glob("slot-*.lock"):
        info = read_json(slot, None)
        if isinstance(info, dict) and info.get("pid") == pid:
            try:
                slot.unlink()
            except FileNotFoundError:
                pass


def tail_log(run_dir: str | os.PathLike, max_bytes: int = 4000) -> str:
    """The end of the child's log.txt (for showing why a run failed)."""
    path = Path(run_dir) / LOG
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - max_bytes))
            return f.read().decode("utf-8", "replace")
    except FileNotFoundError:
        return ""
