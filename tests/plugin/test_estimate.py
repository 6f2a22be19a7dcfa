"""The cost estimate before a live run: matches × a side's decisions × one call's prompt tokens × the price."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from stratbench.run.estimate import _pace, estimate_lines
from stratbench.run.suite_files import suite_game


def test_the_estimate_multiplies_matches_by_the_games_pace_and_the_price():
    pace = _pace()
    ttt, chess = pace["tictactoe"], pace["chess"]
    assert 3 <= ttt["decisions_per_side"] <= 5 and ttt["prompt_tokens_per_call"] > 100  # a game's own length
    matches = {"openai/m": Counter({"tictactoe": 10, "chess": 4})}
    prices = {"openai/m": (2e-6, 8e-6)}  # --price openai/m=2,8
    (line,) = estimate_lines(matches, prices)
    calls = 10 * ttt["decisions_per_side"] + 4 * chess["decisions_per_side"]
    prompt = (10 * ttt["decisions_per_side"] * ttt["prompt_tokens_per_call"]
              + 4 * chess["decisions_per_side"] * chess["prompt_tokens_per_call"])
    assert line.startswith(f"stratbench: estimate: 14 match(es) with openai/m: about {calls:,.0f} calls")
    assert f"{prompt:,.0f} prompt tokens, about {round(prompt * 2e-6, 2):g} USD in prompts" in line
    assert "plus 0.008 USD per 1,000 answer tokens; --max-cost caps the spending" in line
    unknown = estimate_lines({"local/tiny": Counter({"tictactoe": 1, "nosuchgame": 2})}, {})[0]
    assert "about 0 USD in prompts" in unknown and "(no pace known for nosuchgame: not counted)" in unknown


def test_an_xdist_controller_reads_the_game_from_the_suites_marker():
    root = Path(__file__).resolve().parents[2]
    assert suite_game("suites/spin/test_chess.py::test_chess[openai/m+direct-vs-stockfish-s0]", root) == "chess"
    assert suite_game("tests/plugin/test_estimate.py::test_x[a]", root) is None
