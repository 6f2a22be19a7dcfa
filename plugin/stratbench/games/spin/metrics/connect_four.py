"""Connect Four per-match move quality against the exact solver (SPIN-Bench §4.4).

For every move, the solver scores all playable columns of the position
before it; the move's rank is its 0-based place among those scores with
ties ranked best (:func:`~stratbench.games.spin.metrics.solver.move_rank`), so any
column as good as the best is top-1. A game-ending winning move always has
the best score, which matches SPIN-Bench's convention for the last move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from stratbench.core.game import Game
from stratbench.core.runner import MatchOutcome
from stratbench.games.spin import c4_solver
from stratbench.games.spin.metrics.solver import engine_sides, move_rank, top_k_share

__all__ = ["move_quality", "rank_moves"]


def rank_moves(moves: list[int], solver: c4_solver.Solver | None = None, start: Sequence[int] = ()) -> list[int]:
    """Returns the solver rank of each move of a game given as 0-based columns, played after ``start`` (a book
    opening's columns, not ranked)."""
    position = c4_solver.Position.from_moves(start)
    ranks = []
    for column in moves:
        scores = (solver or c4_solver.default_solver()).score_moves(position)
        ranks.append(move_rank(scores, column))
        position.play(column)
    return ranks


def move_quality(game: Game, outcome: MatchOutcome, seed: int) -> dict[int, dict[str, Any]]:
    """Rates every move of the match with the solver.

    Returns, per player: ``moves``, ``ranks`` (one per move, 0 = optimal),
    ``optimal_moves``, ``top1_share``, ``top3_share`` and ``context``: the
    rating solver's settings (``solver``: search engine and opening book),
    how many of the player's positions were scored through the book
    (fewer than 12 discs) or by search alone (``positions``), whether the
    player itself was the engine (``engine``), and every engine player of
    the match with its settings (``engines``).
    """
    solver = c4_solver.default_solver()
    players: list[int] = []
    columns: list[int] = []
    for joint in outcome.history:
        ((player, action),) = joint.items()
        players.append(player)
        columns.append(int(action))
    start = game.new_initial_state(seed).moves if game.opening(seed) is not None else []  # type: ignore[attr-defined]
    ranks = rank_moves(columns, solver, start)
    per_player: dict[int, list[int]] = {p: [] for p in range(game.info.num_players)}
    booked: dict[int, int] = {p: 0 for p in per_player}
    position = c4_solver.Position.from_moves(start)
    for player, rank, column in zip(players, ranks, columns):
        per_player[player].append(rank)
        booked[player] += solver.uses_book(position)
        position.play(column)
    engines = engine_sides(game)
    engine_players = {entry["player"] for entry in engines}
    described = solver.describe()
    return {
        player: {
            "moves": len(player_ranks),
            "ranks": player_ranks,
            "optimal_moves": sum(1 for r in player_ranks if r == 0),
            "top1_share": top_k_share(player_ranks, 1),
            "top3_share": top_k_share(player_ranks, 3),
            "context": {
                "solver": dict(described),
                "positions": {"book": booked[player], "search": len(player_ranks) - booked[player]},
                "engine": player in engine_players,
                "engines": engines,
            },
        }
        for player, player_ranks in per_player.items()
    }
