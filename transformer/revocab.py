"""`python -m transformer.revocab`: a new vocabulary (the command lives in transformer.train.revocab)."""
if __name__ == "__main__":
    from transformer.train.revocab import main

    raise SystemExit(main())
