"""quota.gate, the one-line hook for pages (issue 16): a student's second full sweep within the
limit is refused on the page with the seconds to wait; the teacher's is not."""
from __future__ import annotations

from streamlit.testing.v1 import AppTest

from ui.serving import quota, roles


def _page():
    import streamlit as st

    from ui.serving import quota

    if quota.gate("heads.sweep", key=st.session_state.get("k")):
        st.write("swept")


def test_gate_refuses_with_the_wait(monkeypatch, tmp_path):
    monkeypatch.setenv("ATTENTION_LAB_RUNS", str(tmp_path / "runs"))
    monkeypatch.setenv(roles.TOKEN_ENV, "gate-token")
    monkeypatch.setenv("ATTENTION_LAB_RATE_HEADS_SWEEP", "1/60")
    quota.reset()
    at = AppTest.from_function(_page, default_timeout=60)
    at.session_state["k"] = 1
    at.run()
    assert [m.value for m in at.markdown] == ["swept"]
    at.run()  # the same sweep redrawn: free
    assert [m.value for m in at.markdown] == ["swept"] and not at.warning
    at.session_state["k"] = 2
    at.run()
    assert not at.markdown and "try again in 60 s" in at.warning[0].value
    teacher = AppTest.from_function(_page, default_timeout=60)
    teacher.session_state[roles.ROLE_KEY] = "teacher"
    teacher.session_state[roles.AUTH_KEY] = roles._digest("gate-token")
    for k in range(5):
        teacher.session_state["k"] = k
        teacher.run()
        assert [m.value for m in teacher.markdown] == ["swept"]
    quota.reset()
