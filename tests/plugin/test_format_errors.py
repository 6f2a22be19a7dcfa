"""Match records count unreadable replies apart from illegal moves (``format_errors``), through the real path."""

from __future__ import annotations

import json

import pytest
from stratbench.testing.fake_llm import FakeLLMServer, first_legal_responder

SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], baselines=[], matches=1)
def test_tictactoe(match):
    match.play()
"""


def unreadable_first(body):
    """Answers each decision's first ask with prose and its retry with the first legal cell."""
    if len(body["messages"]) <= 2:  # system + the decision's prompt: a first attempt
        return "I would like to think about the corners first."
    return first_legal_responder(body)


@pytest.mark.slow
def test_each_decision_costs_one_format_error(pytester):
    pytester.makepyfile(test_ttt=SUITE)
    with FakeLLMServer(responder=unreadable_first) as server:
        result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--model", "openai/m", "--api-base",
                                               server.api_base, "--record-mode=all")
    assert result.ret == 0, result.stdout.str()
    (record,) = [json.loads(line) for line in (pytester.path / "reports/latest/results.jsonl").read_text().splitlines()]
    side = record["subject"]
    assert record["decisions"][side] >= 3
    assert record["format_errors"][side] == record["illegal"][side] == record["decisions"][side]
    assert record["format_errors"][1 - side] == record["illegal"][1 - side] == 0
