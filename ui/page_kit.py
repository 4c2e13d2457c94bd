"""What every page shares: its header (`header`, `checkpoint_header`), a CSV download button, the
example sentence for a checkpoint's task, links into a page's widget state (`apply_query_params`,
`fill_from_link`), the featured head, integer states kept in range, and the sentence boxes of a
trace page (`sentence_inputs`). A page's own sections are in ui/<page>_view.py; the cache of what
is computed from a checkpoint is ui/inspect_cache.py."""
from __future__ import annotations

import contextlib
from types import ModuleType

import pandas as pd
import streamlit as st

from transformer.core.checkpoint import CheckpointError
from transformer.core.names import Head, attention_kind
from transformer.core.text import TextError
from transformer.probing.inspect import Inspected
from ui import choices, i18n, inspect_cache, models, output_decoding
from ui import knowledge as knowledge_ui
from ui import notes as notes_ui
from ui.serving import text_limits
from viz.worked import csv_bytes


def header(strings: ModuleType, intro=st.caption):
    """The page's title and introduction (strings "title", "intro"; `intro` draws it: st.caption
    or st.write). Returns the page's translator."""
    t = i18n.translator(strings)
    st.title(t("title"))
    intro(t("intro"))
    return t


def checkpoint_header(strings: ModuleType):
    """`header` for a page that needs the session's checkpoint: without one the page ends with
    t("no_checkpoint"). Returns (t, checkpoint, its path)."""
    t = header(strings)
    ck = models.required(t("no_checkpoint"))
    return t, ck, models.current_path()


def download_csv(label: str, df: pd.DataFrame, name: str, key: str) -> None:
    """A button that downloads `df` as `name`.csv."""
    st.download_button(label, csv_bytes(df), file_name=f"{name}.csv", mime="text/csv", key=key)


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


def apply_query_params(prefix: str, keys=("text", "target", "kind", "layer", "head", "query",
                                          "decoding")) -> None:
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
                choices.remember(f"{prefix}_{k}", int(v))
            except ValueError:
                continue
        else:
            choices.remember(f"{prefix}_{k}", v)


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
        choices.remember(key, v)
        st.session_state[marker] = v
    choices.keep(key, default, allowed)  # kept across pages and the language switch


def featured_head(history: dict | None) -> dict | None:
    """The head a checkpoint's card features (history.json "featured_head"), if well formed."""
    fh = (history or {}).get("featured_head") if isinstance(history, dict) else None
    if not isinstance(fh, dict):
        return None
    try:
        Head.from_dict(fh)  # a known kind, integers >= 0
    except ValueError:
        return None
    return fh


def heads_in(heads: list[Head], cfg) -> list[Head]:
    """The HEADS a model of config CFG has (a card may name a layer a smaller model lacks)."""
    return [h for h in heads if h.layer < attention_kind(h.kind, cfg).n_layers]


def also_heads(fh: dict | None) -> list[Head]:
    """The other pronoun heads a featured head names ("also": [{"kind", "layer", "head"}]): the
    Attention page measures what switching each off does, so a student sees which head carries
    the pronoun. Malformed entries are skipped."""
    out = []
    also = (fh or {}).get("also")
    for item in also if isinstance(also, list) else []:
        try:
            out.append(Head.from_dict(item))
        except ValueError:
            continue
    return out


def apply_featured_head(prefix: str, path: str, history: dict | None) -> dict | None:
    """Open the page on the checkpoint's featured head, once per checkpoint, unless a link
    (query parameters) names a head. Returns the featured head (for a caption) or None."""
    fh = featured_head(history)
    if fh is None:
        return None
    marker = f"{prefix}_featured_for"
    if st.session_state.get(marker) != path and st.query_params.get("kind") is None:
        choices.remember(f"{prefix}_kind", fh["kind"])
        choices.remember(f"{prefix}_layer", fh["layer"])
        choices.remember(f"{prefix}_head", fh["head"])
    st.session_state[marker] = path
    return fh


def clamp_state(key: str, n: int, default: int = 0) -> None:
    """Keep an integer selectbox's state within 0..n-1 (a link or another model may have set
    it out of range)."""
    v = st.session_state.get(key, st.session_state.get(choices.shadow(key), default))
    if not isinstance(v, int) or not 0 <= v < n:
        v = min(max(default, 0), max(n - 1, 0))
    choices.remember(key, v)


@contextlib.contextmanager
def page_stops_on_bad_input(t, load_failed=st.info):
    """Inside it, unusable text (TextError) ends the page with t("bad_text") and a checkpoint
    that fails to load (CheckpointError) with t("load_failed") shown by `load_failed`."""
    try:
        yield
    except TextError as e:
        st.info(t("bad_text", reason=str(e)))
        st.stop()
    except CheckpointError as e:
        load_failed(t("load_failed", reason=str(e)))
        st.stop()


def sentence_inputs(prefix: str, t, ck) -> Inspected:
    """The source/target boxes of a trace page (keys `{prefix}_text`, `{prefix}_target`), how the
    model writes when no target is typed (`{prefix}_decoding`, ui/output_decoding.py) and the
    trace of what they hold. Empty or unusable text and a checkpoint that fails to load end the
    page with a message in the UI's language (strings empty, bad_text, load_failed); the trace's
    notes (a cut to the model's limit) are shown as warnings (ui/notes.py)."""
    choices.keep(f"{prefix}_text", example_text(ck.train_config))  # kept across pages (ui/choices)
    choices.keep(f"{prefix}_target", "")
    c1, c2 = st.columns(2)
    text = c1.text_input(t("text"), key=f"{prefix}_text", help=t("text_help"),
                         max_chars=text_limits.SENTENCE_CHARS)
    target = c2.text_input(t("target"), key=f"{prefix}_target", help=t("target_help"),
                           max_chars=text_limits.SENTENCE_CHARS)
    # beam search or greedy, when no target is typed (greyed out while one is)
    decoding = output_decoding.choose(prefix, forced=bool(target and target.strip()))
    text_limits.stop_if_too_long(text, target)
    knowledge_ui.offer(ck, f"{prefix}_text")
    if not text or not text.strip():
        st.info(t("empty"))
        st.stop()
    knowledge_ui.notice(ck, text)
    with page_stops_on_bad_input(t):
        ins = inspect_cache.inspect(models.current_path(), text, target,
                                    beam=output_decoding.beam_for(decoding, text))
    notes_ui.warn(ins.notes)
    return ins



def lazy_expander(label: str, key: str, expanded: bool = False):
    """(an expander, whether it is open). Streamlit runs a plain expander's content whether it is
    open or not, and the Step page's closed parts (a dozen shaded tables) were most of its run
    time on a class's server; an expander that tracks its state (Streamlit >= 1.52's
    ``on_change="rerun"``) reruns the page when opened, so closed content can be skipped. On an
    older Streamlit every expander counts as open and its content runs, as before."""
    remembered = key + "__open"  # a new label (another query) is a new widget: it opens as before
    try:
        box = st.expander(label, expanded=bool(st.session_state.get(remembered, expanded)),
                          key=key, on_change="rerun")
    except TypeError:  # an older Streamlit: no state to read
        return st.expander(label, expanded=expanded), True
    st.session_state[remembered] = bool(box.open)
    return box, bool(box.open)
