"""Streamlit glue shared by the pages: language, checkpoint choice, cached model access.
Math and figures live in transformer/ and viz/, which never import Streamlit."""
