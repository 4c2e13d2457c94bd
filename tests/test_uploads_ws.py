"""Issue 48, item 5, over the real websocket and upload endpoint (tests/app_helpers.py): idle
uploads cannot block everyone. Students speak from other loopback addresses (127.0.0.2 and up)
to stand for other machines. One class server (started once), with small caps so that a few probe files reach
them: a person may hold 2 MiB, all students together 9.5 MiB."""
from __future__ import annotations

import time

import pytest

from app_helpers import app_server, audit_lines
from test_class_attacks_ws import SIGN_IN, TOKEN, _env

MB = 1024 * 1024
PROBE = b'{"text": "the dog saw the cat", "pronoun": 0, "antecedent": 1}\n'


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    work = tmp_path_factory.mktemp("uploads")
    env = {**_env(work, TOKEN), "ATTENTION_LAB_UPLOAD_PERSON_MB": "2",
           "ATTENTION_LAB_UPLOAD_MEMORY_MB": "9.5"}
    # closed tabs' sessions end 2 s after they close (.streamlit/config.toml: 60 s)
    with app_server(env, work / "server.log", args=("--server.disconnectedSessionTTL", "2")) as s:
        s.runs = work / "runs"
        yield s


def _on_probe_upload(srv, source: str):
    """A session from `source` on the Heads page with the probe's uploader drawn."""
    s = srv.session(source=source).run()
    s.run(page="heads")
    kind, radio = s.widgets[s.widget_id("heads_probe")]
    s.run({"heads_probe": radio.options[-1]}, page="heads")  # the last source: a file
    assert [w for w in s.widgets if w.endswith("heads_upload")], sorted(s.widgets)
    return s


def _blob(n: int) -> bytes:
    return (PROBE * (n // len(PROBE) + 1))[:n]


def test_idle_student_uploads_do_not_block_the_teacher(srv):
    students = [_on_probe_upload(srv, f"127.0.0.{i}") for i in range(2, 7)]
    # the attack: 2 x 40 MiB from each tab. The probe's reader takes 1 MB: refused
    # before it is stored (the old guard took them, up to 100 MiB a session)
    assert [s.put_upload(b"\0" * (40 * MB), "big.jsonl") for s in students[:2]] == [413, 413]
    assert students[0].put_upload(_blob(2 * MB), "two.jsonl") == 413
    # what the uploader takes, twice from each of five students: 9 MiB held, and they stay open
    for s in students:
        assert [s.put_upload(_blob(9 * MB // 10), f"p{i}.jsonl") for i in range(2)] == [204, 204]
    # another tab of the first student's machine: one person, at her 2 MiB already
    tab = _on_probe_upload(srv, "127.0.0.2")
    assert tab.put_upload(_blob(9 * MB // 10), "p3.jsonl") == 413
    # a sixth student: all students together would pass 9.5 MiB
    late = _on_probe_upload(srv, "127.0.0.7")
    assert late.put_upload(_blob(9 * MB // 10), "p.jsonl") == 413
    # the refusal is said on the student's page, once, at its next run
    late.run(page="heads")
    assert any("refused your last upload" in x for x in late.texts()), late.texts()
    # the teacher (signed in, from her own machine): her 2 MiB checkpoint goes through
    teacher = srv.session(source="127.0.0.20").run()
    teacher.run({"roles_token_input": TOKEN, SIGN_IN: True})
    assert any("Signed in as the teacher" in x for x in teacher.texts())
    teacher.run()
    assert [w for w in teacher.widgets if w.endswith("shell_upload")], sorted(teacher.widgets)
    assert teacher.put_upload(b"PK\x05\x06" + b"\0" * (2 * MB - 4), "ck.zip") == 204
    refused = [e for e in audit_lines(srv.runs)
               if e["action"] == "upload" and e["outcome"] == "refused"]
    assert {e["reason"].split(" (")[0] for e in refused} >= {
        "larger than this page's uploader takes", "this person holds too many uploaded bytes",
        "students hold too many uploaded bytes: try again later"}
    for s in students + [tab, late, teacher]:
        s.close()


def test_a_closed_tabs_uploads_are_freed_when_its_session_ends(srv):
    """Streamlit drops an expired disconnected session without freeing its files (they were
    held for good); the guard frees them at the next upload."""
    time.sleep(3)  # the first test's tabs, closed: their sessions have ended
    s = _on_probe_upload(srv, "127.0.0.9")
    assert [s.put_upload(_blob(9 * MB // 10), f"p{i}.jsonl") for i in range(3)] == [204, 204, 413]
    s.close()
    time.sleep(3)
    again = _on_probe_upload(srv, "127.0.0.9")  # the same person, a new tab
    assert again.put_upload(_blob(9 * MB // 10), "p.jsonl") == 204
    again.close()
