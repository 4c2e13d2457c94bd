"""``python -m transformer.worked``: see :mod:`transformer.worked.cli`."""
import sys

from transformer.worked.cli import main

sys.exit(main())
