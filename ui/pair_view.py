"""The sections of the two-sentence (minimal pair) page, pages/pair.py: the two sentence boxes,
the pair with its changed word marked, both translations, the head pickers, and the pronoun's
row in both sentences side by side with the verdict. Figures and the diff in viz/pair.py; state
keys start with `pair_`; prose in ui/strings/pair.py.

Query parameters: ?text=...&text2=... fill the two boxes (once per distinct link); kind, layer and
head open a given head (else the checkpoint's featured head); swap=1 turns the swap on."""
from __future__ import annotations

from typing import NamedTuple

import streamlit as st

from transformer.probing import certainty as C
from transformer.probing.inspect import Inspected
from transformer.probing.swap import swap_translate
from transformer.core.names import KINDS, Head, attention_kind
from ui import choices
from ui import i18n, inspect_cache, models, page_kit
from ui import taught_note
from ui import knowledge as knowledge_ui
from ui import notes as notes_ui
from ui.serving import text_limits
from ui.strings import pair as strings
from viz import heads as VH
from viz import pair as VP
from viz import tokens as tv
from viz.step import n_layers

t = i18n.translator(strings)

DEFAULT_A = "The animal didn't cross the street because it was too tired ."
DEFAULT_B = "The animal didn't cross the street because it was too wide ."
LINK_KEYS = ("text", "text2", "kind", "layer", "head", "swap")


def kind_names() -> dict[str, str]:
    return {k: t(f"kind_{k}") for k in KINDS}


def sentences(ck) -> tuple[str, str]:
    """The two boxes (keys pair_text, pair_text2; a link's ?text= and ?text2= fill them once).
    An empty box ends the page with a note."""
    page_kit.apply_query_params("pair", LINK_KEYS)
    if isinstance(st.session_state.get("pair_swap"), str):  # ?swap=1 opens with the swap on
        st.session_state["pair_swap"] = st.session_state["pair_swap"].lower() in ("1", "true", "on")
    choices.keep("pair_text", DEFAULT_A)
    choices.keep("pair_text2", DEFAULT_B)
    c1, c2 = st.columns(2)
    a = c1.text_input(t("text_a"), key="pair_text", help=t("text_a_help"),
                      max_chars=text_limits.SENTENCE_CHARS)
    b = c2.text_input(t("text_b"), key="pair_text2", help=t("text_b_help"),
                      max_chars=text_limits.SENTENCE_CHARS)
    text_limits.stop_if_too_long(a, b)
    if not (a or "").strip() or not (b or "").strip():
        st.info(t("empty"))
        st.stop()
    knowledge_ui.notice(ck, f"{a} {b}")
    return a, b


def inspect_both(path: str, a: str, b: str) -> tuple[Inspected, Inspected]:
    """Both sentences through the cached inspect (greedy output); unusable text or a checkpoint
    that fails to load ends the page with a message."""
    with page_kit.page_stops_on_bad_input(t):
        ins_a = inspect_cache.inspect(path, a)
        ins_b = inspect_cache.inspect(path, b)
    notes_ui.warn(list(ins_a.notes) + [n for n in ins_b.notes if n not in ins_a.notes])
    return ins_a, ins_b


def marked_sentence(words: list[str], changed) -> str:
    """Markdown of a sentence with its changed words bold and marked ◆ (the charts' sign)."""
    ch = set(changed)
    return " ".join(f"**{VP.MARK} {tv.escape_markdown(w)}**" if i in ch else tv.escape_markdown(w)
                    for i, w in enumerate(words))


def show_pair(a: str, b: str) -> None:
    """The two sentences, changed words marked, and a note unless they are a minimal pair."""
    st.subheader(t("pair"))
    wa, wb = VP.sentence_words(a), VP.sentence_words(b)
    d = VP.diff_words(wa, wb)
    st.markdown(f"**{t('which_a')}** · {marked_sentence(wa, d.a)}")
    st.markdown(f"**{t('which_b')}** · {marked_sentence(wb, d.b)}")

    def words(ws, idx):
        return tv.escape_markdown(" ".join(ws[i] for i in idx)) if idx else t("changed_none")

    if d.same:
        st.info(t("changed_same"))
    elif d.minimal:
        st.caption(t("changed_one", a=words(wa, d.a), b=words(wb, d.b)))
    else:
        st.warning(t("changed_many", a=words(wa, d.a), b=words(wb, d.b)))


def translations(ins_a: Inspected, ins_b: Inspected, tok) -> None:
    st.subheader(t("translations"))
    st.caption(t("output_greedy"))
    c1, c2 = st.columns(2)
    for col, which, ins in ((c1, "which_a", ins_a), (c2, "which_b", ins_b)):
        col.markdown(f"**{t(which)}**")
        col.code(ins.output or t("output_empty"), language=None, wrap_lines=True)
        # where the model guessed (transformer/probing/certainty.py; the Attention page draws it)
        ws = C.output_words(ins, tok)
        if not ws:  # nothing written: nothing to be sure of
            continue
        guessed = C.guesses(ws)
        col.caption(t("guessed", unsure=C.UNSURE, words=", ".join(
            f"{tv.escape_markdown(w.text)} {w.prob:.2f}" for w in guessed)) if guessed
            else t("sure", unsure=C.UNSURE, d=C.SURE_BUT_DROPPED["dropped"],
                   n=C.SURE_BUT_DROPPED["of"]))


def _defaults(ck, path: str) -> None:
    """Start on the checkpoint's featured head (else encoder self, last layer, head 0), once per
    checkpoint, unless a link names a kind."""
    if st.session_state.get("pair_defaults_for") == path:
        return
    st.session_state["pair_defaults_for"] = path
    if st.query_params.get("kind") is not None and st.session_state.get("pair_kind") in KINDS:
        return
    fh = page_kit.featured_head(ck.history)
    if fh:
        kind, layer, head = fh["kind"], fh["layer"], fh["head"]
    else:
        kind, head = "encoder_self", 0
        layer = attention_kind(kind, ck.model_config).n_layers - 1
    for k, v in (("pair_kind", kind), ("pair_layer", layer), ("pair_head", head)):
        choices.remember(k, v)


def head_choice(ck, path: str, ins: Inspected) -> tuple[str, int, int, bool]:
    """Kind, layer and head pickers (default: the featured head) and the specials toggle."""
    st.subheader(t("head_title"))
    _defaults(ck, path)
    if st.session_state.get("pair_kind") not in KINDS:
        st.session_state["pair_kind"] = "encoder_self"
    names = kind_names()  # format_funcs read no state (AppTest calls them)
    fh = page_kit.featured_head(ck.history)
    if fh:
        st.caption(t("featured", head=VH.head_label(fh["kind"], fh["layer"], fh["head"]),
                     kind=names[fh["kind"]], l=fh["layer"], h=fh["head"]))
    else:
        st.caption(t("no_featured"))
    c1, c2, c3 = st.columns([2, 1, 1])
    choices.keep("pair_kind", "encoder_self", KINDS)
    kind = c1.selectbox(t("kind"), KINDS, key="pair_kind", format_func=names.get,
                        help=t("kind_help"))
    n_lay = n_layers(ins, kind)
    page_kit.clamp_state("pair_layer", n_lay)
    page_kit.clamp_state("pair_head", ck.model_config.n_heads)
    layer = c2.selectbox(t("layer"), range(n_lay), key="pair_layer")
    head = c3.selectbox(t("head"), range(ck.model_config.n_heads), key="pair_head")
    choices.keep("pair_hide", False)
    hide = st.toggle(t("hide"), key="pair_hide", help=t("hide_help"))
    return kind, layer, head, hide


class Side(NamedTuple):
    row: VP.Row | None
    view: tv.TokenView


def pronoun_row(ins: Inspected, tok, kind: str, layer: int, head: int, hide: bool) -> Side:
    """One head's matrix, pieces merged into words (specials hidden if asked), and the pronoun
    lesson's row of it (None without a pronoun)."""
    w = ins.weights(kind, layer)[head].double().cpu().numpy()
    q_ids, k_ids = ins.query_key_ids(kind)
    q_tokens, k_tokens = ins.queries_keys(kind)
    v = tv.view(w, q_tokens, k_tokens, merge=True, hide=hide,
                q_groups=tok.words(q_ids), k_groups=tok.words(k_ids),
                q_words=tok.word_strings(q_ids), k_words=tok.word_strings(k_ids),
                q_special=[tok.is_special(i) for i in q_ids],
                k_special=[tok.is_special(i) for i in k_ids])
    return Side(VP.pronoun_row(v.matrix, v.q_labels, v.k_labels, kind, v.q_special), v)


def rows(ck, ins_a: Inspected, ins_b: Inspected, kind: str, layer: int, head: int,
         hide: bool) -> None:
    """The pronoun's row in both sentences, side by side, the strongest word under each, and
    the verdict: did the head's strongest word move?"""
    tok = ck.tokenizer
    sa = pronoun_row(ins_a, tok, kind, layer, head, hide)
    sb = pronoun_row(ins_b, tok, kind, layer, head, hide)
    if sa.row and sb.row:
        d = VP.diff_words(sa.row.labels, sb.row.labels)
        changed = {"a": d.a, "b": d.b}
        x_max = float(max(sa.row.weights.max(initial=0), sb.row.weights.max(initial=0)))
    else:
        changed = {"a": [], "b": []}
        x_max = None
    if hide:
        st.caption(t("hide_on"))
    if kind == "decoder_self":
        st.caption(t("dec_keys"))
    c1, c2 = st.columns(2)
    for col, which, side, key in ((c1, "which_a", sa, "a"), (c2, "which_b", sb, "b")):
        with col:
            r = side.row
            if r is None:
                st.info(t("no_pronoun_enc" if kind == "encoder_self" else "no_pronoun_dec",
                          which=t(which)))
                continue
            if kind == "encoder_self":
                st.caption(t("row_enc", word=r.query_word))
            else:
                st.caption(t("row_dec", word=r.query_word, pronoun=r.pronoun))
            st.plotly_chart(VP.row_figure(
                r.weights, r.labels, changed=changed[key], strongest=r.strongest,
                title=t("chart_title", which=t(which), word=r.query_word),
                x_title=t("weight_axis"), query=r.query_word, x_max=x_max),
                key=f"pair_chart_{key}")
            best = f"{r.strongest} {r.labels[r.strongest]}"  # as the chart labels it
            st.markdown(t("strongest", word=tv.escape_markdown(best),
                          w=float(r.weights[r.strongest])))
    if sa.row and sb.row:
        st.caption(t("legend"))
        v = VP.verdict(sa.row, sb.row)
        icon = {"moves": "↔️", "same": "⏸️", "changed": "🔁"}[v.code]
        st.markdown(f"### {icon} " + t(f"verdict_{v.code}", a=tv.escape_markdown(v.a),
                                       b=tv.escape_markdown(v.b)), help=t("verdict_help"))
    else:
        st.caption(t("no_verdict"))



# -- the swap: does the pronoun follow the head? ------------------------------------------------
def pronoun_word(text: str) -> int | None:
    """The first English pronoun's word index ("it", "its", punctuation stripped), or None."""
    return next((i for i, w in enumerate(VP.sentence_words(text)) if tv.is_pronoun_en(w)), None)


@inspect_cache.per_checkpoint
def swapped(ck, a: str, b: str, layer: int, head: int, pa: int, pb: int):
    """Both sentences translated with the encoder head's outputs at their pronouns swapped
    (transformer/probing/swap.py): [A with B's, B with A's], or None."""
    return models.run_inference(swap_translate, ck.model, ck.tokenizer, [a, b], [1, 0], [pa, pb],
                                Head("encoder_self", layer, head))


def german_pronouns(text: str) -> list[str]:
    """The German pronouns of a translation, in order, as written (punctuation stripped)."""
    return [tv.strip_edge(w) for w in str(text).split() if tv.is_pronoun_de(w)]


def swap_verdict(before: str, after: str, partner: str) -> tuple[str, str, str, str]:
    """(code, pronouns before, pronouns after, the partner's pronouns) for one sentence swapped
    with its partner's head output. code: 'follows' (it now has the partner's own pronouns, which
    differ from its own: the head carried the choice), 'other' (its pronouns changed, but not to
    the partner's), 'same' (unchanged) or 'none' (no German pronoun anywhere)."""
    pb, pa, pp = german_pronouns(before), german_pronouns(after), german_pronouns(partner)
    low = [[w.lower() for w in x] for x in (pb, pa, pp)]
    if not pb and not pa:
        code = "none"
    elif low[0] == low[1]:
        code = "same"
    elif low[1] == low[2]:
        code = "follows"
    else:
        code = "other"
    return code, ", ".join(pb) or "–", ", ".join(pa) or "–", ", ".join(pp) or "–"


def swap(ck, path: str, a: str, b: str, ins_a: Inspected, ins_b: Inspected, kind: str,
         layer: int, head: int) -> None:
    """The swap: with the toggle on, both sentences are translated again with this head's output
    at "it" swapped between them. A head that carries the pronoun's choice makes A's translation
    take B's pronoun; one that only looks leaves it."""
    st.subheader(t("swap_title"))
    st.caption(t("swap_intro"))
    if kind != "encoder_self":
        st.info(t("swap_kind"))
        return
    pa, pb = pronoun_word(a), pronoun_word(b)
    if pa is None or pb is None:
        st.info(t("swap_no_pronoun"))
        return
    taught_note.show(ck, kind, layer, head, key="pair_taught_control")
    if not st.toggle(t("swap_toggle", head=VH.head_label(kind, layer, head)), key="pair_swap"):
        return
    with page_kit.page_stops_on_bad_input(t):
        out = swapped(path, a, b, layer, head, pa, pb)
    if out is None:
        st.info(t("swap_no_pronoun"))
        return
    c1, c2 = st.columns(2)
    for col, which, other, ins, partner, hyp in (
            (c1, "which_a", "which_b", ins_a, ins_b, out[0]),
            (c2, "which_b", "which_a", ins_b, ins_a, out[1])):
        with col:
            st.markdown(f"**{t('swap_which', which=t(which), other=t(other))}**")
            st.code(hyp or t("output_empty"), language=None, wrap_lines=True)
            code, before, after, theirs = swap_verdict(ins.output, hyp, partner.output)
            st.markdown(t(f"swap_{code}", before=tv.escape_markdown(before),
                          after=tv.escape_markdown(after), partner=tv.escape_markdown(theirs),
                          other=t(other)))
    st.caption(t("swap_help"))
