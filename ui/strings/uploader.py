"""Streamlit's own file-uploader words, for ui/uploader_text.py (EN is what Streamlit writes)."""
EN = {
    "button": "Upload",
    "limit": "{mb}MB per file",
    "limit_types": "{mb}MB per file • {types}",
}
ZH = {
    "button": "上传",
    "limit": "每个文件最大 {mb}MB",
    "limit_types": "每个文件最大 {mb}MB · {types}",
}
