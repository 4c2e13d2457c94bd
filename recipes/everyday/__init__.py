"""The everyday mix, which built the shipped default (checkpoints/everyday-en-de): the mix (mix.py),
its generators (lexicon, daily*, daily_talk, daily_life*, caption_scenes*, near_test), the German
inflection they share (german.py), their word tables as data files (data/*.tsv, data/*.json, read
by tables.py), and its commands:

    python -m recipes.everyday.train --task everyday ...       # the trainer, "everyday" registered
    python -m recipes.everyday.build_corpus --out DIR          # the default's corpus, as files
    python -m recipes.everyday.knowledge --checkpoint DIR --task everyday --data-dir DIR

Nothing in transformer/, ui/, viz/ or pages/ imports it (an import-linter contract)."""
