"""Every CLI fed the hostile corpus (tests/helpers.py) wherever it takes text or files.

The rule for every call: exit status 0 or 2; on 2, one line on stderr that says "error"; never a
traceback (an exception escaping `main` is one); output that is valid UTF-8 (stdout is written
through a strict UTF-8 stream, as a real process's is); and nothing executed: a marker file that
an injected shell / Python / template command would create never appears.

Most calls run `main(argv)` in this process (a process start costs seconds of torch import on
the shared 2-core CPU); a handful run the real `python -m ...` in parallel, with arguments a shell
would pass (invalid UTF-8 bytes in argv included).

    ATTENTION_LAB_LONG_TESTS=1 python -m pytest tests/test_hostile_cli.py

adds the very long texts (100,000 characters) and runs every argv-safe text through the real
`python -m transformer.inspect` and `python -m transformer.worked` processes too.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest
import torch

from helpers import (FILES, LONG_TEXTS, MARKER, PROBE_FILES, TEXTS, argv_safe, probe_line,
                     render)

LONG = os.environ.get("ATTENTION_LAB_LONG_TESTS") == "1"
ALL_TEXTS = TEXTS + (LONG_TEXTS if LONG else [])
# CI mode: the CLIs that run a model get one text per kind of trouble (a forward pass costs about a
# second on the shared CPU); the cheap ones (worked, data) get every text. Long mode: all of them.
CI_TEXTS = {"empty", "whitespace_mix", "chars_10000", "nul_inside", "ansi_colour", "zero_width_only",
            "rtl_override", "mixed_scripts", "emoji", "zalgo_combining", "lone_high_surrogate",
            "script_tag", "markdown_js_link", "shell_subst", "python_eval", "dotdot_path",
            "punctuation_only", "special_token_names", "leading_dashes"}
CI_FILES = {"empty_file", "invalid_utf8_line2", "utf16_bom", "nul_bytes", "random_binary",
            "gzip_magic", "too_many_tabs", "empty_target_side", "cr_only", "line_10000_chars",
            "hostile_pairs", "probe_nested_deep", "probe_huge_int", "probe_surrogate_escape",
            "probe_bool_positions", "html_document"}
ROOT = Path(__file__).resolve().parents[1]

SURROGATES = {"lone_high_surrogate", "lone_low_surrogate", "surrogateescape_bytes"}


def _texts(costly=False):
    return [pytest.param(text, id=key) for key, text in ALL_TEXTS
            if not costly or LONG or key in CI_TEXTS]


def _files(items, costly=False):
    return [pytest.param(data, id=key) for key, data in items
            if LONG or not costly or key in CI_FILES]


@pytest.fixture(autouse=True)
def _sandbox(tmp_path, monkeypatch):
    """Run each test in its own empty directory; keep torch's thread count as it was."""
    monkeypatch.chdir(tmp_path)
    threads = torch.get_num_threads()
    yield
    torch.set_num_threads(threads)


@pytest.fixture
def marker(tmp_path) -> Path:
    return tmp_path / "PWNED_marker"


@contextlib.contextmanager
def _real_stdio():
    """stdout as a real process has it (UTF-8, strict: a lone surrogate fails), stderr with
    backslashreplace (as Python sets it up)."""
    out_b, err_b = io.BytesIO(), io.BytesIO()
    out = io.TextIOWrapper(out_b, encoding="utf-8", errors="strict", write_through=True)
    err = io.TextIOWrapper(err_b, encoding="utf-8", errors="backslashreplace", write_through=True)
    res = types.SimpleNamespace(out="", err="")
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        yield res
    finally:
        sys.stdout, sys.stderr = old
        res.out = out_b.getvalue().decode("utf-8")
        res.err = err_b.getvalue().decode("utf-8")


def call(main, argv: list[str]) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of an in-process CLI; an escaping exception fails the test
    (from a real process it would be a traceback)."""
    escaped = None
    with _real_stdio() as io_:
        try:
            code = main(argv)
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        except Exception as e:  # noqa: BLE001 - the finding itself
            escaped = e
    if escaped is not None:
        pytest.fail(f"{type(escaped).__name__} escaped (a traceback for the user): "
                    f"{str(escaped)[:300]!r}", pytrace=False)
    return code, io_.out, io_.err


def check(code: int, out: str, err: str, marker: Path | None = None,
          progress: bool = False) -> None:
    """`progress`: the CLI prints progress lines on stderr (fetch, train) before its error line."""
    assert code in (0, 2), f"exit status {code}; stderr: {err[-500:]!r}"
    assert "Traceback" not in err and "Traceback" not in out
    if code == 2:
        msg = err.strip()
        assert msg, "exit 2 without a message"
        if progress:
            msg = msg.splitlines()[-1]
        assert "\n" not in msg, f"the error is not one line: {msg[:300]!r}"
        assert "error" in msg.lower(), msg[:300]
    if marker is not None:
        assert not marker.exists(), "an injected command ran"
        assert not Path("PWNED_marker").exists()


@pytest.fixture(scope="module")
def ck(small_checkpoint) -> str:
    return str(small_checkpoint)


def _write(tmp_path: Path, name: str, data: bytes) -> str:
    p = tmp_path / name
    p.write_bytes(data)
    return str(p)


# ================================================================== transformer.inspect
@pytest.mark.parametrize("text", _texts(costly=True))
def test_inspect_text(ck, marker, text):
    from transformer.probing.inspect import main

    code, out, err = call(main, ["--checkpoint", ck, f"--text={render(text, str(marker))}",
                                 "--target", "Ein Hund rennt .", "--json", "--threads", "1"])
    check(code, out, err, marker)
    if code == 0:
        res = json.loads(out)
        assert res["source_tokens"][-1] == "</s>"
    else:
        assert not text.strip() or set(text) <= set("\x00 \u200b\u200c\u200d\u2060\ufeff"), err


@pytest.mark.parametrize("text", _texts(costly=True))
def test_inspect_target(ck, marker, text):
    """A blank target means greedy decoding (the untrained model runs to its length limit)."""
    from transformer.probing.inspect import main

    code, out, err = call(main, ["--checkpoint", ck, "--text", "A dog runs .",
                                 f"--target={render(text, str(marker))}", "--threads", "1"])
    check(code, out, err, marker)


@pytest.mark.parametrize("text", [
    pytest.param(t, id=k) for k, t in TEXTS if k in (
        "dotdot_path", "absolute_path", "nul_only", "newlines_only", "empty", "script_tag",
        "surrogateescape_bytes", "rtl_override", "shell_subst", "home_tilde", "file_url",
        "windows_path", "chars_10000", "markdown_block")])
def test_checkpoint_argument_is_just_a_path(marker, text):
    """A hostile --checkpoint is refused with one line by every CLI that takes one."""
    from transformer.probing import evaluate
    from transformer.probing import heads
    from transformer.probing import inspect

    arg = render(text, str(marker))
    for main, argv in ((inspect.main, [f"--checkpoint={arg}", "--text", "A dog ."]),
                       (heads.main, [f"--checkpoint={arg}", "--n", "2"]),
                       (evaluate.main, [f"--checkpoint={arg}", "--tsv", "x.tsv"])):
        code, out, err = call(main, argv)
        check(code, out, err, marker)
        assert code == 2


# ==================================================================== transformer.heads
@pytest.mark.parametrize("text", _texts(costly=True))
def test_heads_probe_line(ck, tmp_path, marker, text):
    from transformer.probing.heads import main

    probe = _write(tmp_path, "probe.jsonl", probe_line(render(text, str(marker))))
    code, out, err = call(main, ["--checkpoint", ck, "--probe", probe, "--json", "--threads", "1"])
    check(code, out, err, marker)
    if code == 0:
        assert json.loads(out)["n"] == 1


@pytest.mark.parametrize("data", _files([(k, v) for k, v in FILES + PROBE_FILES
                                         if k != "probe_nested_deep"], costly=True)
                         + _files([(k, v) for k, v in PROBE_FILES if k == "probe_nested_deep"]))
def test_heads_probe_file(ck, tmp_path, data):
    from transformer.probing.heads import main

    probe = _write(tmp_path, "probe.jsonl", data)
    code, out, err = call(main, ["--checkpoint", ck, "--probe", probe, "--json", "--threads", "1"])
    check(code, out, err)


# =================================================================== transformer.worked
@pytest.mark.parametrize("text", _texts())
def test_worked_example_id(marker, text):
    from transformer.worked.cli import main

    for argv in ([render(text, str(marker))], ["--json", render(text, str(marker))]):
        code, out, err = call(main, argv)
        check(code, out, err, marker)
        assert code == 2 or text == "--help"


# ===================================================================== transformer.data
@pytest.mark.parametrize("text", _texts())
def test_data_show_split(marker, text):
    from transformer.data.tasks import main

    code, out, err = call(main, ["show", "copy", f"--split={render(text, str(marker))}", "--n", "2"])
    check(code, out, err, marker)


@pytest.mark.parametrize("data", _files(FILES))
def test_data_fetch_from_hostile_files(tmp_path, data):
    """`fetch --source file://DIR` where every Multi30k file holds the hostile bytes: refused
    with one line, or written as plain UTF-8; the destination never holds a half-written set."""
    from transformer.data.tasks import MULTI30K_LANGS, MULTI30K_SPLITS, main

    src = tmp_path / "src"
    src.mkdir()
    for s in MULTI30K_SPLITS:
        for lang in MULTI30K_LANGS:
            (src / f"{s}.{lang}").write_bytes(data)
    dest = tmp_path / "dest"
    code, out, err = call(main, ["fetch", "multi30k", "--to", str(dest), "--source",
                                 src.as_uri(), "--timeout", "5"])
    check(code, out, err, progress=True)
    written = sorted(p.name for p in dest.iterdir()) if dest.exists() else []
    if code == 2:
        assert written == [], f"a failed fetch left files behind: {written[:5]}"
    else:
        assert len(written) == len(MULTI30K_SPLITS) * len(MULTI30K_LANGS)
        for name in written:
            (dest / name).read_bytes().decode("utf-8")


@pytest.mark.parametrize("source", ["javascript:alert(1)", "file:///etc/passwd", "../../etc",
                                    "http://127.0.0.1:9/", "<script>alert(1)</script>", ""])
def test_data_fetch_hostile_source(tmp_path, source):
    from transformer.data.tasks import main

    code, out, err = call(main, ["fetch", "multi30k", "--to", str(tmp_path / "d"), "--source",
                                 source, "--timeout", "2"])
    check(code, out, err, progress=True)
    assert code == 2


# ==================================================================== transformer.train
TRAIN_TINY = ["--steps", "3", "--d-model", "16", "--heads", "2", "--layers", "1", "--d-ff", "32",
              "--dropout", "0", "--batch-tokens", "256", "--warmup", "10", "--vocab-size", "64",
              "--eval-every", "1000", "--eval-sentences", "3", "--checkpoint-every", "1000",
              "--log-every", "1", "--threads", "1", "--max-len", "64"]


def _check_run_dir(run: Path, code: int) -> None:
    from transformer.ops import runs
    from transformer.core.checkpoint import load_checkpoint

    status = runs.read_status(run)
    if code == 0:
        assert status["state"] == "finished"
        load_checkpoint(run / "checkpoints" / "last")
    elif status is not None:  # failed after the run directory was made: say so there
        assert status["state"] == "failed" and status.get("message"), status


@pytest.mark.parametrize("data", _files(FILES, costly=True))
def test_train_on_hostile_tsv(tmp_path, data):
    from transformer.train.cli import main

    run = tmp_path / "run"
    code, out, err = call(main, ["--task", "tsv", "--tsv", _write(tmp_path, "c.tsv", data),
                                 "--out", str(run), *TRAIN_TINY])
    check(code, out, err, progress=True)
    _check_run_dir(run, code)


@pytest.mark.parametrize("key", ["nul_bytes", "unicode_separators", "invalid_utf8_line2",
                                 "empty_file", "utf16_bom"])
def test_train_on_hostile_parallel_files(tmp_path, key):
    from transformer.train.cli import main

    data = dict(FILES)[key]
    src = _write(tmp_path, "c.src", data)
    tgt = _write(tmp_path, "c.tgt", data)
    run = tmp_path / "run"
    code, out, err = call(main, ["--task", "tsv", "--src-file", src, "--tgt-file", tgt,
                                 "--out", str(run), *TRAIN_TINY])
    check(code, out, err, progress=True)
    _check_run_dir(run, code)


@pytest.mark.parametrize("opt", [
    "no_equals_sign", "n=-1", "max_len=0", "min_len=9=9", "vocab=1", "vocab=100000",
    "n=NaN", "n=1e9999", "=1", "x=1", "__class__=1", "$(touch PWNED_marker)=1",
])
def test_train_hostile_task_opt(tmp_path, opt):
    from transformer.train.cli import main

    run = tmp_path / "run"
    code, out, err = call(main, ["--task", "copy", "--task-opt", opt, "--out", str(run),
                                 *TRAIN_TINY])
    check(code, out, err, tmp_path / "PWNED_marker", progress=True)
    assert code == 2
    _check_run_dir(run, code)


# ================================================================= transformer.evaluate
@pytest.mark.parametrize("data", _files(FILES, costly=True))
def test_evaluate_on_hostile_tsv(ck, tmp_path, data):
    from transformer.probing.evaluate import main

    hyp = tmp_path / "hyp.txt"
    code, out, err = call(main, ["--checkpoint", ck, "--tsv", _write(tmp_path, "c.tsv", data),
                                 "--threads", "1", "--json", "--hyp-out", str(hyp),
                                 "--batch-size", "16"])
    check(code, out, err)
    if code == 0:
        res = json.loads(out)
        assert 0 <= res["bleu"] <= 100
        assert len(hyp.read_text(encoding="utf-8").splitlines()) >= res["sentences"]


# ============================================================ real processes, in parallel
def _spawn(args: list, cwd: Path) -> subprocess.Popen:
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(ROOT),
           "PYTHONIOENCODING": "", "LC_ALL": "C.UTF-8"}
    return subprocess.Popen([sys.executable, *args], cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)


def _real_cases(ck: str, tmp_path: Path, marker: Path) -> list[tuple[str, list, set]]:
    """(name, argv, allowed exit codes)."""
    inject = render("$(touch {M}) `touch {M}` ; touch {M} | touch {M} "
                    "__import__('os').system('touch {M}') {{7*7}}".replace("{M}", MARKER),
                    str(marker))
    bad_tsv = _write(tmp_path, "bad.tsv", dict(FILES)["invalid_utf8_line2"])
    nul_tsv = _write(tmp_path, "nul.tsv", dict(FILES)["nul_bytes"])
    probe = _write(tmp_path, "p.jsonl", dict(PROBE_FILES)["probe_huge_int"])
    cases = [
        ("inspect_injection", ["-m", "transformer.inspect", "--checkpoint", ck, "--text", inject,
                               "--target", inject, "--json"], {0}),
        ("train_invalid_utf8_tsv", ["-m", "transformer.train", "--task", "tsv", "--tsv", bad_tsv,
                                    "--out", str(tmp_path / "run"), *TRAIN_TINY], {2}),
    ]
    if LONG:
        cases += [
            ("worked_invalid_utf8_argv", ["-m", "transformer.worked", b"\xff\xfe<script>"], {2}),
            ("heads_huge_int_probe", ["-m", "transformer.heads", "--checkpoint", ck, "--probe",
                                      probe, "--threads", "1"], {2}),
            ("inspect_html_rtl_emoji", ["-m", "transformer.inspect", "--checkpoint", ck, "--text",
                                        "<script>alert(1)</script> \u202e 🐕 \x1b[2J", "--json"], {0}),
            ("data_show_invalid_utf8_argv", ["-m", "transformer.data", "show", "copy", "--split",
                                             b"\xc0\xaf../.."], {2}),
            ("evaluate_nul_tsv", ["-m", "transformer.evaluate", "--checkpoint", ck, "--tsv",
                                  nul_tsv, "--threads", "1"], {0}),
        ]
        for key, text in ALL_TEXTS:
            if argv_safe(text) and key not in SURROGATES:
                t = render(text, str(marker))
                cases.append((f"inspect_{key}", ["-m", "transformer.inspect", "--checkpoint", ck,
                                                  f"--text={t}"], {0, 2}))
                cases.append((f"worked_{key}", ["-m", "transformer.worked", "--", t], {2}))
    return cases


def test_real_processes(ck, tmp_path, marker):
    cases = _real_cases(ck, tmp_path, marker)
    problems = []
    batch = 4
    for i in range(0, len(cases), batch):
        procs = [(name, _spawn(argv, tmp_path), ok) for name, argv, ok in cases[i:i + batch]]
        for name, proc, ok in procs:
            try:
                out, err = proc.communicate(timeout=300)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.communicate()
                problems.append(f"{name}: timed out")
                continue
            err_s = err.decode("utf-8", "replace")
            if proc.returncode not in ok:
                problems.append(f"{name}: exit {proc.returncode} (expected {sorted(ok)}): "
                                f"{err_s.strip().splitlines()[-1:]}")
            if "Traceback" in err_s:
                problems.append(f"{name}: traceback: {err_s.strip().splitlines()[-1:]}")
            try:
                out.decode("utf-8")
            except UnicodeDecodeError:
                problems.append(f"{name}: stdout is not UTF-8")
            if proc.returncode == 2 and err_s.strip().count("\n"):
                problems.append(f"{name}: error message of several lines")
    assert not marker.exists(), "an injected command ran"
    assert not problems, problems


@pytest.mark.skipif(not LONG, reason="long mode only (ATTENTION_LAB_LONG_TESTS=1)")
def test_real_inspect_with_invalid_utf8_argv(ck, tmp_path):
    """What a shell passes for `--text $'A \\xff dog'`: Python decodes it to a lone surrogate."""
    proc = _spawn(["-m", "transformer.inspect", "--checkpoint", ck, "--text", b"A \xff dog"],
                  tmp_path)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode in (0, 2) and b"Traceback" not in err, err.decode(errors="replace")
