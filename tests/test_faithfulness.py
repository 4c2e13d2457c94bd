"""The faithfulness map (issue 49, item 2): LD, effect and looks against a hand computation on a
tiny model and a two-pair file, written here without the project's hook points (torch hooks on
the model's own modules, one sentence at a time, pieces found by encoding word prefixes); the
command line's JSON shape and its one-line errors; the Heads page's section in both languages."""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import torch

from helpers import CORPUS, shipped_folder, tiny_config

ROOT = Path(__file__).resolve().parents[1]
PAIRS = ROOT / "transformer" / "probes" / "minimal_pairs_en.jsonl"
TAUGHT = {"task": "test", "extra": {"supervise": {"head": "encoder_self:1:2"},
                                    "interchange": {"head": "encoder_self:1:2,decoder_self:0:1"}}}


def _lines() -> list[dict]:
    return [json.loads(x) for x in PAIRS.read_text(encoding="utf-8").splitlines()[:4]]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """A tiny untrained model whose tokenizer writes "er" and "sie" with different first pieces,
    saved as a checkpoint with two taught heads, and the two-pair file."""
    from transformer.core.checkpoint import save_checkpoint
    from transformer.core.model import Transformer
    from transformer.core.tokenizer import Tokenizer

    lines = _lines()
    tok = Tokenizer.train((CORPUS + [s for x in lines for s in (x["text"], x["target"])]) * 8,
                          vocab_size=400)
    torch.manual_seed(3)
    model = Transformer(tiny_config(vocab_size=tok.vocab_size, d_model=32, n_heads=4)).eval()
    d = tmp_path_factory.mktemp("faith")
    save_checkpoint(d / "ck", model, tok, train_config=TAUGHT)
    probe = d / "pairs.jsonl"
    probe.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return model, tok, d / "ck", probe


# -- the hand computation -------------------------------------------------------------------------
def _word_span(tok, words: list[str], lo: int, hi: int) -> list[int]:
    """Positions of words lo..hi's pieces: encode the words before and through them."""
    return list(range(len(tok.encode(" ".join(words[:lo]))) if lo else 0,
                      len(tok.encode(" ".join(words[:hi + 1])))))


def _np(words: list[str], noun: int) -> tuple[int, int]:
    return (noun - 1, noun) if noun and words[noun - 1].lower() in ("the", "der", "die", "das",
                                                                    "den", "dem") else (noun, noun)


def _sentence(tok, line: dict) -> dict:
    """Source ids, the German ids, where the pronoun's pieces start, "it", both phrases."""
    en, de = line["text"].split(), line["target"].split()
    src = tok.encode(line["text"]) + [2]
    tgt = tok.encode(line["target"])
    start = len(tok.encode(" ".join(de[:line["tgt_pronoun"]])))
    it = len(tok.encode(" ".join(en[:line["pronoun"]])))
    return {"src": src, "tgt": tgt, "start": start, "it": it,
            "phrase_en": _word_span(tok, en, *_np(en, line["antecedent"])),
            "phrase_de": _word_span(tok, de, *_np(de, line["tgt_antecedent"]))}


def _module(model, kind: str, layer: int):
    stack = model.encoder if kind == "encoder_self" else model.decoder
    return getattr(stack.layers[layer], "cross_attn" if kind == "cross" else "self_attn")


def _run(model, src, tgt_in, kind=None, layer=None, head=None, pos=None, value=None):
    """Logits of one sentence; records every attention's inputs and its W_O input (concat), and
    with `value` puts it into head `head`'s slice of W_O's input at `pos`."""
    seen, handles = {}, []
    dk = model.cfg.d_model // model.cfg.n_heads
    for k in ("encoder_self", "decoder_self", "cross"):
        n = model.cfg.n_encoder_layers if k == "encoder_self" else model.cfg.n_decoder_layers
        for li in range(n):
            m = _module(model, k, li)

            def grab(mod, args, kwargs, key=(k, li)):
                seen[key + ("in",)] = (args[0], args[1] if len(args) > 1 else kwargs.get("memory"))

            def pre(mod, args, key=(k, li)):
                x = args[0].clone()
                seen[key + ("concat",)] = x.clone()
                if value is not None and key == (kind, layer):
                    x[0, pos, head * dk:(head + 1) * dk] = value
                return (x,)
            handles.append(m.register_forward_pre_hook(grab, with_kwargs=True))
            handles.append(m.out_proj.register_forward_pre_hook(pre))
    try:
        with torch.no_grad():
            logits = model(torch.tensor([src]), torch.tensor([tgt_in]))
    finally:
        for h in handles:
            h.remove()
    return logits[0], seen


def _weights(model, seen, kind, layer) -> torch.Tensor:
    """(H,T,S) softmax(Q K^T / sqrt(dk)) from the module's own projection, causal for the
    decoder's self-attention (one sentence: no padding)."""
    x, memory = seen[(kind, layer, "in")]
    m = _module(model, kind, layer)
    d, h = model.cfg.d_model, model.cfg.n_heads
    w, b = m.in_proj.weight, m.in_proj.bias
    q = (x[0] @ w[:d].T + b[:d]).view(-1, h, d // h).transpose(0, 1)
    kv = x[0] if memory is None else memory[0]
    k = (kv @ w[d:2 * d].T + b[d:2 * d]).view(-1, h, d // h).transpose(0, 1)
    s = q @ k.transpose(-1, -2) / math.sqrt(d // h)
    if kind == "decoder_self":
        t = s.size(-1)
        s = s.masked_fill(torch.ones(t, t).triu(1).bool(), float("-inf"))
    return torch.softmax(s, -1)


def hand(model, tok, lines) -> dict:
    """{(kind, layer, head): (looks, effect)} and the pairs' LD, by the issue's definitions."""
    cfg = model.cfg
    out, lds = {}, []
    per = {}
    for a, b in ((lines[0], lines[1]), (lines[2], lines[3])):
        sa, sb = _sentence(tok, a), _sentence(tok, b)
        assert sa["tgt"][:sa["start"]] == sb["tgt"][:sb["start"]]
        pa, pb = sa["tgt"][sa["start"]], sb["tgt"][sb["start"]]
        assert pa != pb
        tgt_in = [cfg.bos_id] + sa["tgt"][:sa["start"]]
        w = len(tgt_in) - 1  # the position that writes the pronoun
        runs = {}
        for name, s in (("A", sa), ("B", sb)):
            logits, seen = _run(model, s["src"], tgt_in)
            runs[name] = (logits[w, pa] - logits[w, pb]).item(), seen, s
        lds.append((runs["A"][0], runs["B"][0]))
        for kind in ("encoder_self", "decoder_self", "cross"):
            n = cfg.n_encoder_layers if kind == "encoder_self" else cfg.n_decoder_layers
            for layer in range(n):
                for head in range(cfg.n_heads):
                    dk = cfg.d_model // cfg.n_heads
                    for me, other in (("A", "B"), ("B", "A")):
                        ld_me, seen_me, s_me = runs[me]
                        ld_other, seen_other, s_other = runs[other]
                        q_me = s_me["it"] if kind == "encoder_self" else w
                        q_other = s_other["it"] if kind == "encoder_self" else w
                        value = seen_other[(kind, layer, "concat")][0, q_other, head * dk:(head + 1) * dk]
                        logits, _ = _run(model, s_me["src"], tgt_in, kind, layer, head, q_me, value)
                        ld_p = (logits[w, pa] - logits[w, pb]).item()
                        keys = s_me["phrase_de"] if kind == "decoder_self" else s_me["phrase_en"]
                        if kind == "decoder_self":
                            keys = [1 + k for k in keys]  # decoder input: BOS first
                        look = _weights(model, seen_me, kind, layer)[head, q_me, keys].sum().item()
                        e = (ld_me - ld_p) / (ld_me - ld_other)
                        per.setdefault((kind, layer, head), []).append((look, e))
    for key, v in per.items():
        out[key] = (sum(x for x, _ in v) / len(v), sum(e for _, e in v) / len(v))
    return {"heads": out, "ld": lds}


def test_map_matches_the_hand_computation(tiny):
    from transformer.probing import faithfulness as F
    from transformer.probing.probe_items import read_probe_file
    from transformer.probing.taught import taught

    model, tok, ck, probe = tiny
    items = read_probe_file(probe)
    want = hand(model, tok, _lines())
    pairs, skipped = F.find_pairs(model, tok, items)
    assert len(pairs) == 2 and skipped == 0
    with torch.inference_mode():
        got = F.faithfulness(model, tok, items, taught(TAUGHT))
        # the LDs of the clean runs, through the module's own batched pass
        part = F._chunk(model, pairs, [])
    assert torch.allclose(part["ld"], torch.tensor([x for p in want["ld"] for x in p],
                                                   dtype=torch.double), atol=1e-4)
    assert got["pairs"] == 2
    assert len(got["heads"]) == len(want["heads"]) == 3 * 2 * 4
    for h in got["heads"]:
        look, eff = want["heads"][(h["kind"], h["layer"], h["head"])]
        assert h["looks"] == pytest.approx(look, abs=1e-4), h
        assert h["effect"] == pytest.approx(eff, abs=1e-4, rel=1e-4), h
    # some head moves the pronoun's choice (the test is not vacuous)
    assert max(abs(h["effect"]) for h in got["heads"]) > 0.01
    marks = {(h["kind"], h["layer"], h["head"]): h["taught"] for h in got["heads"]}
    assert marks[("encoder_self", 1, 2)] == ["supervised", "interchange"]
    assert marks[("decoder_self", 0, 1)] == ["interchange"]
    assert sum(bool(v) for v in marks.values()) == 2


def test_spearman_by_hand():
    from transformer.probing.faithfulness import spearman

    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    # ties take their mean rank: ranks (1, 2.5, 2.5, 4) against (1, 2, 3, 4)
    assert spearman([0, 5, 5, 9], [1, 2, 3, 4]) == pytest.approx(4.5 / math.sqrt(4.5 * 5))
    assert spearman([1, 1, 1], [1, 2, 3]) is None


def test_cli_json_shape(tiny, capsys):
    from transformer.probing.faithfulness import main

    _, _, ck, probe = tiny
    assert main(["--checkpoint", str(ck), "--probe", str(probe), "--json", "--threads", "1"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert {"pairs", "spearman", "heads"} <= set(res)
    assert res["pairs"] == 2 and isinstance(res["spearman"], float) and -1 <= res["spearman"] <= 1
    assert len(res["heads"]) == 24
    kinds = [h["kind"] for h in res["heads"]]
    assert kinds.count("encoder_self") == kinds.count("decoder_self") == kinds.count("cross") == 8
    for h in res["heads"]:
        assert set(h) == {"kind", "layer", "head", "looks", "effect", "taught"}
        assert isinstance(h["taught"], list) and 0 <= h["looks"] <= 1 + 1e-9


@pytest.mark.parametrize("body, says", [
    ('{"text": "The dog was sick .", "pronoun": 9, "antecedent": 1}\n', "pairs.jsonl:1:"),
    ("not json\n", "pairs.jsonl:1:"),
    ('{"text": "The dog saw it .", "pronoun": 3, "antecedent": 1}\n', "no minimal pair"),
])
def test_bad_pair_file_is_one_line(tiny, tmp_path, capsys, body, says):
    from transformer.probing.faithfulness import main

    _, _, ck, _ = tiny
    bad = tmp_path / "pairs.jsonl"
    bad.write_text(body, encoding="utf-8")
    with pytest.raises(SystemExit) as e:
        main(["--checkpoint", str(ck), "--probe", str(bad), "--json"])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and says in err, err


# -- the Heads page -------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_heads_page_section(monkeypatch, tmp_path, tiny, lang):
    from app_helpers import figure, no_errors, open_pinned, rerun
    from transformer.core.checkpoint import load_checkpoint
    from transformer.probing import faithfulness as F
    from transformer.probing.probe_items import MINIMAL_PAIRS_PROBE, read_probe_file
    from transformer.probing.taught import taught
    from ui import i18n
    from ui.strings import faithfulness as S

    _, _, ck, _ = tiny
    at = open_pinned(monkeypatch, shipped_folder(tmp_path, ck, "faith-tiny"), tmp_path,
                     "pages/heads.py", lang=lang)
    no_errors(at)
    assert not [c for c in at.get("plotly_chart") if "heads_faith_map" in c.proto.id]
    at.toggle(key="heads_faith_on").set_value(True)
    rerun(at)
    no_errors(at)
    fig = figure(at, "heads_faith_map")
    tr = lambda k, **kw: i18n.text(S, k, lang, **kw)  # noqa: E731
    names = [d["name"] for d in fig["data"]]
    assert names == [tr("kind_encoder_self"), tr("kind_decoder_self"), tr("kind_cross"), tr("taught")]
    assert fig["layout"]["xaxis"]["title"]["text"] == tr("looks")
    assert tr("looks") in fig["data"][0]["hovertemplate"]
    # the same numbers as the core on the project's minimal pairs
    c = load_checkpoint(ck)
    want = F.faithfulness(c.model, c.tokenizer, read_probe_file(MINIMAL_PAIRS_PROBE),
                          taught(c.train_config))
    dots = {lab[0]: (x, y) for d in fig["data"][:3]
            for lab, x, y in zip(d["customdata"], d["x"], d["y"])}
    assert len(dots) == 24
    from transformer.core.names import Head
    for h in want["heads"]:
        x, y = dots[Head(h["kind"], h["layer"], h["head"]).label]
        assert x == pytest.approx(h["looks"], abs=1e-6) and y == pytest.approx(h["effect"], abs=1e-6)
    star = fig["data"][3]
    assert sorted(star["text"]) == ["dec L0 H1", "enc L1 H2"]
    text = " ".join(m.value for m in at.markdown)
    assert tr("how_interchange") in text and "enc L1 H2" in text
    head = tr("look_without_act", looks="0.3", effect="0.1", heads="@").split("@")[0]
    assert head in text
    assert tr("spearman", heads=24, rho=f"{want['spearman']:.2f}") in text
    if lang == "zh":  # tests/test_zh_complete.py's reader: no English left on the section
        from test_zh_complete import Model, checkpoint_names, collect, failures, lexicon

        at.expander[-1]  # the definitions are rendered (read with the rest of the page)
        page = collect(at, "Heads (faithfulness)")
        bad = failures(page, lexicon(page, Model(ck), checkpoint_names()))
        # the fixture's task ("test", on the model card's line) and its name in the sidebar
        # ("faith-tiny") are not this section's
        assert not [f for f in bad if "['test']" not in f and "['faith-tiny']" not in f], bad
