"""`python -m transformer.graft`: one head's query and key rows from another checkpoint (the command lives in transformer.train.graft)."""
if __name__ == "__main__":
    from transformer.train.graft import main

    raise SystemExit(main())
