"""Plain helpers shared by the tests (import them from here; conftest.py holds only fixtures;
AppTest and live-server plumbing is in app_helpers.py).

- CORPUS, tiny_config: a tiny CPU model's corpus and configuration.
- FakeClock: a clock the tests move by hand.
- plotly_array, plotly_decoded: plotly figure JSON back into numbers.
- reference, merged_reference: an independent trace of a checkpoint, and words merged by loops.
- train_tiny_anaphora: the small trained anaphora checkpoint (conftest's trained_checkpoint).
- everyday_dirs: a tiny Multi30k folder and Ding folder for the everyday mix.
- runs_and_uploads, artefact: the disk-budget tests' folders and what they hold.
- card_tool_repairs: the card tool (transformer.ops.cards) finds and rewrites a stale example.
- wait_until: poll a condition until it holds or time runs out.
- check_generated_sample, check_mix_option, check_genders_against_ding: what every everyday
  generator promises.
- The hostile-input corpus: TEXTS, LONG_TEXTS, FILES, PROBE_FILES, MARKER, render, argv_safe,
  probe_line.
"""
from __future__ import annotations

import base64
import gzip
import io
import json
import os
import random
import socket
import time
import zipfile
from pathlib import Path

import numpy as np

CORPUS = [
    "A dog runs in the park .", "Ein Hund rennt im Park .",
    "Two men play football on the grass .", "Zwei Männer spielen Fußball auf dem Rasen .",
    "A girl in a red dress walks .", "Ein Mädchen in einem roten Kleid geht .",
    "The cat sleeps on the warm table .", "Die Katze schläft auf dem warmen Tisch .",
]


def tiny_config(vocab_size: int = 40, **kw):
    """A ModelConfig small enough for CPU tests (d_model 16, 4 heads, 2+2 layers)."""
    from transformer.core.config import ModelConfig

    base = dict(vocab_size=vocab_size, d_model=16, n_heads=4, n_encoder_layers=2,
                n_decoder_layers=2, d_ff=32, dropout=0.0, max_len=128)
    base.update(kw)
    return ModelConfig(**base)


def peaked_model(seed: int = 3):
    """A random tiny model (vocabulary 30, d_model 32) whose output is not constant: its matrices
    are scaled by 3, so a decode's choices are peaked and differ from step to step."""
    import torch

    from transformer.core.model import Transformer

    torch.manual_seed(seed)
    m = Transformer(tiny_config(vocab_size=30, d_model=32)).eval()
    with torch.no_grad():
        for p in m.parameters():
            if p.dim() > 1:
                p.mul_(3.0)
    return m


class FakeClock:
    """A clock the tests move by hand (ui.serving.roles.CLOCK), so backoffs need no sleeping."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def shipped_folder(tmp_path: Path, checkpoint: Path, name: str) -> Path:
    """A shipped-checkpoints folder, tmp_path/shipped, holding a copy of `checkpoint` as `name`."""
    import shutil

    d = tmp_path / "shipped"
    d.mkdir()
    shutil.copytree(checkpoint, d / name)
    return d


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def zipped(members, method: int = zipfile.ZIP_STORED) -> bytes:
    """A zip archive, in memory, of `members`: a dict or (name, bytes) pairs, in that order."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as z:
        for name, data in (members.items() if isinstance(members, dict) else members):
            z.writestr(name, data)
    return buf.getvalue()


# -- plotly figures --------------------------------------------------------------------------------
def plotly_array(v) -> np.ndarray:
    """A plotly JSON array as numpy: a list, or plotly 6's binary form {"dtype", "bdata", "shape"}
    (how it writes numpy arrays)."""
    if isinstance(v, dict) and "bdata" in v:
        a = np.frombuffer(base64.b64decode(v["bdata"]), dtype=np.dtype(v["dtype"]))
        if v.get("shape"):
            a = a.reshape([int(n) for n in str(v["shape"]).split(",")])
        return a
    return np.asarray(v)


def plotly_decoded(obj):
    """A whole figure's JSON (or any part of it) with every binary array turned back into lists."""
    if isinstance(obj, dict):
        if "bdata" in obj and "dtype" in obj:
            return plotly_array(obj).tolist()
        return {k: plotly_decoded(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [plotly_decoded(v) for v in obj]
    return obj


# -- independent references ------------------------------------------------------------------------
def reference(ck_path, text, target=None, beam=1):
    """The checkpoint's trace of `text` (transformer.inspect), loaded afresh: what a page shows
    must equal it. `beam`: the output's search without a target (1: greedy; else the pages'
    beam search, transformer.core.decode.BEST_*)."""
    from transformer.core.checkpoint import load_checkpoint
    from transformer.probing.inspect import inspect_text

    from transformer.core.decode import BEST_ALPHA, BEST_COVERAGE

    ck = load_checkpoint(ck_path)
    return inspect_text(ck.model, ck.tokenizer, text, target, beam=beam, alpha=BEST_ALPHA,
                        coverage=BEST_COVERAGE)


def page_reference(ck_path, text, target=None):
    """`reference` as the Attention and Step pages open: beam search (the decoding that scores
    best on the held-out sets) for a text short enough, greedy for a longer one
    (ui/output_decoding.py)."""
    from ui import output_decoding

    return reference(ck_path, text, target, beam=output_decoding.beam_for("beam", text))


def merged_reference(w, tok, q_ids, k_ids):
    """Pieces merged into words, written out with loops (not viz.tokens): a key word's weight
    is the sum over its pieces' columns; a query word's row the mean of its pieces' rows."""
    qg, kg = tok.words(q_ids), tok.words(k_ids)
    out = np.zeros(w.shape[:-2] + (len(qg), len(kg)))
    for a, rows in enumerate(qg):
        for b, cols in enumerate(kg):
            total = 0.0
            for r in rows:
                for c in cols:
                    total = total + w[..., r, c]
            out[..., a, b] = total / len(rows)
    return out


# -- a small trained anaphora checkpoint -----------------------------------------------------------
# Trained once per test session (conftest's trained_checkpoint), in-process, through
# `transformer.train.run` (the CLI's Python entry point) on one thread: a d_model-32 model for a few
# hundred steps, ~20-40 s on the shared CPU. It is not good at the task, but it has learned enough
# that its outputs depend on its attention heads (ablating every cross-attention head changes
# them), which is what the page tests (decode, heads, ablation) need.

STEPS = int(os.environ.get("ATTENTION_LAB_FIXTURE_STEPS", "400"))
ARGS = ["--task", "anaphora", "--d-model", "32", "--heads", "4", "--layers", "2", "--d-ff", "64",
        "--dropout", "0", "--vocab-size", "200", "--batch-tokens", "1024", "--warmup", "150",
        "--lr-scale", "1.0", "--eval-every", "100000", "--checkpoint-every", "100000",
        "--eval-sentences", "20", "--log-every", "100", "--threads", "1", "--device", "cpu",
        "--seed", "0"]


def train_tiny_anaphora(out: Path, steps: int = STEPS) -> tuple[Path, float]:
    """Train into run directory `out`; returns (checkpoint dir, seconds)."""
    import contextlib
    import io

    import torch

    from transformer.train.cli import run

    threads = torch.get_num_threads()
    t0 = time.time()
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            state = run(ARGS + ["--steps", str(steps), "--out", str(out)])
    finally:
        torch.set_num_threads(threads)
    ck = out / "checkpoints" / "last"
    assert (ck / "model.safetensors").is_file(), f"training ended in state {state}, no checkpoint"
    return ck, time.time() - t0


# -- the hostile-input corpus ----------------------------------------------------------------------
# Hostile or odd inputs, as plain Python data, for every text box, upload and CLI.
# TEXTS: (id, text) pairs for things a user types. Texts that would run something if an input were
# ever executed (shell, Python, template) contain the placeholder MARKER; `render(text, path)`
# replaces it with a file path that must never appear.
# FILES: (id, bytes) pairs for files a user uploads or passes to a CLI (corpora, probe files).
MARKER = "{MARKER}"


def render(text: str, marker_path: str) -> str:
    """The text with MARKER replaced by the path of a file that an executed injection would
    create."""
    return text.replace(MARKER, marker_path)


def argv_safe(text: str) -> bool:
    """Whether a text can be an argv element of a real process (no NUL byte, and encodable the
    way Python decodes argv: UTF-8 with surrogateescape)."""
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return False
    return True


TEXTS: list[tuple[str, str]] = [
    # -- empty and whitespace ------------------------------------------------------------------
    ("empty", ""),
    ("space", " "),
    ("whitespace_mix", " \t\n\r\x0b\x0c "),
    ("newlines_only", "\n\n\n"),
    ("crlf_mix", "A dog\r\nruns\r."),
    ("nbsp_and_ideographic_space", "\u00a0\u3000\u2003"),
    # -- size ----------------------------------------------------------------------------------
    ("chars_10000", ("A dog runs in the park . " * 400)[:10000]),
    ("one_word_10000", "x" * 10000),
    ("very_long_word", "Donaudampfschifffahrtselektrizitätenhauptbetriebswerkbauunterbeamten" * 20),
    ("many_lines", "A dog runs .\n" * 300),
    # -- control and invisible characters ------------------------------------------------------
    ("nul_inside", "A dog\x00 runs ."),
    ("nul_only", "\x00\x00\x00"),
    ("c0_controls", "\x01\x02\x03\x07\x08 bell and backspace \x7f"),
    ("ansi_colour", "\x1b[31mred\x1b[0m dog \x1b[2J"),
    ("terminal_title_escape", "\x1b]0;pwned\x07 A dog"),
    ("c1_controls", "\x85\x9b31m\x9c"),
    ("zero_width_inside", "A\u200bdog\u200c runs\u200d .\ufeff"),
    ("zero_width_only", "\u200b\u200c\u200d\u2060\ufeff"),
    ("line_paragraph_separators", "A dog\u2028runs\u2029."),
    ("soft_hyphen_and_joiners", "Hun\u00addog\u034f\u180e"),
    # -- scripts and direction -----------------------------------------------------------------
    ("rtl_hebrew", "כלב רץ בפארק ."),
    ("rtl_arabic", "كلب يجري في الحديقة ."),
    ("rtl_override", "\u202eA dog\u202c runs gpj.exe"),
    ("bidi_isolates", "\u2066abc\u2069 \u2067def\u2069 \u2068ghi\u2069"),
    ("mixed_scripts", "A dog Hund 犬 собака κύων כלב كلب"),
    ("cjk", "一只狗在公园里跑。"),
    ("emoji", "A dog 🐕 runs 🏃\u200d♂️ . 👨\u200d👩\u200d👧\u200d👦"),
    ("emoji_flags_skin_tones", "🇩🇪 🏳️\u200d🌈 👍🏽"),
    ("emoji_only", "🙂🙂🙂"),
    ("zalgo_combining", "Z\u0338\u0322\u031ba\u0337l\u0336g\u0335o\u0334" + "\u0301" * 50),
    ("homoglyphs", "\u0391 d\u043eg runs ."),  # Greek Alpha, Cyrillic o
    ("math_bold_fullwidth", "𝐀 𝐝𝐨𝐠 ｒｕｎｓ ﬁ"),
    ("noncharacters", "\ufffe\uffff\U0010ffff"),
    ("replacement_chars", "\ufffd\ufffd dog"),
    ("private_use", "\ue000\U000f0000 dog"),
    ("turkish_i", "İı dog"),
    # -- lone surrogates (what Python makes of invalid UTF-8 in argv or JSON "\ud800") ---------
    ("lone_high_surrogate", "A dog \ud800 runs"),
    ("lone_low_surrogate", "\udfff"),
    ("surrogateescape_bytes", "A dog \udcff\udcfe runs"),
    # -- HTML / JS / markdown injection --------------------------------------------------------
    ("script_tag", "<script>alert(1)</script>"),
    ("img_onerror", "<img src=x onerror=alert(1)>"),
    ("svg_onload", "<svg/onload=alert(1)>"),
    ("iframe_js", "<iframe src=\"javascript:alert(1)\"></iframe>"),
    ("html_entities", "&lt;b&gt; &amp; &#0; &#x202E; &nbsp;"),
    ("unclosed_html", "<div><b>A dog <i>runs"),
    ("markdown_js_link", "[x](javascript:alert(1))"),
    ("markdown_bold_heading", "**bold** # heading"),
    ("markdown_block", "# heading\n---\n> quote\n```\ncode\n```"),
    ("markdown_image_remote", "![x](http://127.0.0.1:9/x.png)"),
    ("latex", "$$\\frac{1}{0}$$ $x^2$ \\(y\\)"),
    ("streamlit_colour_directive", ":red[A dog] :material/warning: <span style='x'>"),
    # -- command / code / template injection (MARKER must never be created) --------------------
    ("shell_subst", "$(touch {MARKER})"),
    ("shell_backticks", "`touch {MARKER}`"),
    ("shell_separator", "; touch {MARKER} #"),
    ("shell_pipe", "| touch {MARKER} && echo"),
    ("python_eval", "__import__('os').system('touch {MARKER}')"),
    ("python_exec_open", "exec(\"open('{MARKER}','w').write('x')\")"),
    ("jinja_template", "{{ ''.__class__.__mro__[1].__subclasses__() }} {{7*7}} ${7*7}"),
    ("format_string", "{0.__class__} {} %s %n %x %(x)s"),
    ("sql", "'; DROP TABLE runs; --"),
    ("csv_formula", "=cmd|' /C calc'!A0"),
    ("pickle_opcode_text", "cos\nsystem\n(S'touch {MARKER}'\ntR."),
    # -- paths and names -----------------------------------------------------------------------
    ("dotdot_path", "../../../../etc/passwd"),
    ("absolute_path", "/etc/passwd"),
    ("windows_path", "C:\\Windows\\..\\..\\x"),
    ("home_tilde", "~/.ssh/id_rsa"),
    ("file_url", "file:///etc/passwd"),
    # -- odd but harmless ----------------------------------------------------------------------
    ("punctuation_only", "!!! ??? ... ,,, ;;; ::: --- ___"),
    ("digits_only", "1234567890 3.14159 -0 1e308"),
    ("special_token_names", "<s> </s> <pad> <unk> ▁ ▁▁"),
    ("json_literals", "null NaN -Infinity true {} []"),
    ("tabs_inside", "a\tb\tc"),
    ("leading_dashes", "--help"),
    ("single_dash", "-"),
]

# Long mode only (ATTENTION_LAB_LONG_TESTS=1): the very large ones.
LONG_TEXTS: list[tuple[str, str]] = [
    ("chars_100000", "A dog runs . " * 7700),
    ("emoji_10000", "🙂" * 10000),
    ("combining_10000", "a" + "\u0301" * 10000),
]


def _pairs_tsv() -> bytes:
    """A TSV whose every line is a hostile text paired with itself (tabs and newlines squashed):
    valid for the readers, odd for everything after them."""
    lines = []
    for _, text in TEXTS:
        t = " ".join(text.replace("\t", " ").split())
        if not t:
            continue
        t = t.replace("\x00", " ")  # NUL has its own file
        try:
            t.encode("utf-8")
        except UnicodeEncodeError:  # lone surrogates: not UTF-8, they have their own files
            continue
        lines.append(f"{t}\t{t}")
    return ("\n".join(lines) + "\n").encode("utf-8")


_rng = random.Random(8)

FILES: list[tuple[str, bytes]] = [
    ("empty_file", b""),
    ("only_newlines", b"\n\n\n"),
    ("only_whitespace_lines", b"  \t \n\r\n \n"),
    ("invalid_utf8_line2", b"A dog .\tEin Hund .\n\xff\xfe bad\tbytes\n"),
    ("invalid_utf8_first_byte", b"\x80\tx\n"),
    ("latin1", "Fußball spielen .\tFußball spielen .\n".encode("latin-1")),
    ("utf16_bom", "A dog .\tEin Hund .\n".encode("utf-16")),
    ("utf8_bom_valid", b"\xef\xbb\xbfA dog .\tEin Hund .\nA cat .\tEine Katze .\n"),
    ("truncated_multibyte", b"caf\xc3"),
    ("overlong_encoding", b"\xc0\xaf\tx\n"),
    ("encoded_surrogate", b"\xed\xa0\x80\tx\n"),
    ("nul_bytes", b"a\x00b\tc\x00d\ne\tf\n"),
    ("random_binary", bytes(_rng.randrange(256) for _ in range(2048))),
    ("all_byte_values", bytes(range(256)) * 4),
    ("gzip_magic", gzip.compress(b"A dog .\tEin Hund .\n")),
    ("zip_magic", b"PK\x03\x04" + b"\x00" * 60),
    ("html_document", b"<html><script>alert(1)</script><img src=x onerror=alert(1)></html>\n"),
    ("json_document", b'{"text": "<script>alert(1)</script>", "pronoun": 0}\n'),
    ("no_tab", b"just one column\n"),
    ("too_many_tabs", b"a\tb\tc\n"),
    ("empty_source_side", b"\tonly target\n"),
    ("empty_target_side", b"only source\t\n"),
    ("crlf_valid", b"A dog .\tEin Hund .\r\nA cat .\tEine Katze .\r\n"),
    ("cr_only", b"A dog .\tEin Hund .\rA cat .\tEine Katze .\r"),
    ("line_10000_chars", ("x " * 5000).encode() + b"\t" + ("y " * 5000).encode() + b"\n"),
    ("control_chars_valid", "A\x1b[31m dog\x07 .\tEin\x7f Hund .\nB\tC\n".encode()),
    ("unicode_separators", "A dog\u2028runs .\tEin Hund\u2029rennt .\nB\tC\n".encode()),
    ("hostile_pairs", _pairs_tsv()),
]

# Probe files for `python -m transformer.heads --probe FILE` (JSON lines), beyond FILES.
PROBE_FILES: list[tuple[str, bytes]] = [
    ("probe_not_json", b"this is not json\n"),
    ("probe_missing_fields", b'{"text": "A dog saw it ."}\n'),
    ("probe_bad_positions", b'{"text": "A dog saw it .", "pronoun": 99, "antecedent": -1}\n'),
    ("probe_bool_positions", b'{"text": "A dog saw it .", "pronoun": true, "antecedent": false}\n'),
    ("probe_float_positions", b'{"text": "A dog saw it .", "pronoun": 1.0, "antecedent": 0.0}\n'),
    ("probe_text_not_string", b'{"text": ["a", "b"], "pronoun": 1, "antecedent": 0}\n'),
    ("probe_nested_deep", b'{"text": ' + b"[" * 5000 + b"]" * 5000 + b"}\n"),
    ("probe_huge_int", b'{"text": "a b", "pronoun": ' + b"9" * 5000 + b', "antecedent": 0}\n'),
    ("probe_surrogate_escape", b'{"text": "a \\ud800 b c", "pronoun": 2, "antecedent": 0}\n'),
    ("probe_nan", b'{"text": "a b c", "pronoun": NaN, "antecedent": 0}\n'),
    ("probe_candidates_bad", b'{"text": "a b c", "pronoun": 2, "antecedent": 0, "candidates": "x"}\n'),
    ("probe_target_object", b'{"text": "a b c", "pronoun": 2, "antecedent": 0, "target": {"x": 1}}\n'),
]


def probe_line(text: str) -> bytes:
    """One probe line for a hostile text (word positions 1 -> 0 when it has two words)."""
    return (json.dumps({"text": text, "pronoun": 1, "antecedent": 0}) + "\n").encode()


assert len(TEXTS) >= 40 and len({k for k, _ in TEXTS}) == len(TEXTS)
assert len({k for k, _ in FILES + PROBE_FILES}) == len(FILES) + len(PROBE_FILES)


def everyday_dirs(root: Path, pairs: list[tuple[str, str]], ding_text: str) -> tuple[Path, Path]:
    """(a Multi30k folder whose train and val splits are PAIRS, a Ding folder whose de-en.txt is
    DING_TEXT), both under ROOT: what recipes.everyday.mix.build reads."""
    m = root / "m30k"
    m.mkdir()
    for split in ("train", "val"):
        (m / f"{split}.en").write_text("\n".join(e for e, _ in pairs) + "\n", encoding="utf-8")
        (m / f"{split}.de").write_text("\n".join(d for _, d in pairs) + "\n", encoding="utf-8")
    d = root / "ding"
    d.mkdir()
    (d / "de-en.txt").write_text(ding_text, encoding="utf-8")
    return m, d


def check_genders_against_ding(nouns, ding_dir, unmarked_at_most: int) -> None:
    """A hand-written lexicon's nouns (``.en``, ``.de``, ``.gender``) checked against the
    dictionary's {m} {f} {n}: no noun whose gender Ding marks otherwise, and at most
    ``unmarked_at_most`` German nouns Ding does not mark."""
    from transformer.data import ding

    marks = ding.noun_genders(ding_dir)
    marks["Sandwich"] = {"m", "n"}  # checked by hand: "das" and "der Sandwich" are both standard
    wrong = [(n.en, n.de, n.gender, marks.get(n.de)) for n in nouns
             if n.gender not in marks.get(n.de, {n.gender})]
    assert not wrong
    missing = [n.de for n in nouns if n.de not in marks]
    assert len(missing) <= unmarked_at_most, missing


def check_mix_option(tmp_path: Path, monkeypatch, generate, option: str, task: str, absent: str,
                     said_as: str, held: int) -> None:
    """A generator's mix option (``daily=N``, ``talk=N``) of recipes.everyday.mix: without it
    no such sentence (and no ABSENT word in the description); with N=40 all but the one sentence a
    hand-written test set holds (number HELD of GENERATE's 40) are taken, the description says
    "39 SAID_AS"; a negative N is refused by name."""
    import pytest

    from recipes.everyday import mix
    from transformer.data import held_out_sets as hs

    pairs = [("A dog runs .", "Ein Hund rennt .")] * 3
    m, d = everyday_dirs(tmp_path, pairs, "Hund {m} :: dog\n")
    opts = dict(ding_dir=str(d), phrases=0, pronouns=0, textbook=0, daily=0, talk=0)
    opts.pop(option)
    plain, _, desc = mix.build(str(m), 0, **opts, **{option: 0})
    assert not any(ex.meta.get("task") == task for ex in plain) and absent not in desc
    said = generate(40, seed=0)
    test_set = tmp_path / "everyday_x_en_de.tsv"
    test_set.write_text(f"{said[held].src}\t{said[held].tgt}\n", encoding="utf-8")
    monkeypatch.setattr(hs, "EVERYDAY_FILES", (test_set,))
    mixed, _, desc = mix.build(str(m), 0, **{option: 40}, **opts)
    got = [ex for ex in mixed if ex.meta.get("task") == task]
    assert len(got) == 39 and said[held].src not in {ex.src for ex in got}
    assert f"39 {said_as}" in desc
    with pytest.raises(ValueError, match=option):
        mix.build(str(m), 0, **{option: -1}, **opts)


def artefact(root, name: str, mb: float, owner: dict | None, created: float,
             active: bool = False):
    """A run or upload folder for disk-budget tests: `mb` MB of bytes, an owner record made at
    `created`, and a live status (this process's pid) when `active`."""
    from transformer.ops import runs  # deferred: most tests using helpers need no ops

    p = root / name
    p.mkdir(parents=True)
    (p / "blob.bin").write_bytes(b"\x01" * int(mb * 1e6))
    if active:
        runs.write_status(p, state="running", pid=os.getpid(), step=1)
    if owner:
        runs.write_json_atomic(p / runs.OWNER, {**owner, "created_at": created})
    return p


def runs_and_uploads(root: Path) -> tuple[Path, Path]:
    """Empty runs/ and uploads/ folders below ``root``, for the disk-budget tests."""
    r, u = root / "runs", root / "uploads"
    r.mkdir()
    u.mkdir()
    return r, u


def card_tool_repairs(checkpoint: Path, tmp_path: Path, name: str, right: str, stale: str) -> None:
    """The card tool on a copy of ``checkpoint`` whose file ``name`` says ``stale`` where it says
    ``right`` (an example's output changed): --check reports it and changes nothing, a run writes
    the file back as it was, and --check then passes."""
    import shutil

    from transformer.ops import cards  # deferred: most tests using helpers need no ops

    folder = tmp_path / checkpoint.name
    shutil.copytree(checkpoint, folder)
    path = folder / name
    good = path.read_text(encoding="utf-8")
    wrong = good.replace(right, stale)
    assert wrong != good
    path.write_text(wrong, encoding="utf-8")
    assert cards.main(["--check", str(folder)]) == 1
    assert path.read_text(encoding="utf-8") == wrong  # --check changes nothing
    assert cards.main([str(folder)]) == 0
    assert path.read_text(encoding="utf-8") == good
    assert cards.main(["--check", str(folder)]) == 0


def wait_until(cond, timeout: float, every: float) -> bool:
    """Whether ``cond()`` comes true within ``timeout`` seconds, asked every ``every`` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(every)
    return False


def check_generated_sample(sample, generate, seed: int, n: int, ends: tuple[str, ...]) -> None:
    """What a generator of the everyday mix promises of its ``sample`` (``generate(len(sample),
    seed)``): distinct English; the first ``n`` pairs again for ``seed``, not for ``seed + 1``;
    both sides capitalised, single-spaced, ending in one of ``ends`` (" .", " ?") with the same
    mark; none of the blog's and the trophy's words (textbook.forbidden)."""
    from transformer.data import textbook  # deferred: most tests using helpers need no data

    assert len({ex.src for ex in sample}) == len(sample)
    assert [(ex.src, ex.tgt) for ex in generate(n, seed=seed)] == [(ex.src, ex.tgt) for ex in sample[:n]]
    assert [ex.src for ex in generate(n, seed=seed + 1)] != [ex.src for ex in sample[:n]]
    for ex in sample:
        for text in (ex.src, ex.tgt):
            assert text[0].isupper() and "  " not in text and text == text.strip(), text
            assert text[-2:] in ends, text
        assert ex.src[-1] == ex.tgt[-1], ex
        assert not textbook.forbidden(ex.src), ex.src  # the blog's and the trophy's words
