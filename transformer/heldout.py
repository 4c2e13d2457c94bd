"""`python -m transformer.heldout`: the held-out sets scored (the command lives in transformer.probing.heldout)."""
if __name__ == "__main__":
    from transformer.probing.heldout import main

    raise SystemExit(main())
