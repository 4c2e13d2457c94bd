"""What the Heads page computes, served from the one checkpoint cache (ui/inspect_cache.py): the
head finder's grids for the anaphora probe and for a relation, and a translation with heads
switched off. Scoring in transformer/probing/heads.py, the causal test in viz/heads.py."""
from __future__ import annotations

from transformer.data import classroom, textbook
from transformer.data.tasks import load_task
from transformer.probing import heads as H
from transformer.core.names import KINDS, ablate_map, parse_heads
from transformer.probing.probe_items import anaphora_probe, baselines, read_probe_file
from transformer.probing.probe_items import CLASSROOM_PROBE, MINIMAL_PAIRS_PROBE, generated_probe
from ui import models
from ui.inspect_cache import per_checkpoint
from viz import heads as VH
from transformer.probing.pronouns import translate_ids

SYNTHETIC = ("copy", "reverse", "sort", "anaphora")
# the hand-written caption-style probe (the 41 natural sentences plus 145 more, each with a
# German reference and its positions), never produced by any generator
NATURAL = CLASSROOM_PROBE
CLASSROOM_TASKS = ("classroom", "classroom_pronouns")
MINIMAL_PAIRS = MINIMAL_PAIRS_PROBE
DEFAULT_N = 100  # the Heads page's held-out slider opens here (ui/warmup.py measures the same)


def default_source(task: str | None) -> str:
    """The probe the Heads page opens on: a model of the synthetic task on its held-out split,
    any other on the hand-written sentences."""
    return "heldout" if task == "anaphora" or not NATURAL.is_file() else "natural"


def probe_items(source: str, n: int, data: bytes | None, name: str | None, task: str | None) -> list:
    """The anaphora probe's sentences: held out (the task's generator), the hand-written file
    (natural) or an upload."""
    if source == "heldout":
        if task in CLASSROOM_TASKS:  # the classroom generator's held-out noun pairs
            return generated_probe(classroom.generate("test", n))
        if task == "everyday":  # the textbook generator's held-out noun pairs
            return generated_probe(textbook.generate("test", n))
        return anaphora_probe("test", n=n)
    if source == "natural":  # hand-written: minimal pairs for the everyday models
        return read_probe_file(MINIMAL_PAIRS if task == "everyday" else NATURAL)
    return VH.read_probe_upload(data or b"", name or "probe.jsonl")


@per_checkpoint
def anaphora(ck, source: str, n: int, data: bytes | None, name: str | None,
             task: str | None = None) -> dict:
    """Each head's pronoun-to-antecedent scores on the probe, the best head and the baselines."""
    items = probe_items(source, n, data, name, task)
    scores = models.run_inference(H.score_anaphora, ck.model, ck.tokenizer, items)
    return {"acc": {k: v.accuracy.numpy() for k, v in scores.items()},
            "weight": {k: v.mean_weight.numpy() for k, v in scores.items()},
            "n": {k: v.n for k, v in scores.items()},
            "on_article": {k: v.on_article.numpy() for k, v in scores.items()},
            "on_noun": {k: v.on_noun.numpy() for k, v in scores.items()},
            "tops": {k: v.tops.numpy() for k, v in scores.items()}, "items": items,
            "best": H.best_head(scores) if scores else None,
            "baselines": baselines(items), "first": items[0].text}


@per_checkpoint
def relation(ck, relation: str, task: str | None, n: int, sentences: tuple[str, ...]) -> dict:
    """Each head's score for `relation`, per attention kind (None where the relation does not
    apply), on the task's test split (synthetic tasks) or the given sentences and the model's
    translations of them."""
    if task in SYNTHETIC:
        pairs = [(e.src, e.tgt) for e in load_task(task, "test", n=n)]
    else:
        outs = models.run_inference(translate_ids, ck.model, ck.tokenizer, list(sentences))
        pairs = [(s, ck.tokenizer.decode(o) or None) for s, o in zip(sentences, outs)]
    grids = {}
    for kind in KINDS:
        try:
            grids[kind] = models.run_inference(H.relation_scores, ck.model, ck.tokenizer, pairs,
                                               relation, kind).numpy()
        except ValueError:
            grids[kind] = None
    return {"grids": grids, "n": len(pairs), "first": pairs[0][0]}


@per_checkpoint
def translate(ck, text: str, ablate: tuple[str, ...]) -> str:
    """The model's greedy translation of `text` with the heads in `ablate` ('dec L1 H1') off."""
    ids = models.run_inference(translate_ids, ck.model, ck.tokenizer, [text],
                               ablate_map(parse_heads(ablate, form="label")) or None)
    return ck.tokenizer.decode(ids[0])
