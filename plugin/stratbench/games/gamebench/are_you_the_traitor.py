"""Are You the Traitor? (GameBench): five seats, Evil (players 0-1) against Good (players 2-4).

Each game round deals the roles anew within the teams: Evil holds the
Traitor and the Evil Wizard, Good the Good Wizard, the Key Holder and a
Guard. A seat sees only its own role, its target and the public fact of who
the two wizards are (the Traitor also knows the Key Holder). A round is up to
``max_exchanges`` exchanges (the round's conversation cap); each exchange is

1. a free conversation turn through the core's message channels: every seat
   may say one public message of at most :data:`MAX_CHARS` characters;
2. GameBench's questioning: a randomly drawn questioner picks a seat
   (``ask player N``), asks it an open-ended question (or ``skip question``)
   and that seat answers, open-ended; everyone hears both;
3. every seat but the Traitor, in a shuffled order, may shout ``stop`` or
   ``pass``; a seat that stops then accuses a seat (``accuse player N``).

An accusation that names the seat holding the accuser's target role wins the
round for the accuser's team, otherwise for the other team; every player of
the winning team draws a treasure card (GameBench's 42-card deck), and magic
rings then steal a card from an opponent (a gilded statue first). When no one
stops within the cap, the round ends without treasure. The game ends when a
player holds 10 or more points, or after ``max_rounds`` rounds; the team of
the richest player wins (1/0), a tie between the teams is a draw.

Departures from the released code, whose seats keep fixed roles announced by
number: roles are dealt each round within the fixed teams (as the real game
re-deals them); free conversation adds message turns to the questioning; a
round cap ends rounds and the game. Questions and answers longer than
:data:`MAX_CHARS` characters are rejected with the reason for a retry.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from stratbench.core.game import Game, GameInfo, State
from stratbench.core.messages import Negotiation, NegotiationTurn
from stratbench.core.types import Action, Asking, IllegalActionError, Observation, Rules
from stratbench.games.gamebench import ProtocolGame, check_protocol

__all__ = [
    "AreYouTheTraitor", "AreYouTheTraitorState", "INFO", "MAX_CHARS", "ROLES", "RULES", "TARGETS", "TREASURES",
    "conversation_stats",
]

TRAITOR, EVIL_WIZARD, GOOD_WIZARD, KEY_HOLDER, GUARD = "Traitor", "Evil Wizard", "Good Wizard", "Key Holder", "Guard"
TEAMS = ("Evil", "Good")
EVIL_SEATS, GOOD_SEATS = (0, 1), (2, 3, 4)
ROLES = {0: (TRAITOR, EVIL_WIZARD), 1: (GOOD_WIZARD, KEY_HOLDER, GUARD)}
"""The roles each team deals among its seats every round."""
TARGETS = {TRAITOR: None, EVIL_WIZARD: KEY_HOLDER, GOOD_WIZARD: TRAITOR, KEY_HOLDER: GOOD_WIZARD, GUARD: TRAITOR}
"""The role each role's accusation must name (the Traitor may not stop the conversation)."""
TREASURES = (
    ("crown jewels", 2, 5), ("platinum pyramids", 5, 4), ("bags of gold", 12, 3), ("silver goblets", 11, 2),
    ("chest of copper", 5, 1), ("magic ring", 5, 1), ("gilded statue", 2, 0),
)
"""GameBench's treasure deck: ``(card, copies, points)``; a magic ring steals an opponent's card."""
POINTS = {name: points for name, _, points in TREASURES}
WINNING_POINTS = 10
MAX_CHARS = 300
"""The longest conversation message, question or answer."""
MAX_ROUNDS = 10
MAX_EXCHANGES = 3
_STEPS_PER_EXCHANGE = 8  # pick a seat, ask, answer, four stop decisions, accuse
CANNED_ANSWER = "I would rather not say."
"""GameBench's fallback for an answer that never came."""

INFO = GameInfo(
    name="are_you_the_traitor",
    num_players=5,
    sides=(EVIL_SEATS, GOOD_SEATS),
    max_turns=MAX_ROUNDS * MAX_EXCHANGES * _STEPS_PER_EXCHANGE,
    chance=False,
    hidden_information=True,
    score_range=(0.0, 1.0),
    score_sum=1.0,
    family="gamebench",
)

RULES = Rules(
    title="Are you the traitor?",
    summary=(
        "The Good team wants to destroy an Evil Magic Key while the Evil team wants to keep it. The key can be "
        "destroyed by giving it to the Good Wizard, but there is an Evil Wizard who looks exactly alike. Use social "
        "deduction to find out who is who, but also know that there is a traitor among the guards who have the key."
    ),
    topics={
        "Roles": (
            "Evil team: the Traitor and the Evil Wizard. Good team: the Good Wizard, the Key Holder and a Guard. "
            "Roles are dealt again at the start of every round; your team stays the same. Everyone knows who the "
            "two wizards are, but not which is which. The Traitor knows who holds the key."
        ),
        "Targets": (
            "The Evil Wizard hunts the Key Holder. The Good Wizard and the Guard hunt the Traitor. The Key Holder "
            "looks for the Good Wizard. The Traitor cannot stop the conversation."
        ),
        "Conversation": (
            f"A round is at most {MAX_EXCHANGES} exchanges. In each, every player may say one public message (at "
            f"most {MAX_CHARS} characters), then a randomly chosen player asks another player a question and hears "
            "the answer, which everyone hears too. If nobody stops the conversation within the round, no one "
            "earns treasure that round."
        ),
        "Stop!": (
            "After each exchange every player except the Traitor, in a random order, may shout Stop! and accuse "
            "a player. If the accused holds the accuser's target role, the accuser's team wins the round; "
            "otherwise the other team wins it."
        ),
        "Treasure": (
            "Every player of the round's winning team draws a treasure card: crown jewels (5 points), platinum "
            "pyramids (4), bags of gold (3), silver goblets (2), chest of copper (1), magic ring (1: steals a card "
            "from a random opponent, a gilded statue first, and is then discarded) or gilded statue (0). The game "
            f"ends when a player has {WINNING_POINTS} points or more; the team of the richest player wins."
        ),
    },
)


@dataclass(frozen=True)
class RoundResult:
    """How a round ended, as everyone saw it."""

    round: int
    stopper: int | None
    accused: int | None
    right: bool
    winner: int | None

    def text(self) -> str:
        """Returns the public account of the round."""
        if self.stopper is None:
            return f"Round {self.round}: nobody shouted Stop!; no treasure was won."
        verdict = "right" if self.right else "wrong"
        return (f"Round {self.round}: player {self.stopper} shouted Stop! and accused player {self.accused}. "
                f"The accusation was {verdict}. The {TEAMS[self.winner or 0]} team won the round.")


def seat(player: int) -> str:
    """Returns a seat's public name, ``player N``."""
    return f"player {player}"


class AreYouTheTraitorState(State):
    """Roles, treasure, the round's conversation and who is to act.

    Attributes:
        roles: Each seat's role this round.
        treasure: Each seat's treasure cards.
        step: ``target``, ``question``, ``answer``, ``stop`` or ``accuse``.
        questioner: The seat asking this exchange; ``target`` the seat asked.
        stop_order: The seats still to decide Stop!/pass this exchange, in order.
        exchanges: The round's public questions and answers, as text.
        results: The finished rounds.
    """

    def __init__(self, game: AreYouTheTraitor, seed: int) -> None:
        super().__init__(game)
        self.rng = random.Random(f"are_you_the_traitor:{seed}")
        self.deck = [name for name, copies, _ in TREASURES for _ in range(copies)]
        self.rng.shuffle(self.deck)
        self.treasure: dict[int, list[str]] = {p: [] for p in range(INFO.num_players)}
        self.round = 0
        self.results: list[RoundResult] = []
        self.roles: dict[int, str] = {}
        self.exchange = 0
        self.step = "target"
        self.questioner = 0
        self.target: int | None = None
        self.stop_order: list[int] = []
        self.stopper: int | None = None
        self.exchanges: list[str] = []
        self.events: list[str] = []
        self._start_round()

    # -- the round -------------------------------------------------------------------

    def _start_round(self) -> None:
        self.round += 1
        self.roles = {}
        for team, seats in enumerate((EVIL_SEATS, GOOD_SEATS)):
            roles = list(ROLES[team])
            self.rng.shuffle(roles)
            self.roles.update(zip(seats, roles))
        self.exchange = 0
        self.exchanges = []
        self._start_exchange()

    def _start_exchange(self) -> None:
        self.exchange += 1
        self.step = "target"
        self.questioner = self.rng.randrange(INFO.num_players)
        self.target = None
        self.stopper = None

    def _end_round(self, stopper: int | None, accused: int | None) -> None:
        if stopper is None or accused is None:
            result = RoundResult(self.round, None, None, False, None)
        else:
            right = self.roles[accused] == TARGETS[self.roles[stopper]]
            team = INFO.side_of(stopper)
            result = RoundResult(self.round, stopper, accused, right, team if right else 1 - team)
            for player in INFO.sides[result.winner]:
                if self.deck:
                    self.treasure[player].append(self.deck.pop(0))
            self._use_magic_rings()
        self.results.append(result)
        if not self._is_terminal():
            self._start_round()

    def _use_magic_rings(self) -> None:
        for player in range(INFO.num_players):
            if "magic ring" not in self.treasure[player]:
                continue
            victims = [p for p in range(INFO.num_players)
                       if INFO.side_of(p) != INFO.side_of(player) and self.treasure[p]]
            if not victims:
                continue
            victim = self.rng.choice(victims)
            cards = self.treasure[victim]
            card = "gilded statue" if "gilded statue" in cards else self.rng.choice(cards)
            cards.remove(card)
            self.treasure[player].append(card)
            self.treasure[player].remove("magic ring")

    # -- the State contract ---------------------------------------------------

    def _current_players(self) -> list[int]:
        if self.step in ("target", "question"):
            return [self.questioner]
        if self.step == "answer":
            assert self.target is not None
            return [self.target]
        if self.step == "stop":
            return [self.stop_order[0]]
        assert self.stopper is not None
        return [self.stopper]

    def _legal_actions(self, player: int) -> list[str]:
        others = [seat(p) for p in range(INFO.num_players) if p != player]
        if self.step == "target":
            return [f"ask {other}" for other in others]
        if self.step == "question":
            return ["skip question"]
        if self.step == "stop":
            return ["pass", "stop"]
        if self.step == "accuse":
            return [f"accuse {other}" for other in others]
        return []

    def _open_ended(self, player: int) -> dict[str, str]:
        if self.step == "question":
            return {"ask": f"your question to {seat(self.target or 0)} (at most {MAX_CHARS} characters)"}
        if self.step == "answer":
            return {"answer": f"your answer to {seat(self.questioner)}'s question (at most {MAX_CHARS} characters)"}
        return {}

    def _apply(self, actions: dict[int, Action]) -> None:
        ((player, action),) = actions.items()
        if self.step == "target":
            self.target = int(action.id.rsplit(" ", 1)[1])
            self.step = "question"
        elif self.step == "question":
            if action.id == "skip question":
                self.exchanges.append(f"{seat(player)} chose not to ask {seat(self.target or 0)} anything.")
                self._start_stops()
            else:
                self.exchanges.append(f"{seat(player)} asked {seat(self.target or 0)}: {action.response}")
                self.step = "answer"
        elif self.step == "answer":
            self.exchanges.append(f"{seat(player)} answered: {action.response}")
            self._start_stops()
        elif self.step == "stop":
            self.stop_order.pop(0)
            if action.id == "stop":
                self.stopper = player
                self.step = "accuse"
            elif not self.stop_order:
                if self.exchange >= self.game.max_exchanges:
                    self._end_round(None, None)
                else:
                    self._start_exchange()
        else:
            self._end_round(player, int(action.id.rsplit(" ", 1)[1]))

    def _start_stops(self) -> None:
        order = [p for p in range(INFO.num_players) if self.roles[p] != TRAITOR]
        self.rng.shuffle(order)
        self.stop_order = order
        self.step = "stop"

    def negotiation(self) -> Negotiation | None:
        """Opens each exchange with one public conversation turn for every seat."""
        if self.step != "target" or self._is_terminal():
            return None
        return Negotiation(
            phase=f"round {self.round} exchange {self.exchange}",
            participants=tuple(range(INFO.num_players)),
            rounds=1,
            max_messages=1,
            max_chars=MAX_CHARS,
            allow_private=False,
            allow_public=True,
        )

    def _is_terminal(self) -> bool:
        rich = max(self.points(p) for p in range(INFO.num_players))
        return rich >= WINNING_POINTS or len(self.results) >= self.game.max_rounds

    def _scores(self) -> list[float]:
        best = [max(self.points(p) for p in seats) for seats in INFO.sides]
        if best[0] == best[1]:
            return [0.5, 0.5]
        return [1.0, 0.0] if best[0] > best[1] else [0.0, 1.0]

    def _terminal_reason(self) -> str:
        best = [max(self.points(p) for p in seats) for seats in INFO.sides]
        why = f"a player reached {WINNING_POINTS} points" if max(best) >= WINNING_POINTS else (
            f"round cap ({self.game.max_rounds}) reached")
        if best[0] == best[1]:
            return f"draw: {why}, the richest players of both teams hold {best[0]} points"
        winner = 0 if best[0] > best[1] else 1
        return f"{TEAMS[winner]} wins: {why}; its richest player holds {best[winner]} points"

    def fallback_action(self, player: int, rng: random.Random) -> Action | None:
        """Returns GameBench's canned answer for a seat out of attempts at answering."""
        return Action("answer", CANNED_ANSWER) if self.step == "answer" else None

    def points(self, player: int) -> int:
        """Returns the points of ``player``'s treasure."""
        return sum(POINTS[card] for card in self.treasure[player])


class AreYouTheTraitor(ProtocolGame):
    """The Are You the Traitor? rules engine.

    Args:
        max_rounds: Rounds after which the game ends (the team of the richest player wins).
        max_exchanges: The conversation cap: exchanges per round before it ends without a Stop!.
    """

    info = INFO
    rules = RULES

    def __init__(self, max_rounds: int = MAX_ROUNDS, max_exchanges: int = MAX_EXCHANGES,
                 protocol: str = "default") -> None:
        self.protocol = check_protocol(protocol)
        if max_rounds < 1 or max_exchanges < 1:
            raise ValueError(f"max_rounds and max_exchanges must be at least 1, got {max_rounds}, {max_exchanges}")
        self.max_rounds = max_rounds
        self.max_exchanges = max_exchanges
        if (max_rounds, max_exchanges) != (MAX_ROUNDS, MAX_EXCHANGES):
            self.info = replace(INFO, max_turns=max_rounds * max_exchanges * _STEPS_PER_EXCHANGE)

    def new_initial_state(self, seed: int) -> AreYouTheTraitorState:
        """Returns round 1 with roles, questioners and the treasure deck drawn from ``seed``."""
        return AreYouTheTraitorState(self, seed)

    def role(self, player: int) -> str:
        """Returns the seat's public name, ``player N`` (its role is secret)."""
        return seat(player)

    def check_open_ended(self, state: State, player: int, action: Action) -> Action:
        """Rejects a question or answer longer than :data:`MAX_CHARS` characters."""
        text = (action.response or "").strip()
        if len(text) > MAX_CHARS:
            raise IllegalActionError(
                f"your {'question' if action.id == 'ask' else 'answer'} is {len(text)} characters long; "
                f"the limit is {MAX_CHARS}"
            )
        return Action(action.id, text)

    def own_observation(self, state: State, player: int) -> Observation:
        """Returns the seat's own role and target, the wizards, its treasure and what was said."""
        assert isinstance(state, AreYouTheTraitorState)
        return Observation(
            game=self.info.name,
            player=player,
            text=render(state, player),
            legal_actions=tuple(state.legal_actions(player)),
            open_ended=state.open_ended(player),
            rules=RULES,
            asking=Asking(instructions=_instructions(state, player)),
            role=seat(player),
            turn=state.turn,
            data=view(state, player),
        )

    def observe_negotiation(self, state: State, player: int, turn: NegotiationTurn) -> Observation:
        """Returns the seat's view with no actions: it is asked what to say to the table."""
        assert isinstance(state, AreYouTheTraitorState)
        return replace(
            self.observe(state, player),
            legal_actions=(),
            open_ended={},
        ).with_asking(
            instructions=(f"Exchange {state.exchange} of at most {self.max_exchanges} this round: you may say "
                          f"one public message to the table (at most {MAX_CHARS} characters), or stay silent."),
        )

    def secrets(self, state: State, viewer: int) -> list[tuple[str, ...]]:
        """Returns the other seats' roles (but the Key Holder for the Traitor) and their treasure cards."""
        assert isinstance(state, AreYouTheTraitorState)
        facts = []
        for p, role in state.roles.items():
            if p == viewer or (role == KEY_HOLDER and state.roles[viewer] == TRAITOR):
                continue
            facts += [(seat(p), role), (role, seat(p))]
        for p, cards in state.treasure.items():
            if p != viewer:
                facts += [(seat(p), card) for card in cards] + [(card, seat(p)) for card in cards]
        return facts


def _instructions(state: AreYouTheTraitorState, player: int) -> str:
    if state.step == "target":
        return "You were drawn to ask a question this exchange: choose whom to ask with 'ask player N'."
    if state.step == "question":
        return ("Ask your question with 'ask: <question>' (everyone hears it and the answer), or 'skip question'. "
                f"At most {MAX_CHARS} characters.")
    if state.step == "answer":
        return f"Answer with 'answer: <your answer>' (everyone hears it). At most {MAX_CHARS} characters."
    if state.step == "stop":
        return "Shout 'stop' to end the round and accuse a player, or 'pass' to let the conversation go on."
    return "Accuse the player you believe holds your target role: 'accuse player N'."


def view(state: AreYouTheTraitorState, player: int) -> dict[str, Any]:
    """Returns what ``player`` may see as builtins: its own role, never another seat's."""
    role = state.roles[player]
    wizards = sorted(p for p, r in state.roles.items() if r in (GOOD_WIZARD, EVIL_WIZARD))
    me: dict[str, Any] = {"seat": seat(player), "role": role, "team": TEAMS[INFO.side_of(player)],
                          "target": TARGETS[role]}
    if role == TRAITOR:
        me["key_holder"] = next(seat(p) for p, r in state.roles.items() if r == KEY_HOLDER)
    return {
        "me": me,
        "round": state.round,
        "max_rounds": state.game.max_rounds,
        "exchange": state.exchange,
        "max_exchanges": state.game.max_exchanges,
        "wizards": [seat(p) for p in wizards],
        "treasure": list(state.treasure[player]),
        "points": state.points(player),
        "earlier_rounds": [r.text() for r in state.results],
        "this_round": list(state.exchanges),
    }


_ROLE_TEXT = {
    TRAITOR: "You are the Traitor: stay hidden, help the Evil Wizard find the Key Holder (you know who it is).",
    EVIL_WIZARD: "You are the Evil Wizard: find the Key Holder; convince them you are the Good Wizard.",
    GOOD_WIZARD: "You are the Good Wizard: win the Key Holder's trust and find the Traitor.",
    KEY_HOLDER: "You hold the key: find the Good Wizard without revealing yourself to the Evil Wizard.",
    GUARD: "You are a Guard: find the Traitor and protect the Key Holder.",
}


def render(state: AreYouTheTraitorState, player: int) -> str:
    """Renders :func:`view` as text; another seat's name never shares a line with a role."""
    v = view(state, player)
    me = v["me"]
    lines = [
        f"Round {v['round']} of at most {v['max_rounds']}, exchange {v['exchange']} of at most {v['max_exchanges']}.",
        f"You are {me['seat']}.",
        f"Your role this round: {me['role']} ({me['team']} team). " + _ROLE_TEXT[me["role"]],
        f"Your target: {me['target'] or 'none (you cannot shout Stop!)'}.",
        "The two wizards this round: " + " and ".join(v["wizards"]) + ".",
    ]
    if "key_holder" in me:
        lines.append(f"The key is held by {me['key_holder']}.")
    lines.append(f"Your treasure: {', '.join(v['treasure']) or 'none'} ({v['points']} points; the game ends when a "
                 f"player has {WINNING_POINTS}).")
    lines.append("Earlier rounds:" + ("" if v["earlier_rounds"] else " none"))
    lines.extend(f"  {text}" for text in v["earlier_rounds"])
    lines.append("This round so far:" + ("" if v["this_round"] else " nothing yet"))
    lines.extend(f"  {text}" for text in v["this_round"])
    return "\n".join(lines)


def conversation_stats(game: Game, outcome: Any, seed: int) -> dict[int, dict[str, Any]]:
    """Counts each seat's conversation messages (in all and per round) and characters, with the caps that applied.

    Returns ``{player: {"conversation": {...}}}``.
    """
    assert isinstance(game, AreYouTheTraitor)
    stats: dict[int, dict[str, Any]] = {
        p: {"messages": 0, "chars": 0, "per_round": {}, "cap": {"exchanges_per_round": game.max_exchanges,
                                                                "messages_per_exchange": 1, "max_chars": MAX_CHARS}}
        for p in range(INFO.num_players)
    }
    for message in outcome.messages:
        counts = stats[int(message["sender"])]
        round_ = message["phase"].split()[1]
        counts["messages"] += 1
        counts["chars"] += len(message["text"])
        counts["per_round"][round_] = counts["per_round"].get(round_, 0) + 1
    return {p: {"conversation": counts} for p, counts in stats.items()}
