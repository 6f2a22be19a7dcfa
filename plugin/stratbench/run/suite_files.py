"""Which collected node ids are matches, told on an xdist controller (which collects nothing) from the test files.

A match is an item of a test function decorated ``@pytest.mark.stratbench(...)``. The controller gets only node
ids from its workers, so it reads each test file's syntax tree once (never imports it) and keeps the ids of
decorated functions: a suite written inside a string (a test of stratbench itself) is no decorator.
"""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

__all__ = ["match_ids"]


def match_ids(ids: list[str], rootdir: Path) -> list[str]:
    """The ids (``path::function[params]``, paths relative to ``rootdir``) whose function is a stratbench suite."""
    found = []
    for nodeid in ids:
        if "[" not in nodeid:
            continue
        path, _, rest = nodeid.partition("::")
        function = rest.split("[", 1)[0].rsplit("::", 1)[-1]
        if function in _suite_functions(str(rootdir / path)):
            found.append(nodeid)
    return found


@lru_cache(maxsize=None)
def _suite_functions(path: str) -> frozenset[str]:
    """The functions of a test file decorated ``pytest.mark.stratbench`` (none for a file that cannot be read)."""
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return frozenset()
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                _is_stratbench_mark(decorator) for decorator in node.decorator_list):
            names.add(node.name)
    return frozenset(names)


def _is_stratbench_mark(decorator: ast.expr) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return isinstance(target, ast.Attribute) and target.attr == "stratbench" and isinstance(
        target.value, ast.Attribute) and target.value.attr == "mark"
