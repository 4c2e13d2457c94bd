"""`python -m transformer.heads`: the head finder (the command lives in transformer.probing.heads)."""
if __name__ == "__main__":
    from transformer.probing.heads import main

    raise SystemExit(main())
