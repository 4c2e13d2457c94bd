"""`python -m transformer.inspect`: one sentence, every number (the command lives in transformer.probing.inspect)."""
if __name__ == "__main__":
    from transformer.probing.inspect import main

    raise SystemExit(main())
