"""Unpacking a checkpoint a user uploads as a .zip, without trusting it.

Only the checkpoint's known file names are taken (at the top level or inside one folder), each
within a size limit, never following a path out of the destination; then the ordinary loader
validates names, shapes and values. The destination is named by the content's hash, so two
students uploading the same file share it and a name can never be chosen by the uploader.

Issue 22 (J, K): the archive's entry count and the sizes its directory declares (each member, the
total, and the total against the .zip's own size: at most MAX_RATIO times) are checked before
anything is extracted; members are then streamed to a scratch folder in chunks (memory bounded),
never more than they declared; and the whole checkpoint is validated there, before any room is
made for it (`reserve`) and before anything is written under the destination.
"""
from __future__ import annotations

import hashlib
import io
import lzma
import shutil
import tempfile
import zipfile
import zlib
from pathlib import Path

from transformer.core.checkpoint import (
    CARD,
    CONFIG,
    HISTORY,
    TOKENIZER,
    WEIGHTS,
    CheckpointError,
    _atomic_dir,
    load_checkpoint,
)
from transformer.core.pair_tokenizer import FILES as PAIR_FILES

ALLOWED = {WEIGHTS: 512 << 20, CONFIG: 1 << 20, TOKENIZER: 16 << 20, HISTORY: 8 << 20,
           CARD: 1 << 20, **{name: 16 << 20 for name in PAIR_FILES}}  # + a converted model's
REQUIRED = (WEIGHTS, CONFIG, TOKENIZER)
MAX_ZIP_BYTES = 200 << 20
MAX_ENTRIES = 64  # a checkpoint has at most ten files; folders and macOS extras besides
MAX_RATIO = 20  # declared bytes per .zip byte: weights barely compress, JSON maybe 10x
MAX_UNPACKED_BYTES = 512 << 20
CHUNK = 1 << 20


def extract_checkpoint_zip(data: bytes, dest_root: str | Path, reserve=None) -> Path:
    """Validate and unpack; returns the checkpoint directory. Raises CheckpointError.

    `reserve(n_bytes)`, when given, is called once the checkpoint has been validated in full (in
    a scratch folder outside dest_root) and before anything is written under dest_root (not at
    all when the same checkpoint is already there): it may raise (e.g.
    transformer.ops.disk_budget.DiskBudgetError) to refuse the upload with nothing stored."""
    if len(data) > MAX_ZIP_BYTES:
        raise CheckpointError(f"the .zip is larger than {MAX_ZIP_BYTES >> 20} MiB")
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except (zipfile.BadZipFile, ValueError, OSError):
        raise CheckpointError("not a readable .zip file") from None
    if len(infos) > MAX_ENTRIES:
        raise CheckpointError(f"the .zip holds {len(infos):,} entries; a checkpoint has at most "
                              f"{MAX_ENTRIES}")
    chosen = _choose(infos)
    declared = sum(info.file_size for info in chosen.values())
    if declared > min(MAX_UNPACKED_BYTES, MAX_RATIO * len(data) + (1 << 20)):
        raise CheckpointError(f"the .zip unpacks to {declared / 2**20:,.1f} MiB, too much for "
                              f"its {len(data) / 2**20:,.1f} MiB")
    with tempfile.TemporaryDirectory(prefix="attention-lab-upload-") as scratch:
        scratch = Path(scratch)
        digest = hashlib.sha256()
        for name in sorted(chosen):  # the same digest as the whole blobs in name order
            _extract(zf, chosen[name], name, scratch / name, digest)

        load_checkpoint(scratch)  # CheckpointError: refused with nothing reserved or written
        dest = Path(dest_root) / f"upload-{digest.hexdigest()[:16]}"
        if dest.is_dir():
            return dest
        if reserve is not None:
            reserve(sum((scratch / n).stat().st_size for n in chosen))

        def write(d: Path) -> None:
            for name in chosen:
                shutil.copyfile(scratch / name, d / name)

        try:
            _atomic_dir(dest, write)
        except BaseException:  # a full disk: nothing of it stays
            shutil.rmtree(dest, ignore_errors=True)
            raise
    return dest


def _choose(infos) -> dict[str, zipfile.ZipInfo]:
    """The members that make the checkpoint, by file name (declared sizes checked)."""
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
    return chosen


def _extract(zf: zipfile.ZipFile, info: zipfile.ZipInfo, name: str, out: Path, digest) -> None:
    """Stream one member to `out` in chunks, never more bytes than it declared."""
    limit = min(ALLOWED[name], info.file_size)
    got = 0
    try:
        with zf.open(info) as fh, open(out, "wb") as dst:
            while True:
                chunk = fh.read(min(CHUNK, limit - got + 1))
                if not chunk:
                    break
                got += len(chunk)
                if got > limit:
                    raise CheckpointError(f"{name} holds more than the {limit:,} bytes the .zip "
                                          "declares")
                digest.update(chunk)
                dst.write(chunk)
    except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError, zlib.error,
            lzma.LZMAError, EOFError):
        raise CheckpointError(f"{name}: could not be read from the .zip") from None
