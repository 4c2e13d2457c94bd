"""A training run's folder, as the Train and Across-training pages read it (transformer.ops.runs
underneath): its name, the run the URL names, what its files say (its owner, its metrics read
incrementally, the schedule's settings, its checkpoints), and the corpus uploaded into it.

A run is a directory under ui.serving.places.runs_dir() named by the server
(task-YYYYmmdd-HHMMSS-xxxx), never by a user; the browser only ever names one through ?run=NAME,
which is checked against the directory listing before use (`run_dir`).

Nothing here checks a role or a limit: acting on a run (start, stop, resume, delete, the students'
queue, the disk budget) is ui/serving/run_actions.py. The two were one module; they are split
because reading a folder needs none of the policy and every act needs all of it.
"""
from __future__ import annotations

import os
import re
import secrets
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from transformer.core.checkpoint import read_config
from transformer.core.config import PRESETS
from transformer.data import tasks as data
from transformer.ops import runs
from transformer.train import settings as train_settings
from ui.serving import places

RUN_PARAM = "run"
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")
MAX_CORPUS_MB = float(os.environ.get("ATTENTION_LAB_MAX_CORPUS_MB", "20"))


# -- names and places -------------------------------------------------------------------------
def new_run_name(task: str) -> str:
    task = re.sub(r"[^a-z0-9]+", "", task.lower()) or "run"
    return f"{task}-{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(2)}"


def run_dir(name: str | None) -> Path | None:
    """The run directory called `name` under runs_dir(), or None if the name is not a plain name
    (runs.run_dir: ?run= in the URL is whatever a student types) or no such run exists (a run
    being launched has command.json before status.json)."""
    if not name or not isinstance(name, str) or not NAME_RE.match(name):
        return None
    try:
        p = runs.run_dir(places.runs_dir(), name)
    except runs.RunError:
        return None
    if p.is_dir() and ((p / runs.STATUS).exists() or (p / runs.COMMAND).exists()):
        return p
    return None


def current_run() -> str | None:
    """The run this browser watches: ?run=NAME (survives a refresh), else the session's."""
    q = st.query_params.get(RUN_PARAM)
    if q and run_dir(q):
        return q
    name = st.session_state.get("train_run")
    return name if run_dir(name) else None


def watch(name: str | None) -> None:
    """Make `name` the watched run, in the session and in the URL."""
    st.session_state["train_run"] = name
    if name:
        st.query_params[RUN_PARAM] = name
    elif RUN_PARAM in st.query_params:
        del st.query_params[RUN_PARAM]


def multi30k_dir() -> Path | None:
    """Multi30k's folder: $ATTENTION_LAB_MULTI30K, ../shared/data/multi30k, or data/multi30k."""
    cands = [os.environ.get("ATTENTION_LAB_MULTI30K"), places.ROOT.parent / "shared/data/multi30k",
             places.ROOT / "data/multi30k"]
    for c in cands:
        if c and ((Path(c) / "train.en").is_file() or (Path(c) / "train.en.gz").is_file()):
            return Path(c).resolve()
    return None


def owner(name_or_path) -> dict | None:
    """The run's owner record (None: the teacher's, see ui.serving.roles)."""
    path = name_or_path if isinstance(name_or_path, Path) else run_dir(name_or_path)
    return runs.read_owner(path) if path is not None else None


# -- metrics, read incrementally -------------------------------------------------------------------
def metrics(path: Path) -> list[dict]:
    """Every record of the run's metrics.jsonl, reading only the new bytes since the last call of
    this session (a resume rewrites the file: a new inode starts over)."""
    cache = st.session_state.setdefault("_run_files_metrics", {})
    f = path / runs.METRICS
    try:
        ino = os.stat(f).st_ino
    except FileNotFoundError:
        cache.pop(str(path), None)
        return []
    ent = cache.get(str(path))
    if ent is None or ent["ino"] != ino or ent["offset"] > os.stat(f).st_size:
        ent = {"ino": ino, "offset": 0, "records": []}
    new, off = runs.read_metrics(path, ent["offset"])
    ent = {"ino": ino, "offset": off, "records": ent["records"] + new}
    cache[str(path)] = ent
    return ent["records"]


# -- what a run is, from its files -----------------------------------------------------------------
@dataclass
class Settings:
    task: str
    d_model: int
    warmup: int
    lr_scale: float
    total_steps: int | None


def settings(path: Path, status: dict | None = None) -> Settings | None:
    """The schedule's inputs, from the run's settings.json (what the trainer resolved when it
    started or resumed the run). A run without one (older than settings.json): from its last
    checkpoint's config, else from the command it was started with, parsed again."""
    total = (status or {}).get("total_steps")
    try:
        record = train_settings.read_settings(path)
    except (ValueError, KeyError, TypeError):  # a damaged file: as if there were none
        record = None
    if record is not None:
        cfg, tc, _ = record
        return Settings(tc.task, cfg.d_model, tc.warmup, tc.lr_scale,
                        total or (tc.steps if not tc.epochs else None))
    return _settings_before_settings_json(path, total)


def _settings_before_settings_json(path: Path, total: int | None) -> Settings | None:
    last = path / "checkpoints" / "last"
    if (last / "config.json").exists():
        try:
            cfg, train, _ = read_config(last)
            return Settings(train.get("task", "?"), cfg.d_model, int(train.get("warmup", 4000)),
                            float(train.get("lr_scale", 1.0)), total or train.get("steps"))
        except Exception:  # noqa: BLE001 - a checkpoint being replaced: fall back to the command
            pass
    cmd = runs.read_json(path / runs.COMMAND, None)
    if not isinstance(cmd, dict):
        return None
    try:
        args = train_settings.build_parser().parse_args(cmd.get("argv", [])[2:])  # after "-m transformer.train"
        if args.resume:
            return None
        model, tc = train_settings.resolve_settings(args)
        d_model = model.get("d_model", PRESETS[model["preset"]]["d_model"])
        return Settings(tc.task, d_model, tc.warmup, tc.lr_scale,
                        total or (tc.steps if not tc.epochs else None))
    except (SystemExit, ValueError, KeyError):
        return None


def checkpoint_entries(path: Path) -> list[dict]:
    out = []
    for name in runs.checkpoints(path):
        d = path / "checkpoints" / name
        size = sum(f.stat().st_size for f in d.iterdir() if f.is_file()) if d.is_dir() else 0
        out.append({"name": name, "path": str(d), "size_bytes": size})
    return out


# -- uploaded corpora ----------------------------------------------------------------------------
def _where_free(err, shown: dict[str, str]) -> str:
    """A CorpusError as 'NAME:LINE: what' with the uploaded file's name instead of a server path."""
    msg = str(err)
    if err.path is not None:
        prefix = f"{err.path}:{err.line}: " if err.line else f"{err.path}: "
        if msg.startswith(prefix):
            msg = msg[len(prefix):]
    for server, name in shown.items():
        msg = msg.replace(server, name)
    if err.path is None:
        return msg
    name = shown.get(str(err.path), Path(str(err.path)).name)
    return f"{name}:{err.line}: {msg}" if err.line else f"{name}: {msg}"


def too_big(files) -> str | None:
    """The name of an uploaded file above the size limit, or None."""
    for f in files:
        if f is not None and f.size > MAX_CORPUS_MB * 1e6:
            return f.name
    return None


def write_corpus(dest: Path, files, reserve=None) -> tuple[dict, int]:
    """Save the upload(s) under dest/ (data.tsv, or source.txt + target.txt) and read them with
    transformer.data, which raises CorpusError naming the file and line. Returns (trainer flags,
    number of pairs); the error message names the user's file, not the server path.

    With `reserve(n_bytes)` (e.g. make_room under the disk budget), the files are read in a
    scratch folder first and `reserve` is called only once they are valid, before anything is
    written under dest/: a refused corpus never makes room (issue 22, K)."""
    if reserve is not None:
        with tempfile.TemporaryDirectory(prefix="attention-lab-corpus-") as d:
            flags, n = write_corpus(Path(d), files)
            written = [Path(v) for v in flags.values()]
            reserve(sum(p.stat().st_size for p in written))
            dest.mkdir(parents=True, exist_ok=True)
            for p in written:
                shutil.copyfile(p, dest / p.name)
            return {k: str(dest / Path(v).name) for k, v in flags.items()}, n
    dest.mkdir(parents=True, exist_ok=True)
    if len(files) == 1:
        p = dest / "data.tsv"
        p.write_bytes(files[0].getvalue())
        shown = {str(p): files[0].name}
        try:
            n = len(data.load_tsv(p))
        except data.CorpusError as e:
            raise data.CorpusError(_where_free(e, shown)) from None
        return {"--tsv": str(p)}, n
    ps, pt = dest / "source.txt", dest / "target.txt"
    ps.write_bytes(files[0].getvalue())
    pt.write_bytes(files[1].getvalue())
    shown = {str(ps): files[0].name, str(pt): files[1].name}
    try:
        n = len(data.load_parallel(ps, pt))
    except data.CorpusError as e:
        raise data.CorpusError(_where_free(e, shown)) from None
    return {"--src-file": str(ps), "--tgt-file": str(pt)}, n


def check_corpus(files) -> tuple[int | None, str | None]:
    """(pairs, None) or (None, 'file:line: error') for uploads not yet tied to a run."""
    with tempfile.TemporaryDirectory() as d:
        try:
            _, n = write_corpus(Path(d), files)
            return n, None
        except data.CorpusError as e:
            return None, str(e)


def remove_failed_launch(path: Path) -> None:
    """A run directory created for a launch that was refused (all slots busy) holds only the
    uploaded corpus: remove it so it does not show up as a run."""
    if path.is_dir() and not (path / runs.STATUS).exists() and not (path / runs.COMMAND).exists():
        shutil.rmtree(path, ignore_errors=True)


def md_escape(text: str) -> str:
    """User text (a corpus sentence) shown inside markdown, literally."""
    return re.sub(r"([\\`*_{}\[\]()#+\-.!|<>~$:])", r"\\\1", str(text))
