"""`python -m transformer.data`: fetch or check a corpus (transformer/data/tasks.py)."""
from transformer.data.tasks import main

raise SystemExit(main())
