"""Streamlit's own file-uploader words, for ui/uploader_text.py (EN is what Streamlit writes)."""
EN = {
    "button": "Upload",
    "limit": "{mb}MB per file",
    "limit_types": "{mb}MB per file • {types}",
    "refused_too_big": "The server refused your last upload: the file is larger than this "
                       "uploader takes. Nothing you already made is lost.",
    "refused_person_cap": "The server refused your last upload: your open tabs already hold as "
                          "many uploaded bytes as one person may. Close tabs you no longer need "
                          "(their uploads are freed), then try again. Nothing you already made "
                          "is lost.",
    "refused_students_cap": "The server refused your last upload: the class's uploads fill the "
                            "server's memory for now. Try again in a few minutes. Nothing you "
                            "already made is lost.",
}
