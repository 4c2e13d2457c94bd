"""The swap test (transformer/probing/swap.py): swapping a sentence with itself changes nothing,
a batched swap equals each sentence decoded alone with the partner's vector written in by hand,
and only pairs whose reference pronouns differ are tested."""
from __future__ import annotations

import torch

from transformer.core import trace
from transformer.core.decode import greedy_batch
from transformer.core.names import Head
from transformer.core.text import source_ids
from transformer.probing.heads import _word_of_position
from transformer.probing.probe_items import ProbeItem
from transformer.probing.swap import swap_test, swap_translate

TEXTS = ["the cat sat on the mat because it was tired .",
         "the cat sat on the mat because it was wide .",
         "a dog saw the ball and it ran .",
         "a dog saw the ball and it rolled ."]
IT = [7, 7, 5, 5]


def _model(tokenizer):
    from transformer.core.model import Transformer
    from helpers import tiny_config

    torch.manual_seed(1)
    return Transformer(tiny_config(vocab_size=tokenizer.vocab_size)).eval()


def test_swapping_each_sentence_with_itself_changes_nothing(tokenizer):
    model = _model(tokenizer)
    got = swap_translate(model, tokenizer, TEXTS, [0, 1, 2, 3], IT, Head("encoder_self", 1, 2))
    plain = [tokenizer.decode(o) for o in greedy_batch(
        model, [source_ids(tokenizer, t, model.cfg.max_len)[0] for t in TEXTS])]
    assert got == plain


def test_a_batched_swap_equals_each_sentence_patched_alone(tokenizer):
    model = _model(tokenizer)
    head = Head("encoder_self", 1, 3)
    point = trace.point(head.path, "head_out")
    partners = [1, 0, 3, 2]
    got = swap_translate(model, tokenizer, TEXTS, partners, IT, head)
    ids = [source_ids(tokenizer, t, model.cfg.max_len)[0] for t in TEXTS]
    q = [next(j for j, o in enumerate(_word_of_position(tokenizer, x[:-1])) if o == w)
         for x, w in zip(ids, IT)]
    want = []
    for r in range(len(TEXTS)):
        p = partners[r]
        with torch.inference_mode(), trace.record() as rec:
            model(torch.tensor([ids[p]]), torch.tensor([[model.cfg.bos_id]]))
        vec = rec[point][0, head.head, q[p]].clone()  # (dk,): the partner's output at its "it"

        def put(x, vec=vec, at=q[r]):
            x = x.clone()
            x[0, head.head, at] = vec
            return x
        with trace.intervene({point: put}):
            want.append(tokenizer.decode(greedy_batch(model, [ids[r]])[0]))
    assert got == want
    # only encoder self-attention heads carry an output at the English "it"
    assert swap_translate(model, tokenizer, TEXTS, partners, IT, Head("decoder_self", 0, 0)) is None


def test_only_pairs_with_different_pronouns_are_tested(tokenizer):
    model = _model(tokenizer)
    same = [ProbeItem(TEXTS[0], 7, 1, "die Katze , weil sie müde war .", 4, 1, pair=0),
            ProbeItem(TEXTS[1], 7, 5, "die Matte , weil sie breit war .", 4, 1, pair=0)]
    assert swap_test(model, tokenizer, same, Head("encoder_self", 1, 0)) is None
    differ = [ProbeItem(TEXTS[2], 5, 1, "ein Hund sah den Ball und er lief .", 6, 1, pair=1),
              ProbeItem(TEXTS[3], 5, 4, "ein Hund sah den Ball und er rollte .", 6, 4, pair=1),
              ProbeItem(TEXTS[0], 7, 1, "die Katze , weil sie müde war .", 4, 1, pair=2),
              ProbeItem(TEXTS[1], 7, 5, "die Matte , weil es breit war .", 4, 1, pair=2)]
    r = swap_test(model, tokenizer, differ, Head("encoder_self", 1, 0))
    assert r["pairs"] == 1 and r["sentences"] == 2
    assert r["right_unswapped"] <= 2 and len(r["examples"]) == 2
    assert {e["partner"] for e in r["examples"]} == {TEXTS[0], TEXTS[1]}
    assert swap_test(model, tokenizer, differ, Head("encoder_self", 9, 0)) is None
