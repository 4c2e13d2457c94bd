"""How sure the model was of each word (transformer/probing/certainty.py): the probabilities against
the decoder's own step-by-step computation, the word products, the split the page's note rests on,
the chart, and the Attention page showing it (its note in both languages on the shipped model)."""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import torch

from app_helpers import figure, no_errors, open_pinned, rerun
from transformer.core import decode as D
from transformer.core.decode import greedy
from transformer.core.text import source_ids
from transformer.probing import certainty as C
from transformer.probing.inspect import inspect_text
from viz import decode as VD

ROOT = Path(__file__).resolve().parents[1]


def test_piece_probs_are_the_greedy_decoders_own_step_probabilities(small_checkpoint):
    """The one recorded forward pass gives, for each written piece, the probability that the
    incremental (cached) greedy decoder had when it chose it: two computations, one number."""
    from transformer.core.checkpoint import load_checkpoint

    ck = load_checkpoint(small_checkpoint)
    for text in ("A dog runs in the park .", "Two men play football on the grass ."):
        ins = inspect_text(ck.model, ck.tokenizer, text)
        got = C.piece_probs(ins.trace["logits"][0], ins.tgt_ids[1:])
        r = greedy(ck.model, source_ids(ck.tokenizer, text, ck.model.cfg.max_len)[0], topk=1,
                   max_len=len(ins.tgt_ids) - 1)
        want = [s.top_probs[0] for s in r.steps][: len(got)]
        assert [s.chosen for s in r.steps][: len(got)] == ins.tgt_ids[1:]
        assert got == pytest.approx(want, abs=1e-5)


def test_teacher_forced_probs_match_a_plain_forward_pass(small_checkpoint):
    from transformer.core.checkpoint import load_checkpoint

    ck = load_checkpoint(small_checkpoint)
    ins = inspect_text(ck.model, ck.tokenizer, "A dog runs .", target="Ein Hund rennt .")
    with torch.no_grad():  # an independent pass, plain softmax, no trace
        logits = ck.model(torch.tensor([ins.src_ids]), torch.tensor([ins.tgt_ids]))[0]
    p = torch.softmax(logits.double(), -1)
    want = [float(p[t, tok]) for t, tok in enumerate(ins.tgt_ids[1:])]
    ws = C.output_words(ins, ck.tokenizer)
    assert [q for w in ws for q in w.pieces] == pytest.approx(want, abs=1e-6)
    groups = ck.tokenizer.words(ins.tgt_ids[1:])
    for w, g in zip(ws, groups):
        assert w.prob == pytest.approx(math.prod(want[i] for i in g), rel=1e-5)
    assert [w.text for w in ws] == ck.tokenizer.word_strings(ins.tgt_ids[1:])


def test_words_products_guesses_and_the_mean():
    ws = C.words([0.5, 0.5, 0.9, 0.1], [[0, 1], [2], [3]], ["Hund", "rennt", "."])
    assert [w.prob for w in ws] == pytest.approx([0.25, 0.9, 0.1])
    assert [w.text for w in C.guesses(ws)] == ["."]  # 0.25 is not under 0.2; 0.1 is
    assert C.words([0.1, 0.9], [[0, 1]], ["Hund"])[0].unsure  # 0.09: the whole word is a guess
    assert C.geometric_mean([0.5, 0.5, 0.9, 0.1]) == pytest.approx((0.5 * 0.5 * 0.9 * 0.1) ** 0.25)
    assert C.geometric_mean([]) is None
    with pytest.raises(ValueError, match="2 groups but 1 word texts"):
        C.words([0.5, 0.5], [[0], [1]], ["a"])
    with pytest.raises(ValueError, match="logits"):
        C.piece_probs(torch.zeros(2, 5), [1, 2, 3])


def test_an_empty_output_has_no_words(small_checkpoint):
    from transformer.core.checkpoint import load_checkpoint

    ck = load_checkpoint(small_checkpoint)
    ins = inspect_text(ck.model, ck.tokenizer, "A dog .")
    empty = type(ins)(ins.src_ids, ins.tgt_ids[:1], ins.src_tokens, ins.tgt_tokens[:1], "", False,
                      ins.trace)
    assert C.output_words(empty, ck.tokenizer) == []


def test_split_by_guesses_counts_every_sentence_and_scores_each_group(small_checkpoint):
    """The split the page's note rests on, recomputed: each sentence lands in the group its own
    guessed words say, and each group's chrF is sacrebleu's over that group."""
    import sacrebleu
    from transformer.core.checkpoint import load_checkpoint

    ck = load_checkpoint(small_checkpoint)
    src = ["A dog runs .", "Two men play football .", "A woman reads a book ."]
    ref = ["Ein Hund rennt .", "Zwei Männer spielen Fußball .", "Eine Frau liest ein Buch ."]
    got = C.split_by_guesses(ck.model, ck.tokenizer, src, ref)
    assert got["guessed"]["n"] + got["sure"]["n"] == 3
    groups = {"guessed": ([], []), "sure": ([], [])}
    for s, r in zip(src, ref):
        ins = inspect_text(ck.model, ck.tokenizer, s)
        ws = [w for w in C.output_words(ins, ck.tokenizer) if w.text != "</s>"]
        name = "guessed" if sum(w.prob < 0.2 for w in ws) >= 2 else "sure"
        groups[name][0].append(ins.output)
        groups[name][1].append(r)
    for name, (hyps, refs) in groups.items():
        assert got[name]["n"] == len(hyps)
        if hyps:
            assert got[name]["chrf"] == round(sacrebleu.CHRF().corpus_score(hyps, [refs]).score, 2)
        else:
            assert got[name]["chrf"] is None
    with pytest.raises(ValueError, match="2 sources but 1 references"):
        C.split_by_guesses(ck.model, ck.tokenizer, src[:2], ref[:1])


def test_certainty_figure_colours_guesses_and_keeps_every_word():
    fig = VD.certainty_figure(["Ihre", "Absicht", "ist", "Ihre"], [0.11, 0.09, 0.66, 0.5],
                              unsure=0.2, guess_name="guess", sure_name="sure")
    sure, guess = fig.data
    assert (sure.name, guess.name) == ("sure", "guess")
    assert list(guess.y) == [0.11, 0.09] and list(sure.y) == [0.66, 0.5]
    assert guess.marker.color == VD.GUESS_COLOR and sure.marker.color != VD.GUESS_COLOR
    assert list(guess.text) == ["0.11", "0.09"]
    xs = list(fig.layout.xaxis.categoryarray)
    assert len(xs) == 4 and len(set(xs)) == 4  # the repeated "Ihre" is a bar of its own
    assert fig.layout.shapes[0].y0 == 0.2  # the dashed line at the threshold
    with pytest.raises(ValueError, match="2 words but 1 probabilities"):
        VD.certainty_figure(["a", "b"], [0.5], unsure=0.2)


@pytest.mark.parametrize("lang,word", [("en", "guessing"), ("zh", "猜")])
def test_the_attention_page_shows_the_guesses_on_the_shipped_model(monkeypatch, tmp_path, lang,
                                                                   word):
    """The default model on the one sentence every attention student types: it guesses, and the
    page says so (in the page's language) with the words and their probabilities; on a sentence
    it knows, the chart is there and the note is not."""
    from transformer.core.checkpoint import load_checkpoint

    at = open_pinned(monkeypatch, ROOT / "checkpoints", tmp_path, "pages/attention.py", lang=lang,
                     query={"text": "Attention is all you need ."})
    no_errors(at)
    assert at.session_state["ckpt_path"].endswith("everyday-en-de")
    ck = load_checkpoint(at._ck)
    ws = C.output_words(inspect_text(ck.model, ck.tokenizer, "Attention is all you need .",
                                     beam=D.BEST_BEAM, alpha=D.BEST_ALPHA,
                                     coverage=D.BEST_COVERAGE), ck.tokenizer)  # as the page opens
    guessed = C.guesses(ws)
    assert len(guessed) >= C.UNSURE_WORDS  # the premise of this test, on today's default model
    notes = [w.value for w in at.warning if f"{guessed[0].text} {guessed[0].prob:.2f}" in w.value]
    assert len(notes) == 1 and word in notes[0]
    fig = figure(at, "attention_certainty")
    bars = [y for tr in fig["data"] if tr["type"] == "bar" for y in tr["y"]]
    assert sorted(bars) == pytest.approx(sorted(w.prob for w in ws), abs=1e-5)

    at.text_input(key="attention_text").set_value("I don't understand the question .")
    rerun(at)
    no_errors(at)
    assert not [w for w in at.warning if word in w.value]
    assert figure(at, "attention_certainty")
