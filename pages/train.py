"""Train: choose data and a model, start `python -m transformer.train` as a child process in its own
run directory, watch it (loss, schedule, samples, checkpoints), stop, resume. ?run=NAME watches a
run (so a refresh keeps it); every browser sees every run, because the runs are on disk."""
from ui.deeplink import ensure_app; ensure_app()  # a direct deep link runs app.py (ui/deeplink.py)
import os

import streamlit as st

from transformer import runs
from transformer.config import PRESETS
from transformer.data import CorpusError
from transformer.disk_budget import DiskBudgetError
from transformer.train import SYNTHETIC, TASK_DEFAULTS
from ui import i18n, models, roles, runs_ui, train_form
from ui.strings import roles as role_strings
from ui.strings import train as strings
from viz import training as vt

t = i18n.translator(strings)
rt = i18n.translator(role_strings)
ft = runs_ui.frozen_translator(strings)  # for format_func
SAMPLE_ROWS = 6  # evaluations shown per sample sentence before "older evaluations"

st.title(t("title"))
st.caption(t("intro"))

# -- the device, said plainly ---------------------------------------------------------------------
dev = runs_ui.device_info()
cap = runs_ui.max_concurrent()
if dev["device"] == "cuda":
    st.success(t("device_gpu", name=dev["name"], n=dev["count"], cap=cap))
else:
    st.info(t("device_cpu", cores=dev["cores"], threads=runs_ui.train_threads(), cap=cap))


def busy_text(who: list[dict]) -> str:
    lines = [t("busy_head", n=len(who), cap=cap)]
    for w in who:
        total = w["total"] if w["total"] else "?"
        lines.append(t("busy_line", name=w["name"], task=w["task"], step=w["step"], total=total,
                       eta=vt.format_duration(w["eta_s"])))
    lines.append(t("busy_tail"))
    return "  \n".join(lines)


# ================================================================================= start a run
TASKS = list(SYNTHETIC)
m30k = runs_ui.multi30k_dir()
if m30k is not None:
    TASKS.append("multi30k")
TASKS.append("upload")

def start_form() -> None:
    c1, c2 = st.columns(2)
    task = c1.selectbox(t("task"), TASKS, key="train_task", format_func=lambda k: ft(f"task_{k}"),
                        help=t("task_help"))
    td = TASK_DEFAULTS[train_form.trainer_task(task)]
    presets = sorted(PRESETS, key=lambda p: PRESETS[p]["d_model"])
    if st.session_state.get("train_task_seen") != task:  # a new task: its preset by default
        st.session_state["train_preset"] = td["preset"]
        st.session_state["train_task_seen"] = task
    # a radio, whose options are markdown: the Chinese labels gloss the preset's name as code
    preset = c2.radio(t("preset"), presets, key="train_preset", help=t("preset_help"),
                      format_func=lambda p: ft(f"preset_{p}"))
    st.caption(t(f"about_{task}"))

    files, data_flags = [], {}
    if task == "upload":
        mode = st.radio(t("upload_mode"), ["tsv", "pair"], key="train_upload_mode",
                        horizontal=True, format_func=lambda m: ft(f"upload_{m}"))
        if mode == "tsv":
            files = [st.file_uploader(t("upload_tsv_file"), type=["tsv", "txt"],
                                      key="train_up_tsv", help=t("upload_limit",
                                                                 mb=runs_ui.MAX_CORPUS_MB))]
        else:
            u1, u2 = st.columns(2)
            files = [u1.file_uploader(t("upload_src_file"), type=["txt"], key="train_up_src"),
                     u2.file_uploader(t("upload_tgt_file"), type=["txt"], key="train_up_tgt")]
            st.caption(t("upload_limit", mb=runs_ui.MAX_CORPUS_MB))
        if any(f is None for f in files):
            files = []
        elif runs_ui.too_big(files):
            st.error(t("upload_too_big", name=runs_ui.md_escape(runs_ui.too_big(files)),
                       mb=runs_ui.MAX_CORPUS_MB))
            files = []
        else:
            n, err = runs_ui.check_corpus(files)
            if err:
                st.error(t("upload_bad", reason=runs_ui.md_escape(err)))
                files = []
            else:
                st.success(t("upload_ok", n=n))
    elif task == "multi30k":
        l1, l2 = st.columns(2)
        src_lang = l1.selectbox(t("src_lang"), ["en", "de", "fr"], key="train_src_lang")
        tgt_lang = l2.selectbox(t("tgt_lang"), ["de", "en", "fr"], key="train_tgt_lang")
        data_flags = {"--data-dir": str(m30k), "--src-lang": src_lang, "--tgt-lang": tgt_lang}
        st.caption(t("m30k_found", path=str(m30k)))

    # Defaults follow the task and the preset until the user changes them.
    sig = (task, preset)
    fields = train_form.fields(task, preset)
    if st.session_state.get("train_defaults_for") != sig:
        for f in fields:
            st.session_state[f"train_p_{f.name}"] = f.default
        st.session_state["train_p_device"] = "auto"
        st.session_state["train_defaults_for"] = sig

    with st.expander(t("advanced"), expanded=False):
        st.caption(t("advanced_help"))
        for group in ("model", "train"):
            st.markdown(f"**{t('group_' + group)}**")
            cols = st.columns(3)
            in_group = [f for f in fields if f.group == group]
            for i, f in enumerate(in_group):
                box, key, label = cols[i % 3], f"train_p_{f.name}", t(f"l_{f.name}")
                if f.kind == "bool":
                    box.checkbox(label, key=key)
                elif f.kind == "int":
                    box.number_input(label, key=key, min_value=0, step=1)
                else:
                    box.number_input(label, key=key, min_value=0.0, step=0.05, format="%.4g")
                box.caption(t(f"h_{f.name}"))
            if group == "train":
                box = cols[len(in_group) % 3]
                box.radio(t("l_device"), ["auto", "cpu", "cuda"], key="train_p_device",
                          horizontal=True, format_func=lambda d: ft(f"dev_{d}"))
                box.caption(t("h_device"))

    p = {f.name: st.session_state[f"train_p_{f.name}"] for f in fields}
    total = p["steps"] if not p.get("epochs") else None
    try:
        st.plotly_chart(vt.lr_figure(total or 1000, int(p["d_model"]), int(p["warmup"]),
                                     float(p["lr_scale"]) or 1.0, labels=lr_labels(),
                                     height=240), key="train_lr_preview")
        st.caption(t("lr_preview") if total else t("lr_preview_epochs"))
    except ValueError:
        pass

    args = train_form.argv(task, preset, fields, p, data_flags,
                           st.session_state["train_p_device"])

    who = runs_ui.busy()
    if len(who) >= cap:
        st.warning(busy_text(who))
    if st.button(t("start"), type="primary", key="train_start",
                 disabled=task == "upload" and not files):
        start(task, args, files)
    if st.session_state.get("train_error"):
        st.error(st.session_state.pop("train_error"))


def start(task: str, args: list[str], files: list) -> None:
    name = runs_ui.new_run_name(task)
    path = models.runs_dir() / name
    try:
        roles.require("run.start", None, name)
        if files:
            roles.require("upload.corpus", None, name)
        # the disk budget: room for the corpus (students' old artefacts evicted), or a refusal
        with runs_ui.reserve(sum(f.size for f in files), name):
            if files:
                flags, _ = runs_ui.write_corpus(path / "data", files)
                for k, v in flags.items():
                    args = args + [k, v]
        runs_ui.start_run(name, args)
    except PermissionError as e:
        runs_ui.remove_failed_launch(path)
        st.error(rt("refused", reason=str(e)))
        return
    except DiskBudgetError as e:
        runs_ui.remove_failed_launch(path)
        st.error(runs_ui.md_escape(runs_ui.budget_message(e)))
        return
    except runs.RunError:
        runs_ui.remove_failed_launch(path)
        st.warning(busy_text(runs_ui.busy()))
        return
    except CorpusError as e:
        runs_ui.remove_failed_launch(path)
        st.error(t("upload_bad", reason=runs_ui.md_escape(str(e))))
        return
    runs_ui.watch(name)
    st.rerun()


def lr_labels() -> dict:
    return {"title": t("lr_title"), "x": t("step"), "y": t("lr"), "schedule": t("lr_schedule"),
            "now": t("lr_now"), "peak": t("lr_peak"), "recorded": t("lr_recorded")}


# ================================================================================= watch a run
def state_of(path, status) -> str:
    if status is None:
        return "starting"
    return runs.RunInfo(path.name, path, status, []).state


def monitor(name: str, active_at_start: bool, n_ckpt_at_start: int) -> None:
    try:
        runs_ui.pump_queue()  # every poll: a queued student run starts when the slot frees
    except OSError:
        pass
    path = runs_ui.run_dir(name)
    if path is None:
        st.warning(t("run_gone", name=name))
        return
    status = runs.read_status(path)
    state = state_of(path, status)
    status = status or {}
    train, evals, cks = vt.split_records(runs_ui.metrics(path))
    step, total = status.get("step") or 0, status.get("total_steps")

    task = status.get("task", "?")
    task_key = "task_" + {"tsv": "upload"}.get(task, task)  # the task's name in the UI's language
    st.markdown(t("run_state", name=name, state=t(f"state_{state}"),
                  task=t(task_key) if task_key in strings.EN else task))
    said = vt.status_message(status.get("message"))
    if said:
        st.caption(runs_ui.md_escape(t(said[0], **said[1])))
    st.progress(vt.progress(status), text=t("progress", step=step, total=total or "?"))
    c = st.columns(4)
    c[0].metric(t("m_step"), f"{step:,}")
    tps = status.get("tokens_per_s")
    c[1].metric(t("m_tps"), f"{tps:,.0f}" if tps else "–")
    c[2].metric(t("m_eta"), vt.format_duration(status.get("eta_s")) if state in (
        "running", "evaluating", "saving") else "–")
    key = vt.score_name(evals)
    if evals and key:
        v = evals[-1].get(key)
        c[3].metric(t(f"metric_{key}"), "–" if v is None else
                    (f"{v:.1f}" if key == "bleu" else f"{v:.1%}"))
    else:
        c[3].metric(t("m_score"), "–")
    if state in ("failed", "dead"):
        st.error(t(f"why_{state}", reason=status.get("last_error") or "?"))
        log = runs.tail_log(path, 3000)
        if log:
            with st.expander(t("log")):
                st.code(log, language=None)

    # -- buttons: stop / resume / train longer ---------------------------------------------------
    active = state in ("starting", "running", "evaluating", "saving")
    has_last = "last" in runs.checkpoints(path)
    b1, b2 = st.columns([1, 3])
    who = runs_ui.owner(path)  # the buttons are drawn only for who may use them (ui.roles)
    if active:
        stopping = runs.stop_requested(path)
        if roles.can("run.stop", who) and b1.button(t("stop"), key="train_stop",
                                                    disabled=stopping, help=t("stop_help")):
            try:
                runs_ui.stop_run(name)
                stopping = True
            except (PermissionError, runs.RunError) as e:
                st.error(rt("refused", reason=str(e)))
        if stopping:
            b2.info(t("stopping"))
    elif not roles.can("run.resume", who):
        pass
    elif state in ("stopped", "failed", "dead") and has_last:
        if b1.button(t("resume"), key="train_resume", type="primary", help=t("resume_help")):
            resume(name, ["--resume"])
    elif state == "finished" and has_last:
        more = b2.number_input(t("more_steps"), min_value=1, value=max(100, (total or 0) // 2),
                               step=100, key="train_more")
        if b1.button(t("train_longer"), key="train_longer", help=t("train_longer_help")):
            resume(name, ["--resume", "--steps", str((total or step) + int(more))])
    if st.session_state.get("train_resume_msg"):
        st.warning(st.session_state.pop("train_resume_msg"))

    # -- curves ------------------------------------------------------------------------------------
    o1, o2 = st.columns(2)
    log_y = o1.toggle(t("log_scale"), key="train_log", help=t("log_scale_help"))
    sm = o2.slider(t("smoothing"), 0.0, 0.98, 0.8, 0.02, key="train_smooth",
                   help=t("smoothing_help"))
    if train:
        st.plotly_chart(vt.loss_figure(
            train, evals, smoothing=sm, log_y=log_y,
            checkpoint_steps=[r["step"] for r in cks],
            labels={"title": t("loss_title"), "x": t("step"), "y": t("loss"),
                    "raw": t("loss_raw"), "smoothed": t("loss_smooth"), "val": t("loss_val"),
                    "checkpoints": t("checkpoints")}), key="train_loss_fig")
        st.caption(t("loss_caption"))
    else:
        st.info(t("no_metrics_yet"))
    s = runs_ui.settings(path, status)
    if s is not None and (s.total_steps or total):
        st.plotly_chart(vt.lr_figure(total or s.total_steps, s.d_model, s.warmup, s.lr_scale,
                                     current_step=step, recorded=train, labels=lr_labels()),
                        key="train_lr_fig")
        st.caption(t("lr_caption", d=s.d_model, w=s.warmup, k=s.lr_scale))
    fig = vt.metrics_figure(evals, labels={
        "title": t("scores_title"), "x": t("step"), "y": t("accuracy"), "bleu": t("metric_bleu"),
        **{k: t(f"metric_{k}") for k in vt.ACC_METRICS}})
    if fig is not None:
        st.plotly_chart(fig, key="train_scores_fig")
        st.caption(t("scores_caption"))

    # -- sample translations at every evaluation ---------------------------------------------------
    st.subheader(t("samples"))
    hist = vt.sample_histories(evals, columns={"step": t("step"), "hyp": t("hyp"), "ok": t("ok")},
                               marks=(t("mark_ok"), t("mark_bad")))
    if hist:
        st.caption(t("samples_help"))
        cols = st.columns(min(len(hist), 3))
        for j, (src, ref, df) in enumerate(hist):
            with cols[j % len(cols)]:
                st.markdown(f"**{t('src')}:** {runs_ui.md_escape(src)}  \n"
                            f"**{t('ref')}:** {runs_ui.md_escape(ref)}")
                # a static table wraps long outputs instead of cutting them; its cells are
                # markdown, so the model's text is escaped
                df[t("hyp")] = df[t("hyp")].map(runs_ui.md_escape)
                st.table(df.head(SAMPLE_ROWS), hide_index=True)
                if len(df) > SAMPLE_ROWS:
                    with st.expander(t("samples_older", n=len(df) - SAMPLE_ROWS)):
                        st.table(df.iloc[SAMPLE_ROWS:], hide_index=True)
    else:
        st.caption(t("no_samples"))

    now_active = state in ("starting", "running", "evaluating", "saving")
    n_ckpt = len(runs.checkpoints(path))
    if st.session_state.get("train_fragment_rerun") and (now_active != active_at_start
                                                          or n_ckpt != n_ckpt_at_start):
        st.rerun()  # the whole page: the polling rate and the checkpoint list change
    st.session_state["train_fragment_rerun"] = True


def resume(name: str, args: list[str]) -> None:
    try:
        runs_ui.resume_run(name, args)
    except PermissionError as e:
        st.session_state["train_resume_msg"] = rt("refused", reason=str(e))
        return
    except runs.RunError:
        st.session_state["train_resume_msg"] = busy_text(runs_ui.busy())
        return
    st.rerun()


def delete(name: str) -> None:
    """The delete button's callback (before the page is drawn: the run list is read afresh)."""
    try:
        runs_ui.delete_run(name)
    except (PermissionError, runs.RunError) as e:
        st.session_state["train_delete_msg"] = ("error", rt("refused", reason=str(e)))
        return
    st.session_state["train_delete_msg"] = ("success", rt("deleted", name=name))
    runs_ui.watch(None)
    st.session_state.pop("train_pick", None)


def delete_button(name: str) -> None:
    path = runs_ui.run_dir(name)
    if path is None:
        return
    info = runs.RunInfo(name, path, runs.read_status(path), [])
    if info.active or not roles.can("run.delete", runs_ui.owner(path)):
        return
    st.button(rt("delete"), key="train_delete", on_click=delete, args=(name,),
              help=rt("delete_help"))


def sandbox_form() -> None:
    """A student's own small run, queued (transformer.run_queue), when the teacher allows it."""
    from transformer import run_queue
    from transformer.train import SYNTHETIC

    cfg = runs_ui.classroom()
    st.markdown(f"**{rt('sb_title')}**")
    preset = cfg["preset"]
    st.caption(rt("sb_caption", preset=t(f"pname_{preset}") if f"pname_{preset}" in strings.EN
                  else preset, steps=cfg["max_steps"]))
    task = st.selectbox(rt("sb_task"), list(SYNTHETIC), key="train_sb_task",
                        format_func=lambda k: ft(f"task_{k}"))
    if st.button(rt("sb_go"), key="train_sb_go", type="primary"):
        try:
            name, place = runs_ui.submit_sandbox(task)
            if place is None:
                runs_ui.watch(name)
                st.rerun()
        except (PermissionError, run_queue.QueueError, runs.RunError) as e:
            st.error(rt("refused", reason=str(e)))
    for name, n in runs_ui.my_queued():
        st.info(rt("sb_place", name=name, n=n))


def audit_section() -> None:
    """The teacher's view of runs/audit.jsonl and the student-runs switch (only when a teacher
    token is set)."""
    if roles.role() != "teacher":
        return
    from transformer import audit

    cfg = runs_ui.classroom()
    c1, c2 = st.columns(2)
    on = c1.toggle(rt("sb_off"), value=cfg["sandbox"], key="train_sb_on", help=rt("sb_off_help"))
    steps = c2.number_input(rt("sb_steps"), min_value=10, max_value=100000,
                            value=int(cfg["max_steps"]), step=50, key="train_sb_steps")
    if on != cfg["sandbox"] or int(steps) != cfg["max_steps"]:
        runs_ui.set_classroom(sandbox=on, max_steps=int(steps))

    with st.expander(rt("audit")):
        events = audit.read(models.runs_dir(), 200)
        if not events:
            st.caption(rt("audit_empty"))
        else:
            st.dataframe([{k: e.get(k) for k in ("iso", "actor", "action", "target", "outcome",
                                                 "reason")} for e in events],
                         hide_index=True, key="train_audit_table")


def open_checkpoint(path: str) -> None:
    st.session_state[models.SESSION_KEY] = path
    st.session_state["train_open"] = True


def checkpoint_section(name: str) -> None:
    path = runs_ui.run_dir(name)
    if path is None:
        return
    st.subheader(t("checkpoints"))
    entries = runs_ui.checkpoint_entries(path)
    if not entries:
        st.caption(t("no_checkpoints"))
        return
    _, evals, cks = vt.split_records(runs_ui.metrics(path))
    key = vt.score_name(evals)
    df = vt.checkpoint_table(entries, evals, cks, columns={
        "name": t("ck_name"), "step": t("step"), "val_loss": t("loss_val"),
        "score": t(f"metric_{key}") if key else t("m_score"), "size_mb": t("ck_size"),
        "best": t("ck_best")})
    st.dataframe(df, hide_index=True, key="train_ck_table")
    c1, c2 = st.columns([2, 1])
    by_name = {e["name"]: e["path"] for e in entries}
    pick = c1.selectbox(t("ck_pick"), list(by_name), key=f"train_ck_pick_{name}",
                        index=list(by_name).index("best") if "best" in by_name else 0)
    c2.button(t("ck_open"), key="train_ck_open", on_click=open_checkpoint, args=(by_name[pick],),
              help=t("ck_open_help"))


if st.session_state.pop("train_open", False):
    st.switch_page("pages/attention.py")

try:
    runs_ui.pump_queue()  # a queued student run starts here when the slot has freed
except OSError:
    pass

# -- which run this browser watches ------------------------------------------------------------------
all_runs = runs.list_runs(models.runs_dir())
watched = runs_ui.current_run()
if watched is None and all_runs and "train_pick" not in st.session_state:
    # A first visit: show what is training now (else the newest run), as a class would expect.
    watched = next((r.name for r in all_runs if r.active), all_runs[0].name)
names = [r.name for r in all_runs]
if watched and watched not in names:
    names.insert(0, watched)  # just launched: no status.json yet
if watched:
    runs_ui.watch(watched)  # keep it in the URL
labels = {r.name: t("run_label", name=r.name, state=t(f"state_{r.state}"),
                    step=(r.status or {}).get("step") or 0) for r in all_runs}

with st.expander(t("new_run"), expanded=watched is None):
    if roles.can("run.start"):
        start_form()
    elif runs_ui.classroom()["sandbox"]:
        sandbox_form()
    else:
        st.info(rt("student_no_start"))
audit_section()
msg = st.session_state.pop("train_delete_msg", None)
if msg:
    getattr(st, msg[0])(msg[1])

st.divider()
st.subheader(t("runs"))
if not names:
    st.info(t("no_runs"))
    st.stop()
st.session_state["train_pick"] = watched if watched in names else None
st.selectbox(t("watch"), names, key="train_pick", placeholder=t("watch_none"),
             format_func=lambda n: labels.get(n, n), help=t("watch_help"),
             on_change=lambda: runs_ui.watch(st.session_state.get("train_pick")))
if not watched:
    st.stop()

status0 = runs.read_status(models.runs_dir() / watched)
active0 = state_of(models.runs_dir() / watched, status0) in ("starting", "running", "evaluating",
                                                               "saving")
n_ck0 = len(runs.checkpoints(models.runs_dir() / watched))
st.session_state["train_fragment_rerun"] = False
poll = float(os.environ.get("ATTENTION_LAB_POLL_S", "2"))
st.fragment(run_every=poll if active0 else None)(monitor)(watched, active0, n_ck0)
checkpoint_section(watched)
delete_button(watched)
