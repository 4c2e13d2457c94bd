"""Where the pronoun head's strongest word lands: the article or the noun of the antecedent.

The Heads page once said a head scores when its strongest word "is the noun the pronoun refers
to"; the scorer counts the noun OR the article before it, and the shipped head reads the article.
The split the page now reports (HeadScores.on_article / on_noun) is checked here against a
recomputation from single-sentence traces (transformer.inspect), grouping pieces into words with
the tokenizer's own word groups rather than the scorer's helpers.
"""
from __future__ import annotations

import json

from pathlib import Path

import numpy as np
import pytest

from ui import i18n

ROOT = Path(__file__).resolve().parents[1]
N = 24


@pytest.fixture(scope="module")
def shipped():
    from transformer.core.checkpoint import load_checkpoint

    return load_checkpoint(ROOT / "checkpoints" / "anaphora-en-de")


def _top_words(ck, item, layer: int) -> np.ndarray:
    """(heads,) index of the strongest target word (specials and the pronoun left out) in the
    decoder self-attention row of the step that writes the German pronoun."""
    from transformer.probing.inspect import inspect_text

    ins = inspect_text(ck.model, ck.tokenizer, item.text, item.target)
    tok = ck.tokenizer
    ids = ins.tgt_ids  # [<s>] + pieces
    groups = tok.words(ids)
    words = [g for g in groups if not (len(g) == 1 and tok.is_special(ids[g[0]]))]
    w = ins.weights("decoder_self", layer).double().numpy()  # (H, T, T)
    pron = words[item.tgt_pronoun]
    # the decoder input at position p - 1 writes the piece at p: average those rows
    row = w[:, [p - 1 for p in pron], :].mean(1)  # (H, T)
    per_word = np.stack([row[:, g].sum(1) for g in words], 1)  # (H, words)
    per_word[:, item.tgt_pronoun] = -1.0
    return per_word.argmax(1)


def test_article_and_noun_split_agrees_with_single_sentence_traces(shipped):
    from transformer.probing import heads as H
    from transformer.probing.probe_items import anaphora_probe

    items = anaphora_probe("test", n=N)
    scores = H.score_anaphora(shipped.model, shipped.tokenizer, items)["decoder_self"]
    n_layers, n_heads = scores.accuracy.shape
    art = np.zeros((n_layers, n_heads))
    noun = np.zeros((n_layers, n_heads))
    for it in items:
        a, nn = it.tgt_antecedent_span
        assert nn == it.tgt_antecedent and a == nn - 1  # every probe noun has its article
        for layer in range(n_layers):
            top = _top_words(shipped, it, layer)
            art[layer] += top == a
            noun[layer] += top == nn
    np.testing.assert_allclose(scores.on_article.numpy(), art / N, atol=1e-9)
    np.testing.assert_allclose(scores.on_noun.numpy(), noun / N, atol=1e-9)
    np.testing.assert_allclose((scores.on_article + scores.on_noun).numpy(),
                               scores.accuracy.numpy(), atol=1e-6)
    # the shipped pronoun head reads the antecedent's noun phrase: its article or its noun
    kind, layer, head, acc, _ = H.best_head(H.score_anaphora(shipped.model, shipped.tokenizer,
                                                             items))
    fh = json.loads((ROOT / "checkpoints" / "anaphora-en-de" / "history.json").read_text())["featured_head"]
    assert (kind, layer, head) == (fh["kind"], fh["layer"], fh["head"])  # the card's head
    # every hit is on the article or the noun, as the card reports
    assert art[layer, head] + noun[layer, head] == N and art[layer, head] > 0 and noun[layer, head] > 0


def test_heads_page_strings_say_what_is_measured():
    """Both languages name the article and the noun, and no longer claim 'the noun' alone."""
    from ui.strings import heads as S

    for lang in ("en", "zh"):
        d = i18n.sentences(S, lang)
        desc = d["desc_anaphora"]
        assert ("article" in desc and "noun" in desc) if lang == "en" else ("冠词" in desc and "名词" in desc)
        assert "is the noun the pronoun refers to" not in desc
        assert "{article" in d["best_split"] and "{noun" in d["best_split"]


def test_no_measured_number_is_written_into_these_pages_prose():
    """Percentages a page shows are computed ({v:.0%}); none is typed into the text (the
    Attention callout once said '100% to 33%' while the Heads page measured 28%)."""
    import json
    import re

    from ui.strings import attention, heads, step, tour

    typed = re.compile(r"\d+(\.\d+)?\s?%")
    for mod in (attention, heads, step, tour):
        for d in (i18n.sentences(mod, lang) for lang in i18n.LANGS):
            for k, v in d.items():
                assert not typed.search(re.sub(r"\{[^}]*\}", "", v)), (mod.__name__, k, v)
    fh = json.loads((ROOT / "checkpoints" / "anaphora-en-de" / "history.json").read_text())
    for lang in ("en", "zh"):
        assert not typed.search(fh["featured_head"][lang])
