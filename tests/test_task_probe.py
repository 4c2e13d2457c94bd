"""Which probe a model's pronoun numbers come from: the card, the Heads page and the Attention
page's callout all measure through transformer.heads.task_probe."""
from __future__ import annotations

from transformer import heads as H


def test_anaphora_models_use_the_held_out_split():
    items = H.task_probe("anaphora", 30)
    assert [it.text for it in items] == [it.text for it in H.anaphora_probe("test", n=30)]


def test_classroom_models_use_the_hand_written_probe():
    whole = H.task_probe("classroom")
    assert len(whole) == len(H.read_probe_file(H.CLASSROOM_PROBE)) == 186
    assert all(it.target and it.tgt_pronoun is not None for it in whole)
    assert [it.text for it in H.task_probe("classroom", 10)] == [it.text for it in whole[:10]]


def test_other_tasks_have_no_pronoun_probe():
    for task in ("multi30k", "copy", None):
        assert H.task_probe(task) is None and task not in H.PRONOUN_TASKS
