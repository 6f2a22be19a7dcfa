"""stratbench's modules are not rewritten by pytest's assertion rewriting once the plugin has started.

Rewriting parses a module with ``ast`` in whichever thread imports it; matches import their game's heavier
modules late, in their own worker threads, where CPython 3.11's AST constructor can fail when two parse at
once (pytest #10763). A module imported during the run must come from the plain source loader.
"""

from __future__ import annotations

import pytest

CONFTEST = """
import sys

def pytest_collection_finish(session):
    import stratbench.games.spin.planning.sexpr as late  # a module no hook imports before the matches
    kind = type(getattr(late, "__loader__", None)).__name__
    with open("loader.txt", "w") as out:
        out.write(kind)
"""

SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["random"], baselines=[], matches=1)
def test_tictactoe(match):
    match.play()
"""


@pytest.mark.cold_pytest  # a forked run finds the module already imported by the starter: nothing would be tested
def test_a_module_imported_during_the_run_is_not_assert_rewritten(pytester):
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_ttt=SUITE)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--stratbench-bootstrap", "10")
    assert result.ret == 0, result.stdout.str()
    loader = (pytester.path / "loader.txt").read_text()
    assert loader != "AssertionRewritingHook" and loader.endswith("Loader"), loader
