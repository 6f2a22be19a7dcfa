"""Hive's board, as the rules (``hive``) and the renderer (``hive_render``) both read it.

Cells use axial coordinates written ``q:r``; the six neighbours of ``q:r`` are
``q+1:r``, ``q-1:r``, ``q:r+1``, ``q:r-1``, ``q+1:r-1`` and ``q-1:r+1``. A
piece is ``(owner, bug letter)``, owner 0 (White) or 1 (Black).
"""

from __future__ import annotations

import re
from typing import Protocol

__all__ = ["BUGS", "CELL_PATTERN", "COLOURS", "DIRECTIONS", "Cell", "Position", "cell_name", "neighbours",
           "parse_cell"]

DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
"""Axial neighbour offsets in cyclic order: entries i-1 and i+1 flank entry i."""
BUGS = {"Q": "Queen Bee", "S": "Spider", "G": "Grasshopper", "A": "Soldier Ant"}
"""The bug letters and names."""
COLOURS = ("White", "Black")
"""The players' colours; White (player 0) moves first."""
CELL_PATTERN = re.compile(r"(-?\d+)\s*[:,]\s*(-?\d+)")
"""A cell as players write it: ``q:r`` or ``q,r``, spaces allowed around the separator."""

Cell = tuple[int, int]


class Position(Protocol):
    """What the renderer reads of a position (:class:`~stratbench.games.gamebench.hive.HiveState` has it)."""

    board: dict[Cell, tuple[int, str]]
    """The piece on each occupied cell, as ``(owner, bug letter)``."""
    turn: int
    """Turns played so far; the side to move is ``turn % 2``."""


def neighbours(cell: Cell) -> list[Cell]:
    """Returns the six cells around ``cell`` in cyclic order."""
    q, r = cell
    return [(q + dq, r + dr) for dq, dr in DIRECTIONS]


def cell_name(cell: Cell) -> str:
    """Returns a cell's name, ``"q:r"``."""
    return f"{cell[0]}:{cell[1]}"


def parse_cell(text: str) -> Cell:
    """Returns the cell named ``"q:r"`` (also accepts ``"q,r"`` and parentheses).

    Raises:
        ValueError: if ``text`` names no cell.
    """
    match = CELL_PATTERN.fullmatch(text.strip().strip("()[] "))
    if match is None:
        raise ValueError(f"not a cell: {text!r}")
    return int(match.group(1)), int(match.group(2))
