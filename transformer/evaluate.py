"""`python -m transformer.evaluate`: BLEU and chrF (the command lives in transformer.probing.evaluate)."""
if __name__ == "__main__":
    from transformer.probing.evaluate import main

    raise SystemExit(main())
