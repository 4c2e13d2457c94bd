"""The Train page's "new run" section: the form that starts a run (its widgets from ui/train_form.py's
fields), the launch with its refusals, a student's queued sandbox run, and the teacher's switch and
audit log. Widget keys are prefixed `train_`."""
from __future__ import annotations

import streamlit as st

from transformer.core.config import PRESETS
from transformer.data.tasks import CorpusError
from transformer.ops import audit, run_queue, runs
from transformer.ops.disk_budget import DiskBudgetError
from transformer.probing.probe_items import PRONOUN_TASKS
from transformer.train.corpus import SYNTHETIC
from transformer.train.settings import TASK_DEFAULTS
from ui import choices
from ui import i18n, pronoun_heads, train_form
from ui.serving import places, roles, run_actions, run_files, server_guard
from ui.strings import roles as role_strings
from ui.strings import train as strings
from viz import training as vt

t = i18n.translator(strings)
rt = i18n.translator(role_strings)


def busy_text(who: list[dict]) -> str:
    """Who holds the training slots, for the warning shown when none is free."""
    lines = [t("busy_head", n=len(who), cap=run_actions.max_concurrent())]
    for w in who:
        total = w["total"] if w["total"] else "?"
        lines.append(t("busy_line", name=w["name"], task=w["task"], step=w["step"], total=total,
                       eta=vt.format_duration(w["eta_s"])))
    lines.append(t("busy_tail"))
    return "  \n".join(lines)


def lr_labels() -> dict:
    return {"title": t("lr_title"), "x": t("step"), "y": t("lr"), "schedule": t("lr_schedule"),
            "now": t("lr_now"), "peak": t("lr_peak"), "recorded": t("lr_recorded")}


def device_banner() -> None:
    """The device, said plainly."""
    dev, cap = run_actions.device_info(), run_actions.max_concurrent()
    if dev["device"] == "cuda":
        st.success(t("device_gpu", name=dev["name"], n=dev["count"], cap=cap))
    else:
        st.info(t("device_cpu", cores=dev["cores"], threads=run_actions.train_threads(), cap=cap))


def new_run_section(expanded: bool) -> None:
    """The "new run" expander (the form, a student's sandbox, or why neither), then the teacher's
    controls."""
    with st.expander(t("new_run"), expanded=expanded):
        if roles.can("run.start"):
            start_form()
        elif run_actions.classroom()["sandbox"]:
            sandbox_form()
        else:
            st.info(rt("student_no_start"))
    audit_section()


def _upload(ft) -> list:
    """The corpus uploaders, checked; the files, or [] while none is usable."""
    mode = st.radio(t("upload_mode"), ["tsv", "pair"], key="train_upload_mode",
                    horizontal=True, format_func=lambda m: ft(f"upload_{m}"))
    if mode == "tsv":
        files = [st.file_uploader(t("upload_tsv_file"), type=["tsv", "txt"],
                                  max_upload_size=server_guard.uploader_limit_mb("train_up_tsv"),
                                  key="train_up_tsv", help=t("upload_limit",
                                                             mb=run_files.MAX_CORPUS_MB))]
    else:
        u1, u2 = st.columns(2)
        mb = server_guard.uploader_limit_mb("train_up_src")
        files = [u1.file_uploader(t("upload_src_file"), type=["txt"], key="train_up_src",
                                  max_upload_size=mb),
                 u2.file_uploader(t("upload_tgt_file"), type=["txt"], key="train_up_tgt",
                                  max_upload_size=mb)]
        st.caption(t("upload_limit", mb=run_files.MAX_CORPUS_MB))
    if any(f is None for f in files):
        return []
    if run_files.too_big(files):
        st.error(t("upload_too_big", name=run_files.md_escape(run_files.too_big(files)),
                   mb=run_files.MAX_CORPUS_MB))
        return []
    n, err = run_files.check_corpus(files)
    if err:
        st.error(t("upload_bad", reason=run_files.md_escape(err)))
        return []
    st.success(t("upload_ok", n=n))
    return files


def _advanced(fields, ft) -> None:
    """The expander of every field of the settings schema, in its group, and the device."""
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


def start_form() -> None:
    ft = i18n.translator(strings, frozen=True)  # for format_func
    tasks = list(SYNTHETIC)
    m30k = run_files.multi30k_dir()
    if m30k is not None:
        tasks.append("multi30k")
    tasks.append("upload")
    c1, c2 = st.columns(2)
    choices.keep("train_task", tasks[0], tasks)
    task = c1.selectbox(t("task"), tasks, key="train_task", format_func=lambda k: ft(f"task_{k}"),
                        help=t("task_help"))
    td = TASK_DEFAULTS[train_form.trainer_task(task)]
    presets = sorted(PRESETS, key=lambda p: PRESETS[p]["d_model"])
    if st.session_state.get("train_task_seen") != task:  # a new task: its preset by default
        choices.remember("train_preset", td["preset"])
        st.session_state["train_task_seen"] = task
    # a radio, whose options are markdown: the Chinese labels gloss the preset's name as code
    choices.keep("train_preset", td["preset"], presets)
    preset = c2.radio(t("preset"), presets, key="train_preset", help=t("preset_help"),
                      format_func=lambda p: ft(f"preset_{p}"))
    about = t(f"about_{task}")
    if task in PRONOUN_TASKS:  # where the shipped models have their pronoun heads (their cards)
        about = " ".join(x for x in (about, pronoun_heads.text(task)) if x)
    st.caption(about)

    files, data_flags = [], {}
    if task == "upload":
        files = _upload(ft)
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
    _advanced(fields, ft)

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

    who = run_actions.busy()
    if len(who) >= run_actions.max_concurrent():
        st.warning(busy_text(who))
    if st.button(t("start"), type="primary", key="train_start",
                 disabled=task == "upload" and not files):
        start(task, args, files)
    if st.session_state.get("train_error"):
        st.error(st.session_state.pop("train_error"))


def start(task: str, args: list[str], files: list) -> None:
    name = run_files.new_run_name(task)
    path = places.runs_dir() / name
    try:
        roles.require("run.start", None, name)
        if files:
            roles.require("upload.corpus", None, name)
        # the disk budget: room for the corpus (students' old artefacts evicted), or a refusal;
        # room is made only once the corpus has been read and found valid (issue 22, K)
        with run_actions.reserve(0, name):
            if files:
                flags, _ = run_files.write_corpus(
                    path / "data", files, reserve=lambda n: run_actions.make_room(n, name))
                for k, v in flags.items():
                    args = args + [k, v]
        run_actions.start_run(name, args)
        if files:
            server_guard.release(files)  # copied into the run's folder: freed (issue 48, 5)
    except PermissionError as e:
        run_files.remove_failed_launch(path)
        st.error(rt("refused", reason=str(e)))
        return
    except DiskBudgetError as e:
        run_files.remove_failed_launch(path)
        st.error(run_files.md_escape(run_actions.budget_message(e)))
        return
    except runs.RunError:
        run_files.remove_failed_launch(path)
        st.warning(busy_text(run_actions.busy()))
        return
    except CorpusError as e:
        run_files.remove_failed_launch(path)
        st.error(t("upload_bad", reason=run_files.md_escape(str(e))))
        return
    run_files.watch(name)
    st.rerun()


def sandbox_form() -> None:
    """A student's own small run, queued (transformer.ops.run_queue), when the teacher allows it."""
    ft = i18n.translator(strings, frozen=True)
    cfg = run_actions.classroom()
    st.markdown(f"**{rt('sb_title')}**")
    preset = cfg["preset"]
    st.caption(rt("sb_caption", preset=t(f"pname_{preset}") if f"pname_{preset}" in strings.EN
                  else preset, steps=cfg["max_steps"]))
    task = st.selectbox(rt("sb_task"), list(SYNTHETIC), key="train_sb_task",
                        format_func=lambda k: ft(f"task_{k}"))
    if st.button(rt("sb_go"), key="train_sb_go", type="primary"):
        try:
            name, place = run_actions.submit_sandbox(task)
            if place is None:
                run_files.watch(name)
                st.rerun()
        except (PermissionError, run_queue.QueueError, runs.RunError) as e:
            st.error(rt("refused", reason=str(e)))
    for name, n in run_actions.my_queued():
        st.info(rt("sb_place", name=name, n=n))


def audit_section() -> None:
    """The teacher's view of runs/audit.jsonl and the student-runs switch (only when a teacher
    token is set)."""
    if roles.role() != "teacher":
        return

    cfg = run_actions.classroom()
    c1, c2 = st.columns(2)
    on = c1.toggle(rt("sb_off"), value=cfg["sandbox"], key="train_sb_on", help=rt("sb_off_help"))
    steps = c2.number_input(rt("sb_steps"), min_value=10, max_value=100000,
                            value=int(cfg["max_steps"]), step=50, key="train_sb_steps")
    if on != cfg["sandbox"] or int(steps) != cfg["max_steps"]:
        run_actions.set_classroom(sandbox=on, max_steps=int(steps))

    with st.expander(rt("audit")):
        events = audit.read(places.runs_dir(), 200)
        if not events:
            st.caption(rt("audit_empty"))
        else:
            st.dataframe([{k: e.get(k) for k in ("iso", "actor", "action", "target", "outcome",
                                                 "reason")} for e in events],
                         hide_index=True, key="train_audit_table")
