"""Board renderers of the SPIN-Bench games for the replay viewer (``Registry.add_board_renderer``).

Each draws one of its game's ``board`` snapshots (``Game.snapshot``) as an inline ``<svg>``.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

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
