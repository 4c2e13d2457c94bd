"""Guards on requests Streamlit itself answers, before any page script sees them (issue 22).

Streamlit handles two requests of a browser session without running the app's script, so the
app's roles (ui.serving.roles) never see them unless they are guarded here:

* C. `PUT /_stcore/upload_file/<session>/<id>`: any session may send one (a self-made XSRF cookie
  and header pass the check), whatever its page shows, and the file is held in the server's
  memory until the session ends. Here a file is refused (HTTP 403) when the session's page draws
  no file uploader, and (HTTP 413, issue 48 item 5) when it is larger than what the page's
  uploaders' readers accept (UPLOAD_LIMITS_MB, by widget key: the probe's reader takes 1 MB),
  when the person (ui.serving.roles.person: every tab of one machine together) would hold more than
  $ATTENTION_LAB_UPLOAD_PERSON_MB (default twice server.maxUploadSize), or when all students
  together would hold more than $ATTENTION_LAB_UPLOAD_MEMORY_MB (default eight times
  server.maxUploadSize). That last cap counts students' bytes only: the teacher's uploads (role
  teacher, or an open server) never wait on students'.
  Bytes are freed when the session ends: Streamlit frees them only when a session is shut down,
  and a disconnected session that expires from its storage (server.disconnectedSessionTTL) is
  dropped without that, its files held for good; each upload first frees the files of sessions
  that are neither connected nor stored (`sweep`). A reader that has stored what it read frees
  the upload at once (`release`).
* D. A `clear_cache` BackMsg over the websocket: Streamlit clears its data and resource
  caches for every session (the shared models included). Here it is ignored, and
  audited, unless the session is the teacher's (or the server has no teacher token: one person's
  laptop).
* E. A `rerun_script` BackMsg carries every widget's value, and Streamlit keeps each in the
  session's state for as long as the session lives (issue 48: 20 sessions holding a 20 MB text
  value kept 60 MB each). The browser's boxes stop at their `max_chars` (ui/serving/text_limits.py),
  but a forged message does not: here a widget value over MAX_WIDGET_BYTES
  ($ATTENTION_LAB_MAX_WIDGET_KB, default 256 KB: the longest box, 50,000 characters, fits) is
  dropped from the message before Streamlit stores it (the widget keeps the value it had: nothing
  the student made is lost), and so is a query string over MAX_QUERY_BYTES (64 KB); each drop is
  audited. A closed session's state is released with the session (server.disconnectedSessionTTL,
  .streamlit/config.toml).

`install()` patches the three Streamlit methods once per process (ui.shell.configure calls it on
every script run; the first run of the first session installs it). Streamlit 1.67's internals
are used: AppSession._handle_clear_cache_request, AppSession._handle_rerun_script_request,
MemoryUploadedFileManager.add_file, and the session's widget metadata; a Streamlit without them is left as it is, with a warning.
"""
from __future__ import annotations

import contextlib
import logging
import os
import threading
from typing import Any

from ui.serving import roles

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
    for guard in (_guard_clear_cache, _guard_uploads, _guard_widget_values):
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


# what each uploader's reader accepts, in MB (Streamlit's unit: 1024 * 1024 bytes), by widget key;
# an uploader not listed here: server.maxUploadSize
def upload_limits_mb() -> dict[str, int]:
    import math

    try:
        corpus = float(os.environ.get("ATTENTION_LAB_MAX_CORPUS_MB", "20") or 20)
    except ValueError:
        corpus = 20.0
    corpus_mb = max(1, math.ceil(corpus * 1e6 / (1 << 20)))  # run_files.too_big counts 1e6 bytes
    return {
        "shell_upload": 200,  # transformer.ops.upload.MAX_ZIP_BYTES (200 MiB), under maxUploadSize
        "train_up_tsv": corpus_mb, "train_up_src": corpus_mb, "train_up_tgt": corpus_mb,
        "heads_upload": 1,  # viz.heads.MAX_PROBE_BYTES (1 MB)
        "heads_align_upload": 1, "heads_qk_upload": 1,  # a gold file, a sentence list: 1 MB
    }


def uploader_limit_mb(key: str) -> int:
    """What the uploader with widget key `key` accepts (MB), never above server.maxUploadSize:
    for st.file_uploader(max_upload_size=...) and the guard below."""
    from streamlit import config

    server = int(config.get_option("server.maxUploadSize") or 200)
    return max(1, min(server, upload_limits_mb().get(key, server)))


def page_uploaders(state: Any) -> list[str]:
    """The widget ids of the file uploaders the session's page, as last drawn, holds."""
    for _ in range(3):
        try:
            inner, lock = _unwrap(state)
            with lock or contextlib.nullcontext():
                meta = inner._new_widget_state.widget_metadata
                return [str(wid) for wid, m in list(meta.items())
                        if getattr(m, "value_type", None) == UPLOADER_VALUE_TYPE]
        except RuntimeError:  # changed while read (a script run): read again
            continue
        except Exception:  # noqa: BLE001 - unreadable: no uploader
            return []
    return []


def _key_of(widget_id: str) -> str:
    """The user key of a widget id ("$$ID-<hash>-<key>"), else the id itself."""
    keys = upload_limits_mb()
    for k in keys:
        if widget_id == k or widget_id.endswith("-" + k):
            return k
    return widget_id


def page_upload_limit(state: Any) -> int:
    """Bytes one file may have on the session's page: the largest that an uploader it draws
    accepts (a PUT names no widget: it may target any of them). 0: the page draws none."""
    ids = page_uploaders(state)
    return max((uploader_limit_mb(_key_of(w)) << 20 for w in ids), default=0)


def upload_limits() -> tuple[int, int]:
    """(bytes one person may hold, bytes all students may hold) in uploaded files."""
    from streamlit import config

    per_file = float(config.get_option("server.maxUploadSize") or 200)
    person = os.environ.get("ATTENTION_LAB_UPLOAD_PERSON_MB", "").strip() \
        or os.environ.get("ATTENTION_LAB_UPLOAD_SESSION_MB", "").strip()
    try:
        person_mb = float(person) if person else 2 * per_file
    except ValueError:
        person_mb = 2 * per_file
    return (int(max(0.0, person_mb) * 1024 * 1024),
            _mb_env("ATTENTION_LAB_UPLOAD_MEMORY_MB", 8 * per_file))


class UploadRefused(Exception):
    def __init__(self, status: int, reason: str, code: str = ""):
        super().__init__(reason)
        self.status, self.reason, self.code = status, reason, code


# session id -> (person, is the teacher's), recorded for each session whose file is stored; and
# session id -> the code of its last refused upload (for the page: uploader_text.refusal_note)
_HOLDERS: dict[str, tuple[str, bool]] = {}
_REFUSED: dict[str, str] = {}


def who(state: Any) -> tuple[str, bool]:
    """(person, is the teacher or an open server) of a session, read from outside its script."""
    snap = session_snapshot(state)
    try:
        r = roles.role(snap)
        p = roles.person(snap)
    except Exception:  # noqa: BLE001 - unreadable: a student of her own
        return f"session:{id(state)}", False
    return p, r in ("teacher", "open")


def _session_alive(session_id: str) -> bool:
    from streamlit.runtime import Runtime

    if not Runtime.exists():
        return True
    rt = Runtime.instance()
    try:
        if rt.is_active_session(session_id):
            return True
        storage = rt._session_mgr._session_storage  # disconnected, kept for a reconnect
        return storage.get(session_id) is not None
    except Exception:  # noqa: BLE001 - another Streamlit: keep the files as Streamlit does
        return True


def sweep(mgr) -> int:
    """Free the uploaded files of sessions that have ended (neither connected nor stored for a
    reconnect); returns the bytes freed."""
    with mgr._lock:
        sids = list(mgr.file_storage)
    freed = 0
    for sid in sids:
        if _session_alive(sid):
            continue
        with mgr._lock:
            freed += sum(len(f.data) for f in mgr.file_storage.get(sid, {}).values())
        mgr.remove_session_files(sid)
        _HOLDERS.pop(sid, None)
        _REFUSED.pop(sid, None)
    for sid in [s for s in _HOLDERS if s not in sids]:
        _HOLDERS.pop(sid, None)
    return freed


def upload_refusal(mgr, session_id: str, file, app_session) -> UploadRefused | None:
    """Why `file` may not be stored for `session_id` (None: it may). `app_session`: the
    session's AppSession (None: not a server session, e.g. AppTest; nothing to check)."""
    if app_session is None:
        return None
    state = app_session._session_state
    limit = page_upload_limit(state)
    if not limit:
        return UploadRefused(403, "this page has no file uploader", "no_uploader")
    size = len(file.data)
    if size > limit:
        return UploadRefused(413, f"larger than this page's uploader takes ({limit >> 20} MB)",
                             "too_big")
    person, teacher = who(state)
    mine, students = upload_limits()
    with mgr._lock:
        held = {sid: sum(len(f.data) for fid, f in files.items()
                         if not (sid == session_id and fid == file.file_id))
                for sid, files in mgr.file_storage.items()}
    holders = {**_HOLDERS, session_id: (person, teacher)}
    person_bytes = sum(n for sid, n in held.items() if holders.get(sid, ("", False))[0] == person)
    students_bytes = sum(n for sid, n in held.items() if not holders.get(sid, ("", False))[1])
    if person_bytes + size > mine:
        return UploadRefused(413, "this person holds too many uploaded bytes", "person_cap")
    if not teacher and students_bytes + size > students:
        return UploadRefused(413, "students hold too many uploaded bytes: try again later",
                             "students_cap")
    _HOLDERS[session_id] = (person, teacher)
    return None


def release(uploaded) -> None:
    """Free an uploaded file the page has read and stored (st.file_uploader's UploadedFile, or
    a list of them): its bytes stop counting; the uploader shows nothing on the next run."""
    try:
        from streamlit.runtime import Runtime
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        ctx = get_script_run_ctx()
        if ctx is None or not Runtime.exists():
            return
        mgr = Runtime.instance().uploaded_file_mgr
        for f in uploaded if isinstance(uploaded, (list, tuple)) else [uploaded]:
            if f is not None and getattr(f, "file_id", None):
                mgr.remove_file(ctx.session_id, f.file_id)
    except Exception:  # noqa: BLE001 - another Streamlit: the session's end frees it
        return


def last_refusal(session_id: str | None = None, pop: bool = True) -> str | None:
    """The code of the session's last refused upload ("too_big", "person_cap", "students_cap"),
    once; None when none."""
    if session_id is None:
        try:
            from streamlit.runtime.scriptrunner import get_script_run_ctx

            ctx = get_script_run_ctx()
            session_id = ctx.session_id if ctx is not None else None
        except Exception:  # noqa: BLE001
            session_id = None
    if not session_id:
        return None
    return _REFUSED.pop(session_id, None) if pop else _REFUSED.get(session_id)


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
        if app_session is not None:
            try:
                sweep(self)
            except Exception as e:  # noqa: BLE001 - never in the way of an upload
                _LOG.warning("Attention Lab: upload sweep failed (%s)", e)
        refusal = upload_refusal(self, session_id, file, app_session)
        if refusal is not None:
            if refusal.code and refusal.code != "no_uploader":
                _REFUSED[session_id] = refusal.code
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


# -- E: widget values ------------------------------------------------------------------------------
def _kb_env(name: str, default_kb: int) -> int:
    raw = os.environ.get(name, "").strip()
    return (int(raw) if raw.isdigit() and int(raw) > 0 else default_kb) * 1024


MAX_WIDGET_BYTES = _kb_env("ATTENTION_LAB_MAX_WIDGET_KB", 256)
MAX_QUERY_BYTES = 64 * 1024


def oversized(client_state) -> tuple[list[str], bool]:
    """(the ids of the widget values over MAX_WIDGET_BYTES, whether the query string is over
    MAX_QUERY_BYTES) in a rerun request's ClientState."""
    widgets = [w.id for w in client_state.widget_states.widgets
               if w.ByteSize() > MAX_WIDGET_BYTES]
    return widgets, len(client_state.query_string.encode("utf-8", "replace")) > MAX_QUERY_BYTES


def trim(client_state) -> dict:
    """Drop the oversized values from `client_state` in place; what was dropped, for the log.
    (Their bytes stay in the message's arena until the message is freed: pass on a copy.)"""
    widgets, long_query = oversized(client_state)
    dropped = {}
    if widgets:
        keep = [w for w in client_state.widget_states.widgets if w.id not in set(widgets)]
        dropped["bytes"] = client_state.widget_states.ByteSize()
        del client_state.widget_states.widgets[:]
        client_state.widget_states.widgets.extend(keep)
        dropped["widgets"] = [w.split("-")[-1][:60] for w in widgets]
    if long_query:
        dropped["query_bytes"] = len(client_state.query_string)
        client_state.query_string = ""
    return dropped


def _guard_widget_values() -> None:
    from streamlit.runtime.app_session import AppSession

    original = AppSession._handle_rerun_script_request
    if getattr(original, "_attention_lab_guard", False):
        return

    def guarded(self, client_state=None) -> None:
        if client_state is not None:
            dropped = trim(client_state)
            if dropped:
                roles.log("widget_value", "", "refused", state=session_snapshot(self._session_state),
                          reason=f"a value over {MAX_WIDGET_BYTES // 1024} KB", **dropped)
                # A fresh message: the session keeps its client state, and the original's arena
                # still holds the dropped bytes (protobuf frees an arena with its whole message).
                fresh = type(client_state)()
                fresh.CopyFrom(client_state)
                client_state = fresh
        original(self, client_state)

    guarded._attention_lab_guard = True  # type: ignore[attr-defined]
    AppSession._handle_rerun_script_request = guarded
