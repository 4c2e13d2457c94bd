"""The train / val / test splits of the generated tasks: their names, the aliases a caller may use,
and the split that owns an item by a hash of its words (so that train, val and test never share
one, whatever the seed): 10% test, 10% val, 80% train.
"""
from __future__ import annotations

import zlib
from collections.abc import Iterable

SPLITS = ("train", "val", "test")
_ALIASES = {"heldout": "test", "valid": "val", "validation": "val"}


def canonical_split(split: str) -> str:
    """"train", "val" or "test" for a split name or one of its aliases ("heldout", "valid")."""
    split = _ALIASES.get(split, split)
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; expected one of {SPLITS} or 'heldout'")
    return split


def hash_split(key: str) -> str:
    """The split that owns `key`: a CRC32 of it, 10% test, 10% val, 80% train."""
    bucket = zlib.crc32(key.encode()) % 10
    return "test" if bucket == 0 else "val" if bucket == 1 else "train"


def gender_pairs(split: str, animals: Iterable, things: Iterable, salt: str = "") -> tuple:
    """(animal, thing) noun pairs of different German gender that belong to `split`: the split
    owning a pair is the hash of "SALT<animal>+<thing>" (a generator's own salt gives it its own
    cut)."""
    split = canonical_split(split)
    things = tuple(things)
    return tuple((a, t) for a in animals for t in things
                 if a.gender != t.gender and hash_split(f"{salt}{a.en}+{t.en}") == split)
