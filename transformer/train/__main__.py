"""`python -m transformer.train`: see transformer/train/cli.py."""
import sys

from transformer.train.cli import main

sys.exit(main())
