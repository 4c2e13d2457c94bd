"""Issue 48, 7: the app behind nginx on more than one process (docs/SERVING.md). nginx (Debian's
package) runs docs/nginx/attention-lab.conf itself, in a private prefix under tmp, in front of two
`streamlit run app.py` replicas sharing one runs folder, one teacher token and one disk budget;
scripted browser sessions (tests/app_helpers.py) speak to nginx's port from loopback addresses
127.0.0.2 and up, which stand for the students' machines.

Checked: pages render over the websocket through nginx; each address sticks to one replica and
the addresses spread over both; an upload PUT and a page's /media/ file reach the session's own
replica; an X-Forwarded-For sent by a student is replaced by nginx (the audit log's client is the
real address); two students on different replicas submitting at once start one run (the cap is
one), the other is queued; stopping the replica that launched the run loses nothing (the run's
process and folder live on, the other replica lists it and serves the stopped replica's students).
The disk budget's race between replicas is checked at the unit level (tests/test_file_lock.py:
processes racing on reserve), since a checkpoint upload's full round over the bare websocket
client (the uploader widget's file state) is not something it can send.
"""
from __future__ import annotations

import contextlib
import http.client
import os
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
import tomllib
from pathlib import Path

import pytest

from app_helpers import Server, Session, app_server, audit_lines
from helpers import free_port
from transformer.ops import run_queue, runs

ROOT = Path(__file__).resolve().parents[1]
CONF = ROOT / "docs" / "nginx" / "attention-lab.conf"
TOKEN = "correct horse battery staple"
SIGN_IN = "FormSubmitter:roles_sign_in_form-Sign in"
NGINX = shutil.which("nginx") or next(
    (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(p, os.X_OK)), None)
MB = 1024 * 1024


def render_conf(template: str, listen: int, ports: list[int], access_log: Path) -> str:
    """docs/nginx/attention-lab.conf with only the listen port, the replicas and the access log
    changed (each must be found exactly once: the documented file is the tested one)."""
    subs = [(r"listen 80;", f"listen 127.0.0.1:{listen};"),
            (r"access_log /var/log/nginx/attention-lab\.access\.log attention_lab;",
             f"access_log {access_log} attention_lab;")]
    out = template
    for pat, new in subs:
        out, n = re.subn(pat, new, out)
        assert n == 1, pat
    servers = re.findall(r"^    server 127\.0\.0\.1:85\d\d;\n", out, re.M)
    assert len(servers) >= 1
    out = out.replace("".join(servers),
                      "".join(f"    server 127.0.0.1:{p};\n" for p in ports), 1)
    return out


def nginx_main_conf(prefix: Path, site: Path) -> str:
    """A private nginx.conf around the site (what Debian's /etc/nginx/nginx.conf does: an http
    block that includes sites-enabled/*), its temp files and logs under `prefix`."""
    user = "user root;\n" if os.geteuid() == 0 else ""
    temps = "".join(f"    {k}_temp_path {prefix / k};\n" for k in ("client_body", "proxy"))
    return (f"{user}worker_processes 1;\nerror_log {prefix / 'error.log'} info;\n"
            f"events {{ worker_connections 256; }}\n"
            f"http {{\n{temps}    include {site};\n}}\n")


@contextlib.contextmanager
def nginx(prefix: Path, ports: list[int]):
    prefix.mkdir(parents=True, exist_ok=True)
    port = free_port()
    site = prefix / "attention-lab.conf"
    site.write_text(render_conf(CONF.read_text(), port, ports, prefix / "access.log"))
    conf = prefix / "nginx.conf"
    conf.write_text(nginx_main_conf(prefix, site))
    out = open(prefix / "nginx.out", "w")
    proc = subprocess.Popen([NGINX, "-p", str(prefix), "-e", str(prefix / "error.log"), "-c",
                             str(conf), "-g", f"daemon off; pid {prefix / 'nginx.pid'};"],
                            stdout=out, stderr=out)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("nginx did not start: "
                                       + (prefix / "nginx.out").read_text()
                                       + (prefix / "error.log").read_text()[-2000:])
                time.sleep(0.05)
        yield Server(f"http://127.0.0.1:{port}", prefix / "error.log", proc)
    finally:
        proc.send_signal(signal.SIGQUIT)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        out.close()


@pytest.fixture(scope="module")
def cls(tmp_path_factory):
    """nginx in front of replicas A and B on one runs folder; yields a namespace."""
    if NGINX is None:
        pytest.skip("nginx is not installed (Debian: apt-get install nginx-light); "
                    "docs/SERVING.md's proxy setup is not tested here")
    work = tmp_path_factory.mktemp("serving")
    shutil.copytree(ROOT / "checkpoints" / "copy-tiny", work / "shipped" / "copy-tiny")
    env = {"ATTENTION_LAB_CHECKPOINTS": str(work / "shipped"),
           "ATTENTION_LAB_RUNS": str(work / "runs"), "ATTENTION_LAB_UPLOADS": str(work / "uploads"),
           "ATTENTION_LAB_DEFAULT": "copy-tiny", "ATTENTION_LAB_TEACHER_TOKEN": TOKEN,
           "ATTENTION_LAB_MAX_DISK_MB": "200", "ATTENTION_LAB_MAX_RUNS": "1",
           "ATTENTION_LAB_TRUSTED_PROXIES": "127.0.0.1,::1", "ATTENTION_LAB_TRUST_X_REAL_IP": "0",
           "ATTENTION_LAB_POLL_S": "30"}
    with contextlib.ExitStack() as stack:
        a = stack.enter_context(app_server(env, work / "a.log"))
        b = stack.enter_context(app_server(env, work / "b.log"))
        proxy = stack.enter_context(nginx(work / "nginx", [a.port, b.port]))
        ns = type("Class", (), {})()
        ns.a, ns.b, ns.proxy, ns.runs, ns.work = a, b, proxy, work / "runs", work
        ns.access = work / "nginx" / "access.log"
        ns.replicas = {f"127.0.0.1:{a.port}": a, f"127.0.0.1:{b.port}": b}
        ns.on = _spread(ns)  # {replica's "127.0.0.1:PORT": [source addresses sticking to it]}
        try:
            yield ns
        finally:
            for s in runs.active_slots(ns.runs):  # the training children outlive the replicas
                with contextlib.suppress(ProcessLookupError, KeyError, ValueError):
                    os.kill(int(s["pid"]), signal.SIGKILL)


def _get(proxy: Server, path: str, source: str) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", proxy.port, timeout=30,
                                      source_address=(source, 0))
    try:
        conn.request("GET", path)
        r = conn.getresponse()
        return r.status, r.read()
    finally:
        conn.close()


def _log(ns) -> list[tuple[str, str, str, str]]:
    """The access log as (client, request, status, upstream) tuples."""
    pat = re.compile(r'^(\S+) \[[^]]*\] "([^"]*)" (\d+) \d+ upstream=(\S+)')
    return [m.groups() for m in map(pat.match, ns.access.read_text().splitlines()) if m]


def _upstreams(ns, source: str, what: str, wait: float = 10) -> set[str]:
    """The replicas that answered `source`'s requests containing `what` (nginx writes a line
    once the request is over: waits up to `wait` seconds for one)."""
    deadline = time.monotonic() + wait
    while True:
        got = {u for c, req, _, u in _log(ns) if c == source and what in req}
        if got or time.monotonic() > deadline:
            return got
        time.sleep(0.05)


def _spread(ns) -> dict[str, list[str]]:
    """Ask nginx for /_stcore/health from 127.0.0.2.. (three times each): which replica answers
    each address, as the access log tells."""
    on: dict[str, list[str]] = {u: [] for u in ns.replicas}
    for i in range(2, 22):
        src = f"127.0.0.{i}"
        for _ in range(3):
            assert _get(ns.proxy, "/_stcore/health", src)[0] == 200
        ups = _upstreams(ns, src, "/_stcore/health")
        time.sleep(0.1)
        ups = _upstreams(ns, src, "/_stcore/health")
        assert len(ups) == 1, (src, ups)  # sticky: the same replica every time
        on[ups.pop()].append(src)
    return on


class Sources:
    """Hands out each replica's student addresses, one per use."""

    def __init__(self, ns):
        self.left = {u: list(v) for u, v in ns.on.items()}

    def take(self, upstream: str) -> str:
        return self.left[upstream].pop(0)


@pytest.fixture(scope="module")
def sources(cls):
    return Sources(cls)


def _wait(cond, timeout: float = 60, poll: float = 0.2, fail=lambda: ""):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = cond()
        if got:
            return got
        time.sleep(poll)
    raise AssertionError(f"timed out waiting: {fail()}")


# -- the tests ----------------------------------------------------------------------------------------
def test_addresses_stick_to_one_replica_and_spread_over_both(cls):
    assert all(len(v) >= 3 for v in cls.on.values()), cls.on  # 20 addresses: both get some


def test_pages_render_over_the_websocket_through_nginx(cls, sources):
    for up in cls.replicas:
        src = sources.take(up)
        s = cls.proxy.session(source=src).run()
        assert s.session_id and s.texts()
        s.run(page="attention")  # another page, over the same websocket
        assert s.texts()
        s.close()
        assert _upstreams(cls, src, "/_stcore/stream") == {up}


def test_uploads_and_media_reach_the_sessions_replica(cls, sources):
    ups = list(cls.replicas)
    src, other = sources.take(ups[0]), sources.take(ups[1])
    teacher = cls.proxy.session(source=src).run()
    teacher.run({"roles_token_input": TOKEN, SIGN_IN: True})
    assert any("Signed in as the teacher" in x for x in teacher.texts())
    assert [w for w in teacher.widgets if w.endswith("shell_upload")]  # the sidebar's uploader
    assert teacher.put_upload(b"PK\x05\x06" + b"\0" * 18, "empty.zip") == 204
    assert _upstreams(cls, src, "/_stcore/upload_file/") == {ups[0]}
    # the same session's upload from an address nginx sends to the other replica: no such session
    stray = Session.__new__(Session)  # no websocket: only its put_upload is used
    stray.server, stray.source, stray.session_id = cls.proxy, other, teacher.session_id
    assert stray.put_upload(b"PK\x05\x06" + b"\0" * 18, "empty.zip") != 204
    # above server.maxUploadSize: nginx refuses it (client_max_body_size) before the app
    assert teacher.put_upload(b"\0" * (51 * MB), "huge.zip") == 413
    # the page's download (a /media/ file), from the session's replica (the other one may hold
    # the same file, named by its hash, if one of its sessions drew the same page)
    teacher.run(page="attention")
    urls = [el.download_button.url for el in teacher.elements.values()
            if el.WhichOneof("type") == "download_button" and el.download_button.url]
    assert urls and urls[0].startswith("/media/"), urls
    status, body = _get(cls.proxy, urls[0], src)
    assert status == 200 and body.count(b",") > 3, body[:200]  # the attention matrix, as CSV
    assert _upstreams(cls, src, "/media/") == {ups[0]}
    teacher.close()
    cfg = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert f"client_max_body_size {cfg['server']['maxUploadSize']}m;" in CONF.read_text()


def test_a_forged_forwarded_header_from_a_student_is_ignored(cls, sources):
    """nginx replaces the browser's X-Forwarded-For with the address it saw; the app believes it
    from nginx (127.0.0.1, a trusted proxy by default). The forged address never reaches it."""
    for up in cls.replicas:
        src = sources.take(up)
        before = len(audit_lines(cls.runs))
        s = cls.proxy.session(source=src, forwarded_for="127.0.0.1, 10.9.9.9").run()
        s.run({"roles_token_input": "a wrong guess", SIGN_IN: True})
        s.close()
        lines = [e for e in audit_lines(cls.runs)[before:] if e["action"] == "sign_in"]
        assert lines and {e["client"] for e in lines} == {f"ip:{src}"}, lines


def test_one_run_at_a_time_across_both_replicas(cls, sources):
    """The teacher's switch on (the shared .classroom.json); two students, one on each replica,
    press "start" at the same moment: one run trains (ATTENTION_LAB_MAX_RUNS=1), the other is
    queued."""
    run_queue.save_settings(cls.runs, sandbox=True, preset="tiny", max_steps=100000)
    ups = list(cls.replicas)
    students = [cls.proxy.session(source=sources.take(u)).run(page="train") for u in ups]
    for s in students:
        assert s.widget_id("train_sb_go")
    barrier, errors = threading.Barrier(2), []

    def press(s):
        try:
            barrier.wait(30)
            s.run({"train_sb_go": True}, page="train")
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=press, args=(s,)) for s in students]
    for t in threads:
        t.start()
    for t in threads:
        t.join(180)
    assert not errors, errors
    why = lambda: (audit_lines(cls.runs)[-6:], [s.texts() for s in students],  # noqa: E731
                   [list(s.widgets) for s in students])
    assert _wait(lambda: runs.active_slots(cls.runs), fail=why)
    slots = runs.active_slots(cls.runs)
    assert len(slots) == 1, slots
    queued = run_queue.entries(cls.runs)
    assert len(queued) == 1, queued
    started = Path(slots[0]["run_dir"]).name
    assert started != queued[0]["name"]
    _wait(lambda: runs.RunInfo(started, cls.runs / started,
                               runs.read_status(cls.runs / started), []).state == "running", 180)
    assert len(runs.active_slots(cls.runs)) == 1
    for s in students:
        s.close()
    cls.started, cls.queued = started, queued[0]["name"]


def test_stopping_a_replica_loses_no_run(cls, sources):
    name = getattr(cls, "started", None)
    if name is None:
        pytest.skip("needs the run of test_one_run_at_a_time_across_both_replicas")
    pid = int(runs.read_status(cls.runs / name)["pid"])
    with open(f"/proc/{pid}/stat") as f:
        parent = int(f.read().rsplit(")", 1)[1].split()[1])
    # the replica that launched it (its parent process) goes
    gone = next(u for u, r in cls.replicas.items() if r.proc.pid == parent)
    kept = next(u for u in cls.replicas if u != gone)
    cls.replicas[gone].proc.terminate()
    cls.replicas[gone].proc.wait(30)
    time.sleep(2)
    assert runs.pid_alive(pid)  # the run's own process trains on
    info = runs.RunInfo(name, cls.runs / name, runs.read_status(cls.runs / name), [])
    assert info.active and (cls.runs / name / runs.COMMAND).is_file()
    assert [e["name"] for e in run_queue.entries(cls.runs)] == [cls.queued]  # the queue too
    # the other replica lists it, to a student of the replica that is gone as well: nginx sends
    # that address on to the replica that is left
    for src in (sources.take(kept), sources.take(gone)):
        s = cls.proxy.session(source=src).run(page="train")
        kind, pick = s.widgets[s.widget_id("train_pick")]
        assert [o for o in pick.options if o.startswith(f"{name} · running")], list(pick.options)
        s.close()
    # and when the run ends, the replica that is left starts the queued one (its page's poll)
    runs.request_stop(cls.runs / name)
    _wait(lambda: not runs.pid_alive(pid), 120)
    s = cls.proxy.session(source=sources.take(kept)).run(page="train")
    s.close()
    _wait(lambda: [Path(x["run_dir"]).name for x in runs.active_slots(cls.runs)] == [cls.queued],
          60)
    assert run_queue.entries(cls.runs) == []
