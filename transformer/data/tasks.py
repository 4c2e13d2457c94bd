"""Corpora: synthetic tasks, Multi30k from a directory, a user's own parallel files.

Everything returns ``list[Example]``. Readers fail with :class:`CorpusError`, whose message names
the file and the 1-based line, because the person who sees it is a teacher who uploaded a file,
not a programmer reading a traceback.

Command line::

    python -m transformer.data fetch multi30k --to DIR [--source URL]
    python -m transformer.data show TASK [--split SPLIT] [--n 5] [--seed 0]
"""

from __future__ import annotations

import argparse
import gzip
import html
import random
import shutil
import sys
import tempfile
import urllib.error
import urllib.request
import zlib
from collections.abc import Callable
from pathlib import Path

from transformer.data import anaphora
from transformer.data import classroom
from transformer.data import textbook
from transformer.data.example import Example
from transformer.data.splits import canonical_split, hash_split

MULTI30K_URL = "https://raw.githubusercontent.com/multi30k/dataset/master/data/task1/raw/"
MULTI30K_SPLITS = ("train", "val", "test_2016_flickr", "test_2017_flickr", "test_2018_flickr")
MULTI30K_LANGS = ("en", "de", "fr")
MULTI30K_TERMS = ("Multi30k (Elliott et al., 2016): the English side derives from Flickr30K; "
                  "provided for non-commercial research and educational use.")



class CorpusError(ValueError):
    """A corpus file is missing or malformed; ``str(err)`` is ``"FILE:LINE: what is wrong"``."""

    def __init__(self, message: str, path: str | Path | None = None, line: int | None = None):
        self.path = None if path is None else str(path)
        self.line = line
        where = "" if path is None else f"{path}:{line}: " if line else f"{path}: "
        super().__init__(where + message)


# ----------------------------------------------------------------------------- synthetic
SYMBOLS = "abcdefghijklmnopqrstuvwxyz"
SPLIT_BUCKETS = {"test": 0, "val": 1}  # hash buckets out of 10; the rest is train


def symbols(vocab: int) -> list[str]:
    """``vocab`` distinct short symbols: letters a..z, then two-letter words aa, ab, ..."""
    if not isinstance(vocab, int) or not 2 <= vocab <= 26 + 26 * 26:
        raise ValueError(f"vocab must be an int in [2, {26 + 26 * 26}], got {vocab!r}")
    two = [a + b for a in SYMBOLS for b in SYMBOLS]
    return (list(SYMBOLS) + two)[:vocab]


def _sequence_split(words: list[str]) -> str:
    """Split that owns a sequence, by a hash of its text: train/val/test never share one."""
    return hash_split(" ".join(words))


def _synthetic(transform: Callable[[list[str], list[str]], list[str]], name: str):
    """A generator for a symbol task whose target is ``transform(source_words, alphabet)``."""

    def generate(split: str = "train", n: int | None = None, seed: int = 0,
                 min_len: int = 4, max_len: int = 12, vocab: int = 20) -> list[Example]:
        split = canonical_split(split)
        n = anaphora.DEFAULT_N[split] if n is None else n
        if not isinstance(n, int) or n < 0:
            raise ValueError(f"n must be a non-negative int, got {n!r}")
        if not (isinstance(min_len, int) and isinstance(max_len, int) and 1 <= min_len <= max_len):
            raise ValueError(f"need 1 <= min_len <= max_len, got min_len={min_len!r}, max_len={max_len!r}")
        alphabet = symbols(vocab)
        rng = random.Random(f"{name}:{split}:{seed}")
        out: list[Example] = []
        budget = 1000 + 100 * n  # rejection sampling into this split's hash bucket
        while len(out) < n:
            budget -= 1
            if budget < 0:
                raise ValueError(f"{name}: too few distinct sequences for split {split!r} with "
                                 f"vocab={vocab}, lengths {min_len}..{max_len}; raise vocab or max_len")
            words = [rng.choice(alphabet) for _ in range(rng.randint(min_len, max_len))]
            if _sequence_split(words) == split:
                out.append(Example(" ".join(words), " ".join(transform(words, alphabet)),
                                   {"task": name, "split": split, "length": len(words)}))
        return out

    generate.__doc__ = f"The {name!r} task: random symbol sequences; train/val/test never share one."
    return generate


TASKS: dict[str, Callable[..., list[Example]]] = {
    "copy": _synthetic(lambda w, a: list(w), "copy"),
    "reverse": _synthetic(lambda w, a: w[::-1], "reverse"),
    "sort": _synthetic(lambda w, a: sorted(w, key=a.index), "sort"),
    "anaphora": anaphora.generate,
    "classroom_pronouns": classroom.generate,
    "textbook": textbook.generate,
}


def load_task(name: str, split: str = "train", n: int | None = None, seed: int = 0, **opts) -> list[Example]:
    """Examples of a synthetic task, the same for the same (name, split, n, seed, opts).

    copy / reverse / sort take ``min_len`` (4), ``max_len`` (12) and ``vocab`` (20 symbols);
    anaphora takes ``templates`` (names from ``transformer.data.anaphora.TEMPLATES``);
    classroom_pronouns takes ``templates`` and ``pronouns`` (see ``transformer.data.classroom``). Splits:
    "train", "val", "test" ("heldout" is an alias of "test"). Default ``n``: 10000 / 500 / 500.
    """
    if name not in TASKS:
        raise ValueError(f"unknown task {name!r}; choose from {sorted(TASKS)}")
    return TASKS[name](split, n, seed, **opts)


# ---------------------------------------------------------------------------- file readers
def read_lines(path: str | Path) -> list[str]:
    """Lines of a UTF-8 file, without line ends; a bad byte is a CorpusError at its line.

    Splits on "\\n" only (str.splitlines would also split on U+2028 and friends inside a
    sentence), drops a trailing "\\r", a UTF-8 byte-order mark, and the empty string after
    the final newline. Reads ``.gz`` files transparently.
    """
    path = Path(path)
    if not path.is_file():
        raise CorpusError("file not found" if not path.exists() else "not a file", path)
    try:
        raw = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    except (OSError, EOFError, zlib.error) as exc:
        raise CorpusError(f"cannot read: {exc}", path) from None
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    chunks = raw.split(b"\n")
    if chunks and chunks[-1] == b"":
        chunks.pop()
    lines = []
    for number, chunk in enumerate(chunks, start=1):
        try:
            lines.append(chunk.removesuffix(b"\r").decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise CorpusError(f"not UTF-8 (byte 0x{chunk[exc.start]:02X} at column {exc.start + 1})",
                              path, number) from None
    return lines


def clean_multi30k(line: str) -> str:
    """Fix Multi30k's known flaws (see its README): HTML entities ("&amp;") are unescaped,
    and tabs count as spaces; runs of whitespace become one space, ends are stripped."""
    return " ".join(html.unescape(line).split())


def _multi30k_file(data_dir: Path, split: str, lang: str) -> Path:
    plain = data_dir / f"{split}.{lang}"
    gz = data_dir / f"{split}.{lang}.gz"
    if plain.is_file() or not gz.is_file():
        return plain
    return gz


def load_multi30k(data_dir: str | Path, split: str, src_lang: str = "en", tgt_lang: str = "de") -> list[Example]:
    """Pairs of ``{split}.{src_lang}`` and ``{split}.{tgt_lang}`` in ``data_dir`` (or ``.gz``).

    Every line is kept, empty or not, so line N is example N (BLEU on a test set needs that).
    """
    data_dir = Path(data_dir)
    if not data_dir.is_dir():
        raise CorpusError("Multi30k directory not found (fetch it with "
                          "`python -m transformer.data fetch multi30k --to DIR`)", data_dir)
    src_path = _multi30k_file(data_dir, split, src_lang)
    tgt_path = _multi30k_file(data_dir, split, tgt_lang)
    src, tgt = read_lines(src_path), read_lines(tgt_path)
    _check_same_length(src_path, src, tgt_path, tgt)
    return [Example(clean_multi30k(s), clean_multi30k(t),
                    {"corpus": "multi30k", "split": split, "line": i, "src_lang": src_lang, "tgt_lang": tgt_lang})
            for i, (s, t) in enumerate(zip(src, tgt), start=1)]


def load_tsv(path: str | Path) -> list[Example]:
    """``source<TAB>target`` per line.

    Blank (whitespace-only) lines are skipped, so a trailing empty line or a blank separator
    does no harm. Every other line needs exactly one tab and text on both sides of it; fields
    are stripped. An empty file (or one with only blank lines) is an error.
    """
    out = []
    for number, line in enumerate(read_lines(path), start=1):
        if not line.strip():
            continue
        tabs = line.count("\t")
        if tabs != 1:
            raise CorpusError("no tab: expected source<TAB>target" if tabs == 0 else
                              f"{tabs} tabs: expected exactly one, source<TAB>target", path, number)
        src, tgt = (part.strip() for part in line.split("\t"))
        if not src or not tgt:
            raise CorpusError(f"empty {'source' if not src else 'target'} side", path, number)
        out.append(Example(src, tgt, {"file": str(path), "line": number}))
    if not out:
        raise CorpusError("no sentence pairs (the file is empty)", path)
    return out


def load_parallel(src_path: str | Path, tgt_path: str | Path) -> list[Example]:
    """Line N of ``src_path`` translates line N of ``tgt_path``.

    Lines blank on both sides are skipped; a line blank on one side only is an error, since
    it usually means the files have slipped out of alignment there.
    """
    src, tgt = read_lines(src_path), read_lines(tgt_path)
    _check_same_length(src_path, src, tgt_path, tgt)
    out = []
    for number, (s, t) in enumerate(zip(src, tgt), start=1):
        s, t = s.strip(), t.strip()
        if not s and not t:
            continue
        if not s or not t:
            blank, full = (src_path, tgt_path) if not s else (tgt_path, src_path)
            raise CorpusError(f"blank line here but not in {full}: files out of alignment?", blank, number)
        out.append(Example(s, t, {"src_file": str(src_path), "tgt_file": str(tgt_path), "line": number}))
    if not out:
        raise CorpusError("no sentence pairs (both files are empty)", src_path)
    return out


def _check_same_length(src_path, src: list[str], tgt_path, tgt: list[str]) -> None:
    if len(src) != len(tgt):
        short, long_ = (src_path, tgt_path) if len(src) < len(tgt) else (tgt_path, src_path)
        raise CorpusError(f"{len(src)} lines in {src_path} but {len(tgt)} in {tgt_path}: "
                          f"{short} ends first", long_, min(len(src), len(tgt)) + 1)


# ---------------------------------------------------------------------------------- fetch
def fetch_multi30k(dest: str | Path, source: str = MULTI30K_URL, splits=MULTI30K_SPLITS,
                   langs=MULTI30K_LANGS, timeout: float = 60.0,
                   progress: Callable[[str, int, int], None] | None = None) -> list[Path]:
    """Download Multi30k's raw files into ``dest`` as plain UTF-8 ``{split}.{lang}``.

    Each file is fetched as ``NAME.gz`` (how the repository stores them), or ``NAME`` if
    that fails, decompressed, checked as UTF-8, and line counts are checked to agree per
    split. All files are written into a temporary directory inside ``dest`` first and renamed
    into place only when every one succeeded, so a failure leaves ``dest`` as it was.
    Raises CorpusError with a one-line message on any failure.
    """
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    source = source if source.endswith("/") else source + "/"
    names = [f"{s}.{lang}" for s in splits for lang in langs]
    tmp = Path(tempfile.mkdtemp(prefix=".fetch-", dir=dest))
    try:
        for k, name in enumerate(names, start=1):
            if progress:
                progress(name, k, len(names))
            (tmp / name).write_bytes(_download(source, name, timeout))
        for s in splits:
            counts = {lang: len(read_lines(tmp / f"{s}.{lang}")) for lang in langs}
            if len(set(counts.values())) > 1:
                raise CorpusError(f"split {s!r} has different line counts per language: {counts}", source)
        for name in names:
            (tmp / name).replace(dest / name)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return [dest / name for name in names]


def _download(source: str, name: str, timeout: float) -> bytes:
    """Bytes of ``source + name + '.gz'`` (decompressed) or else ``source + name``."""
    errors = []
    for url in (source + name + ".gz", source + name):
        try:
            with urllib.request.urlopen(url, timeout=timeout) as response:
                data = response.read()
        except (urllib.error.URLError, OSError, ValueError) as exc:
            errors.append(f"{url}: {getattr(exc, 'reason', None) or exc}")
            continue
        if data[:2] == b"\x1f\x8b":
            try:
                data = gzip.decompress(data)
            except (OSError, EOFError, zlib.error) as exc:
                raise CorpusError(f"corrupt gzip: {exc}", url) from None
        return data
    raise CorpusError("download failed: " + "; ".join(errors))


# ------------------------------------------------------------------------------------ CLI
def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m transformer.data``; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m transformer.data", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    fetch = sub.add_parser("fetch", help="download a public corpus")
    fetch.add_argument("corpus", choices=["multi30k"])
    fetch.add_argument("--to", required=True, type=Path, help="directory to write into")
    fetch.add_argument("--source", default=MULTI30K_URL, help="base URL (https:// or file://)")
    fetch.add_argument("--timeout", type=float, default=60.0)
    show = sub.add_parser("show", help="print a few examples of a synthetic task")
    show.add_argument("task", choices=sorted(TASKS))
    show.add_argument("--split", default="train")
    show.add_argument("--n", type=int, default=5)
    show.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        if args.command == "fetch":
            paths = fetch_multi30k(args.to, args.source, timeout=args.timeout,
                                   progress=lambda name, k, total: print(f"[{k}/{total}] {name}", file=sys.stderr))
            print(f"wrote {len(paths)} files to {args.to}\n{MULTI30K_TERMS}")
        else:
            for ex in load_task(args.task, args.split, n=args.n, seed=args.seed):
                print(f"{ex.src}\n  -> {ex.tgt}\n  {ex.meta}")
    except (CorpusError, ValueError, OSError) as exc:
        print(f"error: {exc}".replace("\n", " "), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
