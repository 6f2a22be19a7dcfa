"""Who sits where, named as the page names them, and how the match ended, said from the person's side.

Every player is named by the agent that plays it and its seat's role
(``You (X)``, ``random (O)``, ``openai/gpt-4o+direct (Black)``), in the
heading, the move list and the result. The result is one sentence from the
person's side naming the opponents and how the game ended
(``You won against random (X wins)``, ``Draw against minimax``,
``You lost against random (you forfeited: the page stopped polling: ...)``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

OPPONENT = "the opponent"
"""The name of a side whose agent the page was not told (a match played outside a pytest run)."""


@dataclass(frozen=True)
class Seating:
    """The players of one match and who plays them.

    Attributes:
        labels: The agent label of each side (``human:alice``, ``random``, ``openai/m+direct``).
        sides: The players of each side.
        roles: Each player's role (``X``, ``White``, ``FRANCE``), by player.
        mine: The sides the person plays.
    """

    labels: tuple[str, ...]
    sides: tuple[tuple[int, ...], ...]
    roles: dict[int, str]
    mine: frozenset[int]

    def side_of(self, player: int) -> int:
        """The side ``player`` belongs to."""
        return next(side for side, players in enumerate(self.sides) if player in players)

    def name(self, player: int) -> str:
        """``You (X)`` for the person's players, ``random (O)`` for the others."""
        side = self.side_of(player)
        who = "You" if side in self.mine else self.labels[side]
        return f"{who} ({self.roles.get(player, f'player {player}')})"

    def side_name(self, side: int) -> str:
        """A side named by its agent and its players' roles (``random (O)``, ``You (FRANCE)``)."""
        who = "You" if side in self.mine else self.labels[side]
        roles = "/".join(self.roles.get(player, f"player {player}") for player in self.sides[side])
        return f"{who} ({roles})"

    def opponents(self) -> str:
        """The agents the person plays against (``random``; ``hold`` once for six powers; ``a and b``)."""
        names = list(dict.fromkeys(self.labels[side] for side in range(len(self.sides)) if side not in self.mine))
        return " and ".join(names)

    def versus(self) -> str:
        """The heading's line: ``You (X) against random (O)``; a one-sided game names the person's seats only."""
        yours = ", ".join(self.side_name(side) for side in sorted(self.mine))
        others = [self.side_name(side) for side in range(len(self.sides)) if side not in self.mine]
        return f"{yours} against {', '.join(others)}" if others else yours

    def others(self) -> str:
        """The other sides, named as in the heading (the page waits for them): ``random (O)``."""
        return ", ".join(self.side_name(side) for side in range(len(self.sides)) if side not in self.mine)

    def scores_line(self, scores: Sequence[float]) -> str:
        """``You (X) 1, random (O) 0``."""
        return ", ".join(f"{self.side_name(side)} {score:g}" for side, score in enumerate(scores))


def seating_of(labels: Sequence[str] | None, sides: Sequence[Sequence[int]], roles: dict[int, str],
               person: str, side: int) -> Seating:
    """The seating of a match in which ``person`` (an agent label) plays ``side``; ``labels`` None (not told):
    the other sides are :data:`OPPONENT`."""
    known = list(labels) if labels is not None and len(labels) == len(sides) else None
    if known is None:
        known = [person if index == side else OPPONENT for index in range(len(sides))]
    mine = frozenset(index for index, label in enumerate(known) if label == person) | {side}
    return Seating(tuple(known), tuple(tuple(players) for players in sides), dict(roles), frozenset(mine))


def result_sentence(seating: Seating, summary: dict[str, Any]) -> str:
    """How the match ended, from the person's side.

    Args:
        seating: Who played.
        summary: The match's end: ``scores`` and ``terminal`` (the ``end`` event), ``forfeit`` (the reason)
            and ``forfeit_by`` (the player) when a player forfeited, or ``error``.

    Returns:
        ``You won against random (X wins)``, ``You lost against openai/m+direct (O wins)``, ``Draw against
        minimax``, ``You scored 12 (...)`` in a one-sided game, or ``The match stopped: ...`` after an error.
    """
    if summary.get("error"):
        return f"The match stopped: {summary['error']}"
    scores = summary.get("scores")
    if not scores:
        return "The match ended."
    how = _how_it_ended(seating, summary)
    mine = sum(scores[side] for side in seating.mine)
    others = [score for side, score in enumerate(scores) if side not in seating.mine]
    if not others:
        return f"You scored {mine:g}{how}"
    best = max(others)
    opponents = seating.opponents()
    if mine > best:
        return f"You won against {opponents}{how}"
    if mine < best:
        return f"You lost against {opponents}{how}"
    return f"Draw against {opponents}{how}"


def _how_it_ended(seating: Seating, summary: dict[str, Any]) -> str:
    """`` (X wins)``, `` (you forfeited: REASON)``, `` (random (O) forfeited)``; empty for a plain draw."""
    forfeit_by = summary.get("forfeit_by")
    if forfeit_by is not None:
        who = "you" if seating.side_of(forfeit_by) in seating.mine else seating.name(forfeit_by)
        reason = summary.get("forfeit")
        return f" ({who} forfeited: {reason})" if reason else f" ({who} forfeited)"
    terminal = str(summary.get("terminal") or "")
    return f" ({terminal})" if terminal and terminal != "draw" else ""
