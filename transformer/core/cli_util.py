"""What every command line of the project shares: a usage error is one line and exit code 2."""
from __future__ import annotations

import argparse
import sys


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors print one line, `<prog>: error: <message>`, to
    stderr (no usage block) and exit with code 2."""

    def error(self, message: str):  # argparse API
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(2)
