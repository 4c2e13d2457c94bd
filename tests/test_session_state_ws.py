"""Session state is bounded (issue 48, 6): a widget value over the server's limit, sent over the
websocket as a forged browser would (the boxes themselves stop at their max_chars), is dropped
before Streamlit stores it, audited, and the page keeps the value it had. Sessions from other
loopback addresses (127.0.0.N) stand for other machines."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from app_helpers import app_server, audit_lines
from ui.serving import server_guard

TOKEN = "session-state-token-" + "y" * 12
MB = 1024 * 1024


def test_trim_drops_only_the_oversized_values():
    from streamlit.proto.ClientState_pb2 import ClientState

    cs = ClientState()
    big = cs.widget_states.widgets.add()
    big.id, big.string_value = "$$ID-abc-attention_text", "x" * (server_guard.MAX_WIDGET_BYTES + 1)
    small = cs.widget_states.widgets.add()
    small.id, small.string_value = "$$ID-def-attention_target", "ein Hund"
    cs.query_string = "text=" + "a" * (server_guard.MAX_QUERY_BYTES + 1)
    dropped = server_guard.trim(cs)
    assert [w.id for w in cs.widget_states.widgets] == ["$$ID-def-attention_target"]
    assert cs.widget_states.widgets[0].string_value == "ein Hund"
    assert dropped["widgets"] == ["attention_text"] and cs.query_string == ""
    cs2 = ClientState()
    ok = cs2.widget_states.widgets.add()
    ok.id, ok.string_value = "$$ID-x-heads_sentences", "é" * 50_000  # the longest box, full
    assert server_guard.trim(cs2) == {} and len(cs2.widget_states.widgets) == 1


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    work = tmp_path_factory.mktemp("state")
    shipped = work / "shipped"
    shutil.copytree(Path(__file__).resolve().parents[1] / "checkpoints" / "copy-tiny",
                    shipped / "copy-tiny")
    env = {"ATTENTION_LAB_CHECKPOINTS": str(shipped), "ATTENTION_LAB_RUNS": str(work / "runs"),
           "ATTENTION_LAB_UPLOADS": str(work / "uploads"), "ATTENTION_LAB_DEFAULT": "copy-tiny",
           "ATTENTION_LAB_TEACHER_TOKEN": TOKEN}
    with app_server(env, work / "server.log") as server:
        server.runs = work / "runs"
        yield server


def test_a_value_over_the_widget_limit_is_dropped_and_audited(srv):
    """A 600 kB sentence (under the 1 MB message limit, over the 256 kB value limit) from two
    students: dropped before Streamlit stores it, the page answers with the sentence it had, and
    each drop is audited with the student's own address."""
    for n in (2, 3):
        s = srv.session(source=f"127.0.0.{n}").run(page="attention")
        s.run({"attention_text": "dog " * 150_000}, page="attention")
        # the page drew its own sentence again (copy-tiny's example, 7 tokens), not 150,000 words
        assert any(t.startswith("Source tokens: 7 ") for t in s.texts()), s.texts()
        s.close()
    drops = [a for a in audit_lines(srv.runs) if a.get("action") == "widget_value"]
    assert {a["client"] for a in drops} == {"ip:127.0.0.2", "ip:127.0.0.3"}
    assert all(a["widgets"] == ["attention_text"] for a in drops)


def test_twenty_megabyte_messages_are_refused_and_not_kept(srv):
    """Five students each send a 20 MB sentence (Streamlit accepted 25 MB): the connection is
    closed before the message is parsed, and the server keeps nothing of it (the issue's
    measurement: 60 MB kept per session, none given back after they closed)."""
    warm = srv.session(source="127.0.0.9").run(page="attention")
    before = srv.rss_mb()
    for i in range(5):
        s = srv.session(source=f"127.0.0.{10 + i}").run(page="attention")
        with pytest.raises(Exception):  # the server closes the websocket (1009, message too big)
            s.run({"attention_text": f"{i} " + "dog " * (5 * MB)}, page="attention", timeout=30)
        s.close()
    after = srv.session(source="127.0.0.9").run(page="attention")  # the server still serves
    assert any(t.startswith("Source tokens: 7 ") for t in after.texts())
    grown = srv.rss_mb() - before
    warm.close()
    after.close()
    assert grown < 60, f"the server kept {grown:.0f} MB after five refused 20 MB messages"
