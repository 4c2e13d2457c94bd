"""How the model writes its own output on the trace pages (Attention, Step by step): beam search
with GNMT's length and coverage penalties, the decoding that scores best on the held-out sets
(issue 50, 4; transformer.core.decode.BEST_*), or greedy, where every word written is the top of
its step's bars. (Two sentences stays greedy: its swap test compares greedy translations.)

Why a choice and not one fixed search: beam search writes the better German ("The robot pays
attention to the teacher ." -> "Der Roboter achtet auf den Lehrer ." where greedy wrote "zielt
auf"), which is what a class should read attention on; greedy is what the Decode page and the
certainty bars explain step by step. The attention shown is the same either way: one pass over
the chosen output (transformer.probing.inspect.inspect_text).

A shared server's guard: a text long enough that a beam over it counts as a costly decode
(ui.serving.quota.wide_beam) is written greedily, with a note, never rate-limited: the page a
whole class opens must always answer."""
from __future__ import annotations

import streamlit as st

from transformer.core.decode import BEST_ALPHA, BEST_BEAM, BEST_COVERAGE
from ui import choices, i18n
from ui.serving import quota
from ui.strings import output_decoding as strings

OPTIONS = ("beam", "greedy")
DEFAULT = "beam"
t = i18n.translator(strings)


def longest_beam_text() -> int:
    """The most characters a text may have for a beam of BEST_BEAM not to be a costly decode
    (quota.wide_beam: beam x ceil(characters / DECODE_UNIT_CHARS) under COSTLY_DECODE); 0 when
    no text is short enough."""
    if BEST_BEAM >= quota.WIDE_BEAM:
        return 0
    return max(0, (quota.COSTLY_DECODE - 1) // BEST_BEAM) * quota.DECODE_UNIT_CHARS


def beam_for(choice: str, text: str) -> int:
    """The beam width the page decodes TEXT with: 1 (greedy) when greedy is chosen or the text is
    too long for a beam on a shared server, else BEST_BEAM."""
    if choice != "beam" or quota.wide_beam(BEST_BEAM, text):
        return 1
    return BEST_BEAM


def choose(prefix: str, container=st, forced: bool = False) -> str:
    """The page's choice (key `{prefix}_decoding`, kept across pages and the language switch;
    a link's `?decoding=greedy` opens it), drawn as a horizontal radio in CONTAINER; greyed out
    (kept, not used) while a target is typed (`forced`)."""
    names = {o: t(f"option_{o}", beam=BEST_BEAM) for o in OPTIONS}
    choices.keep(f"{prefix}_decoding", DEFAULT, OPTIONS)
    return container.radio(t("label"), OPTIONS, key=f"{prefix}_decoding", horizontal=True,
                           format_func=names.get, disabled=forced,
                           help=t("help", beam=BEST_BEAM, alpha=BEST_ALPHA, beta=BEST_COVERAGE,
                                  chars=longest_beam_text()))


def caption(ins, prefix: str) -> str:
    """What the output box's caption says about how the output was made (the page's choice,
    key `{prefix}_decoding`, tells a long text's greedy output from a greedy choice)."""
    choice = st.session_state.get(f"{prefix}_decoding", DEFAULT)
    if ins.teacher_forced:
        return ""
    if ins.beam > 1:
        return t("made_beam", beam=ins.beam, alpha=BEST_ALPHA, beta=BEST_COVERAGE)
    if choice == "beam":
        return t("made_greedy_long", chars=longest_beam_text())
    return t("made_greedy")
