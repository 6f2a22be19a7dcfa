"""Board renderers of the SPIN-Bench games for the replay viewer (``Registry.add_board_renderer``).

Each draws one of its game's ``board`` snapshots (``Game.snapshot``) as an inline ``<svg>``.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

def chess_board(board: dict[str, Any]) -> str:
    from stratbench.games.spin.chess_game import board_svg

    return board_svg(board["fen"], lastmove=board.get("lastmove"), size=320)


def tictactoe_board(board: dict[str, Any]) -> str:
    from stratbench.games.spin.tictactoe import render_svg

    return render_svg(board["board"], last=board.get("last"))


def connect4_board(board: dict[str, Any]) -> str:
    from stratbench.games.spin.connect_four import render_svg

    moves = board.get("moves") or []
    return render_svg([list(row) for row in board["grid"]], last=moves[-1] if moves else None)


@lru_cache(maxsize=1)
def _diplomacy_renderer() -> Any:
    """One map renderer per process: it parses the 100 kB map once and re-renders it per position."""
    from diplomacy import Game
    from diplomacy.engine.renderer import Renderer

    return Renderer(Game())


@lru_cache(maxsize=256)
def _diplomacy_svg(key: str) -> str:
    from diplomacy import Game

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
    from stratbench.games.spin.hanabi_svg import hanabi_svg

    return hanabi_svg(board)
