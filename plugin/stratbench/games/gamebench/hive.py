"""Hive (GameBench): two players, perfect information, deterministic, hexagonal board.

Each side has GameBench's set: 1 Queen Bee, 2 Spiders, 3 Grasshoppers and 3
Soldier Ants (no Beetles, so pieces never stack). White (player 0) moves
first. Cells use axial coordinates written ``q:r``; the six neighbours of
``q:r`` are ``q+1:r``, ``q-1:r``, ``q:r+1``, ``q:r-1``, ``q+1:r-1`` and
``q-1:r+1``. The first piece goes to ``0:0``.

GameBench's two-step actions (list a piece's moves, then pick one) are
flattened into one action per piece and destination: ``place G at 1:-1``,
``move A 0:-1 to 2:-2``, and ``pass`` when nothing else is legal. A side
whose Queen is surrounded on all six sides loses; if both Queens are
surrounded at once the match is a 0.5/0.5 draw (GameBench scores that 0/0,
which would break the score sum). After 250 turns per player the match is a
draw.

The observation carries a rendered PNG of the board (``hive_render``) and a
text rendering of the same board for text-only models. Cells, their names and
neighbours, the bugs and the colours are in ``hive_board``, which both use.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from stratbench.core.game import GameInfo, State
from stratbench.core.types import Action, Asking, Observation, Rules
from stratbench.games.gamebench import ProtocolGame, check_protocol
from stratbench.games.gamebench.hive_board import (
    BUGS,
    CELL_PATTERN,
    COLOURS,
    DIRECTIONS,
    Cell,
    cell_name,
    neighbours,
    parse_cell,
)
from stratbench.games.gamebench.hive_render import render_png, render_text

__all__ = ["BUGS", "COLOURS", "INFO", "RULES", "Hive", "HiveState", "cell_name", "neighbours", "parse_cell"]

_SET = {"Q": 1, "S": 2, "G": 3, "A": 3}
_MAX_TURNS_PER_PLAYER = 250
_QUEEN_DEADLINE = 3
"""Turns a player may take without its Queen; the next (fourth) turn must place it."""
_PASS = "pass"

INFO = GameInfo(
    name="hive",
    num_players=2,
    sides=((0,), (1,)),
    max_turns=2 * _MAX_TURNS_PER_PLAYER,
    score_range=(0.0, 1.0),
    score_sum=1.0,
    family="gamebench",
)

RULES = Rules(
    title="Hive",
    summary=(
        "Hive is a bug-themed abstract strategy game. The object of Hive is to capture the opponent's queen "
        "bee by allowing it to become completely surrounded by pieces belonging to either player, while "
        "avoiding the capture of one's own queen. Tiles can be moved to other positions after being placed "
        "according to various rules, much like chess pieces."
    ),
    topics={
        "Placing the Queen Bee": (
            "Players must place their Queen Bee by their fourth turn. Until then, they cannot move any placed pieces."
        ),
        "Queen Bee Movement": "The Queen Bee can only move one space at a time around the hive.",
        "Spider Movement": "The Spider can move exactly three spaces.",
        "Ant Movement": (
            "Able to move to any empty space around the hive as long as other movement rules are not violated."
        ),
        "Grasshopper Movement": "The Grasshopper can jump over adjacent pieces, landing on the first empty space.",
        "One Hive Rule": (
            "The tiles must always be connected; you cannot move a piece if it would break the hive into "
            "separate groups."
        ),
        "Freedom to Move": (
            "A piece can only move if it can physically slide to its new position without disturbing other tiles."
        ),
        "Max Turns": (
            "The game ends after 250 turns per player. If no Queen Bee is surrounded by the end of the game, "
            "the game is a draw."
        ),
    },
)

_INSTRUCTIONS = (
    "Cells are axial coordinates q:r; the neighbours of q:r are q+1:r, q-1:r, q:r+1, q:r-1, q+1:r-1 and "
    "q-1:r+1. Pieces: Q = Queen Bee, S = Spider, G = Grasshopper, A = Soldier Ant. Place a piece from your "
    "hand with 'place <piece> at <cell>' (after the first two placements of the game, a new piece must touch "
    "your own pieces and no enemy piece); move a piece with 'move <piece> <from> to <to>'; answer 'pass' "
    "only when it is the sole legal action."
)

class HiveState(State):
    """A Hive position.

    Attributes:
        board: The piece on each occupied cell, as ``(owner, bug letter)``.
        hands: The pieces each player has not placed yet, by bug letter.
        turns_taken: Turns each player has taken (passes included).
        queens: Each player's Queen Bee cell, or None before it is placed.
    """

    def __init__(self, game: Hive) -> None:
        super().__init__(game)
        self.board: dict[Cell, tuple[int, str]] = {}
        self.hands = [dict(_SET), dict(_SET)]
        self.turns_taken = [0, 0]
        self.queens: list[Cell | None] = [None, None]
        self._cache: tuple[int, list[str]] | None = None
        self._surrounded: tuple[int, list[bool]] | None = None

    # -- engine interface ------------------------------------------------------------

    def _current_players(self) -> list[int]:
        return [self.turn % 2]

    def _legal_actions(self, player: int) -> list[str]:
        if self._cache is not None and self._cache[0] == self.turn:
            return list(self._cache[1])
        actions = [f"place {bug} at {cell_name(c)}" for bug, c in self.placements(player)]
        if self.queens[player] is not None:
            for start, bug, ends in self._move_codes(player):
                prefix = f"move {bug} {_NAMES[start]} to "
                actions.extend([prefix + _NAMES[end] for end in ends])
        actions = sorted(actions) or [_PASS]
        self._cache = (self.turn, actions)
        return list(actions)

    def _apply(self, actions: dict[int, Action]) -> None:
        ((player, action),) = actions.items()
        self._cache = self._surrounded = None
        self.turns_taken[player] += 1
        words = action.id.split()
        if words[0] == "place":
            bug, cell = words[1], parse_cell(words[3])
            self.hands[player][bug] -= 1
            self.board[cell] = (player, bug)
        elif words[0] == "move":
            start, end = parse_cell(words[2]), parse_cell(words[4])
            self.board[end] = self.board.pop(start)
            bug = words[1]
            cell = end
        else:
            return
        if bug == "Q":
            self.queens[player] = cell

    def _is_terminal(self) -> bool:
        return any(self.surrounded()) or self.turn >= self.game.info.max_turns

    def _scores(self) -> list[float]:
        white_lost, black_lost = self.surrounded()
        if white_lost == black_lost:
            return [0.5, 0.5]
        return [0.0, 1.0] if white_lost else [1.0, 0.0]

    def _terminal_reason(self) -> str:
        lost = self.surrounded()
        if all(lost):
            return "both Queens surrounded: draw"
        if any(lost):
            return f"{COLOURS[lost.index(True)]} Queen surrounded"
        assert isinstance(self.game, Hive)
        return f"turn limit ({self.game.max_turns_per_player} turns per player): draw"

    # -- rules -----------------------------------------------------------------------------

    def surrounded(self) -> list[bool]:
        """Tells, per player, whether that player's Queen Bee has all six neighbours occupied."""
        if self._surrounded is None or self._surrounded[0] != self.turn:
            found = [queen is not None and all(n in self.board for n in neighbours(queen)) for queen in self.queens]
            self._surrounded = (self.turn, found)
        return list(self._surrounded[1])

    def must_place_queen(self, player: int) -> bool:
        """Tells whether ``player``'s next turn must place the Queen Bee (its fourth turn or later)."""
        return self.queens[player] is None and self.turns_taken[player] >= _QUEEN_DEADLINE

    def placements(self, player: int) -> list[tuple[str, Cell]]:
        """Returns every legal ``(bug, cell)`` placement of ``player``."""
        hand = self.hands[player]
        allowed = ("Q",) if self.must_place_queen(player) else BUGS
        bugs = [b for b in allowed if hand[b] > 0]
        if not bugs:
            return []
        if not self.board:
            cells = [(0, 0)]
        elif len(self.board) == 1:
            cells = neighbours(next(iter(self.board)))
        else:
            own = {_pack(c) for c, (owner, _) in self.board.items() if owner == player}
            enemy = {_pack(c) for c, (owner, _) in self.board.items() if owner != player}
            touching_own = {c + step for c in own for step in _STEPS}
            touching_enemy = {c + step for c in enemy for step in _STEPS}
            cells = [_unpack(c) for c in touching_own - touching_enemy - own - enemy]
        return [(bug, cell) for bug in bugs for cell in sorted(cells)]

    def moves(self, player: int) -> list[tuple[Cell, Cell]]:
        """Returns every legal ``(from, to)`` move of ``player``'s placed pieces, sorted."""
        return sorted((_unpack(start), _unpack(end)) for start, _, ends in self._move_codes(player) for end in ends)

    def _move_codes(self, player: int) -> list[tuple[int, str, set[int]]]:
        """Returns ``(from, bug, destinations)`` per movable piece, cells packed."""
        occupied = {_pack(c) for c in self.board}
        pinned = _articulation_points(occupied)
        movers = [
            (code, bug)
            for cell, (owner, bug) in self.board.items()
            if owner == player and (code := _pack(cell)) not in pinned
        ]
        masks = _masks(occupied) if any(bug != "G" for _, bug in movers) else {}
        result = []
        for code, bug in movers:
            occupied.discard(code)
            if bug == "G":
                ends = _grasshopper_moves(code, occupied)
            else:
                ends = _WALKS[bug](code, _Slides(code, occupied, masks))
            occupied.add(code)
            if ends:
                result.append((code, bug, ends))
        return result

    def __str__(self) -> str:
        return render_text(self)


class Hive(ProtocolGame):
    """The Hive rules engine (GameBench's piece set, no Beetles).

    Args:
        max_turns_per_player: The turn limit that ends a match as a draw
            (GameBench: 250 per player).
    """

    info = INFO
    rules = RULES

    def snapshot(self, state: State) -> dict[str, Any] | None:
        """The tiles ``[q, r, owner, bug]``, the turn and the text board, for the replay viewer."""
        assert isinstance(state, HiveState)
        tiles = [[q, r, owner, bug] for (q, r), (owner, bug) in sorted(state.board.items())]
        return {"turn": state.turn, "tiles": tiles, "text": render_text(state)}

    def __init__(self, max_turns_per_player: int = _MAX_TURNS_PER_PLAYER, protocol: str = "default") -> None:
        self.protocol = check_protocol(protocol)
        if max_turns_per_player < 1:
            raise ValueError(f"max_turns_per_player must be at least 1, got {max_turns_per_player}")
        self.max_turns_per_player = max_turns_per_player
        if max_turns_per_player != _MAX_TURNS_PER_PLAYER:
            self.info = replace(INFO, max_turns=2 * max_turns_per_player)

    def new_initial_state(self, seed: int) -> HiveState:
        """Returns the empty board with full hands (the game has no chance)."""
        return HiveState(self)

    def role(self, player: int) -> str:
        """Returns ``"White"`` or ``"Black"``."""
        return COLOURS[player]

    def own_observation(self, state: State, player: int) -> Observation:
        """Returns the board as text and as a PNG, the hands and the legal actions."""
        assert isinstance(state, HiveState)
        legal = tuple(state.legal_actions(player))
        lines = [f"You are {COLOURS[player]}. Surround the enemy Queen Bee; protect your own."]
        for who in (player, 1 - player):
            left = sum(state.hands[who].values())
            hand = ", ".join(f"{n} {BUGS[b]}" for b, n in state.hands[who].items() if n) or "nothing"
            owner = "You have" if who == player else "Your opponent has"
            lines.append(f"{owner} {left} piece(s) left to place: {hand}.")
        if state.must_place_queen(player) and legal:
            lines.append("This is your fourth turn (or later) without your Queen Bee: you must place it now.")
        elif state.queens[player] is None and legal:
            lines.append("You cannot move placed pieces until your Queen Bee is on the board.")
        lines.append(f"Turn {state.turns_taken[player] + 1} of {self.max_turns_per_player} for you.")
        lines.append(render_text(state))
        pieces = [
            {"cell": cell_name(c), "owner": COLOURS[o], "bug": b} for c, (o, b) in sorted(state.board.items())
        ]
        return Observation(
            game=INFO.name,
            player=player,
            text="\n".join(lines),
            legal_actions=legal,
            rules=RULES,
            asking=Asking(instructions=_INSTRUCTIONS),
            role=COLOURS[player],
            turn=state.turn,
            image_png=render_png(state),
            data={
                "colour": COLOURS[player],
                "pieces": pieces,
                "hands": {COLOURS[p]: dict(state.hands[p]) for p in (0, 1)},
                "turns_taken": list(state.turns_taken),
            },
        )

    def canonical_action(self, state: State, player: int, text: str) -> str | None:
        """Accepts spacing, case, ``q,r`` or ``(q, r)`` cells and a missing ``at``/``to``."""
        found = super().canonical_action(state, player, " ".join(text.split()))
        if found is not None:
            return found
        assert isinstance(state, HiveState)
        words = text.strip().split(maxsplit=2)
        cells = [(int(q), int(r)) for q, r in CELL_PATTERN.findall(text)]
        if len(words) < 2:
            return None
        verb, bug = words[0].lower(), words[1].upper()[:1]
        if verb == "place" and len(cells) == 1:
            wanted = f"place {bug} at {cell_name(cells[0])}"
        elif verb == "move" and len(cells) == 2 and cells[0] in state.board:
            bug = state.board[cells[0]][1]  # the piece on the from-cell, however it was named
            wanted = f"move {bug} {cell_name(cells[0])} to {cell_name(cells[1])}"
        else:
            return None
        return super().canonical_action(state, player, wanted)


# -- movement helpers ---------------------------------------------------------------------
# Move generation works on cells packed into ints (q and r offset into a 128-wide grid), so a
# neighbour is one addition away, and on neighbour masks: bit i of a cell's mask is set when its
# neighbour in direction i is occupied. Which slides leave a cell depends only on its mask, so
# they come from a 64-entry table.

_WIDTH = 128
_OFFSET = 64
_STEPS = tuple(dq * _WIDTH + dr for dq, dr in DIRECTIONS)


def _slide_steps(mask: int) -> tuple[int, ...]:
    """Returns the steps a piece can slide from a cell with neighbour mask ``mask``.

    The target must be empty, and of the two cells flanking the gap exactly one
    is occupied: both occupied is a gate too narrow to pass (freedom to move),
    neither would lose contact with the hive mid-slide.
    """
    return tuple(
        _STEPS[i]
        for i in range(6)
        if not mask >> i & 1 and (mask >> (i - 1) % 6 & 1) != (mask >> (i + 1) % 6 & 1)
    )


_SLIDE_TABLE = tuple(_slide_steps(mask) for mask in range(64))
_TOWARDS = tuple(1 << (i + 3) % 6 for i in range(6))
"""Per direction i: the mask bit, seen from the neighbour in direction i, pointing back."""


def _pack(cell: Cell) -> int:
    return (cell[0] + _OFFSET) * _WIDTH + cell[1] + _OFFSET


def _unpack(code: int) -> Cell:
    q, r = divmod(code, _WIDTH)
    return q - _OFFSET, r - _OFFSET


_NAMES = tuple(f"{q - _OFFSET}:{r - _OFFSET}" for q in range(_WIDTH) for r in range(_WIDTH))
"""The ``q:r`` name of every packed cell, by code (names are needed for every move every turn)."""


def _masks(occupied: set[int]) -> dict[int, int]:
    """Returns the neighbour mask of every cell next to an occupied cell."""
    masks: dict[int, int] = {}
    get = masks.get
    for cell in occupied:
        for step, back in zip(_STEPS, _TOWARDS):
            near = cell + step
            masks[near] = get(near, 0) | back
    return masks


class _Slides:
    """The slides available to the piece lifted from ``start``.

    Lifting the piece only changes the masks of ``start``'s neighbours, so those
    are recomputed and every other cell reads the shared masks.
    """

    __slots__ = ("masks", "local")

    def __init__(self, start: int, occupied: set[int], masks: dict[int, int]) -> None:
        self.masks = masks
        self.local = {start: _SLIDE_TABLE[masks[start]]}
        for step, back in zip(_STEPS, _TOWARDS):
            near = start + step
            if near not in occupied:
                self.local[near] = _SLIDE_TABLE[masks[near] & ~back]

    def targets(self, cell: int) -> list[int]:
        steps = self.local.get(cell)
        if steps is None:
            steps = _SLIDE_TABLE[self.masks[cell]]
        return [cell + step for step in steps]


def _queen_moves(start: int, slides: _Slides) -> set[int]:
    return set(slides.targets(start))


def _ant_moves(start: int, slides: _Slides) -> set[int]:
    local, masks = slides.local, slides.masks
    seen = {start}
    stack = [start]
    while stack:
        cell = stack.pop()
        steps = local.get(cell)
        if steps is None:
            steps = _SLIDE_TABLE[masks[cell]]
        for step in steps:
            target = cell + step
            if target not in seen:
                seen.add(target)
                stack.append(target)
    seen.discard(start)
    return seen


def _spider_moves(start: int, slides: _Slides) -> set[int]:
    paths = [(start,)]
    for _ in range(3):
        paths = [path + (nxt,) for path in paths for nxt in slides.targets(path[-1]) if nxt not in path]
    return {path[-1] for path in paths} - {start}


def _grasshopper_moves(start: int, occupied: set[int]) -> set[int]:
    ends = set()
    for step in _STEPS:
        cell = start + step
        if cell not in occupied:
            continue
        while cell in occupied:
            cell += step
        ends.add(cell)
    return ends


_WALKS = {"Q": _queen_moves, "S": _spider_moves, "A": _ant_moves}


def _articulation_points(cells: set[int]) -> set[int]:
    """Returns the cells whose removal would split the hive (Tarjan's low-link, iterative)."""
    if len(cells) < 3:
        return set()
    root = min(cells)
    depth = {root: 0}
    low = {root: 0}
    points: set[int] = set()
    root_children = 0
    stack = [(root, -1, iter(_STEPS))]
    while stack:
        cell, parent, steps = stack[-1]
        for step in steps:
            nxt = cell + step
            if nxt not in cells or nxt == parent:
                continue
            if nxt in depth:
                if depth[nxt] < low[cell]:
                    low[cell] = depth[nxt]
                continue
            depth[nxt] = low[nxt] = depth[cell] + 1
            stack.append((nxt, cell, iter(_STEPS)))
            break
        else:
            stack.pop()
            if parent == -1:
                continue
            if low[cell] < low[parent]:
                low[parent] = low[cell]
            if parent == root:
                root_children += 1
            elif low[cell] >= depth[parent]:
                points.add(parent)
    if root_children > 1:
        points.add(root)
    return points
