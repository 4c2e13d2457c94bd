"""`python -m transformer.align`: the alignment leaderboard (the command lives in
transformer.probing.align)."""
if __name__ == "__main__":
    from transformer.probing.align import main

    raise SystemExit(main())
