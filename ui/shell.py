"""The frame around every page: page config, language switch, checkpoint picker and card."""
from __future__ import annotations

import os
from pathlib import Path

import streamlit as st
import torch

from transformer.core.checkpoint import CheckpointError
from transformer.ops import disk_budget, runs
from transformer.ops.disk_budget import DiskBudgetError
from transformer.ops.upload import extract_checkpoint_zip
from ui import i18n, models
from ui import knowledge as knowledge_ui
from ui.serving import malloc_tuning, places, quota, roles, run_actions, server_guard, sign_in
from ui.strings import shell as strings
from viz.tokens import escape_markdown

t = i18n.translator(strings)
_THREADS_SET = False


def configure() -> None:
    global _THREADS_SET
    st.set_page_config(page_title="Attention Lab", page_icon="🔍", layout="wide")
    server_guard.install()  # Streamlit's own upload and clear-cache requests (issue 22, C/D)
    _initial_language()  # before any message: the banners below speak the page's language
    sign_in.check_at_start()  # a teacher token too short to resist guessing: refuse to serve
    if not _THREADS_SET:  # once per server process: inference threads share the cores
        torch.set_num_threads(int(os.environ.get("ATTENTION_LAB_THREADS", "1")))
        malloc_tuning.tune_once()  # large freed blocks go back to the system (issue 48)
        _THREADS_SET = True


def _initial_language() -> None:
    """A new session's language: ?lang= from the link, else English."""
    if i18n.KEY not in st.session_state:
        q = st.query_params.get("lang")
        st.session_state[i18n.KEY] = q if q in i18n.LANGS else "en"


def language_switch() -> None:
    _initial_language()
    ss = st.session_state
    if ss.get(i18n.KEY) not in i18n.LANGS:  # lost on the last run (see below): put it back
        ss[i18n.KEY] = i18n.lang()
    chosen = st.sidebar.segmented_control(t("language"), list(i18n.LANGS), key=i18n.KEY,
                                          format_func=i18n.LANGS.get, selection_mode="single",
                                          on_change=_keep_a_language)
    # The switch can come back with nothing selected without a click: a session's first deep
    # link on a freshly started server runs app.py from the page (ui/deeplink.ensure_app), and
    # on the next run its state was None (seen with Chromium, 3 times in 4), which turned the
    # page English. The language then stays the last one used (i18n.lang reads LAST_KEY).
    if chosen in i18n.LANGS:
        ss[i18n.LAST_KEY] = chosen
    i18n.sync_address()  # ?lang=zh in the address: kept across pages and refreshes


def _keep_a_language() -> None:
    """Clicking the chosen language again deselects it; keep that language then (a callback,
    because a widget's value cannot be changed after the widget is drawn)."""
    if st.session_state.get(i18n.KEY) is None:
        st.session_state[i18n.KEY] = st.session_state.get(i18n.LAST_KEY, "en")


# the shipped model a fresh session opens on (ATTENTION_LAB_DEFAULT overrides): everyday English
# and captions, textbook "it" sentences, a pronoun head in encoder self-attention
# (checkpoints/everyday-en-de/README.md)
DEFAULT_CHECKPOINT = "everyday-en-de"
UPLOAD_PICK = "shell_upload_pick"  # an uploaded checkpoint to select on the next run


def _default_choice(choices: list[models.Choice]) -> str | None:
    q = st.query_params.get("ckpt")
    paths = [c.path for c in choices]
    if q:
        for c in choices:
            if c.label == q or Path(c.path).name == q:
                return c.path
    preferred = os.environ.get("ATTENTION_LAB_DEFAULT", DEFAULT_CHECKPOINT)
    for c in choices:
        if c.group == "shipped" and c.label == preferred:
            return c.path
    return paths[0] if paths else None


def checkpoint_picker() -> None:
    sb = st.sidebar
    choices = models.available()
    # An upload chosen on the last run: set before the selectbox that owns the key is drawn
    # (setting a widget's key after it is drawn raises StreamlitWidgetAlreadyInstantiatedError).
    picked = st.session_state.pop(UPLOAD_PICK, None)
    if picked is not None:
        st.session_state[models.SESSION_KEY] = picked
    if not choices:
        sb.info(t("no_checkpoints"))
        st.session_state.pop(models.SESSION_KEY, None)
    else:
        paths = [c.path for c in choices]
        if st.session_state.get(models.SESSION_KEY) not in paths:
            st.session_state[models.SESSION_KEY] = _default_choice(choices)
        # Labels are fixed now, at render time: a format_func reading the language later would
        # disagree with the labels the browser was sent.
        labels = {c.path: f"{c.label} · {t('group_' + c.group)}" for c in choices}
        sb.selectbox(t("checkpoint"), paths, key=models.SESSION_KEY, help=t("checkpoint_help"),
                     format_func=labels.__getitem__)
        _card(st.session_state[models.SESSION_KEY])
    if roles.can("upload.checkpoint"):  # a student's sidebar has no uploader (ui.serving.roles)
        _upload()
    sign_in.sidebar()


def _card(path: str) -> None:
    sb = st.sidebar
    try:
        facts = models.card_facts(path)
        models.get_checkpoint(path)  # validate now: a broken file is reported here, once
    except CheckpointError as e:
        sb.error(t("load_failed", reason=escape_markdown(str(e))))
        return
    cfg, train = facts["config"], facts["train"]
    task = str(train.get("task", "?"))
    task = t(f"task_{task}") if f"task_{task}" in strings.EN else task  # named in the language
    sb.caption(
        f"**{t('task')}:** {task} · **{t('params')}:** {facts['params']:,}  \n"
        f"**{t('layers')}:** {cfg.n_encoder_layers} + {cfg.n_decoder_layers} · "
        f"**{t('heads')}:** {cfg.n_heads} · **{t('d_model')}:** {cfg.d_model} · "
        f"**{t('vocab')}:** {cfg.vocab_size}")
    scores = train.get("scores") or models.get_checkpoint(path).history.get("scores")
    if isinstance(scores, dict) and scores:
        sb.caption(f"**{t('scores')}:** " + ", ".join(f"{k} {v}" for k, v in scores.items()))
    ck = models.get_checkpoint(path)
    dom = knowledge_ui.domain_text(ck)
    if dom:
        cov = knowledge_ui.record(ck).get("coverage") or {}
        line = knowledge_ui.t("domain", domain=dom)
        if cov.get("one_piece_share") is not None:
            line += " " + knowledge_ui.t("coverage", one=cov["one_piece_share"],
                                         vocab=cov.get("vocab_size", cfg.vocab_size))
        sb.caption(line)
    # A shipped checkpoint shows its short card (card.json) in the page's language; without one,
    # and for an upload or a user's run, the README as it is.
    shipped = _shipped(path)
    short = models.short_card(path, i18n.lang()) if shipped else None
    card = short or ck.card
    if card:
        with sb.expander(t("card")):
            if shipped:
                st.markdown(card)
            else:  # uploaded or trained: plain text, so it loads no remote image or link (#22 L)
                st.text(card)


def _shipped(path: str) -> bool:
    """A checkpoint shipped with the project (its card is ours, drawn as Markdown)."""
    try:
        return Path(path).resolve().parent == models.shipped_dir().resolve()
    except (OSError, ValueError):
        return False


def store_upload(data: bytes, name: str = "", state=None) -> Path:
    """Validate and unpack an uploaded checkpoint .zip into the shared uploads folder, if this
    session may (ui.serving.roles: the teacher, or anyone on an open server), within the
    per-session upload cap (ui.serving.quota) and the disk budget (run_actions.make_room: nothing
    is written when there is no room); its owner recorded and the upload audited. PermissionError / CheckpointError /
    DiskBudgetError."""
    roles.require("upload.checkpoint", None, name[:80], state=state)
    quota.count_upload(name[:80], state=state)
    try:
        with disk_budget.LOCK:
            dest = extract_checkpoint_zip(
                data, places.uploads_dir(),
                reserve=lambda n: run_actions.make_room(n, name[:80], state=state))
    except CheckpointError as e:
        roles.log("upload.checkpoint", name[:80], "refused", state=state, reason=str(e)[:200])
        raise
    rec = roles.owner_record(state)

    runs.write_owner(dest, rec["actor"], rec["role"], person=rec["person"])
    roles.log("upload.checkpoint", dest.name, "ok", state=state, file=name[:80], bytes=len(data))
    return dest


def _upload() -> None:
    sb = st.sidebar
    up = sb.file_uploader(t("upload"), type=["zip"], help=t("upload_help"), key="shell_upload")
    if up is None:
        return
    marker = f"{up.name}:{up.size}"
    if st.session_state.get("shell_upload_done") == marker:
        return
    try:
        dest = store_upload(up.getvalue(), up.name)
    except PermissionError as e:
        sb.error(t("upload_bad", reason=escape_markdown(str(e))))
        return
    except DiskBudgetError as e:
        sb.error(escape_markdown(run_actions.budget_message(e)))
        return
    except CheckpointError as e:
        # The reason may quote a member name from the archive: shown literally, never as Markdown.
        sb.error(t("upload_bad", reason=escape_markdown(str(e))))
        return
    st.session_state["shell_upload_done"] = marker
    st.session_state[UPLOAD_PICK] = str(dest)
    server_guard.release(up)  # stored on disk: its bytes in memory are freed (issue 48, 5)
    sb.success(t("upload_ok", name=escape_markdown(dest.name)))
    st.rerun()
