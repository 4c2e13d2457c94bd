"""Which checkpoints exist, the one this session uses, and cached, shared, read-only access.

Models are loaded once per checkpoint with st.cache_resource and shared by every session; they
are never trained, hooked or mutated. Forward passes go through one admission gate
(ui/serving/admission.py: a few slots, at most one per person, the least recent user first) so
thirty students on a 2-core server queue fairly instead of oversubscribing the cores. Runs and
uploads are found where the server keeps them (ui/serving/places.py).
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import streamlit as st
import torch

from transformer.core.checkpoint import (
    SHORT_CARD,
    Checkpoint,
    CheckpointError,
    load_checkpoint,
    read_config,
)
from transformer.core.model import Transformer
from ui import i18n
from ui.serving import admission, places

ROOT = Path(__file__).resolve().parents[1]
SESSION_KEY = "ckpt_path"
GATE = admission.from_env()


def shipped_dir() -> Path:
    return Path(os.environ.get("ATTENTION_LAB_CHECKPOINTS", ROOT / "checkpoints"))


def shipped_runs_dir() -> Path:
    """Training runs shipped with the project (their step checkpoints, weights only), so the
    Attention-across-training page has something to show on a fresh clone."""
    return shipped_dir() / "runs"


@dataclass(frozen=True)
class Choice:
    group: str  # "shipped" | "runs" | "uploads"
    label: str
    path: str


def _is_checkpoint(p: Path) -> bool:
    return (p / "config.json").is_file() and (p / "model.safetensors").is_file()


def available() -> list[Choice]:
    out: list[Choice] = []
    if shipped_dir().is_dir():
        for p in sorted(shipped_dir().iterdir()):
            if _is_checkpoint(p):
                out.append(Choice("shipped", p.name, str(p)))
    if places.runs_dir().is_dir():
        for run in sorted(places.runs_dir().iterdir()):
            ck = run / "checkpoints"
            if not ck.is_dir():
                continue
            for p in sorted(ck.iterdir()):
                if p.name.startswith(".") or not _is_checkpoint(p):
                    continue
                out.append(Choice("runs", f"{run.name} / {p.name}", str(p)))
    if places.uploads_dir().is_dir():
        for p in sorted(places.uploads_dir().iterdir()):
            if not p.name.startswith(".") and _is_checkpoint(p):
                out.append(Choice("uploads", p.name, str(p)))
    return out


def stamp(path) -> float:
    """The checkpoint's weights file modification time (0.0 when there is none): part of every
    cache key, so a retrained checkpoint is loaded and inspected afresh."""
    try:
        return os.stat(Path(path) / "model.safetensors").st_mtime
    except OSError:
        return 0.0


@st.cache_resource(max_entries=6, show_spinner=False)
def _load(path: str, stamp: float) -> Checkpoint:
    ck = load_checkpoint(path)
    for p in ck.model.parameters():
        p.requires_grad_(False)
    return ck


def get_checkpoint(path: str) -> Checkpoint:
    """Cached load; the modification time is part of the key so a retrained 'last' reloads."""
    return _load(path, stamp(path))


def current_path() -> str | None:
    return st.session_state.get(SESSION_KEY)


def current() -> Checkpoint | None:
    """The session's checkpoint, or None (the page then shows st.info and stops)."""
    path = current_path()
    if not path:
        return None
    try:
        return get_checkpoint(path)
    except CheckpointError:
        return None


def required(message: str) -> Checkpoint:
    """The session's checkpoint; without one (or one that fails to load) the page shows
    `message` (st.info) and stops."""
    ck = current()
    if ck is None:
        st.info(message)
        st.stop()
    return ck


def card_facts(path: str) -> dict:
    return _card_facts(path, stamp(path))


@st.cache_data(max_entries=64, show_spinner=False)
def _card_facts(path: str, stamp: float) -> dict:
    """What the sidebar card shows, read from config.json and history.json only."""
    cfg, train, _ = read_config(path)

    with torch.device("meta"):  # shapes only: no memory, no initialisation cost
        n_params = Transformer(cfg).num_parameters()
    return {"config": cfg, "train": train, "params": n_params}


def short_card(path: str, language: str) -> str | None:
    """The sidebar's short card of a shipped checkpoint in ``language`` (English where the file
    has none in it), from its card.json: what the model is, its data and licence, what it does
    well and where it slips, its taught heads. None where there is no card.json (an upload or a
    user's run, whose README is shown instead). The full card stays README.md."""
    p = Path(path) / SHORT_CARD
    try:
        mtime = p.stat().st_mtime
    except OSError:
        return None
    cards = _short_cards(str(p), mtime)
    return i18n.pick(cards, language) if cards else None


@st.cache_data(max_entries=64, show_spinner=False)
def _short_cards(file: str, mtime: float) -> dict[str, str]:
    """{language: Markdown} of one card.json (each language a list of lines); {} if unreadable."""
    try:
        raw = json.loads(Path(file).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(raw, dict):
        return {}
    out = {}
    for lang, lines in raw.items():
        if isinstance(lines, list) and all(isinstance(x, str) for x in lines):
            out[lang] = "\n".join(lines)
    return out if "en" in out else {}


def run_inference(fn, *args, **kwargs):
    """Run a forward pass holding one of the inference slots (see module docstring); raises
    ui.serving.admission.Busy when no slot came within the gate's wait."""
    with GATE.hold(admission.person_key()), torch.inference_mode():
        return fn(*args, **kwargs)
