"""The C allocator of a long-running app server, told once per process to give big blocks back.

glibc serves a large block (a trace's tensors, a websocket frame, a figure's JSON) from its heap
once it has freed one of that size before (its mmap threshold rises with every such free, up to
32 MB), and a heap seldom shrinks: measured with twelve pasted 3,000-character paragraphs
(bench/class_load.py --scenario paste), the server kept 788 MB after the pages were done, against
382 MB with the threshold fixed at 256 kB, where each large block is its own mapping and goes
back to the system when freed (docs/BENCHMARKS.md, issue 48). `tune_once()` fixes it
(mallopt(M_MMAP_THRESHOLD), which also stops the rise), unless the environment already sets
MALLOC_MMAP_THRESHOLD_ (the person who started the server decided), and does nothing where the C
library is not glibc (macOS, Windows, musl).
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys

M_MMAP_THRESHOLD = -3  # glibc's malloc.h
THRESHOLD_BYTES = 256 * 1024
_DONE: list[bool] = []


def tune_once() -> bool:
    """Fix glibc's mmap threshold, the first time in the process; True when it was set."""
    if _DONE:
        return False
    _DONE.append(True)
    if not sys.platform.startswith("linux") or "MALLOC_MMAP_THRESHOLD_" in os.environ:
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # not glibc
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, THRESHOLD_BYTES))
