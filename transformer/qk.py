"""`python -m transformer.qk`: one head's queries and keys from many sentences in one 2-D map (the
command lives in transformer.probing.qk)."""
if __name__ == "__main__":
    from transformer.probing.qk import main

    raise SystemExit(main())
