"""/why-sqrt-dk on a freshly started server: runs app.py, which opens pages/why_sqrt_dk.py (ui/deeplink.py)."""
from ui.deeplink import run_app

run_app()
