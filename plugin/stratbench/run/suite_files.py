"""Which collected node ids are matches, told on an xdist controller (which collects nothing) from the test files.

A match is an item of a test function decorated ``@pytest.mark.stratbench(...)``. The controller gets only node
ids from its workers, so it reads each test file's syntax tree once (never imports it) and keeps the ids of
decorated functions: a suite written inside a string (a test of stratbench itself) is no decorator.
"""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

__all__ = ["match_ids", "suite_game"]


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


def suite_game(nodeid: str, rootdir: Path) -> str | None:
    """The game a match id's suite declares (its marker's ``game=``), or None when it is not a literal."""
    path, _, rest = nodeid.partition("::")
    return _suite_functions(str(rootdir / path)).get(rest.split("[", 1)[0].rsplit("::", 1)[-1])


@lru_cache(maxsize=None)
def _suite_functions(path: str) -> dict[str, str | None]:
    """The functions of a test file decorated ``pytest.mark.stratbench``, with the game each declares (none for a
    file that cannot be read)."""
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return {}
    found: dict[str, str | None] = {}
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for decorator in node.decorator_list:
            if _is_stratbench_mark(decorator):
                game = next((k.value.value for k in getattr(decorator, "keywords", []) if k.arg == "game"
                             and isinstance(k.value, ast.Constant) and isinstance(k.value.value, str)), None)
                found[node.name] = game
    return found


def _is_stratbench_mark(decorator: ast.expr) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return isinstance(target, ast.Attribute) and target.attr == "stratbench" and isinstance(
        target.value, ast.Attribute) and target.value.attr == "mark"
