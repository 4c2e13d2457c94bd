"""The one cache of what the app computes from a checkpoint, shared by every page and session.
(The helpers every page shares, its header, links and sentence boxes, are in ui/page_kit.py.)

Every page that computes from the session's checkpoint asks here: a trace (`inspect`, the
Attention, Step-by-step and Heads pages and Attention across training), the pronoun accuracy
(`pronoun_accuracy`), and each feature module's functions (ui/heads_compute.py,
ui/decode_compute.py, ui/positional_encoding_compute.py), declared with `@per_checkpoint`. A classroom
typing the teacher's example sentence computes it once.

One key, one stamp, one bound: an entry is keyed by (checkpoint path, models.stamp(path), the
function's name, its arguments), so a retrained checkpoint (a new weights file) is computed afresh;
all entries together, of every page, weigh at most BUDGET_BYTES (env ATTENTION_LAB_CACHE_MB,
default 512 MB; ui/serving/byte_cache.py weighs each entry by its tensors and arrays), the least
recently used going first (issue 48: a bound by entries let twelve pasted paragraphs keep 5.6 GB).
A trace keeps what every page reads (the attention weights and the logits:
transformer.probing.inspect.compact); the Step page's intermediates of one layer are recorded when
it asks, and cached as entries of their own. What is returned is shared by every session: read it,
never modify it (the viz functions are pure).
"""
from __future__ import annotations

import dataclasses
import functools
import os
from typing import Callable

from transformer.core.decode import BEST_ALPHA, BEST_COVERAGE
from transformer.core.names import ablate_map, parse_heads
from transformer.probing import pronouns
from transformer.probing.inspect import (Inspected, LazyTrace, compact, in_group, inspect_text,
                                         layer_groups, record_pass)
from transformer.probing.probe_items import task_probe
from ui import models
from ui.serving.byte_cache import MB, ByteCache


def _budget_bytes() -> int:
    raw = os.environ.get("ATTENTION_LAB_CACHE_MB", "").strip()
    try:
        mb = float(raw) if raw else 512.0
    except ValueError:
        mb = 512.0
    return int(max(0.0, mb) * MB)


BUDGET_BYTES = _budget_bytes()
CACHE = ByteCache(BUDGET_BYTES)
_JOBS: dict[str, Callable] = {}  # name -> fn(checkpoint, *args), filled by @per_checkpoint


def _cached(path: str, stamp: float, job: str, args: tuple):
    return CACHE.get_or_compute((path, stamp, job, args),
                                lambda: _JOBS[job](models.get_checkpoint(path), *args))


def per_checkpoint(fn: Callable) -> Callable:
    """Declare `fn(checkpoint, *args)` a cached computation: the returned function takes the
    checkpoint's path instead of the checkpoint, `f(path, *args)`, and is served from the one
    cache (arguments must be hashable: str, numbers, bytes, tuples, None). Raises what `fn`
    raises (CheckpointError for a bad checkpoint); errors are not cached."""
    job = f"{fn.__module__}.{fn.__qualname__}"
    _JOBS[job] = fn

    @functools.wraps(fn)
    def cached(path, *args):
        return _cached(str(path), models.stamp(path), job, tuple(args))

    cached.compute = fn  # uncached, for tests
    return cached


def clear() -> None:
    """Empty the cache (every page's entries)."""
    CACHE.clear()


def _ablate_key(ablate) -> tuple:
    if not ablate:
        return ()
    out = []
    for path, heads in sorted(dict(ablate).items()):
        heads = [heads] if isinstance(heads, int) else heads
        hs = tuple(sorted({int(h) for h in heads}))
        if hs:
            out.append((str(path), hs))
    return tuple(out)


def _ablate_map(ablate: tuple) -> dict | None:
    return {p: list(h) for p, h in ablate} or None


@per_checkpoint
def _inspect(ck, text: str, target: str | None, ablate: tuple, beam: int) -> Inspected:
    return models.run_inference(inspect_text, ck.model, ck.tokenizer, text, target,
                                ablate=_ablate_map(ablate), names=compact, beam=beam,
                                alpha=BEST_ALPHA, coverage=BEST_COVERAGE)


@per_checkpoint
def _layer(ck, src: tuple, tgt: tuple, ablate: tuple, group: str):
    """One group's intermediates (a layer's, or those outside the layers) of the pass over
    `src` and `tgt`: what the Step page reads of one layer."""
    return models.run_inference(record_pass, ck.model, list(src), list(tgt), _ablate_map(ablate),
                                in_group(group))


def inspect(path: str, text: str, target: str | None = None, ablate=None,
            beam: int = 1) -> Inspected:
    """Cached `transformer.probing.inspect.inspect_text` for the checkpoint at `path`. Raises
    transformer.core.text.TextError for unusable text (not cached) and CheckpointError for a bad
    checkpoint. An empty or whitespace-only target means no target: the model writes the output,
    greedy for `beam` 1, else the pages' beam search of that width (length and coverage penalties
    BEST_ALPHA and BEST_COVERAGE, transformer.core.decode). A target makes `beam` irrelevant, so it
    is left out of the key: one entry for a forced sentence whatever the page chose. The trace
    holds the compact keys; any other key is recorded, one layer at a time, when it is read (a
    LazyTrace over the cache's `_layer` entries)."""
    target = target if target is not None and target.strip() else None
    key = _ablate_key(ablate)
    beam = 1 if target is not None else max(1, int(beam))
    ins = _inspect(path, text, target, key, beam)
    src, tgt = tuple(ins.src_ids), tuple(ins.tgt_ids)
    lazy = LazyTrace(ins.trace, lambda group: _layer(path, src, tgt, key, group),
                     layer_groups(ins.trace))
    return dataclasses.replace(ins, trace=lazy)


# -- the causal test, shared by the Attention page's callout and the Heads page -----------------
PROBE_N = 100  # held-out sentences both pages measure on by default, so their numbers agree


@per_checkpoint
def _pronoun_accuracy(ck, n: int, ablate: tuple[str, ...]):
    task = (ck.train_config or {}).get("task")
    items = task_probe(task, n or (PROBE_N if task == "anaphora" else None))
    if not items:
        return None
    return models.run_inference(pronouns.pronoun_accuracy, ck.model, ck.tokenizer, items,
                                ablate_map(parse_heads(ablate, form="label")) or None)


def pronoun_accuracy(path: str, n: int | None = None, ablate: tuple[str, ...] = ()):
    """Pronoun accuracy (transformer.probing.pronouns.PronounResult) of the checkpoint at `path`
    on the first `n` sentences of its task's probe (transformer.probing.probe_items.task_probe:
    held-out anaphora sentences, or the hand-written caption probe; n=None: PROBE_N anaphora
    sentences or the whole caption probe), with the heads named in `ablate` ('dec L1 H1')
    switched off. Cached per weights file: a whole class asking costs one measurement, and every
    page that quotes the number quotes this one (never a number written into prose)."""
    return _pronoun_accuracy(path, int(n or default_probe_n(path)), tuple(sorted(ablate)))


def default_probe_n(path: str) -> int:
    """How many probe sentences a measurement uses when none is asked for: PROBE_N held-out
    sentences of the synthetic task, else the whole hand-written probe. One number for the
    Attention page's callout and the Heads page, so they share one cached measurement."""
    task = (models.get_checkpoint(path).train_config or {}).get("task")
    if task == "anaphora":
        return PROBE_N
    return len(task_probe(task) or []) or 0
