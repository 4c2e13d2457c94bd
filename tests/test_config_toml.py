"""The classroom deployment's .streamlit/config.toml: safe defaults, parsed with tomllib and
checked against the option names and allowed values of the installed Streamlit."""
from __future__ import annotations

from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10 (README: 3.10 to 3.13)
    tomllib = pytest.importorskip("tomli")

CONFIG = Path(__file__).resolve().parents[1] / ".streamlit" / "config.toml"


@pytest.fixture(scope="module")
def cfg() -> dict:
    assert CONFIG.is_file(), f"{CONFIG} is missing"
    with open(CONFIG, "rb") as f:
        return tomllib.load(f)


def test_xsrf_protection_on(cfg):
    assert cfg["server"]["enableXsrfProtection"] is True
    # Streamlit turns XSRF protection off when CORS protection is off: keep both on.
    assert cfg["server"].get("enableCORS", True) is True


def test_upload_size_bounded(cfg):
    size = cfg["server"]["maxUploadSize"]
    assert isinstance(size, int) and not isinstance(size, bool)
    assert 1 <= size <= 200, f"maxUploadSize {size} MB: must be bounded (1..200)"
    from transformer.ops.upload import MAX_ZIP_BYTES

    assert size * 1_000_000 <= MAX_ZIP_BYTES, "the server lets through a .zip the loader refuses"


def test_viewer_toolbar(cfg):
    assert cfg["client"]["toolbarMode"] == "viewer"


def test_no_run_on_save_and_no_file_watcher(cfg):
    assert cfg["server"]["runOnSave"] is False
    assert cfg["server"]["fileWatcherType"] == "none"


def test_no_tracebacks_in_the_browser(cfg):
    assert cfg["client"].get("showErrorDetails") in ("type", "none")


def test_no_usage_stats_and_no_static_serving(cfg):
    assert cfg.get("browser", {}).get("gatherUsageStats") is False
    assert cfg["server"].get("enableStaticServing", False) is False


def test_every_option_is_known_to_streamlit(cfg):
    """A misspelt option is silently ignored by Streamlit: every key must be a real option, and
    the enumerated ones must hold an allowed value."""
    from streamlit import config as st_config

    known = st_config._config_options_template
    for section, options in cfg.items():
        assert isinstance(options, dict), f"[{section}] must be a table"
        for key, value in options.items():
            name = f"{section}.{key}"
            assert name in known, f"{name}: not a Streamlit {st_config.__name__} option"
            default = known[name].default_val
            if default is not None and not isinstance(default, bool) and isinstance(value, bool):
                pytest.fail(f"{name}: a bool where Streamlit expects {type(default).__name__}")
    allowed = {"client.toolbarMode": {"auto", "developer", "viewer", "minimal"},
               "server.fileWatcherType": {"auto", "watchdog", "poll", "none"},
               "client.showErrorDetails": {"full", "stacktrace", "type", "none"}}
    for name, values in allowed.items():
        section, key = name.split(".")
        if key in cfg.get(section, {}):
            assert cfg[section][key] in values, f"{name}: {cfg[section][key]!r} not in {values}"
