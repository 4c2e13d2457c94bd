"""Sentence by sentence, where a head looks (transformer.probing.heads.head_choices): read off the head
finder's own pass, checked against a recomputation from the recorded weights, and summing to the
head's score."""
from __future__ import annotations

from pathlib import Path

import pytest
import torch

from transformer.probing import heads as H
from transformer.probing.probe_items import CLASSROOM_PROBE, ProbeItem, read_probe_file
from transformer.core.checkpoint import load_checkpoint
from transformer.core.trace import record

CK = Path(__file__).resolve().parents[1] / "checkpoints" / "classroom-en-de"


@pytest.fixture(scope="module")
def setup():
    torch.set_num_threads(max(1, min(2, torch.get_num_threads())))
    ck = load_checkpoint(CK)
    items = read_probe_file(CLASSROOM_PROBE)[:24]
    scores = H.score_anaphora(ck.model, ck.tokenizer, items, batch_size=7)
    return ck, items, scores, {k: v.tops for k, v in scores.items()}


def _strongest_word(ck, it, kind, layer, head):
    """The word the head weighs most from the pronoun, one sentence at a time, from the
    recorded weights: pieces of a key word summed, the query's pieces averaged."""
    tok = ck.tokenizer
    src = tok.encode(it.text) + [ck.model.cfg.eos_id]
    tgt = [ck.model.cfg.bos_id] + tok.encode(it.target)
    with torch.inference_mode(), record(None) as tr:
        ck.model(torch.tensor([src]), torch.tensor([tgt]))
    w = tr.layers(kind, "weights")[layer][0, head]  # (T, S)
    words = lambda ids: [o for o in H._word_of_position(tok, ids)]
    s_own, t_own = words(src), [-1] + words(tgt[1:])
    if kind == "encoder_self":
        q_own, k_own, q = s_own, s_own, it.pronoun
    else:  # the decoder position that writes the pronoun holds the token before it
        q_own, k_own, q = t_own[1:] + [-1], (s_own if kind == "cross" else t_own), it.tgt_pronoun
    rows = [r for r, o in enumerate(q_own) if o == q]
    n_k = max(k_own) + 1
    score = [sum(float(w[r, c]) for r in rows for c, o in enumerate(k_own) if o == k) / len(rows)
             for k in range(n_k)]
    if kind != "cross" and q < n_k:
        score[q] = -1.0
    return max(range(n_k), key=lambda k: score[k])


@pytest.mark.parametrize("kind,layer,head", [("decoder_self", 2, 6), ("encoder_self", 1, 3),
                                             ("cross", 0, 5)])
def test_choices_match_a_recomputation_and_sum_to_the_score(setup, kind, layer, head):
    ck, items, scores, tops = setup
    got = H.head_choices(items, tops, kind, layer, head)
    # the page's cached numpy copy gives the same
    assert got == H.head_choices(items, {k: v.numpy() for k, v in tops.items()}, kind, layer, head)
    assert len(got) == scores[kind].n == len(items)
    for c in got:
        it = items[c.item]
        assert c.top == _strongest_word(ck, it, kind, layer, head), it.text
        side = it.target if kind == "decoder_self" else it.text
        assert c.words == tuple(side.split())
        assert c.span == it.span(kind == "decoder_self")
    hits = sum(c.hit for c in got) / len(got)
    assert hits == pytest.approx(float(scores[kind].accuracy[layer, head]), abs=1e-6)


def test_the_pronoun_and_an_unscored_item(setup):
    _, items, _, tops = setup
    dec = H.head_choices(items, tops, "decoder_self", 2, 6)
    enc = H.head_choices(items, tops, "encoder_self", 2, 6)
    cross = H.head_choices(items, tops, "cross", 2, 6)
    assert all(c.words[c.pronoun].strip(".,").lower() in ("er", "sie", "es", "ihn", "ihm", "ihr",
                                                            "ihnen") or c.words[c.pronoun].lower()
               .startswith(("sein", "ihr")) for c in dec)
    assert all(c.words[c.pronoun].lower() in ("it", "its", "they", "their", "them") for c in enc)
    assert all(c.pronoun is None for c in cross)
    # an item without target positions is scored for the encoder only
    bare = ProbeItem(items[0].text, items[0].pronoun, items[0].antecedent)
    sc = H.score_anaphora(setup[0].model, setup[0].tokenizer, [bare])
    bare_tops = {k: v.tops for k, v in sc.items()}
    assert set(sc) == {"encoder_self"}
    assert len(H.head_choices([bare], bare_tops, "encoder_self", 0, 0)) == 1
    assert H.head_choices([bare], bare_tops, "decoder_self", 0, 0) == []


def test_choice_rows_put_misses_first_and_mark_the_pronoun():
    from transformer.probing.heads import choice_rows

    words = ("The", "dog", "sees", "the", "cat", "and", "it", "runs", ".")
    hit = H.HeadChoice(0, words, 1, (0, 1), 6)
    miss = H.HeadChoice(1, words, 4, (0, 1), 6)
    eos = H.HeadChoice(2, words, len(words), (0, 1), None)  # past the words: the EOS token
    rows = choice_rows([hit, miss, eos])
    assert [r[0] for r in rows] == ["✗", "✗", "✓"]
    assert rows[0] == ("✗", "The dog sees the cat and [it] runs .", "The dog", "cat")
    assert rows[1][1] == " ".join(words) and rows[1][3] == "</s>"
    assert rows[2][3] == "dog"


def test_the_cli_lists_the_chosen_heads_sentences(capsys):
    out = H.main(["--checkpoint", str(CK), "--probe", str(CLASSROOM_PROBE), "--choices",
                  "--json", "--threads", "1"])
    assert out == 0
    import json

    res = json.loads(capsys.readouterr().out)
    b = res["best"]
    assert res["choices"]["head"] == f"{b['kind']}:{b['layer']}:{b['head']}"
    rows = res["choices"]["rows"]
    assert len(rows) == 186
    assert sum(r[0] == "✓" for r in rows) / len(rows) == pytest.approx(b["accuracy"], abs=1e-3)
    assert H.main(["--checkpoint", str(CK), "--probe", str(CLASSROOM_PROBE), "--choices",
                   "encoder_self:0:1", "--threads", "1"]) == 0
    text = capsys.readouterr().out
    assert "encoder_self:0:1, sentence by sentence" in text and "[it]" in text
    with pytest.raises(SystemExit) as e:
        H.main(["--checkpoint", str(CK), "--probe", str(CLASSROOM_PROBE), "--choices", "cross:7:0"])
    assert e.value.code == 2
