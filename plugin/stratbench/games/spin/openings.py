"""Books of balanced start positions for the solver games (``--openings book``).

Engine testers get the variety of their games from opening books: each unit of a
gate is one opening played with both colours. Without a book every seed of
Tic-Tac-Toe, Connect Four and chess starts from the empty board, and an agent
that plays the same way twice plays the same game twice. A book's positions
are balanced (neither side better with best play), so a unit played in both
seatings is fair to both agents:

* **Tic-Tac-Toe**: every position two and four plies in whose exact value is a
  draw (minimax over the whole tree, :func:`stratbench.games.spin.tictactoe.opening_book`);
* **Connect Four**: every position four plies in that the solver scores a draw
  (``openings_connect4.json``, written by ``scripts/make_openings.py`` and
  checked by the tests);
* **chess**: openings of four plies, Stockfish's four best moves at each ply,
  that Stockfish scores within 40 centipawns of equality
  (``openings_chess.json``, written and checked the same way).

Each game owns its book (``opening_book()`` in its module); this module holds
what they share.

A seed picks entry ``seed % len(book)`` of the book's fixed shuffled order, so
consecutive seeds start from different positions until the book is used up.
Only the default protocol plays from a book; the paper protocol keeps the
empty board, as the papers played.
"""

from __future__ import annotations

import json
import random
from importlib import resources
from typing import Any

__all__ = ["BOOK", "EMPTY", "OPENINGS", "ORDER_SEED", "check_openings", "pick", "read_book", "shuffled"]

EMPTY, BOOK = "empty", "book"
OPENINGS = (EMPTY, BOOK)
"""The values of ``--openings``: every match from the game's own start, or each seed from its book position."""

ORDER_SEED = "stratbench-openings"
"""Seeds the fixed shuffled order of every book (``scripts/make_openings.py`` stores the files so)."""


def check_openings(game: str, openings: str, protocol: str) -> str:
    """Returns ``openings`` when ``game`` can start so under ``protocol``.

    Raises:
        ValueError: an unknown value, or a book under the paper protocol (which keeps the empty board).
    """
    if openings not in OPENINGS:
        raise ValueError(f"{game}: openings must be one of {', '.join(OPENINGS)}, got {openings!r}")
    if openings == BOOK and protocol != "default":
        raise ValueError(f"{game}: the {protocol} protocol keeps the empty board; openings={BOOK!r} is for the "
                         "default protocol")
    return openings


def pick(book: tuple[Any, ...], seed: int) -> Any:
    """The book entry a seed starts from: ``book[seed % len(book)]``."""
    return book[seed % len(book)]


def read_book(name: str) -> tuple[tuple[Any, ...], ...]:
    """Each entry's ``moves`` of a book file stored beside this module (``openings_connect4.json``), in order."""
    data = json.loads(resources.files("stratbench.games.spin").joinpath(name).read_text(encoding="utf-8"))
    return tuple(tuple(entry["moves"]) for entry in data["positions"])


def shuffled(entries: list[Any]) -> tuple[Any, ...]:
    """A computed book in its fixed shuffled order (the files are stored shuffled the same way)."""
    ordered = sorted(entries)
    random.Random(ORDER_SEED).shuffle(ordered)
    return tuple(ordered)
