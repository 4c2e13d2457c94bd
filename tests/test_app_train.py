"""The Train page through AppTest with the real child process: start a tiny copy run, see its
metrics appear, the cap message for a second start, stop (a checkpoint listed), resume (the run goes
past where it stopped). Every child is stopped, then killed, at teardown."""
from __future__ import annotations

import json
import os
import signal
import time

import pytest

from app_helpers import ROOT, no_errors, open_app, open_pinned, rerun
from transformer.ops import runs

PAGE = "pages/train.py"
TINY = {"d_model": 16, "heads": 2, "enc_layers": 1, "dec_layers": 1, "d_ff": 32,
        "dropout": 0.0, "vocab_size": 40, "steps": 100000, "batch_tokens": 256, "warmup": 20,
        "eval_every": 10, "eval_sentences": 10, "checkpoint_every": 100000, "log_every": 5}


@pytest.fixture
def runs_root(tmp_path):
    """The runs folder open_app points the app at; every run left in it is ended afterwards."""
    root = tmp_path / "runs"
    yield root
    pids = []
    for r in runs.list_runs(root):
        if r.active:
            runs.request_stop(r.path)
            pids.append((r.status or {}).get("pid"))
    for s in runs.active_slots(root):
        pids.append(s.get("pid"))
    deadline = time.time() + 20
    for pid in {p for p in pids if p}:
        while runs.pid_alive(pid) and time.time() < deadline:
            time.sleep(0.2)
        if runs.pid_alive(pid):
            os.kill(pid, signal.SIGKILL)
    runs._reap()


def _configure(at, **over):
    at.session_state["train_task"] = "copy"
    at.run()
    for k, v in {**TINY, **over}.items():
        at.number_input(key=f"train_p_{k}").set_value(v)
    return at


def _rerun_until(at, pred, what, timeout=90.0):
    end = time.time() + timeout
    while time.time() < end:
        at.run()
        no_errors(at)
        if pred(at):
            return at
        time.sleep(0.5)
    raise AssertionError(f"timed out waiting for {what}")


def _status(root) -> dict:
    [r] = runs.list_runs(root)
    return r.status or {}


def _texts(at) -> str:
    return " ".join(str(x.value) for kind in ("markdown", "caption", "warning", "info")
                    for x in getattr(at, kind))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_form_says_the_device_and_lists_every_hyperparameter(monkeypatch, tmp_path, runs_root,
                                                             lang):
    at = open_app(monkeypatch, None, tmp_path, PAGE, lang=lang)
    no_errors(at)
    assert at.info and ("CPU" in at.info[0].value or "GPU" in at.info[0].value)
    keys = {w.key for w in at.number_input}
    for k in ("d_model", "heads", "warmup", "lr_scale", "label_smoothing", "eval_every"):
        assert f"train_p_{k}" in keys
    # anaphora's measured defaults fill the form when that task is chosen
    at.session_state["train_task"] = "anaphora"  # (AppTest formats options in English)
    at.run()
    from transformer.train.settings import TASK_DEFAULTS
    want = TASK_DEFAULTS["anaphora"]
    assert want["vocab_size"] != TASK_DEFAULTS["copy"]["vocab_size"]  # so the switch shows
    assert at.number_input(key="train_p_vocab_size").value == want["vocab_size"]
    assert at.number_input(key="train_p_steps").value == want["steps"]


def test_train_stop_resume_and_the_cap(monkeypatch, tmp_path, runs_root):
    at = open_app(monkeypatch, None, tmp_path, PAGE)
    _configure(at)
    at.button(key="train_start").click().run()
    no_errors(at)
    name = at.query_params.get("run")
    name = name[0] if isinstance(name, list) else name
    assert name and (runs_root / name).is_dir(), name

    # metrics appear: a step count, the loss curve, an evaluation with sample outputs
    _rerun_until(at, lambda a: any(r.get("type") == "eval" for r in
                                   runs.read_metrics(runs_root / name)[0]), "an evaluation")
    at.run()
    assert at.get("plotly_chart"), "no charts"
    assert any("step" in m.label.lower() and m.value not in ("0", "–") for m in at.metric)
    assert at.table, "no sample outputs table"  # static tables: long outputs wrap

    # a second start while the first runs: the cap message names the running run
    _configure(at, seed=1)
    at.button(key="train_start").click().run()
    assert any(name in w.value for w in at.warning), [w.value for w in at.warning]
    assert len(runs.list_runs(runs_root)) == 1

    # STOP: the run saves and ends; its checkpoint is listed
    at.button(key="train_stop").click().run()
    _rerun_until(at, lambda a: _status(runs_root).get("state") == "stopped", "stopped")
    at.run()
    stopped_at = _status(runs_root)["step"]
    assert "last" in runs.checkpoints(runs_root / name)
    assert any("last" in str(df.value) for df in at.dataframe)

    # Resume: the same run continues past its previous step
    at.button(key="train_resume").click().run()
    no_errors(at)
    _rerun_until(at, lambda a: (_status(runs_root).get("step") or 0) > stopped_at + 5,
                 "the resumed run to pass its previous step")
    assert _status(runs_root).get("state") in ("running", "evaluating", "saving")
    at.button(key="train_stop").click().run()
    _rerun_until(at, lambda a: _status(runs_root).get("state") == "stopped", "stopped again")

    # a checkpoint opens in the other pages: it becomes the session's model
    at.run()
    at.button(key="train_ck_open").click().run()
    assert at.session_state["ckpt_path"].startswith(str(runs_root / name / "checkpoints"))
    assert not at.exception, [e.value for e in at.exception]


# -- the form's choices, in both languages, and what it says of the shipped pronoun heads ---------
SHIPPED = ROOT / "checkpoints"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_form_follows_the_task_and_the_preset(monkeypatch, tmp_path, runs_root, lang):
    """A task fills in its measured defaults (preset, steps, a checkpoint at every evaluation, 10
    step checkpoints kept, so Attention across training has steps to show); a preset changes the
    model's shape; what the task is, is said under the choice."""
    from transformer.core.config import PRESETS
    from transformer.train.settings import TASK_DEFAULTS
    from ui import i18n
    from ui.strings import train as S

    at = open_pinned(monkeypatch, None, tmp_path, PAGE, lang=lang)
    no_errors(at)
    for task in ("reverse", "sort", "anaphora"):
        at.session_state["train_task"] = task  # (AppTest formats options in English)
        rerun(at)
        no_errors(at)
        want = TASK_DEFAULTS[task]
        assert at.radio(key="train_preset").value == want["preset"]
        assert at.number_input(key="train_p_steps").value == want["steps"]
        assert at.number_input(key="train_p_checkpoint_every").value == want["eval_every"]
        assert at.number_input(key="train_p_keep_checkpoints").value == 10
        about = i18n.text(S, f"about_{task}", lang)
        assert any(c.value.startswith(about) for c in at.caption), task
    at.session_state["train_preset"] = "small"
    rerun(at)
    no_errors(at)
    assert at.number_input(key="train_p_d_model").value == PRESETS["small"]["d_model"]
    assert at.number_input(key="train_p_heads").value == PRESETS["small"]["n_heads"]


def _supervised(name: str) -> set[str]:
    """The heads a shipped checkpoint's training supervised (config.json), as labels."""
    from transformer.core.names import Head

    cfg = json.loads((SHIPPED / name / "config.json").read_text())
    spec = cfg["train"]["extra"]["supervise"]["head"]
    return {Head.parse(s, form="cli").label for s in spec.split(",")}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_train_page_says_where_the_shipped_pronoun_heads_are_as_their_cards_do(
        monkeypatch, tmp_path, runs_root, lang):
    """Issue 50, 3b: the Train page said the shipped model's pronoun head was in the decoder, the
    Attention page (on the default model, everyday-en-de) that it was in the encoder. Both now read
    the cards: everyday-en-de's two taught heads (encoder L2 H0 and decoder L2 H6, as its
    config.json supervises them) and anaphora-en-de's decoder L1 H3."""
    from ui import pronoun_heads

    at = open_pinned(monkeypatch, SHIPPED, tmp_path, PAGE, lang=lang)
    at.session_state["train_task"] = "anaphora"
    rerun(at)
    no_errors(at)
    [about] = [c.value for c in at.caption if "everyday-en-de" in c.value]
    default = _supervised("everyday-en-de")
    assert default == {"enc L2 H0", "dec L2 H6"}  # the premise: the default's config.json
    _, featured = pronoun_heads.heads_of("everyday-en-de")
    assert {h.label for h in featured} == default  # what the Attention page's box reads
    for label in default | _supervised("anaphora-en-de"):
        assert label in about
    if lang == "en":
        assert "the shipped model's is in the decoder" not in about
        assert ("everyday-en-de, has its pronoun heads in encoder self-attention (layer 2, head 0"
                in about) and "masked decoder self-attention (layer 2, head 6" in about
        assert "anaphora-en-de has its pronoun head in masked decoder self-attention (layer 1, " \
               "head 3" in about
        assert "antecedent (the noun phrase a pronoun stands for)" in about
    else:
        assert "编码器自注意力（第 2 层，头 0" in about and "带掩码的解码器自注意力（第 2 层，头 6" in about
        assert "先行词（代词所代表的名词短语）" in about
