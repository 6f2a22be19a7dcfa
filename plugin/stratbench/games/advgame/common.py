"""What the three AdvGameBench simulators share: the outcome record, rule problems, reading entries.

The budget rule (``decide_winner``) and the released code's JSON reading
(``read_strategy_json``) belong to the revision match and live in
``core.revision``; they are re-exported here for the simulators' readers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from stratbench.core.revision import Verdict, decide_winner, read_strategy_json

__all__ = ["Outcome", "StrategyProblem", "Verdict", "decide_winner", "entries", "read_strategy_json"]


@dataclass(frozen=True)
class StrategyProblem:
    """One way a strategy breaks the game's rules (the unit entry is skipped by the simulator)."""

    side: str
    """The side whose strategy it is."""
    message: str
    """What is wrong, naming the entry (``humans[2]: unknown unit 'Peashooter'``)."""


@dataclass(frozen=True)
class Outcome:
    """The result of one simulated battle (before the budget rule).

    ``remaining`` and ``remaining_cost`` describe the winner's units still on
    the board at the end, as the released simulators print them
    ("remain characters: n, cost: c"); both are 0 with no winner.
    """

    winner: str | None
    """The winning side's name, or None for a draw."""
    remaining: int
    """Number of the winner's units left."""
    remaining_cost: int
    """Catalogue cost of the winner's units left (summoned units cost 0)."""
    steps: int
    """Simulation steps taken (ticks, attacks or turns, per game)."""
    reason: str
    """How it ended, one line (``"Demon reached the left edge in row 2"``)."""
    remaining_by_side: dict[str, int] = field(default_factory=dict)
    """Units left per side."""
    problems: tuple[StrategyProblem, ...] = ()
    """Rule problems found in either strategy; offending entries were skipped."""
    survivors: tuple[tuple[str, float], ...] = ()
    """The winner's units left, as (name, health), in board or line order."""

    def summary(self) -> dict:
        """Returns builtin types only, for transcripts and match records."""
        return {
            "winner": self.winner,
            "remaining": self.remaining,
            "remaining_cost": self.remaining_cost,
            "remaining_by_side": dict(self.remaining_by_side),
            "steps": self.steps,
            "reason": self.reason,
            "problems": [f"{p.side}: {p.message}" for p in self.problems],
            "survivors": [[name, health] for name, health in self.survivors],
        }


def entries(strategy: dict, key: str, side: str, problems: list[StrategyProblem]) -> list[tuple[int, dict]]:
    """Returns ``strategy[key]``'s object entries with their index; records a problem for anything else."""
    value = strategy.get(key)
    if value is None:
        problems.append(StrategyProblem(side, f'missing key "{key}"'))
        return []
    if not isinstance(value, list):
        problems.append(StrategyProblem(side, f'"{key}" must be a list'))
        return []
    found = []
    for index, entry in enumerate(value):
        if isinstance(entry, dict):
            found.append((index, entry))
        else:
            problems.append(StrategyProblem(side, f"{key}[{index}]: entry must be an object"))
    return found
