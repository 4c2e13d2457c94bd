"""The run directory: the only thing a training run and the app share.

    RUN_DIR/
      status.json       replaced atomically (temp file + os.replace): state, step, tokens/s, ETA...
      metrics.jsonl     one JSON object per line, appended: train records and eval records
      STOP              created by anyone who wants the run to save a checkpoint and exit
      command.json      the argv the run was started with (for "resume" buttons and the record)
      log.txt           the child's stdout + stderr when launched through `launch`
      tokenizer.model   the SentencePiece model, trained once on the training split
      checkpoints/      step-000500/, ..., best/, last/  (transformer.checkpoint directories)

States: starting, running, evaluating, saving, stopped, finished, failed.

The Streamlit Train page uses `launch` (a child process running `python -m transformer.train`),
then polls with `read_status`, `read_metrics` and `request_stop`. Concurrent runs are capped by lock
files under ROOT/.slots/, each holding the child's pid; a slot whose process is gone (or a zombie,
or whose run reached a final state) is reclaimed.
"""
from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

STATES = ("starting", "running", "evaluating", "saving", "stopped", "finished", "failed")
FINAL_STATES = ("stopped", "finished", "failed")
STATUS, METRICS, STOP, COMMAND, LOG = "status.json", "metrics.jsonl", "STOP", "command.json", "log.txt"
SLOTS_DIR = ".slots"


class RunError(RuntimeError):
    """A run could not be launched (e.g. every slot is busy); the message is one line."""


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
    """Every run directory directly under `root` (a directory with status.json), newest first."""
    root = Path(root)
    if not root.is_dir():
        return []
    runs = []
    for p in root.iterdir():
        if p.is_dir() and (p / STATUS).exists():
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
    d = root / SLOTS_DIR
    d.mkdir(parents=True, exist_ok=True)
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
           python: str | None = None, env: dict | None = None) -> RunHandle:
    """Start `python -m transformer.train --out RUN_DIR --threads N ARGS...` as a detached child
    (own session: a Streamlit rerun or a closed tab does not kill it), its output in log.txt.

    At most `max_concurrent` runs share `slots_root` (default: RUN_DIR's parent); RunError when
    all slots are busy. The lock file holds the child's pid and run directory."""
    run_dir = Path(run_dir).resolve()
    root = Path(slots_root).resolve() if slots_root is not None else run_dir.parent
    _reap()
    slot = _claim_slot(root, max_concurrent)
    try:
        run_dir.mkdir(parents=True, exist_ok=True)
        clear_stop(run_dir)
        argv = [python or sys.executable, "-m", "transformer.train", "--out", str(run_dir),
                "--threads", str(threads), "--slots-root", str(root), *[str(a) for a in args]]
        child_env = dict(os.environ if env is None else env)
        for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):
            child_env[var] = str(threads)
        child_env.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # see transformer.train
        pkg_root = str(Path(__file__).resolve().parent.parent)
        child_env["PYTHONPATH"] = os.pathsep.join(
            p for p in (pkg_root, child_env.get("PYTHONPATH", "")) if p)
        write_json_atomic(run_dir / COMMAND, {"argv": argv[1:], "launched_at": time.time()})
        with open(run_dir / LOG, "ab") as log:
            proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, env=child_env, cwd=pkg_root,
                                    start_new_session=True)
        write_json_atomic(slot, {"pid": proc.pid, "run_dir": str(run_dir),
                                 "started_at": time.time()})
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
