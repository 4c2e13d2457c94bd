"""`python -m transformer.atlas`: the head atlas (the command lives in transformer.probing.atlas)."""
if __name__ == "__main__":
    from transformer.probing.atlas import main

    raise SystemExit(main())
