"""/masks on a freshly started server: runs app.py, which opens pages/masking.py (ui/deeplink.py)."""
from ui.deeplink import run_app

run_app()
