"""How the trace pages write the model's output (ui/output_decoding.py, issue 50, 4: the decoding
that scores best on the held-out sets): beam search by default, greedy on request, and greedy for a
text too long to beam-search on a shared server. The trace of a beam output must hold the numbers
the search computed for it: checked against the search's own score, recomputed from the trace."""
from __future__ import annotations

import math

import pytest
import torch

from app_helpers import no_errors, open_pinned, rerun
from transformer.core import decode as D
from transformer.core.checkpoint import load_checkpoint
from transformer.core.text import source_ids
from transformer.probing.inspect import inspect_text, main as inspect_main
from ui import inspect_cache, output_decoding
from ui.serving import quota

SENTENCES = ["A dog runs in the park .", "The cat sat on the mat because it was tired .",
             "Two men are playing football ."]


@pytest.fixture(scope="module")
def ck(small_checkpoint):
    return load_checkpoint(small_checkpoint)


def _forced_log_prob(ins, eos_id: int, finished: bool) -> float:
    """Sum of log-probabilities the trace's logits give the output's pieces (and the final EOS
    when the search ended with one): the beam's raw score, computed from one teacher-forced
    pass instead of the search's step-by-step cache."""
    logits = ins.trace["logits"][0].double()  # (T, V): position t predicts token t + 1
    logp = torch.log_softmax(logits, -1)
    wanted = list(ins.tgt_ids[1:]) + ([eos_id] if finished else [])
    return float(sum(logp[t, tok] for t, tok in enumerate(wanted)))


def _coverage_penalty(ins, model, beta: float, finished: bool) -> float:
    """GNMT's cp written out with loops over the trace: the last decoder layer's cross-attention,
    its heads' mean, summed over the steps that wrote a token (the final EOS's step included when
    there is one), log(min(total, 1)) summed over the source's real pieces."""
    cfg = model.cfg
    last = cfg.n_decoder_layers - 1
    w = ins.weights("cross", last).double().mean(0)  # (H, T, S) -> (T, S)
    steps = len(ins.tgt_ids) - (0 if finished else 1)
    cp = 0.0
    for i, piece in enumerate(ins.src_ids):
        if piece in (cfg.pad_id, cfg.eos_id, cfg.bos_id):
            continue
        got = sum(float(w[j, i]) for j in range(steps))
        cp += math.log(min(got, 1.0))
    return beta * cp


def _check_beam_trace(model, tok, text: str, coverage: float) -> float:
    """Asserts the trace of the pages' beam output gives the search's own output and score;
    returns the coverage penalty recomputed from the trace (0 without one)."""
    src = source_ids(tok, text, model.cfg.max_len)[0]
    limit = min(len(src) + 50, model.cfg.max_len - 1)
    with torch.inference_mode():
        want = D.beam_search(model, src, D.BEST_BEAM, D.BEST_ALPHA, max_len=limit,
                             coverage=coverage)
        ins = inspect_text(model, tok, text, beam=D.BEST_BEAM, alpha=D.BEST_ALPHA,
                           coverage=coverage)
    assert ins.beam == D.BEST_BEAM and not ins.teacher_forced
    assert ins.tgt_ids == [model.cfg.bos_id] + want.tokens
    assert ins.output == tok.decode(want.tokens)
    length = len(want.tokens) + (1 if want.finished else 0)
    score = _forced_log_prob(ins, model.cfg.eos_id, want.finished) / D.length_penalty(
        length, D.BEST_ALPHA)
    cp = _coverage_penalty(ins, model, coverage, want.finished) if coverage else 0.0
    assert score + cp == pytest.approx(want.score, abs=1e-4)
    return cp


@pytest.mark.parametrize("text", SENTENCES)
def test_a_beam_output_is_the_searchs_and_its_trace_gives_the_searchs_score(ck, text):
    _check_beam_trace(ck.model.eval(), ck.tokenizer, text, 0.0)


def test_the_same_with_the_coverage_penalty_at_work(trained_checkpoint):
    """The pages' search with its coverage penalty, on a trained model whose outputs end (an
    untrained one writes to the length limit and covers every source piece: cp = 0)."""
    c = load_checkpoint(trained_checkpoint)
    texts = ["The dog saw the book because it was hungry .",
             "The cat chased the ball because it was fast .", "The bird ate the seed ."]
    cps = [_check_beam_trace(c.model.eval(), c.tokenizer, t, D.BEST_COVERAGE) for t in texts]
    assert min(cps) < 0, cps  # the penalty was at work on at least one of them


def test_greedy_and_a_target_are_unchanged(ck):
    model, tok = ck.model.eval(), ck.tokenizer
    text = SENTENCES[0]
    src = source_ids(tok, text, model.cfg.max_len)[0]
    with torch.inference_mode():
        g = D.greedy(model, src, max_len=min(len(src) + 50, model.cfg.max_len - 1)).tokens
        ins = inspect_text(model, tok, text)
        forced = inspect_text(model, tok, text, target="Ein Hund .", beam=5)
    assert ins.beam == 1 and ins.tgt_ids[1:] == g
    assert forced.teacher_forced and forced.beam == 1  # a typed target is never searched


def test_the_cache_keys_the_search_and_ignores_it_under_a_target(small_checkpoint):
    inspect_cache.clear()
    path = str(small_checkpoint)
    greedy = inspect_cache.inspect(path, SENTENCES[1])
    beam = inspect_cache.inspect(path, SENTENCES[1], beam=5)
    assert (greedy.beam, beam.beam) == (1, 5)
    a = inspect_cache.inspect(path, SENTENCES[1], "Die Katze .", beam=5)
    b = inspect_cache.inspect(path, SENTENCES[1], "Die Katze .")
    assert a.trace["logits"] is b.trace["logits"]  # one cache entry: the search is not in its key
    assert greedy.trace["logits"] is not beam.trace["logits"]
    assert a.beam == b.beam == 1


def test_beam_for_follows_the_choice_and_the_servers_cost_rule():
    n = output_decoding.longest_beam_text()
    assert n > 0
    assert not quota.wide_beam(D.BEST_BEAM, "x" * n) and quota.wide_beam(D.BEST_BEAM, "x" * (n + 1))
    assert output_decoding.beam_for("beam", "x" * n) == D.BEST_BEAM
    assert output_decoding.beam_for("beam", "x" * (n + 1)) == 1  # long: greedy, never refused
    assert output_decoding.beam_for("greedy", "A dog .") == 1


def test_the_cli_writes_with_a_beam_when_asked(small_checkpoint, capsys):
    import json

    assert inspect_main(["--checkpoint", str(small_checkpoint), "--text", SENTENCES[0],
                         "--beam", "5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["beam"] == 5 and out["teacher_forced"] is False
    with pytest.raises(SystemExit):
        inspect_main(["--checkpoint", str(small_checkpoint), "--text", "x", "--beam", "0"])


# -- the pages ---------------------------------------------------------------------------------
def _expected(ck_dir, text: str, beam: int) -> str:
    c = load_checkpoint(next(p for p in ck_dir.iterdir() if p.is_dir()))
    with torch.inference_mode():
        return D.translate(c.model.eval(), c.tokenizer, [text], beam=beam, alpha=D.BEST_ALPHA,
                           coverage=D.BEST_COVERAGE)[0]


@pytest.mark.parametrize("page,prefix", [("pages/attention.py", "attention"),
                                         ("pages/step.py", "step")])
def test_the_page_opens_on_beam_search_and_switches_to_greedy(monkeypatch, tmp_path, ck_dir,
                                                              page, prefix):
    at = open_pinned(monkeypatch, ck_dir, tmp_path, page)
    no_errors(at)
    text = SENTENCES[1]
    at.text_input(key=f"{prefix}_text").input(text)
    rerun(at)
    no_errors(at)
    assert at.radio(key=f"{prefix}_decoding").value == "beam"
    beam_out, greedy_out = _expected(ck_dir, text, D.BEST_BEAM), _expected(ck_dir, text, 1)
    assert beam_out != greedy_out  # the small model writes differently under the two searches
    shown = " ".join(c.value for c in at.caption) + " ".join(c.value for c in at.code)
    assert beam_out in shown
    assert "beam search" in shown
    at.radio(key=f"{prefix}_decoding").set_value("greedy")
    rerun(at)
    no_errors(at)
    shown = " ".join(c.value for c in at.caption) + " ".join(c.value for c in at.code)
    assert greedy_out in shown and "greedy decoding" in shown and beam_out not in shown


def test_a_long_text_is_written_greedily_with_a_note(monkeypatch, tmp_path, ck_dir):
    at = open_pinned(monkeypatch, ck_dir, tmp_path, "pages/attention.py")
    text = " ".join(["The dog runs in the park ."] * 10)  # over the beam's length on a server
    assert len(text) > output_decoding.longest_beam_text()
    at.text_input(key="attention_text").input(text)
    rerun(at)
    no_errors(at)
    assert at.radio(key="attention_decoding").value == "beam"  # the choice stays
    note = f"over {output_decoding.longest_beam_text()} characters"
    assert any(note in c.value for c in at.caption)


def test_a_link_opens_greedy(monkeypatch, tmp_path, ck_dir):
    at = open_pinned(monkeypatch, ck_dir, tmp_path, "pages/attention.py",
                     query={"decoding": "greedy"})
    no_errors(at)
    assert at.radio(key="attention_decoding").value == "greedy"
    bad = open_pinned(monkeypatch, ck_dir, tmp_path / "b", "pages/attention.py",
                      query={"decoding": "nonsense"})
    no_errors(bad)
    assert bad.radio(key="attention_decoding").value == "beam"


def test_a_typed_target_greys_the_choice_out_and_keeps_it(monkeypatch, tmp_path, ck_dir):
    at = open_pinned(monkeypatch, ck_dir, tmp_path, "pages/attention.py")
    at.radio(key="attention_decoding").set_value("greedy")
    rerun(at)
    at.text_input(key="attention_target").input("Ein Hund rennt .")
    rerun(at)
    no_errors(at)
    radio = at.radio(key="attention_decoding")
    assert radio.disabled and radio.value == "greedy"
    at.text_input(key="attention_target").input("")
    rerun(at)
    assert not at.radio(key="attention_decoding").disabled
    assert at.radio(key="attention_decoding").value == "greedy"
