"""The board the page shows, and how a click on it reads as a move.

Games without hidden information show their board (the latest ``board``
snapshot of the match, drawn by the game's registered board renderer, as on
the replay pages): there the whole position is what the person's seat may
see; those that also move one player at a time list the moves played. A game
with hidden information shows exactly its
:class:`~stratbench.core.types.Observation` for the person's seat.

A clickable board is described to the page as a grid over the drawing
(:func:`click_layout`): the share of the image's width and height the grid
covers, its rows and columns, and the move each cell (or column) stands for.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from stratbench.core.game import GameInfo
from stratbench.core.types import Observation

CLICKABLE = ("tictactoe", "connect4", "chess")
"""The games played by clicking the board; the others through their action list or the text box."""

_DESC = re.compile(r"<desc>.*?</desc>", re.DOTALL)

CHESS_MARGIN = 15 / 390
"""python-chess's drawing: a 15-unit coordinate margin around 8 squares of 45 units."""


def shows_board(info: GameInfo) -> bool:
    """Tells whether the page may show the whole position (a game without hidden information: its board
    snapshots, taken after each joint move is applied, are public)."""
    return not info.hidden_information


def shows_moves(info: GameInfo) -> bool:
    """Tells whether the page may list the moves as they are made (no hidden information, one player at a
    time: in a simultaneous game the others' moves of the turn are secret until it resolves)."""
    return not info.hidden_information and not info.simultaneous


def board_svg(renderers: dict[str, Callable[[dict[str, Any]], str | None]], game: str,
              events: list[dict[str, Any]]) -> str | None:
    """The latest board snapshot of the match drawn by ``game``'s renderer; None without either."""
    renderer = renderers.get(game)
    boards = [event for event in events if event.get("kind") == "board"]
    if renderer is None or not boards:
        return None
    svg = renderer(boards[-1]["board"])
    # python-chess puts the board's text in <desc><pre>: in an HTML page a <pre> ends the <svg> early
    return None if svg is None else _DESC.sub("", svg)


def moves_played(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The moves of the match so far (player and action), in order."""
    return [{"player": event["player"], "action": event["action"]} for event in events
            if event.get("kind") in ("action", "fallback") and "action" in event]


def click_layout(observation: Observation) -> dict[str, Any] | None:
    """How a click on the board maps to a legal move of ``observation``; None for a game played otherwise.

    Returns:
        ``{"left", "top", "width", "height"}`` (shares of the drawing), ``rows``, ``columns`` and
        ``cells``: ``cells[row][column]`` is the move a click there makes (None: no move); for chess,
        ``squares`` instead (the square names) and ``moves``: ``{from+to: legal move}``.
    """
    legal = set(observation.legal_actions)
    if observation.game == "tictactoe" and all(a.isdigit() for a in legal):
        cells = [[str(r * 3 + c) for c in range(3)] for r in range(3)]
        return {"left": 0.0, "top": 0.0, "width": 1.0, "height": 1.0, "rows": 3, "columns": 3, "cells": cells}
    if observation.game == "connect4" and all(a.isdigit() for a in legal):
        from stratbench.games.spin.connect_four import COLUMNS, ROWS  # lean: loads with its game

        height = ROWS / (ROWS + 0.6)  # the drawing's column numbers lie below the grid
        cells = [[str(c) for c in range(COLUMNS)] for _ in range(ROWS)]
        return {"left": 0.0, "top": 0.0, "width": 1.0, "height": height, "rows": ROWS, "columns": COLUMNS,
                "cells": cells}
    if observation.game == "chess" and isinstance(observation.data, dict) and observation.data.get("fen"):
        return _chess_layout(str(observation.data["fen"]), legal)
    return None


def _chess_layout(fen: str, legal: set[str]) -> dict[str, Any]:
    import chess  # lean: loads with its game

    board = chess.Board(fen)
    moves: dict[str, str] = {}
    for move in board.legal_moves:
        san = board.san(move)
        if san in legal or move.uci() in legal:
            key = move.uci()[:4]
            if key not in moves or move.promotion == chess.QUEEN:  # a click promotes to a queen
                moves[key] = san if san in legal else move.uci()
    squares = [[chess.square_name(chess.square(c, 7 - r)) for c in range(8)] for r in range(8)]
    inner = 1 - 2 * CHESS_MARGIN
    return {"left": CHESS_MARGIN, "top": CHESS_MARGIN, "width": inner, "height": inner, "rows": 8, "columns": 8,
            "squares": squares, "moves": moves}
