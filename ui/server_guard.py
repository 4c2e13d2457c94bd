"""Guards on requests Streamlit itself answers, before any page script sees them (issue 22).

Streamlit handles two requests of a browser session without running the app's script, so the
app's roles (ui.roles) never see them unless they are guarded here:

* C. `PUT /_stcore/upload_file/<session>/<id>`: any session may send one (a self-made XSRF cookie
  and header pass the check), whatever its page shows, and the file is held in the server's
  memory until the session ends. Here a file is refused (HTTP 403) when the session's page draws
  no file uploader, and (HTTP 413) when the session would hold more than
  $ATTENTION_LAB_UPLOAD_SESSION_MB (default twice server.maxUploadSize) or all sessions together
  more than $ATTENTION_LAB_UPLOAD_MEMORY_MB (default eight times server.maxUploadSize).
* D. A `clear_cache` BackMsg over the websocket: Streamlit clears its data and resource
  caches for every session (the shared models included). Here it is ignored, and
  audited, unless the session is the teacher's (or the server has no teacher token: one person's
  laptop).

`install()` patches the two Streamlit methods once per process (ui.shell.configure calls it on
every script run; the first run of the first session installs it). Streamlit 1.67's internals
are used: AppSession._handle_clear_cache_request, MemoryUploadedFileManager.add_file, and the
session's widget metadata; a Streamlit without them is left as it is, with a warning.
"""
from __future__ import annotations

import contextlib
import logging
import os
import threading
from typing import Any

from ui import roles

_LOCK = threading.Lock()
_INSTALLED = False
_LOG = logging.getLogger(__name__)
UPLOADER_VALUE_TYPE = "file_uploader_state_value"
_ROLE_KEYS = (roles.ROLE_KEY, roles.AUTH_KEY, roles.SID_KEY, roles.CLIENT_KEY)


def install() -> None:
    global _INSTALLED
    with _LOCK:
        if _INSTALLED:
            return
        _INSTALLED = True
    for guard in (_guard_clear_cache, _guard_uploads):
        try:
            guard()
        except (ImportError, AttributeError) as e:  # another Streamlit: say so, serve anyway
            _LOG.warning("Attention Lab: %s not installed (%s)", guard.__name__, e)


# -- reading a session from outside its script run -------------------------------------------------
def _unwrap(state: Any) -> tuple[Any, Any]:
    """(SessionState, its lock or None) of an AppSession's state (a SessionState) or of a
    script run's SafeSessionState."""
    try:
        return object.__getattribute__(state, "_state"), object.__getattribute__(state, "_lock")
    except AttributeError:
        return state, None


def session_snapshot(state: Any) -> dict:
    """The roles' keys of a session, read from outside its script run (no script-thread yield);
    {} when unreadable (then: a student)."""
    for _ in range(3):
        try:
            inner, lock = _unwrap(state)
            with lock or contextlib.nullcontext():
                return {k: inner[k] for k in _ROLE_KEYS if k in inner}
        except RuntimeError:  # changed while read (a script run): read again
            continue
        except Exception:  # noqa: BLE001 - unreadable: treated as a student by the callers
            return {}
    return {}


def page_has_uploader(state: Any) -> bool:
    """Whether the session's page, as last drawn, holds a file uploader."""
    for _ in range(3):
        try:
            inner, lock = _unwrap(state)
            with lock or contextlib.nullcontext():
                meta = inner._new_widget_state.widget_metadata
                return any(getattr(m, "value_type", None) == UPLOADER_VALUE_TYPE
                           for m in list(meta.values()))
        except RuntimeError:  # changed while read (a script run): read again
            continue
        except Exception:  # noqa: BLE001 - unreadable: no uploader
            return False
    return False


# -- D: clear_cache ----------------------------------------------------------------------------------
def _guard_clear_cache() -> None:
    from streamlit.runtime.app_session import AppSession

    original = AppSession._handle_clear_cache_request
    if getattr(original, "_attention_lab_guard", False):
        return

    def guarded(self) -> None:
        snap = session_snapshot(self._session_state)
        if roles.role(snap) == "student":
            roles.log("clear_cache", "", "refused", state=snap,
                      reason="only the teacher clears the caches every session shares")
            return
        original(self)

    guarded._attention_lab_guard = True  # type: ignore[attr-defined]
    AppSession._handle_clear_cache_request = guarded


# -- C: uploads ----------------------------------------------------------------------------------------
def _mb_env(name: str, default_mb: float) -> int:
    raw = os.environ.get(name, "").strip()
    try:
        mb = float(raw) if raw else default_mb
    except ValueError:
        mb = default_mb
    return int(max(0.0, mb) * 1024 * 1024)


def upload_limits() -> tuple[int, int]:
    """(bytes one session may hold, bytes all sessions may hold) in uploaded files."""
    from streamlit import config

    per_file = float(config.get_option("server.maxUploadSize") or 200)
    return (_mb_env("ATTENTION_LAB_UPLOAD_SESSION_MB", 2 * per_file),
            _mb_env("ATTENTION_LAB_UPLOAD_MEMORY_MB", 8 * per_file))


class UploadRefused(Exception):
    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status, self.reason = status, reason


def upload_refusal(mgr, session_id: str, file, app_session) -> UploadRefused | None:
    """Why `file` may not be stored for `session_id` (None: it may). `app_session`: the
    session's AppSession (None: not a server session, e.g. AppTest; nothing to check)."""
    if app_session is None:
        return None
    state = app_session._session_state
    if not page_has_uploader(state):
        return UploadRefused(403, "this page has no file uploader")
    mine, everyone = upload_limits()
    size = len(file.data)
    with mgr._lock:
        held = mgr.file_storage.get(session_id, {})
        old = held.get(file.file_id)
        session_bytes = sum(len(f.data) for f in held.values()) - (len(old.data) if old else 0)
        total = mgr._total_bytes - (len(old.data) if old else 0)
    if session_bytes + size > mine:
        return UploadRefused(413, "this session holds too many uploaded bytes")
    if total + size > everyone:
        return UploadRefused(413, "the server holds too many uploaded bytes: try again later")
    return None


def _guard_uploads() -> None:
    from streamlit.runtime import Runtime
    from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager

    original = MemoryUploadedFileManager.add_file
    if getattr(original, "_attention_lab_guard", False):
        return

    from streamlit.runtime.app_session import AppSession

    def guarded(self, session_id: str, file) -> None:
        app_session = None
        if Runtime.exists():
            try:
                app_session = Runtime.instance().get_app_session(session_id)
            except Exception:  # noqa: BLE001 - no such session: the route refuses those itself
                app_session = None
        if not isinstance(app_session, AppSession):  # AppTest (a mocked runtime), or none
            app_session = None
        refusal = upload_refusal(self, session_id, file, app_session)
        if refusal is not None:
            snap = session_snapshot(app_session._session_state)
            roles.log("upload", str(getattr(file, "name", ""))[:80], "refused", state=snap,
                      reason=refusal.reason, bytes=len(file.data))
            try:
                from starlette.exceptions import HTTPException
            except ImportError:  # pragma: no cover - Streamlit 1.67 serves with Starlette
                raise PermissionError(refusal.reason) from None
            raise HTTPException(status_code=refusal.status, detail=refusal.reason)
        original(self, session_id, file)

    guarded._attention_lab_guard = True  # type: ignore[attr-defined]
    MemoryUploadedFileManager.add_file = guarded
