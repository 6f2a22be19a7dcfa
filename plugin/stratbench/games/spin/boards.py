"""Board renderers of the SPIN-Bench games for the replay viewer (``Registry.add_board_renderer``), and how
a click on the drawn board of Tic-Tac-Toe, Connect Four and chess reads as a move on the human seat's page
(``Registry.add_board_clicks``).

Each renderer draws one of its game's ``board`` snapshots (``Game.snapshot``) as an inline ``<svg>``; each
click layout describes a grid over that drawing.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from stratbench.core.types import Observation
from stratbench.games.spin import connect_four, tictactoe
from stratbench.games.spin.chess_game import board_svg


def chess_board(board: dict[str, Any]) -> str:
    return board_svg(board["fen"], lastmove=board.get("lastmove"), size=320)


def tictactoe_board(board: dict[str, Any]) -> str:
    return tictactoe.render_svg(board["board"], last=board.get("last"))


def connect4_board(board: dict[str, Any]) -> str:
    moves = board.get("moves") or []
    return connect_four.render_svg([list(row) for row in board["grid"]], last=moves[-1] if moves else None)


@lru_cache(maxsize=1)
def _diplomacy_renderer() -> Any:
    """One map renderer per process: it parses the 100 kB map once and re-renders it per position."""
    from diplomacy import Game  # lean: the diplomacy engine loads only to draw a board
    from diplomacy.engine.renderer import Renderer  # lean: the diplomacy engine loads only to draw a board

    return Renderer(Game())


@lru_cache(maxsize=256)
def _diplomacy_svg(key: str) -> str:
    from diplomacy import Game  # lean: the diplomacy engine loads only to draw a board

    board = json.loads(key)
    game = Game()
    game.clear_units()
    for power, units in board["units"].items():
        game.set_units(power, units)
    for power, centers in board["centers"].items():
        game.set_centers(power, centers)
    if board.get("phase") and board["phase"] != "COMPLETED":
        game.set_current_phase(board["phase"])
    renderer = _diplomacy_renderer()
    renderer.game = game
    svg = renderer.render(incl_orders=False, incl_abbrev=True)
    svg = re.sub(r"<\?xml[^>]*\?>|<!DOCTYPE[^>]*>|<!--.*?-->", "", svg, flags=re.DOTALL)
    return re.sub(r"\n\s*\n", "\n", svg).strip()


def diplomacy_board(board: dict[str, Any]) -> str:
    """The diplomacy package's own map (units and supply centres after the phase); identical positions
    are drawn once."""
    return _diplomacy_svg(json.dumps({k: board.get(k) for k in ("phase", "units", "centers")}, sort_keys=True))


def hanabi_board(board: dict[str, Any]) -> str:
    from stratbench.games.spin.hanabi_svg import hanabi_svg  # lean: loads only to draw a Hanabi board

    return hanabi_svg(board)


CHESS_MARGIN = 15 / 390
"""python-chess's drawing: a 15-unit coordinate margin around 8 squares of 45 units."""


def tictactoe_clicks(observation: Observation) -> dict[str, Any] | None:
    """A click on a cell plays it."""
    if not all(a.isdigit() for a in observation.legal_actions):
        return None
    cells = [[str(r * 3 + c) for c in range(3)] for r in range(3)]
    return {"left": 0.0, "top": 0.0, "width": 1.0, "height": 1.0, "rows": 3, "columns": 3, "cells": cells}


def connect4_clicks(observation: Observation) -> dict[str, Any] | None:
    """A click anywhere in a column drops a disc there."""
    if not all(a.isdigit() for a in observation.legal_actions):
        return None
    height = connect_four.ROWS / (connect_four.ROWS + 0.6)  # the drawing's column numbers lie below the grid
    cells = [[str(c) for c in range(connect_four.COLUMNS)] for _ in range(connect_four.ROWS)]
    return {"left": 0.0, "top": 0.0, "width": 1.0, "height": height, "rows": connect_four.ROWS,
            "columns": connect_four.COLUMNS, "cells": cells}


def chess_clicks(observation: Observation) -> dict[str, Any] | None:
    """A click on a piece and one on its target square make the move (a pawn reaching the last rank becomes a
    queen; other promotions go through the action list)."""
    if not (isinstance(observation.data, dict) and observation.data.get("fen")):
        return None
    import chess  # lean: loads with its game

    legal = set(observation.legal_actions)
    board = chess.Board(str(observation.data["fen"]))
    moves: dict[str, str] = {}
    for move in board.legal_moves:
        san = board.san(move)
        if san in legal or move.uci() in legal:
            key = move.uci()[:4]
            if key not in moves or move.promotion == chess.QUEEN:
                moves[key] = san if san in legal else move.uci()
    squares = [[chess.square_name(chess.square(c, 7 - r)) for c in range(8)] for r in range(8)]
    inner = 1 - 2 * CHESS_MARGIN
    return {"left": CHESS_MARGIN, "top": CHESS_MARGIN, "width": inner, "height": inner, "rows": 8, "columns": 8,
            "squares": squares, "moves": moves}
