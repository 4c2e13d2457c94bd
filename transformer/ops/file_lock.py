"""Locks that hold across the threads of one process and across processes (issue 48, 7: several
`streamlit run` replicas on one runs/ folder, behind one proxy: docs/SERVING.md).

    with file_lock.lock(RUNS, "disk"):     # RUNS/.locks/disk.lock
        check, then write

A `FileLock` is a threading.RLock (re-entrant within a thread, excludes the process's other
threads) held together with an exclusive `fcntl.flock` on its lock file (excludes every other
process on the machine that locks the same file). The flock is taken when the thread's outermost
`with` enters and dropped when it leaves, so nesting the same lock in one thread never deadlocks.
`lock(root, name)` hands out one FileLock per lock file in a process (flock locks belong to an
open file: two objects on one file in one process would exclude each other, even in one thread).

`lock_dir(folder)` locks a folder itself (flock on its own descriptor): nothing is created in
it. The lock file is never removed (removing it while another process waits on it would let a third
one lock a new file beside it); it is empty and under a dot-folder, which the runs listing and the
disk budget's artefacts skip. flock works between processes of one machine (on a local file
system; not reliably over NFS): the replicas of docs/SERVING.md run on one machine.

`EnvLock(get)` is such a lock where the folder is only known when it is taken (`runs_root()`: the
runs folder of $ATTENTION_LAB_RUNS, default runs/ beside the `transformer` package, as
ui.serving.places.runs_dir).
"""
from __future__ import annotations

import fcntl
import os
import threading
import time
from pathlib import Path

LOCKS_DIR = ".locks"
RUNS_ENV = "ATTENTION_LAB_RUNS"
_DEFAULT_RUNS = Path(__file__).resolve().parents[2] / "runs"


class LockTimeout(TimeoutError):
    """The lock was not free within the time asked for."""


class FileLock:
    """A re-entrant lock held across threads (threading.RLock) and processes (flock on `path`)."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self._rlock = threading.RLock()
        self._depth = 0  # how deep the owning thread is (read and written only under _rlock)
        self._fd: int | None = None

    def acquire(self, timeout: float | None = None, poll: float = 0.01) -> bool:
        """Take the lock (blocking; with `timeout` seconds, LockTimeout when not free by then)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        if not self._rlock.acquire(timeout=-1 if timeout is None else max(0.0, timeout)):
            raise LockTimeout(f"{self.path}: held by another thread")
        try:
            if self._depth == 0:
                if self.path.is_dir():  # a folder locks itself: no file is created
                    fd = os.open(self.path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
                else:
                    self.path.parent.mkdir(parents=True, exist_ok=True)
                    fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
                try:
                    if deadline is None:
                        fcntl.flock(fd, fcntl.LOCK_EX)
                    else:
                        while True:
                            try:
                                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                                break
                            except BlockingIOError:
                                if time.monotonic() >= deadline:
                                    raise LockTimeout(f"{self.path}: held by another process") \
                                        from None
                                time.sleep(poll)
                except BaseException:
                    os.close(fd)
                    raise
                self._fd = fd
            self._depth += 1
        except BaseException:
            self._rlock.release()
            raise
        return True

    def release(self) -> None:
        """Leave one level; the flock goes with the outermost (RuntimeError if not held here)."""
        if not self.held():
            raise RuntimeError(f"{self.path}: released by a thread that does not hold it")
        try:
            self._depth -= 1
            if self._depth == 0 and self._fd is not None:
                fd, self._fd = self._fd, None
                try:
                    fcntl.flock(fd, fcntl.LOCK_UN)
                finally:
                    os.close(fd)
        finally:
            self._rlock.release()

    def held(self) -> bool:
        """True when this thread holds the lock."""
        return self._rlock._is_owned()  # noqa: SLF001 - RLock has no public "is mine"

    def __enter__(self) -> "FileLock":
        self.acquire()
        return self

    def __exit__(self, *exc) -> None:
        self.release()

    def __repr__(self) -> str:
        return f"FileLock({str(self.path)!r})"


_REGISTRY: dict[str, FileLock] = {}
_REGISTRY_LOCK = threading.Lock()


def lock_path(root: str | os.PathLike, name: str) -> Path:
    """ROOT/.locks/NAME.lock (ROOT resolved: one file however the folder is spelled)."""
    if not name or "/" in name or name.startswith("."):
        raise ValueError(f"lock name: a plain name (got {name!r})")
    return Path(root).resolve() / LOCKS_DIR / f"{name}.lock"


def lock(root: str | os.PathLike, name: str) -> FileLock:
    """This process's FileLock on ROOT/.locks/NAME.lock (the same object on every call)."""
    return lock_at(lock_path(root, name))


def lock_dir(folder: str | os.PathLike) -> FileLock:
    """This process's FileLock on the folder itself (created if missing; flock on the folder's
    own descriptor: no lock file appears in it)."""
    Path(folder).mkdir(parents=True, exist_ok=True)
    return lock_at(folder)


def lock_at(path: str | os.PathLike) -> FileLock:
    """This process's FileLock on the lock file `path` (the same object on every call)."""
    key = str(Path(path).resolve())
    with _REGISTRY_LOCK:
        got = _REGISTRY.get(key)
        if got is None:
            got = _REGISTRY[key] = FileLock(key)
        return got


def runs_root() -> Path:
    """The runs folder the app uses: $ATTENTION_LAB_RUNS, else runs/ beside the package."""
    return Path(os.environ.get(RUNS_ENV) or _DEFAULT_RUNS)


class EnvLock:
    """A lock whose file is only known when it is taken: `get()` (e.g. the runs folder of
    $ATTENTION_LAB_RUNS, `runs_root`) is called on each entry; each thread leaves the lock it
    entered, even if the environment changed meanwhile."""

    def __init__(self, get, label: str = ""):
        self._get, self.label = get, label
        self._local = threading.local()

    def current(self) -> FileLock:
        return self._get()

    def acquire(self, timeout: float | None = None) -> bool:
        got = self.current()
        got.acquire(timeout)
        self._local.__dict__.setdefault("stack", []).append(got)
        return True

    def release(self) -> None:
        self._local.stack.pop().release()

    def __enter__(self) -> FileLock:
        self.acquire()
        return self._local.stack[-1]

    def __exit__(self, *exc) -> None:
        self.release()

    def __repr__(self) -> str:
        return f"EnvLock({self.label!r})"
