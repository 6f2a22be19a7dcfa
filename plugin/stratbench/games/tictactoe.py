"""Tic-Tac-Toe: two players, perfect information, deterministic.

Cells are numbered 0–8 row by row (0 1 2 / 3 4 5 / 6 7 8). X (player 0)
moves first. A win scores 1 and a loss 0; a draw scores 0.5 each. The module
also holds the exact game-theoretic values of every move (:func:`move_values`),
used by the minimax agent and the move-quality metric.
"""

from __future__ import annotations

from functools import lru_cache

from stratbench.core.game import Game, GameInfo, State
from stratbench.core.types import Action, Observation, Rules

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


def render(board: str) -> str:
    """Renders the board as three text rows."""
    rows = [" | ".join(board[r * 3 : r * 3 + 3]) for r in range(3)]
    return "\n".join(rows)


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
    """The Tic-Tac-Toe rules engine."""

    info = INFO
    rules = RULES

    def new_initial_state(self, seed: int) -> TicTacToeState:
        """Returns the empty board (the game has no chance)."""
        return TicTacToeState(self)

    def role(self, player: int) -> str:
        """Returns ``"X"`` or ``"O"``."""
        return _MARKS[player]

    def observe(self, state: State, player: int) -> Observation:
        """Returns the board, whose turn it is and the empty cells."""
        assert isinstance(state, TicTacToeState)
        legal = tuple(state.legal_actions(player))
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
            instructions="Answer with the number of the cell you mark.",
            role=_MARKS[player],
            turn=state.turn,
            data={"board": state.board},
        )

    def canonical_action(self, state: State, player: int, text: str) -> str | None:
        """Accepts a cell number, tolerating surrounding spaces and a leading '#'."""
        return super().canonical_action(state, player, text.strip().lstrip("#"))
