"""`python -m transformer.scorecard`: issue 20's numbers (the command lives in transformer.probing.scorecard)."""
if __name__ == "__main__":
    from transformer.probing.scorecard import main

    raise SystemExit(main())
