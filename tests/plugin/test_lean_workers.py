"""Lean xdist workers: litellm is not imported before a model call; each process's peak RSS is reported."""

from __future__ import annotations

import json

import pytest

SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["random"], baselines=[], matches=1)
def test_tictactoe(match):
    match.play()
"""

CONFTEST = """
import json, os, sys

def pytest_collection_finish(session):
    worker = getattr(session.config, "workerinput", {}).get("workerid", "controller")
    with open(f"modules-{worker}.json", "w") as out:
        json.dump({name: name in sys.modules for name in ("litellm", "unified_planning", "bitbully_databases",
                                                          "numba", "choix")}, out)
"""


@pytest.mark.slow
def test_a_worker_imports_nothing_heavy_before_its_first_match(pytester, fake_llm):
    pytester.makepyfile(test_ttt=SUITE)
    pytester.makeconftest(CONFTEST)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--model", "openai/m", "--api-base",
                                           fake_llm.api_base, "-n", "1", "--stratbench-bootstrap", "10")
    assert result.ret == 0, result.stdout.str()
    worker = json.loads((pytester.path / "modules-gw0.json").read_text())
    assert worker == {"litellm": False, "unified_planning": False, "bitbully_databases": False, "numba": False,
                      "choix": False}


@pytest.mark.slow
def test_each_process_reports_its_peak_rss(pytester):
    pytester.makepyfile(test_ttt=SUITE.replace('opponents=["random"], baselines=[]', 'opponents=["minimax"], '
                                                                                     'baselines=["random"]'))
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2", "--stratbench-bootstrap", "10")
    assert result.ret == 0, result.stdout.str()
    line = next(line for line in result.stdout.lines if line.startswith("peak RSS: "))
    parts = dict(part.rsplit(" ", 2)[0:2] for part in line.removeprefix("peak RSS: ").split(", "))
    assert set(parts) == {"controller", "gw0", "gw1"}
    assert all(30 <= float(mb) <= 4000 for mb in parts.values())  # a Python process with pytest loaded
