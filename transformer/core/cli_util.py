"""What every command line of the project shares: a usage error is one line and exit code 2."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors print one line, `<prog>: error: <message>`, to
    stderr (no usage block) and exit with code 2."""

    def error(self, message: str):  # argparse API
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(2)


def read_utf8(path: str | Path, error: type[Exception] = ValueError) -> str:
    """A user's text file, whole; `error` with one line ("PATH: cannot read (...)", "NAME line N:
    not UTF-8 text") when it cannot be read or decoded, so a command can print it and exit."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise error(f"{path}: cannot read ({e.strerror or e})") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise error(f"{path.name} line {line}: not UTF-8 text") from None
