"""The numbers every student of a class asks for first, measured once in the background as soon as
the server serves a checkpoint.

The Attention page's featured-head box quotes the pronoun accuracy of the caption probe with the
model whole and with each pronoun head switched off, and the Heads page opens on a sweep of every
head over the probe. Each is one measurement per checkpoint, cached for everyone
(ui/inspect_cache.py), but the first student to open a pronoun sentence waited 8 s for the three
and the first on the Heads page 4 s, while everyone who came in meanwhile queued on the same
computation: the slowest pages of a class's first minute (bench/class_load.py). Started by the
first page run that has the checkpoint (ui/deeplink.run_page), in a thread of its own, through the
same cached functions the pages call with the same arguments, so a page that asks later finds the
result or waits on the computation already under way (the cache is single-flight), never starts
another."""
from __future__ import annotations

import logging
import threading

from transformer.core.names import Head
from transformer.probing.probe_items import PRONOUN_TASKS
from ui import heads_compute, inspect_cache, models, page_kit

log = logging.getLogger(__name__)
_started: set[tuple[str, float]] = set()
_lock = threading.Lock()


def jobs(path: str) -> list[tuple[str, tuple]]:
    """What to measure for the checkpoint at PATH, as (name, arguments) of ui.inspect_cache /
    ui.heads_compute functions: nothing for a model of a task without pronouns."""
    ck = models.get_checkpoint(path)
    task = (ck.train_config or {}).get("task")
    if task not in PRONOUN_TASKS:
        return []
    out: list[tuple[str, tuple]] = [("pronoun_accuracy", ())]
    featured = page_kit.featured_head(ck.history)
    if featured:  # each pronoun head the callout switches off, as it measures them
        heads = [Head.from_dict(featured)] + page_kit.also_heads(featured)
        out += [("pronoun_accuracy", (h.label,)) for h in page_kit.heads_in(heads, ck.model_config)]
    source = heads_compute.default_source(task)
    out.append(("anaphora", (source, heads_compute.DEFAULT_N if source == "heldout" else 0, task)))
    return out


def run(path: str) -> int:
    """Measure everything `jobs` names (a cached result costs nothing); the number of jobs."""
    todo = jobs(path)
    for name, args in todo:
        if name == "pronoun_accuracy":
            inspect_cache.pronoun_accuracy(path, ablate=args)
        else:
            source, n, task = args
            heads_compute.anaphora(path, source, n, None, None, task)
    return len(todo)


def _run_logged(path: str) -> None:
    try:
        run(path)
    except Exception:  # noqa: BLE001 - the pages measure it themselves, and say what went wrong
        log.warning("warm-up of %s failed; the pages will measure on demand", path, exc_info=True)


def start(path: str | None) -> bool:
    """Start measuring PATH's numbers in the background, once per weights file and process;
    whether a thread was started."""
    if not path:
        return False
    key = (str(path), models.stamp(path))
    with _lock:
        if key in _started:
            return False
        _started.add(key)
    threading.Thread(target=_run_logged, args=(str(path),), daemon=True,
                     name="attention-lab-warmup").start()
    return True
