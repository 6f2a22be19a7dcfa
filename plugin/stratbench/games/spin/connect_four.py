"""Connect Four: two players, perfect information, deterministic.

The board has 7 columns (0–6, left to right) and 6 rows. X (player 0) drops
the first disc. A player who lines up four discs horizontally, vertically or
diagonally wins (score 1, the other 0); a full board without four in a row is
a draw (0.5 each). Actions are column numbers ``"0"``–``"6"``, as in
SPIN-Bench.

Pascal Pons' notation writes a position as the sequence of 1-based columns
played from the empty board (``"4455"``); :func:`from_pons` and
:func:`to_pons` convert to and from 0-based column lists.

``ConnectFour(protocol="paper")`` words each decision as SPIN-Bench's released
code does (:mod:`stratbench.games.spin.spin_paper`); the actions are the same.

``ConnectFour(obfuscation=...)`` is a memorisation probe (``--obfuscate``): the
model reads the discs, the columns and the rules under seeded new names and
answers with a column's new name, read back to its number; the engine, the
records and the replay board keep the original names.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from stratbench.core.game import Game, GameInfo, State
from stratbench.core.obfuscation import Obfuscation
from stratbench.core.types import Action, Asking, Observation, Rules
from stratbench.games.relabel import Labels, check_protocol, mark_symbols
from stratbench.games.spin import openings as openings_
from stratbench.games.spin import spin_paper

__all__ = [
    "COLUMNS",
    "ROWS",
    "ConnectFour",
    "ConnectFourState",
    "from_pons",
    "render",
    "to_pons",
    "winner_of",
]

COLUMNS = 7
ROWS = 6
_MARKS = ("X", "O")
_EMPTY = "."
_DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))

INFO = GameInfo(
    name="connect4",
    num_players=2,
    sides=((0,), (1,)),
    max_turns=COLUMNS * ROWS,
    score_range=(0.0, 1.0),
    score_sum=1.0,
    family="spin",
)

RULES = Rules(
    title="Connect Four",
    summary=(
        "Two players take turns dropping a disc into one of the 7 columns of a vertical grid with "
        "6 rows; X moves first, then O. The disc falls to the lowest empty cell of that column. "
        "The first player to get four of their discs in a row, horizontally, vertically or "
        "diagonally, wins. If the grid fills up with no four in a row, the game is a draw. "
        "Columns are numbered 0-6 from left to right; a full column cannot be played. "
        "Your action is the number of a column that is not full."
    ),
)


@lru_cache(maxsize=None)
def opening_book() -> tuple[tuple[int, ...], ...]:
    """Every position four plies in that the solver scores a draw, as the 0-based columns played from the empty
    board (``openings_connect4.json``, ``--openings book``)."""
    return tuple(tuple(int(c) for c in moves) for moves in openings_.read_book("openings_connect4.json"))


class ConnectFourState(State):
    """A Connect Four position.

    Attributes:
        moves: The columns played so far, in order (0-based).
        grid: ``grid[row][column]`` holds ``"X"``, ``"O"`` or ``"."``; row 0 is the bottom.
        heights: The number of discs in each column.
        winner: ``"X"`` or ``"O"`` once a player has four in a row, else None.
    """

    def __init__(self, game: ConnectFour) -> None:
        super().__init__(game)
        self.moves: list[int] = []
        self.grid = [[_EMPTY] * COLUMNS for _ in range(ROWS)]
        self.heights = [0] * COLUMNS
        self.winner: str | None = None

    def _current_players(self) -> list[int]:
        return [len(self.moves) % 2]

    def _legal_actions(self, player: int) -> list[str]:
        return [str(c) for c in range(COLUMNS) if self.heights[c] < ROWS]

    def _apply(self, actions: dict[int, Action]) -> None:
        ((_, action),) = actions.items()
        self.drop(int(action.id))

    def drop(self, column: int) -> None:
        """Drops the next disc into ``column`` (already known to be legal)."""
        row = self.heights[column]
        mark = _MARKS[len(self.moves) % 2]
        self.grid[row][column] = mark
        self.heights[column] = row + 1
        self.moves.append(column)
        if _makes_four(self.grid, row, column, mark):
            self.winner = mark

    def _is_terminal(self) -> bool:
        return self.winner is not None or len(self.moves) == COLUMNS * ROWS

    def _scores(self) -> list[float]:
        if self.winner is None:
            return [0.5, 0.5]
        return [1.0, 0.0] if self.winner == "X" else [0.0, 1.0]

    def _terminal_reason(self) -> str:
        return "draw" if self.winner is None else f"{self.winner} wins"

    def __str__(self) -> str:
        return render(self.grid)


class ConnectFour(Game):
    """The Connect Four rules engine (6 rows by 7 columns).

    Attributes:
        engine_players: Players whose moves come from an engine (the solver)
            in this match; engine agents add themselves (the game object is
            built anew for every match).
        engine_settings: Each engine player's settings, for the match record.

    Args:
        protocol: ``"default"`` or ``"paper"`` (SPIN-Bench's released wording).
        obfuscation: Renames the discs and columns the model reads and writes (default protocol only); None: the
            original.
        openings: ``"empty"`` (every seed from the empty board) or ``"book"`` (each seed from a drawn position
            four plies in, :func:`opening_book`; default protocol only).
        renamed_title: Whether a renamed probe renames the game's name too (the default: "a game called Connect
            Four" gives the probe away); the committed reference probes were recorded naming it.
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
        self.engine_players: set[int] = set()
        self.engine_settings: dict[int, dict[str, Any]] = {}

    def new_initial_state(self, seed: int) -> ConnectFourState:
        """Returns the empty board, or under ``openings="book"`` the seed's book position (no chance)."""
        state = ConnectFourState(self)
        if self.openings == openings_.BOOK:
            for column in openings_.pick(opening_book(), seed):
                state.drop(column)
        return state

    def opening(self, seed: int) -> str | None:
        """The seed's book position as the columns played (``"columns 3 3 2 4"``), or None from the empty board."""
        if self.openings != openings_.BOOK:
            return None
        return "columns " + " ".join(str(c) for c in openings_.pick(opening_book(), seed))

    def snapshot(self, state: State) -> dict[str, Any]:
        """The columns played, the grid (bottom row first) and the text board, for the replay viewer."""
        assert isinstance(state, ConnectFourState)
        return {"moves": list(state.moves), "grid": ["".join(row) for row in state.grid], "text": render(state.grid)}

    def state_from_moves(self, moves: Sequence[int]) -> ConnectFourState:
        """Returns the position reached by playing ``moves`` (0-based columns) from the empty board.

        Raises:
            ValueError: if a move is not legal where it is played.
        """
        state = ConnectFourState(self)
        for column in moves:
            player = state.current_players()
            if not player or str(column) not in state.legal_actions(player[0]):
                raise ValueError(f"column {column} is not legal after {list(state.moves)}")
            state.apply({player[0]: Action(str(column))})
        return state

    def role(self, player: int) -> str:
        """Returns ``"X"`` or ``"O"``."""
        return _MARKS[player]

    def observe(self, state: State, player: int) -> Observation:
        """Returns the grid, the moves so far and the columns that are not full."""
        assert isinstance(state, ConnectFourState)
        mark = _MARKS[player]
        legal = tuple(state.legal_actions(player))
        if self.names is not None:
            return self.names.observe(state, player, legal)
        paper = _paper_fields(state.grid, player, legal) if self.protocol == spin_paper.PAPER else {}
        history = ", ".join(str(c) for c in state.moves) or "none"
        text = (
            f"You play {mark} ({'first' if player == 0 else 'second'}).\n"
            f"Current board (. = empty, the bottom row is the last line):\n{render(state.grid)}\n"
            f"Columns played so far, in order: {history}"
        )
        return Observation(
            game=INFO.name,
            player=player,
            text=text,
            legal_actions=legal,
            rules=RULES,
            role=mark,
            turn=state.turn,
            data={"moves": list(state.moves), "board": [list(row) for row in state.grid], "mark": mark},
            asking=Asking(instructions="Answer with the number (0-6) of the column you drop your disc into.", **paper),
        )

    def canonical_action(self, state: State, player: int, text: str) -> str | None:
        """Accepts a column number, tolerating spaces and a ``column``/``col`` prefix.

        Renamed: accepts a column's new name (after ``column`` or not), and refuses anything else naming the
        new names.

        Raises:
            IllegalActionError: renamed only, for an answer that names no playable column.
        """
        cleaned = text.strip().lower()
        if self.names is not None:
            bare = cleaned.strip("'\"`.")
            if self.names.columns.original(bare) is None and bare.startswith("column "):
                bare = bare[len("column ") :]
            return self.names.columns.read(bare, state.legal_actions(player))
        for prefix in ("column", "col"):
            if cleaned.startswith(prefix):
                cleaned = cleaned[len(prefix) :].strip()
                break
        return super().canonical_action(state, player, cleaned)


class _Renamed:
    """The probe's names: one-character discs, renamed columns, and the observation worded with them."""

    def __init__(self, obfuscation: Obfuscation, renamed_title: bool = True) -> None:
        self.marks = mark_symbols(obfuscation, "connect4:mark", _MARKS)
        self.columns = Labels(obfuscation.rename([str(c) for c in range(COLUMNS)], "connect4:column",
                                                 taken=self.marks.values()))
        first, second = (self.marks[mark] for mark in _MARKS)
        taken = [*self.marks.values(), *self.columns.renamed.values()]
        self.title = (obfuscation.rename([RULES.title], "connect4:title", taken=taken)[RULES.title] if renamed_title
                      else RULES.title)
        """The game's name, renamed too: "a game called Connect Four" would give the probe away."""
        self.rules = Rules(
            title=self.title,
            summary=(
                "Two players take turns dropping a disc into one of the seven columns of a vertical grid with "
                f"six rows; {first} moves first, then {second}. The disc falls to the lowest empty cell of that "
                "column. The first player to get four of their discs in a row, horizontally, vertically or "
                "diagonally, wins. If the grid fills up with no four in a row, the game is a draw. "
                f"The columns, from left to right, are named {self.order()}; a full column cannot be played. "
                "Your action is the name of a column that is not full."
            ),
        )

    def order(self) -> str:
        """The columns' names from left to right."""
        return ", ".join(self.columns.shown(str(c)) for c in range(COLUMNS))

    def observe(self, state: ConnectFourState, player: int, legal: tuple[str, ...]) -> Observation:
        """The observation in the new names; ``data`` keeps the engine's moves and board and names each column's
        label."""
        mark = self.marks[_MARKS[player]]
        rows = ["|" + " ".join(self.marks.get(cell, cell) for cell in state.grid[row]) + "|"
                for row in range(ROWS - 1, -1, -1)]
        history = ", ".join(self.columns.shown(str(c)) for c in state.moves) or "none"
        text = (
            f"You play {mark} ({'first' if player == 0 else 'second'}).\n"
            "Current board (. = empty, the bottom row is the last line):\n" + "\n".join(rows) + "\n"
            f"Columns from left to right: {self.order()}\n"
            f"Columns played so far, in order: {history}"
        )
        return Observation(
            game=INFO.name,
            player=player,
            text=text,
            legal_actions=tuple(self.columns.shown(column) for column in legal),
            rules=self.rules,
            role=mark,
            turn=state.turn,
            data={"moves": list(state.moves), "board": [list(row) for row in state.grid], "mark": _MARKS[player],
                  "labels": dict(self.columns.renamed)},
            asking=Asking(instructions="Answer with the name of the column you drop your disc into."),
        )


def _paper_intro(player: int) -> str:
    mark, other = _MARKS[player], _MARKS[1 - player]
    order = "first" if player == 0 else "second"
    return (
        "You are playing Connect Four. The board is a vertical grid of 6 rows and 7 columns. Two players "
        "take turns dropping a disc into a column; the disc falls to the lowest empty cell of that column. "
        "The first player to connect four of their discs in a row, horizontally, vertically or diagonally, "
        "wins; if the grid fills up without four in a row, the game is a draw.\n"
        f"You are '{mark}' and you move {order}; your opponent is '{other}'.\n"
        "Your action is the number of a column, from 0 to 6, counted from left to right."
    )


def _paper_fields(grid: Sequence[Sequence[str]], player: int, legal: tuple[str, ...]) -> dict:
    """The paper protocol's conversation for one decision."""
    state = f"Your opponent has made the move, and now the state is:\n{render(grid)}"
    action_prompt = (
        f"{spin_paper.answer_format('int')}\n"
        f"<legal_moves>{' '.join(legal)}</legal_moves>\n"
        "You must select one legal move from this list."
    )
    return spin_paper.paper_fields(_paper_intro(player), state, action_prompt)


def render(grid: Sequence[Sequence[str]]) -> str:
    """Renders the grid top row first, with the column numbers underneath."""
    lines = ["|" + " ".join(grid[row]) + "|" for row in range(ROWS - 1, -1, -1)]
    lines.append(" " + " ".join(str(c) for c in range(COLUMNS)))
    return "\n".join(lines)


def render_svg(grid: Sequence[Sequence[str]], *, last: int | None = None, size: int = 350) -> str:
    """Renders the grid as an SVG image, top row first, columns numbered 0-6, the last disc outlined.

    Args:
        grid: ``grid[row][column]`` with row 0 at the bottom.
        last: The column played last (its top disc is highlighted); None for none.
        size: The image width in pixels.
    """
    cell = size / COLUMNS
    height = cell * (ROWS + 0.6)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{height:.0f}" '
             f'viewBox="0 0 {size} {height:.1f}" role="img" aria-label="Connect Four board">',
             f'<rect width="{size}" height="{cell * ROWS:.1f}" rx="8" fill="#2b59c3"/>']
    top = None
    if last is not None:
        top = max((r for r in range(ROWS) if grid[r][last] != _EMPTY), default=None)
    for row in range(ROWS):
        for column in range(COLUMNS):
            mark = grid[row][column]
            cx, cy = (column + 0.5) * cell, (ROWS - row - 0.5) * cell
            fill = {"X": "#e63946", "O": "#ffd166"}.get(mark, "#f1faee")
            stroke = ' stroke="#111" stroke-width="4"' if (row, column) == (top, last) else ""
            parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{cell * 0.4:.1f}" fill="{fill}"{stroke}/>')
    for column in range(COLUMNS):
        parts.append(f'<text x="{(column + 0.5) * cell:.1f}" y="{cell * ROWS + cell * 0.45:.1f}" font-size="14" '
                     f'text-anchor="middle" font-family="sans-serif" fill="#333">{column}</text>')
    parts.append("</svg>")
    return "".join(parts)


def from_pons(sequence: str) -> list[int]:
    """Converts Pons' 1-based column string to 0-based columns.

    Examples:
        >>> from_pons("4455")
        [3, 3, 4, 4]
    """
    if any(ch not in "1234567" for ch in sequence):
        raise ValueError(f"not a Pons move sequence (digits 1-7): {sequence!r}")
    return [int(ch) - 1 for ch in sequence]


def to_pons(moves: Sequence[int]) -> str:
    """Converts 0-based columns to Pons' 1-based column string.

    Examples:
        >>> to_pons([3, 3, 4, 4])
        '4455'
    """
    return "".join(str(c + 1) for c in moves)


def winner_of(moves: Sequence[int]) -> str | None:
    """Returns the mark that completed four in a row while playing ``moves``, or None.

    Raises:
        ValueError: if a column is out of range or full, or a move follows a win.
    """
    grid = [[_EMPTY] * COLUMNS for _ in range(ROWS)]
    heights = [0] * COLUMNS
    for index, column in enumerate(moves):
        if not 0 <= column < COLUMNS or heights[column] == ROWS:
            raise ValueError(f"move {index}: column {column} is not playable")
        mark = _MARKS[index % 2]
        grid[heights[column]][column] = mark
        heights[column] += 1
        if _makes_four(grid, heights[column] - 1, column, mark):
            if index != len(moves) - 1:
                raise ValueError(f"move {index} already won the game")
            return mark
    return None


def _makes_four(grid: list[list[str]], row: int, column: int, mark: str) -> bool:
    """Tells whether the disc at (row, column) completes four in a row."""
    for d_col, d_row in _DIRECTIONS:
        count = 1
        for sign in (1, -1):
            r, c = row + sign * d_row, column + sign * d_col
            while 0 <= r < ROWS and 0 <= c < COLUMNS and grid[r][c] == mark:
                count += 1
                r += sign * d_row
                c += sign * d_col
        if count >= 4:
            return True
    return False
