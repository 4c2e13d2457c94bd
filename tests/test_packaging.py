"""pyproject.toml: it lists every package the app imports, with its data files and the
dependencies of requirements.txt; the trainer starts as a child process without PYTHONPATH."""
from __future__ import annotations

import ast
import fnmatch
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]
DEV_ONLY = {"tests", "bench"}  # run from the repository, never installed


def _included(package: str) -> bool:
    return any(fnmatch.fnmatchcase(package, pat) for pat in SETUPTOOLS["packages"]["find"]["include"])


def _local_packages() -> list[str]:
    """Every package directory (holding __init__.py) of the tree, dotted, dev-only ones left out."""
    out = []
    for init in ROOT.rglob("__init__.py"):
        parts = init.parent.relative_to(ROOT).parts
        if parts and parts[0] not in DEV_ONLY and not any(p.startswith(".") for p in parts):
            out.append(".".join(parts))
    return sorted(out)


def test_every_package_and_subpackage_is_listed():
    local = _local_packages()
    assert {"transformer", "transformer.train", "ui", "ui.strings", "viz"} <= set(local)
    assert [p for p in local if not _included(p)] == []


def test_every_local_import_of_the_app_is_a_listed_package():
    tops = {p.split(".")[0] for p in _local_packages()}
    files = [ROOT / "app.py", *(ROOT / "pages").glob("*.py"),
             *(f for t in tops for f in (ROOT / t).rglob("*.py"))]
    imported = set()
    for f in files:
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.split(".")[0])
    local_dirs = {d.name for d in ROOT.iterdir() if (d / "__init__.py").is_file()}
    assert sorted((imported & local_dirs) - tops) == []  # bench/tests are never imported by the app


def test_data_files_of_the_packages_are_package_data():
    data = SETUPTOOLS.get("package-data", {})
    missing = []
    for pkg in {p.split(".")[0] for p in _local_packages()}:
        # setuptools expands package-data patterns with glob (`**` spans directories)
        covered = {f for pat in data.get(pkg, []) for f in (ROOT / pkg).glob(pat)}
        for f in (ROOT / pkg).rglob("*"):
            rel = f.relative_to(ROOT / pkg).as_posix()
            if (f.is_file() and f.suffix not in {".py", ".pyc"} and "__pycache__" not in rel
                    and f not in covered):
                missing.append(f"{pkg}/{rel}")
    assert missing == []


def _requirements(text: str) -> dict[str, str]:
    out = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line and not line.startswith("-"):
            name, spec = re.match(r"([A-Za-z0-9_.-]+)\s*(.*)", line).groups()
            out[name.lower()] = spec.replace(" ", "")
    return out


def test_dependencies_mirror_requirements_txt():
    req = _requirements((ROOT / "requirements.txt").read_text(encoding="utf-8"))
    assert _requirements("\n".join(PYPROJECT["project"]["dependencies"])) == req
    assert PYPROJECT["project"]["requires-python"] == ">=3.10"


def _help_from(cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["OMP_NUM_THREADS"] = "1"
    return subprocess.run([sys.executable, "-m", "transformer.train", "--help"], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60)


def test_trainer_child_starts_from_the_repository_root_without_pythonpath():
    """How runs.launch starts the Train page's child on a fresh clone (nothing installed)."""
    proc = _help_from(ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "usage: python -m transformer.train" in proc.stdout


def test_trainer_child_starts_from_another_directory_when_installed(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    found = subprocess.run([sys.executable, "-c", "import importlib.util as u; "
                            "print(u.find_spec('transformer') is not None)"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, timeout=30)
    if found.stdout.strip() != "True":
        pytest.skip("the package is not installed (`pip install -e .` is optional)")
    proc = _help_from(tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "usage: python -m transformer.train" in proc.stdout
