"""The app under test, shared by the page tests (and bench/): AppTest plumbing (point the app at
test checkpoints, open a page, read its plotly figures), and a real `streamlit run app.py` server
with a bare client for it.

The bare client (issue 22) speaks the server's websocket protocol (BackMsg / ForwardMsg protobufs)
and its upload endpoint directly, as a student with a script instead of a browser would:

    with app_server(env, tmp_path / "server.log") as srv:
        s = srv.session(forwarded_for="10.0.0.66")   # a browser behind the proxy at that address
        s.run()                                       # the app's first page, drawn
        s.widget("roles_token_input")                 # a widget the page drew, by its key
        s.run({"roles_token_input": "guess", "FormSubmitter:roles_sign_in_form-Sign in": True})
        s.texts()                                     # every string the page showed
        s.send_clear_cache()
        s.put_upload(b"x" * 10, "a.zip")              # PUT /_stcore/upload_file/<session>/<id>
"""
from __future__ import annotations

import contextlib
import http.client
import json
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

from streamlit.testing.v1 import AppTest

from helpers import free_port

ROOT = Path(__file__).resolve().parents[1]


def open_app(monkeypatch, checkpoints_dir: Path | None, tmp_path: Path, page: str | None = None,
             lang: str = "en", timeout: float = 120) -> AppTest:
    """Run app.py with the shipped-checkpoint dir replaced, then switch to `page`
    (e.g. "pages/attention.py") in language `lang`."""
    monkeypatch.setenv("ATTENTION_LAB_CHECKPOINTS", str(checkpoints_dir or tmp_path / "none"))
    monkeypatch.setenv("ATTENTION_LAB_RUNS", str(tmp_path / "runs"))
    monkeypatch.setenv("ATTENTION_LAB_UPLOADS", str(tmp_path / "uploads"))
    monkeypatch.chdir(ROOT)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=timeout)
    at.session_state["lang"] = lang
    at.run()
    if page:
        at.switch_page(page)
        at.run()
    return at


def rerun(at: AppTest) -> AppTest:
    """Run again with the sidebar's state put back. AppTest (Streamlit 1.67) runs only the page
    script after switch_page, so the sidebar's widgets are not re-registered and their state
    (language, checkpoint) is dropped after the first run: put it back before each run, as the
    shell would."""
    at.session_state["ckpt_path"] = at._ck
    at.session_state["lang"] = at._lang
    return at.run()


def open_pinned(monkeypatch, checkpoints_dir: Path | None, tmp_path: Path, page: str,
                lang: str = "en", query: dict | None = None) -> AppTest:
    """Open `page` (e.g. "pages/attention.py") with the language pinned for the whole test, and
    remember the session's checkpoint and language for `rerun`.

    AppTest re-formats the shell's checkpoint selectbox outside a script run, where the session's
    language cannot be read (ui.i18n.lang() falls back to "en" and the options no longer match)."""
    from ui import i18n

    monkeypatch.setattr(i18n, "lang", lambda: lang)
    at = open_app(monkeypatch, checkpoints_dir, tmp_path, lang=lang)
    at._ck = at.session_state["ckpt_path"] if checkpoints_dir else None
    at._lang = lang
    if query:
        at.query_params.update(query)
    at.switch_page(page)
    return rerun(at)


def no_errors(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def figures(at: AppTest) -> list[dict]:
    """The page's plotly figures as JSON, in page order (helpers.plotly_array reads their arrays)."""
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")]


def figure(at: AppTest, key: str) -> dict:
    """The plotly figure drawn with widget key `key`, as JSON."""
    for el in at.get("plotly_chart"):
        if el.proto.id.endswith(key):
            return json.loads(el.proto.spec)
    raise AssertionError(f"no chart {key}: {[e.proto.id for e in at.get('plotly_chart')]}")


# -- a real server ---------------------------------------------------------------------------------
@contextlib.contextmanager
def app_server(env: dict, log: Path | None = None, args: tuple = (), timeout: float = 120,
               app_root: Path = ROOT, launcher: tuple = ("-m", "streamlit")):
    """`streamlit run app.py` on a free port of 127.0.0.1 with `env` added to this environment,
    its output in `log` (or nowhere); yields the Server once /_stcore/health answers
    (RuntimeError if it exits or does not answer within `timeout` seconds), stops it after.
    `app_root`: the tree whose app.py runs (bench/: another commit's); `launcher`: what runs
    streamlit after the interpreter (bench/timed_streamlit.py logs every script run)."""
    port = free_port()
    out = open(log, "w") if log else subprocess.DEVNULL
    proc = subprocess.Popen(
        [sys.executable, *launcher, "run", str(app_root / "app.py"), "--server.headless",
         "true", "--server.port", str(port), "--server.address", "127.0.0.1",
         "--browser.gatherUsageStats", "false", *args],
        cwd=app_root, env={**os.environ, **env}, stdout=out, stderr=out)
    server = Server(f"http://127.0.0.1:{port}", log, proc)
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                urllib.request.urlopen(server.base + "/_stcore/health", timeout=1)
                break
            except OSError:
                if proc.poll() is not None:
                    raise RuntimeError("the app exited: " + server.log_text()[-2000:]) from None
                if time.monotonic() > deadline:
                    raise RuntimeError("the app did not start: "
                                       + server.log_text()[-2000:]) from None
                time.sleep(0.1)
        yield server
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if log:
            out.close()


def browser_idle(page, timeout: float = 120, poll: float = 0.25, settle: float = 0.5) -> bool:
    """Wait (Playwright `page`) until the app's script has stopped running (looked at after
    `settle` seconds, then every `poll`); False after `timeout` seconds."""
    page.wait_for_selector("[data-testid='stApp']", timeout=timeout * 1000)
    deadline = time.time() + timeout
    time.sleep(settle)
    while time.time() < deadline:
        if page.get_attribute("[data-testid='stApp']", "data-test-script-state") == "notRunning":
            return True
        time.sleep(poll)
    return False


class Server:
    def __init__(self, base: str, log: Path, proc: subprocess.Popen):
        self.base, self.log, self.proc = base, log, proc
        self.port = int(base.rsplit(":", 1)[1])

    def session(self, forwarded_for: str | None = None, source: str | None = None) -> "Session":
        return Session(self, forwarded_for, source)

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log else ""

    def rss_mb(self) -> float:
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def metrics(self) -> str:
        with urllib.request.urlopen(self.base + "/_stcore/metrics", timeout=10) as r:
            return r.read().decode()


class Session:
    """One browser session over the websocket."""

    def __init__(self, server: Server, forwarded_for: str | None = None,
                 source: str | None = None):
        """`source`: the loopback address this session speaks from (127.0.0.2 and up stand for
        other machines; None: the kernel's choice, 127.0.0.1), for the websocket and uploads."""
        from websockets.sync.client import connect

        self.server, self.source = server, source
        headers = {"X-Forwarded-For": forwarded_for} if forwarded_for else {}
        sock = None
        if source:
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=30,
                                            source_address=(source, 0))
        self.ws = connect(f"ws://127.0.0.1:{server.port}/_stcore/stream", sock=sock,
                          subprotocols=["streamlit"], additional_headers=headers,
                          max_size=2 ** 26, open_timeout=30, legacy=True)
        self.session_id: str | None = None
        self.elements: dict[tuple, object] = {}  # delta path -> element proto
        self.widgets: dict[str, object] = {}  # widget id -> element proto of that widget
        self.page_hash = ""

    def close(self) -> None:
        self.ws.close()

    # -- the protocol ---------------------------------------------------------------------------
    def _recv_until_finished(self, timeout: float) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        deadline = time.time() + timeout
        while True:
            left = deadline - time.time()
            if left <= 0:
                raise TimeoutError("the script run did not finish")
            raw = self.ws.recv(timeout=left)
            msg = ForwardMsg()
            msg.ParseFromString(raw)
            kind = msg.WhichOneof("type")
            if kind == "new_session":
                self.session_id = msg.new_session.initialize.session_id or self.session_id
                self.page_hash = msg.new_session.page_script_hash or self.page_hash
                self.elements.clear()
            elif kind == "delta":
                self._delta(msg)
            elif kind == "script_finished":
                if msg.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    return  # (an st.rerun() goes on with the next run)

    def _delta(self, msg) -> None:
        path = tuple(msg.metadata.delta_path)
        d = msg.delta
        if d.WhichOneof("type") == "new_element":
            el = d.new_element
            self.elements[path] = el
            inner = getattr(el, el.WhichOneof("type") or "empty", None)
            wid = getattr(inner, "id", "") if inner is not None else ""
            if isinstance(wid, str) and wid:
                self.widgets[wid] = (el.WhichOneof("type"), inner)

    def run(self, values: dict | None = None, query: str = "", page: str = "",
            timeout: float = 120) -> "Session":
        """A rerun as a browser sends one: widget values by key (or full widget id)."""
        from streamlit.proto.BackMsg_pb2 import BackMsg

        msg = BackMsg()
        cs = msg.rerun_script
        cs.query_string = query
        cs.page_script_hash = self.page_hash if not page else ""
        if page:
            cs.page_name = page
        for key, value in (values or {}).items():
            wid = self.widget_id(key)
            ws = cs.widget_states.widgets.add()
            ws.id = wid
            if value is True and self.widgets[wid][0] == "button":
                ws.trigger_value = True
            elif isinstance(value, bool):
                ws.bool_value = value
            elif isinstance(value, str):
                ws.string_value = value
            elif isinstance(value, int):
                ws.int_value = value
            else:
                raise TypeError(f"{key}: {type(value).__name__}")
        self.widgets_before = dict(self.widgets)
        self.widgets.clear()
        self.ws.send(msg.SerializeToString())
        self._recv_until_finished(timeout)
        return self

    def widget_id(self, key: str) -> str:
        for wid in list(self.widgets) + list(getattr(self, "widgets_before", {})):
            if wid == key or wid.endswith("-" + key) or wid.endswith(key):
                return wid
        raise KeyError(f"no widget {key!r} on the page ({sorted(self.widgets)[:20]})")

    def texts(self) -> list[str]:
        out = []
        for el in self.elements.values():
            kind = el.WhichOneof("type")
            inner = getattr(el, kind or "empty", None)
            for field in ("body", "label", "text", "value"):
                v = getattr(inner, field, None)
                if isinstance(v, str) and v:
                    out.append(v)
        return out

    def send_clear_cache(self) -> None:
        from streamlit.proto.BackMsg_pb2 import BackMsg

        msg = BackMsg()
        msg.clear_cache = True
        self.ws.send(msg.SerializeToString())

    # -- the upload endpoint ---------------------------------------------------------------------
    def put_upload(self, data: bytes, name: str = "file.zip", file_id: str | None = None,
                   timeout: float = 120) -> int:
        """PUT a file for this session, with a self-made XSRF cookie and header (what the attack
        did); returns the HTTP status."""
        from streamlit.web.server.starlette.starlette_app_utils import (
            generate_xsrf_token_string,
        )

        token = generate_xsrf_token_string(secrets.token_bytes(16), int(time.time()))
        boundary = uuid.uuid4().hex
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; "
                f"filename=\"{name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                ).encode() + data + f"\r\n--{boundary}--\r\n".encode()
        path = f"/_stcore/upload_file/{self.session_id}/{file_id or uuid.uuid4().hex}"
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=timeout,
                                          source_address=(self.source, 0) if self.source else None)
        try:
            conn.putrequest("PUT", path)
            for k, v in (("Content-Type", f"multipart/form-data; boundary={boundary}"),
                         ("Content-Length", str(len(body))), ("X-Xsrftoken", token),
                         ("Cookie", f"_streamlit_xsrf={token}")):
                conn.putheader(k, v)
            conn.endheaders()
            try:
                conn.send(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # refused before the body was read: the answer is already there
            return conn.getresponse().status
        finally:
            conn.close()


def audit_lines(runs_dir: Path) -> list[dict]:
    p = runs_dir / "audit.jsonl"
    if not p.exists():
        return []
    return [json.loads(x) for x in p.read_text().splitlines() if x.strip()]
