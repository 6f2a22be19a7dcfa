"""The records of what happened in a match, for every match shape: the outcome, and a revision match's rounds.

:class:`MatchOutcome` is what any match produces (the ``moves`` shape's
runner and the ``revision`` shape's rounds alike), so ratings, results and
reports read every match the same way. A ``revision`` match also keeps its
whole course: :class:`RevisionMatch` (the initial attempts and one
:class:`RoundRecord` per simulated round, builtin types only), which
:meth:`RevisionMatch.trace` turns into one side's :class:`MatchTrace` of
:class:`Round` for the AdvGameBench metrics (``metrics.advgame``).

Builtin values only here, no game and no metric: ``core.revision`` builds
these records and ``metrics``, ``match`` and ``report`` read them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# ----------------------------------------------------------------- any match


@dataclass
class MatchOutcome:
    """What a finished match produced.

    Attributes:
        scores: One score per side.
        terminal: How the game ended.
        turns: Decisions applied (joint actions).
        decisions: Decisions taken per player.
        illegal: Rejected attempts per player (parse errors and illegal actions).
        format_errors: Of those, the replies that could not be read as an action, per player
            (None where the outcome was not played by :func:`play`).
        fallbacks: Decisions decided by the fallback, per player.
        forfeited_by: The player whose side forfeited, or None.
        history: The applied joint actions, ``{player: action}`` as strings.
        duration_s: Wall time of the match.
        messages: Every delivered message, as dicts, in order.
        truncated: Of the fallbacks, those taken because the answer was cut twice
            (:class:`~stratbench.core.types.TruncatedAnswer`), per player.
        rejected: Rejected answers by reason kind (:data:`~stratbench.core.rejection.REASON_KINDS`; a cut
            answer counts as ``cut off``), per player.
    """

    scores: list[float]
    terminal: str
    turns: int
    decisions: dict[int, int]
    illegal: dict[int, int]
    fallbacks: dict[int, int]
    forfeited_by: int | None
    history: list[dict[int, str]]
    duration_s: float
    messages: list[dict[str, Any]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    format_errors: dict[int, int] | None = None
    truncated: dict[int, int] = field(default_factory=dict)
    rejected: dict[int, dict[str, int]] = field(default_factory=dict)


# ----------------------------------------------------------------- one side's view of a revision match


@dataclass(frozen=True)
class Round:
    """One simulated round seen from one side."""

    won: bool | None
    """True: won after the budget rule; False: lost; None: a draw."""
    cost: float
    """The side's strategy cost this round."""
    budget: float
    """The side's budget."""
    strategy: object = None
    """The strategy JSON submitted for this round (None when unreadable)."""
    violation: bool = False
    """Over budget, unreadable, or breaking a rule."""
    revises_after: bool = False
    """The side revised right after this round (its turn to revise)."""
    value: float = 0.0
    """Φ: the remaining value from the side's point of view (the winner's remaining cost, negative when lost)."""

    @property
    def over_budget(self) -> bool:
        return self.cost > self.budget

    @property
    def negative(self) -> bool:
        """Negative feedback: not a win, or a violation."""
        return self.won is not True or self.violation


@dataclass(frozen=True)
class MatchTrace:
    """A match from one side's point of view."""

    rounds: tuple[Round, ...]
    role: str = ""
    """The side played (``human``, ``demon``, ``invader``, ``defender``)."""
    order: str = "first"
    """``first`` when this side revises after round 1, else ``second``."""
    opponent: str = ""
    game: str = ""
    initial_violations: tuple[bool, ...] = field(default=())
    """For RVR: one flag per initial proposal (every init attempt), True when it broke a rule or the budget."""


# ----------------------------------------------------------------- the whole revision match


@dataclass
class RoundRecord:
    """One round of a revision match, for the transcript and the match record (builtin types only)."""

    round: int
    strategies: dict
    costs: dict
    violations: dict
    """side -> list of messages (unreadable answer, over budget, rule problems)."""
    winner: str | None
    verdict: str
    summary: dict
    reviser: str | None
    """The side revising after this round (None after the last)."""

    def to_dict(self) -> dict:
        return {"round": self.round, "strategies": self.strategies, "costs": self.costs,
                "violations": self.violations, "winner": self.winner, "verdict": self.verdict,
                "summary": self.summary, "reviser": self.reviser}


@dataclass
class RevisionMatch:
    """A played revision match."""

    sides: tuple[str, str]
    budgets: dict
    first_reviser: str
    initial_attempts: dict = field(default_factory=dict)
    """side -> list of {"cost", "violations"} per initial attempt."""
    rounds: list[RoundRecord] = field(default_factory=list)

    def trace(self, side: str, **labels) -> MatchTrace:
        """Returns the match seen from ``side`` for the metrics (``labels``: opponent, game)."""
        rounds = []
        for record in self.rounds:
            won = None if record.winner is None else record.winner == side
            margin = record.summary.get("remaining_cost", 0) if record.winner == record.summary.get("winner") else 0
            value = 0.0 if won is None else (margin if won else -margin)
            rounds.append(Round(won=won, cost=record.costs[side], budget=self.budgets[side],
                                strategy=record.strategies[side], violation=bool(record.violations[side]),
                                revises_after=record.reviser == side, value=float(value)))
        order = "first" if side == self.first_reviser else "second"
        initial = tuple(bool(a["violations"]) for a in self.initial_attempts.get(side, ()))
        return MatchTrace(rounds=tuple(rounds), role=side, order=order, initial_violations=initial, **labels)

    @classmethod
    def from_dict(cls, data: dict) -> RevisionMatch:
        """Rebuilds a match from :meth:`to_dict`'s output (a match record's ``advgame`` entry)."""
        match = cls(sides=tuple(data["sides"]), budgets=dict(data["budgets"]), first_reviser=data["first_reviser"],
                    initial_attempts={side: list(a) for side, a in data["initial_attempts"].items()})
        match.rounds = [RoundRecord(r["round"], r["strategies"], r["costs"], r["violations"], r["winner"],
                                    r["verdict"], r["summary"], r["reviser"]) for r in data["rounds"]]
        return match

    def to_dict(self) -> dict:
        return {"sides": list(self.sides), "budgets": dict(self.budgets), "first_reviser": self.first_reviser,
                "initial_attempts": self.initial_attempts, "rounds": [r.to_dict() for r in self.rounds]}
