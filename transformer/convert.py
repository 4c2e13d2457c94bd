"""`python -m transformer.convert`: import a checkpoint (the command lives in transformer.ops.convert)."""
if __name__ == "__main__":
    from transformer.ops.convert import main

    raise SystemExit(main())
