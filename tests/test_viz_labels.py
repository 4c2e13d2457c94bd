"""Every figure builder that draws tokens sends them through viz.labels: a token such as </s>,
<pad>, <b>x</b> or &amp; must reach plotly escaped (plotly reads a subset of HTML; an unescaped
</s> collapsed the Masks page's heatmaps into 19-pixel slivers). The test walks each figure's
JSON and fails on any drawn string that still holds one of those tokens raw."""
from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from viz import attention as A
from viz import decode as D
from viz import labels as L
from viz import masks as Mk
from viz import positional as P
from viz import scaling as S
from viz import step as St
from viz import worked as V

HOSTILE = ["</s>", "<pad>", "<b>x</b>", "&amp;"]
RAW = re.compile(r"</s>|<pad>|<b>x</b>|&amp;(?!amp;)")


def _strings(obj, path=""):
    """Every string in a figure's JSON, with where it sits."""
    if isinstance(obj, str):
        yield path, obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from _strings(v, f"{path}.{k}")
    elif isinstance(obj, (list, tuple)):
        for i, v in enumerate(obj):
            yield from _strings(v, f"{path}[{i}]")
    elif isinstance(obj, np.ndarray) and obj.dtype == object:
        for i, v in enumerate(obj.ravel()):
            yield from _strings(v, f"{path}[{i}]")


def _raw(fig) -> list[str]:
    return [f"{p}: {s!r}" for p, s in _strings(fig.to_plotly_json()) if RAW.search(s)]


def _shows_every_token(fig) -> bool:
    """Each hostile token appears escaped somewhere in the figure (it was drawn, not dropped)."""
    drawn = " ".join(s for _, s in _strings(fig.to_plotly_json()))
    return all(L.text(h) in drawn for h in HOSTILE)


def _builders():
    n = len(HOSTILE)
    eye = np.eye(n)
    row = Mk.masked_row(Mk.random_scores(n, 0), np.array([True, True, False, False]))
    batch = Mk.make_batch(" ".join(HOSTILE) + "\nA", None)
    topk = pd.DataFrame({"token": HOSTILE, "p": [0.4, 0.3, 0.2, 0.1], "chosen": [True] + [False] * 3,
                         "id": range(n), "rank": range(1, n + 1)})
    norms = P.norm_frame(HOSTILE, np.ones((n, 4)), np.ones((n, 4)))
    return {
        "attention.heatmap": lambda: A.heatmap(eye, HOSTILE, HOSTILE, title="<b>x</b>"),
        "attention.model_view": lambda: A.model_view(np.ones((1, 2, n, n)) / n, HOSTILE, HOSTILE,
                                                     row_titles=["</s>"], col_titles=["<pad>", "&amp;"]),
        "attention.head_view": lambda: A.head_view(np.ones((2, n, n)) / n, HOSTILE, HOSTILE,
                                                   head_names=["</s>", "<pad>"], selected=0,
                                                   left_title="<b>x</b>", right_title="&amp;"),
        "decode.topk_figure": lambda: D.topk_figure(topk),
        "decode.heads_keys_figure": lambda: D.heads_keys_figure(np.ones((2, n)) / n, ["<pad>", "</s>"],
                                                                HOSTILE),
        "masks.mask_figure": lambda: Mk.mask_figure(eye.astype(bool), HOSTILE, HOSTILE,
                                                    keep_word="<b>x</b>", masked_word="&amp;"),
        "masks.padding_figure": lambda: Mk.padding_figure(batch, ["</s>", "<pad>"]),
        "masks.row_figure": lambda: Mk.row_figure(row, HOSTILE, titles=["</s>", "<pad>", "&amp;"]),
        "positional.norm_figure": lambda: P.norm_figure(norms),
        "step.top_k_figure": lambda: St.top_k_figure(topk, title="<b>x</b>"),
        "worked.matrix_heatmap": lambda: V.matrix_heatmap(eye, HOSTILE, HOSTILE),
        "scaling.row_figure": lambda: S.row_figure(np.arange(n, dtype=float), 4, titles=["</s>", "<pad>"],
                                                   key_word="<b>x</b>", score_word="&amp;"),
    }


@pytest.mark.parametrize("name", sorted(_builders()))
def test_no_builder_draws_a_token_raw(name):
    fig = _builders()[name]()
    assert _raw(fig) == []


@pytest.mark.parametrize("name", ["attention.heatmap", "decode.topk_figure", "masks.mask_figure",
                                  "masks.row_figure", "positional.norm_figure", "step.top_k_figure",
                                  "worked.matrix_heatmap"])
def test_the_tokens_are_still_shown(name):
    assert _shows_every_token(_builders()[name]())


def test_escaping_follows_plotly_decoder():
    assert L.text('<b>"x"</b> & y') == '&lt;b&gt;"x"&lt;/b&gt; &amp; y'  # quotes stay as typed
    assert L.categories(["the", "the", ""]) == ["the", "the\u200b", " "]
    assert L.positioned(["</s>"]) == ["0 &lt;/s&gt;"]


def test_masks_label_each_side_with_its_own_tokens(tokenizer):
    """The combined mask is the decoder's: labelled <s> + pieces, never the encoder's </s>."""
    b = Mk.make_batch("A dog runs .\nEin Hund", tokenizer, max_len=64)
    for i in range(2):
        dec = [lab for lab in b.dec_labels[i] if lab != Mk.PAD_LABEL]
        enc = [lab for lab in b.labels[i] if lab != Mk.PAD_LABEL]
        assert dec[0] == "<s>" and "</s>" not in dec
        assert enc[-1] == "</s>" and "<s>" not in enc
        assert dec[1:] == enc[:-1]  # the same pieces, shifted right by one
    both = Mk.combined_keep(b, 1)
    T = b.dec_ids.shape[1]
    assert both.shape == (T, T)
    real = (b.dec_ids[1] != b.pad_id).numpy()
    assert (both == (np.tril(np.ones((T, T), bool)) & real[None, :])).all()


def test_saturation_line_sits_at_d_k_on_the_log_axis():
    """plotly.js places shapes on a log axis in data units (the browser test checks the pixel):
    the dotted line for d_k = 64 has x = 64, not log10(64) = 1.8."""
    df = S.saturation_table([1, 4, 16, 64, 256], 8, 2, 0)
    fig = S.saturation_figure(df, 64)
    lines = [s for s in fig.layout.shapes if s.type == "line"]
    assert len(lines) == 3 and all(s.x0 == 64 and s.x1 == 64 for s in lines)
    assert all(fig.layout[f"xaxis{'' if c == 1 else c}"].type == "log" for c in (1, 2, 3))


def test_a_chinese_vertical_axis_title_stands_upright():
    """Issue 23: plotly turns a vertical axis title 90 degrees, so 头 lay on its side. A CJK title
    is written top to bottom, upright, beside the tick labels; an English one is left alone."""
    import numpy as np

    from viz import decode as V
    from viz import evolution as E
    from viz import labels as L
    from viz import training as T

    fig = V.heads_keys_figure(np.full((3, 2), 0.5), ["头 0", "头 1", "各头平均"], ["a", "b"], y_title="头")
    assert not fig.layout.yaxis.title.text
    [ann] = [a for a in fig.layout.annotations if a.text == "头"]
    assert ann.textangle == 0 and ann.xanchor == "right" and ann.x == 0 and ann.xshift < -40
    assert fig.layout.margin.l >= -ann.xshift + 14  # room for the title left of the ticks
    en = V.heads_keys_figure(np.full((1, 2), 0.5), ["head 0"], ["a", "b"], y_title="head")
    assert en.layout.yaxis.title.text == "head" and not en.layout.annotations
    assert L.vertical_lines("查询（发出关注的）") == list("查询︵发出关注的︶")
    assert L.vertical_lines("PE 值") == ["PE", "值"]
    # an axis on the right (the entropy of Attention across training) stands on the right
    mats = [np.eye(3), np.full((3, 3), 1 / 3)]
    emerge = E.emergence_figure([100, 200], mats, labels={"distance": "与最终模式的距离", "entropy": "熵（比特）"})
    right = [a for a in emerge.layout.annotations if a.text.startswith("熵")]
    assert right and right[0].xanchor == "left" and right[0].x == 1 and emerge.layout.margin.r > 30
    assert not emerge.layout.yaxis.title.text and not emerge.layout.yaxis2.title.text
    # subplots: each panel's title beside its own axis
    loss = T.loss_figure([{"step": s, "loss": 5 - s / 100} for s in range(0, 300, 10)],
                         [{"step": 100, "val_loss": 4.0}, {"step": 200, "val_loss": 3.5}],
                         labels={"y": "损失", "val": "验证损失"})
    refs = {a.yref for a in loss.layout.annotations if a.textangle == 0}
    assert refs == {"y domain", "y2 domain"}
