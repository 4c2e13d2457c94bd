"""The Train page's watching of one run: which run this browser watches (?run=NAME), the polled
monitor (state, progress, stop / resume / train longer, curves, sample translations), the run's
checkpoints (open one on the Attention page) and its delete button. Widget keys are prefixed
`train_`."""
from __future__ import annotations

import os

import streamlit as st

from transformer.ops import runs
from ui import i18n, models
from ui.serving import places, roles, run_actions, run_files
from ui.strings import roles as role_strings
from ui.strings import train as strings
from ui.train_start import busy_text, lr_labels
from viz import training as vt

t = i18n.translator(strings)
rt = i18n.translator(role_strings)
SAMPLE_ROWS = 6  # evaluations shown per sample sentence before "older evaluations"
ACTIVE = ("starting", "running", "evaluating", "saving")


def state_of(path, status) -> str:
    if status is None:
        return "starting"
    return runs.RunInfo(path.name, path, status, []).state


def pump() -> None:
    """A queued student run starts when the slot has freed."""
    try:
        run_actions.pump_queue()
    except OSError:
        pass


def pick_run() -> tuple[list, str | None]:
    """The runs on disk and the one this browser watches (kept in the URL)."""
    all_runs = runs.list_runs(places.runs_dir())
    watched = run_files.current_run()
    if watched is None and all_runs and "train_pick" not in st.session_state:
        # A first visit: show what is training now (else the newest run), as a class would expect.
        watched = next((r.name for r in all_runs if r.active), all_runs[0].name)
    if watched:
        run_files.watch(watched)  # keep it in the URL
    return all_runs, watched


def run_picker(all_runs: list, watched: str | None) -> None:
    """The run list's selectbox; stops the page when there is no run, or none is watched."""
    names = [r.name for r in all_runs]
    if watched and watched not in names:
        names.insert(0, watched)  # just launched: no status.json yet
    labels = {r.name: t("run_label", name=r.name, state=t(f"state_{r.state}"),
                        step=(r.status or {}).get("step") or 0) for r in all_runs}
    st.subheader(t("runs"))
    if not names:
        st.info(t("no_runs"))
        st.stop()
    st.session_state["train_pick"] = watched if watched in names else None
    st.selectbox(t("watch"), names, key="train_pick", placeholder=t("watch_none"),
                 format_func=lambda n: labels.get(n, n), help=t("watch_help"),
                 on_change=lambda: run_files.watch(st.session_state.get("train_pick")))
    if not watched:
        st.stop()


def watch_section(watched: str) -> None:
    """The monitor, polled while the run is active, then the checkpoints and the delete button."""
    status0 = runs.read_status(places.runs_dir() / watched)
    active0 = state_of(places.runs_dir() / watched, status0) in ACTIVE
    n_ck0 = len(runs.checkpoints(places.runs_dir() / watched))
    st.session_state["train_fragment_rerun"] = False
    poll = float(os.environ.get("ATTENTION_LAB_POLL_S", "2"))
    st.fragment(run_every=poll if active0 else None)(monitor)(watched, active0, n_ck0)
    checkpoint_section(watched)
    delete_button(watched)


def _headline(name: str, path, status: dict, state: str, evals: list) -> None:
    """The run's state, its message, progress and four metrics; the log when it failed."""
    step, total = status.get("step") or 0, status.get("total_steps")
    task = status.get("task", "?")
    task_key = "task_" + {"tsv": "upload"}.get(task, task)  # the task's name in the UI's language
    st.markdown(t("run_state", name=name, state=t(f"state_{state}"),
                  task=t(task_key) if task_key in strings.EN else task))
    said = vt.status_message(status.get("message"))
    if said:
        st.caption(run_files.md_escape(t(said[0], **said[1])))
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


def _buttons(name: str, path, state: str, step: int, total) -> None:
    """Stop / resume / train longer, drawn only for who may use them (ui.serving.roles)."""
    active = state in ACTIVE
    has_last = "last" in runs.checkpoints(path)
    b1, b2 = st.columns([1, 3])
    who = run_files.owner(path)
    if active:
        stopping = runs.stop_requested(path)
        if roles.can("run.stop", who) and b1.button(t("stop"), key="train_stop",
                                                    disabled=stopping, help=t("stop_help")):
            try:
                run_actions.stop_run(name)
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


def _curves(path, status: dict, train: list, evals: list, cks: list) -> None:
    """Loss (smoothed, log scale at will), the learning-rate schedule, the scores."""
    step, total = status.get("step") or 0, status.get("total_steps")
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
    s = run_files.settings(path, status)
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


def _samples(evals: list) -> None:
    """Sample translations at every evaluation."""
    st.subheader(t("samples"))
    hist = vt.sample_histories(evals, columns={"step": t("step"), "hyp": t("hyp"), "ok": t("ok")},
                               marks=(t("mark_ok"), t("mark_bad")))
    if not hist:
        st.caption(t("no_samples"))
        return
    st.caption(t("samples_help"))
    cols = st.columns(min(len(hist), 3))
    for j, (src, ref, df) in enumerate(hist):
        with cols[j % len(cols)]:
            st.markdown(f"**{t('src')}:** {run_files.md_escape(src)}  \n"
                        f"**{t('ref')}:** {run_files.md_escape(ref)}")
            # a static table wraps long outputs instead of cutting them; its cells are
            # markdown, so the model's text is escaped
            df[t("hyp")] = df[t("hyp")].map(run_files.md_escape)
            st.table(df.head(SAMPLE_ROWS), hide_index=True)
            if len(df) > SAMPLE_ROWS:
                with st.expander(t("samples_older", n=len(df) - SAMPLE_ROWS)):
                    st.table(df.iloc[SAMPLE_ROWS:], hide_index=True)


def monitor(name: str, active_at_start: bool, n_ckpt_at_start: int) -> None:
    pump()  # every poll: a queued student run starts when the slot frees
    path = run_files.run_dir(name)
    if path is None:
        st.warning(t("run_gone", name=name))
        return
    status = runs.read_status(path)
    state = state_of(path, status)
    status = status or {}
    train, evals, cks = vt.split_records(run_files.metrics(path))
    _headline(name, path, status, state, evals)
    _buttons(name, path, state, status.get("step") or 0, status.get("total_steps"))
    _curves(path, status, train, evals, cks)
    _samples(evals)

    now_active = state in ACTIVE
    n_ckpt = len(runs.checkpoints(path))
    if st.session_state.get("train_fragment_rerun") and (now_active != active_at_start
                                                          or n_ckpt != n_ckpt_at_start):
        st.rerun()  # the whole page: the polling rate and the checkpoint list change
    st.session_state["train_fragment_rerun"] = True


def resume(name: str, args: list[str]) -> None:
    try:
        run_actions.resume_run(name, args)
    except PermissionError as e:
        st.session_state["train_resume_msg"] = rt("refused", reason=str(e))
        return
    except runs.RunError:
        st.session_state["train_resume_msg"] = busy_text(run_actions.busy())
        return
    st.rerun()


def delete(name: str) -> None:
    """The delete button's callback (before the page is drawn: the run list is read afresh)."""
    try:
        run_actions.delete_run(name)
    except (PermissionError, runs.RunError) as e:
        st.session_state["train_delete_msg"] = ("error", rt("refused", reason=str(e)))
        return
    st.session_state["train_delete_msg"] = ("success", rt("deleted", name=name))
    run_files.watch(None)
    st.session_state.pop("train_pick", None)


def show_delete_message() -> None:
    msg = st.session_state.pop("train_delete_msg", None)
    if msg:
        getattr(st, msg[0])(msg[1])


def delete_button(name: str) -> None:
    path = run_files.run_dir(name)
    if path is None:
        return
    info = runs.RunInfo(name, path, runs.read_status(path), [])
    if info.active or not roles.can("run.delete", run_files.owner(path)):
        return
    st.button(rt("delete"), key="train_delete", on_click=delete, args=(name,),
              help=rt("delete_help"))


def open_checkpoint(path: str) -> None:
    st.session_state[models.SESSION_KEY] = path
    st.session_state["train_open"] = True


def follow_open() -> None:
    """After "open" on a checkpoint (`open_checkpoint`), go to the Attention page with it."""
    if st.session_state.pop("train_open", False):
        st.switch_page("pages/attention.py", query_params=i18n.in_address())


def checkpoint_section(name: str) -> None:
    path = run_files.run_dir(name)
    if path is None:
        return
    st.subheader(t("checkpoints"))
    entries = run_files.checkpoint_entries(path)
    if not entries:
        st.caption(t("no_checkpoints"))
        return
    _, evals, cks = vt.split_records(run_files.metrics(path))
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
