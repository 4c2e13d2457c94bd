"""/step on a freshly started server: runs app.py, which opens pages/step_by_step.py (ui/deeplink.py)."""
from ui.deeplink import run_app

run_app()
