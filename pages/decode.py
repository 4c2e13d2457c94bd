"""/decode on a freshly started server: runs app.py, which opens pages/decoding.py (ui/deeplink.py)."""
from ui.deeplink import run_app

run_app()
