"""`python -m transformer.scorecard`: a checkpoint's scorecard (the command lives in transformer.probing.scorecard)."""
if __name__ == "__main__":
    from transformer.probing.scorecard import main

    raise SystemExit(main())
