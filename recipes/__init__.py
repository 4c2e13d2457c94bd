"""What built the shipped checkpoints, beside the library: nothing in transformer/, ui/, viz/ or
pages/ imports it (an import-linter contract in pyproject.toml says so). `surgery/`: the one-off
model surgery commands (grow, revocab, graft) the default model's lineage used."""
