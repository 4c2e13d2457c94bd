"""Which probe a model's pronoun numbers come from: the card, the Heads page and the Attention
page's callout all measure through transformer.probing.heads.task_probe."""
from __future__ import annotations

from transformer.probing.probe_items import CLASSROOM_PROBE, PRONOUN_TASKS, anaphora_probe, read_probe_file, task_probe


def test_anaphora_models_use_the_held_out_split():
    items = task_probe("anaphora", 30)
    assert [it.text for it in items] == [it.text for it in anaphora_probe("test", n=30)]


def test_classroom_models_use_the_hand_written_probe():
    whole = task_probe("classroom")
    assert len(whole) == len(read_probe_file(CLASSROOM_PROBE)) == 186
    assert all(it.target and it.tgt_pronoun is not None for it in whole)
    assert [it.text for it in task_probe("classroom", 10)] == [it.text for it in whole[:10]]


def test_other_tasks_have_no_pronoun_probe():
    for task in ("multi30k", "copy", None):
        assert task_probe(task) is None and task not in PRONOUN_TASKS
