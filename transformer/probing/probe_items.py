"""Probe items: the sentences the head finder and the pronoun test are measured on.

Split out of transformer/probing/heads.py (issue 13: no module over 500 lines). A probe item names a
pronoun and its antecedent by word position; this module builds them from the synthetic anaphora
task (`anaphora_probe`), reads them from a JSON-lines file (`read_probe_file`, errors naming the
line), picks the probe a model of a given task is measured on (`task_probe`), and scores the rules
without a model (`baselines`). Import these names from here (issue 21: no re-exports), e.g.
``from transformer.probing.probe_items import ProbeItem``.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from transformer.core.cli_util import read_utf8
from transformer.core.text import TextError, clean_text
from transformer.data.tasks import load_task

MAX_PROBE_LINES = 5000


@dataclass
class ProbeItem:
    """One probe sentence: word positions over whitespace-split words."""

    text: str
    pronoun: int
    antecedent: int
    target: str | None = None  # reference translation (teacher forcing), if known
    tgt_pronoun: int | None = None  # word positions on the target side, if known
    tgt_antecedent: int | None = None
    candidates: list[int] = field(default_factory=list)  # candidate antecedent nouns
    antecedent_span: tuple[int, int] | None = None  # first and last word of the noun phrase
    tgt_antecedent_span: tuple[int, int] | None = None
    # True when a translation must put the pronoun where the reference does (generated data);
    # False for hand-written probes, whose free translations may order words differently
    exact_position: bool = True
    pair: int | str | None = None  # minimal pairs: the two sentences of a pair share this id

    def span(self, target_side: bool) -> tuple[int, int]:
        if target_side:
            return self.tgt_antecedent_span or (self.tgt_antecedent, self.tgt_antecedent)
        return self.antecedent_span or (self.antecedent, self.antecedent)


ARTICLES = {"the", "a", "an", "der", "die", "das", "den", "dem", "des", "ein", "eine", "einen",
            "einem", "einer"}


def noun_phrase(words: list[str], noun: int) -> tuple[int, int]:
    """(article, noun) word span when an article stands right before the noun, else (noun, noun)."""
    if noun > 0 and words[noun - 1].lower() in ARTICLES:
        return noun - 1, noun
    return noun, noun


def anaphora_probe(split: str = "test", n: int = 200, seed: int = 0) -> list[ProbeItem]:
    items = []
    for ex in load_task("anaphora", split, n=n, seed=seed):
        m = ex.meta
        t_ante = m.get("tgt_antecedent_pos")
        items.append(ProbeItem(
            ex.src, m["pronoun_pos"], m["antecedent_pos"], ex.tgt, m.get("tgt_pronoun_pos"),
            t_ante, sorted({m["antecedent_pos"], m["other_pos"]}),
            noun_phrase(ex.src.split(), m["antecedent_pos"]),
            noun_phrase(ex.tgt.split(), t_ante) if t_ante is not None else None))
    return items


def generated_probe(examples) -> list[ProbeItem]:
    """ProbeItems of generated examples (the classroom and textbook generators' meta: word
    positions of pronoun, antecedent, candidates, on both sides; a minimal pair's id when there
    is one), so cross and decoder heads are scored too and pair accuracy can be measured."""
    items = []
    for ex in examples:
        m = ex.meta
        items.append(ProbeItem(ex.src, m["pronoun_pos"], m["antecedent_pos"], ex.tgt,
                               m["tgt_pronoun_pos"], m["tgt_antecedent_pos"],
                               list(m["candidates_pos"]),
                               noun_phrase(ex.src.split(), m["antecedent_pos"]),
                               noun_phrase(ex.tgt.split(), m["tgt_antecedent_pos"]),
                               pair=m.get("pair")))
    return items


CLASSROOM_PROBE = Path(__file__).parents[1] / "probes" / "classroom_pronouns_en.jsonl"
MINIMAL_PAIRS_PROBE = Path(__file__).parents[1] / "probes" / "minimal_pairs_en.jsonl"
# tasks whose models translate pronouns, and so have a pronoun accuracy to measure
PRONOUN_TASKS = ("anaphora", "classroom", "classroom_pronouns", "everyday")


def task_probe(task: str | None, n: int | None = None) -> list[ProbeItem] | None:
    """The probe a model of `task` is measured on (its card's numbers and the pages' agree): the
    synthetic task's held-out split (first n, default 200), for the classroom models the
    hand-written caption probe (all 186 sentences, or the first n), for the everyday models the
    hand-written minimal pairs (200 sentences). None for other tasks."""
    if task == "anaphora":
        return anaphora_probe("test", n=n or 200)
    if task in ("classroom", "classroom_pronouns"):
        items = read_probe_file(CLASSROOM_PROBE)
        return items[:n] if n else items
    if task == "everyday":  # the hand-written minimal pairs: one word flips the pronoun
        items = read_probe_file(MINIMAL_PAIRS_PROBE)
        return items[:n] if n else items
    return None


def read_probe_file(path: str | Path) -> list[ProbeItem]:
    """JSON lines of {"text", "pronoun", "antecedent"} (word positions), optionally "target" (a
    reference translation), "tgt_pronoun" and "tgt_antecedent" (word positions in it: the decoder
    heads are scored only then) and "candidates" (the candidate nouns, for the baselines).
    Errors name the line."""
    path = Path(path)
    lines = read_utf8(path).splitlines()
    items = []
    for no, line in enumerate(lines, 1):
        if not line.strip():
            continue
        if len(items) >= MAX_PROBE_LINES:
            raise ValueError(f"{path.name}: more than {MAX_PROBE_LINES} probe lines")
        try:
            obj = json.loads(line)
            text = clean_text(obj["text"])
            words = text.split()
            pron, ante = obj["pronoun"], obj["antecedent"]
            for name, v in (("pronoun", pron), ("antecedent", ante)):
                if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < len(words):
                    raise ValueError(f"{name} must be a word position in [0, {len(words)})")
            if pron == ante:
                raise ValueError("pronoun and antecedent are the same word")
            cands = obj.get("candidates") or []
            if not all(isinstance(c, int) and 0 <= c < len(words) for c in cands):
                raise ValueError("candidates must be word positions")
        except RecursionError:
            raise ValueError(f"{path.name}:{no}: nested too deeply") from None
        except (json.JSONDecodeError, KeyError, TypeError, ValueError, TextError) as e:
            msg = f"missing field {e}" if isinstance(e, KeyError) else str(e).splitlines()[0]
            raise ValueError(f"{path.name}:{no}: {msg}") from None
        tgt = obj.get("target")
        tgt = tgt if isinstance(tgt, str) and tgt.strip() else None
        t_pron, t_ante = obj.get("tgt_pronoun"), obj.get("tgt_antecedent")
        if (t_pron is None) != (t_ante is None):
            raise ValueError(f"{path.name}:{no}: give both tgt_pronoun and tgt_antecedent, or neither")
        if t_pron is not None:
            t_words = (tgt or "").split()
            for name, v in (("tgt_pronoun", t_pron), ("tgt_antecedent", t_ante)):
                if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < len(t_words):
                    raise ValueError(f"{path.name}:{no}: {name} must be a word position of "
                                     f"\"target\" in [0, {len(t_words)})")
        items.append(ProbeItem(text, pron, ante, tgt, t_pron, t_ante,
                               candidates=list(cands), antecedent_span=noun_phrase(words, ante),
                               tgt_antecedent_span=(noun_phrase(tgt.split(), t_ante)
                                                    if t_ante is not None else None),
                               exact_position=False, pair=_pair_id(obj.get("pair"), path, no)))
    if not items:
        raise ValueError(f"{path.name}: no probe lines")
    return items


def _pair_id(value, path: Path, no: int) -> int | str | None:
    if value is None or (isinstance(value, (int, str)) and not isinstance(value, bool)):
        return value
    raise ValueError(f"{path.name}:{no}: pair must be a number or a string (the id the two "
                     f"sentences of a minimal pair share)")


def baselines(items: list[ProbeItem]) -> dict[str, float]:
    """What rules without a model score on the probe: the nearest candidate noun before the
    pronoun, the first candidate, a random candidate (expected value), and a random word (the
    expected score of a head whose strongest word is uniformly random: a hit is any word of the
    antecedent's noun phrase, out of every word but the pronoun). The first three need the
    probe's candidate nouns; the random word needs nothing, so every probe gets a baseline."""
    near = first = rand_c = 0.0
    n_c = 0
    rand_w = 0.0
    for it in items:
        n_words = len(it.text.split())
        lo, hi = it.span(False)
        rand_w += (hi - lo + 1) / max(1, n_words - 1)
        cands = [c for c in it.candidates if c != it.pronoun]
        if not cands:
            continue
        before = [c for c in cands if c < it.pronoun] or cands
        near += max(before) == it.antecedent
        first += min(cands) == it.antecedent
        rand_c += (it.antecedent in cands) / len(cands)
        n_c += 1
    out = {"random_word": rand_w / len(items)} if items else {}
    if n_c:
        out.update(nearest_noun=near / n_c, first_noun=first / n_c, random_noun=rand_c / n_c)
    return out
