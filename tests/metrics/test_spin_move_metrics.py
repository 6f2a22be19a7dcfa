"""SPIN-Bench aggregates over hand-made result records: draw rate, top-k, IML, IMT."""

import pytest
from stratbench.games.spin.metrics.solver import (
    draw_rate_of,
    illegal_move_loss_rate,
    illegal_move_loss_rate_of,
    illegal_moves_per_turn,
    illegal_moves_per_turn_of,
    ranks_of,
    seats_of,
    side_result,
    top_k_share,
    top_k_share_of,
)


def _record(game, white, black, scores, *, illegal=(0, 0), decisions=(5, 5), forfeited=None, ranks=None):
    return {
        "type": "match",
        "game": game,
        "sides": [{"agent": white, "players": [0]}, {"agent": black, "players": [1]}],
        "scores": list(scores),
        "illegal": list(illegal),
        "decisions": list(decisions),
        "forfeited_by_side": forfeited,
        "metrics": {str(p): {"ranks": r} for p, r in (ranks or {}).items()},
    }


RECORDS = [
    _record("connect4", "gpt", "c4solver", (0.0, 1.0), illegal=(3, 0), decisions=(10, 10), ranks={0: [0, 1, 4]}),
    _record("connect4", "c4solver", "gpt", (1.0, 0.0), illegal=(0, 10), decisions=(4, 4), forfeited=1,
            ranks={1: [0, 0, None]}),
    _record("tictactoe", "gpt", "minimax", (0.5, 0.5), illegal=(0, 0), decisions=(5, 4), ranks={0: [0, 0]}),
    _record("tictactoe", "minimax", "gpt", (0.5, 0.5), decisions=(5, 4)),
    _record("tictactoe", "gpt", "claude", (1.0, 0.0), decisions=(3, 2)),
]


def test_plain_functions():
    assert illegal_move_loss_rate([True, False, False, False]) == 0.25
    assert illegal_move_loss_rate([]) is None
    assert illegal_moves_per_turn(3, 12) == 0.25
    assert illegal_moves_per_turn(0, 0) is None
    assert top_k_share([0, 2, None, 5], 3) == 0.5
    assert top_k_share([None], 1) == 0.0
    assert side_result([0.5, 0.5], 1) == "draw" and side_result([0.0, 1.0], 1) == "won"


def test_seats_follow_the_agent_on_either_side_and_filter_by_game_and_opponent():
    assert [(r["game"], side) for r, side in seats_of(RECORDS, "gpt", game="tictactoe")] == [
        ("tictactoe", 0), ("tictactoe", 1), ("tictactoe", 0)]
    assert len(list(seats_of(RECORDS, "gpt", opponent="minimax"))) == 2
    assert list(seats_of(RECORDS, "nobody")) == []


def test_draw_rate_against_the_solver():
    assert draw_rate_of(RECORDS, "gpt", game="tictactoe", opponent="minimax") == 1.0
    assert draw_rate_of(RECORDS, "gpt", game="tictactoe") == pytest.approx(2 / 3)
    assert draw_rate_of(RECORDS, "gpt", game="connect4") == 0.0
    assert draw_rate_of(RECORDS, "gpt", game="chess") is None


def test_iml_and_imt_count_the_agent_side_only():
    assert illegal_move_loss_rate_of(RECORDS, "gpt", game="connect4") == 0.5
    assert illegal_move_loss_rate_of(RECORDS, "c4solver") == 0.0
    # 3 + 10 illegal attempts over 10 + 4 decisions in Connect Four.
    assert illegal_moves_per_turn_of(RECORDS, "gpt", game="connect4") == pytest.approx(13 / 14)
    assert illegal_moves_per_turn_of(RECORDS, "gpt", game="tictactoe") == 0.0


def test_top_k_over_many_matches_pools_every_ranked_move():
    assert ranks_of(RECORDS, "gpt", game="connect4") == [0, 1, 4, 0, 0, None]
    assert top_k_share_of(RECORDS, "gpt", 1, game="connect4") == pytest.approx(3 / 6)
    assert top_k_share_of(RECORDS, "gpt", 3, game="connect4") == pytest.approx(4 / 6)
    assert top_k_share_of(RECORDS, "c4solver", 3) is None
