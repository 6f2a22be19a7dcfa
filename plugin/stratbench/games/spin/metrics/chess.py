"""Chess per-match metrics: move quality by Stockfish MultiPV, and the game record.

**Move quality** (SPIN-Bench §4.4): Stockfish at full strength analyses the
position before each move with MultiPV :data:`ANNOTATION_MULTIPV` at depth
:data:`ANNOTATION_DEPTH`, in a fresh hash per position. The move's rank is its
place among those lines' scores with ties ranked best (as for Connect Four);
a move outside the lines has rank None and counts in the denominator of the
top-k shares, never in the numerator. Moves of engine players are not
annotated (engine agents register themselves on the game object), so the
cost is one analysis per LLM, random or human move. SPIN-Bench ranks by the
position in Stockfish's list (:func:`position_in_lines`, used under the
``paper`` protocol, at the game's ``annotation_depth``); ranking by score
differs only between lines of equal score.

**Game record**: the final FEN and the PGN, so a report can draw the final
position with :func:`stratbench.games.spin.chess_game.board_svg` and replay the game.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Sequence
from typing import Any

import chess

from stratbench.games.spin.agents.stockfish import (
    STOCKFISH_MISSING,
    RankedMove,
    analyse_positions,
    find_stockfish,
)
from stratbench.core.game import Game
from stratbench.core.runner import MatchOutcome
from stratbench.games.spin.chess_game import annotation_depth, board_svg, pgn_of
from stratbench.games.spin.metrics.solver import engine_sides, move_rank, top_k_share

__all__ = [
    "ANNOTATION_DEPTH",
    "ANNOTATION_MULTIPV",
    "board_svg",
    "game_record",
    "move_quality",
    "position_in_lines",
    "rank_in_lines",
    "replay",
]

ANNOTATION_DEPTH = 12
"""Stockfish depth of the move-quality analysis (``STRATBENCH_CHESS_ANNOTATION_DEPTH`` overrides it when a match is
annotated: :func:`~stratbench.games.spin.chess_game.annotation_depth`)."""

ANNOTATION_MULTIPV = 10
"""Lines per analysed position: SPIN-Bench ranks against Stockfish's top 10."""


def rank_in_lines(lines: Sequence[RankedMove], chosen_uci: str) -> int | None:
    """Returns the rank of ``chosen_uci`` among MultiPV lines (ties best), or None if absent.

    Examples:
        >>> lines = [RankedMove("e2e4", 40), RankedMove("d2d4", 40), RankedMove("a2a3", -10)]
        >>> rank_in_lines(lines, "d2d4"), rank_in_lines(lines, "a2a3"), rank_in_lines(lines, "h2h4")
        (0, 2, None)
    """
    scores = {line.uci: line.score_cp for line in lines}
    if chosen_uci not in scores:
        return None
    return move_rank(scores, chosen_uci)


def position_in_lines(lines: Sequence[RankedMove], chosen_uci: str) -> int | None:
    """Returns the index of ``chosen_uci`` in Stockfish's list of lines, or None (SPIN-Bench's rank).

    Examples:
        >>> lines = [RankedMove("e2e4", 40), RankedMove("d2d4", 40)]
        >>> position_in_lines(lines, "d2d4"), position_in_lines(lines, "h2h4")
        (1, None)
    """
    order = [line.uci for line in lines]
    return order.index(chosen_uci) if chosen_uci in order else None


def replay(outcome: MatchOutcome, start: chess.Board | None = None
           ) -> tuple[chess.Board, list[tuple[int, chess.Board, chess.Move]]]:
    """Replays a match's SAN history from ``start`` (a book opening's board; None: the standard start); returns
    the final board and ``(player, board before, move)`` for the players' moves (not the opening's)."""
    board = chess.Board() if start is None else start.copy()
    steps = []
    for joint in outcome.history:
        ((player, san),) = joint.items()
        move = board.parse_san(san)
        steps.append((player, board.copy(stack=False), move))
        board.push(move)
    return board, steps


def _start(game: Game, seed: int) -> chess.Board | None:
    """The board the match started from: its book opening played out, or None for the standard start."""
    if game.opening(seed) is None:
        return None
    return game.new_initial_state(seed).board  # type: ignore[attr-defined]


def move_quality(game: Game, outcome: MatchOutcome, seed: int) -> dict[int, dict[str, Any]]:
    """Ranks each non-engine player's moves against Stockfish's MultiPV lines.

    Returns, per annotated player: ``moves``, ``ranks`` (None = outside the
    top lines), ``top1_share``, ``top3_share`` and ``annotation`` (depth and
    MultiPV). Engine players get ``{"annotated": False}``. Without Stockfish,
    every player gets ``annotation_skipped`` with the reason. Every player
    also gets ``context``: the annotation settings (None when skipped),
    whether the player was an engine, and every engine player of the match
    with its settings (``engines``: Stockfish level, Elo, depth or nodes).
    """
    engines = set(getattr(game, "engine_players", set()))
    players = [p for p in range(game.info.num_players) if p not in engines]
    result: dict[int, dict[str, Any]] = {p: {"annotated": False} for p in engines}
    _, steps = replay(outcome, _start(game, seed))
    wanted = [(player, board, move) for player, board, move in steps if player in players]
    path = getattr(game, "stockfish_path", None) or find_stockfish(os.environ.get("STRATBENCH_STOCKFISH"))
    depth = getattr(game, "annotation_depth", None) or annotation_depth(ANNOTATION_DEPTH)
    annotation = {"engine": "stockfish", "depth": depth, "multipv": ANNOTATION_MULTIPV}
    if path is None:
        for player in players:
            result[player] = {"annotated": False, "annotation_skipped": STOCKFISH_MISSING}
        return _with_context(game, result, None)
    analyses = _run(analyse_positions(path, [b for _, b, _ in wanted], multipv=ANNOTATION_MULTIPV,
                                      depth=depth)) if wanted else []
    ranks: dict[int, list[int | None]] = {p: [] for p in players}
    by_position = getattr(game, "protocol", "default") == "paper"
    if by_position:
        annotation["rank"] = "list position"
    for (player, _, move), lines in zip(wanted, analyses):
        rank = position_in_lines if by_position else rank_in_lines
        ranks[player].append(rank(lines, move.uci()))
    for player in players:
        player_ranks = ranks[player]
        result[player] = {
            "annotated": True,
            "moves": len(player_ranks),
            "ranks": player_ranks,
            "top1_share": top_k_share(player_ranks, 1),
            "top3_share": top_k_share(player_ranks, 3),
            "annotation": dict(annotation),
        }
    return _with_context(game, result, annotation)


def _with_context(game: Game, result: dict[int, dict[str, Any]], annotation: dict[str, Any] | None):
    """Adds the match context (annotation settings, engine players) to every player's metrics."""
    engines = engine_sides(game)
    engine_players = {entry["player"] for entry in engines}
    for player, values in result.items():
        values["context"] = {
            "annotation": None if annotation is None else dict(annotation),
            "engine": player in engine_players,
            "engines": engines,
        }
    return result


def game_record(game: Game, outcome: MatchOutcome, seed: int) -> dict[int, dict[str, Any]]:
    """Returns, for every player, the final FEN, the last move (UCI) and the PGN of the match."""
    board, _ = replay(outcome, _start(game, seed))
    last = board.move_stack[-1].uci() if board.move_stack else None
    record = {"final_fen": board.fen(), "last_move": last, "pgn": pgn_of(board)}
    return {p: dict(record) for p in range(game.info.num_players)}


def _run(coroutine: Any) -> Any:
    """Runs a coroutine to completion from sync code, in a helper thread if a loop is running."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(coroutine)
        except BaseException as error:  # noqa: BLE001 - re-raised in the caller's thread
            box["error"] = error

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]
