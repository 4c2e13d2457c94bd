"""The Train page watching a run that already ended (no child process): a run directory is put
together from the shipped anaphora run's records, stopped from the page (status message
"STOP file"), with a sample output longer than any table column.

Checks what issue 11 found: the status said "STOP file" (an internal name); the checkpoint table
showed "None"; sample outputs were cut; the validation curves lay on top of each other.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from app_helpers import no_errors, open_app
from ui import i18n
from ui.strings import train as S
from viz import training as vt

PAGE = "pages/train.py"
SHIPPED_RUN = Path(__file__).resolve().parents[1] / "checkpoints" / "runs" / "anaphora-en-de"
NAME = "anaphora-stopped"
LONG = " ".join(["Der Hund sah die Katze , weil er hungrig war ."] * 8)  # 375 characters


def make_run(root: Path, message: str = "STOP file") -> Path:
    run = root / NAME
    (run / "checkpoints").mkdir(parents=True)
    recs = [json.loads(line) for line in (SHIPPED_RUN / "metrics.jsonl").read_text().splitlines()]
    for r in recs:
        if r["type"] == "eval" and r["step"] == 1200:
            r["samples"][0]["hyp"] = LONG
    (run / "metrics.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    status = json.loads((SHIPPED_RUN / "status.json").read_text())
    status.update(state="stopped", message=message, pid=None)
    (run / "status.json").write_text(json.dumps(status))
    cfg = SHIPPED_RUN / "checkpoints" / "step-001200" / "config.json"
    for name in ("step-000150", "step-000300", "last"):  # 150: between evaluations
        (run / "checkpoints" / name).mkdir()
        shutil.copy(cfg, run / "checkpoints" / name / "config.json")
    return run


def _open(monkeypatch, tmp_path, lang):
    make_run(tmp_path / "runs")
    at = open_app(monkeypatch, None, tmp_path, lang=lang)
    at.query_params["run"] = NAME
    at.switch_page(PAGE)
    at.session_state["lang"] = lang
    at.run()
    no_errors(at)
    return at


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_stopped_run_reads_plainly(monkeypatch, tmp_path, lang):
    monkeypatch.setattr(i18n, "lang", lambda: lang)
    at = _open(monkeypatch, tmp_path, lang)
    table = i18n.sentences(S, lang)
    captions = [c.value for c in at.caption]
    text = " ".join(captions + [m.value for m in at.markdown])
    assert "STOP" not in text
    assert any(m.value.startswith(f"**{NAME}** · {table['task_anaphora']} · ") for m in at.markdown)
    assert any(c.replace("\\", "") == table["msg_stopped_by_user"] for c in captions), captions

    # the checkpoint table: no None anywhere, a dash where there is no evaluation
    [ck] = [d for d in at.dataframe if "step-000150" in str(d.value)]
    df = ck.value
    cells = [v for row in df.itertuples(index=False) for v in row]
    assert not any(v is None or str(v) in ("None", "nan", "NaN") for v in cells), df
    row150 = df[df.iloc[:, 0] == "step-000150"].iloc[0]
    assert list(row150.iloc[2:4]) == ["–", "–"]
    row300 = df[df.iloc[:, 0] == "step-000300"].iloc[0]
    recs = [json.loads(line) for line in (SHIPPED_RUN / "metrics.jsonl").read_text().splitlines()]
    [ev300] = [r for r in recs if r["type"] == "eval" and r["step"] == 300]
    assert row300.iloc[2] == f"{ev300['val_loss']:.4f}"  # the evaluation at step 300 (metrics.jsonl)

    # sample outputs: static tables (they wrap), the long output whole
    shown = [t.value for t in at.table]
    assert shown, "no sample tables"
    steps = [int(v) for v in shown[0].iloc[:, 0]]
    assert steps == [1200, 900, 600, 300]  # newest first
    hyps = {str(v).replace("\\", "") for t in shown for v in t.iloc[:, 1]}  # markdown-escaped
    assert LONG in hyps
    assert {str(v) for t in shown for v in t.iloc[:, 2]} == {"✓", "✗"}


def test_status_messages_are_translated_with_their_numbers():
    assert vt.status_message("STOP file") == ("msg_stopped_by_user", {})
    assert vt.status_message("done") == ("msg_done", {})
    assert vt.status_message("signal SIGTERM") == ("msg_signal", {"sig": "SIGTERM"})
    key, fmt = vt.status_message("10000 training pairs (12 too long dropped), 500 validation, "
                                 "vocab 1000, 259,072 parameters")
    assert key == "msg_data" and fmt == {"pairs": 10000, "dropped": 12, "val": 500,
                                         "vocab": 1000, "params": 259072}
    key, fmt = vt.status_message("loss became nan at step 40; stopped. The last good ...")
    assert key == "msg_loss_nan" and fmt == {"value": "nan", "step": 40}
    assert vt.status_message("RuntimeError: boom") == ("msg_raw", {"text": "RuntimeError: boom"})
    assert vt.status_message(None) is None and vt.status_message("") is None
    for key in ("msg_stopped_by_user", "msg_stopped", "msg_signal", "msg_done", "msg_loading",
                "msg_data", "msg_loss_nan", "msg_weights_nan"):
        for table in (i18n.sentences(S, lang) for lang in i18n.LANGS):
            assert "STOP" not in table[key] and "file" not in table[key]


def _records():
    recs = [json.loads(line) for line in (SHIPPED_RUN / "metrics.jsonl").read_text().splitlines()]
    return vt.split_records(recs)


def test_validation_loss_has_a_panel_of_its_own():
    train, evals, cks = _records()
    fig = vt.loss_figure(train, evals, checkpoint_steps=[r["step"] for r in cks])
    raw, sm, val, ck = fig.data
    assert raw.yaxis == sm.yaxis == "y" and val.yaxis == ck.yaxis == "y2"
    assert raw.xaxis == "x" and val.xaxis == "x2" and fig.layout.xaxis.matches == "x2"
    assert fig.layout.yaxis.domain[0] > fig.layout.yaxis2.domain[1]  # one above the other
    assert list(val.y) == [r["val_loss"] for r in evals]
    assert max(ck.y) < min(val.y)  # the triangles under the validation points, not on them
    # no evaluation yet: one panel
    fig1 = vt.loss_figure(train, [], checkpoint_steps=[10])
    assert {tr.yaxis for tr in fig1.data} == {"y"} and "yaxis2" not in fig1.layout.to_plotly_json()
    # a marker line across both panels (the Across-training page)
    fig2 = vt.loss_figure(train, evals, marker_step=600)
    assert {(s.x0, s.yref) for s in fig2.layout.shapes} >= {(600, "y domain"), (600, "y2 domain")}


def test_each_validation_score_has_a_panel_of_its_own():
    _, evals, _ = _records()
    fig = vt.metrics_figure(evals, labels={k: f"<{k}>" for k in vt.ACC_METRICS})
    names = [tr.name for tr in fig.data]
    want = [k for k in vt.ACC_METRICS if any(r.get(k) is not None for r in evals)]
    assert len(want) == 5 and names == [f"&lt;{k}&gt;" for k in want]  # escaped for plotly
    axes = [(tr.xaxis, tr.yaxis) for tr in fig.data]
    assert len(set(axes)) == len(axes)  # no two series share a plot area
    titles = [a.text for a in fig.layout.annotations]
    assert titles[:5] == names
    for tr, k in zip(fig.data, want):
        assert list(tr.y) == [r.get(k) for r in evals]
        last = [t for t in tr.text if t]
        assert last == [f"{evals[-1][k]:.3f}"]  # the latest value written at its point
        ax = fig.layout[tr.yaxis.replace("y", "yaxis")]
        assert list(ax.range) == [0, 1.08]
    m30k = [{"step": 500, "val_acc": 0.42, "bleu": 13.5}, {"step": 1000, "val_acc": 0.53,
                                                          "bleu": 26.4}]
    fig = vt.metrics_figure(m30k, labels={"y": "accuracy", "bleu": "BLEU"})
    acc, bleu = fig.data
    assert acc.yaxis != bleu.yaxis
    assert fig.layout.yaxis.title.text == "accuracy" and fig.layout.yaxis2.range[1] >= 26.4
