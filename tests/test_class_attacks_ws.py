"""Issue 22's attacks that went over Streamlit's own websocket and upload endpoint, tried the same
way against a real `streamlit run app.py` (tests/app_helpers.py: a scripted browser session that
sends BackMsg protobufs and PUTs files, with a self-made XSRF cookie and header). Two servers per
module: a class server (teacher token, disk budget) and an open one (no token), as the control
that each observation can see the attack succeed."""
from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

import pytest

from app_helpers import app_server, audit_lines

TOKEN = "correct horse battery staple"
MB = 1024 * 1024


def _env(workdir: Path, token: str | None) -> dict:
    shipped = workdir / "shipped"
    if not shipped.exists():
        shutil.copytree(Path(__file__).resolve().parents[1] / "checkpoints" / "copy-tiny",
                        shipped / "copy-tiny")
    env = {"ATTENTION_LAB_CHECKPOINTS": str(shipped), "ATTENTION_LAB_RUNS": str(workdir / "runs"),
           "ATTENTION_LAB_UPLOADS": str(workdir / "uploads"), "ATTENTION_LAB_DEFAULT": "copy-tiny",
           "ATTENTION_LAB_MAX_DISK_MB": "200", "ATTENTION_LAB_TEACHER_TOKEN": token or ""}
    return env


def _serve(tmp_path_factory, name: str, token: str | None):
    work = tmp_path_factory.mktemp(name)
    with app_server(_env(work, token), work / "server.log") as srv:
        srv.runs = work / "runs"
        yield srv


@pytest.fixture(scope="module")
def class_srv(tmp_path_factory):
    yield from _serve(tmp_path_factory, "class", TOKEN)


@pytest.fixture(scope="module")
def open_srv(tmp_path_factory):
    yield from _serve(tmp_path_factory, "open", None)


def _cache_bytes(srv, cache_type: str, name: str = "") -> int | None:
    """A cache's size in /_stcore/metrics (None: not listed)."""
    pat = re.compile(r'^cache_memory_bytes\{(?=[^}]*cache_type="%s")(?=[^}]*cache="%s")[^}]*\} '
                     r'(\d+)' % (re.escape(cache_type), re.escape(name)), re.M)
    m = pat.search(srv.metrics())
    return int(m.group(1)) if m else None


SIGN_IN = "FormSubmitter:roles_sign_in_form-Sign in"


def _try_token(s, token: str) -> str:
    s.run({"roles_token_input": token, SIGN_IN: True})
    return " ".join(s.texts())


# -- A ------------------------------------------------------------------------------------------------
def test_A_wrong_tokens_from_fresh_sessions_do_not_lock_the_teacher_out(class_srv):
    """Fresh sessions from the attacker's machine (behind the proxy: X-Forwarded-For) each try
    wrong tokens through the sign-in form, past every free try; then the teacher, from another
    machine, signs in with the right token at once."""
    for i in range(4):
        s = class_srv.session(forwarded_for="10.0.0.66").run()
        for j in range(3):
            text = _try_token(s, f"wrong-{i}-{j}")
            assert "Signed in as the teacher" not in text
        s.close()
    teacher = class_srv.session(forwarded_for="10.0.0.1").run()
    assert "Signed in as the teacher" in _try_token(teacher, TOKEN)
    teacher.close()
    # the attacker's machine was slowed across its sessions (a refresh does not reset it): the
    # 10th wrong token, the first try of the 4th session, already came with a wait
    tries: dict = {}
    for e in audit_lines(class_srv.runs):
        if e["action"] == "sign_in" and e["actor"].startswith("student:"):
            tries.setdefault(e["actor"], []).append(e)
    firsts = [v[0] for v in tries.values()]
    assert len(firsts) == 4 and firsts[-1]["wait_s"] > 0 and firsts[0]["wait_s"] == 0
    assert not any(e["outcome"] == "ok" for v in tries.values() for e in v)


# -- C ------------------------------------------------------------------------------------------------
def test_C_uploads_from_a_page_without_an_uploader_are_refused(class_srv):
    s = class_srv.session(forwarded_for="10.0.0.67").run()  # a student: no uploader drawn
    assert not [w for w in s.widgets if "upload" in w]
    before = class_srv.rss_mb()
    codes = [s.put_upload(b"\0" * (40 * MB), f"big-{i}.zip") for i in range(4)]
    assert codes == [403] * 4
    assert s.put_upload(b"PK\x03\x04", "small.zip") == 403
    assert _cache_bytes(class_srv, "UploadedFileManager") in (None, 0)  # nothing held
    assert class_srv.rss_mb() - before < 100, (before, class_srv.rss_mb())
    # above server.maxUploadSize (50 MB, .streamlit/config.toml): refused before it is read
    assert s.put_upload(b"\0" * (51 * MB), "huge.zip") == 413
    refused = [e for e in audit_lines(class_srv.runs)
               if e["action"] == "upload" and e["outcome"] == "refused"]
    assert len(refused) >= 5 and refused[-1]["reason"] == "this page has no file uploader"
    s.close()


def test_C_a_session_with_an_uploader_holds_a_bounded_amount(open_srv):
    """On an open server the sidebar has the checkpoint uploader: files are taken, but one
    session holds at most twice server.maxUploadSize."""
    s = open_srv.session(forwarded_for="10.0.0.68").run()
    assert [w for w in s.widgets if w.endswith("shell_upload")]
    codes = [s.put_upload(b"\0" * (40 * MB), f"part-{i}.zip") for i in range(4)]
    assert codes == [204, 204, 413, 413]
    held = _cache_bytes(open_srv, "UploadedFileManager")
    assert held is not None and held <= 100 * MB
    s.close()


# -- D ------------------------------------------------------------------------------------------------
def _misses(srv, name: str) -> int:
    """How often the cached function `name` has been computed (a miss: not in the cache)."""
    m = re.search(r'^cache_lookups_total\{(?=[^}]*cache="%s")(?=[^}]*result="miss")[^}]*\} (\d+)'
                  % re.escape(name), srv.metrics(), re.M)
    return int(m.group(1)) if m else 0


LOAD = "ui.models._load"  # the shared models (st.cache_resource)


def test_D_clear_cache_from_a_student_is_ignored(class_srv, open_srv):
    s = class_srv.session(forwarded_for="10.0.0.69").run()
    loads = _misses(class_srv, LOAD)
    assert loads >= 1  # the model was loaded once and is cached
    for _ in range(3):
        s.send_clear_cache()
    time.sleep(1.0)
    s.run()  # the page again: its model comes from the cache, not loaded again
    assert _misses(class_srv, LOAD) == loads
    assert [e for e in audit_lines(class_srv.runs)
            if e["action"] == "clear_cache" and e["outcome"] == "refused"]
    s.close()
    # the control: on an open server (one person's laptop) the same message clears the cache
    o = open_srv.session().run()
    loads = _misses(open_srv, LOAD)
    o.send_clear_cache()
    time.sleep(1.0)
    o.run()
    assert _misses(open_srv, LOAD) == loads + 1
    o.close()


# -- H ------------------------------------------------------------------------------------------------
def test_H_an_open_server_warns_on_the_console_and_on_remote_pages(open_srv):
    remote = open_srv.session(forwarded_for="10.0.0.70").run()
    assert any("has no teacher token" in x for x in remote.texts())
    local = open_srv.session().run()  # the person at the server's own machine
    assert not any("has no teacher token" in x for x in local.texts())
    assert "no ATTENTION_LAB_TEACHER_TOKEN is set" in open_srv.log_text()
    remote.close()
    local.close()


def test_H_a_class_server_shows_no_such_banner(class_srv):
    s = class_srv.session(forwarded_for="10.0.0.71").run()
    assert not any("has no teacher token" in x for x in s.texts())
    assert "no ATTENTION_LAB_TEACHER_TOKEN is set" not in class_srv.log_text()
    s.close()
