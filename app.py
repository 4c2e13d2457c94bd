"""Attention Lab: `streamlit run app.py`. The navigation and the sidebar; pages live in pages/."""
from ui import deeplink, glossary, i18n, navigation, shell, uploader_text
from ui.strings import shell as strings

shell.configure()
shell.language_switch()
uploader_text.apply()  # Streamlit's own uploader words ("Upload", "50MB per file") in Chinese too
t = i18n.translator(strings)

page = navigation.navigation(t)  # the page table: ui/navigation.py
shell.checkpoint_picker()
glossary.sidebar()
deeplink.run_page(page)  # pages hand a direct deep link over to this script
