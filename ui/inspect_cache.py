"""The one cache of what the app computes from a checkpoint, shared by every page and session.

Every page that computes from the session's checkpoint asks here: a trace (`inspect`, the
Attention, Step-by-step and Heads pages and Attention across training), the pronoun accuracy
(`pronoun_accuracy`), and each feature module's functions (ui/heads_compute.py,
ui/decode_compute.py, ui/positional_compute.py), declared with `@per_checkpoint`. A classroom
typing the teacher's example sentence computes it once.

One key, one stamp, one bound: an entry is keyed by (checkpoint path, models.stamp(path), the
function's name, its arguments), so a retrained checkpoint (a new weights file) is computed afresh;
all entries together, of every page, are at most MAX_ENTRIES (env ATTENTION_LAB_INSPECT_CACHE,
default 24; a trace of a small model is a few MB), the least recently used going first. What is
returned is shared by every session: read it, never modify it (the viz functions are pure).
"""
from __future__ import annotations

import contextlib
import functools
import os
from typing import Callable

import streamlit as st

from transformer.probing.inspect import Inspected, inspect_text
from transformer.core.names import Head
from ui import knowledge as knowledge_ui
from ui import models
from ui import notes as notes_ui

MAX_ENTRIES = int(os.environ.get("ATTENTION_LAB_INSPECT_CACHE", "24"))
_JOBS: dict[str, Callable] = {}  # name -> fn(checkpoint, *args), filled by @per_checkpoint


@st.cache_resource(max_entries=MAX_ENTRIES, show_spinner=False)
def _cached(path: str, stamp: float, job: str, args: tuple):
    return _JOBS[job](models.get_checkpoint(path), *args)


def per_checkpoint(fn: Callable) -> Callable:
    """Declare `fn(checkpoint, *args)` a cached computation: the returned function takes the
    checkpoint's path instead of the checkpoint, `f(path, *args)`, and is served from the one
    cache (arguments must be hashable: str, numbers, bytes, tuples, None). Raises what `fn`
    raises (CheckpointError for a bad checkpoint); errors are not cached."""
    job = f"{fn.__module__}.{fn.__qualname__}"
    _JOBS[job] = fn

    @functools.wraps(fn)
    def cached(path, *args):
        return _cached(str(path), models.stamp(path), job, tuple(args))

    cached.compute = fn  # uncached, for tests
    return cached


def clear() -> None:
    """Empty the cache (every page's entries)."""
    _cached.clear()


def _ablate_key(ablate) -> tuple:
    if not ablate:
        return ()
    out = []
    for path, heads in sorted(dict(ablate).items()):
        heads = [heads] if isinstance(heads, int) else heads
        hs = tuple(sorted({int(h) for h in heads}))
        if hs:
            out.append((str(path), hs))
    return tuple(out)


@per_checkpoint
def _inspect(ck, text: str, target: str | None, ablate: tuple) -> Inspected:
    return models.run_inference(inspect_text, ck.model, ck.tokenizer, text, target,
                                ablate={p: list(h) for p, h in ablate} or None)


def inspect(path: str, text: str, target: str | None = None, ablate=None) -> Inspected:
    """Cached `transformer.probing.inspect.inspect_text` for the checkpoint at `path`. Raises
    transformer.core.text.TextError for unusable text (not cached) and CheckpointError for a bad
    checkpoint. An empty or whitespace-only target means no target (greedy decoding)."""
    target = target if target is not None and target.strip() else None
    return _inspect(path, text, target, _ablate_key(ablate))


# -- the causal test, shared by the Attention page's callout and the Heads page -----------------
PROBE_N = 100  # held-out sentences both pages measure on by default, so their numbers agree


@per_checkpoint
def _pronoun_accuracy(ck, n: int, ablate: tuple[str, ...]):
    from transformer.probing.probe_items import task_probe
    from transformer.core.names import ablate_map, parse_heads
    from transformer.probing import pronouns

    task = (ck.train_config or {}).get("task")
    items = task_probe(task, n or (PROBE_N if task == "anaphora" else None))
    if not items:
        return None
    return models.run_inference(pronouns.pronoun_accuracy, ck.model, ck.tokenizer, items,
                                ablate_map(parse_heads(ablate, form="label")) or None)


def pronoun_accuracy(path: str, n: int | None = None, ablate: tuple[str, ...] = ()):
    """Pronoun accuracy (transformer.probing.heads.PronounResult) of the checkpoint at `path` on the
    first `n` sentences of its task's probe (transformer.probing.heads.task_probe: held-out anaphora
    sentences, or the hand-written caption probe; n=None: PROBE_N anaphora sentences or the
    whole caption probe), with the heads named in `ablate` ('dec L1 H1')
    switched off. Cached per weights file: a whole class asking costs one measurement, and every
    page that quotes the number quotes this one (never a number written into prose)."""
    return _pronoun_accuracy(path, int(n or 0), tuple(sorted(ablate)))


# -- shared page helpers ----------------------------------------------------------------------
EXAMPLES = {
    "anaphora": "The dog saw the book because it was hungry .",
    # the pronoun's antecedent is not the nearest noun, and German tells them apart (die Zeitung:
    # sie; der Stand: ihn); with the pronoun head off, classroom-en-de writes "ihn"
    "classroom": "A man buys a newspaper at the stand and reads it on the train .",
    "copy": "a b c d e f", "reverse": "a b c d e f", "sort": "d a f b e c",
}
DEFAULT_EXAMPLE = "A dog runs in the park ."
# Reference translations of the examples, for teacher forcing (Decode page).
EXAMPLE_TARGETS = {
    EXAMPLES["anaphora"]: "Der Hund sah das Buch , weil er hungrig war .",
    DEFAULT_EXAMPLE: "Ein Hund rennt im Park .",
    EXAMPLES["classroom"]: "Ein Mann kauft eine Zeitung am Stand und liest sie im Zug .",
}


def example_text(train_config: dict | None) -> str:
    """A ready sentence that fits the checkpoint's training task."""
    task = (train_config or {}).get("task")
    return EXAMPLES.get(task, DEFAULT_EXAMPLE)


def apply_query_params(prefix: str, keys=("text", "target", "kind", "layer", "head", "query")) -> None:
    """Copy `?kind=cross&layer=1&head=2&text=...` into the page's widget state (keys
    `{prefix}_{name}`) once per distinct set of parameters, so a link opens the named view and
    the user's later changes are not overridden. Values are validated by the page (clamped)."""
    qp = st.query_params
    sig = tuple((k, qp.get(k)) for k in keys if qp.get(k) is not None)
    if not sig or st.session_state.get(f"{prefix}_qp_applied") == sig:
        return
    st.session_state[f"{prefix}_qp_applied"] = sig
    for k, v in sig:
        if k in ("layer", "head", "query"):
            try:
                st.session_state[f"{prefix}_{k}"] = int(v)
            except ValueError:
                continue
        else:
            st.session_state[f"{prefix}_{k}"] = v


def fill_from_link(key: str, param: str = "text", default: str | None = None,
                   allowed=None) -> None:
    """Put a link's `?param=...` into the widget state `key`, once per distinct value (a tour
    stop opens its page with its sentence; the reader's later edits are not overridden), else
    give the widget its `default`. Call before the widget is drawn, and draw it without
    `value=` (Streamlit warns when both a value and a state set the same widget). A value not
    in `allowed` (when given) is ignored."""
    v = st.query_params.get(param)
    marker = f"{key}_link_applied"
    if v is not None and (allowed is None or v in allowed) and st.session_state.get(marker) != v:
        st.session_state[key] = v
        st.session_state[marker] = v
    elif default is not None:
        st.session_state.setdefault(key, default)


def featured_head(history: dict | None) -> dict | None:
    """The head a checkpoint's card features (history.json "featured_head"), if well formed."""
    fh = (history or {}).get("featured_head") if isinstance(history, dict) else None
    if not isinstance(fh, dict):
        return None
    try:
        Head(fh.get("kind"), fh.get("layer"), fh.get("head"))  # a known kind, integers >= 0
    except ValueError:
        return None
    return fh


def apply_featured_head(prefix: str, path: str, history: dict | None) -> dict | None:
    """Open the page on the checkpoint's featured head, once per checkpoint, unless a link
    (query parameters) names a head. Returns the featured head (for a caption) or None."""
    fh = featured_head(history)
    if fh is None:
        return None
    marker = f"{prefix}_featured_for"
    if st.session_state.get(marker) != path and st.query_params.get("kind") is None:
        st.session_state[f"{prefix}_kind"] = fh["kind"]
        st.session_state[f"{prefix}_layer"] = fh["layer"]
        st.session_state[f"{prefix}_head"] = fh["head"]
    st.session_state[marker] = path
    return fh


def clamp_state(key: str, n: int, default: int = 0) -> None:
    """Keep an integer selectbox's state within 0..n-1 (a link or another model may have set
    it out of range)."""
    v = st.session_state.get(key, default)
    if not isinstance(v, int) or not 0 <= v < n:
        st.session_state[key] = min(max(default, 0), max(n - 1, 0))


@contextlib.contextmanager
def page_stops_on_bad_input(t, load_failed=st.info):
    """Inside it, unusable text (TextError) ends the page with t("bad_text") and a checkpoint
    that fails to load (CheckpointError) with t("load_failed") shown by `load_failed`."""
    from transformer.core.checkpoint import CheckpointError
    from transformer.core.text import TextError

    try:
        yield
    except TextError as e:
        st.info(t("bad_text", reason=str(e)))
        st.stop()
    except CheckpointError as e:
        load_failed(t("load_failed", reason=str(e)))
        st.stop()


def sentence_inputs(prefix: str, t, ck) -> Inspected:
    """The source/target boxes of a trace page (keys `{prefix}_text`, `{prefix}_target`) and the
    trace of what they hold. Empty or unusable text and a checkpoint that fails to load end the
    page with a message in the UI's language (strings empty, bad_text, load_failed); the trace's
    notes (a cut to the model's limit) are shown as warnings (ui/notes.py)."""
    st.session_state.setdefault(f"{prefix}_text", example_text(ck.train_config))
    c1, c2 = st.columns(2)
    text = c1.text_input(t("text"), key=f"{prefix}_text", help=t("text_help"))
    target = c2.text_input(t("target"), key=f"{prefix}_target", help=t("target_help"))
    knowledge_ui.offer(ck, f"{prefix}_text")
    if not text or not text.strip():
        st.info(t("empty"))
        st.stop()
    knowledge_ui.notice(ck, text)
    with page_stops_on_bad_input(t):
        ins = inspect(models.current_path(), text, target)
    notes_ui.warn(ins.notes)
    return ins

