"""Streamlit's own file-uploader words, for ui/uploader_text.py (EN is what Streamlit writes)."""
EN = {
    "button": "Upload",
    "limit": "{mb}MB per file",
    "limit_types": "{mb}MB per file • {types}",
}
