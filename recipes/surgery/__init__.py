"""Model surgery used to build the shipped default (its lineage: checkpoints/everyday-en-de's
card): `python -m recipes.surgery.grow` (wider feed-forward layers), `... .revocab` (a new
vocabulary, embeddings transferred), `... .graft` (one head's query and key rows from another
checkpoint). Each writes an ordinary checkpoint the library reads."""
