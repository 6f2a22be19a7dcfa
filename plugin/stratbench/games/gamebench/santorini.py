"""Santorini (GameBench): two players, perfect information, deterministic, no god powers.

The board is 5x5; squares are named like chess squares, columns ``a``-``e``
from left to right and rows ``1``-``5`` from bottom to top, and the eight
directions are compass points (``N`` = towards row 5, ``E`` = towards column
``e``). Player 0 owns pawns A and B, player 1 pawns X and Y (GameBench's
letters). First the players place their pawns alternately (A, X, B, Y:
``place A c3``); then each turn moves the player's *alternating* pawn (A, B,
A, ... and X, Y, X, ...) one step and builds next to it
(``move A N build NE``). A move onto level 3 wins at once, so it is written
without a build (``move A N``); a player whose pawn cannot complete a turn
loses. Every turn adds a block, so a match lasts at most 4 + 100 decisions.
"""

from __future__ import annotations

from stratbench.core.game import GameInfo, State
from stratbench.core.types import Action, Asking, Observation, Rules
from stratbench.games.gamebench import ProtocolGame, check_protocol

__all__ = ["INFO", "RULES", "Santorini", "SantoriniState", "square_name", "parse_square"]

_SIZE = 5
_COLUMNS = "abcde"
_DOME = 4
_WIN_LEVEL = 3
_PAWNS = (("A", "B"), ("X", "Y"))
_PLACEMENT_ORDER = ((0, "A"), (1, "X"), (0, "B"), (1, "Y"))
_DIRECTIONS = {
    "N": (0, 1),
    "NE": (1, 1),
    "E": (1, 0),
    "SE": (1, -1),
    "S": (0, -1),
    "SW": (-1, -1),
    "W": (-1, 0),
    "NW": (-1, 1),
}
_DIRECTION_ORDER = tuple(_DIRECTIONS)

INFO = GameInfo(
    name="santorini",
    num_players=2,
    sides=((0,), (1,)),
    max_turns=len(_PLACEMENT_ORDER) + _SIZE * _SIZE * _DOME + 1,
    score_range=(0.0, 1.0),
    score_sum=1.0,
    family="gamebench",
)

RULES = Rules(
    title="Santorini",
    summary=(
        "Win by moving one of your pawns to the third level of the board or forcing your opponent to be "
        "unable to finish their turn. The game is played on a five by five grid of squares, and each player "
        "controls two pawns. Play alternates between the players, starting with player 1. The pawn that a "
        "player plays with alternates during each of their turns: for example, player 1 plays pawn A on their "
        "first turn, pawn B on their next turn, then pawn A, and so on. Blocks can be placed on squares on the "
        "board up to four blocks high, creating four possible height levels. The board begins with no blocks "
        "placed, so every square begins at level 0. Before the game starts, each of the players takes turns "
        "placing each of their pawns on the board. A square is occupied if a pawn is on it. Each turn consists "
        'of two stages: the "move" stage and the "build" stage. During the move stage, the player moves their '
        "pawn by one square (horizontally, vertically, or diagonally). They cannot move their pawn onto a "
        "square that is occupied by another pawn, more than one level higher than the pawn, or at level 4. "
        "They can move a pawn any number of levels down, to the same level, or one level higher, but not more "
        "than one level higher and not to level 4. During the build stage, the player must select an "
        "unoccupied square adjacent to the pawn they moved during the move stage and place a block on it. They "
        "can place a block onto an unoccupied square at any level less than 4. Once a square has been built to "
        'level 4, it is "complete", meaning pawns cannot move to it and blocks cannot be placed on it. The '
        "player instantly wins if they move their pawn onto a square at level 3 or if they force their "
        "opponent to not be able to finish their turn."
    ),
)

_INSTRUCTIONS = (
    "Squares are named by column a-e (left to right) and row 1-5 (bottom to top), e.g. c3. "
    "Directions are N (towards row 5), NE, E (towards column e), SE, S, SW, W, NW. "
    "Place a pawn with 'place <pawn> <square>'. Take a turn with 'move <pawn> <direction> build <direction>': "
    "the build direction is counted from the pawn's new square. A move onto level 3 wins at once and is "
    "written 'move <pawn> <direction>' without a build."
)


def square_name(square: tuple[int, int]) -> str:
    """Returns the name of a ``(column, row)`` square, both 0-based (``(2, 2)`` -> ``"c3"``)."""
    column, row = square
    return f"{_COLUMNS[column]}{row + 1}"


def parse_square(name: str) -> tuple[int, int]:
    """Returns the 0-based ``(column, row)`` of a square name like ``"c3"``.

    Raises:
        ValueError: if ``name`` is not a square of the board.
    """
    name = name.strip().lower()
    if len(name) != 2 or name[0] not in _COLUMNS or name[1] not in "12345":
        raise ValueError(f"not a square: {name!r}")
    return _COLUMNS.index(name[0]), int(name[1]) - 1


class SantoriniState(State):
    """A Santorini position.

    Attributes:
        levels: The building level of each square, ``levels[row][column]`` in 0-4.
        pawns: Each placed pawn's square, by letter.
        moves_made: Move turns each player has taken (picks the alternating pawn).
        placed: How many pawns have been placed (the placement phase ends at 4).
        winner: The winning player once the game is over, else None.
    """

    def __init__(self, game: Santorini) -> None:
        super().__init__(game)
        self.levels = [[0] * _SIZE for _ in range(_SIZE)]
        self.pawns: dict[str, tuple[int, int]] = {}
        self.moves_made = [0, 0]
        self.placed = 0
        self.winner: int | None = None
        self._reason = ""
        self._cache: tuple[int, list[str]] | None = None

    # -- engine interface ------------------------------------------------------------

    def _current_players(self) -> list[int]:
        if self.placed < len(_PLACEMENT_ORDER):
            return [_PLACEMENT_ORDER[self.placed][0]]
        return [self.turn % 2]

    def _legal_actions(self, player: int) -> list[str]:
        if self._cache is not None and self._cache[0] == self.turn:
            return list(self._cache[1])
        if self.placed < len(_PLACEMENT_ORDER):
            pawn = _PLACEMENT_ORDER[self.placed][1]
            occupied = set(self.pawns.values())
            actions = [
                f"place {pawn} {square_name((c, r))}"
                for c in range(_SIZE)
                for r in range(_SIZE)
                if (c, r) not in occupied
            ]
        else:
            actions = sorted(self._turn_actions(player))
        self._cache = (self.turn, actions)
        return list(actions)

    def _apply(self, actions: dict[int, Action]) -> None:
        ((player, action),) = actions.items()
        words = action.id.split()
        self._cache = None
        if words[0] == "place":
            self.pawns[words[1]] = parse_square(words[2])
            self.placed += 1
            return
        pawn, start = words[1], self.pawns[words[1]]
        target = _step(start, words[2])
        self.pawns[pawn] = target
        self.moves_made[player] += 1
        if self.levels[target[1]][target[0]] == _WIN_LEVEL:
            self.winner, self._reason = player, f"player {player + 1} reached level 3"
            return
        build = _step(target, words[4])
        self.levels[build[1]][build[0]] += 1

    def _is_terminal(self) -> bool:
        if self.winner is not None:
            return True
        if self.placed < len(_PLACEMENT_ORDER):
            return False
        player = self.turn % 2
        if not self._legal_actions(player):
            self.winner, self._reason = 1 - player, f"player {player + 1} cannot finish a turn"
            return True
        return False

    def _scores(self) -> list[float]:
        self._is_terminal()
        return [1.0, 0.0] if self.winner == 0 else [0.0, 1.0]

    def _terminal_reason(self) -> str:
        return self._reason

    # -- helpers -------------------------------------------------------------------------

    def pawn_to_move(self, player: int) -> str:
        """Returns the letter of the pawn ``player`` must move on its next turn."""
        return _PAWNS[player][self.moves_made[player] % 2]

    def _turn_actions(self, player: int) -> list[str]:
        pawn = self.pawn_to_move(player)
        start = self.pawns[pawn]
        height = self.levels[start[1]][start[0]]
        others = {square for letter, square in self.pawns.items() if letter != pawn}
        actions = []
        for move in _DIRECTION_ORDER:
            target = _step(start, move)
            if target is None or target in others:
                continue
            level = self.levels[target[1]][target[0]]
            if level >= _DOME or level > height + 1:
                continue
            if level == _WIN_LEVEL:
                actions.append(f"move {pawn} {move}")
                continue
            for build in _DIRECTION_ORDER:
                spot = _step(target, build)
                if spot is None or spot in others or self.levels[spot[1]][spot[0]] >= _DOME:
                    continue
                actions.append(f"move {pawn} {move} build {build}")
        return actions

    def board_text(self) -> str:
        """Renders the board as rows of ``<level><pawn or .>`` tokens, row 5 on top."""
        where = {square: letter for letter, square in self.pawns.items()}
        lines = ["    " + "    ".join(_COLUMNS)]
        for row in reversed(range(_SIZE)):
            tokens = [f"{self.levels[row][c]}{where.get((c, row), '.')}" for c in range(_SIZE)]
            lines.append(f"{row + 1}  " + "   ".join(tokens))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.board_text()


class Santorini(ProtocolGame):
    """The Santorini rules engine (GameBench's rules, no god powers)."""

    info = INFO
    rules = RULES

    def __init__(self, protocol: str = "default") -> None:
        """Plays in ``protocol``: ``default``, or ``paper`` (GameBench's released agent's prompt and reader)."""
        self.protocol = check_protocol(protocol)

    def new_initial_state(self, seed: int) -> SantoriniState:
        """Returns the empty board before the placement phase (the game has no chance)."""
        return SantoriniState(self)

    def role(self, player: int) -> str:
        """Returns ``"player 1 (A, B)"`` or ``"player 2 (X, Y)"``."""
        return f"player {player + 1} ({', '.join(_PAWNS[player])})"

    def own_observation(self, state: State, player: int) -> Observation:
        """Returns the board, the pawns, whose turn it is and the legal actions."""
        assert isinstance(state, SantoriniState)
        legal = tuple(state.legal_actions(player))
        mine, theirs = _PAWNS[player], _PAWNS[1 - player]
        lines = [
            f"You are player {player + 1} and control pawns {mine[0]} and {mine[1]}; "
            f"your opponent controls {theirs[0]} and {theirs[1]}.",
            "Board (each square shows its level 0-4, then the pawn on it or '.'; level 4 is complete):",
            state.board_text(),
        ]
        for letter in mine + theirs:
            if letter in state.pawns:
                column, row = state.pawns[letter]
                lines.append(f"Pawn {letter}: {square_name((column, row))}, level {state.levels[row][column]}")
        if state.placed < len(_PLACEMENT_ORDER):
            if legal:
                lines.append(f"Placement phase: place pawn {_PLACEMENT_ORDER[state.placed][1]} on an empty square.")
        elif legal:
            lines.append(f"This turn you must move pawn {state.pawn_to_move(player)}, then build.")
        return Observation(
            game=INFO.name,
            player=player,
            text="\n".join(lines),
            legal_actions=legal,
            rules=RULES,
            asking=Asking(instructions=_INSTRUCTIONS),
            role=self.role(player),
            turn=state.turn,
            data={
                "levels": [list(row) for row in state.levels],
                "pawns": {letter: square_name(square) for letter, square in sorted(state.pawns.items())},
                "my_pawns": list(mine),
                "pawn_to_move": state.pawn_to_move(player) if state.placed >= len(_PLACEMENT_ORDER) else None,
            },
        )

    def canonical_action(self, state: State, player: int, text: str) -> str | None:
        """Matches case- and space-insensitively; accepts GameBench's ``Move N, build NE`` form too."""
        assert isinstance(state, SantoriniState)
        words = text.replace(",", " ").lower().split()
        if len(words) in (2, 4) and words[0] == "move" and state.placed >= len(_PLACEMENT_ORDER):
            words.insert(1, state.pawn_to_move(player).lower())
        return super().canonical_action(state, player, " ".join(words))


def _step(square: tuple[int, int], direction: str) -> tuple[int, int] | None:
    """Returns the square one step from ``square`` in ``direction``, or None off the board."""
    dc, dr = _DIRECTIONS[direction]
    column, row = square[0] + dc, square[1] + dr
    if 0 <= column < _SIZE and 0 <= row < _SIZE:
        return column, row
    return None
