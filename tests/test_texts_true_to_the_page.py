"""Texts true to the page (issue 50, 3), in English and 中文: certainty labels that match the value
(0.23 is not "sure"), one unit for entropy (bits) wherever it is shown, labels fit to the model
(symbols for a copy / reverse model), the words a teacher meets glossed, and one account of where
the shipped pronoun heads are (ui/pronoun_heads.py, read from the cards)."""
from __future__ import annotations

import importlib
import json
import math
import pkgutil
from pathlib import Path

import numpy as np
import pytest

from app_helpers import no_errors, open_pinned
from transformer.probing import certainty as C
from ui import i18n, model_words
from ui import strings as strings_pkg
from ui.strings import attention as A
from ui.strings import flow as FL
from ui.strings import glossary as G
from viz import decode as VD

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "checkpoints"
ZH = json.loads((ROOT / "ui" / "locales" / "zh.json").read_text(encoding="utf-8"))


def every_string():
    """(module, key, language, text) of every string the pages show."""
    for info in pkgutil.iter_modules(strings_pkg.__path__):
        mod = importlib.import_module(f"ui.strings.{info.name}")
        table = getattr(mod, "EN", None)
        if not isinstance(table, dict):
            continue
        for key, text in table.items():
            yield info.name, key, "en", text
        for key, text in ZH.get(info.name, {}).items():
            yield info.name, key, "zh", text


# -- c: certainty ---------------------------------------------------------------------------------
def test_a_label_matches_the_value():
    assert C.level(0.23) == "unsure" and C.level(0.19) == "guess" and C.level(C.SURE) == "sure"
    assert C.UNSURE < 0.23 < C.SURE  # the bar: neither a guess nor sure
    fig = VD.certainty_figure(["a", "b", "c"], [0.95, 0.23, 0.1], unsure=C.UNSURE, sure=C.SURE,
                              sure_name="sure", middle_name="not sure", guess_name="guess")
    by_name = {tr.name: list(tr.y) for tr in fig.data}
    assert by_name == {"sure": [0.95], "not sure": [0.23], "guess": [0.1]}
    assert sorted(s.y0 for s in fig.layout.shapes) == [C.UNSURE, C.SURE]
    for lang in ("en", "zh"):
        sure = i18n.text(A, "sure_name", lang, sure=C.SURE)
        assert "0.8" in sure  # the label says where "sure" starts
        assert "0.2" in i18n.text(A, "middle_name", lang, unsure=C.UNSURE, sure=C.SURE)


# -- d: entropy in bits everywhere ----------------------------------------------------------------
def test_entropy_is_in_bits_wherever_it_is_shown():
    """Every string that names an entropy (not the cross-entropy loss) and a unit says bits."""
    named = 0
    for mod, key, lang, text in every_string():
        low = text.lower()
        if lang == "en":
            if "entropy" not in low.replace("cross-entropy", ""):
                continue
            assert "nats" not in low and " ln " not in low, (mod, key, text)
            named += "bits" in low
        else:
            if "熵" not in text.replace("交叉熵", ""):
                continue
            assert "nats" not in low and "ln " not in text, (mod, key, text)
            named += "比特" in text
    assert named >= 6  # both pages' axis titles and captions, in both languages


def test_both_pages_compute_entropy_in_bits():
    from viz import evolution as ve
    from viz import scaling as S

    assert S.softmax_stats(np.zeros(8))["entropy"] == pytest.approx(3.0)  # log₂ 8
    assert ve.entropy([np.full((2, 8), 1 / 8)])[0] == pytest.approx(3.0)
    assert S.saturation_table([1], 16, 5, seed=0)["entropy_scaled"][0] <= math.log2(16) + 1e-9


# -- e: labels fit to the model -------------------------------------------------------------------
def test_a_symbol_model_reads_the_symbol_strings():
    t_sym = model_words.translator(FL, {"task": "reverse"}, lang="en")
    t_lang = model_words.translator(FL, {"task": "everyday"}, lang="en")
    assert t_sym("check_toggle") == "Test it: remove each input symbol"
    assert t_sym("pick") == "Output symbol to test"
    assert t_lang("pick") == "German word to test"
    assert t_sym("honest") == t_lang("honest")  # no variant: the common text
    for key in FL.EN:
        if key.endswith("_sym"):
            assert key[:-4] in FL.EN, key  # a variant of a string that exists
            assert not any(w in FL.EN[key] for w in ("English word", "German", "the English")), key
            assert "英语词" not in ZH["flow"][key] and "德语" not in ZH["flow"][key], key
    # every string of the section that names the languages has a variant
    for key, text in FL.EN.items():
        if not key.endswith("_sym") and ("German" in text or "English word" in text):
            assert key + "_sym" in FL.EN or key.startswith(("contrib_dropped", "contrib_none",
                                                           "contrib_little", "contrib_cert")), key


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_attention_page_on_a_reverse_model_speaks_of_symbols(monkeypatch, tmp_path, lang):
    monkeypatch.setenv("ATTENTION_LAB_DEFAULT", "reverse-tiny")
    at = open_pinned(monkeypatch, SHIPPED, tmp_path, "pages/attention.py", lang=lang)
    assert at.session_state["ckpt_path"].endswith("reverse-tiny")
    at.session_state["attention_flow_check_on"] = True
    from app_helpers import rerun

    rerun(at)
    no_errors(at)
    toggle = at.toggle(key="attention_flow_check_on").label
    pick = at.selectbox(key="attention_flow_word").label
    shown = " ".join(str(x.value) for k in ("caption", "markdown", "subheader") for x in getattr(at, k)
                     if "data:" not in str(x.value))
    if lang == "en":
        assert (toggle, pick) == ("Test it: remove each input symbol", "Output symbol to test")
        assert "English word" not in shown and "German word" not in shown
    else:
        assert (toggle, pick) == ("检验一下：逐个移除输入符号", "要检验的输出符号")
        assert "英语词" not in shown and "德语词" not in shown


# -- f: the words a teacher meets, glossed --------------------------------------------------------
TERMS = {"antecedent": "antecedent", "probe": "probe sentences", "jsonl": "JSONL",
         "ablation": "ablation", "held_out": "held out", "head_label": "enc L2 H0",
         "teacher_forcing": "teacher forcing", "rollout": "rollout", "frobenius": "Frobenius norm",
         "jacobian": "Jacobian"}


def test_every_term_has_a_glossary_entry_in_both_languages():
    for entry, word in TERMS.items():
        assert word.lower() in G.EN[f"term_{entry}"].lower(), entry
        assert len(G.EN[f"def_{entry}"]) > 40, entry
        assert ZH["glossary"].get(f"term_{entry}") and len(ZH["glossary"][f"def_{entry}"]) > 15


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_terms_are_glossed_where_they_first_appear(lang):
    from ui.strings import heads as H
    from ui.strings import train as T
    from ui.strings import why_sqrt_dk as W

    def s(mod, key, **kw):
        return i18n.text(mod, key, lang, **kw)

    glossed = {  # the first place a teacher meets each, and the words that gloss it there
        "antecedent": (s(T, "about_anaphora"), ("noun phrase a pronoun stands for",
                                                "代词所代表的名词短语")),
        "held out": (s(T, "about_anaphora"), ("kept out of training", "不参与训练")),
        "probe sentences": (s(H, "probe_help"), ("test sentences kept for measuring",
                                                 "专门留作测量的测试句")),
        "JSONL": (s(H, "probe_upload"), ("one JSON object per line", "每行一个 JSON 对象")),
        "ablation": (s(A, "featured_ablation", head="enc L2 H0", n=1, on=1, off=0, probe=""),
                     ("its output set to zero", "把它的输出置为零")),
        "enc L2 H0": (s(A, "head_glossed", label="enc L2 H0", kind=s(A, "kind_mid_encoder_self"),
                        l=2, h=0), ("encoder self-attention, layer 2, head 0",
                                    "编码器自注意力，第 2 层，头 0")),
        "teacher forcing": (s(A, "target_help"), ("not its own output", "而不是它自己的输出")),
        "rollout": (s(FL, "intro"), ("traced back through every layer", "追溯到")),
        "Jacobian": (s(W, "sat_caption", keys=8, uniform=0.125, hmax=3.0),
                     ("how much each weight moves", "每个权重随之变动多少")),
        "Frobenius norm": (s(W, "sat_caption", keys=8, uniform=0.125, hmax=3.0),
                           ("square root of the sum of its squared entries", "各元素平方和的平方根")),
    }
    for term, (text, (en, zh)) in glossed.items():
        assert (en if lang == "en" else zh) in text, (term, text)


# -- b: one account of the shipped pronoun heads --------------------------------------------------
def test_the_pronoun_heads_text_follows_the_default_model(monkeypatch):
    from ui import pronoun_heads

    monkeypatch.setenv("ATTENTION_LAB_CHECKPOINTS", str(SHIPPED))
    en = pronoun_heads.text("anaphora", "en")
    assert "everyday-en-de, has its pronoun heads in encoder self-attention (layer 2, head 0: " \
           "enc L2 H0) and in masked decoder self-attention (layer 2, head 6: dec L2 H6)" in en
    monkeypatch.setenv("ATTENTION_LAB_DEFAULT", "classroom-en-de")
    en = pronoun_heads.text("anaphora", "en")
    assert "classroom-en-de, has its pronoun head in masked decoder self-attention (layer 2, " \
           "head 6: dec L2 H6)" in en and "everyday-en-de" not in en
    assert "anaphora-en-de has its pronoun head in masked decoder self-attention (layer 1" in en
    monkeypatch.setenv("ATTENTION_LAB_CHECKPOINTS", "/nonexistent")
    assert pronoun_heads.text("anaphora", "en") == ""
