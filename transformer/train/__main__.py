"""`python -m transformer.train`: see transformer/train/cli.py."""
import sys

from .cli import main

sys.exit(main())
