"""Model cards show what their model writes (issue 11: the anaphora card showed "... den Becher
..." where the model writes "... die Katze ...").

Every shipped checkpoint is loaded, each example source in its card decoded greedily here
(transformer.core.decode.greedy, as the Decode page does by default), and the card must show exactly
that output. Then the tool that rewrites the examples, and the trainer's own cards.
"""
from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
import torch

from helpers import card_tool_repairs
from transformer.ops import cards
from transformer.core.checkpoint import load_checkpoint
from transformer.core.decode import greedy
from transformer.core.text import source_ids

pytestmark = pytest.mark.shipped  # re-measures a shipped model's card or prose (tests/conftest.py)

ROOT = Path(__file__).resolve().parents[1] / "checkpoints"
SHIPPED = ["anaphora-en-de", "classroom-en-de", "copy-tiny", "everyday-en-de", "multi30k-en-de",
           "reverse-tiny"]


def _greedy_text(ck, src: str) -> str:
    ids = source_ids(ck.tokenizer, src, ck.model.cfg.max_len)[0]
    with torch.inference_mode():
        return ck.tokenizer.decode(greedy(ck.model.eval(), ids).tokens)


def test_every_shipped_card_is_checked():
    have = sorted(p.name for p in ROOT.iterdir() if (p / "config.json").is_file())
    assert have == SHIPPED


@pytest.mark.parametrize("name", SHIPPED)
def test_card_examples_are_the_models_output(name):
    card = (ROOT / name / "README.md").read_text(encoding="utf-8")
    found = cards.examples(card)
    # the parser sees every line that shows an example (an arrow between two backticked
    # strings, or an indented "source  ->  output" line), and nothing else
    arrows = [line for line in card.splitlines()
              if re.search(r"` -> `", line) or re.match(r"^    \S.*  ->  ", line)]
    assert len(found) == len(arrows) >= 1, (found, arrows)
    ck = load_checkpoint(ROOT / name)
    for ex in found:
        assert ex.out == _greedy_text(ck, ex.src), (name, ex.src)


def test_the_anaphora_card_no_longer_shows_what_the_model_does_not_write():
    card = (ROOT / "anaphora-en-de" / "README.md").read_text(encoding="utf-8")
    ex = cards.examples(card)[0]
    assert ex.src == "The dog saw the cup because it was hungry ."
    # the model shipped when the issue was filed wrote "die Katze" here; this one translates
    # the noun, and the card shows its own output (test above)
    assert ex.out.split()[3:5] == ["den", "Becher"] and " er " in ex.out


def test_refresh_changes_only_the_outputs():
    card = ("# x\n\nCopies: `a b` -> `b a`. More text.\n\n"
            "    The cat .  ->  Die Hund .\n    python -m x --y\n\nEnd `q` -> `r`\n")
    assert cards.refresh(card, lambda s: {"a b": "b a", "The cat .": "Die Hund .",
                                          "q": "r"}[s]) == card
    new = cards.refresh(card, lambda s: s.upper())
    assert new == ("# x\n\nCopies: `a b` -> `A B`. More text.\n\n"
                   "    The cat .  ->  THE CAT .\n    python -m x --y\n\nEnd `q` -> `Q`\n")
    assert cards.example_line("a", "b") == "    a  ->  b"
    assert [e.src for e in cards.examples(cards.example_line("a b", "c"))] == ["a b"]


def test_check_mode_reports_a_stale_card(tmp_path):
    card_tool_repairs(ROOT / "copy-tiny", tmp_path, "README.md", "`g s j a c e` -> `g s j a c e`",
                      "`g s j a c e` -> `e c a j s g`")


def test_the_trainers_card_shows_the_checkpoints_own_output(tokenizer):
    from helpers import tiny_config
    from transformer.core.config import TrainConfig
    from transformer.core.model import Transformer
    from transformer.train.rundir import RunWriter

    torch.manual_seed(0)
    model = Transformer(tiny_config(vocab_size=tokenizer.vocab_size, dropout=0.3)).train()
    src = "A dog runs in the park ."
    t = SimpleNamespace(model=model, cfg=TrainConfig(), step=5, total_steps=10,
                        last_eval={"step": 5, "val_loss": 3.0,
                                   "samples": [{"src": src, "ref": "x", "hyp": "stale"}]})
    card = RunWriter(Path("unused"), tokenizer, {}, "test data")._card(t)
    assert model.training  # left as it was
    ids = source_ids(tokenizer, src, model.cfg.max_len)[0]
    with torch.inference_mode():
        want = tokenizer.decode(greedy(model.eval(), ids).tokens)
    assert cards.example_line(src, want) in card.splitlines()
    assert [(e.src, e.out) for e in cards.examples(card)] == [(src, want)]
    # before the first evaluation: no example
    t.last_eval = None
    assert cards.examples(RunWriter(Path("unused"), tokenizer, {}, "d")._card(t)) == []
