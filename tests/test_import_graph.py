"""The shape of the code (docs/ARCHITECTURE.md): no import circle, no import running back up a
layer, a short top of transformer/. Read from the source with ast, function-level imports
included, so it holds whatever import-linter's settings say (pyproject.toml, `lint-imports`)."""
from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# pages and app.py over ui over viz over transformer
LAYER = {"pages": 4, "app": 4, "ui": 3, "viz": 2, "transformer": 1}
# inside transformer: the core at the bottom, the command launchers at the top
PACKAGE_RANK = {"core": 0, "data": 1, "probing": 2, "ops": 3, "train": 4, "worked": 4}
LAUNCHER_RANK = 5


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _files() -> list[Path]:
    out = [ROOT / "app.py"]
    for d in ("transformer", "ui", "viz", "pages"):
        out += sorted((ROOT / d).rglob("*.py"))
    return out


def graph() -> dict[str, set[str]]:
    """module -> the project modules it imports (a name imported from a package counts as that
    package's submodule when there is one)."""
    files = {_module(p): p for p in _files()}
    out: dict[str, set[str]] = defaultdict(set)
    for mod, path in files.items():
        is_pkg = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = []
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = mod.split(".") if is_pkg else mod.split(".")[:-1]
                    parts = parts[:len(parts) - (node.level - 1)]
                    base = ".".join(parts + ([node.module] if node.module else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in files else base
                           for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            for t in targets:
                while t and t not in files:
                    t = t.rpartition(".")[0]
                if t and t != mod:
                    out[mod].add(t)
    return out


def _layer(mod: str) -> int:
    return LAYER[mod.split(".")[0]]


def _rank(mod: str) -> int | None:
    parts = mod.split(".")
    if parts[0] != "transformer" or len(parts) == 1:
        return None
    return PACKAGE_RANK.get(parts[1], LAUNCHER_RANK)


def circles(g: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in g.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in list(g):
        if v not in index:
            visit(v)
    return found


def test_no_import_circle():
    assert circles(graph()) == []


def test_circles_are_found():  # the check itself can fail
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_runs_back_up():
    up = sorted((a, b) for a, bs in graph().items() for b in bs
                if _layer(b) > _layer(a))
    assert up == []
    inside = sorted((a, b) for a, bs in graph().items() for b in bs
                    if _rank(a) is not None and _rank(b) is not None and _rank(b) > _rank(a))
    assert inside == []


def imports_of_ui_below_it(root: Path) -> list[str]:
    """'path:line name' for each import of ui (or a module in it) anywhere in transformer/ or viz/
    below ``root``: at the top of a module or inside a function (a relative import cannot reach ui,
    a package beside them)."""
    out = []
    for path in sorted(p for d in ("transformer", "viz") for p in (root / d).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            else:
                continue
            out += [f"{path.relative_to(root)}:{node.lineno} {n}" for n in names
                    if n == "ui" or n.startswith("ui.")]
    return out


def test_nothing_below_ui_imports_ui():
    """The library (transformer/) and the figures (viz/) never import ui, not even inside a function
    (the worked examples' command line renders with transformer/worked/words.py)."""
    assert imports_of_ui_below_it(ROOT) == []


def test_an_import_of_ui_below_it_is_found(tmp_path):
    f = tmp_path / "transformer" / "worked" / "m.py"
    f.parent.mkdir(parents=True)
    f.write_text("import json\n\n\ndef f():\n    from ui.worked_text import render  # deferred\n"
                 "    import ui.i18n\n    return render\n")
    assert imports_of_ui_below_it(tmp_path) == ["transformer/worked/m.py:5 ui.worked_text",
                                                "transformer/worked/m.py:6 ui.i18n"]


def test_the_core_imports_nothing_else_of_the_project():
    g = graph()
    out = sorted((a, b) for a, bs in g.items() if a.startswith("transformer.core") for b in bs
                 if not b.startswith("transformer.core"))
    assert out == []


def test_a_short_top_and_short_modules():
    top = sorted(p.name for p in (ROOT / "transformer").glob("*.py"))
    assert len(top) <= 15, top
    long = [str(p.relative_to(ROOT)) for d in ("transformer", "ui", "viz")
            for p in (ROOT / d).rglob("*.py")
            if len(p.read_text(encoding="utf-8").splitlines()) > 500]
    assert long == []


# the class server's rules (ui/serving/) read nothing of the pages: only the translation mechanism
SERVING_MAY_USE = ("ui.serving", "ui.i18n", "ui.strings")


def test_the_class_server_imports_no_page_section():
    up = sorted((a, b) for a, bs in graph().items() if a.startswith("ui.serving") for b in bs
                if b.split(".")[0] == "ui" and not b.startswith(SERVING_MAY_USE))
    assert up == []


def uncommented_function_level_imports() -> list[str]:
    """'path:line module' for each import of a project module inside a function with no comment
    on its line or the line above saying why it is deferred (issue 21: a function-level import
    only where an optional heavy dependency is deferred)."""
    out = []
    for path in _files():
        mod, lines = _module(path), path.read_text(encoding="utf-8").splitlines()
        tree = ast.parse("\n".join(lines))
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                if not isinstance(node, (ast.Import, ast.ImportFrom)):
                    continue
                names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                         else ["." * node.level + (node.module or "")])
                project = [n for n in names if n.startswith(".")
                           or n.split(".")[0] in ("transformer", "ui", "viz")]
                around = lines[node.lineno - 2:node.end_lineno]
                if project and not any("#" in line for line in around):
                    out.append(f"{path.relative_to(ROOT)}:{node.lineno} {project[0]} (in {mod})")
    return sorted(set(out))


def test_function_level_imports_of_the_project_say_why():
    assert uncommented_function_level_imports() == []


def test_an_uncommented_function_level_import_is_found(tmp_path, monkeypatch):
    f = tmp_path / "transformer" / "m.py"
    f.parent.mkdir()
    f.write_text("def f():\n    from transformer.core import names\n\n\n"
                 "def g():\n    # deferred: an optional heavy dependency\n"
                 "    from transformer.core import trace\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    monkeypatch.setattr(sys.modules[__name__], "_files", lambda: [f])
    assert uncommented_function_level_imports() == ["transformer/m.py:2 transformer.core "
                                                    "(in transformer.m)"]
