"""stratbench has no import circles: no two of its modules import each other, directly or through others.

The graph is read from the source with :mod:`ast`, not from ``sys.modules``, so
it holds every import statement a module has, wherever it sits:

- module-level imports and imports inside functions and methods (a
  function-local import is how a circle is usually hidden, so it is an edge);
- imports under ``if TYPE_CHECKING:`` too: they never run, but they name a
  dependency all the same, and counting them keeps this test in step with
  ``import_cycles.py``-style tools that read every statement;
- relative imports, resolved against the importing module (an ``__init__``
  resolves against its own package);
- ``from pkg import name`` is an edge to ``pkg.name`` when that is a module,
  else to ``pkg`` (the package's ``__init__``, a node like any other module);
- an import of a module outside the package (``litellm``, ``numpy``) is no edge;
  an import of a name that is not a module (``stratbench.a.b.Thing``) is an
  edge to the deepest module it names;
- an import of the module's own package (``from stratbench.games.gamebench
  import ProtocolGame`` in ``gamebench.hive``) is an edge like any other: a
  package ``__init__`` importing that module back would close a real circle
  (one of the two would run half-initialised). The parent packages Python
  imports on its own before a module are no edges.

Imports by string (``importlib.import_module``, entry points) are not read.

And every import inside a function says why it is there: a comment on its line
(``# lean: ...`` a heavy import a lean xdist worker must not pay before its first
match, ``# optional: ...`` an extra that may be absent, ``# setup: ...`` one that
must follow an environment setup, ``# cli: ...`` one the ``stratbench`` command
puts off). A family's ``games/<family>/plugin.py`` may say it once, in its
docstring or top comment (its hooks import their modules only when called).
"""

from __future__ import annotations

import ast
import fnmatch
import io
import tokenize
from itertools import pairwise
from pathlib import Path

import pytest

PACKAGE_DIR = Path(__file__).resolve().parents[1] / "plugin" / "stratbench"

Graph = dict[str, dict[str, int]]
"""Module name -> {imported module name: line of the first import statement naming it}."""


def module_files(package_dir: Path) -> dict[str, Path]:
    """Returns every module under ``package_dir`` by dotted name (a package's ``__init__`` as the package)."""
    modules = {}
    for path in sorted(package_dir.rglob("*.py")):
        parts = path.relative_to(package_dir.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def import_graph(package_dir: Path) -> Graph:
    """Returns the import graph of the package at ``package_dir`` (see the module docstring for what counts)."""
    modules = module_files(package_dir)
    graph: Graph = {}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        edges: dict[str, int] = {}
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            for target in _imported_names(node, name, is_package, modules):
                found = _deepest_module(target, modules)
                if found is None or found == name:
                    continue
                edges[found] = min(edges.get(found, node.lineno), node.lineno)
        graph[name] = dict(sorted(edges.items()))
    return graph


def _imported_names(node: ast.AST, module: str, is_package: bool, modules: dict[str, Path]) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level:
        anchor = module.split(".") if is_package else module.split(".")[:-1]
        anchor = anchor[: len(anchor) - node.level + 1]
        base = ".".join(anchor + ([node.module] if node.module else []))
    else:
        base = node.module or ""
    return [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]


def _deepest_module(name: str, modules: dict[str, Path]) -> str | None:
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def strongly_connected(graph: Graph) -> list[list[str]]:
    """Returns the strongly connected components of ``graph`` (Tarjan's algorithm, iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        work = [(start, iter(graph[start]))]
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(graph.get(successor, ()))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    components.append(sorted(component))
    return sorted(components)


def circles(graph: Graph) -> list[str]:
    """Describes each component of more than one module as a shortest circle through its first module.

    ``a -> b -> a  (imports at a:12, b:40)``: each step's import statement by
    module and line; the whole component follows when the circle leaves some
    of its modules out.
    """
    found = []
    for component in strongly_connected(graph):
        if len(component) < 2:
            continue
        path = _shortest_path_back(graph, component[0], set(component))
        where = ", ".join(f"{here}:{graph[here][there]}" for here, there in pairwise(path))
        line = f"{' -> '.join(path)}  (imports at {where})"
        if len(set(path)) < len(component):
            line += f"; component: {', '.join(component)}"
        found.append(line)
    return found


def _shortest_path_back(graph: Graph, start: str, members: set[str]) -> list[str]:
    """Returns ``[start, ..., start]``, the shortest walk back to ``start`` inside ``members`` (breadth first)."""
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for successor in graph[node]:
                if successor == start:
                    path = [start]
                    while node != start:
                        path.append(node)
                        node = came_from[node]
                    return [start, *reversed(path[1:]), start]
                if successor in members and successor not in came_from:
                    came_from[successor] = node
                    following.append(successor)
        frontier = following
    raise AssertionError(f"{start} is in a component but no walk leads back to it")


EXCLUDED: tuple[str, ...] = ()
"""Paths under the package (``/``-separated) whose function-local imports are not checked yet: a folder ends
with ``/``; ``*`` stays within one folder."""

FAMILY_PLUGIN_RULE = "only when called"
"""What a family's plugin module says once, in its docstring or top comment, instead of a comment per import."""

_PRAGMAS = ("noqa", "type:", "pragma:", "fmt:")


def unexplained_local_imports(package_dir: Path, excluded: tuple[str, ...] = ()) -> list[str]:
    """Returns ``module:line name`` for each import inside a function with no reason on its line(s).

    A reason is a comment on one of the import statement's lines that is more
    than a pragma (``# noqa``, ``# type: ignore``). Modules under ``excluded``
    are skipped, and so is a family plugin module (``games/<family>/plugin.py``)
    whose docstring or top comment states :data:`FAMILY_PLUGIN_RULE`.
    """
    modules = module_files(package_dir)
    found = []
    for name, path in modules.items():
        relative = path.relative_to(package_dir).as_posix()
        if _is_excluded(relative, excluded):
            continue
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text, filename=str(path))
        if _states_the_family_rule(relative, tree, text):
            continue
        reasons = _reason_lines(text)
        for node in _function_local_imports(tree):
            if not reasons & set(range(node.lineno, node.end_lineno + 1)):
                found.append(f"{name}:{node.lineno} {_imported_module(node, name, path.name == '__init__.py')}")
    return found


def _is_excluded(relative: str, excluded: tuple[str, ...]) -> bool:
    return any(relative.startswith(entry) if entry.endswith("/")
               else fnmatch.fnmatch(relative, entry) and relative.count("/") == entry.count("/")
               for entry in excluded)


def _function_local_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Returns the import statements inside a function or method, at any depth."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.extend(child for child in ast.walk(node) if isinstance(child, (ast.Import, ast.ImportFrom)))
    return sorted(set(found), key=lambda node: node.lineno)


def _reason_lines(text: str) -> set[int]:
    """Returns the lines that carry a comment saying more than a pragma (tokens, so a ``#`` in a string is none)."""
    lines = set()
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:  # ``# noqa: F401  # lean: ...`` is one token of two comments
            words = [part.strip() for part in token.string.split("#")]
            if any(part and not part.startswith(_PRAGMAS) for part in words):
                lines.add(token.start[0])
    return lines


def _states_the_family_rule(relative: str, tree: ast.Module, text: str) -> bool:
    parts = relative.split("/")
    if len(parts) != 3 or parts[0] != "games" or parts[2] != "plugin.py":
        return False
    top_comment = []
    for line in text.splitlines():
        if not line.startswith("#") and line.strip():
            break
        top_comment.append(line)
    return FAMILY_PLUGIN_RULE in " ".join((ast.get_docstring(tree) or "").split() + " ".join(top_comment).split())


def _imported_module(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> str:
    if isinstance(node, ast.Import):
        return ", ".join(alias.name for alias in node.names)
    if not node.level:
        return node.module or ""
    anchor = module.split(".") if is_package else module.split(".")[:-1]
    anchor = anchor[: len(anchor) - node.level + 1]
    return ".".join(anchor + ([node.module] if node.module else []))


def _write_package(root: Path, files: dict[str, str]) -> Path:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / next(iter(files)).split("/")[0]


@pytest.mark.slow
def test_stratbench_has_no_import_circles():
    graph = import_graph(PACKAGE_DIR)
    assert len(graph) > 100 and "stratbench.plugin" in graph and "stratbench" in graph
    found = circles(graph)
    assert not found, f"{len(found)} import circle(s) in plugin/stratbench:\n" + "\n".join(found)


def test_a_function_local_import_closing_a_circle_is_found(tmp_path):
    package = _write_package(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": "from pkg.b import helper\n\nVALUE = 1\n",
        "pkg/b.py": "def helper():\n    from . import a\n\n    return a.VALUE\n",
        "pkg/c.py": "import pkg.a\n",
    })
    graph = import_graph(package)
    assert graph == {"pkg": {}, "pkg.a": {"pkg.b": 1}, "pkg.b": {"pkg.a": 2}, "pkg.c": {"pkg.a": 1}}
    assert strongly_connected(graph) == [["pkg"], ["pkg.a", "pkg.b"], ["pkg.c"]]
    assert circles(graph) == ["pkg.a -> pkg.b -> pkg.a  (imports at pkg.a:1, pkg.b:2)"]


def test_a_type_checking_import_and_a_longer_circle_are_found(tmp_path):
    package = _write_package(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/sub/__init__.py": "from .x import X\n",
        "pkg/sub/x.py": "from ..y import Y\n\nX = Y\n",
        "pkg/y.py": (
            "from typing import TYPE_CHECKING\n\nY = 1\n\nif TYPE_CHECKING:\n    from pkg.sub.z import Z\n"
        ),
        "pkg/sub/z.py": "from pkg.sub import x\n\nZ = x.X\n",
    })
    graph = import_graph(package)
    assert graph["pkg.y"] == {"pkg.sub.z": 6}
    assert graph["pkg.sub"] == {"pkg.sub.x": 1}
    assert graph["pkg.sub.z"] == {"pkg.sub.x": 1}, "from pkg.sub import x is an edge to the module pkg.sub.x"
    assert circles(graph) == [
        "pkg.sub.x -> pkg.y -> pkg.sub.z -> pkg.sub.x  (imports at pkg.sub.x:1, pkg.y:6, pkg.sub.z:1)"
    ]


def test_a_component_wider_than_its_shortest_circle_is_named_whole(tmp_path):
    package = _write_package(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": "import pkg.b\n",
        "pkg/b.py": "import pkg.c\nimport pkg.a\n",
        "pkg/c.py": "import pkg.b\n",
    })
    assert circles(import_graph(package)) == [
        "pkg.a -> pkg.b -> pkg.a  (imports at pkg.a:1, pkg.b:2); component: pkg.a, pkg.b, pkg.c"
    ]


def test_a_package_init_importing_a_module_that_imports_the_package_is_a_circle(tmp_path):
    package = _write_package(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/games/__init__.py": "from pkg.games.hive import Hive\n\n\nclass Base:\n    pass\n",
        "pkg/games/hive.py": "from pkg.games import Base\n\n\nclass Hive(Base):\n    pass\n",
    })
    graph = import_graph(package)
    assert graph == {"pkg": {}, "pkg.games": {"pkg.games.hive": 1}, "pkg.games.hive": {"pkg.games": 1}}
    assert circles(graph) == ["pkg.games -> pkg.games.hive -> pkg.games  (imports at pkg.games:1, pkg.games.hive:1)"]


def test_a_layered_package_has_no_circle(tmp_path):
    package = _write_package(tmp_path, {
        "pkg/__init__.py": "from pkg.api import run\n",
        "pkg/types.py": "import json\n\nKINDS = ('a', 'b')\n",
        "pkg/engine.py": "from pkg.types import KINDS\nfrom pkg import types\n",
        "pkg/api.py": "from .engine import KINDS\n\ndef run():\n    from pkg import engine\n    return engine\n",
        "pkg/tools/__init__.py": "",
        "pkg/tools/report.py": "from pkg import api\nfrom pkg.tools import helpers\nfrom ..types import KINDS\n",
        "pkg/tools/helpers.py": "from pkg.tools import __name__ as parent\n",
    })
    graph = import_graph(package)
    assert graph == {
        "pkg": {"pkg.api": 1},
        "pkg.api": {"pkg.engine": 1},
        "pkg.engine": {"pkg.types": 1},
        "pkg.tools": {},
        "pkg.tools.helpers": {"pkg.tools": 1},
        "pkg.tools.report": {"pkg.api": 1, "pkg.tools.helpers": 2, "pkg.types": 3},
        "pkg.types": {},
    }
    assert all(len(component) == 1 for component in strongly_connected(graph))
    assert circles(graph) == []


@pytest.mark.slow
def test_every_function_local_import_says_why():
    found = unexplained_local_imports(PACKAGE_DIR, EXCLUDED)
    assert not found, (f"{len(found)} function-local import(s) in plugin/stratbench without a reason comment "
                       "(make each module-level, or say why on its line: # lean: / # optional: / # setup: / "
                       "# cli: ...):\n" + "\n".join(found))


@pytest.mark.slow
def test_the_excluded_paths_are_the_only_unchecked_ones():
    files = module_files(PACKAGE_DIR)
    unchecked = {files[line.split(":")[0]].relative_to(PACKAGE_DIR).as_posix()
                 for line in unexplained_local_imports(PACKAGE_DIR)}
    stale = [entry for entry in EXCLUDED if not any(_is_excluded(path, (entry,)) for path in unchecked)]
    assert not stale, f"EXCLUDED names path(s) with no unexplained local import left, remove them: {stale}"
    assert sorted(path for path in unchecked if not _is_excluded(path, EXCLUDED)) == []


def test_a_local_import_without_a_reason_is_listed_by_module_and_line(tmp_path):
    package = _write_package(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": (
            "import json\n\n\n"
            "def f():\n"
            "    import litellm  # lean: costs seconds\n"
            "    from . import b\n"
            "    text = '# not a comment'; import os\n"
            "    import re  # noqa: PLC0415\n"
            "    import sys  # noqa: F401  # setup: a reason after a pragma\n"
            "    from pkg.b import (  # optional: the [x] extra\n"
            "        VALUE,\n"
            "    )\n"
            "    from pkg.b import (\n"
            "        VALUE as OTHER,  # cli: said on a later line of the statement\n"
            "    )\n"
            "\n"
            "    class Inner:\n"
            "        def g(self):\n"
            "            from .sub import c\n"
        ),
        "pkg/b.py": "VALUE = 1\n\n\nclass K:\n    async def m(self):\n        import numpy\n",
        "pkg/sub/__init__.py": "def h():\n    from .. import b\n",
        "pkg/sub/c.py": "",
    })
    assert unexplained_local_imports(package) == [
        "pkg.a:6 pkg", "pkg.a:7 os", "pkg.a:8 re", "pkg.a:19 pkg.sub", "pkg.b:6 numpy", "pkg.sub:2 pkg",
    ]
    assert unexplained_local_imports(package, ("sub/", "b.py")) == ["pkg.a:6 pkg", "pkg.a:7 os", "pkg.a:8 re",
                                                                    "pkg.a:19 pkg.sub"]


def test_a_family_plugin_module_says_the_rule_once(tmp_path):
    hook = "def hook():\n    from pkg.games.{0} import game\n"
    package = _write_package(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/games/__init__.py": "",
        "pkg/games/told/plugin.py": '"""Told.\n\nIts hooks import their modules only\n when called."""\n' + hook.format("told"),
        "pkg/games/commented/plugin.py": "# hooks import the games only when called\n\n" + hook.format("commented"),
        "pkg/games/silent/plugin.py": '"""Silent."""\n' + hook.format("silent"),
        "pkg/games/silent/report.py": "# only when called\n" + hook.format("silent"),
        "pkg/games/plugin.py": '"""Not a family: only when called."""\n' + hook.format("x"),
        "pkg/games/loose.py": hook.format("loose"),
    })
    assert unexplained_local_imports(package) == [
        "pkg.games.loose:2 pkg.games.loose", "pkg.games.plugin:3 pkg.games.x",
        "pkg.games.silent.plugin:3 pkg.games.silent", "pkg.games.silent.report:3 pkg.games.silent",
    ]
    assert unexplained_local_imports(package, ("games/*.py",)) == [
        "pkg.games.silent.plugin:3 pkg.games.silent", "pkg.games.silent.report:3 pkg.games.silent",
    ]
