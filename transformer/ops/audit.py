"""The audit log: who did what to the shared runs and uploads, one JSON object per line.

    runs/audit.jsonl      {"time": 1767000000.1, "iso": "2026-...Z", "actor": "teacher",
                           "action": "run.stop", "target": "copy-2026...-ab12", "outcome": "ok"}

An actor is "teacher", "open" (no teacher token set: one person on a laptop), or
"student:<12 hex>", a hash of the browser session's secret id (never the id itself). The token is
never written: `record` drops any field whose name mentions a token or secret, and refuses values
that equal the configured teacher token. Lines are appended with one write under a lock (a reader
never sees half a line); when the file passes `max_bytes` it is renamed to audit.jsonl.1 (older
generations shift to .2 ...; `keep` of them are kept), so the log is bounded at about
(keep + 1) x max_bytes. The lock holds across processes (ROOT/.locks/audit.lock, transformer.ops.
file_lock): replicas sharing one runs folder (docs/SERVING.md) neither rotate the file twice nor
interleave their lines.
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from transformer.ops import file_lock

FILE = "audit.jsonl"
MAX_BYTES = int(os.environ.get("ATTENTION_LAB_AUDIT_MAX_BYTES", str(1 << 20)))
KEEP = 3
OUTCOMES = ("ok", "refused", "error")
LOCK_NAME = "audit"
_SECRET_WORDS = ("token", "secret", "password")


def _scrub(value: Any, secret: str | None) -> Any:
    if isinstance(value, str):
        if secret and secret in value:
            return value.replace(secret, "[redacted]")
        return value[:500]
    if isinstance(value, (int, float, bool)) or value is None:
        return value
    if isinstance(value, dict):
        return {str(k): _scrub(v, secret) for k, v in value.items()
                if not any(w in str(k).lower() for w in _SECRET_WORDS)}
    if isinstance(value, (list, tuple)):
        return [_scrub(v, secret) for v in value][:50]
    return _scrub(str(value), secret)


def _rotate(path: Path, keep: int) -> None:
    for i in range(keep - 1, 0, -1):
        older = path.with_name(f"{path.name}.{i}")
        if older.exists():
            os.replace(older, path.with_name(f"{path.name}.{i + 1}"))
    os.replace(path, path.with_name(f"{path.name}.1"))


def record(root: str | os.PathLike, actor: str, action: str, target: str = "",
           outcome: str = "ok", *, secret: str | None = None, max_bytes: int | None = None,
           keep: int = KEEP, clock=time.time, **extra: Any) -> dict:
    """Append one event to ROOT/audit.jsonl and return it. `secret` (the teacher token, when
    there is one) is redacted from every value; fields named like a token are dropped."""
    if outcome not in OUTCOMES:
        raise ValueError(f"outcome: one of {OUTCOMES} (got {outcome!r})")
    now = clock()
    event = {"time": round(now, 3),
             "iso": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now)),
             "actor": actor, "action": action, "target": target, "outcome": outcome,
             **extra}
    event = _scrub(event, secret or None)
    line = json.dumps(event, ensure_ascii=False, allow_nan=False) + "\n"
    path = Path(root) / FILE
    limit = MAX_BYTES if max_bytes is None else max_bytes
    path.parent.mkdir(parents=True, exist_ok=True)
    with file_lock.lock(root, LOCK_NAME):
        try:
            if path.stat().st_size + len(line.encode()) > limit:
                _rotate(path, max(1, keep))
        except FileNotFoundError:
            pass
        with open(path, "a", encoding="utf-8") as f:
            f.write(line)
    return event


def read(root: str | os.PathLike, limit: int = 200) -> list[dict]:
    """The newest `limit` events of the current file, newest first (unreadable lines skipped)."""
    path = Path(root) / FILE
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except FileNotFoundError:
        return []
    out = []
    for raw in reversed(lines):
        try:
            ev = json.loads(raw)
        except json.JSONDecodeError:
            continue
        if isinstance(ev, dict):
            out.append(ev)
        if len(out) >= limit:
            break
    return out
