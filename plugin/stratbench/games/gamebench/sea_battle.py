"""Sea Battle (GameBench): two teams of three ships move and fire simultaneously.

The board is 24x24 with a rock border and 14 random interior rocks; the six
ships start on random free interior squares with random headings (N, E, S,
W). Players 0-2 sail the Red ships, players 3-5 the Blue ones. Every round
each live ship picks one of eight actions, a move (``move forward``;
``move left``/``move right``: forward one square, turn 90 degrees that way,
forward one more; ``stay``) then a shot to its left or right side. All
choices resolve at once: every moving ship claims the square ahead, then
collisions, then turns, then the turning ships claim the next square, then
collisions, then all cannons fire from the ships' new positions (range 3
squares sideways; a shot stops at the first rock or hits the first ship, of
either team). Damage: +1 for sailing into a rock, +1 to each ship in a
collision, +2 per cannon hit; a ship with 10 or more damage sinks at the end
of the round. A team wins when it has a live ship and the other has none
(1/0); both teams sinking in the same round is a draw (0.5/0.5).

GameBench has no turn limit; here a match that reaches :data:`ROUND_CAP`
rounds ends as a draw so that playouts terminate. A ship sees every ship's
position and heading, the rocks and its own damage (GameBench's observation),
not the other ships' damage.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from functools import lru_cache
from typing import Any

from stratbench.core.game import GameInfo, State
from stratbench.core.types import Action, Asking, Observation, Rules
from stratbench.games.gamebench import ProtocolGame, check_protocol

__all__ = ["ACTIONS", "INFO", "RULES", "SeaBattle", "SeaBattleState", "Ship", "ship_name"]

SIZE = 24
INTERIOR_ROCKS = 14
SHIPS_PER_TEAM = 3
DAMAGE_LIMIT = 10
ROCK_DAMAGE = 1
COLLISION_DAMAGE = 1
CANNON_DAMAGE = 2
CANNON_RANGE = 3
ROUND_CAP = 200
"""Rounds after which the match ends as a draw (GameBench has no limit)."""
TEAMS = ("Red", "Blue")
HEADINGS = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
_ORDER = tuple(HEADINGS)
MOVES = ("move forward", "move left", "move right", "stay")
SHOTS = ("shoot left", "shoot right")
ACTIONS = tuple(sorted(f"{move} then {shot}" for move in MOVES for shot in SHOTS))
"""The eight actions every live ship chooses from each round."""

INFO = GameInfo(
    name="sea_battle",
    num_players=2 * SHIPS_PER_TEAM,
    sides=(tuple(range(SHIPS_PER_TEAM)), tuple(range(SHIPS_PER_TEAM, 2 * SHIPS_PER_TEAM))),
    max_turns=ROUND_CAP,
    simultaneous=True,
    hidden_information=True,
    score_range=(0.0, 1.0),
    score_sum=1.0,
    family="gamebench",
)

RULES = Rules(
    title="Sea Battle",
    summary="Sink all of your opponent team's ships before they sink all of your team's ships.",
    topics={
        "Damage": (
            "Players can be damaged in three ways: (1) by getting shot at by another player, (2) by sailing into "
            "a rock, (3) by colliding with another ship."
        ),
        "Sinking": "After a player has sustained enough damage, they sink and cannot play the rest of the round.",
        "Winning": "A team wins if they have at least one live ship when all of their opponents have sunken.",
        "Board": (
            "The board is a 24x24 grid. Some squares are occupied by rocks and some are occupied by players' ships."
        ),
        "Gameplay": (
            "Each turn, all players choose how they want to move and how they want to shoot. All players' choices "
            "are executed simultaneously."
        ),
        "Teams": "At the start of the game, there are three players on each team.",
    },
)

_INSTRUCTIONS = (
    "Choose one action: a move, then a shot. 'move forward' sails one square ahead; 'move left' and 'move right' "
    "sail one square ahead, turn 90 degrees to that side and sail one more square; 'stay' does not move. Then "
    f"your cannon fires to your ship's left or right side (relative to its heading after moving): the shot "
    f"travels up to {CANNON_RANGE} squares and hits the first ship of either team, or stops at the first rock. "
    f"A cannon hit does {CANNON_DAMAGE} damage, sailing into a rock {ROCK_DAMAGE}, a collision with a ship "
    f"{COLLISION_DAMAGE} to each ship; a ship sinks at {DAMAGE_LIMIT} damage. Heading N means towards row 0, "
    "E towards the last column."
)


class Ship:
    """One ship: where it is, where it heads and how damaged it is."""

    __slots__ = ("position", "heading", "damage", "alive")

    def __init__(self, position: tuple[int, int], heading: str) -> None:
        self.position = position
        self.heading = heading
        self.damage = 0
        self.alive = True

    def ahead(self) -> tuple[int, int]:
        """Returns the square in front of the ship."""
        dr, dc = HEADINGS[self.heading]
        return self.position[0] + dr, self.position[1] + dc

    def side(self, shot: str) -> tuple[int, int]:
        """Returns the unit step to the ship's left or right (``shot`` names the side)."""
        turn = -1 if shot.endswith("left") else 1
        return HEADINGS[_ORDER[(_ORDER.index(self.heading) + turn) % 4]]

    def __repr__(self) -> str:
        return f"Ship({self.position}, {self.heading!r}, damage={self.damage}, alive={self.alive})"


def ship_name(player: int) -> str:
    """Returns a ship's name: ``Red 1``-``Red 3`` for players 0-2, ``Blue 1``-``Blue 3`` for 3-5."""
    return f"{TEAMS[player // SHIPS_PER_TEAM]} {player % SHIPS_PER_TEAM + 1}"


class SeaBattleState(State):
    """The board: interior rocks, the six ships and the round number."""

    def __init__(self, game: SeaBattle, seed: int) -> None:
        super().__init__(game)
        rng = random.Random(f"sea_battle:{seed}")
        interior = [(r, c) for r in range(1, SIZE - 1) for c in range(1, SIZE - 1)]
        picked = rng.sample(interior, INTERIOR_ROCKS + 2 * SHIPS_PER_TEAM)
        self.rocks = frozenset(picked[:INTERIOR_ROCKS])
        self.ships = [Ship(square, rng.choice(_ORDER)) for square in picked[INTERIOR_ROCKS:]]
        self.last_round: dict[int, list[str]] = {p: [] for p in range(len(self.ships))}
        """What happened to each ship in the previous round (its own view)."""

    # -- the State contract ---------------------------------------------------

    def _current_players(self) -> list[int]:
        return [p for p, ship in enumerate(self.ships) if ship.alive]

    def _legal_actions(self, player: int) -> list[str]:
        return list(ACTIONS)

    def _apply(self, actions: dict[int, Action]) -> None:
        chosen = {p: a.id.split(" then ") for p, a in actions.items()}
        self.last_round = {p: [] for p in range(len(self.ships))}
        self._sail([p for p, (move, _) in chosen.items() if move != "stay"])
        for p, (move, _) in chosen.items():
            if move in ("move left", "move right"):
                ship = self.ships[p]
                turn = -1 if move == "move left" else 1
                ship.heading = _ORDER[(_ORDER.index(ship.heading) + turn) % 4]
        self._sail([p for p, (move, _) in chosen.items() if move in ("move left", "move right")])
        for p, (_, shot) in sorted(chosen.items()):
            self._fire(p, shot)
        for p, ship in enumerate(self.ships):
            if ship.alive and ship.damage >= DAMAGE_LIMIT:
                ship.alive = False
                self.last_round[p].append("you sank")

    def _is_terminal(self) -> bool:
        return not all(self._afloat()) or self.turn >= self.game.info.max_turns

    def _scores(self) -> list[float]:
        red, blue = self._afloat()
        if red and not blue:
            return [1.0, 0.0]
        if blue and not red:
            return [0.0, 1.0]
        return [0.5, 0.5]

    def _terminal_reason(self) -> str:
        red, blue = self._afloat()
        if red != blue:
            return f"{TEAMS[0] if red else TEAMS[1]} wins: all enemy ships sunk"
        if not red:
            return "draw: both teams sank in the same round"
        return f"draw: round cap ({self.game.info.max_turns}) reached"

    # -- resolution -------------------------------------------------------------

    def is_rock(self, square: tuple[int, int]) -> bool:
        """Tells whether ``square`` is a rock (the border included)."""
        r, c = square
        return r <= 0 or c <= 0 or r >= SIZE - 1 or c >= SIZE - 1 or square in self.rocks

    def _sail(self, movers: list[int]) -> None:
        """Moves ``movers`` one square ahead at once, resolving rocks and collisions."""
        ships = self.ships
        target = {p: ships[p].ahead() for p in movers}
        occupant = {ship.position: p for p, ship in enumerate(ships) if ship.alive}
        blocked: set[int] = set()
        for p in movers:
            if self.is_rock(target[p]):
                blocked.add(p)
                self._hurt(p, ROCK_DAMAGE, "you sailed into a rock")
        claims = Counter(target[p] for p in movers if p not in blocked)
        for p in movers:
            q = occupant.get(target[p])
            contested = p not in blocked and claims[target[p]] > 1
            head_on = q is not None and q in target and target[q] == ships[p].position
            if contested or head_on:
                blocked.add(p)
                self._hurt(p, COLLISION_DAMAGE, "you collided with another ship")
        changed = True
        while changed:
            changed = False
            for p in movers:
                q = occupant.get(target[p])
                if p in blocked or q is None or (q in target and q not in blocked):
                    continue
                blocked.add(p)
                changed = True
                self._hurt(p, COLLISION_DAMAGE, f"you rammed {ship_name(q)}")
                self._hurt(q, COLLISION_DAMAGE, f"{ship_name(p)} rammed you")
        for p in movers:
            if p not in blocked:
                ships[p].position = target[p]

    def _fire(self, player: int, shot: str) -> None:
        ship = self.ships[player]
        dr, dc = ship.side(shot)
        occupant = {s.position: p for p, s in enumerate(self.ships) if s.alive}
        r, c = ship.position
        for _ in range(CANNON_RANGE):
            r, c = r + dr, c + dc
            if self.is_rock((r, c)):
                return
            if (r, c) in occupant:
                target = occupant[(r, c)]
                self._hurt(target, CANNON_DAMAGE, f"a cannonball from {ship_name(player)} hit you")
                self.last_round[player].append(f"your shot hit {ship_name(target)}")
                return

    def _hurt(self, player: int, amount: int, why: str) -> None:
        self.ships[player].damage += amount
        self.last_round[player].append(f"{why} (+{amount} damage)")

    def _afloat(self) -> tuple[bool, bool]:
        alive = [ship.alive for ship in self.ships]
        return any(alive[:SHIPS_PER_TEAM]), any(alive[SHIPS_PER_TEAM:])

    def __str__(self) -> str:
        return render_map(self)


class SeaBattle(ProtocolGame):
    """The Sea Battle rules engine.

    Args:
        max_rounds: The round cap that ends a match as a draw.
    """

    info = INFO
    rules = RULES

    def __init__(self, max_rounds: int = ROUND_CAP, protocol: str = "default") -> None:
        self.protocol = check_protocol(protocol)
        if max_rounds != INFO.max_turns:
            self.info = replace(INFO, max_turns=max_rounds)

    def new_initial_state(self, seed: int) -> SeaBattleState:
        """Returns the start position: rocks, ships and headings drawn from ``seed``."""
        return SeaBattleState(self, seed)

    def role(self, player: int) -> str:
        """Returns the ship's name (``Red 1`` ... ``Blue 3``)."""
        return ship_name(player)

    def secrets(self, state: State, viewer: int) -> list[tuple[str, ...]]:
        """Returns every other ship's damage (``("Blue 2", "damage 4")``): a ship knows only its own."""
        assert isinstance(state, SeaBattleState)
        return [(ship_name(p), f"damage {ship.damage}") for p, ship in enumerate(state.ships) if p != viewer]

    def own_observation(self, state: State, player: int) -> Observation:
        """Returns every ship's position and heading, the rocks and this ship's own damage."""
        assert isinstance(state, SeaBattleState)
        return Observation(
            game=self.info.name,
            player=player,
            text=render(state, player),
            legal_actions=tuple(state.legal_actions(player)),
            rules=RULES,
            asking=Asking(instructions=_INSTRUCTIONS),
            role=ship_name(player),
            turn=state.turn,
            data=view(state, player),
        )


# -- observation ------------------------------------------------------------------


def view(state: SeaBattleState, player: int) -> dict[str, Any]:
    """Returns what ``player``'s ship may see, as builtins."""
    team = player // SHIPS_PER_TEAM

    def ship(p: int) -> dict[str, Any]:
        s = state.ships[p]
        return {"name": ship_name(p), "position": list(s.position), "heading": s.heading, "alive": s.alive}

    own = state.ships[player]
    others = [p for p in range(len(state.ships)) if p != player]
    return {
        "you": ship_name(player),
        "team": TEAMS[team],
        "round": state.turn + 1,
        "max_rounds": state.game.info.max_turns,
        "position": list(own.position),
        "heading": own.heading,
        "alive": own.alive,
        "damage": own.damage,
        "damage_limit": DAMAGE_LIMIT,
        "teammates": [ship(p) for p in others if p // SHIPS_PER_TEAM == team],
        "opponents": [ship(p) for p in others if p // SHIPS_PER_TEAM != team],
        "rocks": [list(square) for square in sorted(state.rocks)],
        "size": SIZE,
        "last_round": list(state.last_round[player]),
    }


def render(state: SeaBattleState, player: int) -> str:
    """Renders :func:`view` as text, with a map, for language models and the terminal."""
    v = view(state, player)

    def where(s: dict[str, Any]) -> str:
        if not s["alive"]:
            return f"{s['name']}: sunk"
        return f"{s['name']}: row {s['position'][0]}, column {s['position'][1]}, heading {s['heading']}"

    lines = [
        f"You are {v['you']} of the {v['team']} team. Round {v['round']} (the match is a draw after "
        f"{v['max_rounds']} rounds).",
        f"Your ship: row {v['position'][0]}, column {v['position'][1]}, heading {v['heading']}; damage "
        f"{v['damage']} (you sink at {v['damage_limit']}).",
        "Teammates: " + "; ".join(where(s) for s in v["teammates"]),
        "Opponents: " + "; ".join(where(s) for s in v["opponents"]),
        f"Rocks: the border (row 0, row {SIZE - 1}, column 0, column {SIZE - 1}) and "
        + ", ".join(f"({r}, {c})" for r, c in v["rocks"]),
        "Last round: " + ("; ".join(v["last_round"]) or "nothing happened to you"),
        "Map (## rock, . water, R1-R3 Red ships, B1-B3 Blue ships; row 0 at the top, column 0 at the left):",
        render_map(state),
    ]
    return "\n".join(lines)


def render_map(state: SeaBattleState) -> str:
    """Renders the board, three characters per square, with row and column numbers."""
    rows = list(_base_map(state.rocks))
    for p, ship in enumerate(state.ships):
        if ship.alive:
            r, c = ship.position
            start = 3 + 3 * c
            rows[r + 1] = rows[r + 1][:start] + f" {ship_name(p)[0]}{p % SHIPS_PER_TEAM + 1}" + rows[r + 1][start + 3 :]
    return "\n".join(rows)


@lru_cache(maxsize=64)
def _base_map(rocks: frozenset[tuple[int, int]]) -> tuple[str, ...]:
    def cell(r: int, c: int) -> str:
        border = r in (0, SIZE - 1) or c in (0, SIZE - 1)
        return " ##" if border or (r, c) in rocks else "  ."

    header = "   " + "".join(f"{c:>3}" for c in range(SIZE))
    return (header, *(f"{r:>2} " + "".join(cell(r, c) for c in range(SIZE)) for r in range(SIZE)))
