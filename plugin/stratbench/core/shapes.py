"""Match shapes: how a match of a game is played, chosen by the shape the game declares.

Every registered game declares its shape as a class attribute
(:attr:`GameBase.shape <stratbench.core.game.GameBase.shape>`):

- ``moves`` (:class:`~stratbench.core.game.Game`): states, observations and
  actions; the runner (``core.runner.run_match``) asks each player to act
  until the game ends.
- ``revision`` (:class:`~stratbench.core.revision.RevisionGame`): each side
  writes a whole strategy, a simulator plays it, the sides revise in turn
  (``core.revision.play_revision_match``).

A :class:`MatchShape` turns one built game and a :class:`MatchSetup` into a
:class:`PreparedMatch`: the seats that play it and a coroutine factory that
plays it to a :class:`~stratbench.core.traces.MatchOutcome`. The session
keeps the shapes in a mapping keyed by shape name (``match.shapes``) and
looks a game's up with :func:`find_shape`; nothing else in the session
depends on the shape.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from stratbench.core.game import Game, GameBase
from stratbench.core.revision import RevisionGame
from stratbench.core.schedule import MatchSpec, SuiteSpec
from stratbench.core.traces import MatchOutcome
from stratbench.core.transcript import Transcript
from stratbench.core.types import HarnessError

MOVES: str = Game.shape
"""The shape of games played move by move (``"moves"``)."""
REVISION: str = RevisionGame.shape
"""The shape of games played by whole strategies revised in rounds (``"revision"``)."""


class UnknownShapeError(HarnessError):
    """Raised when a game declares a match shape no one can play."""


@dataclass(frozen=True)
class MatchSetup:
    """What the session hands a shape to prepare one match."""

    spec: MatchSpec
    suite: SuiteSpec
    registry: Any
    """The run's :class:`~stratbench.registry.Registry` (agents, scaffolds)."""
    client: Any
    """The run's LLM client, for the seats that call a model."""
    transcript: Transcript
    options: dict[str, Any] = field(default_factory=dict)
    """The agents' options (temperature, seed, scaffold settings...)."""


@dataclass
class PreparedMatch:
    """One match ready to play: who plays it and how to start it."""

    start: Callable[[], Awaitable[MatchOutcome]]
    """Returns the coroutine that plays the match (called inside its cassette and time limit)."""
    agents: dict[int, Any] = field(default_factory=dict)
    """The agents to close after the match (none where the seats are strategy writers)."""
    sessions: dict[int, Any] = field(default_factory=dict)
    """player -> the ``ModelSession`` of each model-played seat (usage and cost for the record)."""


class MatchShape(Protocol):
    """How matches of one shape are played."""

    name: str
    """The shape name games declare (``moves``, ``revision``)."""

    def prepare(self, game: Any, setup: MatchSetup) -> PreparedMatch:
        """Builds the seats of one match of ``game`` and returns it ready to play.

        Raises:
            HarnessError: a seat cannot play this shape (an agent that writes no strategies...).
        """
        ...


def find_shape(game: GameBase, shapes: Mapping[str, MatchShape]) -> MatchShape:
    """Returns the shape that plays ``game``, by the shape its class declares.

    Raises:
        UnknownShapeError: the declared shape is not in ``shapes``, naming the game, the shape and the known ones.
    """
    try:
        declared = type(game).shape
    except AttributeError:
        raise UnknownShapeError(f"game {game.info.name!r} declares no match shape; "
                                f"known shapes: {', '.join(sorted(shapes))}") from None
    if declared not in shapes:
        known = ", ".join(sorted(shapes))
        raise UnknownShapeError(f"game {game.info.name!r} declares the match shape {declared!r}, "
                                f"which no match shape plays; known shapes: {known}")
    return shapes[declared]
