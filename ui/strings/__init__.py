"""UI text, one module per page, each with EN and ZH dicts holding the same keys (a test checks)."""
