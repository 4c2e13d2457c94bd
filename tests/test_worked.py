"""Tests for transformer.worked: the numbers are checked against an independent numpy
computation written here (no helpers from worked.py), known-right claims must agree and known
slips must be flagged, entry by entry."""

import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from transformer.worked.maths import rounding_tolerance
from transformer.worked.steps import add_norm_steps, attention_steps
from transformer.worked.examples import list_examples, load_examples, run_example
from transformer.worked.maths import positional_encoding
from ui.worked_text import error_text, render, step_text

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------- independent reference math

def ref_softmax(s):
    s = np.asarray(s, float)
    out = np.zeros_like(s)
    for idx in np.ndindex(s.shape[:-1]):
        row = s[idx]
        finite = np.isfinite(row)
        if finite.any():
            e = np.where(finite, np.exp(np.where(finite, row, 0) - row[finite].max()), 0.0)
            out[idx] = e / e.sum()
    return out


def ref_attention(Q, K, V, keep=None):
    Q, K, V = (np.asarray(m, float) for m in (Q, K, V))
    s = Q @ K.T / math.sqrt(K.shape[1])
    if keep is not None:
        s = np.where(keep, s, -np.inf)
    w = ref_softmax(s)
    return s, w, w @ V


def ref_pe(n, d):
    pe = np.zeros((n, d))
    for pos in range(n):
        for i in range(0, d, 2):
            angle = pos / 10000 ** (i / d)
            pe[pos, i] = math.sin(angle)
            if i + 1 < d:
                pe[pos, i + 1] = math.cos(angle)
    return pe


def example(eid):
    return next(e for e in load_examples()["examples"] if e["id"] == eid)


# ---------------------------------------------------------------- every example runs

EXPECTED_IDS = {
    "masked_self_attention_4_tokens", "scaled_dot_product_2_queries_3_keys", "self_attention_cat_sentence",
    "thinking_machines_scores", "positional_encoding_love", "encoder_walkthrough_thrones",
    "masked_two_head_attention_3x3",
}


# What the project's copy adds to each example (its own annotations); everything else, inputs
# and the shared claims included, must be exactly the shared file's.
OWN_KEYS = {"explanations", "printed_per_entry", "title", "where", "passage", "gloss_en", "claim_labels", "checks",
            "unchecked"}


SHARED_EXAMPLES = ROOT.parent / "shared" / "worked_examples.json"  # ../shared beside the checkout


def test_shipped_copy_matches_shared_inputs_and_claims():
    """The project ships its own copy; only its own annotations are added. The shared file lies in
    ../shared beside the repository (resolved from the repository root, never an absolute path).
    With ATTENTION_LAB_REQUIRE_SHARED=1 a missing file fails; otherwise a checkout without it
    skips this comparison with the reason (.ci/run prints a warning when ../shared is missing)."""
    assert set(list_examples()) == EXPECTED_IDS
    if not SHARED_EXAMPLES.is_file():
        if os.environ.get("ATTENTION_LAB_REQUIRE_SHARED") == "1":
            pytest.fail(f"{SHARED_EXAMPLES} is missing: ATTENTION_LAB_REQUIRE_SHARED=1 needs ../shared "
                        "beside the checkout")
        pytest.skip(f"{SHARED_EXAMPLES} is missing (no ../shared beside this checkout)")
    ours = load_examples()["examples"]
    theirs = json.loads(SHARED_EXAMPLES.read_text(encoding="utf-8"))["examples"]
    assert [a["id"] for a in ours] == [b["id"] for b in theirs]
    for a, b in zip(ours, theirs):
        assert {k: v for k, v in a.items() if k not in OWN_KEYS | {"notes_claim"}} == \
            {k: v for k, v in b.items() if k != "notes_claim"}
        for key, claim in b["notes_claim"].items():  # claims may be added, never changed
            assert a["notes_claim"][key] == claim, (a["id"], key)


@pytest.mark.parametrize("eid", sorted(EXPECTED_IDS))
def test_every_example_runs_and_is_consistent(eid):
    res = run_example(eid)
    assert res.id == eid and res.steps and res.title["en"] and res.title["zh"]
    assert not res.unmatched_claims, res.unmatched_claims
    claims = {k for k, v in example(eid)["notes_claim"].items() if isinstance(v, list)}
    sources = {s.source for s in res.steps if s.claimed is not None}
    assert claims - {"add_norm_2_input_ffn_out", "add_norm_2_input_residual"} == sources
    for s in res.steps:
        assert isinstance(s.value, np.ndarray)
        assert not np.isnan(s.value.astype(float)).any(), s.name
        if s.claimed is not None:
            assert s.agrees.shape == s.claimed.shape == s.value.shape == s.tolerance.shape
            assert s.verdict in {"agrees", "slip", "inherited", "assumed"}
            assert (s.verdict == "agrees") == bool(s.agrees.all())
            if not s.agrees.all():
                assert "correct" in step_text(s) and s.origin
    summ = res.summary()
    assert summ["agree"] + summ["disagree"] == summ["claimed_steps"]
    assert summ["entries_agree"] + summ["entries_disagree"] == summ["entries_checked"]


def test_run_example_accepts_a_dict_and_rejects_unknown():
    assert run_example(example("thinking_machines_scores")).id == "thinking_machines_scores"
    with pytest.raises(ValueError, match="unknown example"):
        run_example("no_such_example")


# ---------------------------------------------------------------- numbers vs independent numpy

def test_masked_self_attention_numbers_and_flags():
    ex = example("masked_self_attention_4_tokens")
    X, WK = np.array(ex["X"]), np.array(ex["W_K"])
    keep = np.tril(np.ones((4, 4), bool))
    s, w, out = ref_attention(X, X @ WK, X, keep)
    res = run_example(ex)
    np.testing.assert_allclose(res.step("K").value, X @ WK)
    np.testing.assert_allclose(res.step("QK_T").value, X @ (X @ WK).T)
    np.testing.assert_allclose(res.step("scaled").value, X @ (X @ WK).T / math.sqrt(3))
    assert np.array_equal(np.isneginf(res.step("masked").value), ~keep)
    np.testing.assert_allclose(res.step("weights").value, w)
    np.testing.assert_allclose(res.step("output").value, out)
    # The notes' K is wrong in every entry: X[0]·W_K = [0.36, 0.15, 0.34], notes [0.32, 0.11, 0.36].
    assert not res.step("K").agrees.any()
    assert res.step("K").verdict == "slip"
    # QK^T does not even follow from the notes' own K: a slip at that step too.
    assert res.step("QK_T").verdict == "slip"
    # Weights: row 0 = [1, 0, 0, 0] is right, the rest were "assumed".
    wts = res.step("weights")
    assert wts.agrees[0].all() and not wts.agrees[1, 0] and wts.verdict == "assumed"
    assert res.step("output").agrees[0].all() and not res.step("output").agrees[1:].all()
    # Q = V = X here (W_Q and W_V are the identity): "Q used in place of V" would be the right
    # computation itself, so it is no explanation and is not offered (issue 23)
    np.testing.assert_allclose(res.step("Q").value, res.step("V").value)
    out = res.step("output")
    said = [render(v) for v in [*out.partial, *out.matches, *out.rough_matches]] + [step_text(out, "en")]
    assert not any("Q used in place of V" in x for x in said), said


def test_scaled_dot_product_known_right_and_known_slips():
    res = run_example("scaled_dot_product_2_queries_3_keys")
    Q, K, V = np.array([[1, 2], [3, 4.]]), np.array([[5, 6], [7, 8], [9, 10.]]), np.array([[11, 12], [13, 14], [15, 16.]])
    s, w, out = ref_attention(Q, K, V)
    qk = res.step("QK_T")
    np.testing.assert_array_equal(qk.value, [[17, 23, 29], [39, 53, 67]])
    assert qk.agrees.all() and qk.verdict == "agrees"
    sc = res.step("scaled")
    np.testing.assert_allclose(sc.value, s)
    # 17/√2 = 12.0208 -> 12.02 and 23/√2 = 16.2635 -> 16.26 are right; the rest are slips:
    # 29/√2 = 20.5061 (notes 20.50), 39/√2 = 27.5772 (27.56), 53/√2 = 37.4767 (37.53), 67/√2 = 47.3762 (47.50)
    np.testing.assert_array_equal(sc.agrees, [[True, True, False], [False, False, False]])
    assert sc.verdict == "slip"
    np.testing.assert_allclose(res.step("weights").value, w)
    assert res.step("weights").verdict == "assumed" and not res.step("weights").agrees.any()
    out_step = res.step("output")
    np.testing.assert_allclose(out_step.value, out)
    # 13.6 = 0.2*11 + 0.3*13 + 0.5*15: right arithmetic on wrong (assumed) weights.
    assert out_step.verdict == "inherited" and out_step.origin == "weights"
    matches = [render(m) for m in out_step.matches]
    assert any(m.startswith("recomputed from the notes' own weights") for m in matches)


def test_cat_sentence_hand_slips_and_torch_printout_agrees():
    res = run_example("self_attention_cat_sentence")
    X = np.arange(1, 11, dtype=float).reshape(5, 2)
    s, w, out = ref_attention(X, X, X)
    np.testing.assert_allclose(res.step("output").value, out)
    assert res.step("output").source == "torch_printout_output" and res.step("output").agrees.all()
    assert res.step("weights.row0.torch").agrees.all()
    hand = res.step("scaled.row0.hand")
    np.testing.assert_allclose(hand.value, s[0])
    # 5/√2 = 3.5355 right; 7.7784 (7.7782), 12.026 (12.0208), 16.2658 (16.2635), 20.5029 (20.5061) wrong
    np.testing.assert_array_equal(hand.agrees, [True, False, False, False, False])
    assert not res.step("weights.row0.hand").agrees.any()
    assert not res.step("output.row0.hand").agrees.any()
    # row claims sit right after the step they check
    names = [st.name for st in res.steps]
    assert names.index("scaled.row0.hand") == names.index("scaled") + 1


def test_thinking_machines_scores():
    res = run_example("thinking_machines_scores")
    assert [st.name for st in res.steps] == ["QK_T", "scaled", "exp", "weights"]
    np.testing.assert_allclose(res.step("scaled").value, [14, 12])
    np.testing.assert_allclose(res.step("weights").value, ref_softmax(np.array([14.0, 12.0])))
    assert res.summary()["disagree"] == 0 and res.summary()["agree"] == 2


def test_positional_encoding_matches_reference_and_love_example():
    np.testing.assert_allclose(positional_encoding(7, 6), ref_pe(7, 6))
    np.testing.assert_allclose(positional_encoding([0, 1, 2], 5), ref_pe(3, 5))
    res = run_example("positional_encoding_love")
    pe = res.step("PE")
    np.testing.assert_allclose(pe.value, [math.sin(2), math.cos(2), math.sin(0.02), math.cos(0.02)])
    # 0.9093 and 0.02 right; dim 1 should be cos(2) = -0.4161; dim 3 cos(0.02) = 0.9998, not 0.9999
    np.testing.assert_array_equal(pe.agrees, [True, False, True, False])


def test_encoder_walkthrough():
    ex = example("encoder_walkthrough_thrones")
    c = ex["notes_claim"]
    res = run_example(ex)
    E = np.array(ex["word_embeddings_rows_are_tokens"])
    X = E + ref_pe(6, 6)
    WQ, WK, WV = (np.array(ex[k]) for k in ("W_query", "W_key", "W_value"))
    s, w, out = ref_attention(X @ WQ, X @ WK, X @ WV)
    np.testing.assert_allclose(res.step("X").value, X)
    np.testing.assert_allclose(res.step("scaled").value, s)  # the paper: ÷√d_k = ÷2
    np.testing.assert_allclose(res.step("output").value, out)
    # PE: row 0 and column 0 right, e.g. [1,1] should be cos(1) = 0.5403, notes 0.0464
    pe = res.step("PE")
    assert pe.agrees[0].all() and pe.agrees[:, 0].all() and not pe.agrees[1, 1]
    # Q, K, QK^T: right arithmetic on the notes' (wrong) X: inherited from PE
    for name in ("X", "Q", "K", "QK_T"):
        assert res.step(name).verdict == "inherited" and res.step(name).origin == "PE", name
    # the notes' convention (÷√6, Q used as V) is computed next to the paper's and matches the claim
    cX, cQ, cS = (np.array(c[k]) for k in ("embedding_plus_pe_used_as_X", "Q", "QK_T"))
    notes_out = ref_softmax(cS / math.sqrt(6)) @ cQ
    o = res.step("output")
    assert any(np.allclose(v, notes_out) for v in o.alternatives.values())
    assert any("√6" in render(m) and "Q used in place of V" in render(m) for m in o.rough_matches + o.matches)
    assert np.abs(np.array(c["single_head_output"]) - notes_out).max() < 1e-3
    scaled_alts = res.step("scaled").alternatives
    assert any(np.allclose(v, s * 2 / math.sqrt(6)) for v in scaled_alts.values())
    # Add & Norm: mean right, population std is not what the notes print, output inherits it
    r = np.array(c["add_norm_2_input_residual"]) + np.array(c["add_norm_2_input_ffn_out"])
    np.testing.assert_allclose(res.step("addnorm.mean").value, r.mean(1))
    np.testing.assert_allclose(res.step("addnorm.std").value, r.std(1))
    assert res.step("addnorm.mean").agrees.all()
    std = res.step("addnorm.std")
    assert not std.agrees.any() and std.verdict == "slip"
    partial = {render(k): v for k, v in std.partial.items()}
    assert partial.get("sample std (divides by n − 1)") == 1  # only the last row
    ln = (r - r.mean(1, keepdims=True)) / np.sqrt(r.var(1, keepdims=True) + 1e-4)
    np.testing.assert_allclose(res.step("addnorm.output").value, ln)
    assert res.step("addnorm.output").verdict == "inherited"


def test_two_head_mask_errors_flagged():
    res = run_example("masked_two_head_attention_3x3")
    X = np.arange(1, 10, dtype=float).reshape(3, 3)
    keep = np.tril(np.ones((3, 3), bool))
    s, w, out = ref_attention(X, X, X, keep)
    for h in (1, 2):  # identity projections for every head, as the notes say
        np.testing.assert_allclose(res.step(f"head{h}.QK_T").value, X @ X.T)
        np.testing.assert_allclose(res.step(f"head{h}.masked").value, s)
        np.testing.assert_allclose(res.step(f"head{h}.weights").value, w)
        np.testing.assert_allclose(res.step(f"head{h}.output").value, out)
        assert not res.step(f"head{h}.QK_T").agrees.any()
    np.testing.assert_allclose(res.step("concat").value, np.hstack([out, out]))
    m1, m2 = res.step("head1.masked"), res.step("head2.masked")
    # 0 written where -inf belongs: every masked position disagrees
    assert not m1.agrees[~keep].any() and not m2.agrees[~keep].any()
    assert any("0 instead of −inf" in render(m) and "correct triangle" in render(m) for m in m1.matches)
    assert any("0 instead of −inf" in render(m) and "opposite triangle" in render(m) for m in m2.matches)
    # softmax with 0 instead of -inf gives the future weight
    assert ref_softmax(np.array(example("masked_two_head_attention_3x3")["notes_claim"]["head1_masked"], float))[0, 1] > 0


# ---------------------------------------------------------------- tolerance rule

def test_rounding_tolerance_rule():
    np.testing.assert_allclose(rounding_tolerance([12.02, 20.5]), [0.005, 0.005])  # 20.50 printed
    np.testing.assert_allclose(rounding_tolerance([17, 23]), [0.5, 0.5])
    np.testing.assert_allclose(rounding_tolerance([6.7e-08, 0.9825]), [5e-10, 5e-5])  # sig. figures


# ---------------------------------------------------------------- free mode

def test_free_mode_matches_reference_with_projections_and_heads():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(4, 6))
    WQ, WK, WV, WO = (rng.normal(size=(6, 6)) for _ in range(4))
    steps = {st.name: st for st in attention_steps(X=X, W_Q=WQ, W_K=WK, W_V=WV, W_O=WO, heads=2, mask="causal")}
    keep = np.tril(np.ones((4, 4), bool))
    outs = []
    for h in range(2):
        cols = slice(3 * h, 3 * h + 3)
        s, w, o = ref_attention(X @ WQ[:, cols], X @ WK[:, cols], X @ WV[:, cols], keep)
        np.testing.assert_allclose(steps[f"head{h + 1}.masked"].value, s)
        np.testing.assert_allclose(steps[f"head{h + 1}.weights"].value, w)
        outs.append(o)
    np.testing.assert_allclose(steps["W_O"].value, np.hstack(outs) @ WO)
    assert all(st.claimed is None and st.verdict == "computed" for st in steps.values())


def test_fully_masked_row_gives_zeros_not_nan():
    Q = np.ones((2, 2))
    mask = np.array([[False, False], [True, True]])
    steps = {st.name: st for st in attention_steps(Q=Q, K=Q, V=Q, mask=mask)}
    np.testing.assert_array_equal(steps["weights"].value[0], [0, 0])
    np.testing.assert_allclose(steps["weights"].value[1], [0.5, 0.5])
    assert not np.isnan(steps["output"].value).any()
    additive = np.array([[0, -np.inf], [-np.inf, -np.inf]])
    steps = {st.name: st for st in attention_steps(Q=Q, K=Q, V=Q, mask=additive)}
    np.testing.assert_array_equal(steps["weights"].value, [[1, 0], [0, 0]])


def test_add_norm_steps():
    x = np.array([[1.0, 2, 3, 4], [0, 0, 1, 1]])
    sub = np.array([[0.5, 0, -1, 2], [1, 2, 3, 4]])
    steps = {st.name: st for st in add_norm_steps(x, sub, 1e-5)}
    r = x + sub
    np.testing.assert_allclose(steps["std"].value, np.sqrt(((r - r.mean(1, keepdims=True)) ** 2).mean(1)))
    np.testing.assert_allclose(steps["output"].value,
                               (r - r.mean(1, keepdims=True)) / np.sqrt(r.var(1, keepdims=True) + 1e-5))


@pytest.mark.parametrize("kwargs, message", [
    (dict(Q=[[1, 2]], K=[[1, 2, 3]], V=[[1]]), "same number of columns"),
    (dict(Q=[[1, 2]], K=[[1, 2]], V=[[1], [2]]), "same number of rows"),
    (dict(Q=[[1, np.nan]], K=[[1, 2]], V=[[1]]), "non-finite"),
    (dict(Q=[[1, np.inf]], K=[[1, 2]], V=[[1]]), "non-finite"),
    (dict(Q=[[1, 2]], K=[[1, 2]], V=[[1]], d_k=0), "d_k"),
    (dict(Q=[[1, 2]], K=[[1, 2]], V=[[1]], d_k=-3), "d_k"),
    (dict(Q=[[1, 2]], K=[[1, 2]], V=[[1]], d_k=3), "d_k=3"),
    (dict(Q=[[1, 2], [3]], K=[[1, 2]], V=[[1]]), "rectangular"),
    (dict(X=[[1, 2]], W_Q=[[1, 0, 0]]), "rows"),
    (dict(X=[[1, 2, 3]], W_Q=np.eye(3), heads=2), "not divisible"),
    (dict(X=[[1, 2, 3]], W_Q=np.stack([np.eye(3)] * 3), heads=2), "per-head"),
    (dict(Q=[[1, 2]], K=[[1, 2]], V=[[1]], mask=[[1]]), "0 \\(keep\\) and -inf"),
    (dict(Q=[[1, 2]], K=[[1, 2]], V=[[1]], mask=[[True, False]]), "mask must have shape"),
    (dict(Q=[[1, 2]], K=[[1, 2]]), "all three"),
    (dict(), "all three"),
    (dict(X=[[1.0]], Q=[[1.0]]), "not both"),
    (dict(Q=[[1, 2]], K=[[1, 2]], V=[[1]], heads=0), "heads"),
])
def test_bad_inputs_raise_one_line_value_error(kwargs, message):
    with pytest.raises(ValueError) as info:
        attention_steps(**kwargs)
    assert re.search(message, error_text(info.value)) and "\n" not in error_text(info.value)


def test_bad_pe_and_add_norm_inputs():
    for args in ((3, 0), (0, 4), (3, -2), ([0, np.nan], 4)):
        with pytest.raises(ValueError):
            positional_encoding(*args)
    with pytest.raises(ValueError) as info:
        add_norm_steps([[1.0, 2.0]], [[1.0]], 1e-5)
    assert "same shape" in error_text(info.value)
    with pytest.raises(ValueError) as info:
        add_norm_steps([[1.0, 2.0]], [[1.0, 0.0]], -1)
    assert "eps" in error_text(info.value)


# ---------------------------------------------------------------- CLI

def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "transformer.worked", *args], cwd=ROOT,
                          capture_output=True, text=True, encoding="utf-8", timeout=120)


def test_cli_list():
    p = run_cli("--list")
    assert p.returncode == 0
    assert p.stdout.split() == list_examples()


def test_cli_json_is_strict_and_complete():
    p = run_cli("masked_two_head_attention_3x3", "--json")
    assert p.returncode == 0, p.stderr

    def no_constants(name):
        raise AssertionError(f"non-strict JSON constant {name}")
    data = json.loads(p.stdout, parse_constant=no_constants)
    assert data["id"] == "masked_two_head_attention_3x3"
    assert {"agree", "disagree"} <= set(data["summary"])
    step = next(s for s in data["steps"] if s["name"] == "head1.masked")
    assert {"name", "value", "claimed", "agrees", "note"} <= set(step)
    assert step["value"][0][1] == "-inf" and step["claimed"][0][1] == 0 and step["agrees"][0][1] is False
    assert next(s for s in data["steps"] if s["name"] == "X")["claimed"] is None


def test_cli_text_table():
    p = run_cli("thinking_machines_scores")
    assert p.returncode == 0 and "weights" in p.stdout and "summary" in p.stdout


@pytest.mark.parametrize("args", [("no_such_example",), ("no_such_example", "--json"), (), ("--bogus",)])
def test_cli_errors_exit_2_with_one_line(args):
    p = run_cli(*args)
    assert p.returncode == 2
    assert p.stdout == ""
    assert len(p.stderr.strip().splitlines()) == 1


def test_a_table_printed_with_mixed_decimals_is_read_entry_by_entry():
    """The notes print the masked example's output as 0.61 & 0.16 & 0.675 (row 1): 0.16 is a
    two-decimal number, and the true value rounds to it, so it must not be flagged."""
    ex = example("masked_self_attention_4_tokens")
    X, W_K = np.array(ex["X"]), np.array(ex["W_K"])
    Q, K, V = X, X @ W_K, X
    keep = np.tril(np.ones((4, 4), bool))
    true = ref_attention(Q, K, V, keep)[2]  # independent numpy
    assert round(true[1, 1], 2) == 0.16 and abs(true[1, 1] - 0.16) > 0.0005
    out = run_example(ex).step("output")
    assert out.agrees[1, 1]
    assert not out.agrees[1, 2]  # 0.675 against 0.6537: still a slip at its own 3 decimals
    # without the example's printed_per_entry mark, the whole table would be read to 4 decimals
    plain = {k: v for k, v in ex.items() if k != "printed_per_entry"}
    assert not run_example(plain).step("output").agrees[1, 1]


def test_an_entry_built_only_from_right_inputs_gets_their_rounding():
    """Encoder walkthrough: the notes' Q and K are wrong in most rows but right (to their
    rounding) in row 0, so QK^T[0,0] = q0.k0 computed from the printed row 0 is right too."""
    res = run_example("encoder_walkthrough_thrones")
    q, k, qk = res.step("Q"), res.step("K"), res.step("QK_T")
    assert q.agrees[0].all() and k.agrees[0].all() and not q.agrees.all()
    from_printed = float(np.dot(q.claimed[0], k.claimed[0]))
    assert abs(from_printed - qk.claimed[0, 0]) < 5e-4  # the notes did this product right
    assert abs(qk.value[0, 0] - qk.claimed[0, 0]) > 5e-4  # but not within 3 printed decimals
    assert qk.agrees[0, 0] and not qk.agrees[1, 1]
