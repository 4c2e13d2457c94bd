"""ui/gc_tuning.py: the server's survivors frozen once, in a fresh interpreter."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_freeze_once_freezes_the_survivors_once_and_later_garbage_is_still_collected():
    code = """
import gc, weakref
from ui import gc_tuning
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


def test_freeze_after_loads_freezes_again_only_when_a_checkpoint_was_loaded():
    code = """
import gc
from ui import gc_tuning
kept = [[i] for i in range(500)]
first, same = gc_tuning.freeze_after_loads(0), gc_tuning.freeze_after_loads(0)
n0 = gc.get_freeze_count()
model = [[i] for i in range(2000)]  # what loading a checkpoint keeps
grown, again = gc_tuning.freeze_after_loads(1), gc_tuning.freeze_after_loads(1)
print(first, same, n0 >= 500, grown, again, gc.get_freeze_count() >= n0 + 2000)
"""
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["True", "False", "True", "True", "False", "True"]


def test_the_app_freezes_after_every_page_and_no_page_does_it_itself():
    app = (ROOT / "app.py").read_text(encoding="utf-8")
    assert "gc_tuning.freeze_after_loads(models.LOADS[0])" in app.splitlines()[-1]
    assert not [p.name for p in (ROOT / "pages").glob("*.py") if "gc_tuning" in p.read_text(encoding="utf-8")]
