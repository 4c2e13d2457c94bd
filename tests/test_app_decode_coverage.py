"""The Decode page's coverage penalty β (GNMT's, Wu et al. 2016; transformer.core.decode.beam_search's
`coverage`) through AppTest, on the small trained anaphora checkpoint: the page shows what
beam_search(..., coverage=β) returns, its score formula and finished-hypotheses table count cp, and
β is kept across the language switch and a round trip to another page (ui/choices.py)."""
from __future__ import annotations

import pytest

from app_helpers import no_errors, open_pinned, rerun
from ui import i18n
from ui.strings import decode as S

PAGE = "pages/decode.py"
# On the tiny anaphora model, beam 4: β = 1 changes this one's output (and every β > 0 its score).
TEXT = "The woman saw the man because she was hungry ."
BETA = 1.0


def _direct(ck_path, beam, beta):
    from transformer.core import decode as D
    from transformer.core.checkpoint import load_checkpoint
    from transformer.core.text import source_ids

    ck = load_checkpoint(ck_path)
    src = source_ids(ck.tokenizer, TEXT, ck.model.cfg.max_len)[0]
    return ck, D.beam_search(ck.model, src, beam, 0.6, coverage=beta)


def open_page(monkeypatch, ck_dir, tmp_path):
    """The page with a language switch that moves open_pinned's pin (tests/test_choices_persist.py)."""
    at = open_pinned(monkeypatch, ck_dir, tmp_path, PAGE)
    at._langbox = {"v": "en"}
    monkeypatch.setattr(i18n, "lang", lambda: at._langbox["v"])
    return at


def switch_language(at, lang):
    at._langbox["v"] = lang
    at._lang = lang
    rerun(at)
    no_errors(at)


def choose_beta(at, beta=BETA):
    at.text_input(key="decode_text").input(TEXT)
    rerun(at)
    at.radio(key="decode_method").set_value("beam")
    rerun(at)
    no_errors(at)
    assert at.number_input(key="decode_coverage").value == 0.0  # off by default
    at.number_input(key="decode_coverage").set_value(beta)
    rerun(at)
    no_errors(at)


def test_the_page_shows_beam_search_with_the_coverage_penalty(monkeypatch, tmp_path, trained_dir,
                                                             trained_checkpoint):
    at = open_page(monkeypatch, trained_dir, tmp_path)
    choose_beta(at)
    ck, res = _direct(trained_checkpoint, 4, BETA)
    _, plain = _direct(trained_checkpoint, 4, 0.0)
    assert res.score != plain.score  # β changes the ranking score here
    assert at.code[0].value == ck.tokenizer.decode(res.tokens)
    shown = " ".join(m.value for m in at.markdown)
    assert f"**{res.score:.4f}**" in shown and f"β = {BETA}" in shown
    assert "cp(X; Y)" in at.get("latex")[0].proto.body
    [fin] = [d.value for d in at.dataframe if S.EN["tree_col_cp"] in d.value.columns]
    total = fin[S.EN["tree_col_total"]]
    assert list(total) == sorted(total, reverse=True)  # ranked by log P / lp + cp
    assert bool(fin[S.EN["tree_col_chosen"]].iloc[0])  # the top one is the one returned
    assert total.iloc[0] == pytest.approx(res.score, abs=1e-6)
    assert S.EN["tree_finished_caption_cp"] in [c.value for c in at.caption]
    # β back to 0: the page is what it was before the penalty existed
    at.number_input(key="decode_coverage").set_value(0.0)
    rerun(at)
    no_errors(at)
    assert at.code[0].value == ck.tokenizer.decode(plain.tokens)
    assert any(f"**{plain.score:.4f}**" in m.value for m in at.markdown)
    assert not [d for d in at.dataframe if S.EN["tree_col_cp"] in d.value.columns]
    assert "cp" not in at.get("latex")[0].proto.body


def test_beta_survives_the_language_switch_and_the_round_trip(monkeypatch, tmp_path, trained_dir,
                                                             trained_checkpoint):
    at = open_page(monkeypatch, trained_dir, tmp_path)
    choose_beta(at)
    ck, res = _direct(trained_checkpoint, 4, BETA)
    switch_language(at, "zh")
    box = at.number_input(key="decode_coverage")
    assert box.value == BETA and box.label == i18n.locale("zh")["decode"]["coverage"]
    assert at.code[0].value == ck.tokenizer.decode(res.tokens)
    assert any(f"**{res.score:.4f}**" in m.value for m in at.markdown)
    switch_language(at, "en")
    assert at.number_input(key="decode_coverage").value == BETA
    at.switch_page("pages/why-sqrt-dk.py")
    rerun(at)
    no_errors(at)
    at.switch_page(PAGE)
    rerun(at)
    no_errors(at)
    assert at.radio(key="decode_method").value == "beam"
    assert at.number_input(key="decode_coverage").value == BETA
    assert any(f"**{res.score:.4f}**" in m.value for m in at.markdown)


def test_a_bad_beta_is_refused(monkeypatch, tmp_path, trained_dir):
    """The widget clamps a value set behind its back (0 to 2); the page's own check refuses what
    beam_search would (check_coverage), with a message instead of an exception."""
    from ui import decode_view as DV

    at = open_page(monkeypatch, trained_dir, tmp_path)
    choose_beta(at)
    at.session_state["decode_coverage"] = -1.0
    rerun(at)
    no_errors(at)
    assert at.number_input(key="decode_coverage").value == 0.0
    m = DV.Method("beam", 4, 0.6, 1.0, 0, 0, 10, float("nan"))
    assert DV._coverage_problems(m) == [("bad_coverage", {"v": m.coverage})]
    assert DV._coverage_problems(m._replace(coverage=0.4)) == []
