"""The Decode page's beam-search tree, recorded from transformer.core.decode.beam_search itself.

Checked against independent computations on the shipped models: recording changes nothing;
the tree's best path is what beam_search returned; every node's log-probability is recomputed
from full teacher-forced passes of the model (no cache), its score from the GNMT formula written
out here; every step's candidates are recomputed as the 2*beam best extensions of the previous
step's kept hypotheses, with what should become of each. Then the figure and the page.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from transformer.core.beam_trace import trace_beam_search
from transformer.core.checkpoint import load_checkpoint
from transformer.core.decode import beam_search
from transformer.core.text import source_ids
from ui import i18n
from viz import beam_tree as BT

ROOT = Path(__file__).resolve().parents[1] / "checkpoints"
ANAPHORA = "The dog saw the cup because it was hungry ."


@pytest.fixture(scope="module")
def anaphora():
    return load_checkpoint(ROOT / "anaphora-en-de")


@pytest.fixture(scope="module")
def copy_model():
    return load_checkpoint(ROOT / "copy-tiny")


def _lp(n: int, alpha: float, form: str) -> float:
    return n ** alpha if form == "length" else ((5 + n) / 6) ** alpha


class Independent:
    """log P(next token | prefix, source) from full passes of the model, memoised by prefix."""

    def __init__(self, model, src):
        self.model, self.src, self.memo = model, torch.tensor([src]), {}

    def next_logp(self, prefix: tuple[int, ...]) -> torch.Tensor:
        if prefix not in self.memo:
            tgt = torch.tensor([[self.model.cfg.bos_id, *prefix]])
            with torch.inference_mode():
                z = self.model(self.src, tgt)[0, -1].double()  # (V,)
            lp = torch.log_softmax(z, -1)
            if not self.model.cfg.emit_pad:
                lp[self.model.cfg.pad_id] = float("-inf")
            self.memo[prefix] = lp
        return self.memo[prefix]

    def logp(self, tokens: list[int]) -> float:
        return sum(float(self.next_logp(tuple(tokens[:i]))[t]) for i, t in enumerate(tokens))


CASES = [  # (model, source, beam, alpha, keyword arguments)
    ("anaphora", ANAPHORA, 4, 0.6, {}),
    ("anaphora", ANAPHORA, 3, 1.0, {"early_stopping": False}),
    ("anaphora", ANAPHORA, 2, 0.0, {"lp": "length"}),
    ("anaphora", ANAPHORA, 4, 0.6, {"max_len": 6}),  # stops at max_len: no </s>
    ("anaphora", ANAPHORA, 1, 0.6, {}),  # beam 1 is greedy
    ("copy", "g s j a c e", 4, 0.6, {}),
    ("copy", "a b c d e f", 3, 0.6, {"early_stopping": False, "lp": "length"}),
]


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}-b{c[2]}-a{c[3]}-{c[4]}" for c in CASES])
def test_the_tree_is_the_search(case, anaphora, copy_model):
    name, text, beam, alpha, kw = case
    ck = anaphora if name == "anaphora" else copy_model
    model, eos = ck.model, ck.model.cfg.eos_id
    src = source_ids(ck.tokenizer, text, model.cfg.max_len)[0]
    plain = beam_search(model, src, beam, alpha, **kw)
    res, tree = trace_beam_search(model, src, beam, alpha, **kw)
    # recording changes nothing
    assert (res.tokens, res.score, res.finished) == (plain.tokens, plain.score, plain.finished)
    # the best path is the output, its score the returned score
    best = tree.nodes[tree.best]
    assert best.tokens == plain.tokens + ([eos] if plain.finished else [])
    assert [n.token for n in tree.path()[1:]] == best.tokens
    assert best.score == pytest.approx(plain.score, abs=1e-9)
    if "max_len" in kw:
        assert not plain.finished and best.status == "kept" and best.step == kw["max_len"]
    if beam == 1:
        from transformer.core.decode import greedy
        assert plain.tokens == greedy(model, src).tokens

    form = kw.get("lp", "gnmt")
    ind = Independent(model, src)
    for n in tree.nodes[1:]:
        want = ind.logp(n.tokens)
        assert n.logp == pytest.approx(want, abs=2e-4), (n.tokens, n.logp, want)
        assert n.score == pytest.approx(n.logp / _lp(len(n.tokens), alpha, form), abs=1e-9)
        assert n.token_logp == pytest.approx(float(ind.next_logp(tuple(n.tokens[:-1]))[n.token]),
                                             abs=2e-4)

    # every step: the 2*beam best extensions of the previous step's kept hypotheses
    alive = [tree.nodes[0]]
    for step in range(1, tree.steps + 1):
        cands = []
        for h, parent in enumerate(alive):
            base = ind.logp(parent.tokens)
            for tok, lp in enumerate(ind.next_logp(tuple(parent.tokens)).tolist()):
                cands.append((base + lp, h, tok))
        cands.sort(key=lambda c: -c[0])
        top = cands[:min(2 * beam, len(cands))]
        got = tree.at_step(step)
        assert len(got) == len(top)
        # same candidates (up to float32 ties), each with what beam search does with it
        assert [(n.tokens[:-1], n.token) for n in got] == \
            [(alive[h].tokens, tok) for _, h, tok in top] or \
            all(abs(n.logp - c[0]) < 2e-4 for n, c in zip(got, top))
        kept = 0
        for rank, n in enumerate(got):
            assert n.rank == rank and n.logp == pytest.approx(top[rank][0], abs=2e-4)
            if n.token == eos:
                assert n.status == ("finished" if rank < beam else "eos_pruned")
            else:
                assert n.status == ("kept" if kept < beam else "pruned")
                kept += n.status == "kept"
        alive = [n for n in got if n.status == "kept"]


def test_finished_table(anaphora):
    src = source_ids(anaphora.tokenizer, ANAPHORA, 512)[0]
    res, tree = trace_beam_search(anaphora.model, src, 4, 0.6)
    df = BT.finished_table(tree, anaphora.tokenizer.decode)
    assert len(df) >= 1 and list(df["score"]) == sorted(df["score"], reverse=True)
    assert df["returned"].sum() == 1 and df["returned"].iloc[0]
    assert df["hypothesis"].iloc[0] == anaphora.tokenizer.decode(res.tokens)
    for _, r in df.iterrows():
        assert r["lp"] == pytest.approx(((5 + r["|Y|"]) / 6) ** 0.6)
        assert r["score"] == pytest.approx(r["log P"] / r["lp"])


def test_the_figure(anaphora):
    src = source_ids(anaphora.tokenizer, ANAPHORA, 512)[0]
    res, tree = trace_beam_search(anaphora.model, src, 4, 0.6)
    display = anaphora.tokenizer.display
    labels = {"finished": "fini <b>x</b>", "key": "<key>"}
    wins = BT.windows(tree)
    assert wins[0][0] == 0 and wins[-1][1] == tree.steps
    assert all(a2 == b1 for (_, b1), (a2, _) in zip(wins, wins[1:]))
    fig = BT.figure(tree, display, steps=wins[-1], labels=labels)
    spec = json.loads(fig.to_json())
    names = [tr.get("name") for tr in spec["data"]]
    assert "fini &lt;b&gt;x&lt;/b&gt;" in names  # every drawn string escaped
    assert "&lt;key&gt;" in [a["text"] for a in spec["layout"]["annotations"]]
    a, b = wins[-1]
    drawn = {}
    for tr in spec["data"]:
        if tr.get("mode") == "markers+text":
            for x, y, text, cd in zip(tr["x"], tr["y"], tr["text"], tr["customdata"]):
                drawn[(x, y)] = (text, cd)
    want = [n for n in tree.nodes if a <= n.step <= b]
    assert len(drawn) == len(want)
    for n in want:
        text, cd = drawn[(n.step, -n.rank)]
        tok = display([n.token])[0]
        tok = BT.short(tok)  # a long word is cut (the hover has it whole)
        assert text.startswith(f"<b>{tok.replace('<', '&lt;').replace('>', '&gt;')}</b>")
        assert f"{n.logp:.2f}" in text and f"{n.score:.2f}" in text  # both numbers written
        assert cd[1] == pytest.approx(n.logp) and cd[2] == pytest.approx(n.score)
    if tree.nodes[tree.best].step >= a:
        best = next(tr for tr in spec["data"] if tr.get("line", {}).get("color") == BT.BEST_COLOR)
        assert best["x"] == [n.step for n in tree.path() if n.step >= a]
    # the whole search at once: tokens only, numbers in the hover
    full = json.loads(BT.figure(tree, display).to_json())
    texts = [t for tr in full["data"] if tr.get("mode") == "markers+text" for t in tr["text"]]
    assert len(texts) == len(tree.nodes) and not any("<br>" in t for t in texts)
    with pytest.raises(ValueError, match="empty"):
        BT.figure(tree, display, steps=(5, 2))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_draws_the_tree(monkeypatch, tmp_path, anaphora, lang):
    from app_helpers import figure, no_errors, open_pinned, rerun
    from helpers import shipped_folder
    from ui.strings import decode as S

    shipped = shipped_folder(tmp_path, ROOT / "anaphora-en-de", "anaphora-en-de")
    at = open_pinned(monkeypatch, shipped, tmp_path, "pages/decode.py", lang=lang)
    at.radio(key="decode_method").set_value("beam")
    rerun(at)
    no_errors(at)
    src = source_ids(anaphora.tokenizer, at.text_input(key="decode_text").value, 512)[0]
    res, tree = trace_beam_search(anaphora.model, src, 4, 0.6)
    assert at.code[0].value == anaphora.tokenizer.decode(res.tokens)
    table = i18n.sentences(S, lang)
    fig = figure(at, "decode_beam_tree")
    names = {tr.get("name") for tr in fig["data"]}
    assert table["tree_kept"] in names and table["tree_best"] in names
    assert fig["layout"]["title"]["text"] == table["tree_title"]
    [fin] = [d for d in at.dataframe if table["tree_col_hyp"] in d.value.columns]
    assert fin.value[table["tree_col_hyp"]].iloc[0] == anaphora.tokenizer.decode(res.tokens)
    # a later window of the search
    if len(BT.windows(tree)) > 1:
        at.select_slider(key="decode_tree_window").set_value(1)
        rerun(at)
        no_errors(at)
        xs = [x for tr in figure(at, "decode_beam_tree")["data"]
              if tr.get("mode") == "markers+text" for x in tr["x"]]
        assert min(xs) == BT.windows(tree)[1][0]
