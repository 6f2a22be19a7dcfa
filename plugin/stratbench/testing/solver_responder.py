"""Responders for :class:`~stratbench.testing.fake_llm.FakeLLMServer` that play like strong or weak models.

:func:`solver_responder` reads the position from the prompt the ``direct``
scaffold renders and answers with a perfect move: minimax for Tic-Tac-Toe
(:func:`stratbench.games.spin.tictactoe.move_values`) and the exact solver for
Connect Four (:func:`stratbench.games.spin.c4_solver.move_scores`). Among equally
good moves it takes the first (lowest cell or column), so the same prompt
always gets the same answer. Other prompts get a legal action from
:func:`~stratbench.testing.fake_llm.first_legal_responder`.

:func:`random_legal_responder` answers a uniformly random legal action, drawn
from a generator seeded with its seed and the prompt (the same prompt gets the
same answer, whatever the order of requests): a weak model.

Examples:
    >>> from stratbench.testing.fake_llm import FakeLLMServer
    >>> with FakeLLMServer(responder=solver_responder) as server:  # doctest: +SKIP
    ...     ...
"""

from __future__ import annotations

import random
import re
from typing import Any

from stratbench.testing.fake_llm import Responder, first_legal_responder
from stratbench.games.spin import c4_solver, tictactoe

__all__ = ["connect_four_moves", "random_legal_responder", "solver_responder", "tictactoe_board"]

_TTT_BOARD = re.compile(r"Current board \(\. = empty\):\n((?:[XO.] \| [XO.] \| [XO.]\n?){3})")
_C4_MOVES = re.compile(r"Columns played so far, in order: ([0-9, ]+|none)")
_LEGAL = re.compile(r"Legal actions:\s*(.+)")


def _prompt(body: dict[str, Any]) -> str:
    """Returns the text of the last user message of an OpenAI-style request body."""
    for message in reversed(body.get("messages", [])):
        if message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, list):
                return " ".join(part.get("text", "") for part in content if isinstance(part, dict))
            return str(content)
    return ""


def tictactoe_board(prompt: str) -> str | None:
    """Returns the 9-character board (``X``, ``O``, ``.``) shown in a Tic-Tac-Toe prompt, or None.

    Examples:
        >>> tictactoe_board("Current board (. = empty):\\nX | . | .\\n. | O | .\\n. | . | .\\n")
        'X...O....'
    """
    found = None
    for found in _TTT_BOARD.finditer(prompt):
        pass
    if found is None:
        return None
    return "".join(cell for row in found.group(1).strip().splitlines() for cell in row.split(" | "))


def connect_four_moves(prompt: str) -> list[int] | None:
    """Returns the columns played so far in a Connect Four prompt, or None.

    Examples:
        >>> connect_four_moves("Columns played so far, in order: 3, 3, 4")
        [3, 3, 4]
        >>> connect_four_moves("Columns played so far, in order: none")
        []
    """
    found = None
    for found in _C4_MOVES.finditer(prompt):
        pass
    if found is None:
        return None
    text = found.group(1).strip()
    return [] if text == "none" else [int(column) for column in text.split(",") if column.strip()]


def solver_responder(body: dict[str, Any]) -> str:
    """Answers a perfect Tic-Tac-Toe or Connect Four move, as ``Action: N``."""
    prompt = _prompt(body)
    board = tictactoe_board(prompt)
    if board is not None and tictactoe.move_values(board):
        values = tictactoe.move_values(board)
        best = max(values.values())
        return f"Action: {min(cell for cell, value in values.items() if value == best)}"
    moves = connect_four_moves(prompt)
    if moves is not None:
        scores = c4_solver.move_scores(moves)
        best = max(scores.values())
        return f"Action: {min(column for column, score in scores.items() if score == best)}"
    return first_legal_responder(body)


def random_legal_responder(seed: int = 0) -> Responder:
    """Returns a responder that answers a uniformly random legal action (``Legal actions: a, b``).

    Args:
        seed: Seeds the draw together with the prompt.
    """

    def respond(body: dict[str, Any]) -> str:
        prompt = _prompt(body)
        found = None
        for found in _LEGAL.finditer(prompt):
            pass
        actions = [a.strip() for a in found.group(1).split(",") if a.strip()] if found else []
        return f"Action: {random.Random(f'{seed}:{prompt}').choice(actions)}" if actions else "I am not sure."

    return respond
