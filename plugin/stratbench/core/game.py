"""The Game and State contracts every rules engine implements.

A :class:`Game` is a stateless factory with static :class:`GameInfo`; all
mutable data lives in its :class:`State`. Engines write only the underscored
methods (``_current_players``, ``_legal_actions``, ``_apply``, ``_is_terminal``,
``_scores``); the public methods here add what every game shares: legality
checks on ``apply``, forfeits, the action history and the turn counter.

Scores are per *side*: a side is a team of one or more players (Sea Battle has
two sides of three players; Hanabi one side of all players).

Every registered game derives from :class:`GameBase` and declares its *match
shape* (``core.shapes``): a :class:`Game` is played move by move (``moves``,
the runner); a ``core.revision.RevisionGame`` by whole strategies revised in
rounds (``revision``). Only :class:`Game` has states and observations.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from stratbench.core.messages import MessageLog, Negotiation, NegotiationTurn
from stratbench.core.types import Action, IllegalActionError, Observation, Rules

if TYPE_CHECKING:
    import random

CHANCE = -1
"""The pseudo-player id for chance nodes; the runner samples ``chance_outcomes()``."""


@dataclass(frozen=True)
class GameInfo:
    """Static facts about a game.

    Attributes:
        name: The registered name (``"tictactoe"``).
        num_players: Players in a match.
        sides: The players of each side; scores are reported per side.
        simultaneous: Whether several players may act at once.
        chance: Whether the game has chance nodes.
        hidden_information: Whether observations hide part of the state.
        score_range: The lowest and highest score a side can get.
        score_sum: What the side scores always sum to, or None.
        max_turns: An upper bound on decisions in one match (a safety net).
        family: The benchmark the game comes from (``"spin"``, ``"gamebench"``).
    """

    name: str
    num_players: int
    sides: tuple[tuple[int, ...], ...]
    max_turns: int
    simultaneous: bool = False
    chance: bool = False
    hidden_information: bool = False
    score_range: tuple[float, float] = (0.0, 1.0)
    score_sum: float | None = 1.0
    family: str = ""

    def side_of(self, player: int) -> int:
        """Returns the side a player belongs to."""
        for index, players in enumerate(self.sides):
            if player in players:
                return index
        raise ValueError(f"player {player} is on no side of {self.name}")


class State(ABC):
    """The mutable state of one match of a game.

    Only :meth:`Game.new_initial_state` should construct states.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.turn = 0
        """Decisions applied so far (one per ``apply`` call)."""
        self.history: list[dict[int, str]] = []
        """The applied joint actions, as ``{player: action text}``."""
        self.forfeited_by: int | None = None
        self.forfeit_reason: str | None = None
        """Why the forfeiting player's agent gave up, when it said (a person who left the page)."""
        self.messages = MessageLog()
        """Messages exchanged in negotiations (see :mod:`stratbench.core.messages`)."""

    # -- what engines implement ---------------------------------------------------

    @abstractmethod
    def _current_players(self) -> list[int]:
        """Returns the players to act now (``[CHANCE]`` at a chance node)."""

    @abstractmethod
    def _legal_actions(self, player: int) -> list[str]:
        """Returns the predefined legal actions of ``player``, sorted."""

    def _open_ended(self, player: int) -> dict[str, str]:
        """Returns open-ended action ids and their prompts (none by default)."""
        return {}

    @abstractmethod
    def _apply(self, actions: dict[int, Action]) -> None:
        """Applies a joint action already checked to be legal."""

    @abstractmethod
    def _is_terminal(self) -> bool:
        """Tells whether the game is over by its own rules."""

    @abstractmethod
    def _scores(self) -> list[float]:
        """Returns one score per side for a terminal state.

        A game of several sides without ``score_sum`` must also answer for a
        state a forfeit left unfinished (the others keep these scores).
        """

    def _terminal_reason(self) -> str:
        """Describes how the game ended (``"win"``, ``"draw"``, ...)."""
        return "end"

    def seat(self, seating: tuple[str, ...]) -> None:
        """Learns the match's seating (the suite's token per side: ``"subject"`` or an agent name).

        Called once before play when the suite declares seatings. Most games
        ignore it (the default); a game in which one agent plays several
        sides through one conversation (SPIN-Bench's paper Diplomacy) groups
        the sides it names alike.
        """

    def negotiation(self) -> Negotiation | None:
        """Returns the negotiation due before the next actions, or None (the default).

        The runner holds each phase's negotiation once.
        """
        return None

    def chance_outcomes(self) -> list[tuple[str, float]]:
        """Returns ``(outcome, probability)`` pairs at a chance node."""
        raise NotImplementedError(f"{self.game.info.name} has no chance nodes")

    def fallback_action(self, player: int, rng: random.Random) -> Action | None:
        """Returns the ``random`` fallback's action for a decision with no legal-action list, or None.

        The runner asks only when a player exhausted its attempts under the
        ``random`` fallback and the observation lists no legal actions (an
        open-ended decision such as a Diplomacy order set). None, the default,
        means the player forfeits as under the ``forfeit`` fallback. The action
        goes through the same checks as an agent's answer.
        """
        return None

    def pass_action(self, player: int) -> Action | None:
        """Returns the ``drop`` fallback's action: ``player`` does nothing this decision, or None.

        The runner asks only when a player exhausted its attempts under the
        ``drop`` fallback (its answer is dropped, as an engine does with a
        power that submits nothing, and the game goes on). None, the default,
        means the game has no such action and the match is a harness fault.
        The action goes through the same checks as an agent's answer.
        """
        return None

    # -- the public, shared surface -------------------------------------------------

    def current_players(self) -> list[int]:
        """Returns the players to act now; empty when the game is over."""
        return [] if self.is_terminal() else self._current_players()

    def legal_actions(self, player: int) -> list[str]:
        """Returns ``player``'s legal predefined actions; empty when not to act."""
        if self.is_terminal() or player not in self._current_players():
            return []
        return self._legal_actions(player)

    def open_ended(self, player: int) -> dict[str, str]:
        """Returns ``player``'s open-ended actions; empty when not to act."""
        if self.is_terminal() or player not in self._current_players():
            return {}
        return self._open_ended(player)

    def is_legal(self, player: int, action: Action) -> bool:
        """Tells whether ``player`` may take ``action`` now."""
        if player == CHANCE:
            return action.id in {o for o, _ in self.chance_outcomes()}
        if action.response is None and action.id in self.legal_actions(player):
            return True
        return action.id in self.open_ended(player) and bool(action.response)

    def apply(self, actions: dict[int, Action]) -> None:
        """Applies one joint action: one action for each player to act.

        Raises:
            IllegalActionError: if a player is missing, extra, or its action is
                not legal. The state is unchanged then.
        """
        if self.is_terminal():
            raise IllegalActionError("the game is over")
        expected = set(self._current_players())
        if set(actions) != expected:
            raise IllegalActionError(f"expected actions from players {sorted(expected)}, got {sorted(actions)}")
        for player, action in actions.items():
            if not self.is_legal(player, action):
                raise IllegalActionError(f"{action.to_text()!r} is not legal for player {player}")
        self._apply(actions)
        self.history.append({p: a.to_text() for p, a in sorted(actions.items())})
        self.turn += 1

    def forfeit(self, player: int, reason: str | None = None) -> None:
        """Ends the game with ``player``'s side losing; ``reason``: why its agent gave up (a person who left),
        named in how the game ended."""
        self.forfeited_by = player
        self.forfeit_reason = reason

    def is_terminal(self) -> bool:
        """Tells whether the game is over (by the rules or by a forfeit)."""
        return self.forfeited_by is not None or self._is_terminal()

    def scores(self) -> list[float]:
        """Returns one score per side; only meaningful once terminal.

        After a forfeit the forfeiting side gets the lowest score. In a game
        whose scores sum to a constant the others share the rest; in one
        without (``score_sum`` None: supply centres, points) the others keep
        what the rules give them at that point (``_scores`` of the state the
        forfeit left), never an invented score.
        """
        if self.forfeited_by is None:
            return [float(s) for s in self._scores()]
        info = self.game.info
        low, _ = info.score_range
        loser = info.side_of(self.forfeited_by)
        if len(info.sides) == 1:
            return [low]
        if info.score_sum is None:
            kept = [float(s) for s in self._scores()]
            return [low if side == loser else kept[side] for side in range(len(info.sides))]
        share = (info.score_sum - low) / (len(info.sides) - 1)
        return [low if side == loser else share for side in range(len(info.sides))]

    def terminal_reason(self) -> str:
        """Describes how the game ended."""
        if self.forfeited_by is not None:
            return f"forfeit by player {self.forfeited_by}" + (f": {self.forfeit_reason}" if self.forfeit_reason else "")
        return self._terminal_reason()

    def clone(self) -> State:
        """Returns an independent deep copy."""
        return copy.deepcopy(self)


class GameBase(ABC):
    """What every registered game declares, whatever its match shape.

    Subclasses set :attr:`info` and :attr:`rules`; the shape bases set :attr:`shape`.
    """

    shape: ClassVar[str]
    """The match shape that plays the game (``moves``, ``revision``); the session looks it up by this name."""
    info: GameInfo
    rules: Rules

    def role(self, player: int) -> str:
        """Returns a short name for a player's seat (``"X"``, ``"White"``)."""
        return f"player {player}"


class Game(GameBase):
    """A stateless factory for states of one game, played move by move (the ``moves`` shape).

    Subclasses set :attr:`info` and :attr:`rules` and implement
    :meth:`new_initial_state` and :meth:`observe`.
    """

    shape: ClassVar[str] = "moves"
    supports_openings: ClassVar[bool] = False
    """Whether the game is built with ``openings="book"`` (``--openings book``): each seed starts from a balanced
    position of its book instead of the game's own start."""

    @abstractmethod
    def new_initial_state(self, seed: int) -> State:
        """Returns the start state; any randomness derives from ``seed``."""

    def opening(self, seed: int) -> str | None:
        """Names the book position ``seed`` starts from (``"1. e4 c5"``), or None when it starts from the game's
        own start (the default)."""
        return None

    @abstractmethod
    def observe(self, state: State, player: int) -> Observation:
        """Returns what ``player`` may see of ``state``, with its legal actions."""

    def observe_negotiation(self, state: State, player: int, turn: NegotiationTurn) -> Observation:
        """Returns what ``player`` sees when asked to talk in a negotiation round.

        The runner calls this instead of :meth:`observe` during a negotiation
        and attaches ``turn`` (``Observation.negotiation``) and the player's
        messages itself. The default is the ordinary observation; games with a
        prompt of their own for talking (Diplomacy) override it.
        """
        return self.observe(state, player)

    def snapshot(self, state: State) -> dict[str, Any] | None:
        """Returns the position for the replay viewer as builtin values, or None.

        The runner logs it as a ``board`` event at the start and after every
        applied step; the report draws it with the board renderer registered
        for the game (``Registry.add_board_renderer``; ``report/replay.py``),
        or as text (a ``"text"`` entry, else the JSON). It is what a spectator
        sees, never shown to a seat. The default None leaves the viewer with
        the observation texts.
        """
        return None

    def secrets(self, state: State, viewer: int) -> list[tuple[str, ...]]:
        """Returns the facts of ``state`` hidden from ``viewer``, for the hidden-information test.

        Each fact is a tuple of phrases that together state it (``("player 3",
        "Key Holder")``, ``("APPLE", "assassin")``); nothing shown to ``viewer``
        (observation text and data, legal actions, prompts, feedback, messages,
        rule topics) may contain a fact's phrases in that order within one line
        or one data record. Give both orders where either reads naturally, and
        word facts as the observation would if it leaked, never so loosely
        that honest text matches. A game that declares ``hidden_information``
        must override this; perfect information games keep the default (no
        facts). Engines with a ``secret_state(player)`` on their state word it
        here (docs/ARCHITECTURE.md, "Hidden information").
        """
        return []

    def canonical_action(self, state: State, player: int, text: str) -> str | None:
        """Maps an answer to a legal action's canonical text, or None.

        The default matches legal actions case-insensitively; games with several
        notations (chess SAN and UCI) override this.
        """
        wanted = text.strip().lower()
        for action in state.legal_actions(player):
            if action.lower() == wanted:
                return action
        return None

    def check_open_ended(self, state: State, player: int, action: Action) -> Action:
        """Checks an open-ended answer before it is applied; returns it (normalised).

        The default accepts any non-empty answer. Games whose open-ended answers
        must follow rules (a Diplomacy order set) override this and raise
        :class:`~stratbench.core.types.IllegalActionError` or
        :class:`~stratbench.core.types.ActionParseError` with a reason the agent
        sees on its retry.
        """
        return action

