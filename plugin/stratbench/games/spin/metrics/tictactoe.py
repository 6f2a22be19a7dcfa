"""Tic-Tac-Toe per-match move quality against the exact minimax values."""

from __future__ import annotations

from typing import Any

from stratbench.core.game import Game
from stratbench.core.runner import MatchOutcome
from stratbench.core.types import Action
from stratbench.games.spin.tictactoe import move_values
from stratbench.games.spin.metrics.solver import engine_sides, move_rank, top_k_share

__all__ = ["RATER", "move_quality"]

RATER = {"solver": "minimax", "depth": "full game", "ties": "ranked best"}
"""How moves are rated: exact minimax values of every legal move, searched to the end."""


def move_quality(game: Game, outcome: MatchOutcome, seed: int) -> dict[int, dict[str, Any]]:
    """Rates every move of the match with minimax.

    Returns, per player: ``moves``, ``optimal_moves`` and ``optimal_move_share``
    (the share of the player's moves that minimax rates optimal, i.e. top-1
    with ties ranked best), ``top3_share`` and ``context``: the rater
    (:data:`RATER`), whether the player was an engine, and the match's engine
    players with their settings (those that register themselves with
    :func:`~stratbench.games.spin.metrics.solver.register_engine`).
    """
    state = game.new_initial_state(seed)
    ranks: dict[int, list[int]] = {p: [] for p in range(game.info.num_players)}
    for joint in outcome.history:
        ((player, action),) = joint.items()
        values = {str(cell): value for cell, value in move_values(state.board).items()}
        ranks[player].append(move_rank(values, action))
        state.apply({player: Action(action)})
    engines = engine_sides(game)
    engine_players = {entry["player"] for entry in engines}
    return {
        player: {
            "moves": len(player_ranks),
            "optimal_moves": sum(1 for r in player_ranks if r == 0),
            "optimal_move_share": top_k_share(player_ranks, 1),
            "top1_share": top_k_share(player_ranks, 1),
            "top3_share": top_k_share(player_ranks, 3),
            "context": {"rater": dict(RATER), "engine": player in engine_players, "engines": engines},
        }
        for player, player_ranks in ranks.items()
    }
