"""`python -m transformer.faithfulness`: the faithfulness map, where each head looks against what
it does (the command lives in transformer.probing.faithfulness)."""
if __name__ == "__main__":
    from transformer.probing.faithfulness import main

    raise SystemExit(main())
