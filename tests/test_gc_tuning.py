"""ui/serving/gc_tuning.py: the server's survivors frozen once, in a fresh interpreter."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_freeze_once_freezes_the_survivors_once_and_later_garbage_is_still_collected():
    code = """
import gc, weakref
from ui.serving import gc_tuning
assert gc.get_freeze_count() == 0
kept = [[i] for i in range(1000)]
first, again = gc_tuning.freeze_once(), gc_tuning.freeze_once()
frozen = gc.get_freeze_count()
class Node: pass
a, b = Node(), Node(); a.other, b.other = b, a  # a cycle made after the freeze
dead = weakref.ref(a); del a, b
gc.collect()
print(first, again, frozen >= 1000, dead() is None)
"""
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["True", "False", "True", "True"]


def test_malloc_tuning_sets_the_threshold_once_and_respects_the_environment():
    code = """
import os, sys
from ui.serving import malloc_tuning
first, again = malloc_tuning.tune_once(), malloc_tuning.tune_once()
print(first, again)
"""
    import os

    env = {k: v for k, v in os.environ.items() if k != "MALLOC_MMAP_THRESHOLD_"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True, env=env).stdout.split()
    assert out == (["True", "False"] if sys.platform.startswith("linux") else ["False", "False"])
    env["MALLOC_MMAP_THRESHOLD_"] = "131072"  # the person who started the server decided
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True, env=env).stdout.split()
    assert out == ["False", "False"]
