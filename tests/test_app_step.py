"""The Step-by-step page through AppTest: its tables equal a recomputation from an independent
trace of the same checkpoint, in both languages; bad input gives messages."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

from app_helpers import no_errors, open_pinned, rerun
from helpers import page_reference
from viz import step as steps

PAGE = "pages/step.py"
TEXT, TARGET = "A dog runs in the park .", "Ein Hund rennt im Park ."


PARTS = ("step_part_steps", "step_part_matrix", "step_part_combine", "step_part_norm",
         "step_part_ffn", "step_part_logits")  # the parts drawn only when opened


def open_page(monkeypatch, ck_dir, tmp_path, lang="en", query=None, parts_open=True):
    """The page with every part opened, as a reader who clicks them all (PARTS_OPEN False: as it
    first opens, only the short table open)."""
    at = open_pinned(monkeypatch, ck_dir, tmp_path, PAGE, lang=lang, query=query)
    if parts_open:
        for key in PARTS:
            at.session_state[key] = True
        rerun(at)
    return at


def frame(at, column: str):
    """The first table shown that has this column."""
    for df in at.dataframe:
        if column in df.value.columns:
            return df.value
    raise AssertionError(f"no table with column {column!r}")


def table(at, key: str):
    """The short default's two tables, first on the page (st.dataframe gives no id to a table
    without selection, so they are found by place and checked by their columns)."""
    summary, z = at.dataframe[0], at.dataframe[1]
    assert list(summary.value.columns) == [steps.DOT, steps.SCALED, steps.MASK, steps.EXP,
                                           steps.WEIGHT]
    return {"step_summary": summary, "step_summary_z": z}[key]


def shown(df):
    """What the browser shows in each cell: the Styler's display values."""
    import pyarrow as pa

    raw = df.proto.arrow_data.styler.display_values
    return pa.ipc.open_stream(raw).read_all().to_pandas()


def check_every_table_reads_whole(at):
    """No cell shows None or nan; every header and row label fits its column (8 px a
    character, as viz.step.column_widths budgets, checked here against the label text)."""
    assert at.dataframe
    for df in at.dataframe:
        # an empty number cell is drawn as 'None' by the browser whatever the Styler says
        assert not df.value.isna().any().any(), df.value
        texts = shown(df)
        for v in texts.to_numpy().ravel().tolist():
            assert str(v).strip().lower() not in ("none", "nan", "<na>"), (df.proto.id, v)
        widths = json.loads(df.proto.columns)
        for c in df.value.columns:
            longest = max([len(str(c))] + [len(str(x)) for x in texts[c]])
            assert widths[str(c)]["width"] >= 8 * longest, (df.proto.id, c, widths[str(c)])
        assert widths["_index"]["width"] >= 8 * max(len(str(x)) for x in df.value.index)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_step_tables_equal_an_independent_computation(monkeypatch, tmp_path, ck_dir, lang):
    at = open_page(monkeypatch, ck_dir, tmp_path, lang)
    no_errors(at)
    at.text_input(key="step_target").input(TARGET)
    at.radio(key="step_kind").set_value("cross")
    at.selectbox(key="step_layer").set_value(1)
    at.selectbox(key="step_head").set_value(2)
    rerun(at)
    at.selectbox(key="step_query").set_value(3)
    rerun(at)
    no_errors(at)
    check_every_table_reads_whole(at)
    if lang == "zh":  # table headers are symbols or Chinese, not English words
        heads = [str(x) for df in at.dataframe for x in list(df.value.columns) + list(df.value.index)]
        for word in ("trace", "mean", "std", "token"):
            assert not any(word in h for h in heads), word
    parts = [e for e in at.main.expander]
    assert len(parts) == 7
    assert at.title[0].value == ("One attention step, by the numbers" if lang == "en"
                                 else "一步注意力，逐个数字")
    assert any("d_model / h = 8" in i.value for i in at.info)  # d_model 32 / 4 heads, stated

    ref = page_reference(at._ck, TEXT, TARGET)
    p = "decoder.layers.1.cross_attn"
    q = ref.trace[f"{p}.q"][0, 2].double().numpy()  # (T, dk)
    k = ref.trace[f"{p}.k"][0, 2].double().numpy()  # (S, dk)
    v = ref.trace[f"{p}.v"][0, 2].double().numpy()
    dots = k @ q[3]
    np.testing.assert_allclose(frame(at, "q_i·k_j")["q_i·k_j"].to_numpy(), dots, atol=1e-5)
    scaled = frame(at, "q_i·k_j / √d_k")["q_i·k_j / √d_k"].to_numpy()
    summary = table(at, "step_summary")
    w = summary.value["α_ij"].to_numpy()
    assert any("Σ α_ij = 1.0000" in c.value for c in at.caption)  # the weights sum to 1
    soft = np.exp(scaled - scaled.max())
    np.testing.assert_allclose(w, soft / soft.sum(), atol=1e-6)
    np.testing.assert_allclose(scaled, dots / math.sqrt(8), atol=1e-5)
    # shaded by value: the largest weight is the darkest α cell
    styles = summary.proto.arrow_data.styler.styles
    col = list(summary.value.columns).index("α_ij")
    alpha = {}
    for rule in styles.split("\n"):
        for sel in rule.split("{")[0].split(","):
            if f"_col{col}" in sel and "rgba" in rule:
                alpha[int(sel.split("_row")[1].split("_")[0])] = float(rule.split(",")[-1].split(")")[0])
    assert max(alpha, key=alpha.get) == int(np.argmax(w))
    assert list(shown(summary)["α_ij"]) == [f"{x:.4f}" for x in w]
    z = table(at, "step_summary_z").value.to_numpy()  # Σ α v, then the trace's head_out
    np.testing.assert_allclose(z[0], (soft / soft.sum()) @ v, atol=1e-5)
    np.testing.assert_allclose(z[0], z[1], atol=1e-5)
    topk = frame(at, "p")
    assert topk["p"].is_monotonic_decreasing and 0 < topk["p"].sum() <= 1 + 1e-9
    assert len(at.get("plotly_chart")) == 2  # the head's weights and the top-k bars


def test_decoder_self_attention_masks_the_future(monkeypatch, tmp_path, ck_dir):
    at = open_page(monkeypatch, ck_dir, tmp_path,
                   query={"kind": "decoder_self", "query": "2", "target": TARGET})
    no_errors(at)
    mask = frame(at, "M_ij")["M_ij"].to_numpy()
    assert (mask[:3] == 0).all() and (mask[3:] == -np.inf).all()
    assert (shown(table(at, "step_summary"))["M_ij"].iloc[3:] == "−∞").all()
    w = frame(at, "α_ij")["α_ij"].to_numpy()
    assert (w[3:] == 0).all() and w.sum() == pytest.approx(1.0, abs=1e-6)
    check_every_table_reads_whole(at)


def test_opens_on_the_pronoun_with_whole_labels(monkeypatch, tmp_path, ck_dir):
    """A sentence with "it" starts on its row; long tokens ("because") are never cut."""
    at = open_page(monkeypatch, ck_dir, tmp_path, query={
        "text": "The dog saw the book because it was hungry ."})
    no_errors(at)
    from transformer.core.checkpoint import load_checkpoint

    ref = page_reference(at._ck, "The dog saw the book because it was hungry .")
    tok = load_checkpoint(at._ck).tokenizer
    i = at.selectbox(key="step_query").value
    words, groups = tok.word_strings(ref.src_ids), tok.words(ref.src_ids)
    it = words.index("it")
    assert i == groups[it][0]  # the first piece of "it"
    check_every_table_reads_whole(at)
    labels = [str(x) for df in at.dataframe for x in df.value.index]
    for j, tok_label in enumerate(ref.src_tokens):  # every key row is labelled in full
        assert f"{j}: {tok_label}" in labels
    # the decoder kinds start on the row that writes the German pronoun
    at.text_input(key="step_target").input("Der Hund sah das Buch , weil er hungrig war .")
    at.radio(key="step_kind").set_value("decoder_self")
    rerun(at)
    no_errors(at)
    ref = page_reference(at._ck, "The dog saw the book because it was hungry .",
                    "Der Hund sah das Buch , weil er hungrig war .")
    words, groups = tok.word_strings(ref.tgt_ids), tok.words(ref.tgt_ids)
    assert at.selectbox(key="step_query").value == groups[words.index("er")][0] - 1


def test_bad_inputs_give_messages(monkeypatch, tmp_path, ck_dir):
    at = open_page(monkeypatch, ck_dir, tmp_path, "zh")
    for text in ["", "  "]:
        at.text_input(key="step_text").input(text)
        rerun(at)
        no_errors(at)
        assert at.info and not at.dataframe
    for text in ["<script>alert(1)</script>", "word " * 600, "😀 مرحبا 你好"]:
        at.text_input(key="step_text").input(text)
        rerun(at)
        no_errors(at)
        assert at.dataframe
    at.text_input(key="step_text").input("word " * 600)
    rerun(at)
    assert at.warning


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_long_sentence_shows_the_rows_around_the_query(monkeypatch, tmp_path, ck_dir, lang):
    """A sentence longer than viz.step.MAX_ROWS: the whole-head, concat and Add & Norm tables
    show the rows around the query (a 512-token sentence's Add & Norm table was over pandas
    Styler's 262,144 cells, and Streamlit refused it), say so in the page's language, and their
    numbers are the trace's rows."""
    text = " ".join(f"w{j % 7}" for j in range(90)) + " ."
    at = open_page(monkeypatch, ck_dir, tmp_path, lang, query={"text": text, "layer": "1", "head": "2"})
    at.selectbox(key="step_query").set_value(60)
    rerun(at)
    no_errors(at)
    ref = page_reference(at._ck, text)
    n = len(ref.src_tokens)
    assert n > steps.MAX_ROWS
    start, stop = steps.row_window(n, 60)
    want = [f"{j}: {tok}" for j, tok in enumerate(ref.src_tokens)][start:stop]
    windows = [df for df in at.dataframe if list(map(str, df.value.index)) == want]
    assert len(windows) >= 5 + 2 + 1  # the whole head (5), concat and W_O, Add & Norm
    w = ref.trace["encoder.layers.1.self_attn.weights"][0, 2].double().numpy()  # (S, S)
    weights = next(df.value for df in windows if list(map(str, df.value.columns)) ==
                   [f"{j}: {tok}" for j, tok in enumerate(ref.src_tokens)] and
                   np.allclose(df.value.to_numpy().sum(axis=1), 1.0, atol=1e-5))
    np.testing.assert_allclose(weights.to_numpy(), w[start:stop], atol=1e-6)
    said = [c.value for c in at.caption if str(n) in c.value and str(start) in c.value]
    assert said and all(("Rows" in s) == (lang == "en") and ("行" in s) == (lang == "zh") for s in said)
    check_every_table_reads_whole(at)


def test_the_ffn_is_shown_one_vector_a_column(monkeypatch, tmp_path, ck_dir):
    """The FFN's hidden layer (d_ff units) and output (d_model) are tables one vector a column,
    with the trace's numbers at the query's position (Streamlit draws a styled table column by
    column: 1,024 columns cost a second on every run)."""
    from transformer.core.names import Trace

    at = open_page(monkeypatch, ck_dir, tmp_path, query={"layer": "1", "query": "2"})
    no_errors(at)
    ref = Trace(page_reference(at._ck, TEXT).trace)
    pre, post, out = (ref.layer("encoder", 1, f"ffn.{x}")[0, 2].double().numpy()
                      for x in ("hidden_pre", "hidden", "output"))
    hidden = frame(at, "W_1 x + b_1")
    assert list(hidden.columns) == ["W_1 x + b_1", "ReLU(·)"] and len(hidden) == len(pre) > 2
    np.testing.assert_allclose(hidden.to_numpy(), np.stack([pre, post], axis=1), atol=1e-6)
    output = frame(at, "W_2 h + b_2")
    assert list(output.columns) == ["W_2 h + b_2"]
    np.testing.assert_allclose(output["W_2 h + b_2"].to_numpy(), out, atol=1e-6)
    # shaded as before it was turned: a negative hidden value is red, in both tables
    for df in at.dataframe:
        if list(df.value.columns)[0] in ("W_1 x + b_1", "W_2 h + b_2"):
            assert "rgba(214, 39, 40" in df.proto.arrow_data.styler.styles, list(df.value.columns)


def test_closed_parts_are_not_drawn_and_keep_the_numbers(monkeypatch, tmp_path, ck_dir):
    """As the page opens, only part 1's short table is open and only its tables are sent (the
    closed parts' dozen shaded tables were most of the page's time on a class's server); opening
    one part draws it with the step numbers it has when every part is open."""
    query = {"kind": "cross", "target": TARGET}
    at = open_page(monkeypatch, ck_dir, tmp_path, query=query, parts_open=False)
    no_errors(at)
    parts = [e for e in at.main.expander]
    assert len(parts) == 7 and parts[0].proto.expanded and not any(e.proto.expanded for e in parts[1:])
    assert len(at.dataframe) == 2  # the summary and its z row
    assert len(at.get("plotly_chart")) == 0

    def numbers(at):
        return [m.value.split(" · ")[0] for m in at.markdown if m.value.startswith("**") and " · " in m.value]

    at.session_state["step_part_norm"] = True
    rerun(at)
    no_errors(at)
    only_norm = numbers(at)
    everything = numbers(open_page(monkeypatch, ck_dir, tmp_path, query=query))
    assert len(only_norm) == 1 and only_norm[0] in everything
    assert everything.index(only_norm[0]) == len(everything) - 3  # Add & Norm, then FFN, then top-k
