"""Unpacking a checkpoint a user uploads as a .zip, without trusting it.

Only the checkpoint's known file names are taken (at the top level or inside one folder), each
within a size limit, never following a path out of the destination; then the ordinary loader
validates names, shapes and values. The destination is named by the content's hash, so two
students uploading the same file share it and a name can never be chosen by the uploader.
"""
from __future__ import annotations

import hashlib
import io
import shutil
import lzma
import zipfile
import zlib
from pathlib import Path

from .checkpoint import CARD, CONFIG, HISTORY, TOKENIZER, WEIGHTS, CheckpointError, _atomic_dir
from .pair_tokenizer import FILES as PAIR_FILES

ALLOWED = {WEIGHTS: 512 << 20, CONFIG: 1 << 20, TOKENIZER: 16 << 20, HISTORY: 8 << 20,
           CARD: 1 << 20, **{name: 16 << 20 for name in PAIR_FILES}}  # + a converted model's
REQUIRED = (WEIGHTS, CONFIG, TOKENIZER)
MAX_ZIP_BYTES = 200 << 20


def extract_checkpoint_zip(data: bytes, dest_root: str | Path, reserve=None) -> Path:
    """Validate and unpack; returns the checkpoint directory. Raises CheckpointError.

    `reserve(n_bytes)`, when given, is called once the members are read and checked and before
    anything is written (not at all when the same checkpoint is already there): it may raise
    (e.g. transformer.disk_budget.DiskBudgetError) to refuse the upload with nothing stored."""
    if len(data) > MAX_ZIP_BYTES:
        raise CheckpointError(f"the .zip is larger than {MAX_ZIP_BYTES >> 20} MiB")
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except (zipfile.BadZipFile, ValueError, OSError):
        raise CheckpointError("not a readable .zip file") from None
    chosen: dict[str, zipfile.ZipInfo] = {}
    for info in infos:
        if info.is_dir():
            continue
        parts = Path(info.filename.replace("\\", "/")).parts
        if info.filename.startswith(("/", "\\")) or ".." in parts or len(parts) > 2:
            raise CheckpointError(f"unexpected path in the .zip: {info.filename[:80]!r}")
        name = parts[-1]
        if name.startswith(".") or name == "__MACOSX" or parts[0] == "__MACOSX":
            continue
        if name not in ALLOWED:
            raise CheckpointError(f"unexpected file in the .zip: {name[:80]!r} (allowed: "
                                  f"{', '.join(sorted(ALLOWED))})")
        if name in chosen:
            raise CheckpointError(f"{name} appears twice in the .zip")
        if info.file_size > ALLOWED[name]:
            raise CheckpointError(f"{name} is larger than {ALLOWED[name] >> 20} MiB")
        chosen[name] = info
    required = REQUIRED if TOKENIZER in chosen or not set(PAIR_FILES) & set(chosen) else (
        WEIGHTS, CONFIG, *PAIR_FILES)  # a converted Marian model: two SentencePiece models
    missing = [n for n in required if n not in chosen]
    if missing:
        raise CheckpointError(f"the .zip lacks {', '.join(missing)}")
    blobs = {}
    for name, info in chosen.items():
        try:
            with zf.open(info) as fh:
                blob = fh.read(ALLOWED[name] + 1)  # never trust the header's size
        except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError, zlib.error,
                lzma.LZMAError, EOFError):
            raise CheckpointError(f"{name}: could not be read from the .zip") from None
        if len(blob) > ALLOWED[name]:
            raise CheckpointError(f"{name} is larger than {ALLOWED[name] >> 20} MiB")
        blobs[name] = blob
    digest = hashlib.sha256(b"".join(blobs[n] for n in sorted(blobs))).hexdigest()[:16]
    dest = Path(dest_root) / f"upload-{digest}"
    if reserve is not None and not dest.is_dir():
        reserve(sum(len(b) for b in blobs.values()))

    def write(d: Path) -> None:
        for name, blob in blobs.items():
            (d / name).write_bytes(blob)

    _atomic_dir(dest, write)
    from .checkpoint import load_checkpoint

    try:
        load_checkpoint(dest)
    except BaseException:  # refused (or anything else): nothing of it stays on disk
        shutil.rmtree(dest, ignore_errors=True)
        raise
    return dest
