"""Nim's per-match metric: how many of a player's moves were optimal (left a zero nim-sum)."""

from __future__ import annotations

from typing import Any

from stratbench.core.game import Game
from stratbench.core.runner import MatchOutcome
from stratbench.core.types import Action

from stratbench_nim.game import nim_sum


def optimal_moves(game: Game, outcome: MatchOutcome, seed: int) -> dict[int, dict[str, Any]]:
    """Replays the match and rates every move.

    Returns, per player: ``moves``; ``optimal_moves``, the moves that left a
    zero nim-sum (the opponent to move in a lost position: Bouton's winning
    reply); ``optimal_move_share``, their share of ``moves`` (None without
    moves); and ``winnable_moves``, the moves made from a non-zero nim-sum,
    where an optimal move existed (from a zero nim-sum none does).
    """
    state = game.new_initial_state(seed)
    counts = {player: {"moves": 0, "optimal_moves": 0, "winnable_moves": 0} for player in range(2)}
    for joint in outcome.history:
        ((player, action),) = joint.items()
        mine = counts[player]
        mine["moves"] += 1
        mine["winnable_moves"] += nim_sum(state.heaps) != 0
        state.apply({player: Action(action)})
        mine["optimal_moves"] += nim_sum(state.heaps) == 0
    return {
        player: {**mine, "optimal_move_share": mine["optimal_moves"] / mine["moves"] if mine["moves"] else None}
        for player, mine in counts.items()
    }
