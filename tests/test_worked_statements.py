"""The notes' statements in words (issue 23, section 1): every slip the issue lists is a statement
with its verdict in the CLI's JSON (its example's `NAME --json`, and the notes-level listing
`--statements --json`), in English and Chinese carrying the same numbers, with the notes' own
words quoted verbatim, and flagged on the page that shows its subject."""
from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from pathlib import Path

import pytest

from app_helpers import no_errors, open_app
from transformer.worked.examples import statements
from transformer.worked.examples import list_examples, load_examples, run_example
from ui import i18n

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT.parent / "shared" / "seeds"

# Issue 23's table, row by row: statement id -> (the example whose JSON lists it, or None for the
# notes-level listing; words the English "in fact" must say; words the Chinese must say).
SLIPS = {
    # 004 step 5; 003 §6: sin / cos alternate by even / odd dimension, not position
    "pe_sin_cos_by_dimension": ("encoder_walkthrough_thrones", ["dimension", "not on the position"], ["维度", "奇偶"]),
    # 002 complexity table and base BLEU
    "complexity_per_layer": (None, ["O(n·d²)", "O(k·n·d²)"], ["O(n·d²)", "O(k·n·d²)"]),
    "base_bleu_newstest2014": (None, ["27.3", "newstest2014", "25.8", "development set"],
                               ["27.3", "newstest2014", "25.8", "开发集"]),
    # 001 label smoothing hurts perplexity
    "label_smoothing_perplexity": (None, ["hurts perplexity", "accuracy and BLEU"], ["损害困惑度", "BLEU"]),
    # 003 self-attention: Q, K, V from the same sequence; three different matrices
    "self_attention_same_source": ("thinking_machines_scores", ["same sequence", "three different"],
                                   ["同一个序列", "三个矩阵是不同的"]),
    # 000 PE code: ^ is XOR
    "pe_code_xor": ("positional_encoding_love", ["exclusive or", "TypeError", "**", "math.pow"],
                    ["按位异或", "TypeError", "**", "math.pow"]),
    # 000 max length is not the batch size
    "max_length_not_batch_size": (None, ["two different sizes", "batch_size = 32", "seq_len = 20"],
                                  ["两个不同的大小", "batch_size = 32", "seq_len = 20"]),
    # 004 LLaMA is decoder-only
    "llama_decoder_only": ("encoder_walkthrough_thrones", ["decoder-only", "no encoder"], ["只有解码器", "没有编码器"]),
    # 004 step 6: added, not concatenated
    "pe_added_not_concatenated": ("encoder_walkthrough_thrones", ["added", "6 × 12"], ["相加", "6 × 12"]),
    # 001 √d_k: no square roots in a matrix product
    "sqrt_dk_no_square_roots": ("scaled_dot_product_2_queries_3_keys", ["no square roots", "one multiplication"],
                                ["没有平方根", "乘以 1/√d_k"]),
    # 000 frequency order: dimension 0 is local, the last global
    "pe_frequency_order": ("positional_encoding_love", ["Dimension 0 has the highest frequency", "local",
                                                        "global"], ["维度 0 的频率最高", "局部", "全局"]),
}
# The q2·k2 slip of thinking_machines_scores (issue 23: on the page only, 0 disagreements in JSON).
Q2K2 = "thinking_machines_s2"


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "transformer.worked", *args], cwd=ROOT,
                          capture_output=True, text=True, encoding="utf-8", timeout=120)


def cli_json(*args) -> dict:
    p = run_cli(*args, "--json")
    assert p.returncode == 0, p.stderr

    def no_constants(name):
        raise AssertionError(f"non-strict JSON constant {name}")
    return json.loads(p.stdout, parse_constant=no_constants)


@pytest.fixture(scope="module")
def listing() -> dict:
    return cli_json("--statements")


@pytest.fixture(scope="module")
def per_example() -> dict:
    return {eid: cli_json(eid) for eid in list_examples()}


def _numbers(text: str) -> set[str]:
    return set(re.findall(r"\d+(?:\.\d+)?", text))


# ---------------------------------------------------------------- the JSON


@pytest.mark.parametrize("sid", sorted(SLIPS))
def test_each_slip_is_in_its_examples_json_with_its_verdict(sid, per_example, listing):
    example, en, zh = SLIPS[sid]
    found = {s["id"]: s for s in listing["statements"]}
    assert sid in found, f"{sid} missing from --statements --json"
    s = found[sid]
    assert s["verdict"] == "slip" and s["example"] == example
    for word in en:
        assert word in s["fact_en"], (sid, word)
    for word in zh:
        assert word in s["fact_zh"], (sid, word)
    assert s["says_en"] and s["says_zh"] and s["title_en"] and s["title_zh"] and s["where_en"] and s["where_zh"]
    if example is not None:
        mine = {x["id"]: x for x in per_example[example]["statements"]}
        assert mine.get(sid, {}).get("verdict") == "slip", f"{sid} missing from {example} --json"
        assert mine[sid] == s


def test_thinking_machines_reports_the_q2k2_slip_as_a_disagreement(per_example):
    data = per_example["thinking_machines_scores"]
    said = {s["id"]: s for s in data["statements"]}
    assert said[Q2K2]["verdict"] == "slip"
    assert "q1 · k2" in said[Q2K2]["fact_en"] and "q1 · k2" in said[Q2K2]["fact_zh"]
    summary = data["summary"]
    assert summary["statements_disagree"] >= 1
    assert summary["statements_disagree"] == sum(s["verdict"] != "agrees" for s in data["statements"])
    assert summary["statements"] == len(data["statements"])


def test_every_examples_summary_counts_its_statements(per_example):
    for eid, data in per_example.items():
        s = data["summary"]
        assert s["statements"] == len(data["statements"]) == len(statements(eid)), eid
        assert s["statements_agree"] + s["statements_disagree"] == s["statements"]
        assert all(x["example"] == eid for x in data["statements"])


def test_the_notes_level_listing_has_every_statement(listing):
    ids = [s["id"] for s in listing["statements"]]
    assert ids == [s.id for s in statements()]
    assert len(ids) == len(set(ids))
    assert set(SLIPS) | {Q2K2, "figure4_layer"} <= set(ids)
    assert listing["summary"] == {"statements": len(ids), "statements_agree": 0, "statements_disagree": len(ids)}
    # those about no single example are reachable here and only here
    assert {s["id"] for s in listing["statements"] if s["example"] is None} >= {
        "complexity_per_layer", "base_bleu_newstest2014", "label_smoothing_perplexity", "max_length_not_batch_size"}


def test_cli_text_shows_the_statements():
    p = run_cli("thinking_machines_scores")
    assert p.returncode == 0, p.stderr
    assert f"statement {Q2K2}" in p.stdout and "[slip]" in p.stdout and "in fact:" in p.stdout
    assert "statements_disagree=" in p.stdout
    p = run_cli("--statements")
    assert p.returncode == 0, p.stderr
    assert all(f"statement {sid}:" in p.stdout for sid in SLIPS)


@pytest.mark.parametrize("args", [("--statements", "thinking_machines_scores"), ("--statements", "--list")])
def test_statements_flag_errors_exit_2(args):
    p = run_cli(*args)
    assert p.returncode == 2 and p.stdout == "" and len(p.stderr.strip().splitlines()) == 1


def test_run_example_carries_its_statements():
    res = run_example("positional_encoding_love")
    ids = {s.id for s in res.statements}
    assert {"pe_code_xor", "pe_frequency_order", "pe_higher_dimensions"} <= ids
    assert res.summary()["statements_disagree"] == len(ids)


def test_a_bad_verdict_or_example_is_refused(tmp_path):
    data = load_examples()
    bad = dict(data, statements=[dict(data["statements"][0], verdict="maybe")])
    path = tmp_path / "ex.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    with pytest.raises(ValueError, match="verdict"):
        statements(path=path)
    bad = dict(data, statements=[dict(data["statements"][0], example="no_such_example")])
    path.write_text(json.dumps(bad), encoding="utf-8")
    with pytest.raises(ValueError, match="unknown example"):
        statements(path=path)


# ---------------------------------------------------------------- both languages, the notes' words


@pytest.mark.parametrize("sid", [s["id"] for s in load_examples()["statements"]])
def test_english_and_chinese_carry_the_same_numbers(sid):
    s = next(x for x in load_examples()["statements"] if x["id"] == sid)
    for part in ("title", "says", "fact"):
        en, zh = s[part]["en"], s[part]["zh"]
        assert en.strip() and zh.strip(), (sid, part)
        assert re.search(r"[\u4e00-\u9fff]", zh), (sid, part, "the Chinese text has no Chinese")
        assert _numbers(en) == _numbers(zh), (sid, part, _numbers(en) ^ _numbers(zh))


@pytest.mark.parametrize("sid", [s["id"] for s in load_examples()["statements"]])
def test_the_notes_words_are_quoted_verbatim(sid):
    if not SEEDS.is_dir():
        pytest.skip(f"{SEEDS} is missing (no ../shared beside this checkout)")
    notes = "\n".join(p.read_text(encoding="utf-8") for p in sorted(SEEDS.glob("*.txt")))
    s = next(x for x in load_examples()["statements"] if x["id"] == sid)
    quotes = [s["quote"]] if isinstance(s["quote"], str) else s["quote"]
    for q in quotes:
        assert q in notes, (sid, q)


def test_every_statement_links_to_a_page_of_the_app():
    from ui import navigation

    pages = set(navigation.files())
    for s in statements():
        assert s.page is None or s.page in pages, (s.id, s.page)


def test_every_evidence_column_is_named_in_both_languages():
    from ui.strings import worked_examples as strings

    for s in statements():
        if s.evidence is not None:
            for c in s.evidence.columns:
                assert all(i18n.sentences(strings, lang).get("ev_" + c) for lang in i18n.LANGS), (s.id, c)


# ---------------------------------------------------------------- the evidence, recomputed here


def _evidence(sid):
    return next(s for s in statements() if s.id == sid).evidence


def test_pe_parity_evidence_is_sine_in_even_dimensions_at_every_position():
    ev = _evidence("pe_sin_cos_by_dimension")
    assert ev.columns == ["position", "dimension", "pe", "sin", "cos"]
    positions = {int(r[0]) for r in ev.rows}
    assert positions & {1, 3} and positions & {0, 2}  # odd and even positions both shown
    for pos, dim, pe, sin, cos in ev.rows:
        angle = pos / 10000 ** ((dim - dim % 2) / 6)
        assert math.isclose(pe, math.sin(angle) if dim % 2 == 0 else math.cos(angle), abs_tol=1e-12)
        assert pe == (sin if dim % 2 == 0 else cos)


def test_layer_cost_evidence():
    ev = _evidence("complexity_per_layer")
    for n, d, att, rnn, conv, notes_rnn, notes_conv in ev.rows:
        assert (att, rnn, conv) == (n * n * d / 1e6, n * d * d / 1e6, 3 * n * d * d / 1e6)
        assert (notes_rnn, notes_conv) == (d * n / 1e6, 3 * d * n / 1e6)
    # with the notes' numbers the recurrent layer is always cheaper; in fact only for n > d
    assert all(r[5] < r[2] for r in ev.rows)
    assert any(r[0] < r[1] and r[2] < r[3] for r in ev.rows) and any(r[0] > r[1] and r[2] > r[3] for r in ev.rows)


def test_label_smoothing_floor_evidence():
    ev = _evidence("label_smoothing_perplexity")
    (e0, v0, p0, ppl0), (e1, v1, p1, ppl1) = ev.rows
    assert (e0, p0, ppl0) == (0.0, 1.0, 1.0)
    assert e1 == 0.1 and v1 == 37000
    assert math.isclose(ppl1, 1 / (0.9 + 0.1 / 37000)) and ppl1 > 1.11


def test_frequency_order_evidence_grows_with_the_dimension():
    ev = _evidence("pe_frequency_order")
    for d in (4, 512):
        waves = [r[2] for r in ev.rows if r[0] == d]
        assert waves == sorted(waves) and waves[0] == pytest.approx(2 * math.pi) and waves[-1] > waves[0]


# ---------------------------------------------------------------- the pages


PAGE_SLIPS = {
    "pages/positional-encoding.py": ["pe_sin_cos_by_dimension", "pe_code_xor", "pe_added_not_concatenated",
                                     "pe_frequency_order", "pe_higher_dimensions"],
    "pages/why-sqrt-dk.py": ["sqrt_dk_no_square_roots", "sqrt_dk_gradients"],
}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page", sorted(PAGE_SLIPS))
def test_the_page_of_the_subject_flags_the_slips(monkeypatch, tmp_path, page, lang):
    from ui.strings import worked_examples as strings

    at = open_app(monkeypatch, None, tmp_path, page=page, lang=lang)
    no_errors(at)
    table = i18n.sentences(strings, lang)
    said = {s.id: s for s in statements()}
    labels = [e.label for e in at.expander]
    texts = " ".join(m.value for m in at.markdown)
    assert any(table["page_statements_title"] == h.value for h in at.subheader)
    for sid in PAGE_SLIPS[page]:
        s = said[sid]
        title = s.title[lang]
        assert f"{title} — {table['statement_slip']}" in labels, (sid, labels)
        assert s.fact[lang] in texts, sid


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_worked_examples_page_lists_every_statement(monkeypatch, tmp_path, lang):
    from ui.strings import worked_examples as strings

    at = open_app(monkeypatch, None, tmp_path, page="pages/worked-examples.py", lang=lang)
    at.session_state["worked_examples_mode"] = "statements"
    at.run()
    no_errors(at)
    table = i18n.sentences(strings, lang)
    labels = [e.label for e in at.expander]
    for s in statements():
        title = s.title[lang]
        assert f"{title} — {table['statement_' + s.verdict]}" in labels, s.id
    captions = " ".join(c.value for c in at.caption)
    for sid in SLIPS:
        s = next(x for x in statements() if x.id == sid)
        assert s.where[lang] in captions, sid
    # an example's own statements are shown with it: the q2·k2 slip with "Thinking Machines"
    at.session_state["worked_examples_mode"] = "examples"
    at.run()
    at.selectbox(key="worked_examples_example").set_value("thinking_machines_scores").run()
    no_errors(at)
    q2k2 = next(s for s in statements() if s.id == Q2K2)
    assert any(e.label.startswith(q2k2.title[lang]) for e in at.expander)
