"""Two Rooms and a Boom (GameBench): six players, two hidden teams, two rooms and three rounds.

Players 0-2 hold Blue cards (one of them, drawn from the seed, the
President) and players 3-5 Red cards (one the Bomber); each seat sees only
its own card. The seed also splits the six into two rooms of three and names
a Leader in each. Every round has three steps:

1. **Talk**: the players of each room talk privately among themselves through
   the message channels (:meth:`TwoRoomsState.negotiation`: one negotiation
   per room, messages to chosen room-mates only, length-capped); the other
   room hears nothing.
2. **Share**: all players act at once: ``colour share with X`` and
   ``card share with X`` happen only when X asks the same of them (both
   learn the other's colour, or whole card); ``reveal card to the room``
   shows one's card to everyone in the room; ``wait`` does nothing.
3. **Hostages**: each Leader picks one other player of their room; the two
   hostages change rooms.

After the third exchange Red wins if the President and the Bomber are in the
same room, Blue otherwise (1/0; no draws). GameBench's agent 1 plays the
three Blue cards and agent 2 the three Red ones; here each side's agent is
duplicated on its three seats without being told. Names are fixed per seat,
teams by seat (``GameInfo.sides``), so a seat's name never changes with its
card; what a seat knows of another card comes only from shares and reveals,
recorded when they happen. A seat's secret state is its card
(:meth:`TwoRoomsState.secret_state`); :meth:`TwoRooms.secrets` words it for
the seats that were not shown it.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from stratbench.core.game import GameInfo, State
from stratbench.core.messages import Negotiation
from stratbench.core.types import Action, Asking, Observation, Rules
from stratbench.games.gamebench import ProtocolGame, check_protocol

__all__ = ["INFO", "NAMES", "ROOMS", "RULES", "TwoRooms", "TwoRoomsState"]

NAMES = ("Drew", "Alex", "Finley", "Casey", "Emery", "Blair")
"""Seat names: seats 0-2 are Blue, 3-5 Red; the names do not show it."""
TEAMS = ("Blue", "Red")
ROOMS = ("Room A", "Room B")
ROUNDS = 3
TALK_ROUNDS = 2
MESSAGES_PER_ROUND = 2
MAX_CHARS = 300
_WAIT, _REVEAL = "wait", "reveal card to the room"

INFO = GameInfo(
    name="two_rooms_and_a_boom",
    num_players=6,
    sides=((0, 1, 2), (3, 4, 5)),
    max_turns=2 * ROUNDS,
    simultaneous=True,
    hidden_information=True,
    score_range=(0.0, 1.0),
    score_sum=1.0,
    family="gamebench",
)

RULES = Rules(
    title="Two Rooms and a Boom",
    summary=(
        "Two teams, Blue and Red, have opposing goals. At the end of three rounds the Red team wants to have both "
        "the President and the Bomber in the same room, while Blue team wants them to be in opposite rooms. Each "
        "round will allow the Leader of each room to trade 'hostages' in order to find out who the President and "
        "Bomber are and use that info to achieve their team's mission. Find out information by talking to other "
        "hostages in your room."
    ),
)

_INSTRUCTIONS = (
    "Each round: you talk privately with the players in your room, then everyone chooses at once: "
    "'colour share with <name>' (if that player also chooses colour share with you, you both see each other's "
    "team colour), 'card share with <name>' (if mutual, you both see each other's whole card), "
    "'reveal card to the room' (everyone in your room sees your card) or 'wait'. Then each room's Leader picks "
    "'send <name>': one other player of their room, and the two hostages change rooms."
)


class TwoRoomsState(State):
    """Cards, rooms, leaders, the step of the round and what each seat has learnt."""

    def __init__(self, game: TwoRooms, seed: int) -> None:
        super().__init__(game)
        rng = random.Random(f"two_rooms:{seed}")
        self.cards = [f"{TEAMS[0]} Team"] * 3 + [f"{TEAMS[1]} Team"] * 3
        self.cards[rng.randrange(3)] = "President"
        self.cards[3 + rng.randrange(3)] = "Bomber"
        seats = list(range(6))
        rng.shuffle(seats)
        self.room = [0] * 6
        for p in seats[3:]:
            self.room[p] = 1
        self.leaders = (rng.choice(seats[:3]), rng.choice(seats[3:]))
        """The Leaders of Room A and Room B; they never leave their rooms."""
        self.round = 1
        self.step = "share"
        self.known: list[dict[int, str]] = [{} for _ in range(6)]
        """What each seat has learnt of other cards, as recorded when shown."""
        self.log: list[list[str]] = [[] for _ in range(6)]

    # -- the State contract ---------------------------------------------------

    def negotiation(self) -> Negotiation | None:
        """Returns this round's unheld room conversation, private messages between room-mates only."""
        if self.step != "share" or self.is_terminal() or not self.game.talk_rounds:
            return None
        for index, name in enumerate(ROOMS):
            phase = f"round {self.round} {name}"
            if phase not in self.messages.held:
                return Negotiation(
                    phase=phase,
                    participants=tuple(self.in_room(index)),
                    rounds=self.game.talk_rounds,
                    max_messages=MESSAGES_PER_ROUND,
                    max_chars=self.game.max_chars,
                    allow_private=True,
                    allow_public=False,
                )
        return None

    def _current_players(self) -> list[int]:
        return list(range(6)) if self.step == "share" else sorted(self.leaders)

    def _legal_actions(self, player: int) -> list[str]:
        mates = [q for q in self.in_room(self.room[player]) if q != player]
        if self.step == "hostages":
            return sorted(f"send {NAMES[q]}" for q in mates)
        shares = [f"{kind} share with {NAMES[q]}" for q in mates for kind in ("colour", "card")]
        return sorted([_WAIT, _REVEAL, *shares])

    def _apply(self, actions: dict[int, Action]) -> None:
        if self.step == "share":
            self._share({p: a.id for p, a in actions.items()})
            self.step = "hostages"
            return
        sent = {self.room[p]: _seat(a.id[len("send ") :]) for p, a in actions.items()}
        for index, hostage in sent.items():
            self.room[hostage] = 1 - index
        for p in range(6):
            self.log[p].append(
                f"Round {self.round}: {NAMES[sent[0]]} was sent from {ROOMS[0]} to {ROOMS[1]} and "
                f"{NAMES[sent[1]]} from {ROOMS[1]} to {ROOMS[0]}."
            )
        self.round += 1
        self.step = "share"

    def _share(self, chosen: dict[int, str]) -> None:
        for p, text in sorted(chosen.items()):
            if text == _REVEAL:
                for q in self.in_room(self.room[p]):
                    if q != p:
                        self._learn(q, p, "card", f"Round {self.round}: {NAMES[p]} revealed their card to the room")
                self.log[p].append(f"Round {self.round}: you revealed your card to the room.")
            elif " share with " in text:
                kind, name = text.split(" share with ")
                q = _seat(name)
                if chosen.get(q) == f"{kind} share with {NAMES[p]}":
                    self._learn(p, q, kind, f"Round {self.round}: {kind} share with {NAMES[q]}")
                else:
                    self.log[p].append(f"Round {self.round}: {NAMES[q]} did not {kind} share with you.")

    def _learn(self, viewer: int, shown: int, kind: str, event: str) -> None:
        card = self.cards[shown]
        seen = _team(card) if kind == "colour" else card
        if kind == "card" or shown not in self.known[viewer]:
            self.known[viewer][shown] = seen
        self.log[viewer].append(f"{event}: {NAMES[shown]} is {_describe(seen)}.")

    def _is_terminal(self) -> bool:
        return self.round > self.game.rounds

    def _scores(self) -> list[float]:
        return [0.0, 1.0] if self._together() else [1.0, 0.0]

    def _terminal_reason(self) -> str:
        if self._together():
            return "Red wins: the President and the Bomber are in the same room"
        return "Blue wins: the President and the Bomber are in different rooms"

    def _together(self) -> bool:
        return self.room[self.cards.index("President")] == self.room[self.cards.index("Bomber")]

    # -- queries ------------------------------------------------------------------

    def in_room(self, index: int) -> list[int]:
        """Returns the seats in room ``index`` (0: Room A, 1: Room B)."""
        return [p for p in range(6) if self.room[p] == index]

    def secret_state(self, player: int) -> dict[str, Any]:
        """Returns what only ``player`` knows for certain: its card and team."""
        return {"team": _team(self.cards[player]), "card": self.cards[player]}


class TwoRooms(ProtocolGame):
    """The Two Rooms and a Boom rules engine.

    Args:
        rounds: Rounds of talk, shares and hostage exchange (GameBench: 3).
        talk_rounds: Message rounds in each room's conversation per round.
        max_chars: The longest message accepted.
    """

    info = INFO
    rules = RULES

    def __init__(self, rounds: int = ROUNDS, talk_rounds: int = TALK_ROUNDS, max_chars: int = MAX_CHARS,
                 protocol: str = "default") -> None:
        self.protocol = check_protocol(protocol)
        if rounds < 1 or talk_rounds < 0 or max_chars < 1:
            raise ValueError(f"rounds and max_chars must be positive and talk_rounds not negative, got "
                             f"{rounds}, {max_chars} and {talk_rounds}")
        self.rounds, self.talk_rounds, self.max_chars = rounds, talk_rounds, max_chars
        if rounds != ROUNDS:
            self.info = replace(INFO, max_turns=2 * rounds)

    def new_initial_state(self, seed: int) -> TwoRoomsState:
        """Returns the deal: cards, rooms and leaders drawn from ``seed``."""
        return TwoRoomsState(self, seed)

    def role(self, player: int) -> str:
        """Returns the seat's name (it does not tell the team)."""
        return NAMES[player]

    def secrets(self, state: State, viewer: int) -> list[tuple[str, ...]]:
        """Returns the cards and teams of the other seats that no share or reveal showed ``viewer``.

        Each is worded as the observation states a learnt card, one phrase
        (``("Casey is the Bomber",)``, ``("Alex is on the Red team",)``: the
        text lists several seats on one line), and as a data record
        (``("Casey Bomber",)``, ``("Alex Red",)``). A seat whose colour was
        shared keeps its card secret.
        """
        assert isinstance(state, TwoRoomsState)
        facts = []
        for other in range(6):
            known = state.known[viewer].get(other)
            if other == viewer or (known is not None and known not in TEAMS):
                continue
            secret, name = state.secret_state(other), NAMES[other]
            card = secret["card"]
            card_text = f"the {card}" if card in ("President", "Bomber") else _describe(card)
            facts += [(f"{name} is {card_text}",), (f"{name} {card}",)]
            if known is None:
                facts += [(f"{name} is {_describe(secret['team'])}",), (f"{name} {secret['team']}",)]
        return facts

    def own_observation(self, state: State, player: int) -> Observation:
        """Returns the seat's card, the rooms and leaders, and what it has learnt."""
        assert isinstance(state, TwoRoomsState)
        return Observation(
            game=self.info.name,
            player=player,
            text=render(state, player),
            legal_actions=tuple(state.legal_actions(player)),
            rules=RULES,
            asking=Asking(instructions=_INSTRUCTIONS),
            role=NAMES[player],
            turn=state.turn,
            data=view(state, player),
        )


# -- observation ------------------------------------------------------------------


def view(state: TwoRoomsState, player: int) -> dict[str, Any]:
    """Returns what ``player`` may see, as builtins."""
    card = state.cards[player]
    return {
        "you": NAMES[player],
        "card": card,
        "team": _team(card),
        "round": min(state.round, state.game.rounds),
        "rounds": state.game.rounds,
        "step": state.step,
        "your_room": ROOMS[state.room[player]],
        "rooms": {ROOMS[i]: [NAMES[p] for p in state.in_room(i)] for i in range(2)},
        "leaders": {ROOMS[state.room[p]]: NAMES[p] for p in state.leaders},
        "you_lead": player in state.leaders,
        "known": {NAMES[q]: seen for q, seen in sorted(state.known[player].items())},
        "log": list(state.log[player]),
    }


def render(state: TwoRoomsState, player: int) -> str:
    """Renders :func:`view` as text."""
    v = view(state, player)
    task = "choose who to share with" if v["step"] == "share" else "the Leaders choose their hostages"
    lines = [
        f"You are {v['you']}. Your card: {_describe(v['card'])}. Round {v['round']} of {v['rounds']}: {task}.",
        f"You are in {v['your_room']}" + (", and you are its Leader." if v["you_lead"] else "."),
        *(f"{room}: {', '.join(names)} (Leader: {v['leaders'][room]})" for room, names in v["rooms"].items()),
        "What you know of other cards: "
        + ("; ".join(f"{name} is {_describe(seen)}" for name, seen in v["known"].items()) or "nothing yet"),
        "What happened so far: " + (" ".join(v["log"]) or "nothing yet"),
    ]
    return "\n".join(lines)


# -- helpers ------------------------------------------------------------------------


def _team(card: str) -> str:
    return TEAMS[0] if card in ("President", f"{TEAMS[0]} Team") else TEAMS[1]


def _describe(seen: str) -> str:
    if seen in TEAMS:
        return f"on the {seen} team"
    if seen == "President":
        return "the President (Blue team)"
    if seen == "Bomber":
        return "the Bomber (Red team)"
    return f"a {seen} member"


def _seat(name: str) -> int:
    return NAMES.index(name.strip())
