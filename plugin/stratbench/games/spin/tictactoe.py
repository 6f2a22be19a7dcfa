"""Tic-Tac-Toe: two players, perfect information, deterministic.

Cells are numbered 0–8 row by row (0 1 2 / 3 4 5 / 6 7 8). X (player 0)
moves first. A win scores 1 and a loss 0; a draw scores 0.5 each. The module
also holds the exact game-theoretic values of every move (:func:`move_values`),
used by the minimax agent and the move-quality metric.

``TicTacToe(protocol="paper")`` words each decision as SPIN-Bench's released
code does (:mod:`stratbench.games.spin.spin_paper`): cells numbered by column
(0 3 6 / 1 4 7 / 2 5 8), a JSON answer, ``Illegal move, try again``. Only the
wording changes: actions, records and metrics keep the row-by-row numbers
(:func:`paper_cell` converts).

``TicTacToe(obfuscation=...)`` is a memorisation probe (``--obfuscate``): the
model reads the marks, the cells and the rules under seeded new names and
answers with a cell's new name, read back to its number; the engine, the
records and the replay board keep the original names.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from stratbench.core.game import Game, GameInfo, State
from stratbench.core.obfuscation import Obfuscation
from stratbench.core.types import Action, Asking, Observation, Rules
from stratbench.games.relabel import Labels, check_protocol, mark_symbols
from stratbench.games.spin import openings as openings_
from stratbench.games.spin import spin_paper

_LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
_MARKS = ("X", "O")
_EMPTY = "."

INFO = GameInfo(
    name="tictactoe",
    num_players=2,
    sides=((0,), (1,)),
    max_turns=9,
    score_range=(0.0, 1.0),
    score_sum=1.0,
    family="spin",
)

RULES = Rules(
    title="Tic-Tac-Toe",
    summary=(
        "Two players take turns marking empty cells of a 3x3 grid; X moves first, then O. "
        "The first player to get three of their marks in a row (horizontally, vertically or "
        "diagonally) wins. If all nine cells are filled with no three in a row, the game is a draw. "
        "Cells are numbered 0-8 row by row:\n 0 | 1 | 2\n 3 | 4 | 5\n 6 | 7 | 8\n"
        "Your action is the number of an empty cell."
    ),
)


def winner(board: str) -> str | None:
    """Returns ``"X"`` or ``"O"`` if that mark has three in a row, else None."""
    for a, b, c in _LINES:
        if board[a] != _EMPTY and board[a] == board[b] == board[c]:
            return board[a]
    return None


def to_move(board: str) -> str:
    """Returns the mark to play next on ``board`` (X when counts are equal)."""
    return "X" if board.count("X") == board.count("O") else "O"


@lru_cache(maxsize=None)
def position_value(board: str) -> int:
    """Returns the exact value for the side to move: 1 win, 0 draw, -1 loss."""
    won = winner(board)
    if won is not None:
        return -1  # the previous mover completed a line
    empty = [i for i, cell in enumerate(board) if cell == _EMPTY]
    if not empty:
        return 0
    mark = to_move(board)
    return max(-position_value(board[:i] + mark + board[i + 1 :]) for i in empty)


def move_values(board: str) -> dict[int, int]:
    """Returns the exact value of each legal move for the side to move.

    Examples:
        >>> move_values("XX.OO....")[2]
        1
    """
    if winner(board) is not None:
        return {}
    mark = to_move(board)
    return {
        i: -position_value(board[:i] + mark + board[i + 1 :])
        for i, cell in enumerate(board)
        if cell == _EMPTY
    }


@lru_cache(maxsize=None)
def opening_book() -> tuple[str, ...]:
    """Every board two and four plies in (X to move) that is a draw with best play, in the books' fixed shuffled
    order (``--openings book``); a board is 9 characters of ``X``, ``O`` and ``.``, cells row by row."""
    found: set[str] = set()
    frontier = {_EMPTY * 9}
    for ply in range(1, 5):
        mark = _MARKS[(ply - 1) % 2]
        frontier = {board[:i] + mark + board[i + 1:] for board in frontier if winner(board) is None
                    for i in range(9) if board[i] == _EMPTY}
        if ply % 2 == 0:
            found |= {board for board in frontier if winner(board) is None and position_value(board) == 0}
    return openings_.shuffled(list(found))


def paper_cell(cell: int) -> int:
    """Converts between row-by-row and by-column cell numbers (the map is its own inverse).

    Examples:
        >>> [paper_cell(i) for i in range(9)]
        [0, 3, 6, 1, 4, 7, 2, 5, 8]
    """
    return (cell % 3) * 3 + cell // 3


def render(board: str) -> str:
    """Renders the board as three text rows."""
    rows = [" | ".join(board[r * 3 : r * 3 + 3]) for r in range(3)]
    return "\n".join(rows)


def render_svg(board: str, *, last: int | None = None, size: int = 240) -> str:
    """Renders the board as an SVG image: cells numbered 0-8, the last mark outlined.

    Args:
        board: The 9-character board (X, O and '.').
        last: The cell played last, highlighted; None for none.
        size: The image width and height in pixels.
    """
    cell = size / 3
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 {size} {size}" '
             f'role="img" aria-label="Tic-Tac-Toe board {board}">',
             f'<rect width="{size}" height="{size}" fill="#fdfdf7"/>']
    for i, mark in enumerate(board):
        x, y = (i % 3) * cell, (i // 3) * cell
        stroke = "#e76f51" if i == last else "#555"
        width = 4 if i == last else 1.5
        parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{cell:.1f}" height="{cell:.1f}" fill="none" '
                     f'stroke="{stroke}" stroke-width="{width}"/>')
        parts.append(f'<text x="{x + 6:.1f}" y="{y + 16:.1f}" font-size="12" fill="#999">{i}</text>')
        if mark != _EMPTY:
            colour = "#1d3557" if mark == "X" else "#b5179e"
            parts.append(f'<text x="{x + cell / 2:.1f}" y="{y + cell * 0.68:.1f}" font-size="{cell * 0.6:.0f}" '
                         f'text-anchor="middle" font-family="sans-serif" fill="{colour}">{mark}</text>')
    parts.append("</svg>")
    return "".join(parts)


class TicTacToeState(State):
    """A Tic-Tac-Toe position; ``board`` is a 9-character string of X, O and '.'."""

    def __init__(self, game: TicTacToe) -> None:
        super().__init__(game)
        self.board = _EMPTY * 9

    def _current_players(self) -> list[int]:
        return [0 if to_move(self.board) == "X" else 1]

    def _legal_actions(self, player: int) -> list[str]:
        return [str(i) for i, cell in enumerate(self.board) if cell == _EMPTY]

    def _apply(self, actions: dict[int, Action]) -> None:
        ((player, action),) = actions.items()
        cell = int(action.id)
        self.board = self.board[:cell] + _MARKS[player] + self.board[cell + 1 :]

    def _is_terminal(self) -> bool:
        return winner(self.board) is not None or _EMPTY not in self.board

    def _scores(self) -> list[float]:
        won = winner(self.board)
        if won is None:
            return [0.5, 0.5]
        return [1.0, 0.0] if won == "X" else [0.0, 1.0]

    def _terminal_reason(self) -> str:
        return "draw" if winner(self.board) is None else f"{winner(self.board)} wins"

    def __str__(self) -> str:
        return render(self.board)


class TicTacToe(Game):
    """The Tic-Tac-Toe rules engine.

    Args:
        protocol: ``"default"`` or ``"paper"`` (SPIN-Bench's released wording).
        obfuscation: Renames the marks and cells the model reads and writes (default protocol only); None: the
            original.
        openings: ``"empty"`` (every seed from the empty board) or ``"book"`` (each seed from a drawn position
            two or four plies in, :func:`opening_book`; default protocol only).
        renamed_title: Whether a renamed probe renames the game's name too (the default: "a game called
            Tic-Tac-Toe" gives the probe away); the committed reference probes were recorded naming it.
    """

    info = INFO
    rules = RULES
    supports_obfuscation = True
    supports_openings = True

    def __init__(self, protocol: str = "default", obfuscation: Obfuscation | None = None,
                 openings: str = openings_.EMPTY, renamed_title: bool = True) -> None:
        self.protocol = spin_paper.check_protocol(INFO.name, protocol)
        check_protocol(INFO.name, self.protocol, obfuscation)
        self.openings = openings_.check_openings(INFO.name, openings, self.protocol)
        self.obfuscation = obfuscation
        self.names = _Renamed(obfuscation, renamed_title) if obfuscation is not None else None

    def new_initial_state(self, seed: int) -> TicTacToeState:
        """Returns the empty board, or under ``openings="book"`` the seed's book position (no chance)."""
        state = TicTacToeState(self)
        if self.openings == openings_.BOOK:
            state.board = openings_.pick(opening_book(), seed)
        return state

    def opening(self, seed: int) -> str | None:
        """The seed's book position as the marks' cells (``"X 4, O 0"``), or None from the empty board."""
        if self.openings != openings_.BOOK:
            return None
        board = openings_.pick(opening_book(), seed)
        return ", ".join(f"{mark} {' '.join(str(i) for i, c in enumerate(board) if c == mark)}" for mark in _MARKS)

    def snapshot(self, state: State) -> dict[str, Any]:
        """The board string, the last cell played and the text board, for the replay viewer."""
        assert isinstance(state, TicTacToeState)
        last = int(next(iter(state.history[-1].values()))) if state.history else None
        return {"board": state.board, "last": last, "text": render(state.board)}

    def role(self, player: int) -> str:
        """Returns ``"X"`` or ``"O"``."""
        return _MARKS[player]

    def observe(self, state: State, player: int) -> Observation:
        """Returns the board, whose turn it is and the empty cells."""
        assert isinstance(state, TicTacToeState)
        legal = tuple(state.legal_actions(player))
        if self.names is not None:
            return self.names.observe(state, player, legal)
        paper = _paper_fields(state.board, player, legal) if self.protocol == spin_paper.PAPER else {}
        text = (
            f"You play {_MARKS[player]}.\nCurrent board (. = empty):\n{render(state.board)}\n"
            f"Cell numbers:\n{render('012345678')}"
        )
        return Observation(
            game=INFO.name,
            player=player,
            text=text,
            legal_actions=legal,
            rules=RULES,
            role=_MARKS[player],
            turn=state.turn,
            data={"board": state.board, **({"answer_ids": _PAPER_IDS} if paper else {})},
            asking=Asking(instructions="Answer with the number of the cell you mark.", **paper),
        )

    def canonical_action(self, state: State, player: int, text: str) -> str | None:
        """Accepts a cell number, tolerating surrounding spaces and a leading '#'.

        Renamed: accepts a cell's new name, and refuses anything else naming the new names.

        Raises:
            IllegalActionError: renamed only, for an answer that names no empty cell.
        """
        if self.names is not None:
            return self.names.cells.read(text.strip().strip("'\"`."), state.legal_actions(player))
        return super().canonical_action(state, player, text.strip().lstrip("#"))


class _Renamed:
    """The probe's names: one-character marks, renamed cells, and the observation worded with them."""

    def __init__(self, obfuscation: Obfuscation, renamed_title: bool = True) -> None:
        self.marks = mark_symbols(obfuscation, "tictactoe:mark", _MARKS)
        self.cells = Labels(obfuscation.rename([str(i) for i in range(9)], "tictactoe:cell",
                                               taken=self.marks.values()))
        first, second = (self.marks[mark] for mark in _MARKS)
        taken = [*self.marks.values(), *self.cells.renamed.values()]
        self.title = (obfuscation.rename([RULES.title], "tictactoe:title", taken=taken)[RULES.title] if renamed_title
                      else RULES.title)
        """The game's name, renamed too: "a game called Tic-Tac-Toe" would give the probe away."""
        self.rules = Rules(
            title=self.title,
            summary=(
                f"Two players take turns marking empty cells of a three-by-three grid; {first} moves first, then "
                f"{second}. The first player to get three of their marks in a row (horizontally, vertically or "
                "diagonally) wins. If all nine cells are filled with no three in a row, the game is a draw. "
                f"The cells are named row by row:\n{self.grid()}\nYour action is the name of an empty cell."
            ),
        )

    def grid(self) -> str:
        """The cells' names in their places, three rows."""
        names = [self.cells.shown(str(i)) for i in range(9)]
        width = max(map(len, names))
        return "\n".join(" | ".join(name.ljust(width) for name in names[r * 3 : r * 3 + 3]).rstrip()
                         for r in range(3))

    def observe(self, state: TicTacToeState, player: int, legal: tuple[str, ...]) -> Observation:
        """The observation in the new names; ``data`` keeps the engine's board and names each cell's label."""
        mark = self.marks[_MARKS[player]]
        board = "".join(self.marks.get(cell, cell) for cell in state.board)
        text = f"You play {mark}.\nCurrent board (. = empty):\n{render(board)}\nCell names:\n{self.grid()}"
        return Observation(
            game=INFO.name,
            player=player,
            text=text,
            legal_actions=tuple(self.cells.shown(cell) for cell in legal),
            rules=self.rules,
            role=mark,
            turn=state.turn,
            data={"board": state.board, "labels": dict(self.cells.renamed)},
            asking=Asking(instructions="Answer with the name of the cell you mark."),
        )


_PAPER_IDS = {str(paper_cell(i)): str(i) for i in range(9)}
"""A by-column cell number as answered -> the row-by-row action id."""
_PAPER_GRID = "0|3|6\n1|4|7\n2|5|8"


def _paper_intro(player: int) -> str:
    mark, other = _MARKS[player], _MARKS[1 - player]
    order = "first" if player == 0 else "second"
    warning = " Taking an illegal move ends the game and you lose." if player == 0 else ""
    return (
        "You are playing Tic-Tac-Toe. Two players take turns placing their mark in an empty cell of a 3x3 "
        "grid. The first player to get three of their marks in a row, a column or a diagonal wins; if all "
        "cells are filled without such a line, the game is a draw.\n"
        f"You are '{mark}' and you move {order}; your opponent is '{other}'.\n"
        f"The cells are numbered by column:\n{_PAPER_GRID}\n"
        f"Your action is the number of an empty cell.{warning}"
    )


def _paper_fields(board: str, player: int, legal: tuple[str, ...]) -> dict:
    """The paper protocol's conversation for one decision (cells numbered by column)."""
    rows = ["|".join(board[r * 3 + c] for c in range(3)) for r in range(3)]
    state = "The current board is ('.' is empty):\n" + "\n".join(rows)
    moves = sorted(paper_cell(int(cell)) for cell in legal)
    action_prompt = (
        f"The cells are numbered as follows:\n{_PAPER_GRID}\n"
        f"{spin_paper.answer_format('int')}\n"
        f"Legal moves: {moves} You must select one legal move from this list. You have to win."
    )
    return spin_paper.paper_fields(_paper_intro(player), state, action_prompt)
