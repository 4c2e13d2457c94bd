"""Attention Lab's core: a paper-faithful encoder-decoder Transformer that can show every number
it computes. Importable without Streamlit."""

__version__ = "0.1.0"
