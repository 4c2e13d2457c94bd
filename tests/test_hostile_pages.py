"""Issue 8, item 1, for the app: the hostile corpus (tests/helpers.py) through every text box
and every upload of every page, with AppTest.

For every input, on every box:
  * no exception element, and no traceback text in any element;
  * the box's output is drawn, or a message (info, warning, error) says why not;
  * nothing executed: the marker file named by the injection texts never appears;
  * user HTML is never rendered as HTML (no markdown/html element allowing HTML carries the raw
    tag) and user markdown is not interpreted (a remote image or javascript: link typed by the
    user never reaches a markdown-rendered element unescaped);
  * the app is still usable after: where the input gave no output, a normal input afterwards
    draws the box's output again (and once more at the end of each box).

CI mode: a subset of texts covering every category of the corpus (and every file); long mode
(ATTENTION_LAB_LONG_TESTS=1): the whole corpus, the very large texts included.

Texts go in as a browser would send them: the websocket carries UTF-8, so a lone surrogate
arrives as U+FFFD (`wire`). AppTest (Streamlit 1.67) may run only the page script after
switch_page, so the sidebar's state (checkpoint, language) is put back before every run (`rerun`),
as in test_app_attention.py.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Sequence
from typing import Callable

import pytest

from app_helpers import open_app, open_pinned, rerun
from helpers import FILES, LONG_TEXTS, PROBE_FILES, TEXTS, probe_line, render, zipped

LONG = os.environ.get("ATTENTION_LAB_LONG_TESTS") == "1"

# One or more texts per category of the corpus (empty, size, control, scripts, surrogates,
# HTML/markdown, injection, paths, odd).
CI_TEXTS = ("empty", "whitespace_mix", "chars_10000", "nul_inside", "zero_width_only",
            "rtl_override", "emoji", "lone_high_surrogate", "script_tag", "img_onerror",
            "markdown_image_remote", "shell_subst")
CI_FILES = ("empty_file", "invalid_utf8_line2", "utf16_bom", "nul_bytes", "random_binary",
            "zip_magic", "html_document", "no_tab", "line_10000_chars", "hostile_pairs")


# Boxes read by the same parser as a sibling box already given CI_TEXTS get these in CI mode.
CI_TEXTS_SIBLING = ("whitespace_mix", "chars_10000", "nul_inside", "emoji",
                    "lone_high_surrogate", "script_tag")
CI_FILES_SIBLING = ("empty_file", "invalid_utf8_line2", "nul_bytes", "random_binary",
                    "line_10000_chars")


def texts(sibling: bool = False) -> list[tuple[str, str]]:
    if LONG:
        return TEXTS + LONG_TEXTS
    ids = CI_TEXTS_SIBLING if sibling else CI_TEXTS
    chosen = [(k, v) for k, v in TEXTS if k in ids]
    assert len(chosen) == len(ids)
    return chosen


def files(sibling: bool = False) -> list[tuple[str, bytes]]:
    return FILES if LONG else [(k, v) for k, v in FILES
                               if k in (CI_FILES_SIBLING if sibling else CI_FILES)]


def wire(text: str) -> str:
    """What reaches the server when a browser sends `text`: lone surrogates become U+FFFD."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


NAME_TEXTS = ("script_tag", "markdown_image_remote", "dotdot_path", "shell_subst", "nul_inside",
              "rtl_override")


def file_name(text: str, marker: Path, ext: str) -> str:
    """A hostile text as an uploaded file's name (Streamlit refuses a NUL in one)."""
    name = wire(render(text, str(marker))).replace("\x00", "")
    return (name[:200] or "x") + ext


# -- running a page ------------------------------------------------------------------------------
@pytest.fixture
def marker(tmp_path) -> Path:
    return tmp_path / "INJECTED_MARKER"


# Parts of a page drawn only when opened (ui/page_kit.lazy_expander): opened here, as a reader who
# clicks them, so that their charts and tables face the hostile text too.
OPENED_PARTS = {"pages/step.py": ("step_part_steps", "step_part_matrix", "step_part_combine",
                                  "step_part_norm", "step_part_ffn", "step_part_logits")}


def open_page(monkeypatch, ck_dir, tmp_path, page, lang="en"):
    at = open_pinned(monkeypatch, ck_dir, tmp_path, page, lang=lang)
    if page in OPENED_PARTS:
        for key in OPENED_PARTS[page]:
            at.session_state[key] = True
        rerun(at)
    return at


# -- what is checked after every run ----------------------------------------------------------------
TRACEBACK = re.compile(r"Traceback \(most recent call last\)|File \"[^\"]+\.py\", line \d+")
RAW_HTML = ("<script", "<img", "<svg", "<iframe", "onerror=", "onload=")
# User markdown that must not be interpreted: these appear verbatim only if user text reached a
# markdown element unescaped.
RAW_MARKDOWN = ("](http://127.0.0.1:9", "](javascript:")
MARKDOWN_PROTOS = {"Markdown", "Alert", "Heading"}
MESSAGES = ("info", "warning", "error")


def _walk(node):
    yield node
    for child in getattr(node, "children", {}).values():
        yield from _walk(child)


def _strings(msg, depth=0):
    """Every string field of a protobuf message (nested ones included)."""
    if depth > 6:
        return
    for fd, value in msg.ListFields():
        values = value if isinstance(value, Sequence) and not isinstance(value, (str, bytes)) \
            else [value]
        for v in values:
            if isinstance(v, str):
                yield v
            elif hasattr(v, "ListFields"):
                yield from _strings(v, depth + 1)


def problems(at, marker: Path, where: str) -> list[str]:
    out = []
    if at.exception:
        out.append(f"{where}: exception element: {[e.value[:300] for e in at.exception]}")
    for node in _walk(at._tree):
        proto = getattr(node, "proto", None)
        if proto is None or not hasattr(proto, "ListFields"):
            continue
        name = proto.DESCRIPTOR.name
        strings = list(_strings(proto))
        for s in strings:
            if TRACEBACK.search(s):
                out.append(f"{where}: traceback text in a {name}: {s[:300]!r}")
                break
        if getattr(proto, "allow_html", False) or name == "Html":
            for s in strings:
                low = s.lower()
                if any(tag in low for tag in RAW_HTML):
                    out.append(f"{where}: raw HTML in a {name} rendered as HTML: {s[:200]!r}")
                    break
        if name in MARKDOWN_PROTOS:
            for s in strings:
                if any(m in s for m in RAW_MARKDOWN):
                    out.append(f"{where}: user markdown interpreted in a {name}: {s[:200]!r}")
                    break
    if marker.exists():
        out.append(f"{where}: the injected marker file was created")
    return out


def message_count(at) -> int:
    return sum(len(getattr(at, kind)) for kind in MESSAGES)


def chart(*keys: str) -> Callable:
    """Output = the number of plotly charts with one of these keys (prefixes)."""
    return lambda at: sum(1 for el in at.get("plotly_chart")
                          if any(str(getattr(el, "key", "")).startswith(k) for k in keys))


@dataclass
class Box:
    key: str
    kind: str  # text_input, text_area
    normal: str
    output: Callable
    optional: bool = False  # an empty value is valid (no output, no message needed)
    setup: list = field(default_factory=list)  # (widget kind, key, value) set before the box
    sibling: bool = False  # same parser as a box before it: fewer texts in CI mode


def run_box(at, box: Box, marker: Path, where: str, report: list, counts: dict) -> None:
    """Every text through one box; problems are appended to `report`."""
    for kind, key, value in box.setup:
        getattr(at, kind)(key=key).set_value(value)
        rerun(at)
    at.__getattribute__(box.kind)(key=box.key).set_value(box.normal)
    rerun(at)
    baseline = box.output(at)
    report += problems(at, marker, f"{where} {box.key} normal")
    if not baseline:
        report.append(f"{where} {box.key}: the normal input {box.normal!r} draws nothing")
        return
    for tid, text in texts(box.sibling):
        value = wire(render(text, str(marker)))
        label = f"{where} {box.key} <- {tid}"
        at.__getattribute__(box.kind)(key=box.key).set_value(value)
        rerun(at)
        counts[where] = counts.get(where, 0) + 1
        report += problems(at, marker, label)
        got = box.output(at)
        if not got and not message_count(at) and not (box.optional and not value.strip()):
            report.append(f"{label}: neither output nor a message")
        if not got:  # unusable: the page must recover with a normal input
            at.__getattribute__(box.kind)(key=box.key).set_value(box.normal)
            rerun(at)
            report += problems(at, marker, f"{label} then normal")
            if box.output(at) != baseline:
                report.append(f"{label}: a normal input afterwards draws {box.output(at)} "
                              f"outputs, not {baseline}")
    at.__getattribute__(box.kind)(key=box.key).set_value(box.normal)
    rerun(at)
    report += problems(at, marker, f"{where} {box.key} end")
    if box.output(at) != baseline:
        report.append(f"{where} {box.key}: not usable at the end")


# Findings pinned by the strict xfails at the end of this file: filtered out of the sweeps (and
# printed) until fixed; a fix turns the xfail into an XPASS, which fails: drop the entry then.
KNOWN: list = []  # (pattern, where); empty: the four findings of the first sweep are fixed


def assert_clean(report: list[str], counts: dict) -> None:
    known = [r for r in report if any(rx.search(r) for rx, _ in KNOWN)]
    left = [r for r in report if r not in known]
    print(f"hostile inputs tried: {counts} (total {sum(counts.values())}); "
          f"{len(known)} known findings (strict xfails below)")
    assert left == [], "\n".join(left[:40])


# -- the pages with text boxes -------------------------------------------------------------------
SENT = "A dog runs in the park ."
TARGET = "Ein Hund rennt im Park ."


def _code(at) -> int:
    return len(at.code)


PAGES = {
    "attention": ("pages/attention.py", [
        Box("attention_text", "text_input", SENT, chart("attention_heatmap")),
        Box("attention_target", "text_input", TARGET, chart("attention_heatmap"), optional=True),
    ]),
    "step": ("pages/step.py", [
        Box("step_text", "text_input", SENT, chart("step_heat")),
        Box("step_target", "text_input", TARGET, chart("step_heat"), optional=True),
    ]),
    "decode": ("pages/decode.py", [
        Box("decode_text", "text_input", SENT, chart("decode_cross")),
        Box("decode_target", "text_input", TARGET, chart("decode_tf_fig")),
    ]),
    "heads": ("pages/heads.py", [
        Box("heads_abl_text", "text_input", SENT, _code),
        Box("heads_open_text", "text_input", SENT,
            lambda at: len(at.get("page_link")) + sum(1 for c in at.caption if "not part of" in c.value),
            optional=True),
        Box("heads_sentences", "text_area", SENT + "\n" + "The cat sleeps on the warm table .",
            chart("heads_grid_"), setup=[("selectbox", "heads_relation", "previous_token")]),
    ]),
    "masks": ("pages/masks.py", [
        Box("masks_text", "text_area", "A dog runs .\nThe cat sleeps on the warm table .",
            chart("masks_padding")),
    ]),
    "pe": ("pages/positional-encoding.py", [
        Box("positional_encoding_sentence", "text_input", SENT, chart("positional_encoding_norms")),
    ]),
    "worked_free": ("pages/worked-examples.py", [
        Box("worked_examples_free_qkv_Q", "text_area", "1 2\n3 4", lambda at: len(at.success),
            setup=[("button_group", "worked_examples_mode", "free")]),
        Box("worked_examples_free_qkv_K", "text_area", "5 6\n7 8\n9 10", lambda at: len(at.success), sibling=True),
        Box("worked_examples_free_qkv_V", "text_area", "11 12\n13 14\n15 16", lambda at: len(at.success), sibling=True),
        Box("worked_examples_free_mask_text", "text_area", "1 0 0\n1 1 0", lambda at: len(at.success),
            setup=[("radio", "worked_examples_free_mask", "custom")]),
        Box("worked_examples_free_x_X", "text_area", "1 0 1\n0 2 0\n1 1 1", lambda at: len(at.success),
            setup=[("radio", "worked_examples_free_mask", "none"), ("radio", "worked_examples_free_mode", "x")]),
        Box("worked_examples_free_x_W_Q", "text_area", "1 0\n0 1\n1 1", lambda at: len(at.success), sibling=True),
        Box("worked_examples_free_x_W_K", "text_area", "0 1\n1 0\n1 1", lambda at: len(at.success), sibling=True),
        Box("worked_examples_free_x_W_V", "text_area", "", lambda at: len(at.success), optional=True,
            sibling=True),
    ]),
}


@pytest.mark.parametrize("name", list(PAGES))
def test_hostile_text_in_every_box(monkeypatch, tmp_path, ck_dir, marker, name):
    page, boxes = PAGES[name]
    at = open_page(monkeypatch, ck_dir, tmp_path, page)
    report = problems(at, marker, f"{name} opened")
    counts: dict = {}
    for box in boxes:
        run_box(at, box, marker, name, report, counts)
    assert_clean(report, counts)


# -- uploads ---------------------------------------------------------------------------------------
def run_uploads(at, uploader_key: str, cases, good: tuple[str, bytes], output: Callable,
                marker: Path, where: str, report: list, counts: dict,
                before: Callable | None = None) -> None:
    """Each (id, file name, bytes) uploaded in turn; after an unusable one, `good` again."""
    def upload(fname, data):
        if before:
            before(at)
        at.file_uploader(key=uploader_key).set_value((fname, data, "application/octet-stream"))
        rerun(at)

    upload(*good)
    baseline = output(at)
    report += problems(at, marker, f"{where} good upload")
    if not baseline:
        report.append(f"{where}: the good upload draws nothing")
        return
    for cid, fname, data in cases:
        label = f"{where} <- {cid}"
        upload(fname, data)
        counts[where] = counts.get(where, 0) + 1
        report += problems(at, marker, label)
        if not output(at):
            if not message_count(at):
                report.append(f"{label}: neither output nor a message")
            upload(*good)
            report += problems(at, marker, f"{label} then good")
            if output(at) != baseline:
                report.append(f"{label}: the good upload afterwards draws {output(at)}, "
                              f"not {baseline}")


def _probe_cases(marker: Path):
    cases = [(k, "probe.jsonl", v) for k, v in files() + PROBE_FILES]
    cases += [(f"line:{k}", "probe.jsonl", probe_line(wire(render(v, str(marker)))))
              for k, v in texts()]
    cases += [("name:" + k, file_name(v, marker, ".jsonl"), GOOD_PROBE)
              for k, v in TEXTS if k in NAME_TEXTS]
    cases += [("bad_named:" + k, file_name(v, marker, ".jsonl"), b"not json\n")
              for k, v in TEXTS if k in NAME_TEXTS]
    cases += [("markdown_line", "probe.jsonl", MARKDOWN_LINE)]
    return cases


MARKDOWN_LINE = b"![x](http://127.0.0.1:9/x.png) [y](javascript:alert(1)) **b**\n"
GOOD_PROBE = ('{"text": "The dog saw the cup because it was hungry .", "pronoun": 6, '
              '"antecedent": 1}\n{"text": "A girl saw a dog and she ran .", "pronoun": 6, '
              '"antecedent": 1}\n').encode()


def _upload_page(monkeypatch, ck_dir, tmp_path, marker, page: str, widget: str, key: str,
                 where: str):
    """A page opened with its upload source chosen: (app, problems so far, counts)."""
    at = open_page(monkeypatch, ck_dir, tmp_path, page)
    getattr(at, widget)(key=key).set_value("upload")
    rerun(at)
    return at, problems(at, marker, where), {}


def test_hostile_probe_uploads_on_heads(monkeypatch, tmp_path, ck_dir, marker):
    at, report, counts = _upload_page(monkeypatch, ck_dir, tmp_path, marker, "pages/heads.py",
                                      "radio", "heads_probe", "heads upload opened")
    run_uploads(at, "heads_upload", _probe_cases(marker), ("probe.jsonl", GOOD_PROBE),
                chart("heads_grid_"), marker, "heads probe upload", report, counts)
    assert_clean(report, counts)


GOOD_TSV = ("A dog runs .\tEin Hund rennt .\nThe cat sleeps .\tDie Katze schläft .\n"
            "Two men play .\tZwei Männer spielen .\n").encode()


def test_hostile_corpus_uploads_on_train(monkeypatch, tmp_path, ck_dir, marker):
    at, report, counts = _upload_page(monkeypatch, ck_dir, tmp_path, marker, "pages/train.py",
                                      "selectbox", "train_task", "train opened")
    ok = lambda at: sum(1 for s in at.success if "sentence pairs" in s.value)  # noqa: E731
    tsv = [(k, "corpus.tsv", v) for k, v in files()]
    tsv += [("name:" + k, file_name(v, marker, ".tsv"), GOOD_TSV)
            for k, v in TEXTS if k in NAME_TEXTS]
    tsv += [("bad_named:" + k, file_name(v, marker, ".tsv"), b"no tab here\n")
            for k, v in TEXTS if k in NAME_TEXTS]
    tsv += [("markdown_line", "corpus.tsv", MARKDOWN_LINE)]
    run_uploads(at, "train_up_tsv", tsv, ("corpus.tsv", GOOD_TSV), ok, marker, "train tsv",
                report, counts)
    # source + target files: the hostile file on one side, a valid one on the other
    at.radio(key="train_upload_mode").set_value("pair")
    rerun(at)
    src_ok, tgt_ok = b"A dog runs .\nThe cat sleeps .\n", b"Ein Hund rennt .\nDie Katze schl\xc3\xa4ft .\n"
    set_tgt = lambda at: at.file_uploader(key="train_up_tgt").set_value(  # noqa: E731
        ("target.txt", tgt_ok, "text/plain"))
    set_src = lambda at: at.file_uploader(key="train_up_src").set_value(  # noqa: E731
        ("source.txt", src_ok, "text/plain"))
    pair = [(k, "side.txt", v) for k, v in files(sibling=True)]
    run_uploads(at, "train_up_src", pair, ("source.txt", src_ok), ok, marker, "train source",
                report, counts, before=set_tgt)
    run_uploads(at, "train_up_tgt", pair, ("target.txt", tgt_ok), ok, marker, "train target",
                report, counts, before=set_src)
    runs = tmp_path / "runs"
    assert not runs.exists() or not any(runs.iterdir()), "an upload alone started a run"
    assert_clean(report, counts)


# -- the sidebar's checkpoint upload (zip) ---------------------------------------------------------
def test_hostile_checkpoint_zips_in_the_sidebar(monkeypatch, tmp_path, ck_dir, marker,
                                                small_checkpoint):
    good = {p.name: p.read_bytes() for p in small_checkpoint.iterdir() if p.is_file()}
    cases = [(k, "checkpoint.zip", v) for k, v in files()]  # not zips at all
    cases += [(f"member:{k}", "checkpoint.zip", zipped({**good, "model.safetensors": v}))
              for k, v in files()]  # a hostile file as the weights
    cases += [(f"config:{k}", "checkpoint.zip", zipped({**good, "config.json": v}))
              for k, v in files()[:4]]
    for k, v in texts():
        name = wire(render(v, str(marker))).replace("\x00", "")
        if name.strip():
            cases.append((f"member_name:{k}", "checkpoint.zip",
                          zipped({**good, name[:200]: b"x"})))
            cases.append((f"zip_name:{k}", file_name(v, marker, ".zip"), zipped(good)[:100]))
    cases += [("dotdot_member", "checkpoint.zip", zipped({**good, "../../evil.json": b"{}"})),
              ("absolute_member", "checkpoint.zip", zipped({**good, "/tmp/evil.json": b"{}"})),
              ("nested_zip", "checkpoint.zip", zipped({"inner.zip": zipped(good)}))]

    from ui import i18n

    monkeypatch.setattr(i18n, "lang", lambda: "en")
    at = open_app(monkeypatch, ck_dir, tmp_path)
    uploads = tmp_path / "uploads"
    report = problems(at, marker, "home")
    counts: dict = {}
    for cid, fname, data in cases:
        label = f"sidebar zip <- {cid}"
        at.sidebar.file_uploader(key="shell_upload").set_value(
            (fname, data, "application/zip"))
        at.run()
        counts["sidebar zip"] = counts.get("sidebar zip", 0) + 1
        report += problems(at, marker, label)
        if not at.sidebar.error:
            report.append(f"{label}: accepted, or refused without a message")
        if uploads.exists() and any(uploads.iterdir()):
            report.append(f"{label}: a refused upload left {sorted(uploads.iterdir())}")
    for p in tmp_path.rglob("evil.json"):
        report.append(f"an archive member escaped: {p}")
    # still usable: the shipped checkpoint draws the Attention page
    at._ck, at._lang = at.session_state["ckpt_path"], "en"
    at.switch_page("pages/attention.py")
    rerun(at)
    report += problems(at, marker, "attention after uploads")
    if not chart("attention_heatmap")(at):
        report.append("the Attention page draws nothing after the uploads")
    assert_clean(report, counts)


# -- findings of the first sweep, fixed; kept as regression tests --------------------------------------------------
REMOTE_IMAGE = "![x](http://127.0.0.1:9/x.png)"


def _markdown_leaks(at) -> list[str]:
    return [r for r in problems(at, Path("/nonexistent"), "") if "markdown interpreted" in r]


def test_a_good_checkpoint_zip_opens(monkeypatch, tmp_path, ck_dir, small_checkpoint):
    from ui import i18n

    monkeypatch.setattr(i18n, "lang", lambda: "en")
    good = {p.name: p.read_bytes() for p in small_checkpoint.iterdir() if p.is_file()}
    at = open_app(monkeypatch, ck_dir, tmp_path)
    at.sidebar.file_uploader(key="shell_upload").set_value(
        ("good.zip", zipped({f"tiny/{k}": v for k, v in good.items()}), "application/zip"))
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert str(at.session_state["ckpt_path"]).startswith(str(tmp_path / "uploads"))


def test_a_refused_zip_quotes_member_names_literally(monkeypatch, tmp_path, ck_dir,
                                                    small_checkpoint):
    from ui import i18n

    monkeypatch.setattr(i18n, "lang", lambda: "en")
    good = {p.name: p.read_bytes() for p in small_checkpoint.iterdir() if p.is_file()}
    at = open_app(monkeypatch, ck_dir, tmp_path)
    at.sidebar.file_uploader(key="shell_upload").set_value(
        ("checkpoint.zip", zipped({**good, REMOTE_IMAGE: b"x"}), "application/zip"))
    at.run()
    assert at.sidebar.error
    assert _markdown_leaks(at) == []


def test_a_refused_corpus_names_the_file_literally(monkeypatch, tmp_path, ck_dir):
    at = open_page(monkeypatch, ck_dir, tmp_path, "pages/train.py")
    at.selectbox(key="train_task").set_value("upload")
    rerun(at)
    at.file_uploader(key="train_up_tsv").set_value((REMOTE_IMAGE + ".tsv", b"no tab\n",
                                                    "text/plain"))
    rerun(at)
    assert at.error
    assert _markdown_leaks(at) == []


def test_a_probe_upload_names_the_file_literally(monkeypatch, tmp_path, ck_dir):
    at = open_page(monkeypatch, ck_dir, tmp_path, "pages/heads.py")
    at.radio(key="heads_probe").set_value("upload")
    rerun(at)
    at.file_uploader(key="heads_upload").set_value((REMOTE_IMAGE + ".jsonl", GOOD_PROBE,
                                                    "application/json"))
    rerun(at)
    assert chart("heads_grid_")(at)
    assert _markdown_leaks(at) == []


def test_the_checks_catch_what_they_look_for(tmp_path):
    """The detectors above are not vacuous: HTML rendered as HTML, a traceback, user markdown,
    an exception and the marker are each reported."""
    from streamlit.testing.v1 import AppTest

    marker = tmp_path / "m"
    at = AppTest.from_string(
        "import streamlit as st\n"
        "st.markdown('<img src=x onerror=alert(1)>', unsafe_allow_html=True)\n"
        "st.error('Traceback (most recent call last):')\n"
        "st.caption('read ![x](http://127.0.0.1:9/x.png)')\n"
        "st.code('<script>alert(1)</script>')\n"  # shown as code: fine
        "raise ValueError('boom')\n")
    at.run()
    marker.write_text("x")
    found = problems(at, marker, "probe")
    assert [any(k in f for f in found) for k in (
        "exception element", "traceback text", "raw HTML", "markdown interpreted",
        "marker file")] == [True] * 5
    assert not any("Code" in f for f in found)
