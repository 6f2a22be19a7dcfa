"""A run that skips matches for a missing Stockfish says so once at the start and once in the summary."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

CHESS_SUITE = (Path(__file__).resolve().parents[2] / "suites" / "spin" / "test_chess.py").read_text()
TTT_SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], baselines=["random"], matches=1)
def test_tictactoe(match):
    match.play()
"""
MISSING = "/nonexistent/stockfish"
HEAD = (f"stratbench: Stockfish not found at --stockfish {MISSING} "
        "(install: apt-get install stockfish, or --stockfish PATH)")
ARGS = ("-p", "no:cacheprovider", "--stratbench-reference", "off", "--stockfish", MISSING)


def _notices(result) -> list[str]:
    return [line for line in result.stdout.lines if line.startswith("stratbench: Stockfish not found")]


def test_the_real_chess_suite_announces_its_skips_at_the_start_and_in_the_summary(pytester):
    pytester.makepyfile(test_chess=CHESS_SUITE)
    result = pytester.runpytest_subprocess(*ARGS)
    assert result.ret == 0, result.stdout.str()
    result.assert_outcomes(skipped=4)  # random against Stockfish, 4 matches
    assert _notices(result) == [f"{HEAD}: 4 chess matches will be skipped", f"{HEAD}: 4 matches skipped"]
    lines = result.stdout.lines
    assert lines.index(f"{HEAD}: 4 chess matches will be skipped") == lines.index("collected 4 items") + 1


@pytest.mark.slow
def test_under_xdist_the_first_skip_announces_it_once(pytester):
    pytester.makepyfile(test_chess=CHESS_SUITE)
    result = pytester.runpytest_subprocess(*ARGS, "-n", "2")
    result.assert_outcomes(skipped=4)
    assert _notices(result) == [f"{HEAD}: matches that need it are skipped", f"{HEAD}: 4 matches skipped"]


def test_nothing_is_said_when_no_collected_match_needs_stockfish(pytester):
    pytester.makepyfile(test_ttt=TTT_SUITE)
    result = pytester.runpytest_subprocess(*ARGS)
    assert result.ret == 0, result.stdout.str()
    assert _notices(result) == []


def test_nothing_is_said_when_stockfish_is_found(pytester):
    pytester.makepyfile(test_chess=CHESS_SUITE)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--stratbench-reference", "off",
                                           "--stockfish", sys.executable, "--collect-only")
    assert result.ret == 0, result.stdout.str()
    assert "collected 4 items" in result.stdout.str() and _notices(result) == []
