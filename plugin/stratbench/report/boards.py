"""Board pictures for transcript pages, per game (optional)."""

from __future__ import annotations

from typing import Any

__all__ = ["BOARDS"]


def _final_fen(match: dict[str, Any]) -> str | None:
    """Finds the final FEN: on the row itself, or in any player's metrics (chess's game record)."""
    if match.get("final_fen"):
        return str(match["final_fen"])
    for values in (match.get("metrics") or {}).values():
        if isinstance(values, dict) and values.get("final_fen"):
            return str(values["final_fen"])
    return None


def _chess_board(match: dict[str, Any]) -> str | None:
    """Renders the final chess position with python-chess, when the record carries its FEN."""
    fen = _final_fen(match)
    if not fen:
        return None
    import chess
    import chess.svg

    return chess.svg.board(chess.Board(fen), size=360)


BOARDS = {"chess": _chess_board}
"""Game name → ``fn(match row) -> svg or None``."""
