"""`python -m transformer.average`: checkpoint averaging (the command lives in transformer.train.average)."""
if __name__ == "__main__":
    from transformer.train.average import main

    raise SystemExit(main())
