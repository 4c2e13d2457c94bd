"""`python -m transformer.grow`: wider feed-forward layers (the command lives in transformer.train.grow)."""
if __name__ == "__main__":
    from transformer.train.grow import main

    raise SystemExit(main())
