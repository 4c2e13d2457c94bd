"""Streamlit glue shared by the pages: language, checkpoint choice, cached model access, and each
page's sections. The class server's rules (roles, quotas, guards, runs) are the sub-package
ui/serving/, which imports nothing else of ui but the translation mechanism. Math and figures live
in transformer/ and viz/, which never import Streamlit."""
