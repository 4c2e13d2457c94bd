"""Corpora and generated tasks: Multi30k, Ding, the synthetic and pronoun generators,
noun genders. Imports only transformer.core."""
